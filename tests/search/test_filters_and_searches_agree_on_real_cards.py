"""A rule set's FILTER compiles into the search language's tree and is judged by its one evaluator: on the
full shared Yu-Gi-Oh! .cdb, each FILTER (the real section accept rules among them) selects exactly the
cards the equivalent typed search selects, and exactly the cards a direct reading of the community file
says (so neither side can drift alone)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from cardsearch import And, Not, Or, Term, parse
from cardsearch.evaluate import Context, compile_query
from games.filters import compile_filter, filter_tree

MONSTER, FUSION, SYNCHRO, XYZ, LINK, TOKEN = 0x1, 0x40, 0x2000, 0x800000, 0x4000000, 0x4000
RACE_DRAGON = 0x2000


@pytest.fixture(scope="module")
def cdb(shared_data: Path):  # type: ignore[no-untyped-def]
    from cards.importers import ygopro

    path = shared_data / "ygo" / "cdb" / "cards-2020-03-30.cdb"
    records = ygopro.parse(path.read_bytes(), game_slug="yugioh").records
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    raw = {str(i): (t, atk) for i, t, atk in connection.execute("SELECT id, type, atk FROM datas")}
    connection.close()
    assert len(records) > 10_000
    return records, raw


@pytest.fixture(scope="module")
def table():  # type: ignore[no-untyped-def]
    from cards.search import game_fields

    return game_fields("yugioh")


def test_a_filter_is_the_search_language_s_tree() -> None:
    tree = filter_tree({"type": "monster", "subtype": {"not": ["xyz", "link"]}, "atk": {"min": 2500}})
    assert isinstance(tree, And)
    kinds = [type(item).__name__ for item in tree.items]
    assert kinds == ["Term", "And", "And"]
    monster, (negated,), (at_least,) = tree.items[0], tree.items[1].items, tree.items[2].items
    assert isinstance(monster, Term) and monster.source == "card_type" and monster.values == ("monster",)
    assert isinstance(negated, Not) and negated.item.values == ("xyz", "link")
    assert at_least.op == ">=" and at_least.values == (2500,)
    assert isinstance(filter_tree([{"race": "dragon"}, {"type": "spell"}]), Or)


def test_filters_and_searches_select_the_same_real_cards(cdb, table) -> None:  # type: ignore[no-untyped-def]
    records, raw = cdb
    extra_types = FUSION | SYNCHRO | XYZ | LINK

    def by_cdb(pred) -> set[str]:  # type: ignore[no-untyped-def]
        return {r.external_id for r in records if pred(*raw[r.external_id])}

    pairs = [
        # yugioh.toml's Extra Deck accept rule
        ({"type": "monster", "subtype": ["fusion", "synchro", "xyz", "link"]},
         "type=monster (st:fusion or st:synchro or st:xyz or st:link)",
         by_cdb(lambda t, atk: t & MONSTER and t & extra_types)),
        # yugioh.toml's Main Deck accept rule
        ({"subtype": {"not": ["fusion", "synchro", "xyz", "link", "token"]}},
         "-st:fusion -st:synchro -st:xyz -st:link -st:token",
         by_cdb(lambda t, atk: not t & (extra_types | TOKEN))),
        ({"race": "dragon", "atk": {"min": 3000}}, "race:dragon atk>=3000",
         {r.external_id for r in records if r.attributes.get("race") == "Dragon" and (r.attributes.get("atk") or -1) >= 3000}),
        ({"atk": {"min": 1000, "max": 1500}, "subtype": "tuner"}, "atk>=1000 atk<=1500 st:tuner", None),
        ({"attribute": {"not": "dark"}, "level": 4}, "-attribute:dark lv=4", None),
        ([{"race": "dragon", "level": {"min": 8}}, {"type": "trap", "subtype": "counter"}],
         "(race:dragon lv>=8) or (type=trap st:counter)", None),
    ]  # fmt: skip
    for spec, query, expected in pairs:
        accept = compile_filter(spec)
        search = compile_query(parse(query, table.keywords), table, Context())
        by_filter = {r.external_id for r in records if accept(r)}
        by_search = {r.external_id for r in records if search(r)}
        assert by_filter, spec
        assert by_filter == by_search, (spec, query, len(by_filter ^ by_search))
        if expected is not None:
            assert by_filter == expected, spec


def test_one_tree_mixes_typed_terms_and_filter_conditions(cdb, table) -> None:  # type: ignore[no-untyped-def]
    """A typed search and a FILTER combine in one tree (as a saved search inside a section would)."""
    records, _raw = cdb
    extra_deck = filter_tree({"type": "monster", "subtype": ["fusion", "synchro", "xyz", "link"]})
    both = compile_query(And((parse("attribute:dark", table.keywords), extra_deck)), table, Context())
    typed = compile_query(
        parse("attribute:dark (st:fusion or st:synchro or st:xyz or st:link)", table.keywords), table
    )
    picked = {r.external_id for r in records if both(r)}
    assert picked and picked == {r.external_id for r in records if typed(r)}


def test_the_index_answers_a_filter_as_the_evaluator_does(cdb, table) -> None:  # type: ignore[no-untyped-def]
    """The in-process index takes the same tree: a FILTER alone or mixed with typed terms."""
    from cardsearch.index import CardIndex, Row, rows_in_order

    records, _raw = cdb
    rows = rows_in_order(
        Row(n, r.external_id, r.identity or r.external_id, r.name, r.card_type, r.subtypes, r.level, r.cost,
            r.attributes, r.text, r.deck_buildable, r.is_token)
        for n, r in enumerate(records)
    )  # fmt: skip
    index = CardIndex(rows, table)
    for spec, typed in [
        ({"type": "monster", "subtype": ["fusion", "synchro", "xyz", "link"]}, None),
        ({"subtype": {"not": ["fusion", "synchro", "xyz", "link", "token"]}}, "o:draw"),
        ([{"race": "dragon", "atk": {"min": 3000}}, {"text": {"contains": "cannot be destroyed"}}], "-attribute:dark"),
    ]:  # fmt: skip
        tree = filter_tree(spec)
        if typed is not None:
            tree = And((parse(typed, table.keywords), tree))
        test = compile_query(tree, table, Context())
        expected = [i for i, row in enumerate(index.rows) if test(row)]
        assert expected and index.search(tree, Context()) == expected, spec
    narrow = CardIndex(rows, table, kept=frozenset({"atk"}))
    with pytest.raises(ValueError, match="race"):
        narrow.search(filter_tree({"race": "dragon"}), Context())
