"""The final standings name each player's top-cut finish in the reader's language ("Finalist" was English on
Russian pages)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from tournaments import services
from tournaments.printables.documents import CUT_LABELS

from .factories import finish_round, make_event

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("key", "russian"), [("final", "Финалист"), ("semifinal", "Полуфиналист"),
                                               ("quarterfinal", "Четвертьфиналист"), ("winner", "Победитель")])  # fmt: skip
def test_every_cut_label_has_a_russian_word(key, russian):
    with translation.override("ru"):
        assert str(CUT_LABELS[key]) == russian


def test_the_russian_standings_page_names_the_finalist_and_the_semifinalists(games, organizer, client):
    event = make_event(organizer, games["caster"], players=4, rounds=2, top_cut=4)
    for _ in range(2):
        services.round_pair_next(tournament=event, by=organizer)
        finish_round(event, organizer)
    services.topcut_start(tournament=event, by=organizer)
    finish_round(event, organizer)
    services.topcut_advance(tournament=event, by=organizer)
    finish_round(event, organizer)
    services.tournament_finish(tournament=event, by=organizer)
    with translation.override("ru"):
        page = client.get(reverse("tournaments:standings", args=[event.pk]), HTTP_ACCEPT_LANGUAGE="ru")
    text = page.content.decode()
    assert "Финалист" in text and "Полуфиналист" in text
    assert "Finalist" not in text and "Semifinalist" not in text
