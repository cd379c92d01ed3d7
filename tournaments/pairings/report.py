"""The pairing report of a Swiss round: what any player can check about how it was paired.

- ``round_report(round_) -> dict`` — rematches (pairs who had met before), byes and why, the round's
  pair-downs against the lower bound (``engine.pairing.bound``), the stored seed, manual changes.
- ``round_rerun(round_) -> Rerun`` — the engine run again on the inputs it had and the stored seed, compared
  pair by pair with what the round holds (``manage.py pairing_verify``).
- ``opponent_reasons(round_) -> {player: (code, params)}`` — "why this opponent" for My event.

Everything is rebuilt from the history as it stood before the round (``phases.before_round``) with the same
builder the pairing service uses (``inputs``), so a correction to an earlier result after the round
was paired shows up as a difference in the rerun rather than as a silently different explanation.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..engine.pairing import PairingImpossible, PairingPlayer, pair_down_lower_bound, pair_downs_of
from ..engine.pairing.grouped import pair_in_groups
from ..models import PairingChange, Round, Tournament
from ..reads import phases, records
from .inputs import pairing_groups

# Reasons a player received the bye (codes; the words are at the edge, tournaments/report_words.py).
BYE_LOWEST = "lowest_without_bye"
BYE_LOWER_HAD_BYES = "lower_players_had_byes"
BYE_AVOIDS_REMATCH = "lower_bye_forces_rematch"


def round_manual_changes(round_: Round) -> list[dict[str, Any]]:
    """Manual changes to the round's pairings (``PairingChange``, written by ``services.mending``), oldest first:
    ``{"kind", "action", "by", "at", "detail"}`` — the kind's code and its words, the organizer's username,
    when, and the players and tables it touched. A round changed by hand no longer matches its seed's rerun:
    these rows say why."""
    rows = PairingChange.objects.filter(round=round_).select_related("actor").order_by("created_at", "id")
    return [
        {
            "kind": change.kind,
            "action": str(change.get_kind_display()),
            "by": change.actor.username if change.actor else None,
            "at": change.created_at.isoformat(),
            "detail": change.detail,
        }
        for change in rows
    ]


@dataclass(slots=True)
class Seated:
    table: int
    bye: bool
    players: list[int]


@dataclass(slots=True)
class RoundFacts:
    """The round as stored, and the inputs its pairing had."""

    round_: Round
    history: records.History
    seated: list[Seated]
    points: dict[int, int]
    inputs: Any
    names: dict[int, str] = field(default_factory=dict)


def _facts(round_: Round, tournament: Tournament | None = None) -> RoundFacts:
    from .inputs import round_inputs

    tournament = tournament or round_.tournament
    history = records.load_history(tournament)
    seated = [
        Seated(m.table, m.bye, [s.player_id for s in m.seats])
        for m in history.matches
        if m.round_number == round_.number
    ]
    before = phases.before_round(history, round_.number)
    inputs = round_inputs(tournament, before, round_.number)
    names = {pid: p.name for pid, p in history.players.items()}
    return RoundFacts(round_, before, seated, inputs.points, inputs, names)


def _bye_reason(facts: RoundFacts, bye: int) -> tuple[str, dict[str, int]]:
    """Why ``bye`` got it: the engine gives it to the lowest score group with a player who has had none,
    and moves up a group only when every choice there would force a rematch among the rest."""
    own = facts.points.get(bye, 0)
    had = records.byes_by_player(facts.history)
    below = [pid for pid, pts in facts.points.items() if pts < own]
    if not below:
        return BYE_LOWEST, {"points": own}
    if all(pid in had for pid in below):
        return BYE_LOWER_HAD_BYES, {"points": own}
    return BYE_AVOIDS_REMATCH, {"points": own}


def round_report(round_: Round) -> dict[str, Any]:
    """The public checker report of a Swiss round (two-player); see the module docstring."""
    facts = _facts(round_)
    met = records.opponents_by_player(facts.history)
    pairs = [(s.players[0], s.players[1]) for s in facts.seated if not s.bye and len(s.players) == 2]
    rematches = [
        {"table": s.table, "players": [_person(facts, pid) for pid in s.players]}
        for s in facts.seated
        if not s.bye and len(s.players) == 2 and s.players[1] in met.get(s.players[0], ())
    ]
    byes = []
    bye_id = None
    for s in facts.seated:
        if s.bye:
            bye_id = s.players[0]
            code, params = _bye_reason(facts, bye_id)
            byes.append({**_person(facts, bye_id), "points": params["points"], "reason": code})
    # Points of everyone the engine grouped; a player seated by hand outside its inputs counts at 0.
    points = dict(facts.points)
    for s in facts.seated:
        for pid in s.players:
            points.setdefault(pid, 0)
    return {
        "round": round_.number,
        "rematches": rematches,
        "byes": byes,
        "pair_downs": pair_downs_of(points, pairs),
        "pair_downs_lower_bound": pair_down_lower_bound(points, bye_id),
        "seed": round_.seed,
        "manual_changes": round_manual_changes(round_),
        "paired_down": [
            {
                **_person(facts, high),
                "from_points": points[high],
                "opponent": _person(facts, low),
                "to_points": points[low],
                "table": table,
            }
            for table, high, low in _crossing_pairs(facts, points)
        ],
    }


def _crossing_pairs(facts: RoundFacts, points: dict[int, int]) -> list[tuple[int, int, int]]:
    out = []
    for s in facts.seated:
        if s.bye or len(s.players) != 2:
            continue
        a, b = s.players
        if points[a] != points[b]:
            high, low = (a, b) if points[a] > points[b] else (b, a)
            out.append((s.table, high, low))
    return out


def _person(facts: RoundFacts, pid: int) -> dict[str, Any]:
    return {"player": pid, "name": facts.names.get(pid, "")}


@dataclass(slots=True)
class Rerun:
    identical: bool
    stored: list[tuple[int, bool, tuple[int, ...]]]
    rerun: list[tuple[int, bool, tuple[int, ...]]]
    error: str = ""

    @property
    def differences(self) -> list[str]:
        stored, rerun = set(self.stored), set(self.rerun)
        return [f"stored only: {row}" for row in sorted(stored - rerun)] + [
            f"rerun only: {row}" for row in sorted(rerun - stored)
        ]


def round_rerun(round_: Round) -> Rerun:
    """Pair the round again from its inputs and stored seed and compare table by table, seat by seat."""
    facts = _facts(round_)
    stored = sorted((s.table, s.bye, tuple(s.players)) for s in facts.seated)
    players = facts.inputs.players
    groups = pairing_groups(round_.tournament, round_.number, [p.id for p in players])
    return rerun_against(stored, players, round_, groups)


def rerun_against(
    stored: list[Any], players: list[PairingPlayer], round_: Round, groups: list[set[int]] | None = None
) -> Rerun:
    """Pair ``players`` with the round's number and seed (in ``groups`` paired apart, when given) and compare
    with ``stored`` (table, bye, ids) — players' and teams' rounds alike."""
    try:
        result = pair_in_groups(players, round_.number, round_.seed, groups)
    except PairingImpossible as error:
        return Rerun(False, stored, [], error=str(error))
    rerun = [(table, False, (a, b)) for table, a, b in result.tables]
    rerun.extend((table, True, (bye,)) for table, bye in result.byes)
    rerun.sort()
    return Rerun(stored == rerun, stored, rerun)


def opponent_reasons(
    round_: Round, tournament: Tournament | None = None
) -> dict[int, tuple[str, dict[str, Any]]]:
    """Why each seated player met their opponent (or got the bye) in ``round_``: a code and its parameters.

    ``same_points``, ``paired_down`` (from N points to M), ``paired_up`` (the opponent came down from N),
    or one of the bye reasons. Cached per pairing: after a round is posted every phone asks at once, and the
    answer is the same for all of them until the round is paired again.
    """
    from django.core.cache import cache

    tournament = tournament or round_.tournament
    # created_at too: a database restored from a venue snapshot (or a test database) reuses row ids.
    stamp = round_.created_at.timestamp() if round_.created_at else 0
    key = f"pairing-why:{round_.pk}:{stamp}:{round_.seed}:{tournament.pairings_version}"
    cached = cache.get(key)
    if cached is not None:
        return cached
    facts = _facts(round_, tournament)
    reasons: dict[int, tuple[str, dict[str, Any]]] = {}
    for s in facts.seated:
        if s.bye:
            reasons[s.players[0]] = _bye_reason(facts, s.players[0])
            continue
        if len(s.players) != 2:
            continue
        for me, other in (s.players, s.players[::-1]):
            reasons[me] = opponent_reason(facts.points.get(me, 0), facts.points.get(other, 0))
    cache.set(key, reasons, 6 * 3600)
    return reasons


def opponent_reason(mine: int, theirs: int) -> tuple[str, dict[str, int]]:
    """Why these two met, seen from the side with ``mine`` points (players or teams alike): the same
    points, paired down to fewer, or paired up to more."""
    if mine == theirs:
        return "same_points", {"points": mine}
    if mine > theirs:
        return "paired_down", {"from": mine, "to": theirs}
    return "paired_up", {"from": theirs, "to": mine}


def pairing_points_of(round_: Round, tournament: Tournament, player_ids: list[int]) -> dict[int, int]:
    """The pairing points a few players had when ``round_`` was paired, from their own matches only.

    My event asks this for the player and their opponent: one small query instead of the whole event's
    standings, so two thousand phones opening the new round cost two thousand small reads. The points are
    the standings' (3 a win or bye, 1 a draw, results entered in earlier Swiss rounds; from the phase's first
    round when the phase resets them); ``tests/tournaments/test_it_explains_pairings.py`` holds the two to
    the same answers.
    """
    from ..models import MatchSeat

    phase = phases.phase_of_round(tournament, round_.number)
    first = phase.first_round if phase is not None and not phase.carry_points else 1
    rows = (
        MatchSeat.objects.filter(
            match__seats__player_id__in=player_ids,
            match__round__tournament_id=tournament.pk,
            match__round__kind=Round.Kind.SWISS,
            match__round__number__gte=first,
            match__round__number__lt=round_.number,
            match__status__in=records.RESULT_STATUSES,
        )
        .distinct()
        .values_list("match_id", "player_id", "wins", "match__bye")
    )
    by_match: dict[int, list[tuple[int, int, bool]]] = {}
    for mid, pid, wins, bye in rows:
        by_match.setdefault(mid, []).append((pid, wins, bye))
    points = dict.fromkeys(player_ids, 0)
    for seats in by_match.values():
        if len(seats) == 1 and seats[0][2]:
            if seats[0][0] in points:
                points[seats[0][0]] += 3
            continue
        if len(seats) != 2:
            continue
        (a, wa, _), (b, wb, _) = seats
        for me, mine, theirs in ((a, wa, wb), (b, wb, wa)):
            if me in points:
                points[me] += 3 if mine > theirs else 1 if mine == theirs else 0
    return points
