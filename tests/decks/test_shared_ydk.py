"""The twelve real .ydk decks from ../shared parse, export and parse back to the same cards."""

from __future__ import annotations

from pathlib import Path

from decks.formats import DeckLine, DeckList, parse_deck, to_ydk, to_ydke


def _decks(shared_data: Path) -> list[Path]:
    files = sorted((shared_data / "ygo" / "ydk").glob("*.ydk"))
    assert len(files) == 12
    return files


def _as_list(parsed) -> DeckList:  # type: ignore[no-untyped-def]
    return DeckList(
        sections={
            s: [DeckLine(e.ref, "", e.count) for e in entries] for s, entries in parsed.sections.items()
        }
    )


def test_it_round_trips_every_shared_ydk_without_a_database(shared_data: Path) -> None:
    for path in _decks(shared_data):
        parsed = parse_deck(path.read_bytes(), filename=path.name)
        assert parsed.errors == [], path.name
        assert 40 <= sum(e.count for e in parsed.sections["main"]) <= 60
        for writer in (to_ydk, to_ydke):
            again = parse_deck(writer(_as_list(parsed)))
            assert again.counts() == parsed.counts(), (path.name, writer.__name__)
