"""Report messages name a filter's fields by the game's search filter labels, in the report's language."""

from __future__ import annotations

from pathlib import Path

from rules.engine import Deck, load_registry, validate_deck

from .helpers import MINI_GAME, card, filler, fmt

STD = fmt("everseal", "standard")


def hero(*restrictions: dict) -> object:
    return card("Aria", card_type="hero", attributes={"restrictions": list(restrictions)})


def monsters(n: int, **attrs: object) -> list:
    return filler("Wolf", n, 3, card_type="monster", attributes={"size": "S", "region": "North", **attrs})


def test_it_builds_the_labels_once_per_game_in_the_registry():
    labels = STD.field_labels
    assert labels["size"] == {"en": "Size", "ru": "Размер"}
    assert STD.labels("ru")["region"] == "Регион" and STD.labels("ru-RU")["region"] == "Регион"
    # Every format of a game shares the one mapping: nothing is rebuilt per format or per validation.
    assert fmt("everseal", "standard").field_labels is STD.field_labels


def test_a_hero_forbidding_size_l_says_size_in_english_and_razmer_in_russian():
    giant = card("Giant", card_type="monster", attributes={"size": "L"})
    h = hero({"kind": "forbid", "filter": {"size": "L"}})
    [v] = validate_deck(Deck(sections={"main": [*monsters(28), (giant, 2)]}, hero=h), STD).violations
    assert (v.code, v.card, v.count, v.limit) == ("hero_restriction", "Giant", 2, 0)
    assert "forbids Size L" in v.message and "size L" not in v.message
    assert "запрещает Размер L" in v.message_ru and "size" not in v.message_ru


def test_counting_restrictions_name_the_labelled_field_too():
    h = hero({"kind": "at_most", "count": 3, "filter": {"region": "South"}})
    south = filler("Crab", 4, 3, card_type="monster", attributes={"size": "S", "region": "South"})
    [v] = validate_deck(Deck(sections={"main": [*monsters(26), *south]}, hero=h), STD).violations
    assert "cards with Region South" in v.message
    assert "(Регион South)" in v.message_ru


def test_a_field_the_game_does_not_label_falls_back_to_its_key():
    h = hero({"kind": "forbid", "filter": {"mana": {"min": 3}, "size": "L"}})
    costly = card("Costly", card_type="monster", attributes={"size": "L", "mana": 4})
    [v] = validate_deck(Deck(sections={"main": [*monsters(29), (costly, 1)]}, hero=h), STD).violations
    assert "forbids mana ≥ 3, Size L" in v.message
    assert "запрещает mana ≥ 3, Размер L" in v.message_ru


def test_section_accept_messages_use_the_labels():
    # Everseal's main deck takes { type = "monster", subtype = { not = "image" } }; everseal.toml labels
    # both fields ("Card type" / "Тип карты", "Subtype" / "Подтип").
    intruder = card("Spellbook", card_type="spell")
    report = validate_deck(Deck(sections={"main": [*monsters(29), (intruder, 1)]}, hero=hero()), STD)
    [v] = [v for v in report.violations if v.code == "section_card_type"]
    assert "takes only Card type monster, Subtype not image" in v.message
    assert "(только Тип карты monster, Подтип не image)" in v.message_ru


MINI = (
    MINI_GAME
    + """{search_filters}

[[formats]]
slug = "std"
name = "Standard"
hero = {{ required = true, accept = {{ type = "hero" }}, scope = ["main"] }}

[[formats.sections]]
slug = "main"
name = "Main"
name_ru = "Основная"
size = {{ min = 1 }}
"""
)


def load_mini(tmp_path: Path, search_filters: str = "") -> object:
    (tmp_path / "mini.toml").write_text(MINI.format(search_filters=search_filters), encoding="utf-8")
    return load_registry(tmp_path).format("mini", "std")


def test_a_russian_label_missing_from_the_rule_set_falls_back_to_the_english_label(tmp_path):
    mini = load_mini(tmp_path, 'search_filters = [{ field = "power", kind = "range", label = "Power" }]')
    h = hero({"kind": "forbid", "filter": {"power": {"min": 5}}})
    strong = card("Titan", attributes={"power": 6})
    [v] = validate_deck(Deck(sections={"main": [(strong, 1)]}, hero=h), mini).violations
    assert "forbids Power ≥ 5" in v.message and "запрещает Power ≥ 5" in v.message_ru


def test_a_game_without_search_filters_shows_raw_keys(tmp_path):
    mini = load_mini(tmp_path)
    assert mini.labels("en") == {} and mini.labels("ru") == {}
    h = hero({"kind": "forbid", "filter": {"power": {"min": 5}}})
    [v] = validate_deck(
        Deck(sections={"main": [(card("Titan", attributes={"power": 6}), 1)]}, hero=h), mini
    ).violations
    assert "forbids power ≥ 5" in v.message and "запрещает power ≥ 5" in v.message_ru


def test_a_field_label_for_a_language_only_the_game_labels_know_is_data_not_code(tmp_path):
    mini = load_mini(
        tmp_path,
        'search_filters = [{ field = "power", kind = "range", label = "Power", label_ru = "Сила" }]\n\n'
        '[game.labels.fields]\npower = { en = "Strength", pl = "Moc" }\n',
    )
    # The search filter's own label / label_ru win for English and Russian; [game.labels] adds Polish.
    assert mini.field_labels["power"] == {"en": "Power", "ru": "Сила", "pl": "Moc"}
    assert (mini.labels("pl")["power"], mini.labels("de")["power"]) == ("Moc", "Power")
    h = hero({"kind": "forbid", "filter": {"power": {"min": 5}}})
    [v] = validate_deck(
        Deck(sections={"main": [(card("Titan", attributes={"power": 6}), 1)]}, hero=h), mini
    ).violations
    assert "Moc ≥ 5" in v.render("pl") and "Сила ≥ 5" in v.message_ru
