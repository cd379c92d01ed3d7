"""Reports are words from the catalogues: the engine gives a key and parameters, rules/messages.py words them."""

from __future__ import annotations

from rules.engine import Violation, validate_deck
from rules.messages import MESSAGES, render

from .helpers import card, deck, filler, fmt

ADV = fmt("yugioh", "advanced")


def test_the_engine_builds_no_sentence_only_a_key_and_parameters():
    report = validate_deck(deck(main=filler("Spell", 39, 3, card_type="spell")), ADV)
    [size] = report.violations
    assert (size.code, size.key) == ("section_size", "section_size.size")
    assert size.params == {
        "section": {"en": "Main deck", "ru": "Основная колода"},
        "total": 39,
        "size": {"kind": "range", "min": 40, "max": 60},
    }
    assert size.key in MESSAGES


def test_card_types_are_named_by_the_rule_set_labels_in_each_language():
    spell = card("Dark Hole", key="53129443", card_type="spell")
    report = validate_deck(deck(main=filler("Spell", 40, 3, card_type="spell"), extra=[(spell, 1)]), ADV)
    [wrong] = [v for v in report.violations if v.key == "section_card_type.wrong_type"]
    assert "Dark Hole (Spell)" in wrong.message
    assert "«Dark Hole» (Заклинание)" in wrong.message_ru
    assert "spell" not in wrong.message_ru


def test_plural_and_size_words_follow_the_language():
    one = validate_deck(deck(main=filler("Spell", 1, 1, card_type="spell")), ADV).violations[0]
    assert "has 1 card;" in one.message and "40 to 60" in one.message
    assert "карт: 1; нужно: от 40 до 60" in one.message_ru


def test_an_unknown_key_or_damaged_params_never_raise():
    assert render(Violation("copy_limit", "copy_limit.no_such_key", {"card": "X"}), "ru").startswith(
        "copy_limit"
    )
    damaged = Violation("copy_limit", "copy_limit.over", {"card": "X"})
    assert render(damaged, "en").startswith("copy_limit")
