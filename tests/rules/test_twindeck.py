"""Twin-deck TCG construction rules (file g001, Part I 1.1–1.6 and V.11)."""

from __future__ import annotations

import pytest

from rules.engine import Deck, validate_deck

from .helpers import card, filler, fmt

BASIC = fmt("twindeck", "basic")
LIMITED = fmt("twindeck", "limited")


def red(n: int, prefix: str = "Goblin", per: int = 4) -> list:
    return filler(prefix, n, per, card_type="creature", attributes={"back": "red"})


def blue(n: int, prefix: str = "Sword", per: int = 4) -> list:
    return filler(prefix, n, per, card_type="weapon", attributes={"back": "blue"})


def make(creatures: list, main: list, side: list | None = None, pool: list | None = None) -> Deck:
    sections = {"creatures": creatures, "main": main}
    if side is not None:
        sections["side"] = side
    return Deck(sections=sections, pool=pool)


@pytest.mark.parametrize("side_size", [0, 16])
def test_basic_accepts_16_40_and_an_additional_set_of_0_or_16(side_size):
    side = blue(side_size, "Spare") if side_size else []
    assert validate_deck(make(red(16), blue(40), side), BASIC).legal


def test_basic_rejects_an_additional_set_of_15():
    [v] = validate_deck(make(red(16), blue(40), blue(15, "Spare")), BASIC).violations
    assert (v.code, v.section, v.count, v.limit) == ("section_size", "side", 15, 16)
    assert "0 or 16" in v.message and "0 или 16" in v.message_ru


@pytest.mark.parametrize(("creatures", "main", "section"), [(15, 40, "creatures"), (17, 40, "creatures"),
                                                              (16, 39, "main"), (16, 41, "main")])  # fmt: skip
def test_basic_requires_exactly_16_creatures_and_40_main(creatures, main, section):
    [v] = validate_deck(make(red(creatures), blue(main)), BASIC).violations
    assert (v.code, v.section) == ("section_size", section)


def test_the_creature_deck_takes_red_backs_and_the_main_deck_blue_backs():
    report = validate_deck(make([*red(15), *blue(1, "Axe")], [*blue(39), *red(1, "Orc")]), BASIC)
    assert sorted((v.code, v.section) for v in report.violations) == [
        ("section_card_type", "creatures"),
        ("section_card_type", "main"),
    ]


def test_the_additional_set_may_hold_red_and_blue_cards():
    assert validate_deck(make(red(16), blue(40), [*red(8, "R"), *blue(8, "B")]), BASIC).legal


def test_basic_allows_four_copies_across_all_three_and_counts_the_additional_set():
    ogre = card("Ogre", card_type="creature", attributes={"back": "red"})
    legal = make([*red(13), (ogre, 3)], blue(40), [*blue(15, "Spare"), (ogre, 1)])
    assert validate_deck(legal, BASIC).legal
    illegal = make([*red(13), (ogre, 3)], blue(40), [*blue(14, "Spare"), (ogre, 2)])
    [v] = validate_deck(illegal, BASIC).violations
    assert (v.code, v.card, v.count, v.limit) == ("copy_limit", "Ogre", 5, 4)


def pool_of(d: Deck) -> list:
    return [entry for entries in d.sections.values() for entry in entries]


def test_limited_accepts_12_and_30_without_a_maximum_or_copy_limit_when_in_the_pool():
    d = make(red(12, per=12), blue(90, per=10))
    d.pool = pool_of(d)
    assert validate_deck(d, LIMITED).legal


@pytest.mark.parametrize(
    ("creatures", "main", "section", "limit"), [(11, 30, "creatures", 12), (12, 29, "main", 30)]
)
def test_limited_requires_at_least_12_creatures_and_30_main(creatures, main, section, limit):
    d = make(red(creatures), blue(main))
    d.pool = pool_of(d)
    [v] = validate_deck(d, LIMITED).violations
    assert (v.code, v.section, v.limit) == ("section_size", section, limit)


def test_limited_rejects_a_deck_outside_its_pool():
    d = make(red(12), blue(30))
    d.pool = [
        *pool_of(d)[:-1],
        (d.sections["main"][-1][0], 1),
    ]  # the pool has one copy fewer of the last card
    [v] = validate_deck(d, LIMITED).violations
    assert (v.code, v.card, v.count, v.limit) == ("not_in_pool", "Sword 7", 2, 1)
    stranger = make(
        red(12), [*blue(30)[:-1], (card("Stolen Axe", card_type="weapon", attributes={"back": "blue"}), 2)]
    )
    stranger.pool = pool_of(make(red(12), blue(30)))
    assert validate_deck(stranger, LIMITED).codes() == ["not_in_pool"]


def test_limited_without_a_registered_pool_is_not_legal():
    assert validate_deck(make(red(12), blue(30)), LIMITED).codes() == ["not_in_pool"]
