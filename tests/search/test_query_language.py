"""The search language without Django: what the parser reads, where its errors point, that hostile input
costs linear time, that /regex/ is bounded, and that the FILTER language and the search judge a card alike."""

from __future__ import annotations

import pytest

from cardsearch import And, Not, Or, QueryError, Term, field_table, fold, parse
from cardsearch.evaluate import Context, compile_query
from cardsearch.explain import explain
from games.cards import CardInfo
from games.filters import compile_filter
from tests.cpu_time import least_cpu_seconds

TABLE = field_table(
    "test",
    {"type_sources": ["race"], "aliases": {"rank": "level"},
     "fields": [{"field": "atk", "kind": "number", "aliases": ["атк"]}, {"field": "attribute", "kind": "choice"},
                {"field": "color", "kind": "colors", "aliases": ["c"]}, {"field": "race", "kind": "choice"}]},
)  # fmt: skip


def test_it_folds_case_punctuation_hyphens_and_diacritics() -> None:
    assert fold("Blue-Eyes White Dragon") == "blue eyes white dragon"
    assert fold("Lím-Dûl, the Necromancer!") == "lim dul the necromancer"
    assert fold("Снежный ВОЛЧОНОК Ёж") == "снежныи волчонок еж"


def test_it_reads_terms_groups_and_negation() -> None:
    node = parse('t:dragon (atk>=3000 or !"Dark Magician") -banned: /ey+s/')
    assert isinstance(node, And)
    t, group, negated, rx = node.items
    assert t == Term("t", ":", "dragon", "word", 0, 8, "t")
    assert (
        isinstance(group, Or) and group.items[1].kind == "exact" and group.items[1].value == "Dark Magician"
    )
    assert isinstance(negated, Not) and negated.item.field == "banned" and negated.item.value == ""
    assert rx.kind == "regex" and rx.value == "ey+s"
    assert parse("a OR b или c").__class__ is Or
    assert parse("  ") is None


@pytest.mark.parametrize(
    ("query", "code", "start"),
    [
        ("(dragon", "unclosed_paren", 0), ("dragon)", "unopened_paren", 6), ('o:"abc', "unclosed_quote", 2),
        ("o:/abc", "unclosed_regex", 2), ("a or", "or_needs_term", 2), ("-", "dangling_minus", 0),
        ("a ( ) b", "empty_group", 4),
    ],
)  # fmt: skip
def test_a_broken_query_points_at_its_token(query: str, code: str, start: int) -> None:
    with pytest.raises(QueryError) as caught:
        compile_query(parse(query), TABLE)
    assert (caught.value.code, caught.value.start) == (code, start)


def test_unknown_fields_and_bad_values_are_named_with_near_keywords() -> None:
    with pytest.raises(QueryError) as caught:
        compile_query(parse("lv:4 akt>1"), TABLE)
    assert (
        caught.value.code == "unknown_field"
        and caught.value.start == 5
        and "atk" in caught.value.params["suggestions"]
    )
    with pytest.raises(QueryError) as caught:
        compile_query(parse("atk>=lots"), TABLE)
    assert caught.value.code == "not_a_number" and caught.value.start == 5
    with pytest.raises(QueryError) as caught:
        compile_query(parse("attribute>dark"), TABLE)
    assert caught.value.code == "bad_operator"


def test_hostile_input_costs_linear_time_and_regex_is_bounded() -> None:
    for hostile in ["(" * 999, '"' * 999, "a:" * 499, "-" * 999, "/" * 999, "a " * 499 + ")", "((a)" * 250]:

        def refuse(hostile: str = hostile) -> None:
            with pytest.raises(QueryError):
                compile_query(parse(hostile), TABLE)

        assert least_cpu_seconds(refuse, under=0.1) < 0.1, hostile[:10]
    assert least_cpu_seconds(lambda: compile_query(parse("x" * 1000), TABLE), under=0.1) < 0.1
    with pytest.raises(QueryError) as caught:
        parse("a" * 1001)
    assert caught.value.code == "too_long"
    with pytest.raises(QueryError) as caught:
        compile_query(parse("o:/" + "a" * 201 + "/"), TABLE)
    assert caught.value.code == "regex_too_long"
    with pytest.raises(QueryError) as caught:
        compile_query(parse("o:/(a/"), TABLE)
    assert caught.value.code == "bad_regex"
    # The classic catastrophic backtracking pattern on a long text: RE2 answers in linear time.
    card = CardInfo(key="1", name="x", text="a" * 50_000 + "!")
    test = compile_query(parse("o:/(a+)+$/"), TABLE)
    assert test(card) is False  # Python's re would backtrack for ages on this
    assert least_cpu_seconds(lambda: test(card), under=0.5) < 0.5


def test_filter_conditions_and_search_terms_judge_alike() -> None:
    cards = [
        CardInfo(key="1", name="Blue-Eyes White Dragon", card_type="monster", subtypes=("normal",), level=8,
                 attributes={"atk": 3000, "attribute": "LIGHT", "race": "Dragon", "color": ["W", "U"]}),
        CardInfo(key="2", name="Dark Magician", card_type="monster", subtypes=("normal",), level=7,
                 attributes={"atk": 2500, "attribute": "DARK", "race": "Spellcaster", "color": "U"}),
        CardInfo(key="3", name="Raigeki", card_type="spell", text="Destroy all monsters your opponent controls."),
    ]  # fmt: skip
    pairs = [
        ({"type": "monster", "atk": {"min": 2600}}, "type=monster atk>=2600"),
        ({"attribute": ["dark", "light"]}, "attribute:dark or attribute:light"),
        ({"subtype": {"not": "normal"}}, "-subtype:normal"),
        ({"text": {"contains": "destroy all"}}, 'o:"destroy all"'),
        ({"text": {"not_contains": "destroy"}, "level": {"max": 7}}, "-o:destroy lv<=7"),
        ([{"race": "dragon"}, {"type": "spell"}], "race:dragon or t:spell"),
    ]
    for spec, query in pairs:
        by_filter = [c.key for c in cards if compile_filter(spec)(c)]
        by_search = [c.key for c in cards if compile_query(parse(query), TABLE, Context())(c)]
        assert by_filter == by_search, (spec, query)
    assert [c.key for c in cards if compile_query(parse("c:uw"), TABLE)(c)] == ["1"]
    assert [c.key for c in cards if compile_query(parse("c<=u"), TABLE)(c)] == ["2", "3"]


def test_it_explains_a_query_in_words() -> None:
    words = explain(parse("blue eyes t:dragon atk>=3000 -attribute:dark"), TABLE)
    assert words == "name has “blue” and “eyes”, Type has “dragon”, atk ≥ 3000, not attribute is dark"
