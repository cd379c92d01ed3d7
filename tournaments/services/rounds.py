"""Rounds: pairing the next Swiss round (two-player or pods), pairing a round again, the round clock.

- ``round_pair_next(tournament=, by=) -> Round`` — organizers; round 1 starts the event (see start.py).
- ``round_repair(round_=, by=, seed=None) -> Round`` — the latest round again, while none of its matches has a
  result or a saved game.
- ``round_timer_start(round_=, by=, minutes=None) -> Round`` — minutes 1–600 (an int or digits), else the
  event's round time.
"""

from __future__ import annotations

import gc
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.api import StateConflict

from .. import signals
from ..models import Match, MatchSeat, Round, Tournament
from ..pairings.refusals import reason
from ..permissions import require_organizer
from ..reads import records
from .common import announce, game_rules, pod_size_range
from .mending import tables_honour_fixed
from .start import start_event


@transaction.atomic
def round_pair_next(*, tournament: Tournament, by: Any) -> Round:
    """Pair the next Swiss round (round 1 random from the stored seed; then by match points)."""
    require_organizer(tournament, by)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status in (Tournament.Status.TOP_CUT, Tournament.Status.FINISHED):
        raise StateConflict(_("The Swiss rounds are over."))
    latest = tournament.round_set.filter(kind=Round.Kind.SWISS).order_by("-number").first()
    if latest is not None and not records.round_complete(latest):
        raise StateConflict(
            _("Round %(n)s still has matches without a confirmed result.") % {"n": latest.number}
        )
    number = (latest.number if latest else 0) + 1
    if number == 1 and tournament.status == Tournament.Status.REGISTRATION:
        start_event(tournament, by)
    if tournament.rounds is not None and number > tournament.rounds:
        raise StateConflict(
            _("All %(n)s Swiss rounds have been played; start the top cut or finish the event.")
            % {"n": tournament.rounds}
        )
    round_ = Round.objects.create(
        tournament=tournament, number=number, kind=Round.Kind.SWISS, seed=tournament.seed, paired_by=by,
        draft=tournament.draft_pairings,
    )  # fmt: skip
    with collector_paused():
        _pair_into(round_, tournament)
    _honour_fixed_tables(round_, tournament)
    if not round_.draft:  # a draft is announced to the venue when it is published (mending.round_publish)
        signals.send_on_commit(signals.round_paired, tournament_id=tournament.pk, round_number=number)
    announce(tournament.pk, "round")
    return round_


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while a round is paired. Reading the history and building the
    engine's inputs allocate a few hundred thousand small objects at 16,384 players (none of them in a
    cycle), and each allocation burst made the collector walk the whole heap again: a third of the pairing's
    time. Reference counting still frees everything as usual; cycles wait until the collector resumes."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _honour_fixed_tables(round_: Round, tournament: Tournament) -> None:
    # tables_honour_fixed reads every match of the round as a model instance (8,192 at 16,384 players) to
    # move the few that hold a player with a fixed table; most events have none, and one small query says so.
    if tournament.players.filter(fixed_table__isnull=False).exists():
        tables_honour_fixed(round_)


def _pair_into(round_: Round, tournament: Tournament) -> None:
    history = records.load_history(tournament)
    active = history.active_for_round(round_.number)
    if tournament.match_format == Tournament.MatchFormat.PODS:
        _pair_pods(round_, tournament, history, active)
        return
    if tournament.team_size > 1:
        from .teams import team_round_matches

        _insert_matches(round_, team_round_matches(round_=round_, tournament=tournament, history=history))
        return
    from ..engine.pairing import PairingImpossible
    from ..engine.pairing.grouped import pair_in_groups
    from ..pairings.inputs import pairing_groups, round_inputs
    from .phases import phase_seat_entrants

    # A phase's first round fixes who made its cut; the inputs are built where the pairing report builds
    # them again (tournaments/pairings/inputs.py), so a round can be explained and reproduced.
    phase_seat_entrants(tournament=tournament, number=round_.number, history=history)
    engine_players = round_inputs(tournament, history, round_.number).players
    groups = pairing_groups(tournament, round_.number, [p.id for p in engine_players])
    try:
        result = pair_in_groups(engine_players, round_.number, round_.seed, groups)
    except PairingImpossible as error:
        raise StateConflict(_("No valid pairing exists: %(why)s") % {"why": reason(error)}) from None
    down = result.paired_down
    matches: list[tuple[int, bool, str, list[tuple[int, int, int, bool]]]] = [
        (table, False, Match.Status.PENDING, [(a, 0, 0, a in down), (b, 1, 0, b in down)])
        for table, a, b in result.tables
    ]
    # Byes count as a 2-0 win and need no confirmation.
    matches.extend((table, True, Match.Status.FINAL, [(bye, 0, 2, False)]) for table, bye in result.byes)
    _insert_matches(round_, matches)


def _insert_matches(
    round_: Round, matches: list[tuple[int, bool, str, list[tuple[int, int, int, bool]]]]
) -> None:
    """Insert a round's matches and seats with two ``executemany`` calls.

    ``bulk_create`` builds a model instance and SQL per row in Python and SQLite caps it at 999 parameters
    per statement; for a 4,096-player round that was most of the request. Rows are
    ``(table, bye, status, [(player_id, seat, wins, paired_down)])``.
    """
    from django.db import connection

    m, s = Match._meta, MatchSeat._meta
    q = connection.ops.quote_name
    col = lambda model, name: q(model.get_field(name).column)  # noqa: E731
    match_sql = (
        f"INSERT INTO {q(m.db_table)} ({col(m, 'round')}, {col(m, 'table')}, {col(m, 'bye')}, "
        f"{col(m, 'status')}, {col(m, 'draws')}) "
    )
    seat_sql = (
        f"INSERT INTO {q(s.db_table)} ({col(s, 'match')}, {col(s, 'player')}, {col(s, 'seat')}, "
        f"{col(s, 'wins')}, {col(s, 'paired_down')}) "
    )
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # One statement per table: arrays unnested server-side beat thousands of pipelined INSERTs.
            # Identifiers come from model metadata (quoted); every value is a query parameter.
            unnest = "SELECT %s, t, b, st, 0 FROM unnest(%s::int[], %s::bool[], %s::text[]) AS x(t, b, st)"
            cursor.execute(
                match_sql + unnest,
                [round_.pk, [x[0] for x in matches], [x[1] for x in matches], [str(x[2]) for x in matches]],
            )
        else:
            cursor.executemany(
                match_sql + "VALUES (%s, %s, %s, %s, 0)",
                [(round_.pk, table, bye, str(status)) for table, bye, status, _seats in matches],
            )
        cursor.execute(
            f"SELECT {col(m, 'table')}, {q(m.pk.column)} FROM {q(m.db_table)} WHERE {col(m, 'round')} = %s",  # noqa: S608
            [round_.pk],
        )
        ids = dict(cursor.fetchall())
        rows = [(ids[table], pid, seat, wins, down) for table, _bye, _status, seats in matches
                for pid, seat, wins, down in seats]  # fmt: skip
        if connection.vendor == "postgresql":
            unnest = "SELECT * FROM unnest(%s::bigint[], %s::bigint[], %s::int[], %s::int[], %s::bool[])"
            cursor.execute(
                seat_sql + unnest,
                [list(column) for column in zip(*rows, strict=True)] if rows else [[], [], [], [], []],
            )
        else:
            cursor.executemany(seat_sql + "VALUES (%s, %s, %s, %s, %s)", rows)


def _pair_pods(round_: Round, tournament: Tournament, history: records.History, active: list[Any]) -> None:
    from ..engine import pod_rounds
    from ..engine import pods as pods_engine

    rules = game_rules(tournament.game)
    low, high = pod_size_range(rules)
    points = {row.player_id: row.points for row in records.compute_rows(history, tournament.tiebreakers)}
    active_points = {p.id: points.get(p.id, 0) for p in active}
    seed = round_.seed * 1_000_003 + round_.number
    try:
        # A count that does not split into the allowed sizes gets one short pod at the bottom (games
        # playable by two) or a pod bye: see tournaments/pod_rounds.py for the decision and why.
        plan = pod_rounds.plan_pod_round(
            active_points,
            min_size=low,
            max_size=high,
            two_player_games=rules.min_players <= 2,
            had_bye=records.byes_by_player(history),
            seed=seed,
        )
        seated = [pods_engine.PodPlayer(id=pid, points=pts) for pid, pts in active_points.items()
                  if pid not in plan.byes]  # fmt: skip
        assignment = pods_engine.assign_pods(
            seated,
            min_size=plan.min_size,
            max_size=high,
            seed=seed,
            previous_tablemates=records.opponents_by_player(history),
        ) if seated else None  # fmt: skip
    except ValueError as error:
        raise StateConflict(_("No valid pod assignment exists: %(why)s") % {"why": reason(error)}) from None
    matches: list[tuple[int, bool, str, list[tuple[int, int, int, bool]]]] = [
        (pod.table, False, Match.Status.PENDING, [(pid, seat, 0, False) for seat, pid in enumerate(pod.player_ids)])
        for pod in (assignment.pods if assignment is not None else ())
    ]  # fmt: skip
    for pid in plan.byes:
        # A pod bye is final at once and scored like a Swiss bye (a win worth a full pod's first place).
        matches.append((len(matches) + 1, True, Match.Status.FINAL, [(pid, 0, 2, False)]))
    _insert_matches(round_, matches)


@transaction.atomic
def round_repair(*, round_: Round, by: Any, seed: int | None = None) -> Round:
    """Pair a round again (e.g. after a late drop). Allowed only while none of its matches has a result."""
    tournament = round_.tournament
    require_organizer(tournament, by)
    if round_.kind != Round.Kind.SWISS:
        raise StateConflict(_("Only Swiss rounds can be re-paired."))
    if tournament.round_set.filter(number__gt=round_.number).exists():
        raise StateConflict(_("Only the latest round can be re-paired."))
    if (
        round_.matches.filter(bye=False).exclude(status=Match.Status.PENDING).exists()
        or round_.matches.filter(games__isnull=False).exists()
    ):
        raise StateConflict(
            _("Round %(n)s already has results; correct them instead.") % {"n": round_.number}
        )
    round_.matches.all().delete()
    # A new stored seed: re-pairing with the same inputs and seed would reproduce the same pairing.
    round_.seed = seed if seed is not None else secrets.randbelow(2**53)
    round_.paired_by = by
    round_.started_at = None
    round_.timer_ends_at = None
    round_.timer_paused_left = None
    round_.save(update_fields=["seed", "paired_by", "started_at", "timer_ends_at", "timer_paused_left"])
    with collector_paused():
        _pair_into(round_, tournament)
    _honour_fixed_tables(round_, tournament)
    if not round_.draft:
        signals.send_on_commit(signals.round_paired, tournament_id=tournament.pk, round_number=round_.number)
    announce(tournament.pk, "round")
    return round_


@transaction.atomic
def round_timer_start(*, round_: Round, by: Any, minutes: Any = None) -> Round:
    """Start (or restart) the round clock; ``minutes`` defaults to the event's round time."""
    require_organizer(round_.tournament, by)
    if minutes in (None, ""):
        minutes = round_.tournament.round_minutes
    if isinstance(minutes, str) and minutes.strip().isdecimal():
        minutes = int(minutes.strip())
    if isinstance(minutes, bool) or not isinstance(minutes, int) or not 1 <= minutes <= 600:
        raise ValidationError({"minutes": _("Round time must be between 1 and 600 minutes.")})
    now = timezone.now()
    round_.started_at = now
    round_.timer_ends_at = now + timedelta(minutes=minutes)
    round_.timer_paused_left = None
    round_.save(update_fields=["started_at", "timer_ends_at", "timer_paused_left"])
    announce(round_.tournament_id, "timer")
    return round_
