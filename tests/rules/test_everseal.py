"""Everseal construction rules (digest: "Everseal"): hero + 30–40 monsters, 3 copies, hero restrictions."""

from __future__ import annotations

import pytest

from rules.engine import Deck, validate_deck

from .helpers import card, filler, fmt

STD = fmt("everseal", "standard")


def hero(*restrictions: dict, name: str = "Aria") -> object:
    attrs = {"restrictions": list(restrictions)} if restrictions else {}
    return card(name, card_type="hero", attributes=attrs)


ANY_RULE = {"kind": "forbid", "filter": {"size": "XL"}}  # matches nothing: a hero with restrictions entered


def monsters(n: int, prefix: str = "Wolf", **attrs: object) -> list:
    return filler(prefix, n, 3, card_type="monster", attributes={"size": "S", "region": "North", **attrs})


def make(main: list, h: object | None = None, **extra: list) -> Deck:
    return Deck(sections={"main": main, **extra}, hero=h)


@pytest.mark.parametrize("size", [30, 35, 40])
def test_it_accepts_30_to_40_monsters_with_a_hero(size):
    assert validate_deck(make(monsters(size), hero(ANY_RULE)), STD).legal


@pytest.mark.parametrize(("size", "limit"), [(29, 30), (41, 40)])
def test_it_rejects_a_deck_outside_30_to_40(size, limit):
    [v] = validate_deck(make(monsters(size), hero(ANY_RULE)), STD).violations
    assert (v.code, v.count, v.limit) == ("section_size", size, limit)


def test_it_does_not_count_the_hero_in_the_30():
    report = validate_deck(make(monsters(29), hero(ANY_RULE)), STD)
    assert report.codes() == ["section_size"]


def test_it_requires_a_hero():
    [v] = validate_deck(make(monsters(30)), STD).violations
    assert (v.code, v.count, v.limit) == ("hero_missing", 0, 1)


def test_it_refuses_a_monster_as_the_hero():
    report = validate_deck(make(monsters(30), card("Wolf", card_type="monster")), STD)
    assert report.codes() == ["hero_missing"]


def test_it_holds_monsters_only():
    report = validate_deck(make([*monsters(29), (hero(ANY_RULE, name="Other Hero"), 1)], hero(ANY_RULE)), STD)
    assert report.codes() == ["section_card_type"]


def test_it_allows_three_copies_and_refuses_four():
    four = card("Bear", card_type="monster")
    report = validate_deck(make([*monsters(26), (four, 4)], hero(ANY_RULE)), STD)
    [v] = report.violations
    assert (v.code, v.card, v.count, v.limit) == ("copy_limit", "Bear", 4, 3)


def test_a_hero_without_restrictions_validates_with_a_warning():
    report = validate_deck(make(monsters(30), hero()), STD)
    assert report.legal
    assert [w.code for w in report.warnings] == ["hero_restriction"]
    assert "Aria" in report.warnings[0].message


def test_images_go_in_their_own_uncounted_provisional_section():
    image = card("Image of Fire", card_type="monster", subtypes=["image"])
    legal = validate_deck(make(monsters(30), hero(ANY_RULE), images=[(image, 2)]), STD)
    assert legal.legal
    in_main = validate_deck(make([*monsters(29), (image, 1)], hero(ANY_RULE)), STD)
    assert in_main.codes() == ["section_card_type"]
    wrong = validate_deck(
        make(monsters(30), hero(ANY_RULE), images=[(card("Rat", card_type="monster"), 1)]), STD
    )
    assert wrong.legal and [w.code for w in wrong.warnings] == ["section_card_type"]


def test_hero_forbid_rejects_every_matching_card():
    big = card("Giant", card_type="monster", attributes={"size": "L"})
    report = validate_deck(
        make([*monsters(28), (big, 2)], hero({"kind": "forbid", "filter": {"size": "L"}})), STD
    )
    [v] = report.violations
    assert (v.code, v.card, v.count, v.limit) == ("hero_restriction", "Giant", 2, 0)
    # The field is named by the game's search filter label (everseal.toml), not by its data key.
    assert "Aria" in v.message and "forbids Size L" in v.message
    assert "запрещает Размер L" in v.message_ru


def test_hero_at_most_counts_matching_cards():
    south = monsters(4, "Crab", region="South")
    h = hero({"kind": "at_most", "count": 3, "filter": {"region": "South"}})
    [v] = validate_deck(make([*monsters(26), *south], h), STD).violations
    assert (v.code, v.count, v.limit) == ("hero_restriction", 4, 3)
    assert validate_deck(make([*monsters(27), *south[:1]], h), STD).legal  # exactly 3 allowed


def test_hero_at_least_requires_enough_matching_cards():
    h = hero({"kind": "at_least", "count": 5, "filter": {"family": "Wolf"}})
    wolves = monsters(5, "Packwolf", family="Wolf")
    assert validate_deck(make([*monsters(25), *wolves], h), STD).legal
    [v] = validate_deck(make(monsters(30), h), STD).violations
    assert (v.code, v.count, v.limit) == ("hero_restriction", 0, 5)


def test_hero_require_needs_at_least_one_matching_card():
    h = hero({"kind": "require", "filter": {"keywords": "Стая"}})
    pack = card("Pack Leader", card_type="monster", attributes={"keywords": ["Стая", "Агрессор"]})
    assert validate_deck(make([*monsters(29), (pack, 1)], h), STD).legal
    assert validate_deck(make(monsters(30), h), STD).codes() == ["hero_restriction"]


def test_hero_only_rejects_cards_outside_the_allowed_regions():
    h = hero({"kind": "only", "filter": {"region": ["North", "East"]}})
    west = card("Westling", card_type="monster", attributes={"region": "West"})
    report = validate_deck(make([*monsters(29), (west, 1)], h), STD)
    [v] = report.violations
    assert (v.code, v.card) == ("hero_restriction", "Westling")


def test_hero_can_override_the_deck_size_and_the_copy_limit():
    h = hero(
        {"kind": "section_size", "section": "main", "min": 20, "max": 25}, {"kind": "copy_limit", "max": 1}
    )
    assert validate_deck(make(filler("Solo", 20, 1, card_type="monster"), h), STD).legal
    report = validate_deck(make(filler("Duo", 30, 2, card_type="monster"), h), STD)
    assert sorted(set(report.codes())) == ["copy_limit", "section_size"]
    assert {v.limit for v in report.violations if v.code == "copy_limit"} == {1}


def test_hero_restriction_with_numeric_range_filter():
    h = hero({"kind": "forbid", "filter": {"atk": {"min": 5}}})
    strong = card("Titan", card_type="monster", attributes={"atk": 6})
    assert validate_deck(make([*monsters(29), (strong, 1)], h), STD).codes() == ["hero_restriction"]


@pytest.mark.parametrize(
    "entry",
    [
        5,
        "no L monsters",
        {"kind": "forbidd", "filter": {"size": "L"}},
        {"kind": "forbid"},  # no filter: would forbid every card
        {"kind": "forbid", "filter": {"atk": {"min": "five"}}},
        {"kind": "forbid", "filter": {"region": [{"name": "North"}]}},
        {"kind": "at_most", "filter": {"size": "L"}},
        {"kind": "at_most", "count": "3", "filter": {"size": "L"}},
        {"kind": "section_size", "section": "main", "min": "a"},
        {"kind": "section_size", "section": "sideboard", "min": 20},
        {"kind": "copy_limit", "max": -1},
    ],
)
def test_an_unreadable_hero_restriction_is_a_warning_naming_it_not_a_crash_or_silence(entry):
    report = validate_deck(make(monsters(30), hero(entry)), STD)
    assert report.legal
    [w] = report.warnings
    assert w.code == "hero_restriction" and "could not be read" in w.message and "Aria" in w.message_ru


def test_why_a_hero_restriction_could_not_be_read_is_a_nested_key_worded_in_the_reports_language():
    report = validate_deck(
        make(monsters(30), hero({"kind": "forbid", "filter": {"atk": {"min": "five"}}})), STD
    )
    [w] = report.warnings
    assert w.params["detail"] == {
        "key": "filter.not_number",
        "params": {"field": "atk", "condition": "min", "value": "'five'"},
    }
    assert "filter field “atk”: min must be a number, got 'five'" in w.message
    assert "поле фильтра «atk»: min должно быть числом, а не 'five'" in w.message_ru
    assert "filter" not in w.message_ru
    [bad_entry] = validate_deck(make(monsters(30), hero(5)), STD).warnings
    assert bad_entry.params["detail"] == {"key": "hero_restriction.entry", "params": {"entry": "5"}}
    assert "5 — не forbid / only / require" in bad_entry.message_ru
