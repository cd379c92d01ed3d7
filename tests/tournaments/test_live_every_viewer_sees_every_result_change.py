"""Every viewer's live poll changes with every step of a result (the reporter's phone kept
answering 304 with the same ETag after the opponent confirmed), and the live layer keeps no memory per
language a client makes up (2,000 polls with invented languages grew a worker by 7.7 MB)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.translation import trans_real

from tournaments import live, services
from tournaments.models import Match

from .factories import make_event

pytestmark = pytest.mark.django_db(transaction=True)


def _two_player_event(games: Any, organizer: Any, make_user: Any) -> tuple[Any, Any, Any, Match]:
    event = make_event(organizer, games["caster"], rounds=3)
    reporter, opponent = make_user("rita"), make_user("oleg")
    for user in (reporter, opponent):
        services.player_register(tournament=event, by=user, user=user)
    services.round_pair_next(tournament=event, by=organizer)
    match = Match.objects.get(round__tournament=event, bye=False)
    return event, reporter, opponent, match


def _my_event_url(client: Client, event: Any) -> str:
    page = client.get(reverse("tournaments:my_event", args=[event.pk])).content.decode()
    return page.split('data-live-url="', 1)[1].split('"', 1)[0].replace("&amp;", "&")


class Viewer:
    """One screen that polls: its URL, and the ETag of what it showed last."""

    def __init__(self, client: Client, url: str) -> None:
        self.client, self.url = client, url
        self.etag = client.get(url)["ETag"]

    def poll(self) -> tuple[int, str]:
        response = self.client.get(self.url, HTTP_IF_NONE_MATCH=self.etag)
        if response.status_code == 200:
            self.etag = response["ETag"]
        return response.status_code, response.get("ETag", "")


def test_reporter_opponent_organizer_and_projector_each_see_report_confirm_dispute_and_resolve(
    games: Any, organizer: Any, make_user: Any
) -> None:
    event, reporter, opponent, match = _two_player_event(games, organizer, make_user)
    clients = {name: Client() for name in ("reporter", "opponent", "organizer", "projector")}
    clients["reporter"].force_login(reporter)
    clients["opponent"].force_login(opponent)
    clients["organizer"].force_login(organizer)
    viewers = {
        "reporter": Viewer(clients["reporter"], _my_event_url(clients["reporter"], event)),
        "opponent": Viewer(clients["opponent"], _my_event_url(clients["opponent"], event)),
        "projector": Viewer(
            clients["projector"],
            reverse("tournaments:projector", args=[event.pk, "standings"]) + "?fragment=1",
        ),
    }
    # The pairings projector does not show results (tournaments.live.versions): it must stay 304 throughout.
    pairings = Viewer(
        clients["projector"], reverse("tournaments:projector", args=[event.pk, "pairings"]) + "?fragment=1"
    )
    round_page = reverse("tournaments:round", args=[event.pk, 1])

    def fresh() -> Match:
        return Match.objects.get(pk=match.pk)

    changes: list[tuple[str, Callable[[], Any], str]] = [
        ("report", lambda: services.match_report_result(match=fresh(), by=reporter, wins=[2, 1]), "reported"),
        ("confirm", lambda: services.match_confirm_result(match=fresh(), by=opponent), "confirmed"),
        ("dispute", lambda: services.match_dispute(match=fresh(), by=opponent, reason="slip"), "disputed"),
        (
            "resolve",
            lambda: services.match_resolve_dispute(match=fresh(), by=organizer, reason="judge", wins=[2, 0]),
            "final",
        ),
    ]
    for change, act, status in changes:
        act()
        assert fresh().status == status, change
        for name, viewer in viewers.items():
            before = viewer.etag
            code, etag = viewer.poll()
            assert (code, etag != before) == (200, True), (name, change, code)
            # And once seen, the same poll is current again.
            assert viewer.poll()[0] == 304, (name, change)
        assert pairings.poll()[0] == 304, change
        dashboard = clients["organizer"].get(round_page).content.decode()
        assert f'<span class="badge status-{status}">' in dashboard, change


def test_invented_languages_in_if_none_match_leave_no_trace(
    games: Any, organizer: Any, make_user: Any
) -> None:
    event, reporter, _opponent, _match = _two_player_event(games, organizer, make_user)
    player = event.players.get(user=reporter)
    first_round = event.round_set.get(number=1)
    # An earlier round id in the tag is what would make the poll render the new-round notice.
    languages_before = set(trans_real._translations)
    for index in range(300):
        tag = f'"me-{event.pk}-{first_round.pk - 1}-x{index}-0123456789abcdef"'
        decision = live.poll_decide({tag}, tournament_id=event.pk, player_id=player.pk, language=None)
        assert decision.notice is None and decision.etag is None
        shared = f'"projector-standings-{event.pk}-0-x{index}"'
        assert (
            live.poll_decide({shared}, tournament_id=event.pk, page="projector-standings", language=None).etag
            is None
        )
    assert set(trans_real._translations) <= languages_before | {"en", "ru"}


def test_a_round_number_that_is_not_a_plain_number_is_a_quiet_miss(
    games: Any, organizer: Any, make_user: Any, caplog: Any
) -> None:
    from tournaments.live.wsgi import shared_page_name

    assert shared_page_name("pairings", {"round": ["²"]}) is None
    assert shared_page_name("pairings", {"round": ["2"]}) == "pairings-2"
    event, *_rest = _two_player_event(games, organizer, make_user)
    client = Client()
    assert client.get(reverse("tournaments:pairings", args=[event.pk]) + "?round=²").status_code == 200
    assert client.get(reverse("tournaments:pairings", args=[event.pk]) + "?round=999").status_code == 404
    assert not [r for r in caplog.records if r.exc_info]
