"""The words a player reads in Russian are one each and say what they mean: dropping a player is not "log
out", a match being played is not an import job "in the queue", the players' table is headed by a person's
name, top-cut finishes have words, and an intentional draw is confirmed as one (not as "Confirm 0–0")."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation

from tournaments import services
from tournaments.models import Match
from tournaments.printables import documents as printables

from .factories import make_event

pytestmark = pytest.mark.django_db


def test_the_russian_words_are_distinct_and_right():
    with translation.override("ru"):
        assert translation.gettext("Drop") != translation.gettext("Log out")
        assert str(Match.Status.PENDING.label) == "идёт"
        assert [str(label) for label in printables.CUT_LABELS.values()] == [
            "Победитель",
            "Финалист",
            "Полуфиналист",
            "Четвертьфиналист",
        ]


def test_an_intentional_draw_is_confirmed_as_one_and_the_players_table_names_people(
    games, organizer, user, other_user
):
    event = make_event(organizer, games["yugioh"], rounds=3)
    alice = services.player_register(tournament=event, by=user)
    services.player_register(tournament=event, by=other_user)
    match = services.round_pair_next(tournament=event, by=organizer).matches.get()
    services.match_finish_early(match=match, by=user, how="intentional_draw", conceded_by=None)
    bob = Client()
    bob.force_login(other_user)
    bob.cookies["django_language"] = "ru"
    page = bob.get(f"/tournaments/{event.pk}/me/").content.decode()
    assert (
        "Подтвердить ничью по согласию" in page and "0–0" not in page.split('data-testid="confirm"')[1][:80]
    )
    assert "<th>Имя</th>" in bob.get(f"/tournaments/{event.pk}/").content.decode()
    assert alice.name in page
