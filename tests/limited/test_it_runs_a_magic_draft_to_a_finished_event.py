"""An 8-player Magic draft through the API: draft boosters opened from the rule set's data (rare or mythic,
uncommons, commons, a basic land), every pick made (by phone or by the timer), decks of 40 from the picks
plus free basic lands registered, Swiss played and the event finished. A card outside the picks is refused."""

from __future__ import annotations

import uuid
from collections import Counter
from datetime import timedelta

import pytest
from django.utils import timezone

from cards.models import Card
from limited.models import DraftPick, DraftPod
from tests.tournaments.factories import finish_round
from tournaments import services as tournament_services
from tournaments.models import Tournament

from .conftest import sign_up

pytestmark = pytest.mark.django_db


def test_an_eight_player_magic_draft_runs_to_a_finished_event(magic, api_client_for, make_user, organizer):
    org = api_client_for(organizer)
    created = org.post(
        "/api/tournaments/",
        {"name": "Draft night", "game": "mtg", "format": "limited", "deck_registration": True, "rounds": 3,
         "limited": {"kind": "draft", "product": "draft-booster", "packs": 3, "seed": 2026}},
        format="json",
    )  # fmt: skip
    assert created.status_code == 201, created.content
    event_id = created.json()["id"]
    players = sign_up(api_client_for, make_user, event_id, created.json()["join_code"], 8)
    org.post(f"/api/tournaments/{event_id}/draft/start/")
    pod = DraftPod.objects.get()
    for rnd in pod.packs:
        for pack in rnd:
            rarities = Counter(c.split()[0] if " " in c else "basic" for c in pack)
            assert len(pack) == 15 and rarities["rare"] + rarities["mythic"] == 1
            assert rarities["uncommon"] == 3 and rarities["common"] == 10 and rarities["basic"] == 1

    first = players[0][1]
    for number in range(1, 46):
        me = first.get(f"/api/tournaments/{event_id}/draft/me/").json()
        assert me["pick_number"] == number and len(me["pack"]) == 15 - (number - 1) % 15
        answer = first.post(
            f"/api/tournaments/{event_id}/draft/pick/", {"card": me["pack"][0], "pick_number": number},
            format="json", HTTP_IDEMPOTENCY_KEY=uuid.uuid4().hex,
        )  # fmt: skip
        assert answer.status_code == 201
        # Everyone else lets the timer pick.
        DraftPod.objects.update(deadline=timezone.now() - timedelta(seconds=1))
        assert org.post(f"/api/tournaments/{event_id}/draft/tick/").json() == {"auto_picks": 7}
    assert Counter(DraftPick.objects.values_list("card", flat=True)) == Counter(
        card for rnd in pod.packs for pack in rnd for card in pack
    )

    for _user, client, player_id in players:
        pool = client.get(f"/api/tournaments/{event_id}/pools/{player_id}/").json()
        assert sum(pool.values()) == 45
        spells = [
            k
            for k, n in pool.items()
            for _ in range(n)
            if not Card.objects.filter(external_id=k, card_type="land").exists()
        ][:23]
        main = Counter(spells)
        deck = {
            "sections": {
                "main": [*({"card": k, "count": n} for k, n in main.items()), {"card": "Plains", "count": 17}]
            }
        }
        answer = client.post(f"/api/tournaments/{event_id}/pools/{player_id}/deck/", deck, format="json")
        assert answer.status_code == 201, answer.content
    outsider = next(
        c for c in Card.objects.filter(game=magic, card_type="creature") if c.external_id not in pool
    )
    bad = {"sections": {"main": [*deck["sections"]["main"], {"card": outsider.external_id, "count": 1}]}}
    refused = client.post(f"/api/tournaments/{event_id}/pools/{player_id}/deck/", bad, format="json")
    assert refused.status_code == 400 and outsider.name in refused.content.decode()

    tournament = Tournament.objects.get(pk=event_id)
    tournament_services.tournament_start(tournament=tournament, by=organizer)
    for _round in range(3):
        tournament_services.round_pair_next(tournament=tournament, by=organizer)
        finish_round(tournament, organizer)
    tournament_services.tournament_finish(tournament=tournament, by=organizer)
    assert Tournament.objects.get(pk=event_id).status == Tournament.Status.FINISHED
