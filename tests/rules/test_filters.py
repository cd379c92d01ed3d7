"""The FILTER language shared by section accept rules and hero restrictions."""

from __future__ import annotations

import pytest

from rules.engine import RuleSetError, compile_filter

from .helpers import card

WOLF = card(
    "Wolf",
    card_type="monster",
    subtypes=["beast"],
    level=3,
    cost=2,
    attributes={"size": "M", "keywords": ["Стая", "Агрессор"], "atk": 4},
)


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ({"type": "monster"}, True),
        ({"type": "Monster"}, True),  # strings compare case-insensitively
        ({"type": "hero"}, False),
        ({"subtype": "beast"}, True),
        ({"subtype": ["dragon", "beast"]}, True),
        ({"subtype": {"not": "beast"}}, False),
        ({"level": {"min": 3, "max": 4}}, True),
        ({"cost": {"max": 1}}, False),
        ({"name": "wolf"}, True),
        ({"size": ["S", "M"]}, True),
        ({"size": {"not": ["L"]}}, True),
        ({"keywords": "стая"}, True),  # list attribute: contains
        ({"keywords": "Берсерк"}, False),
        ({"atk": {"min": 5}}, False),
        ({"missing": {"min": 1}}, False),
        ({"missing": {"not": "x"}}, True),
        ({"type": "monster", "size": "L"}, False),  # AND
        ([{"size": "L"}, {"keywords": "Агрессор"}], True),  # a list of filters is OR
    ],
)
def test_it_matches_cards_as_documented(spec, expected):
    assert compile_filter(spec)(WOLF) is expected


def test_it_refuses_a_malformed_filter():
    with pytest.raises(RuleSetError):
        compile_filter("monster")
    with pytest.raises(RuleSetError, match="unknown condition"):
        compile_filter({"atk": {"above": 3}})


def test_it_describes_a_filter_by_the_labels_it_is_given() -> None:
    from rules.engine import default_registry, describe_filter

    spec = {
        "size": "L",
        "region": ["North", "South"],
        "atk": {"min": 2, "max": 5},
        "keywords": {"not": "Pack"},
    }
    from django.utils import translation

    from rules.messages import filter_phrases

    labels = {f.field: f.title("ru") for f in default_registry().game("everseal").search_filters}
    with translation.override("ru"):
        russian = filter_phrases()  # the joining words come from the catalogue, never from the engine
    assert describe_filter(spec, labels, russian) == (
        "Размер L, Регион North / South, Атака ≥ 2, Атака ≤ 5, Ключевое слово не Pack"
    )
    # No mapping, or a field it does not name: the raw key, as before.
    assert describe_filter(spec) == "size L, region North / South, atk ≥ 2, atk ≤ 5, keywords not Pack"
    assert describe_filter([{"size": "S"}, {"family": "Fox"}], {"size": "Size"}) == "(Size S) or (family Fox)"
