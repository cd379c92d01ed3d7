"""The result history stores codes (``report``, ``{"wins": [0, 1], "status": "reported"}``); the match page
words them in the reader's language (tournaments/reads/history.py)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

from tournaments import services
from tournaments.models import ResultChange
from tournaments.reads import history

from .factories import make_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def disputed(games, organizer, user, other_user, make_user):  # type: ignore[no-untyped-def]
    """Round 1 of a 4-player event: the user reports 0–1, the opponent disputes, the organizer resolves."""
    event = make_event(organizer, games["caster"], rounds=3)
    me = services.player_register(tournament=event, by=user)
    services.player_register(tournament=event, by=other_user)
    services.player_register(tournament=event, by=make_user("carol"))
    services.player_register(tournament=event, by=make_user("dave"))
    match = services.round_pair_next(tournament=event, by=organizer).matches.get(seats__player=me)
    mine = match.seats.get(player=me).seat
    wins = [0, 0]
    wins[1 - mine] = 2
    services.match_report_result(match=match, by=user, wins=wins)
    opponent = match.seats.exclude(player=me).get().player.user
    services.match_dispute(match=match, by=opponent, reason="we played three games")
    services.match_resolve_dispute(match=match, by=organizer, reason="checked the slip")
    return match


def _history(page: str) -> str:
    table = re.search(r'<table data-testid="audit">.*?</table>', page, re.S)
    assert table, "the match page shows no result history"
    return re.sub(r"<[^>]+>", " ", table.group(0))


def test_the_match_page_words_the_history_in_russian(disputed, organizer, client):
    client.force_login(organizer)
    client.cookies["django_language"] = "ru"
    text = _history(client.get(reverse("tournaments:match", args=[disputed.pk])).content.decode())
    for word in ("сообщён", "оспорен", "спор решён", "окончательный"):
        assert word in text, (word, text)
    # Neither the stored action codes nor the English statuses leak through.
    assert not re.search(r"\b(report|dispute|resolve|reported|disputed|final)\b", text), text


def test_the_stored_rows_keep_their_codes(disputed):
    rows = list(ResultChange.objects.filter(match=disputed).order_by("id"))
    assert [r.action for r in rows] == ["report", "dispute", "resolve"]
    assert rows[0].new["status"] == "reported" and rows[-1].new["status"] == "final"


def test_results_in_words_cover_draws_pods_early_ends_and_unknown_codes():
    with translation.override("en"):
        assert history.result_text({"wins": [0, 1], "status": "reported"}) == "0–1 reported"
        assert history.result_text({"wins": [1, 1], "draws": 1, "status": "final", "ended_by": "time"}) == (
            "1–1–1 final, on time"
        )
        pods = {"places": [{"place": 1}, {"place": 3}, {"place": 2}], "status": "confirmed"}
        assert history.result_text(pods) == "places 1, 3, 2 confirmed"
        assert history.action_text("a_future_action") == "a_future_action"
    with translation.override("ru"):
        assert history.result_text({"wins": [0, 1], "status": "reported"}) == "0–1 сообщён"
        assert history.action_text("confirm") == "подтверждён"
