"""The organizer's pages of a big event: a bounded number of queries whatever the number of
players, only the tables that need someone in the live fragment, one searchable page of each list, one CSRF
token per page (the shared fragment carries none) and every action still refused without it."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournaments import services
from tournaments.live import live_version_bump
from tournaments.models import JudgeCall, Match, MatchSeat, Player

from .factories import make_event

pytestmark = pytest.mark.django_db


def _running_event(games, organizer, players):
    """A paired round of ``players`` players with half the results in, two disputes and a judge call."""
    event = make_event(organizer, games["caster"], rounds=5)
    Player.objects.bulk_create([Player(tournament=event, name=f"Player {i:04d}") for i in range(players)])
    round_ = services.round_pair_next(tournament=event, by=organizer)
    matches = list(round_.matches.filter(bye=False).order_by("table"))
    done = matches[: len(matches) // 2]
    seats = list(MatchSeat.objects.filter(match__in=done).order_by("match_id", "seat"))
    for i in range(0, len(seats), 2):
        seats[i].wins = 2
    MatchSeat.objects.bulk_update(seats, ["wins"])
    Match.objects.filter(pk__in=[m.pk for m in done[:-2]]).update(status="final")
    Match.objects.filter(pk__in=[m.pk for m in done[-2:]]).update(status="disputed", dispute_reason="Why")
    JudgeCall.objects.create(match=matches[-1], player=matches[-1].seats.first().player)
    return event, round_


def _queries(client, url):
    with CaptureQueriesContext(connection) as queries:
        answer = client.get(url)
    assert answer.status_code == 200, url
    return len(queries), answer.content.decode()


def _urls(event):
    live = reverse("tournaments:organizer_live", args=[event.pk])
    return [
        reverse("tournaments:round", args=[event.pk, 1]),
        f"{live}?page=round&round=1",
        reverse("tournaments:check_in", args=[event.pk]),
        f"{live}?page=check_in",
        f"{live}?page=event",
    ]


def test_the_organizer_pages_read_as_many_queries_for_300_players_as_for_50(
    client, games, organizer, django_assert_max_num_queries
):
    client.force_login(organizer)
    small, _ = _running_event(games, organizer, 50)
    big, _ = _running_event(games, organizer, 300)
    for small_url, big_url in zip(_urls(small), _urls(big), strict=True):
        few, _ = _queries(client, small_url)
        with django_assert_max_num_queries(35):
            many, _page = _queries(client, big_url)
        assert many == few, (big_url, few, many)
    # The dashboard's live part lists the tables that need someone, not the 150 of the round.
    _, fragment = _queries(client, f"{_urls(big)[1]}")
    assert 0 < fragment.count("data-match=") <= 25 and 'data-testid="more-outstanding"' in fragment


def test_the_live_fragment_is_shared_and_tokenless_while_the_page_works_without_javascript(
    client, games, organizer, make_user
):
    event, _round = _running_event(games, organizer, 20)
    helper = make_user("judge", organizer=True)
    event.co_organizers.add(helper)
    client.force_login(organizer)
    page = client.get(reverse("tournaments:round", args=[event.pk, 1])).content.decode()
    live = page[page.index('data-testid="dashboard"') : page.index('data-testid="all-matches"')]
    # A full load carries a token in every form (JavaScript off still works); the polled copy carries none.
    assert live.count("<form") == live.count("csrfmiddlewaretoken") > 0 and 'id="org-csrf"' in page
    url = _urls(event)[1]
    first = client.get(url)
    assert b"csrfmiddlewaretoken" not in first.content and b"<form" in first.content
    other = Client()
    other.force_login(helper)
    second = other.get(url)
    assert first["ETag"] == second["ETag"] and first.content == second.content
    live_version_bump(tournament_id=event.pk, what="result")
    assert other.get(url, HTTP_IF_NONE_MATCH=second["ETag"]).status_code == 200


def test_an_action_of_the_live_part_is_refused_without_the_token_and_done_with_it(games, organizer):
    event, round_ = _running_event(games, organizer, 8)
    match = round_.matches.filter(bye=False, status="pending").order_by("table").first()
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(organizer)
    page = browser.get(reverse("tournaments:round", args=[event.pk, 1])).content.decode()
    token = page.split('id="org-csrf" value="')[1].split('"')[0]
    report = reverse("tournaments:report", args=[match.pk])
    assert browser.post(report, {"wins_a": 2, "wins_b": 0}).status_code == 403
    match.refresh_from_db()
    assert match.status == "pending"
    done = browser.post(report, {"wins_a": 2, "wins_b": 0, "csrfmiddlewaretoken": token})
    assert done.status_code == 302
    match.refresh_from_db()
    assert match.status != "pending"


def test_the_lists_are_searchable_and_paged(client, games, organizer):
    event, _ = _running_event(games, organizer, 240)
    client.force_login(organizer)
    check_in = reverse("tournaments:check_in", args=[event.pk])
    page = client.get(check_in).content.decode()
    assert page.count('data-player="') == 50 and "page 1 of 5" in page
    found = client.get(check_in, {"q": "player 0123"}).content.decode()
    assert found.count('data-player="') == 1 and 'data-player="Player 0123"' in found
    assert client.get(check_in, {"p": "x"}).status_code == 200  # not a page number: the first page
    dashboard = reverse("tournaments:round", args=[event.pk, 1])
    page = client.get(dashboard, {"p": 3}).content.decode()
    assert "page 3 of 3" in page and page.count('data-listed="1"') == 20
    seat = MatchSeat.objects.filter(match__round__tournament=event).select_related("player", "match").first()
    found = client.get(dashboard, {"q": seat.player.name}).content.decode()
    assert found.count('data-listed="1"') == 1 and f'data-match="{seat.match_id}" data-listed="1"' in found
    assert client.get(dashboard, {"q": str(seat.match.table)}).content.decode().count('data-listed="1"') >= 1
    assert 'data-testid="match-list-empty"' in client.get(dashboard, {"q": "nobody at all"}).content.decode()


def test_the_event_page_lists_the_first_100_players_to_an_organizer_and_check_in_acts_on_anyone(
    client, games, organizer
):
    event, _ = _running_event(games, organizer, 240)
    client.force_login(organizer)
    page = client.get(reverse("tournaments:detail", args=[event.pk])).content.decode()
    section = page[page.index('data-testid="players"') :]
    assert section.count('<tr data-player="') == 100 and 'data-testid="players-more"' in page
    last = event.players.order_by("-name").first()
    found = client.get(reverse("tournaments:check_in", args=[event.pk]), {"q": last.name}).content.decode()
    assert f'data-testid="check-in-drop-{last.pk}"' in found
    assert reverse("tournaments:player_link", args=[event.pk, last.pk]) in found


def test_the_mending_menus_list_every_player_of_the_round_escaped(client, games, organizer):
    event = make_event(organizer, games["caster"], rounds=3)
    Player.objects.bulk_create(
        [Player(tournament=event, name=n) for n in ("<b>Bold</b>", "Ann", "Ben", "Cy")]
    )
    services.round_pair_next(tournament=event, by=organizer)
    client.force_login(organizer)
    page = client.get(reverse("tournaments:round", args=[event.pk, 1])).content.decode()
    assert 'data-testid="mend-tools"' in page and "<b>Bold</b>" not in page
    assert page.count("&lt;b&gt;Bold&lt;/b&gt;</option>") == 6  # swap ×2, pair ×2, bye/loss, fixed table


def test_a_table_with_extra_time_is_late_only_once_its_own_time_is_up(games, organizer):
    from datetime import timedelta

    from django.utils import timezone

    from tournaments.live.organizer import _late_tables, organizer_alerts

    event, round_ = _running_event(games, organizer, 8)
    first, second = round_.matches.filter(bye=False, status="pending").order_by("table")[:2]
    Match.objects.filter(pk=first.pk).update(extra_minutes=5)
    Match.objects.filter(pk=second.pk).update(extra_minutes=10)
    now = timezone.now()
    round_.timer_ends_at = now - timedelta(minutes=7, seconds=30)
    round_.save(update_fields=["timer_ends_at"])
    alerts = organizer_alerts(event.pk, now)
    late = {m.pk for m in alerts.late}
    assert first.pk in late and second.pk not in late and alerts.late_count == len(late)
    # The tag counts every unsettled table out of time (disputed ones too): the second joins 2.5 min later.
    assert _late_tables(event.pk, now + timedelta(minutes=3)) == _late_tables(event.pk, now) + 1
    round_.timer_ends_at = now + timedelta(minutes=1)
    round_.save(update_fields=["timer_ends_at"])
    assert _late_tables(event.pk, now) == 0 and organizer_alerts(event.pk, now).late_count == 0


def test_marking_a_player_present_comes_back_to_the_same_search(client, games, organizer):
    event = make_event(organizer, games["caster"], rounds=3)
    Player.objects.bulk_create([Player(tournament=event, name=f"Guest {i:03d}") for i in range(120)])
    services.checkin_open(tournament=event, by=organizer)
    client.force_login(organizer)
    check_in = reverse("tournaments:check_in", args=[event.pk])
    page = client.get(check_in, {"q": "guest 11", "p": 1}).content.decode()
    assert page.count('data-player="') == 10 and 'name="next" value="/tournaments/' in page
    guest = event.players.get(name="Guest 117")
    back = page.split(f'data-testid="mark-{guest.pk}"')[0].rsplit('name="next" value="', 1)[1].split('"')[0]
    done = client.post(
        reverse("tournaments:player_check_in", args=[event.pk, guest.pk]), {"present": "1", "next": back}
    )
    assert done.status_code == 302 and done["Location"] == f"{check_in}?q=guest+11"
    guest.refresh_from_db()
    assert guest.checked_in_at is not None
    assert f'data-testid="present-{guest.pk}"' in client.get(done["Location"]).content.decode()
