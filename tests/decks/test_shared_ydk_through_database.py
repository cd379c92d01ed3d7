"""The twelve shared .ydk decks import against the real 2020 card database and export back unchanged."""

from __future__ import annotations

from pathlib import Path

import pytest

from decks.formats import parse_deck
from decks.services import deck_export, deck_import

pytestmark = pytest.mark.django_db


@pytest.fixture
def ygo_database(shared_data: Path, games) -> object:  # type: ignore[no-untyped-def]
    try:
        from cards.services import cards_import
    except ImportError:
        pytest.skip("the cards app has no cards_import service yet")
    cdb = shared_data / "ygo" / "cdb" / "cards-2020-03-30.cdb"
    result = cards_import(game=games["yugioh"], data=cdb.read_bytes(), filename=cdb.name)
    assert result.ok, result.errors[:5]
    return games["yugioh"]


def test_it_imports_and_exports_every_shared_ydk(ygo_database, shared_data: Path, user) -> None:
    for path in sorted((shared_data / "ygo" / "ydk").glob("*.ydk")):
        data = path.read_bytes()
        # Some decks hold cards newer than the 2020 database: those are listed, never dropped silently.
        result = deck_import(
            owner=user,
            game=ygo_database,
            data=data,
            filename=path.name,
            format_slug="advanced",
            allow_unknown=True,
        )
        parsed = parse_deck(data, filename=path.name)
        unknown = {(u.section, u.ref) for u in result.unknown}
        expected = {
            section: [(e.ref, e.count) for e in entries if (section, e.ref) not in unknown]
            for section, entries in parsed.sections.items()
        }
        exported = deck_export(deck=result.deck, fmt="ydk")
        again = parse_deck(exported.content, fmt="ydk")
        assert again.counts() == {s: lines for s, lines in expected.items() if lines}, path.name
        assert sum(u.count for u in result.unknown) + sum(
            n for lines in again.counts().values() for _r, n in lines
        ) == (parsed.total)
