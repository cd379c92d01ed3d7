"""Rule sets are data: the registry loads one TOML file per game and checks its schema."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from games.registry import RULESETS_DIR
from rules.engine import RuleSetError, default_registry, load_registry

from .helpers import MINI_FORMAT, MINI_GAME


def test_it_loads_the_six_games_with_their_formats_in_order():
    reg = default_registry()
    assert reg.errors == ()
    assert {slug: list(g.formats) for slug, g in reg.games.items()} == {
        "caster": ["standard"],
        "everseal": ["standard"],
        "mtg": ["constructed", "commander", "limited"],
        "twindeck": ["basic", "limited"],
        "vale": ["standard"],
        "yugioh": ["advanced", "traditional", "ocg", "goat"],
    }


def test_it_carries_the_match_facts_each_game_needs():
    reg = default_registry()
    twin, ygo, ever = reg.game("twindeck"), reg.game("yugioh"), reg.game("everseal")
    assert twin.first_player == "loser_goes_first" and ygo.first_player == "loser_chooses"
    assert twin.opening_hand == {"main": 7, "creatures": 5}
    assert (twin.sideboard, ygo.sideboard, ever.sideboard) == (True, True, False)
    assert ever.pod_sizes == (3, 4) and (ever.min_players, ever.max_players) == (2, 4)
    assert ygo.tiebreakers == "yugioh" and ever.tiebreakers == "mtg"
    assert ever.effective_date == date(2025, 9, 28)
    assert [s.slug for s in reg.format("yugioh", "advanced").sections] == ["main", "extra", "side"]
    assert reg.format("twindeck", "basic").sections[2].name_ru == "Дополнительный набор"


def test_unknown_game_or_format_raise_a_clear_key_error():
    reg = default_registry()
    with pytest.raises(KeyError, match="unknown game 'chess'; known games: caster"):
        reg.game("chess")
    with pytest.raises(KeyError, match="has no format 'modern'; its formats: advanced"):
        reg.format("yugioh", "modern")


def test_a_new_game_needs_only_a_data_file(tmp_path: Path):
    text = MINI_GAME + MINI_FORMAT.replace("size = { exact = 20 }", "size = { allowed = [20, 30] }")
    (tmp_path / "mini.toml").write_text(text, encoding="utf-8")
    reg = load_registry(tmp_path)
    assert reg.format("mini", "std").sections[0].size.ok(30)
    assert not reg.format("mini", "std").sections[0].size.ok(25)


@pytest.mark.parametrize(
    ("needle", "replacement", "message"),
    [
        (
            'slug = "main"',
            'slug = "main"\ncolour = "red"',
            r"mini.toml\[formats\]\[0\].sections\[0\]: unknown key",
        ),
        ('key = "name"', 'key = "colour"', "copy_limits\\[0\\].key: 'colour' is not one of"),
        ('scope = ["main"]', 'scope = ["side"]', "no section 'side'"),
        ("max_players = 2", "", "missing key 'max_players'"),
        (
            "size = { exact = 20 }",
            "size = { exact = 20 }\naccept = { type = { maybe = 1 } }",
            "unknown condition",
        ),
    ],
)
def test_a_broken_rule_set_names_the_file_and_the_key(tmp_path: Path, needle, replacement, message):
    text = MINI_GAME + MINI_FORMAT
    assert needle in text
    (tmp_path / "mini.toml").write_text(text.replace(needle, replacement), encoding="utf-8")
    with pytest.raises(RuleSetError, match=message):
        load_registry(tmp_path)


def test_every_shipped_rule_set_has_a_version_and_effective_date():
    for path in RULESETS_DIR.glob("*.toml"):
        game = load_registry(RULESETS_DIR).games[path.stem]
        assert game.version and isinstance(game.effective_date, date)
