"""The rule-set schema is declared once (games/schema.py): every file is checked against it with
messages naming the file, the key and the line; the README reference is generated from it; one broken file
does not stop the others; formats hold dated versions."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from games.schema import README_END, README_START, readme_with_reference, schema_reference
from rules.engine import RuleSetError, load_registry

from .helpers import MINI_FORMAT, MINI_GAME

FORMAT = MINI_FORMAT
README = Path(__file__).resolve().parents[2] / "rules" / "README.md"


def write(tmp_path: Path, text: str, name: str = "mini.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("needle", "replacement", "message"),
    [
        (
            "size = { exact = 20 }",
            'size = { exact = "20" }',
            r"mini.toml\[formats\]\[0\].sections\[0\].size.exact: expected int, got '20' \(line 20\)",
        ),
        (
            'name = "Deck"',
            'name = "Deck"\ncolour = "red"',
            r"sections\[0\]: unknown key\(s\) \['colour'\]; allowed: .* \(line 17\)",
        ),
        (
            'first_player = "loser_chooses"',
            'first_player = "winner"',
            r"\[game\].first_player: 'winner' is not one of \['loser_chooses', 'loser_goes_first'\] \(line 8\)",
        ),
        (
            'scope = ["main"]',
            'scope = ["side"]',
            r"copy_limits\[0\].scope: no section 'side' in this format .* \(line 15\)",
        ),
        ("has_decks = true", "has_decks = 1", r"\[game\].has_decks: expected bool, got 1 \(line 5\)"),
    ],
)
def test_a_mistake_names_the_file_the_key_and_the_line(tmp_path: Path, needle, replacement, message):
    text = MINI_GAME + FORMAT
    assert needle in text
    write(tmp_path, text.replace(needle, replacement))
    with pytest.raises(RuleSetError, match=message):
        load_registry(tmp_path)


def test_first_player_is_optional_and_defaults_to_loser_chooses(tmp_path: Path):
    write(tmp_path, MINI_GAME.replace('first_player = "loser_chooses"\n', "") + FORMAT)
    assert load_registry(tmp_path).game("mini").first_player == "loser_chooses"


def test_a_multi_line_copy_limit_table_reads_like_the_inline_one(tmp_path: Path):
    write(tmp_path, MINI_GAME + FORMAT.replace('copy_limits = [{ key = "name", scope = ["main"], max = 2 }]\n', "")
          + '\n[[formats.copy_limits]]\nkey = "name"\nscope = ["main"]\nmax = 2\n')  # fmt: skip
    [limit] = load_registry(tmp_path).format("mini", "std").copy_limits
    assert (limit.key, limit.scope, limit.max) == ("name", ("main",), 2)


def test_one_broken_file_is_reported_and_the_others_still_load(tmp_path: Path):
    write(tmp_path, MINI_GAME + FORMAT)
    write(
        tmp_path,
        MINI_GAME.replace('"mini"', '"broken"').replace("max_players = 2", "") + FORMAT,
        "broken.toml",
    )
    registry = load_registry(tmp_path, strict=False)
    assert list(registry.games) == ["mini"]
    [error] = registry.errors
    assert error.startswith("broken.toml[game]: missing key 'max_players'")
    with pytest.raises(RuleSetError, match=r"broken\.toml"):
        load_registry(tmp_path)


VERSIONED = (
    MINI_GAME
    + FORMAT
    + """
[[formats.versions]]
version = "first"

[[formats.versions.sections]]
slug = "main"
name = "Deck"
size = { exact = 10 }

[[formats.versions]]
version = "second"
effective_date = 2024-06-01
copy_limits = []
"""
)


def test_a_format_holds_dated_versions_and_the_date_picks_one(tmp_path: Path):
    """A version replaces the keys it gives and inherits the rest; the [[formats]] table is the newest."""
    write(tmp_path, VERSIONED.replace("effective_date = 2024-01-01", "effective_date = 2025-01-01"))
    reg = load_registry(tmp_path)
    on = lambda d: reg.format("mini", "std", d)  # noqa: E731
    assert [v.version for v in reg.game("mini").format_versions["std"]] == ["first", "second", "1"]
    assert on(date(2020, 1, 1)).version == "first" and on(date(2020, 1, 1)).sections[0].size.exact == 10
    second = on(date(2024, 7, 1))
    assert (second.version, second.sections[0].size.exact, second.copy_limits) == ("second", 20, ())
    assert on(date(2025, 1, 1)).version == "1" and reg.format("mini", "std").version == "1"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("effective_date = 2024-06-01", "effective_date = 2026-06-01"), "is not before the format's own"),
        (('version = "first"', 'version = "1"'), "two versions share a name"),
        (
            ('version = "second"\neffective_date = 2024-06-01', 'version = "second"'),
            "only the oldest version",
        ),
    ],
)
def test_versions_must_be_dated_and_ordered(tmp_path: Path, change, message):
    write(tmp_path, VERSIONED.replace(*change))
    with pytest.raises(RuleSetError, match=message):
        load_registry(tmp_path)


def test_the_readme_reference_is_generated_from_the_schema():
    """Fails when rules/README.md and the schema disagree: run `python manage.py ruleset_reference --write`."""
    readme = README.read_text(encoding="utf-8")
    assert README_START in readme and README_END in readme
    assert readme_with_reference(readme) == readme, "rules/README.md is stale: regenerate the reference"


def test_the_reference_documents_every_key_of_every_table():
    reference = schema_reference()
    for key in ("first_player", "banlist_regions", "counts_in", "identity", "versions", "effective_date",
                "match_format", "keep_sizes", "forbidden_as", "label_ru"):  # fmt: skip
        assert f"| `{key}` |" in reference, key
    assert '`"loser_chooses"`' in reference  # the documented default of first_player
