"""Live pages: ETag/304 over the event's change counter, constant cost per phone, private swaps, shared renders."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournaments import live, services
from tournaments.models import Tournament

from .factories import make_event, ygo_cards, ygo_payload

pytestmark = pytest.mark.django_db(transaction=True)


def _event(games, organizer, make_user, players: int, other_side: bool = False):  # type: ignore[no-untyped-def]
    """A Yu-Gi-Oh! event of ``players`` (the first two with accounts), all with decks, round 1 paired.
    ``other_side``: the second player's side deck holds other cards than the first's."""
    cards = ygo_cards(games["yugioh"])
    event = make_event(organizer, games["yugioh"], deck_registration=True, rounds=3)
    users = [make_user(f"p{i}") for i in range(2)]
    entries = []
    for i in range(players):
        user = users[i] if i < 2 else None
        player = services.player_register(tournament=event, by=user or organizer, user=user,
                                          name="" if user else f"Guest {i:03d}")  # fmt: skip
        payload = ygo_payload(cards)
        if other_side and i == 1:
            payload["sections"]["side"] = [{"card": c.external_id, "count": 2} for c in cards["side"][2:5]]
        services.player_submit_deck(player=player, by=organizer, payload=payload)
        entries.append(player)
    services.round_pair_next(tournament=event, by=organizer)
    return event, users, entries, cards


def _my_event_live(client, event, user):  # type: ignore[no-untyped-def]
    client.force_login(user)
    page = client.get(reverse("tournaments:my_event", args=[event.pk]))
    assert page.status_code == 200
    url = page.content.decode().split('data-live-url="', 1)[1].split('"', 1)[0].replace("&amp;", "&")
    return url


def test_it_answers_304_while_nothing_changed_and_a_new_etag_after_a_change(
    client, games, organizer, make_user
):
    event, users, _entries, _cards = _event(games, organizer, make_user, 4)
    url = _my_event_live(client, event, users[0])
    first = client.get(url)
    assert first.status_code == 200 and first["ETag"]
    with CaptureQueriesContext(connection) as queries:
        again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    assert len(queries) == 1, [q["sql"] for q in queries]
    round_ = event.round_set.get(number=1)
    services.round_timer_start(round_=round_, by=organizer, minutes=40)
    changed = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]
    assert "my-timer" in changed.content.decode()


def test_a_change_elsewhere_in_the_event_still_ends_in_304_for_this_phone(
    client, games, organizer, make_user
):
    event, users, entries, _cards = _event(games, organizer, make_user, 8)
    url = _my_event_live(client, event, users[0])
    first = client.get(url)
    other = (
        event.round_set.get(number=1).matches.exclude(seats__player__in=entries[:2]).filter(bye=False).first()
    )
    services.match_report_result(match=other, by=organizer, wins=[2, 0])
    assert Tournament.objects.get(pk=event.pk).live_version > 0
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304


def _queries_for_my_event(client, games, organizer, make_user, players: int) -> int:  # type: ignore[no-untyped-def]
    event, users, _entries, _cards = _event(games, organizer, make_user, players)
    url = _my_event_live(client, event, users[0])
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return len(queries)


def test_my_event_costs_the_same_queries_with_10_or_200_players(
    client, games, organizer, make_user, django_db_blocker
):
    small = _queries_for_my_event(client, games, organizer, make_user, 10)
    Tournament.objects.all().delete()
    from accounts.models import User

    User.objects.filter(username__in=["p0", "p1"]).delete()
    big = _queries_for_my_event(client, games, organizer, make_user, 200)
    assert small == big
    assert big <= 14


def test_the_opponent_never_sees_my_swaps(client, games, organizer, make_user):
    # The opponent's side deck holds other cards, so the secret card's name can only leak from my swap.
    event, users, entries, cards = _event(games, organizer, make_user, 2, other_side=True)
    me, opponent_user = entries[0], users[1]
    match = event.round_set.get(number=1).matches.get(seats__player=me)
    seats = list(match.seats.order_by("seat"))
    assert {s.player_id for s in seats} == {entries[0].pk, entries[1].pk}, "the two account holders meet"
    services.match_save_game(match=match, by=users[0], number=1, first=me.pk, winner=entries[1].pk)
    secret_out, secret_in = cards["main"][0], cards["side"][0]
    client.force_login(users[0])
    response = client.post(
        reverse("tournaments:sideboard", args=[match.pk]),
        {"player": me.pk, "game_number": 2, f"out:main:{secret_out.external_id}": "1",
         f"in:{secret_in.external_id}": "1"},
    )  # fmt: skip
    assert response.status_code == 302
    assert match.sideboard_changes.count() == 1
    mine = client.get(reverse("tournaments:my_event", args=[event.pk])).content.decode()
    assert secret_in.name in mine and "my-swaps" in mine
    client.force_login(opponent_user)
    for url in (
        reverse("tournaments:my_event", args=[event.pk]),
        reverse("tournaments:match", args=[match.pk]),
    ):
        page = client.get(url).content.decode()
        assert secret_in.name not in page, url
        assert "sideboard-changes" not in page and "my-swaps" not in page
    api = client.get(f"/api/matches/{match.pk}/")
    if api.status_code == 200:
        assert (
            secret_in.external_id not in api.content.decode() and secret_in.name not in api.content.decode()
        )


def test_shared_pages_are_rendered_once_per_change_and_served_gzipped(client, games, organizer, make_user):
    event, _users, _entries, _cards = _event(games, organizer, make_user, 6)
    live.render_count.clear()
    url = reverse("tournaments:projector", args=[event.pk, "pairings"]) + "?fragment=1"
    responses = [client.get(url, HTTP_ACCEPT_ENCODING="gzip") for _ in range(5)]
    assert {r.status_code for r in responses} == {200}
    assert responses[0]["Content-Encoding"] == "gzip"
    assert sum(live.render_count.values()) == 1
    etag = responses[0]["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    services.round_timer_start(round_=event.round_set.get(number=1), by=organizer, minutes=30)
    after = [client.get(url) for _ in range(3)]
    assert after[0]["ETag"] != etag and sum(live.render_count.values()) == 2
    # The full projector page embeds the same cached fragment: no further render.
    full = client.get(reverse("tournaments:projector", args=[event.pk, "pairings"]))
    assert full.status_code == 200 and sum(live.render_count.values()) == 2


def test_a_forged_or_missing_token_is_refused(client, games, organizer, make_user):
    event, users, _entries, _cards = _event(games, organizer, make_user, 4)
    url = reverse("tournaments:my_event_live", args=[event.pk])
    assert client.get(url).status_code == 403
    assert client.get(url, {"k": "forged:token"}).status_code == 403
    # Someone else's valid token never shows that player's page.
    token = live.my_event_token(player_id=_entries[0].pk, user_id=users[0].pk)
    client.force_login(users[1])
    assert client.get(url, {"k": token}).status_code == 403
