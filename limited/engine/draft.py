"""Booster draft in pods, pure Python: seating from a seed, passing, pick timers, auto-picks, the state.

A pod drafts in lockstep, as a timed draft does at a table: every seat makes pick ``k`` of the current pack,
then every pack moves one seat on (left in packs 1 and 3, right in pack 2, MTR 7.8). A seat whose timer runs
out gets an automatic pick, so one phone that sleeps or loses the Wi-Fi never holds its pod up. Because the
pod moves in lockstep, the pack a seat holds is a function of (pack number, pick, seat): nothing but the
opened packs and the picks has to be stored, and a phone that comes back sees the same pack it left.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from games.boosters import rng_for

MIN_POD, MAX_POD = 4, 8

# MTR Appendix B: seconds for a pick by the number of cards left in the pack (15-card boosters).
MTR_PICK_SECONDS: Mapping[int, int] = {
    15: 40, 14: 40, 13: 35, 12: 30, 11: 25, 10: 25, 9: 20, 8: 20, 7: 15, 6: 10, 5: 10, 4: 5, 3: 5, 2: 5, 1: 5,
}  # fmt: skip

# A pick the player made in time may reach the server after the countdown shows 0:00: the venue's Wi-Fi
# resends, and at the end of a pack every phone of the room picks within the same few seconds, so answers
# queue (bench/README.md, "Booster drafts in pods": in the 5-second picks at 2,000 phones, p95 ~2 s). The
# timer's automatic pick waits this long after the deadline, so such a pick is the player's own and not the
# timer's. The organizer calling time (``draft_tick(called=True)``) does not wait.
PICK_GRACE_SECONDS = 3


def timer_cutoff(now: datetime, *, called: bool = False) -> datetime:
    """The latest deadline that has run out at ``now`` (its grace included unless time is called)."""
    return now - timedelta(seconds=0 if called else PICK_GRACE_SECONDS)


def timer_run_out(deadline: datetime | None, now: datetime, *, called: bool = False) -> bool:
    """Whether a pick timer with ``deadline`` has run out at ``now`` (``timer_cutoff``)."""
    return deadline is not None and deadline <= timer_cutoff(now, called=called)


def pick_seconds(cards_left: int, table: Mapping[int, int] | None = None, scale: float = 1.0) -> int:
    """The time for a pick from a pack of ``cards_left`` cards (bigger packs get the first pick's time)."""
    table = table or MTR_PICK_SECONDS
    if cards_left in table:
        seconds = table[cards_left]
    else:
        seconds = table[max(table)] if cards_left > max(table) else table[min(table)]
    return max(1, round(seconds * scale))


def pod_sizes(players: int) -> list[int]:
    """Pods of 4–8 as even as possible (fewer than 4 players: one pod of all of them)."""
    if players <= MAX_POD:
        return [players] if players else []
    pods = math.ceil(players / MAX_POD)
    base, extra = divmod(players, pods)
    return [base + 1] * extra + [base] * (pods - extra)


def seat_pods(players: Sequence[int], seed: int | str) -> list[list[int]]:
    """Players shuffled from the seed and cut into pods; each pod's list is its seating, clockwise."""
    order = sorted(players)
    rng = rng_for(seed, "seating")
    for i in range(len(order) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        order[i], order[j] = order[j], order[i]
    pods, start = [], 0
    for size in pod_sizes(len(order)):
        pods.append(order[start : start + size])
        start += size
    return pods


def direction(pack_number: int) -> int:
    """+1 passes left (to the next seat), -1 right; pack numbers from 1: left, right, left."""
    return 1 if pack_number % 2 == 1 else -1


def origin_seat(*, seats: int, pack_number: int, pick_in_pack: int, seat: int) -> int:
    """Whose pack (the seat that opened it) ``seat`` holds at pick ``pick_in_pack`` (from 1)."""
    return (seat - direction(pack_number) * (pick_in_pack - 1)) % seats


def holder_seat(*, seats: int, pack_number: int, pick_in_pack: int, origin: int) -> int:
    return (origin + direction(pack_number) * (pick_in_pack - 1)) % seats


def auto_pick(pack: Sequence[str]) -> str:
    """The card a timed-out seat takes: the first of the pack as opened (a booster is printed rare first)."""
    return pack[0]


def pack_held(
    packs: Sequence[Sequence[Sequence[str]]],
    seat: int,
    pick_number: int,
    taken: Mapping[tuple[int, int], str],
) -> list[str]:
    """What is left of the pack ``seat`` holds at ``pick_number``, from the opened packs and ``taken``, the
    picks of the same pack before it (``{(seat, pick number): card}``): the earlier packs are not needed,
    so a server reads only the current pack's picks."""
    seats, size = len(packs[0]), len(packs[0][0])
    pack_number, pick_in_pack = (pick_number - 1) // size + 1, (pick_number - 1) % size + 1
    origin = origin_seat(seats=seats, pack_number=pack_number, pick_in_pack=pick_in_pack, seat=seat)
    left = list(packs[pack_number - 1][origin])
    first = (pack_number - 1) * size
    for k in range(1, pick_in_pack):
        taker = holder_seat(seats=seats, pack_number=pack_number, pick_in_pack=k, origin=origin)
        left.remove(taken[(taker, first + k)])
    return left


def cards_left(pack_size: int, pick_number: int) -> int:
    """How many cards the packs hold at ``pick_number`` (what the pick timer is set from)."""
    return pack_size - (pick_number - 1) % pack_size


class PickRefused(ValueError):
    def __init__(self, code: str, **params: object) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


@dataclass
class PodDraft:
    """One pod's draft: the opened packs (``packs[pack_number - 1][origin seat]``) and every pick so far."""

    packs: list[list[list[str]]]
    # picks[seat] = the cards that seat took, in order (pick 1 first).
    picks: list[list[str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.picks:
            self.picks = [[] for _ in range(self.seats)]

    @property
    def seats(self) -> int:
        return len(self.packs[0])

    @property
    def pack_size(self) -> int:
        return len(self.packs[0][0])

    @property
    def total_picks(self) -> int:
        return len(self.packs) * self.pack_size

    def step(self) -> int:
        """The pick number (from 1, across packs) the pod is on: the first one some seat has not made."""
        return min(len(p) for p in self.picks) + 1

    @property
    def finished(self) -> bool:
        return self.step() > self.total_picks

    def position(self, pick_number: int) -> tuple[int, int]:
        """(pack number, pick in pack), both from 1."""
        return (pick_number - 1) // self.pack_size + 1, (pick_number - 1) % self.pack_size + 1

    def pack_for(self, seat: int, pick_number: int | None = None) -> list[str]:
        """What is left of the pack ``seat`` holds at ``pick_number`` (the pod's current pick by default)."""
        number = pick_number or self.step()
        if number > self.total_picks:
            return []
        first = (self.position(number)[0] - 1) * self.pack_size + 1
        taken = {
            (s, n): self.picks[s][n - 1]
            for s in range(self.seats)
            for n in range(first, number)
            if n <= len(self.picks[s])
        }
        return pack_held(self.packs, seat, number, taken)

    def pick(self, seat: int, pick_number: int, card: str) -> None:
        """Apply one pick; PickRefused ``already_picked`` / ``not_yet`` / ``not_in_pack``."""
        made = len(self.picks[seat])
        if pick_number <= made:
            raise PickRefused("already_picked", pick_number=pick_number)
        if pick_number != made + 1 or pick_number != self.step():
            raise PickRefused("not_yet", pick_number=pick_number, current=self.step())
        if card not in self.pack_for(seat, pick_number):
            raise PickRefused("not_in_pack", card=card, pick_number=pick_number)
        self.picks[seat].append(card)

    def auto_pick_missing(self, pick_number: int) -> list[tuple[int, str]]:
        """Pick for every seat that has not made pick ``pick_number`` (its timer ran out). Nothing when the pod
        has already moved past it: a timer that fires late never takes the next pick for anyone."""
        made: list[tuple[int, str]] = []
        number = self.step()
        if number != pick_number or number > self.total_picks:
            return made
        for seat in range(self.seats):
            if len(self.picks[seat]) < number:
                card = auto_pick(self.pack_for(seat, number))
                self.picks[seat].append(card)
                made.append((seat, card))
        return made

    def pool(self, seat: int) -> dict[str, int]:
        return dict(Counter(self.picks[seat]))
