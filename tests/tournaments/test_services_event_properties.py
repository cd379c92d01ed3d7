"""Whole events through the services (database included) with random results, drops and late entries:
no rematch, every active player paired exactly once per round, at most one bye each, dropped players
never paired again, standings list everyone."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments import services
from tournaments.models import Match, MatchSeat, Player, Tournament
from tournaments.reads.selectors import standings_compute

pytestmark = pytest.mark.django_db

RESULTS = [[2, 0], [2, 1], [1, 2], [0, 2], [1, 1], [0, 0]]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    players=st.integers(min_value=4, max_value=14),
    rounds=st.integers(min_value=2, max_value=5),
    seed=st.integers(min_value=0, max_value=2**32),
    drop_rate=st.sampled_from([0.0, 0.1, 0.25]),
    late=st.integers(min_value=0, max_value=2),
)
def test_it_keeps_the_swiss_invariants_over_whole_events(
    games, organizer, players, rounds, seed, drop_rate, late
):
    rng = random.Random(seed)
    event = services.tournament_create(
        created_by=organizer,
        name="Prop",
        game=games["caster"],
        format_slug="standard",
        rounds=rounds,
        seed=seed,
    )
    for i in range(players):
        services.player_register(tournament=event, by=organizer, name=f"P{i}")
    met: set[frozenset[int]] = set()
    byes: Counter[int] = Counter()
    for number in range(1, rounds + 1):
        try:
            round_ = services.round_pair_next(tournament=event, by=organizer)
        except Exception as error:  # a genuinely impossible pairing must be reported, not broken
            assert "No valid pairing" in str(error)
            break
        active = {
            p.pk for p in Player.objects.filter(tournament=event)
            if p.joined_round <= number and (p.dropped_at_round is None or p.dropped_at_round >= number)
        }  # fmt: skip
        seats = list(MatchSeat.objects.filter(match__round=round_).values_list("match_id", "player_id"))
        paired = Counter(pid for _mid, pid in seats)
        assert set(paired) == active and all(n == 1 for n in paired.values())
        by_match: dict[int, list[int]] = {}
        for mid, pid in seats:
            by_match.setdefault(mid, []).append(pid)
        for match in Match.objects.filter(round=round_):
            ids = by_match[match.pk]
            if match.bye:
                byes[ids[0]] += 1
                continue
            pair = frozenset(ids)
            assert pair not in met, "rematch"
            met.add(pair)
            services.match_report_result(match=match, by=organizer, **_result(rng))
        assert all(n <= 1 for n in byes.values()), "second bye"
        for pid in sorted(active):
            if rng.random() < drop_rate:
                services.player_drop(player=Player.objects.get(pk=pid), by=organizer)
        for i in range(late if number == 1 else 0):
            services.player_add_late(tournament=event, by=organizer, name=f"Late {i}")
    rows = standings_compute(tournament=event)
    assert len(rows) == Player.objects.filter(tournament=event).count()
    assert [r["rank"] for r in rows] == list(range(1, len(rows) + 1))
    assert Tournament.objects.get(pk=event.pk).status == Tournament.Status.RUNNING


def _result(rng: random.Random) -> dict:
    wins = rng.choice(RESULTS)
    if wins == [0, 0]:
        return {"wins": wins, "draws": 3}
    return {"wins": wins, "draws": 1 if wins == [1, 1] else 0}
