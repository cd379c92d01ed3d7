"""A deck that a file format cannot hold is refused with a problem code and params; the reader gets the
reason in their language (decks/messages.py), not the writer's English."""

from __future__ import annotations

import pytest
from django.utils import translation

from decks.formats import DeckFormatError, DeckLine, DeckList, to_ydk


def _refusal(deck: DeckList) -> DeckFormatError:
    with pytest.raises(DeckFormatError) as refused:
        to_ydk(deck)
    return refused.value


def test_a_deck_ydk_cannot_hold_is_refused_with_a_code_worded_per_language() -> None:
    error = _refusal(DeckList(sections={"main": [DeckLine("Carella Lv1", "Carella Lv1", 4)]}))
    assert (error.code, error.params) == ("export_not_passcode", {"format": ".ydk", "card": "Carella Lv1"})
    assert str(error) == ".ydk needs numeric passcodes; “Carella Lv1” has none"
    with translation.override("ru"):
        assert str(error) == "для .ydk нужны числовые пароли карт, а у «Carella Lv1» его нет"


def test_sections_beyond_main_extra_and_side_are_named() -> None:
    error = _refusal(DeckList(sections={"main": [], "pool": [DeckLine("1", "x", 1)]}))
    assert (error.code, error.params) == ("export_other_sections", {"format": ".ydk", "sections": "pool"})


@pytest.mark.django_db
def test_an_unknown_export_format_is_refused_in_the_readers_language(ygo_deck) -> None:
    from django.core.exceptions import ValidationError

    from decks.services import deck_export

    for language, words in (
        ("en", "unknown export format 'docx'"),
        ("ru", "неизвестный формат выгрузки «docx»"),
    ):
        with translation.override(language), pytest.raises(ValidationError) as refused:
            deck_export(deck=ygo_deck, fmt="docx")
        assert words in " ".join(refused.value.messages)
