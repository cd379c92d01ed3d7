"""Each rule set says which card-search filters its game offers; the registry checks them."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.registry import SearchFilter
from rules.engine import RuleSetError, default_registry, load_registry

from .helpers import MINI_GAME

MINI = (
    MINI_GAME
    + """{filters}

[[formats]]
slug = "std"
name = "Standard"

[[formats.sections]]
slug = "main"
name = "Deck"
"""
)


def load_mini(tmp_path: Path, filters: str) -> tuple[SearchFilter, ...]:
    (tmp_path / "mini.toml").write_text(MINI.format(filters=filters), encoding="utf-8")
    return load_registry(tmp_path).game("mini").search_filters


def test_it_reads_each_games_filters_in_order():
    reg = default_registry()
    fields = {slug: [(f.field, f.kind) for f in game.search_filters] for slug, game in reg.games.items()}
    assert fields["yugioh"] == [
        ("type", "choice"),
        ("subtype", "choice"),
        ("attribute", "choice"),
        ("race", "choice"),
        ("level", "range"),
        ("atk", "range"),
        ("def", "range"),
    ]
    assert [f for f, _ in fields["everseal"]] == [
        "type",
        "size",
        "region",
        "keywords",
        "family",
        "subtype",
        "atk",
    ]
    assert [f for f, _ in fields["twindeck"]] == ["type", "back", "race", "class", "cost"]
    assert [f for f, _ in fields["caster"]] == ["type", "subtype", "color", "cost", "level"]
    assert [f for f, _ in fields["vale"]] == ["family", "effect_types", "cost"]
    size = reg.game("everseal").search_filters[1]
    assert (size.title("en"), size.title("ru"), size.builtin) == ("Size", "Размер", False)
    assert reg.game("yugioh").search_filters[0].builtin


def test_a_game_without_filters_has_none_and_label_ru_is_optional(tmp_path: Path):
    assert load_mini(tmp_path, "") == ()
    (only,) = load_mini(tmp_path, 'search_filters = [{ field = "power", kind = "range", label = "Power" }]')
    assert only == SearchFilter(
        field="power", kind="range", label="Power", label_ru="", names={"en": "Power"}
    )
    assert only.title("ru") == "Power"


@pytest.mark.parametrize(
    ("filters", "message"),
    [
        ('search_filters = { field = "size" }', r"mini.toml\[game\].search_filters: expected a list"),
        ('search_filters = ["size"]', r"search_filters\[0\]: expected a table"),
        (
            'search_filters = [{ field = "size", kind = "choice", label = "Size", colour = 1 }]',
            r"search_filters\[0\]: unknown key\(s\) \['colour'\]",
        ),
        (
            'search_filters = [{ kind = "choice", label = "Size" }]',
            r"search_filters\[0\]: missing key 'field'",
        ),
        (
            'search_filters = [{ field = "size", kind = "slider", label = "Size" }]',
            r"search_filters\[0\].kind: 'slider' is not one of",
        ),
        (
            'search_filters = [{ field = "type", kind = "range", label = "Type" }]',
            r"search_filters\[0\].kind: 'type' can only be searched as 'choice'",
        ),
        (
            'search_filters = [{ field = "a.b", kind = "choice", label = "X" }]',
            r"search_filters\[0\].field: 'a.b' is neither",
        ),
        (
            'search_filters = [{ field = "size", kind = "choice" }]',
            r"search_filters\[0\]: missing key 'label'",
        ),
        (
            'search_filters = [{ field = "size", kind = "choice", label = "S", label_ru = 3 }]',
            r"search_filters\[0\].label_ru: expected",
        ),
        (
            'search_filters = [{ field = "size", kind = "choice", label = "S" },'
            ' { field = "size", kind = "range", label = "S2" }]',
            r"search_filters\[1\].field: 'size' is listed twice",
        ),
    ],
)
def test_a_malformed_filter_names_the_file_and_key(tmp_path: Path, filters: str, message: str):
    with pytest.raises(RuleSetError, match=message):
        load_mini(tmp_path, filters)
