"""Round clock changes reach phones as a tiny clock notice, never as a full render of every phone's page.

Starting the clock of a 2,000-player round used to change every phone's My-event tag at once, and each phone's
next poll was a full render (p95 3.5 s on the laptop for ~11 s). Now the clock is the tag's own part: a poll
whose page is otherwise current gets the clock's fragment (a few hundred bytes) and the new tag.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from tournaments import live, services
from tournaments.live.clock import CLOCK_HEADER
from tournaments.live.wsgi import LivePolls
from tournaments.views import player as player_views

from .factories import make_event
from .test_live_wsgi import Downstream, call

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def room(games, organizer):  # type: ignore[no-untyped-def]
    """50 players with accounts, round 1 paired, and each phone's page as it was first served."""
    from accounts.models import User

    event = make_event(organizer, games["yugioh"], rounds=3)
    phones = []
    for i in range(50):
        # No password: hashing fifty of them would be most of the test's time.
        user = User.objects.create(username=f"clock{i:02d}", email=f"clock{i:02d}@example.com")
        player = services.player_register(tournament=event, by=user, user=user, name="")
        phones.append((user, player))
    services.round_pair_next(tournament=event, by=organizer)
    urls = []
    for user, player in phones:
        token = live.my_event_token(player_id=player.pk, user_id=user.pk)
        etag = live.my_event_etag(tournament_id=event.pk, player_id=player.pk, language="en")
        urls.append((reverse("tournaments:my_event_live", args=[event.pk]) + f"?k={token}", etag, user))
    return {"event": event, "phones": urls, "organizer": organizer}


@pytest.fixture
def renders(monkeypatch):  # type: ignore[no-untyped-def]
    """Counts full renders of a player's page."""
    count = {"n": 0}
    original = player_views.render_my_event

    def counting(request: Any, context: Any) -> str:
        count["n"] += 1
        return original(request, context)

    monkeypatch.setattr(player_views, "render_my_event", counting)
    return count


def _ends_at(body: str) -> str:
    return body.split('data-ends-at="', 1)[1].split('"', 1)[0]


def test_a_clock_start_reaches_fifty_phones_as_clock_notices_without_one_render(client, room, renders):
    event, organizer = room["event"], room["organizer"]
    round_ = event.round_set.get(number=1)
    for url, etag, _user in room["phones"]:
        assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    services.round_timer_start(round_=round_, by=organizer, minutes=50)
    round_.refresh_from_db()
    expected = round_.timer_ends_at
    new_tags = []
    for url, etag, _user in room["phones"]:
        response = client.get(url, HTTP_IF_NONE_MATCH=etag)
        assert response.status_code == 200 and response[CLOCK_HEADER] == "1"
        body = response.content.decode()
        assert len(response.content) < 600, len(response.content)
        assert 'data-testid="my-timer"' in body and "data-live-clock" in body
        assert _ends_at(body)[:19] == expected.isoformat()[:19]
        assert response["ETag"] != etag
        new_tags.append(response["ETag"])
    assert renders["n"] == 0
    # With the new tag the phones are current again: 304, still no render.
    for (url, _etag, _user), tag in zip(room["phones"], new_tags, strict=True):
        assert client.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 304
    assert renders["n"] == 0
    # The tag a clock notice gives is the one the full page carries: a reload shows the same end time.
    url, _etag, user = room["phones"][0]
    client.force_login(user)
    page = client.get(reverse("tournaments:my_event", args=[event.pk])).content.decode()
    assert f'data-live-etag="{new_tags[0]}"' in page.replace("&quot;", '"')
    assert _ends_at(page) == _ends_at(
        client.get(url, HTTP_IF_NONE_MATCH=room["phones"][0][1]).content.decode()
    )


def test_pause_and_added_time_are_clock_notices_too_and_the_fast_path_answers_them(client, room, renders):
    event, organizer = room["event"], room["organizer"]
    round_ = event.round_set.get(number=1)
    services.round_timer_start(round_=round_, by=organizer, minutes=50)
    app = LivePolls(Downstream())
    url, etag, _user = room["phones"][3]
    status, headers = call(app, url, etag)
    assert status.startswith("200") and headers[CLOCK_HEADER] == "1"
    tag = headers["ETag"]
    services.round_timer_pause(round_=round_, by=organizer)
    paused = client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert paused[CLOCK_HEADER] == "1" and 'data-testid="my-timer-paused"' in paused.content.decode()
    services.round_timer_resume(round_=round_, by=organizer)
    services.round_timer_add(round_=round_, by=organizer, minutes=5)
    resumed = client.get(url, HTTP_IF_NONE_MATCH=paused["ETag"])
    round_.refresh_from_db()
    assert resumed[CLOCK_HEADER] == "1"
    assert _ends_at(resumed.content.decode())[:19] == round_.timer_ends_at.isoformat()[:19]
    assert app.app.calls == 0 and renders["n"] == 0


def test_a_tables_extra_minutes_render_that_table_only_and_stay_in_its_later_clock_notices(
    client, room, renders
):
    event, organizer = room["event"], room["organizer"]
    round_ = event.round_set.get(number=1)
    services.round_timer_start(round_=round_, by=organizer, minutes=50)
    tags = {}
    for url, etag, _user in room["phones"]:
        tags[url] = client.get(url, HTTP_IF_NONE_MATCH=etag)["ETag"]
    url, _etag, user = room["phones"][0]
    match = round_.matches.get(seats__player__user=user)
    if match.bye:
        url, _etag, user = room["phones"][1]
        match = round_.matches.get(seats__player__user=user)
    services.match_extend(match=match, by=organizer, minutes=10)
    seated = {seat.player.user_id for seat in match.seats.select_related("player")}
    client.force_login(user)
    for phone_url, _etag, phone_user in room["phones"]:
        response = client.get(phone_url, HTTP_IF_NONE_MATCH=tags[phone_url])
        if phone_user.pk == user.pk:
            # The page says "your table has 10 extra minutes": a change of the page, rendered.
            assert response.status_code == 200 and not response.has_header(CLOCK_HEADER)
            tags[phone_url] = response["ETag"]
        elif phone_user.pk not in seated:
            assert response.status_code == 304
    assert renders["n"] == 1
    services.round_timer_add(round_=round_, by=organizer, minutes=5)
    round_.refresh_from_db()
    notice = client.get(url, HTTP_IF_NONE_MATCH=tags[url])
    assert notice[CLOCK_HEADER] == "1" and renders["n"] == 1
    from datetime import timedelta

    assert (
        _ends_at(notice.content.decode())[:19]
        == (round_.timer_ends_at + timedelta(minutes=10)).isoformat()[:19]
    )


def test_a_tag_from_another_round_still_gets_the_new_round_notice_not_the_clock(client, room):
    event, organizer = room["event"], room["organizer"]
    round_ = event.round_set.get(number=1)
    url, etag, user = room["phones"][1]
    from .factories import finish_round

    finish_round(event, organizer)
    services.round_pair_next(tournament=event, by=organizer)
    services.round_timer_start(round_=event.round_set.get(number=2), by=organizer, minutes=50)
    assert round_.pk
    client.force_login(user)
    response = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 200 and not response.has_header(CLOCK_HEADER)
    assert response.has_header(live.REFRESH_HEADER)


@pytest.mark.parametrize("path", ["pairings", "projector"])
def test_the_pairings_pages_get_the_clock_notice_and_the_list_is_not_rendered_again(client, room, path):
    from tournaments.live import shared

    event, organizer = room["event"], room["organizer"]
    if path == "pairings":
        url = reverse("tournaments:pairings", args=[event.pk]) + "?fragment=1"
    else:
        url = reverse("tournaments:projector", args=[event.pk, "pairings"]) + "?fragment=1"
    first = client.get(url)
    assert first.status_code == 200 and "data-live-clock" in first.content.decode()
    shared.render_count.clear()
    round_ = event.round_set.get(number=1)
    services.round_timer_start(round_=round_, by=organizer, minutes=50)
    round_.refresh_from_db()
    app = LivePolls(Downstream())
    tags = set()
    for _ in range(20):  # twenty phones holding the same copy
        response = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
        assert response.status_code == 200 and response[CLOCK_HEADER] == "1"
        assert len(response.content) < 400
        assert _ends_at(response.content.decode())[:19] == round_.timer_ends_at.isoformat()[:19]
        tags.add(response["ETag"])
    status, headers = call(app, url, first["ETag"])
    assert status.startswith("200") and headers[CLOCK_HEADER] == "1" and app.app.calls == 0
    assert len(tags) == 1 and headers["ETag"] in tags
    assert sum(shared.render_count.values()) == 0
    tag = tags.pop()
    assert client.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 304
    # A phone that loads the page now gets the list with the new clock, under the same tag.
    fresh = client.get(url)
    assert (
        fresh["ETag"] == tag
        and _ends_at(fresh.content.decode())[:19] == round_.timer_ends_at.isoformat()[:19]
    )
    # A change of the list itself (a drop) is a new version: the whole fragment, not a clock notice.
    _url, _etag, user = room["phones"][5]
    services.player_drop(player=event.players.get(user=user), by=organizer)
    changed = client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert changed.status_code == 200 and not changed.has_header(CLOCK_HEADER)
