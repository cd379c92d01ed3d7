"""A booster draft through the API: pods seated from the seed, picks applied exactly once (Idempotency-Key
replays, a second pick for the same pick is 409), timers that run out pick for the sleeping phone, the picks
are a partition of the packs, stay private, and become the pool the deck is built from."""

from __future__ import annotations

import uuid
from collections import Counter
from datetime import timedelta

import pytest
from django.utils import timezone

from limited.models import DraftPick, DraftPod, LimitedEvent
from tournaments.models import Player

from .conftest import create_limited_event, sign_up

pytestmark = pytest.mark.django_db


def _pick(client, event_id, card, number, key=None):
    return client.post(
        f"/api/tournaments/{event_id}/draft/pick/", {"card": card, "pick_number": number}, format="json",
        HTTP_IDEMPOTENCY_KEY=key or uuid.uuid4().hex,
    )  # fmt: skip


def test_an_eight_player_pod_drafts_three_packs_to_pools(twindeck, api_client_for, make_user, organizer):
    org = api_client_for(organizer)
    created = create_limited_event(org, {"kind": "draft", "product": "td-sample", "packs": 3, "seed": 77})
    assert created.status_code == 201, created.content
    event_id, code = created.json()["id"], created.json()["join_code"]
    players = sign_up(api_client_for, make_user, event_id, code, 8)
    assert players[0][1].post(f"/api/tournaments/{event_id}/draft/start/").status_code == 403
    started = org.post(f"/api/tournaments/{event_id}/draft/start/")
    assert started.status_code == 201 and [len(p["seats"]) for p in started.json()] == [8]
    again = org.post(f"/api/tournaments/{event_id}/draft/start/")
    assert again.status_code == 409 and "already started" in again.content.decode()  # the event's state

    sleeper = players[3][1]  # this phone never picks: the timer picks for it
    number = 1
    while True:
        states = [c.get(f"/api/tournaments/{event_id}/draft/me/").json() for _u, c, _p in players]
        if states[0]["finished"]:
            break
        assert {s["pick_number"] for s in states} == {number}
        assert states[0]["passing"] == ("right" if states[0]["pack_number"] == 2 else "left")
        for i, ((_user, client, _pid), state) in enumerate(zip(players, states, strict=True)):
            if client is sleeper:
                continue
            card = state["pack"][-1]
            key = uuid.uuid4().hex
            made = _pick(client, event_id, card, number, key)
            assert made.status_code == 201, made.content
            if i == 0 and number in (1, 20):
                # The same write again (the answer got lost on the Wi-Fi): replayed, never applied twice.
                again = _pick(client, event_id, card, number, key)
                assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
                other = state["pack"][0] if state["pack"][0] != card else state["pack"][1]
                assert _pick(client, event_id, other, number).status_code == 409
        # Only the sleeping phone is missing: the organizer's tick after its deadline picks for it.
        DraftPod.objects.update(deadline=timezone.now() - timedelta(seconds=1))
        assert org.post(f"/api/tournaments/{event_id}/draft/tick/").json() == {"auto_picks": 1}
        number += 1
    assert number == 46

    pod = DraftPod.objects.get()
    every_pick = Counter(DraftPick.objects.values_list("card", flat=True))
    every_card = Counter(card for rnd in pod.packs for pack in rnd for card in pack)
    assert every_pick == every_card and DraftPick.objects.count() == 8 * 45
    assert DraftPick.objects.filter(auto=True).count() == 45
    assert LimitedEvent.objects.get().draft_finished_at is not None

    # The picks became each player's pool; only their own picks are on their phone.
    for _user, client, player_id in players:
        me = client.get(f"/api/tournaments/{event_id}/draft/me/").json()
        pool = client.get(f"/api/tournaments/{event_id}/pools/{player_id}/").json()
        seat = pod.seats.index(player_id)
        mine = list(
            DraftPick.objects.filter(pod=pod, seat=seat)
            .order_by("pick_number")
            .values_list("card", flat=True)
        )
        assert me["picks"] == mine and pool == dict(Counter(mine))
    assert Player.objects.filter(tournament_id=event_id, pool__isnull=False).count() == 8


def test_a_paused_pod_takes_no_pick_and_its_timer_stops(twindeck, api_client_for, make_user, organizer):
    org = api_client_for(organizer)
    event_id = create_limited_event(org, {"kind": "draft", "product": "td-sample", "seed": 5}).json()["id"]
    code = org.get(f"/api/tournaments/{event_id}/").json()["join_code"]
    players = sign_up(api_client_for, make_user, event_id, code, 4)
    org.post(f"/api/tournaments/{event_id}/draft/start/")
    assert (
        org.post(
            f"/api/tournaments/{event_id}/draft/pods/1/pause/", {"paused": True}, format="json"
        ).status_code
        == 200
    )
    client = players[0][1]
    state = client.get(f"/api/tournaments/{event_id}/draft/me/").json()
    assert state["paused"] and state["deadline"] is None
    refused = _pick(client, event_id, state["pack"][0], 1)
    assert refused.status_code == 409 and refused.json()["detail"] == "paused"
    assert org.post(f"/api/tournaments/{event_id}/draft/tick/").json() == {"auto_picks": 0}
    org.post(f"/api/tournaments/{event_id}/draft/pods/1/pause/", {"paused": False}, format="json")
    assert _pick(client, event_id, state["pack"][0], 1).status_code == 201
    # A card that is not in the pack: 400 naming it; a pick ahead of the pod: 409.
    assert _pick(players[1][1], event_id, "td-nope", 1).status_code == 400
    # A card named by a number is malformed (the schema says text), not "td-…" read from digits.
    number = _pick(players[1][1], event_id, 7, 1)
    assert number.status_code == 400 and "card" in number.json()
    assert _pick(client, event_id, state["pack"][1], 2).status_code == 409
    # The dashboard shows who has picked, never what.
    pods = org.get(f"/api/tournaments/{event_id}/draft/pods/").json()
    assert [s["picked"] for s in pods[0]["seats"]].count(True) == 1
    assert "picks" not in pods[0] and state["pack"][0] not in str(pods)
    assert client.get(f"/api/tournaments/{event_id}/draft/pods/").status_code == 403


def test_a_request_the_events_state_refuses_is_409(api_client_for, make_user, organizer, twindeck):
    # README "Errors": the current state refuses a well-formed request. A draft of one entrant cannot start
    # (g001 V §11: the players distribute the cards among themselves), a draft has no pools to deal.
    org = api_client_for(organizer)
    created = create_limited_event(org, {"kind": "draft", "product": "td-sample", "packs": 3, "seed": 5})
    event_id, code = created.json()["id"], created.json()["join_code"]
    sign_up(api_client_for, make_user, event_id, code, 1)
    alone = org.post(f"/api/tournaments/{event_id}/draft/start/")
    assert alone.status_code == 409 and "at least two players" in alone.json()["detail"]
    deal = org.post(f"/api/tournaments/{event_id}/limited/deal/")
    assert deal.status_code == 409 and "sealed" in deal.json()["detail"]
    assert not DraftPod.objects.exists()
