"""Benchmark Swiss pairing against swisspair and networkx on the same simulated events.

Usage: .venv/bin/python bench/bench_pairing.py [--sizes 64,256,1024,4096,16384] [--rounds N] [--seed S]

The event is driven by our engine's pairings; every round, each peer is timed on exactly the same player
state (points, previous opponents, byes), and its output is checked for rematches, pair-downs (score-group
boundaries crossed, the metric of tournaments.engine.pairing) and byes. networkx (exact maximum-weight matching)
runs in a child process with a one-minute budget per event and is skipped for larger sizes once it fails.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.engine.pairing import PairingPlayer, pair_round, recommended_rounds
from tournaments.engine.standings import MatchRecord, StandingPlayer, compute_standings

NETWORKX_BUDGET_SECONDS = 60.0
# The complete "not yet played" graph has ~n^2/2 edges: 16,384 players would need many GB in networkx.
NETWORKX_MAX_PLAYERS = 2048
DROP_RATE = 0.01

PairList = list[tuple[int, int]]
Engine = Callable[[list[PairingPlayer], int, int], tuple[PairList, int | None]]


@dataclass
class EngineStats:
    times: list[float] = field(default_factory=list)
    peak_bytes: int = 0
    rematches: int = 0
    pair_downs: int = 0
    byes: int = 0
    note: str = ""


# --- engines --------------------------------------------------------------------------------------------


def ours(players: list[PairingPlayer], round_number: int, seed: int) -> tuple[PairList, int | None]:
    result = pair_round(players, round_number, seed)
    return [(p.player_a, p.player_b) for p in result.pairs], result.bye


def peer_swisspair(players: list[PairingPlayer], round_number: int, seed: int) -> tuple[PairList, int | None]:
    import swisspair

    # swisspair wants ranks 1..n with non-increasing points and symmetric, existing opponent ids.
    order = sorted(players, key=lambda p: (-p.points, random.Random(seed + round_number + p.id).random()))
    present = {p.id for p in players}
    converted = [
        swisspair.Player(
            id=str(p.id),
            points=p.points,
            rank=rank,
            can_get_bye=not p.had_bye,
            cannot_be_paired_against_ids={str(o) for o in p.opponents if o in present},
        )
        for rank, p in enumerate(order, start=1)
    ]
    pairs: PairList = []
    bye = None
    for match in swisspair.create_matches(converted):
        if match.p2 is None:
            bye = int(match.p1.id)
        else:
            pairs.append((int(match.p1.id), int(match.p2.id)))
    return pairs, bye


def peer_networkx(players: list[PairingPlayer], round_number: int, seed: int) -> tuple[PairList, int | None]:
    import networkx as nx

    group = _group_index(players)
    bottom = max(group.values(), default=0)
    graph = nx.Graph()
    big = 4 * (bottom + 1) * len(players)
    for i, a in enumerate(players):
        for b in players[i + 1 :]:
            if b.id not in a.opponents:
                graph.add_edge(a.id, b.id, weight=big - abs(group[a.id] - group[b.id]))
    if len(players) % 2:
        for p in players:
            if not p.had_bye:
                graph.add_edge(p.id, -1, weight=big - (bottom - group[p.id]))
    pairs: PairList = []
    bye = None
    for a, b in nx.max_weight_matching(graph, maxcardinality=True):
        if -1 in (a, b):
            bye = a if b == -1 else b
        else:
            pairs.append((a, b))
    return pairs, bye


def _networkx_worker(players: list[PairingPlayer], round_number: int, seed: int, queue) -> None:
    start = time.perf_counter()
    pairs, bye = peer_networkx(players, round_number, seed)
    queue.put((time.perf_counter() - start, pairs, bye))


def run_networkx_with_budget(
    players: list[PairingPlayer], round_number: int, seed: int, budget: float
) -> tuple[float, PairList, int | None] | None:
    queue: multiprocessing.Queue = multiprocessing.Queue()
    process = multiprocessing.Process(target=_networkx_worker, args=(players, round_number, seed, queue))
    process.start()
    try:
        return queue.get(timeout=max(budget, 0.1))
    except Exception:
        return None
    finally:
        if process.is_alive():
            process.terminate()
        process.join()


# --- simulation -----------------------------------------------------------------------------------------


@dataclass
class SimPlayer:
    points: int = 0
    opponents: set[int] = field(default_factory=set)
    had_bye: bool = False
    pair_downs: int = 0


def _group_index(players: list[PairingPlayer]) -> dict[int, int]:
    levels = {points: i for i, points in enumerate(sorted({p.points for p in players}, reverse=True))}
    return {p.id: levels[p.points] for p in players}


def score(stats: EngineStats, players: list[PairingPlayer], pairs: PairList, bye: int | None) -> None:
    by_id = {p.id: p for p in players}
    group = _group_index(players)
    stats.rematches += sum(1 for a, b in pairs if b in by_id[a].opponents)
    stats.pair_downs += sum(abs(group[a] - group[b]) for a, b in pairs)
    stats.byes += bye is not None


def best_of_three(rng: random.Random) -> tuple[int, int]:
    return rng.choice([(2, 0), (2, 1), (0, 2), (1, 2), (1, 1)])


def snapshot(state: dict[int, SimPlayer]) -> list[PairingPlayer]:
    return [
        PairingPlayer(pid, s.points, frozenset(s.opponents), s.had_bye, s.pair_downs)
        for pid, s in state.items()
    ]


def apply_round(
    state: dict[int, SimPlayer],
    pairs: PairList,
    bye: int | None,
    paired_down: tuple[int, ...],
    rng: random.Random,
) -> None:
    for a, b in pairs:
        state[a].opponents.add(b)
        state[b].opponents.add(a)
        wins_a, wins_b = best_of_three(rng)
        if wins_a > wins_b:
            state[a].points += 3
        elif wins_b > wins_a:
            state[b].points += 3
        else:
            state[a].points += 1
            state[b].points += 1
    if bye is not None:
        state[bye].had_bye = True
        state[bye].points += 3
    for pid in paired_down:
        state[pid].pair_downs += 1
    for pid in [pid for pid in state if rng.random() < DROP_RATE]:
        del state[pid]


def peak_memory(engine: Engine, players: list[PairingPlayer], round_number: int, seed: int) -> int:
    tracemalloc.start()
    engine(players, round_number, seed)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


def bench_size(size: int, rounds: int, seed: int, run_networkx: bool) -> dict[str, EngineStats]:
    rng = random.Random(seed)
    state = {pid: SimPlayer() for pid in range(1, size + 1)}
    stats = {"deckhall": EngineStats(), "swisspair": EngineStats(), "networkx": EngineStats()}
    networkx_spent = 0.0
    if not run_networkx:
        stats["networkx"].note = "skipped (over the one-minute budget at a smaller size, or graph too large)"
    for round_number in range(1, rounds + 1):
        players = snapshot(state)
        start = time.perf_counter()
        result = pair_round(players, round_number, seed)
        stats["deckhall"].times.append(time.perf_counter() - start)
        pairs = [(p.player_a, p.player_b) for p in result.pairs]
        score(stats["deckhall"], players, pairs, result.bye)

        start = time.perf_counter()
        sp_pairs, sp_bye = peer_swisspair(players, round_number, seed)
        stats["swisspair"].times.append(time.perf_counter() - start)
        score(stats["swisspair"], players, sp_pairs, sp_bye)

        if run_networkx:
            outcome = run_networkx_with_budget(
                players, round_number, seed, NETWORKX_BUDGET_SECONDS - networkx_spent
            )
            if outcome is None:
                run_networkx = False
                stats["networkx"].note = f"stopped: over {NETWORKX_BUDGET_SECONDS:.0f} s for the event"
            else:
                elapsed, nx_pairs, nx_bye = outcome
                networkx_spent += elapsed
                stats["networkx"].times.append(elapsed)
                score(stats["networkx"], players, nx_pairs, nx_bye)

        if round_number == (rounds + 1) // 2:
            stats["deckhall"].peak_bytes = peak_memory(ours, players, round_number, seed)
            stats["swisspair"].peak_bytes = peak_memory(peer_swisspair, players, round_number, seed)
        apply_round(state, pairs, result.bye, result.stats.paired_down, rng)
    return stats


def bench_standings(size: int, rounds: int, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    state = {pid: SimPlayer() for pid in range(1, size + 1)}
    records: list[MatchRecord] = []
    for round_number in range(1, rounds + 1):
        result = pair_round(snapshot(state), round_number, seed)
        for pair in result.pairs:
            wins = best_of_three(rng)
            records.append(MatchRecord(round_number, (pair.player_a, pair.player_b), wins))
        if result.bye is not None:
            records.append(MatchRecord(round_number, (result.bye,), is_bye=True))
        pairs = [(p.player_a, p.player_b) for p in result.pairs]
        apply_round(state, pairs, result.bye, result.stats.paired_down, random.Random(round_number))
    # Results in `state` were drawn by apply_round with another stream; only the records matter here.
    players = [StandingPlayer(pid, dropped=pid not in state) for pid in range(1, size + 1)]
    timings = {}
    for policy in ("mtg", "yugioh", "pokemon"):
        start = time.perf_counter()
        compute_standings(players, records, policy)
        timings[policy] = time.perf_counter() - start
    return timings


# --- report ---------------------------------------------------------------------------------------------


def format_row(size: int, rounds: int, name: str, stats: EngineStats) -> str:
    if not stats.times:
        return f"| {size:>6} | {rounds:>2} | {name:<9} | {stats.note} |"
    median = statistics.median(stats.times) * 1000
    worst = max(stats.times) * 1000
    memory = f"{stats.peak_bytes / 2**20:.2f} MiB" if stats.peak_bytes else "n/a (child process)"
    note = f" ({stats.note})" if stats.note else ""
    return (
        f"| {size:>6} | {rounds:>2} | {name:<9} | {median:>9.1f} | {worst:>9.1f} | {memory:>10} "
        f"| {stats.rematches:>9} | {stats.pair_downs:>10} | {stats.byes:>4} |{note}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", default="64,256,1024,4096,16384")
    parser.add_argument("--rounds", type=int, default=None, help="default: MTR rounds for the size")
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--standings-size", type=int, default=16384)
    parser.add_argument("--standings-rounds", type=int, default=14)
    args = parser.parse_args()

    print(
        "| players | rounds | engine | median ms/round | max ms/round | peak mem (tracemalloc) "
        "| rematches | pair-downs | byes |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    run_networkx = True
    for size in (int(s) for s in args.sizes.split(",")):
        rounds = args.rounds or recommended_rounds(size, 8) or 3
        results = bench_size(size, rounds, args.seed, run_networkx and size <= NETWORKX_MAX_PLAYERS)
        for name, stats in results.items():
            print(format_row(size, rounds, name, stats), flush=True)
        run_networkx = run_networkx and not results["networkx"].note
    print("\nswisspair's memory is mostly C++ allocations that tracemalloc does not see.")
    timings = bench_standings(args.standings_size, args.standings_rounds, args.seed)
    print(f"\nStandings, {args.standings_size} players x {args.standings_rounds} rounds:")
    for policy, seconds in timings.items():
        print(f"  {policy:<8} {seconds * 1000:.0f} ms")


if __name__ == "__main__":
    main()
