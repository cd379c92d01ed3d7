"""The organizer's live fragment (304 while nothing changed, organizers only) and the mending and judge pages:
confirm-then-act, hostile input answered with a message or a 4xx, never a 500."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournaments import services
from tournaments.models import JudgeCall, MatchSeat, PairingChange, Penalty

from .factories import make_event

pytestmark = pytest.mark.django_db


def _event(games, organizer, players=6):
    event = make_event(organizer, games["yugioh"], players=players, rounds=3)
    round_ = services.round_pair_next(tournament=event, by=organizer)
    seats = list(MatchSeat.objects.filter(match__round=round_, match__bye=False).select_related("player", "match")
                 .order_by("match__table", "seat"))  # fmt: skip
    return event, round_, seats


def test_the_live_fragment_answers_304_until_something_changes(client, games, organizer, user):
    event, _round, seats = _event(games, organizer)
    url = reverse("tournaments:organizer_live", args=[event.pk]) + "?page=round&round=1"
    client.force_login(organizer)
    first = client.get(url)
    assert first.status_code == 200 and 'data-testid="alerts-none"' in first.content.decode()
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    services.judge_call(match=seats[0].match, by=organizer)
    from tournaments.live import live_version_bump

    live_version_bump(tournament_id=event.pk, what="judge_call")  # what the after-commit signal does
    changed = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert (
        changed.status_code == 200
        and f'data-testid="judge-call-{seats[0].match.table}"' in changed.content.decode()
    )
    for page in ("check_in", "event"):
        got = client.get(reverse("tournaments:organizer_live", args=[event.pk]) + f"?page={page}")
        assert got.status_code == 200 and 'data-alert-count="1"' in got.content.decode()
    assert (
        client.get(reverse("tournaments:organizer_live", args=[event.pk]) + "?page=nope").status_code == 404
    )
    assert (
        client.get(reverse("tournaments:organizer_live", args=[event.pk]) + "?page=round&round=x").status_code
        == 404
    )
    client.force_login(user)
    assert client.get(url).status_code == 403


def test_a_swap_goes_through_the_confirmation_page(client, games, organizer):
    event, _round, seats = _event(games, organizer)
    a, b = seats[0].player, seats[2].player
    url = reverse("tournaments:swap", args=[event.pk, 1])
    client.force_login(organizer)
    step = client.post(url, {"player": a.pk, "other": b.pk, "next": "/x/"})
    assert step.status_code == 302 and "/confirm/swap/" in step["Location"]
    page = client.get(step["Location"]).content.decode()
    assert f"Swap {a.name} and {b.name}?" in page
    assert f'name="player" value="{a.pk}"' in page and f'name="other" value="{b.pk}"' in page
    assert not PairingChange.objects.exists()
    done = client.post(url, {"player": a.pk, "other": b.pk, "confirmed": "yes"}, follow=True)
    assert done.status_code == 200 and PairingChange.objects.get().kind == "swap"
    assert f"{a.name} and {b.name} swapped." in done.content.decode()


def test_hostile_mending_is_refused_with_a_message(client, games, organizer, user):
    event, _round, seats = _event(games, organizer)
    _other, _r, other_seats = _event(games, organizer, players=2)
    url = reverse("tournaments:swap", args=[event.pk, 1])
    client.force_login(organizer)
    same = client.post(
        url, {"player": seats[0].player.pk, "other": seats[0].player.pk, "confirmed": "yes"}, follow=True
    )
    assert "Choose two different players." in same.content.decode()
    assert client.post(url, {"player": other_seats[0].player.pk, "other": seats[0].player.pk,
                             "confirmed": "yes"}).status_code == 404  # fmt: skip
    assert client.post(url, {"player": "drop table", "other": "1", "confirmed": "yes"}).status_code == 404
    missing = client.post(url, {"player": seats[0].player.pk, "confirmed": "yes"}, follow=True)
    assert "Choose the second player." in missing.content.decode()
    services.match_report_result(match=seats[0].match, by=organizer, wins=[2, 0])
    played = client.post(url, {"player": seats[2].player.pk, "other": seats[4].player.pk, "confirmed": "yes"},
                         follow=True)  # fmt: skip
    assert "already has results" in played.content.decode()
    client.force_login(user)
    assert client.get(reverse("tournaments:confirm", args=[event.pk, "swap"]) +
                      f"?round=1&player={seats[2].player.pk}&other={seats[4].player.pk}").status_code == 403  # fmt: skip
    refused = client.post(url, {"player": seats[2].player.pk, "other": seats[4].player.pk, "confirmed": "yes"},
                          follow=True)  # fmt: skip
    assert refused.status_code == 200 and "Only the organizers" in refused.content.decode()
    assert not PairingChange.objects.exists()


def test_a_penalty_from_the_organizer_page_is_confirmed_then_logged(client, games, organizer):
    event, _round, seats = _event(games, organizer)
    client.force_login(organizer)
    page = client.get(reverse("tournaments:penalties", args=[event.pk])).content.decode()
    assert 'data-testid="penalty-form"' in page
    form = {"player": seats[0].player.pk, "round": "1", "infraction": "Deck problem", "penalty": "game_loss",
            "note": "15 cards in the side deck"}  # fmt: skip
    step = client.post(reverse("tournaments:penalty", args=[event.pk]), form)
    confirm = client.get(step["Location"]).content.decode()
    assert "loses the current game" in confirm and 'name="infraction" value="Deck problem"' in confirm
    assert not Penalty.objects.exists()
    done = client.post(
        reverse("tournaments:penalty", args=[event.pk]), {**form, "confirmed": "yes"}, follow=True
    )
    body = done.content.decode()
    assert "Penalty recorded" in body and 'data-testid="penalty-log"' in body and "15 cards" in body
    assert Penalty.objects.get().match_id == seats[0].match_id
    dashboard = client.get(reverse("tournaments:round", args=[event.pk, 1])).content.decode()
    assert f'data-testid="penalty-count-{seats[0].player.pk}"' in dashboard
    bad = client.post(reverse("tournaments:penalty", args=[event.pk]), {**form, "penalty": "exile", "confirmed": "yes"},
                      follow=True)  # fmt: skip
    assert "Choose one of" in bad.content.decode() and Penalty.objects.count() == 1


def test_the_clock_extension_and_judge_call_pages(client, games, organizer, make_user):
    event = make_event(organizer, games["yugioh"], players=0, rounds=3)
    players = [make_user(f"p{i}") for i in range(4)]
    for u in players:
        services.player_register(tournament=event, by=u)
    round_ = services.round_pair_next(tournament=event, by=organizer)
    match = round_.matches.order_by("table").first()
    seated = MatchSeat.objects.filter(match=match).select_related("player__user").first().player.user
    stranger = next(u for u in players if not match.seats.filter(player__user=u).exists())
    client.force_login(stranger)
    refused = client.post(reverse("tournaments:judge_call", args=[match.pk]), follow=True)
    assert "Only the players at this table" in refused.content.decode() and not JudgeCall.objects.exists()
    client.force_login(seated)
    me = client.post(reverse("tournaments:judge_call", args=[match.pk]), follow=True).content.decode()
    assert 'data-testid="judge-called"' in me
    client.force_login(organizer)
    clock = reverse("tournaments:clock", args=[event.pk, 1])
    assert "not running" in client.post(clock, {"do": "pause"}, follow=True).content.decode()
    services.round_timer_start(round_=round_, by=organizer, minutes=30)
    assert 'data-testid="timer-paused"' in client.post(clock, {"do": "pause"}, follow=True).content.decode()
    assert (
        "from 1 to 60" in client.post(clock, {"do": "add", "minutes": "9999"}, follow=True).content.decode()
    )
    assert client.post(clock, {"do": "explode"}).status_code == 302
    extend = client.post(
        reverse("tournaments:extend", args=[match.pk]), {"minutes": "5"}, follow=True
    ).content.decode()
    assert f'data-testid="extra-{match.pk}"' in extend
    assert "from 1 to 30" in client.post(reverse("tournaments:extend", args=[match.pk]), {"minutes": "-1"},
                                         follow=True).content.decode()  # fmt: skip
    call = JudgeCall.objects.get()
    client.post(reverse("tournaments:judge_answer", args=[call.pk]))
    call.refresh_from_db()
    assert call.answered_by == organizer
    client.force_login(seated)
    assert (
        'data-testid="call-judge"'
        in client.get(reverse("tournaments:my_event", args=[event.pk])).content.decode()
    )
