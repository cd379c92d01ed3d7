"""The real Magic files in the shared data: the four Cockatrice set files imported into the `mtg` game of
games/rulesets/mtg.toml, then the real decks validated against its formats (counted in the report)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rules.deckinput import deck_from_text
from rules.services import deck_validate

pytestmark = pytest.mark.django_db


@pytest.fixture
def mtg(games: dict[str, Any], shared_data: Path) -> Any:
    from cards.services import cards_import

    game = games["mtg"]
    for path in sorted((shared_data / "mtg" / "cockatrice").glob("*.xml")):
        result = cards_import(game=game, data=path.read_bytes(), filename=path.name)
        assert result.ok, (path.name, result.errors[:3])
    return game


def _judge(game: Any, path: Path, format_slug: str) -> Any:
    deck = deck_from_text(game=game, format_slug=format_slug, data=path.read_bytes(), filename=path.name)
    return deck_validate(game=game, format_slug=format_slug, sections=deck.sections, hero=deck.hero,
                         unknown=deck.unknown, extra_violations=deck.violations)  # fmt: skip


def test_the_m20_decks_get_true_constructed_verdicts(mtg, shared_data: Path):
    """CR 100.2a: 60+ cards, 4 per name except basic lands. The 60- and 75-card precons break no rule; the
    five 30-card welcome decks are too small. The precons reprint cards from sets not in the shared files
    (SOURCE.txt): those are unknown cards, reported as such and nothing else."""
    paths = sorted((shared_data / "mtg" / "cod").glob("*_M20.cod"))
    assert len(paths) == 14
    verdicts = {}
    for path in paths:
        report = _judge(mtg, path, "constructed")
        verdicts[path.name] = sorted(
            (v.code, v.section, v.count, v.limit) for v in report.violations if v.code != "unknown_card"
        )
    half = {
        "BlackDeck_M20.cod",
        "BlueDeck_M20.cod",
        "GreenDeck_M20.cod",
        "RedDeck_M20.cod",
        "WhiteDeck_M20.cod",
    }
    assert {name: v for name, v in verdicts.items() if v} == {
        name: [("section_size", "main", 30, 60)] for name in half
    }


def test_the_commander_deck_is_judged_by_commander_rules(mtg, shared_data: Path):
    """CR 903.5: the real Commander deck (Kelsien, the Plague is outside these sets, so its commander is
    not in the database) is judged as a 100-card singleton; nothing but unknown cards and the missing
    commander is reported."""
    report = _judge(mtg, shared_data / "mtg" / "cod" / "dons-decks_edh-Assassin.cod", "commander")
    codes = {v.code for v in report.violations}
    assert codes <= {"unknown_card", "hero_missing", "section_size"}, [v.message for v in report.violations]
    assert "copy_limit" not in codes
