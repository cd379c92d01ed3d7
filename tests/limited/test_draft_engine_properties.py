"""The pure draft engine: every card of every pack is picked exactly once, whatever seats pick or time out."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from limited.engine.draft import (
    MTR_PICK_SECONDS,
    PickRefused,
    PodDraft,
    holder_seat,
    origin_seat,
    pick_seconds,
    pod_sizes,
    seat_pods,
)


def _packs(seats: int, packs: int, size: int) -> list[list[list[str]]]:
    # Repeated card names on purpose: a pack may hold two copies of a common.
    return [
        [[f"c{(r * 7 + s * 3 + i) % 11}" for i in range(size)] for s in range(seats)] for r in range(packs)
    ]


@settings(max_examples=60, deadline=None)
@given(
    seats=st.integers(2, 8),
    packs=st.integers(1, 3),
    size=st.integers(1, 6),
    choices=st.lists(st.integers(0, 100), min_size=1, max_size=50),
    timeouts=st.lists(st.booleans(), min_size=1, max_size=50),
)
def test_it_picks_every_card_of_every_pack_exactly_once(seats, packs, size, choices, timeouts):
    draft = PodDraft(_packs(seats, packs, size))
    i = 0
    while not draft.finished:
        number = draft.step()
        for seat in range(seats):
            i += 1
            if timeouts[i % len(timeouts)]:
                continue  # this phone sleeps: the timer picks for it
            pack = draft.pack_for(seat)
            draft.pick(seat, number, pack[choices[i % len(choices)] % len(pack)])
        draft.auto_pick_missing(number)
        assert draft.auto_pick_missing(number) == []
        assert draft.step() == number + 1
    every_pick = Counter(card for seat in range(seats) for card in draft.picks[seat])
    every_card = Counter(card for rnd in draft.packs for pack in rnd for card in pack)
    assert every_pick == every_card  # the picks are a partition of the packs
    assert all(len(p) == packs * size for p in draft.picks)


@given(
    seats=st.integers(2, 8), pack_number=st.integers(1, 3), pick=st.integers(1, 15), seat=st.integers(0, 7)
)
def test_it_passes_left_right_left(seats, pack_number, pick, seat):
    seat %= seats
    origin = origin_seat(seats=seats, pack_number=pack_number, pick_in_pack=pick, seat=seat)
    assert holder_seat(seats=seats, pack_number=pack_number, pick_in_pack=pick, origin=origin) == seat
    step = 1 if pack_number != 2 else -1
    assert (
        origin_seat(seats=seats, pack_number=pack_number, pick_in_pack=2, seat=(seat + step) % seats) == seat
    )


def test_it_refuses_a_second_pick_and_a_pick_ahead_of_the_pod():
    draft = PodDraft(_packs(3, 1, 3))
    card = draft.pack_for(0)[0]
    draft.pick(0, 1, card)
    with pytest.raises(PickRefused) as again:
        draft.pick(0, 1, card)
    assert again.value.code == "already_picked"
    with pytest.raises(PickRefused) as ahead:
        draft.pick(0, 2, "c1")
    assert ahead.value.code == "not_yet"
    with pytest.raises(PickRefused) as foreign:
        draft.pick(1, 1, "no such card")
    assert foreign.value.code == "not_in_pack"


@given(players=st.integers(4, 300), seed=st.integers(0, 10**9))
def test_it_seats_pods_of_four_to_eight_from_a_seed(players, seed):
    pods = seat_pods(list(range(players)), seed)
    assert all(4 <= len(pod) <= 8 for pod in pods)
    assert sorted(p for pod in pods for p in pod) == list(range(players))
    assert pods == seat_pods(list(reversed(range(players))), seed)
    assert [len(p) for p in pods] == pod_sizes(players)


def test_the_pick_timer_follows_the_mtr_table():
    assert [pick_seconds(n) for n in range(15, 0, -1)] == [MTR_PICK_SECONDS[n] for n in range(15, 0, -1)]
    assert pick_seconds(15) == 40 and pick_seconds(1) == 5 and pick_seconds(20) == 40
    assert pick_seconds(14, scale=0.5) == 20
