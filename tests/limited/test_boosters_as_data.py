"""Boosters as rule-set data: checked when the rule set loads and against the cards, the same seed → the same pack."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.boosters import BoosterError, booster, cut_cube, parse_boosters, resolve, sealed_pool
from games.cards import CardInfo
from games.errors import RuleSetError
from games.registry import load_registry

CARDS = [
    CardInfo(key=f"r{i}", name=f"Rare {i}", attributes={"rarity": ["rare"], "set": ["A"]}) for i in range(4)
] + [
    CardInfo(key=f"c{i}", name=f"Common {i}", attributes={"rarity": ["common"], "set": ["A"]})
    for i in range(12)
]

SPEC = [
    {
        "slug": "a",
        "sheets": [
            {"slug": "rare", "filter": {"rarity": "rare"}, "rates": {"r0": 3}},
            {"slug": "common", "filter": {"rarity": "common"}},
        ],
        "slots": [{"sheet": "rare", "count": 1}, {"sheet": "common", "count": 5}],
        "sealed": {"packs": 4, "extras": {"c0": 1}},
    }
]


def test_the_shipped_rule_sets_load_their_boosters():
    spec = load_registry().games["twindeck"].boosters["td-sample"]
    assert spec.pack_size == 15 and spec.sealed_packs == 5


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"slots": [{"sheet": "mythic", "count": 1}]}, "unknown sheet 'mythic'"),
        ({"slots": [{"sheet": "rare", "count": 0}]}, "count of 1 or more"),
        ({"slots": []}, "at least one slot"),
        ({"sheets": [{"slug": "rare", "filter": "rare"}]}, "sheet 'rare'"),
    ],
)
def test_a_broken_booster_fails_loudly_when_the_rule_set_loads(change, words):
    with pytest.raises(RuleSetError, match=words):
        parse_boosters([{**SPEC[0], **change}])


def test_a_sheet_that_matches_no_card_is_named():
    spec = parse_boosters(
        [{**SPEC[0], "sheets": [*SPEC[0]["sheets"], {"slug": "mythic", "filter": {"rarity": "mythic"}}]}]
    )
    with pytest.raises(BoosterError, match="sheet 'mythic' matches no card"):
        resolve(spec["a"], CARDS)
    short = parse_boosters([{**SPEC[0], "slots": [{"sheet": "rare", "count": 5}]}])["a"]
    with pytest.raises(BoosterError, match="sheet 'rare' has 4 cards"):
        resolve(short, CARDS)


@given(seed=st.integers(0, 2**40))
def test_the_same_seed_gives_the_same_pack_and_pool(seed):
    spec = parse_boosters(SPEC)["a"]
    resolved = resolve(spec, list(reversed(CARDS)))  # the order cards come from the database never matters
    pack = booster(spec, resolved, seed, 1)
    assert pack == booster(spec, resolve(spec, CARDS), seed, 1)
    assert pack[0].startswith("r") and all(k.startswith("c") for k in pack[1:]) and len(set(pack)) == 6
    pool = sealed_pool(spec, resolved, seed, 17)
    assert pool == sealed_pool(spec, resolved, seed, 17) and sum(pool.values()) == 4 * 6 + 1


def test_rates_weigh_a_card_on_its_sheet():
    spec = parse_boosters(SPEC)["a"]
    resolved = resolve(spec, CARDS)
    rares = Counter(booster(spec, resolved, 5, n)[0] for n in range(3000))
    assert 0.4 < rares["r0"] / 3000 < 0.6  # weight 3 of 6


def test_a_cube_is_cut_into_packs_from_the_seed():
    cube = [f"k{i}" for i in range(50)]
    packs = cut_cube(cube, 9, packs=3, pack_size=15)
    assert packs == cut_cube(cube, 9, packs=3, pack_size=15) and packs != cut_cube(
        cube, 10, packs=3, pack_size=15
    )
    assert len({k for p in packs for k in p}) == 45
    with pytest.raises(BoosterError, match="the cube holds 50 cards"):
        cut_cube(cube, 9, packs=4, pack_size=15)
