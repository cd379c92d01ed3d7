"""Standings like pairings: computed once per change, a shared page of 50 places with ETag/304, polled as a
fragment, on a player's phone their own place first — never 2,000 rows to a phone."""

from __future__ import annotations

import gzip

import pytest
from django.urls import reverse

from tournaments import services
from tournaments.live import standings as live_standings
from tournaments.live.wsgi import LivePolls
from tournaments.models import Player

from .factories import finish_round, make_event
from .test_live_wsgi import Downstream, call

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def big(games, organizer):  # type: ignore[no-untyped-def]
    """A 120-player event with round 1 played and one signed-in player far down the list."""
    from accounts.models import User

    event = make_event(organizer, games["caster"], players=119, rounds=3)
    user = User.objects.create(username="far", email="far@example.com")
    me = services.player_register(tournament=event, by=user, user=user, name="")
    services.round_pair_next(tournament=event, by=organizer)
    finish_round(event, organizer)
    return {"event": event, "user": user, "me": me, "organizer": organizer}


def _fragment_url(page: str) -> str:
    return page.split('data-live-url="', 1)[1].split('"', 1)[0].replace("&amp;", "&")


def test_a_phone_gets_its_own_place_first_and_one_page_not_every_row(client, big):
    event, me = big["event"], big["me"]
    client.force_login(big["user"])
    page = client.get(reverse("tournaments:standings", args=[event.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    mine = html.split('data-testid="standings-mine-box"', 1)[1]
    assert 'data-testid="my-standing"' in mine and f'data-player-id="{me.pk}"' in mine
    assert html.index("standings-mine-box") < html.index('data-testid="standings"')
    listed = html.split('data-testid="standings"', 1)[1].count("data-player-id=")
    assert listed == live_standings.PAGE_ROWS
    assert html.count("data-player-id=") <= live_standings.PAGE_ROWS + 2 * live_standings.AROUND + 1
    assert 'data-testid="standings-next"' in html and "?all=1" in html
    # The fragment the page polls: 304 while nothing changed, through Django and the fast path alike.
    url = _fragment_url(html)
    assert f"me={me.pk}" in url
    first = client.get(url)
    assert first.status_code == 200 and first["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    app = LivePolls(Downstream())
    assert call(app, url, first["ETag"])[0].startswith("304") and app.app.calls == 0


def test_standings_are_computed_once_per_result_and_a_swap_or_clock_change_keeps_the_304(
    client, big, settings
):
    settings.LIVE_STANDINGS_EVERY_S = 0
    event, organizer = big["event"], big["organizer"]
    url = reverse("tournaments:standings", args=[event.pk]) + "?fragment=1&page=1"
    live_standings.compute_count.clear()
    first = client.get(url)
    for _ in range(5):
        assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    client.get(reverse("tournaments:standings", args=[event.pk]) + "?page=2")
    client.get(reverse("tournaments:standings", args=[event.pk]) + "?all=1")
    client.get(reverse("tournaments:projector", args=[event.pk, "standings"]))
    assert sum(live_standings.compute_count.values()) == 1
    services.round_pair_next(tournament=event, by=organizer)
    round_ = event.round_set.get(number=2)
    services.round_timer_start(round_=round_, by=organizer, minutes=50)
    # Pairing a round changes the standings page (a new round of byes and pairings may drop players);
    # the clock does not.
    paired = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    tag = paired["ETag"] if paired.status_code == 200 else first["ETag"]
    services.round_timer_add(round_=round_, by=organizer, minutes=5)
    assert client.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 304
    computed = sum(live_standings.compute_count.values())
    match = round_.matches.filter(bye=False).first()
    services.match_report_result(match=match, by=organizer, wins=[2, 0])
    changed = client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert changed.status_code == 200 and changed["ETag"] != tag
    for _ in range(3):
        client.get(url)
    assert sum(live_standings.compute_count.values()) == computed + 1


def test_the_search_finds_a_player_on_any_page_and_the_full_list_has_everyone(client, big):
    event = big["event"]
    base = reverse("tournaments:standings", args=[event.pk])
    found = client.get(base, {"q": "player 07"}).content.decode()
    assert "Player 07" in found and found.count("data-player-id=") == 1
    nothing = client.get(base, {"q": "<b>nobody</b>"}).content.decode()
    assert "&lt;b&gt;nobody&lt;/b&gt;" in nothing and "<b>nobody</b>" not in nothing
    full = client.get(base, {"all": "1"}).content.decode()
    assert full.count("data-player-id=") == Player.objects.filter(tournament=event).count()


def test_made_up_pages_and_numbers_never_fail(client, big):
    base = reverse("tournaments:standings", args=[big["event"].pk])
    for query in ({"page": "999999"}, {"page": "²"}, {"page": "-4"}, {"fragment": "1", "me": "x"},
                  {"fragment": "1", "page": "abc", "me": "99999999"}):  # fmt: skip
        assert client.get(base, query).status_code == 200
    app = LivePolls(Downstream())
    status, _headers = call(app, base + "?fragment=1&page=%C2%B2", '"standings-p1-1-1-en"')
    assert status.startswith("200") and app.app.calls == 1


def test_a_phones_standings_fragment_is_a_small_part_of_the_full_list(client, big):
    client.force_login(big["user"])
    base = reverse("tournaments:standings", args=[big["event"].pk])
    phone = client.get(base + f"?fragment=1&me={big['me'].pk}", HTTP_ACCEPT_ENCODING="gzip")
    full = client.get(base + "?fragment=1&all=1", HTTP_ACCEPT_ENCODING="gzip")
    phone_raw, full_raw = gzip.decompress(phone.content), gzip.decompress(full.content)
    assert len(phone_raw) * 2 < len(full_raw), (len(phone_raw), len(full_raw))


def test_the_bracket_is_a_shared_fragment_polled_with_304_until_a_result(client, games, organizer):
    from tournaments.live import shared

    event = make_event(organizer, games["caster"], players=4, rounds=1, top_cut=2)
    services.round_pair_next(tournament=event, by=organizer)
    finish_round(event, organizer)
    services.topcut_start(tournament=event, by=organizer)
    page = client.get(reverse("tournaments:bracket", args=[event.pk])).content.decode()
    assert 'data-testid="bracket"' in page
    url = _fragment_url(page)
    first = client.get(url)
    assert first.status_code == 200 and first["ETag"].startswith('"bracket-')
    shared.render_count.clear()
    for _ in range(3):
        assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    app = LivePolls(Downstream())
    assert call(app, url, first["ETag"])[0].startswith("304") and app.app.calls == 0
    final = event.round_set.get(kind="top_cut").matches.get()
    services.match_report_result(match=final, by=organizer, wins=[2, 0])
    changed = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]
    client.get(url)
    assert sum(shared.render_count.values()) == 1


def test_results_in_quick_succession_are_computed_once_per_interval_and_the_phone_keeps_its_304(
    client, big, settings, monkeypatch
):
    settings.LIVE_STANDINGS_EVERY_S = 10
    event, organizer = big["event"], big["organizer"]
    url = reverse("tournaments:standings", args=[event.pk]) + "?fragment=1&page=1"
    services.round_pair_next(tournament=event, by=organizer)
    first = client.get(url)
    computed = sum(live_standings.compute_count.values())
    matches = list(event.round_set.get(number=2).matches.filter(bye=False).order_by("table")[:3])
    for match in matches:  # three results within the interval: the phone keeps the copy it has
        services.match_report_result(match=match, by=organizer, wins=[2, 0])
        assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    assert sum(live_standings.compute_count.values()) == computed
    # The interval over, the next poll brings all three results at once, computed once.
    now = live_standings.time.time()
    monkeypatch.setattr(live_standings.time, "time", lambda: now + 11)
    changed = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=changed["ETag"]).status_code == 304
    assert sum(live_standings.compute_count.values()) == computed + 1
