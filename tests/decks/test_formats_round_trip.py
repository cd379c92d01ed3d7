"""Every export format parses back to the same deck (pure: no database)."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from decks.formats import DeckLine, DeckList, parse_deck, to_cod, to_csv, to_json, to_text, to_ydk, to_ydke

YGO = DeckList(
    sections={
        "main": [DeckLine("46986414", "Dark Magician", 3), DeckLine("55144522", "Pot of Greed", 1)],
        "extra": [DeckLine("44508094", "Stardust Dragon", 2)],
        "side": [DeckLine("44095762", "Mirror Force", 2)],
    },
    name="Magicians",
    game="yugioh",
    format_slug="advanced",
)
EVERSEAL = DeckList(
    sections={"main": [DeckLine("es-007", "Снежный Волчонок", 3), DeckLine("es-013", "Лесная Фея", 2)]},
    hero=DeckLine("es-hero-05", "Странник", 1),
    name="Зимняя стая",
    game="everseal",
    format_slug="standard",
)
CASTER = DeckList(
    sections={"main": [DeckLine("Carella Lv1", "Carella Lv1", 4), DeckLine("Carella Lv2", "Carella Lv2", 4)]},
    name="Casters",
)


def by_id(deck: DeckList) -> dict[str, list[tuple[str, int]]]:
    return {
        slug: [(line.ref, line.count) for line in lines] for slug, lines in deck.sections.items() if lines
    }


def by_name(deck: DeckList) -> dict[str, list[tuple[str, int]]]:
    return {
        slug: [(line.name, line.count) for line in lines] for slug, lines in deck.sections.items() if lines
    }


@pytest.mark.parametrize("writer", [to_ydk, to_ydke])
def test_it_round_trips_ygo_passcode_formats(writer) -> None:
    parsed = parse_deck(writer(YGO))
    assert parsed.errors == []
    assert parsed.counts() == by_id(YGO)


@pytest.mark.parametrize("deck", [YGO, EVERSEAL, CASTER])
def test_it_round_trips_json_and_csv_by_id_with_hero(deck: DeckList) -> None:
    for writer in (to_json, to_csv):
        parsed = parse_deck(writer(deck))
        assert parsed.errors == [], writer
        assert parsed.counts() == by_id(deck)
        assert (parsed.hero.ref if parsed.hero else None) == (deck.hero.ref if deck.hero else None)


@pytest.mark.parametrize("deck", [YGO, EVERSEAL, CASTER])
def test_it_round_trips_text_and_cockatrice_by_name(deck: DeckList) -> None:
    for writer in (to_text, to_cod):
        parsed = parse_deck(writer(deck))
        assert parsed.errors == [], writer
        assert parsed.counts() == by_name(deck)
        assert (parsed.hero.ref if parsed.hero else None) == (deck.hero.name if deck.hero else None)
        assert parsed.name == deck.name


def test_it_keeps_game_and_format_in_json() -> None:
    parsed = parse_deck(to_json(YGO))
    assert (parsed.game, parsed.format_slug, parsed.source_format) == ("yugioh", "advanced", "json")


names = (
    st.text(
        alphabet=st.characters(whitelist_categories=("L", "N"), whitelist_characters=" -'!.,"),
        min_size=1,
        max_size=30,
    )
    .map(str.strip)
    .filter(lambda s: s and not s[0].isdigit() and not s.endswith(":"))
)


@settings(max_examples=100, deadline=None)
@example({"main": [("X 0", 1), ("× Ring", 2), ("x", 3)]})  # names that start like a count separator
@given(
    st.dictionaries(
        st.sampled_from(["main", "extra", "side", "creatures", "additional"]),
        st.lists(
            st.tuples(names, st.integers(1, 999)), min_size=1, max_size=5, unique_by=lambda t: t[0].casefold()
        ),
        min_size=1,
    )
)
def test_it_round_trips_any_names_through_every_name_format(sections: dict) -> None:
    deck = DeckList(
        sections={
            s: [DeckLine(f"id-{i}", n, c) for i, (n, c) in enumerate(lines)] for s, lines in sections.items()
        }
    )
    for writer in (to_text, to_cod, to_csv, to_json):
        parsed = parse_deck(writer(deck))
        assert parsed.errors == []
        expected = by_id(deck) if writer in (to_csv, to_json) else by_name(deck)
        assert parsed.counts() == expected, writer.__name__


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(1, 2**32 - 1), st.integers(1, 3)),
        min_size=0,
        max_size=20,
        unique_by=lambda t: t[0],
    )
)
def test_it_round_trips_any_passcodes_through_ydke(lines: list) -> None:
    deck = DeckList(sections={"main": [DeckLine(str(p), "", n) for p, n in lines]})
    assert parse_deck(to_ydke(deck)).counts() == by_id(deck)
