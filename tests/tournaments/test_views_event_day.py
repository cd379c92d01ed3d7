"""Event-day pages without a browser: joining by code, poster, bulk add, check-in, confirmation steps, game by
game reporting with a stale confirm, disputes resolved with a reason, drops undone, pod standings in words."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tournaments import services
from tournaments.models import Match, Player, Tournament

from .factories import make_event, ygo_cards, ygo_payload

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(games, organizer):  # type: ignore[no-untyped-def]
    ygo_cards(games["yugioh"])
    return make_event(organizer, games["yugioh"], rounds=3)


def test_it_joins_a_signed_in_player_in_one_step(client, event, user):
    client.force_login(user)
    page = client.get(reverse("tournaments:join_code", args=[event.join_code.lower()]))
    assert page.status_code == 200 and 'data-testid="join-form"' in page.content.decode()
    response = client.post(reverse("tournaments:join_code", args=[event.join_code]), {"deck_text": ""})
    assert response.status_code == 302 and response["Location"] == reverse(
        "tournaments:my_event", args=[event.pk]
    )
    assert event.players.filter(user=user).count() == 1
    # Twice: the code page sends them to their event instead of a second entry.
    again = client.get(reverse("tournaments:join_code", args=[event.join_code]))
    assert again.status_code == 302 and event.players.filter(user=user).count() == 1


def test_a_newcomer_creates_an_account_while_joining(client, event):
    data = {
        "username": "newbie",
        "email": "n@example.com",
        "password1": "Lotus-Petal-77",
        "password2": "Lotus-Petal-77",
    }
    response = client.post(reverse("tournaments:join_code", args=[event.join_code]), data)
    assert response.status_code == 302
    player = event.players.get(user__username="newbie")
    assert client.get(reverse("tournaments:my_event", args=[event.pk])).status_code == 200
    assert player.name == "newbie"


def _without_csrf(response) -> str:
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", response.content.decode())


def test_a_bad_signup_or_a_wrong_code_changes_nothing(client, event):
    from accounts.models import User

    data = {"username": "newbie", "password1": "short", "password2": "other"}
    response = client.post(reverse("tournaments:join_code", args=[event.join_code]), data)
    assert response.status_code == 400 and not User.objects.filter(username="newbie").exists()
    # Anonymous visitors see the same page for a wrong code as for a right one (no existence oracle) ...
    wrong = client.get(reverse("tournaments:join_code", args=["ZZZZZZ"]))
    right = client.get(reverse("tournaments:join_code", args=[event.join_code]))
    assert wrong.status_code == right.status_code == 200
    assert _without_csrf(wrong).replace("ZZZZZZ", event.join_code) == _without_csrf(right)
    # ... and a wrong code creates no account.
    data = {"username": "newbie", "password1": "Lotus-Petal-77", "password2": "Lotus-Petal-77"}
    refused = client.post(reverse("tournaments:join_code", args=["ZZZZZZ"]), data)
    assert refused.status_code == 400 and not User.objects.filter(username="newbie").exists()
    assert "ZZZZZZ" in refused.content.decode()
    assert client.get(reverse("tournaments:join_start"), {"code": " zz zz "}).status_code == 302


def test_an_illegal_pasted_list_refuses_the_whole_join(client, event, user):
    client.force_login(user)
    response = client.post(
        reverse("tournaments:join_code", args=[event.join_code]), {"deck_text": "#main\n999999\n"}
    )
    assert response.status_code == 400 and not event.players.exists()


def test_the_poster_has_the_code_and_an_inline_qr_code(client, event, organizer, user):
    client.force_login(user)
    assert client.get(reverse("tournaments:poster", args=[event.pk])).status_code == 403
    client.force_login(organizer)
    page = client.get(reverse("tournaments:poster", args=[event.pk])).content.decode()
    assert (
        event.join_code in page
        and "<svg" in page
        and "<script" not in page.split("<svg", 1)[1].split("</svg>")[0]
    )


def test_organizers_add_players_in_bulk_and_check_them_in(client, event, organizer, user):
    client.force_login(organizer)
    response = client.post(
        reverse("tournaments:players_bulk", args=[event.pk]), {"kind": "names", "text": "Ann\nBen\n\nCid\n"}
    )
    assert response.status_code == 302 and set(event.players.values_list("name", flat=True)) == {
        "Ann",
        "Ben",
        "Cid",
    }
    client.post(reverse("tournaments:check_in_open", args=[event.pk]))
    ann = event.players.get(name="Ann")
    client.post(reverse("tournaments:player_check_in", args=[event.pk, ann.pk]), {"present": "1"})
    page = client.get(reverse("tournaments:check_in", args=[event.pk])).content.decode()
    assert f'data-testid="present-{ann.pk}"' in page and "1 of 3 checked in." in page
    # A player cannot mark someone else present.
    client.force_login(user)
    ben = event.players.get(name="Ben")
    client.post(reverse("tournaments:player_check_in", args=[event.pk, ben.pk]))
    ben.refresh_from_db()
    assert ben.checked_in_at is None


def test_starting_drops_the_no_shows_after_a_confirmation(client, event, organizer):
    for name in ("Ann", "Ben", "Cid"):
        services.player_register(tournament=event, by=organizer, name=name)
    services.checkin_open(tournament=event, by=organizer)
    for player in event.players.exclude(name="Cid"):
        services.player_check_in(player=player, by=organizer)
    client.force_login(organizer)
    first = client.post(reverse("tournaments:start", args=[event.pk]))
    assert first["Location"] == reverse("tournaments:confirm", args=[event.pk, "start"])
    assert Tournament.objects.get(pk=event.pk).status == "registration"
    assert "no-shows" in client.get(first["Location"]).content.decode()
    client.post(reverse("tournaments:start", args=[event.pk]), {"confirmed": "yes"})
    assert event.players.get(name="Cid").no_show and event.round_set.count() == 1


def _two_player_event(games, organizer, make_user):  # type: ignore[no-untyped-def]
    cards = ygo_cards(games["yugioh"])
    event = make_event(organizer, games["yugioh"], rounds=3, deck_registration=True)
    alice, bob = make_user("alice"), make_user("bob")
    players = []
    for user in (alice, bob):
        player = services.player_register(tournament=event, by=user)
        services.player_submit_deck(player=player, by=user, payload=ygo_payload(cards))
        players.append(player)
    services.round_pair_next(tournament=event, by=organizer)
    match = event.round_set.get(number=1).matches.get()
    return event, match, (alice, bob), players


def test_games_are_saved_one_by_one_and_a_stale_confirm_is_refused(client, games, organizer, make_user):
    event, match, (alice, bob), (pa, pb) = _two_player_event(games, organizer, make_user)
    client.force_login(alice)
    url = reverse("tournaments:match_game", args=[match.pk])
    back = reverse("tournaments:my_event", args=[event.pk])
    client.post(url, {"number": 1, "first": pa.pk, "winner": pb.pk, "next": back})
    page = client.get(back).content.decode()
    assert 'data-game="1"' in page and "pending" in page, "one game does not make a reported match"
    client.post(url, {"number": 1, "first": pa.pk, "winner": pa.pk, "next": back})  # corrected
    client.post(url, {"number": 2, "first": pb.pk, "winner": pa.pk, "next": back})
    match.refresh_from_db()
    assert match.status == Match.Status.REPORTED and match.games.count() == 2
    seen = match.version
    client.force_login(bob)
    mine = client.get(back).content.decode()
    assert f'name="version" value="{seen}"' in mine and "Confirm 2–0" in mine
    # Alice changes the result after Bob read it: his confirm names the old version and is refused.
    services.match_save_game(match=match, by=alice, number=2, first=pb.pk, winner=pb.pk)
    stale = client.post(reverse("tournaments:match_confirm", args=[match.pk]), {"version": seen})
    assert stale.status_code == 409
    assert "changed since you read it" in stale.content.decode()
    match.refresh_from_db()
    assert match.status != Match.Status.CONFIRMED


def test_a_dispute_is_resolved_with_a_reason(client, games, organizer, make_user):
    event, match, (alice, bob), (_pa, _pb) = _two_player_event(games, organizer, make_user)
    services.match_report_result(match=match, by=alice, wins=[2, 0])
    client.force_login(bob)
    client.post(reverse("tournaments:dispute", args=[match.pk]), {"reason": "I won game two"})
    client.force_login(organizer)
    dashboard = client.get(reverse("tournaments:round", args=[event.pk, 1])).content.decode()
    assert "I won game two" in dashboard and 'class="disputed"' in dashboard
    refused = client.post(
        reverse("tournaments:resolve", args=[match.pk]), {"keep": "1", "reason": ""}, follow=True
    )
    assert refused.status_code == 200
    match.refresh_from_db()
    assert match.status == Match.Status.DISPUTED
    client.post(
        reverse("tournaments:resolve", args=[match.pk]),
        {"wins_a": "1", "wins_b": "2", "reason": "judge call"},
    )
    match.refresh_from_db()
    assert match.status == Match.Status.FINAL and match.result_changes.filter(reason="judge call").exists()


def test_a_drop_is_confirmed_and_can_be_undone(client, games, organizer, make_user):
    event, _match, (_alice, _bob), (pa, _pb) = _two_player_event(games, organizer, make_user)
    client.force_login(organizer)
    page = client.get(
        reverse("tournaments:confirm", args=[event.pk, "drop"]), {"player": pa.pk}
    ).content.decode()
    assert "Drop alice?" in page
    client.post(reverse("tournaments:drop", args=[event.pk, pa.pk]), {"confirmed": "yes"})
    assert Player.objects.get(pk=pa.pk).dropped
    detail = client.get(reverse("tournaments:detail", args=[event.pk])).content.decode()
    assert f'data-testid="undrop-{pa.pk}"' in detail
    client.post(reverse("tournaments:undrop", args=[event.pk, pa.pk]))
    assert not Player.objects.get(pk=pa.pk).dropped


def test_confirmation_pages_refuse_players_and_unknown_actions(client, event, user):
    client.force_login(user)
    assert client.get(reverse("tournaments:confirm", args=[event.pk, "pair"])).status_code == 403
    assert client.get(reverse("tournaments:confirm", args=[event.pk, "explode"])).status_code == 404


def test_pod_standings_name_their_columns_and_round_the_values(client, games, organizer):
    event = make_event(organizer, games["vale"], match_format="pods", tiebreakers="pods", rounds=1)
    for name in ("Ann", "Ben", "Cid"):
        services.player_register(tournament=event, by=organizer, name=name)
    round_ = services.round_pair_next(tournament=event, by=organizer)
    pod = round_.matches.get()
    places = [
        {"player": s.player_id, "score": score, "tiebreak": 8}
        for s, score in zip(pod.seats.order_by("seat"), (58, 58, 40), strict=True)
    ]
    services.match_report_result(match=pod, by=organizer, places=places)
    page = client.get(reverse("tournaments:standings", args=[event.pk])).content.decode()
    assert "Victory points" in page and "Summoned cards" in page and "TB1" not in page
    assert "2.33333" not in page


def test_every_new_page_speaks_russian(client, event, organizer):
    client.force_login(organizer)
    client.cookies["django_language"] = "ru"
    pages = {
        reverse("tournaments:check_in", args=[event.pk]): "Открыть отметку",
        reverse("tournaments:players_bulk", args=[event.pk]): "Имена, по одному в строке",
        reverse("tournaments:poster", args=[event.pk]): "Код для входа",
        reverse("tournaments:confirm", args=[event.pk, "freeze"]): "Закрыть регистрацию?",
        reverse("tournaments:join_start"): "Регистрация на турнир",
        reverse("tournaments:detail", args=[event.pk]): "Плакат с QR-кодом",
    }
    for url, words in pages.items():
        page = client.get(url).content.decode()
        assert words in page, url
