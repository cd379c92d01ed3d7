"""The allocation of copies to built decks (pure): the earliest built first, a key at a time, and a deck's
missing count equal to the sum of its lines' shares."""

from __future__ import annotations

import random

from collection.allocation import BuiltNeed, allocate, deck_lines, missing_count


def test_the_earliest_built_deck_holds_first_and_others_see_what_is_left() -> None:
    held = allocate(
        {"a": 3, "b": 1}, [BuiltNeed(1, "First", {"a": 2, "b": 1}), BuiltNeed(2, "Second", {"a": 2})]
    )
    assert [(h.deck_id, h.count) for h in held["a"]] == [(1, 2), (2, 1)]
    shares = deck_lines(deck_id=3, lines=[("a", 3), ("b", 1), ("c", 1)], owned={"a": 3, "b": 1}, held=held)
    assert [(s.owned, s.missing) for s in shares] == [(0, 3), (0, 1), (0, 1)]
    own = deck_lines(deck_id=2, lines=[("a", 2)], owned={"a": 3, "b": 1}, held=held)
    assert (own[0].owned, own[0].missing) == (1, 1)  # its own copy counts; the first deck's two do not


def test_the_missing_count_matches_the_lines_on_random_collections() -> None:
    rng = random.Random(3)
    for _ in range(300):
        keys = [f"k{i}" for i in range(6)]
        owned = {k: rng.randint(0, 4) for k in keys}
        built = [BuiltNeed(d, f"D{d}", {k: rng.randint(0, 3) for k in rng.sample(keys, 3)}) for d in range(3)]
        held = allocate(owned, built)
        deck_id = rng.choice([0, 1, 2, 9])
        lines = [(rng.choice(keys), rng.randint(1, 3)) for _ in range(5)]
        shares = deck_lines(deck_id=deck_id, lines=lines, owned=owned, held=held)
        assert missing_count(deck_id=deck_id, lines=lines, owned=owned, held=held) == sum(
            s.missing for s in shares
        )
        for key in keys:
            assert sum(h.count for h in held.get(key, [])) <= owned[key]
