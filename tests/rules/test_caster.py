"""The Caster Chronicles construction rules (digest: "The Caster Chronicles")."""

from __future__ import annotations

import pytest

from rules.engine import Deck, validate_deck

from .helpers import card, filler, fmt

STD = fmt("caster", "standard")


def servants(n: int, prefix: str = "Pixie") -> list:
    return filler(prefix, n, 4, card_type="servant", subtypes=["cryptid"], cost=2)


def caster(name: str, level: int) -> object:
    return card(name, key=f"{name} Lv{level}", identity=f"{name}|Lv{level}", card_type="caster", level=level)


@pytest.mark.parametrize(("size", "ok"), [(49, False), (50, True), (51, False)])
def test_it_requires_exactly_50_cards(size, ok):
    report = validate_deck(Deck(sections={"main": servants(size)}), STD)
    assert report.legal is ok
    if not ok:
        assert (report.violations[0].code, report.violations[0].limit) == ("section_size", 50)


def test_it_allows_four_cards_of_a_name_and_refuses_five():
    five = card("Fireball", card_type="conjure")
    [v] = validate_deck(Deck(sections={"main": [*servants(45), (five, 5)]}), STD).violations
    assert (v.code, v.card, v.count, v.limit) == ("copy_limit", "Fireball", 5, 4)


def test_casters_count_four_per_name_at_each_level():
    lv1, lv2, lv3 = caster("Carella", 1), caster("Carella", 2), caster("Carella", 3)
    legal = Deck(sections={"main": [*servants(38), (lv1, 4), (lv2, 4), (lv3, 4)]})
    assert validate_deck(legal, STD).legal
    illegal = Deck(sections={"main": [*servants(37), (lv1, 5), (lv2, 4), (lv3, 4)]})
    [v] = validate_deck(illegal, STD).violations
    assert (v.code, v.card, v.count, v.limit) == ("copy_limit", "Carella Lv1", 5, 4)


def test_a_caster_level_key_does_not_leak_to_servants_with_a_level():
    leveled = card("Golem", card_type="servant", level=1)
    leveled2 = card("Golem", key="Golem b", card_type="servant", level=2)
    [v] = validate_deck(Deck(sections={"main": [*servants(42), (leveled, 4), (leveled2, 4)]}), STD).violations
    assert (v.code, v.count, v.limit) == ("copy_limit", 8, 4)


def test_soul_bond_servants_go_in_the_optional_uncounted_extra_deck():
    bond = card("Spirit Form Carella", card_type="servant", subtypes=["soul bond", "spirit form"])
    assert validate_deck(Deck(sections={"main": servants(50), "extra": [(bond, 2)]}), STD).legal
    in_main = validate_deck(Deck(sections={"main": [*servants(49), (bond, 1)]}), STD)
    assert in_main.codes() == ["section_card_type"]


def test_the_soul_bond_extra_deck_is_provisional_and_only_warns():
    report = validate_deck(Deck(sections={"main": servants(50), "extra": servants(3, "Stray")}), STD)
    assert report.legal
    assert [w.code for w in report.warnings] == ["section_card_type"]
