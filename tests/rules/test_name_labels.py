"""Game, format, section and hero-slot names come from the rule set per language: the thing's own
``name``/``name_ru``, then ``[game.labels]`` words for any other language, English when a language has none —
so a third language is data, never a code change."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.registry import word_for
from rules.engine import RuleSetError, load_registry, validate_deck

from .helpers import MINI_FORMAT, MINI_GAME, card, deck

LABELS = """
[game.labels]
name = { en = "Mini", ru = "Мини", pl = "Mini PL" }

[game.labels.formats]
std = { en = "Standard", ru = "Стандарт", pl = "Standardowy" }

[game.labels.sections]
main = { en = "Deck", ru = "Колода", pl = "Talia" }
"""


def _game(tmp_path: Path, text: str):  # type: ignore[no-untyped-def]
    (tmp_path / "mini.toml").write_text(text, encoding="utf-8")
    return load_registry(tmp_path).game("mini")


def test_it_names_the_game_its_formats_and_sections_in_a_language_only_the_labels_know(tmp_path: Path):
    game = _game(tmp_path, MINI_GAME + LABELS + MINI_FORMAT)
    fmt = game.formats["std"]
    assert (game.title("pl"), fmt.title("pl"), fmt.sections[0].title("pl")) == (
        "Mini PL",
        "Standardowy",
        "Talia",
    )
    # A regional variant falls back to its language, a language nobody wrote to English.
    assert fmt.sections[0].title("pl-pl") == "Talia"
    assert (fmt.title("de"), fmt.sections[0].title("de")) == ("Standard", "Deck")
    assert fmt.sections[0].title("ru") == "Колода"


def test_the_things_own_names_win_over_game_wide_section_labels(tmp_path: Path):
    text = MINI_GAME + LABELS.replace('main = { en = "Deck"', 'main = { en = "Main deck"') + MINI_FORMAT
    section = (
        _game(tmp_path, text.replace('name = "Deck"', 'name = "Deck"\nname_ru = "Своя колода"'))
        .formats["std"]
        .sections[0]
    )
    assert (section.title("en"), section.title("ru"), section.title("pl")) == ("Deck", "Своя колода", "Talia")


def test_a_format_specific_section_label_wins_over_the_game_wide_one(tmp_path: Path):
    text = MINI_GAME + LABELS + '"std/main" = { en = "Deck", pl = "Talia standardowa" }\n' + MINI_FORMAT
    assert _game(tmp_path, text).formats["std"].sections[0].title("pl") == "Talia standardowa"


def test_reports_carry_every_language_the_rule_set_names(tmp_path: Path):
    fmt = _game(tmp_path, MINI_GAME + LABELS + MINI_FORMAT).formats["std"]
    report = validate_deck(deck(main=[(card("A"), 3)]), fmt)
    sizes = [v for v in report.violations if v.code == "section_size"]
    assert sizes and word_for(sizes[0].params["section"], "pl") == "Talia"


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ('[game.labels.formats]\nwild = { en = "Wild" }\n', r"labels.formats: no format 'wild'"),
        ('[game.labels.sections]\nside = { en = "Side" }\n', r"labels.sections: no section 'side'"),
        (
            '[game.labels.formats]\nstd = { en = "Standard", Polish = "x" }\n',
            r"'Polish' is not a language code",
        ),
        (
            '[game.labels.formats]\nstd = { en = "Standard", pl = 3 }\n',
            r"the 'pl' word must be non-empty text",
        ),
    ],
)
def test_a_label_for_something_the_file_lacks_or_a_bad_language_is_refused(tmp_path: Path, extra, message):
    (tmp_path / "mini.toml").write_text(MINI_GAME + extra + MINI_FORMAT, encoding="utf-8")
    with pytest.raises(RuleSetError, match=message):
        load_registry(tmp_path)
