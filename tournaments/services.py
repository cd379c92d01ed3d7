"""Writes for tournaments: setup, registration, rounds, results, sideboarding, top cut.

Every function is keyword-only, typed and atomic; it checks permissions itself (views and the API only
parse input and call these), raises ``ValidationError`` naming what is wrong, and writes nothing on error.
Result changes always leave a ``ResultChange`` audit row.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cards.models import Game

from . import decklists, records, signals
from .models import Game as MatchGame
from .models import Match, MatchSeat, Player, ResultChange, Round, SideboardChange, Tournament
from .permissions import can_organize_any, is_organizer, require_organizer

MAX_SEED = 2**62
TOP_CUT_SIZES = (0, 2, 4, 8, 16, 32, 64)


# --- game rules ---------------------------------------------------------------------------------------


def game_rules(game: Game | str) -> Any:
    from rules.engine.registry import default_registry

    slug = game if isinstance(game, str) else game.slug
    return default_registry().game(slug)


def _pod_size_range(rules: Any) -> tuple[int, int]:
    sizes = tuple(rules.pod_sizes) or (rules.min_players, rules.max_players)
    return min(sizes), max(sizes)


def sideboarding_allowed(tournament: Tournament) -> bool:
    if tournament.match_format == Tournament.MatchFormat.PODS or not tournament.deck_registration:
        return False
    return bool(game_rules(tournament.game).sideboard or tournament.allow_sideboard)


def wins_needed(tournament: Tournament, round_: Round | None = None) -> int:
    # Top cut matches are always best of three.
    if round_ is not None and round_.kind == Round.Kind.TOP_CUT:
        return 2
    return 1 if tournament.match_format == Tournament.MatchFormat.BO1 else 2


# --- setup ----------------------------------------------------------------------------------------------


@transaction.atomic
def tournament_create(
    *,
    created_by: Any,
    name: str,
    game: Game,
    format_slug: str,
    match_format: str | None = None,
    tiebreakers: str | None = None,
    rounds: int | None = None,
    top_cut: int = 0,
    seed: int | None = None,
    banlist: Any = None,
    on_date: Any = None,
    deck_registration: bool = False,
    registration_deadline: datetime | None = None,
    allow_sideboard: bool = False,
    late_entry_losses: bool = True,
    publish_decklists: bool = False,
    round_minutes: int = 50,
    co_organizers: Sequence[Any] = (),
) -> Tournament:
    if not can_organize_any(created_by):
        raise PermissionDenied(_("Only organizers may create tournaments."))
    rules = game_rules(game)
    errors: dict[str, str] = {}
    name = (name or "").strip()
    if not name:
        errors["name"] = _("The event needs a name.")
    if format_slug not in rules.formats:
        errors["format"] = _("%(game)s has no format %(format)s; its formats: %(known)s.") % {
            "game": game.name,
            "format": format_slug,
            "known": ", ".join(rules.formats),
        }
    match_format = match_format or (
        Tournament.MatchFormat.PODS if rules.match_format == "pods" else Tournament.MatchFormat.BO3
    )
    if match_format not in Tournament.MatchFormat.values:
        errors["match_format"] = _("Match format must be bo3, bo1 or pods.")
    elif match_format == Tournament.MatchFormat.PODS and rules.max_players < 3 and not rules.pod_sizes:
        errors["match_format"] = _("%(game)s is a two-player game: it cannot be played in pods.") % {
            "game": game.name
        }
    elif match_format != Tournament.MatchFormat.PODS and rules.min_players > 2:
        errors["match_format"] = _("%(game)s needs pods.") % {"game": game.name}
    tiebreakers = tiebreakers or (
        Tournament.Tiebreakers.PODS if match_format == Tournament.MatchFormat.PODS else rules.tiebreakers
    )
    if tiebreakers not in Tournament.Tiebreakers.values:
        errors["tiebreakers"] = _("Tiebreakers must be one of: %(known)s.") % {
            "known": ", ".join(Tournament.Tiebreakers.values)
        }
    elif (tiebreakers == Tournament.Tiebreakers.PODS) != (match_format == Tournament.MatchFormat.PODS):
        errors["tiebreakers"] = _(
            "The pods tiebreak policy goes with the pods match format, and only with it."
        )
    if rounds is not None and not 1 <= rounds <= 30:
        errors["rounds"] = _("Swiss rounds must be between 1 and 30.")
    if top_cut not in TOP_CUT_SIZES:
        errors["top_cut"] = _("Top cut must be one of %(sizes)s.") % {
            "sizes": ", ".join(map(str, TOP_CUT_SIZES))
        }
    elif top_cut and match_format == Tournament.MatchFormat.PODS:
        errors["top_cut"] = _("Pod events have no single-elimination top cut.")
    if seed is not None and not 0 <= seed < MAX_SEED:
        errors["seed"] = _("The seed must be a non-negative integer below 2^62.")
    if not 1 <= round_minutes <= 600:
        errors["round_minutes"] = _("Round time must be between 1 and 600 minutes.")
    if banlist is not None and getattr(banlist, "game_id", game.pk) != game.pk:
        errors["banlist"] = _("That ban list belongs to another game.")
    if errors:
        raise ValidationError(errors)
    tournament = Tournament.objects.create(
        name=name,
        game=game,
        format_slug=format_slug,
        match_format=match_format,
        tiebreakers=tiebreakers,
        rounds=rounds,
        top_cut=top_cut,
        seed=seed if seed is not None else secrets.randbelow(2**53),
        banlist=banlist,
        on_date=on_date,
        deck_registration=deck_registration and rules.has_decks,
        registration_deadline=registration_deadline,
        allow_sideboard=allow_sideboard,
        late_entry_losses=late_entry_losses,
        publish_decklists=publish_decklists,
        round_minutes=round_minutes,
        created_by=created_by,
    )
    if co_organizers:
        tournament.co_organizers.set([u for u in co_organizers if u.pk != created_by.pk])
    return tournament


EDITABLE_ALWAYS = ("name", "publish_decklists", "round_minutes", "late_entry_losses", "allow_sideboard")
EDITABLE_BEFORE_ROUND_1 = (
    "rounds", "top_cut", "deck_registration", "registration_deadline", "banlist", "on_date",
)  # fmt: skip


@transaction.atomic
def tournament_update(*, tournament: Tournament, by: Any, **fields: Any) -> Tournament:
    """Change settings. Rounds, cut, ban list and registration settings are editable until round 1 is paired."""
    require_organizer(tournament, by)
    started = tournament.round_set.exists()
    errors: dict[str, str] = {}
    for key in fields:
        if key in EDITABLE_BEFORE_ROUND_1 and started:
            errors[key] = _("This setting cannot change once round 1 is paired.")
        elif (
            key == "registration_deadline"
            and fields[key] != tournament.registration_deadline
            and freeze_if_deadline_passed(tournament)
        ):
            errors[key] = _("Registration is closed and the deck lists are frozen; the deadline cannot move.")
        elif key not in EDITABLE_ALWAYS + EDITABLE_BEFORE_ROUND_1 + ("co_organizers",):
            errors[key] = _("This setting cannot be changed.")
    if fields.get("rounds") is not None and not 1 <= fields["rounds"] <= 30:
        errors.setdefault("rounds", _("Swiss rounds must be between 1 and 30."))
    if "top_cut" in fields and fields["top_cut"] not in TOP_CUT_SIZES:
        errors["top_cut"] = _("Top cut must be one of %(sizes)s.") % {
            "sizes": ", ".join(map(str, TOP_CUT_SIZES))
        }
    if "name" in fields and not str(fields["name"]).strip():
        errors["name"] = _("The event needs a name.")
    if errors:
        raise ValidationError(errors)
    co = fields.pop("co_organizers", None)
    for key, value in fields.items():
        setattr(tournament, key, value)
    if fields:
        tournament.save(update_fields=list(fields))
    if co is not None:
        tournament.co_organizers.set([u for u in co if u.pk != tournament.created_by_id])
        tournament.__dict__.pop("_co_organizer_ids", None)
    return tournament


# --- registration -------------------------------------------------------------------------------------


def freeze_if_deadline_passed(tournament: Tournament, now: datetime | None = None) -> bool:
    """Freeze registration once its deadline has passed; True when registration is frozen.

    There is no scheduler (no Celery beat): the freeze happens lazily, the first time anything asks after
    the deadline (every registration, deck submission and event page does). It stamps
    ``registration_frozen_at`` with the deadline itself, so moving the deadline afterwards cannot reopen
    registration and nothing submitted after the deadline was ever accepted. A conditional UPDATE keeps two
    concurrent requests from fighting over the stamp.
    """
    if tournament.registration_frozen_at is not None:
        return True
    deadline = tournament.registration_deadline
    if deadline is None or (now or timezone.now()) < deadline:
        return False
    Tournament.objects.filter(pk=tournament.pk, registration_frozen_at__isnull=True).update(
        registration_frozen_at=deadline
    )
    tournament.registration_frozen_at = (
        Tournament.objects.filter(pk=tournament.pk).values_list("registration_frozen_at", flat=True).first()
        or deadline
    )
    return True


def registration_open(tournament: Tournament, now: datetime | None = None) -> bool:
    return tournament.status == Tournament.Status.REGISTRATION and not freeze_if_deadline_passed(
        tournament, now
    )


def decks_frozen(tournament: Tournament, now: datetime | None = None) -> bool:
    return tournament.status != Tournament.Status.REGISTRATION or freeze_if_deadline_passed(tournament, now)


@transaction.atomic
def player_register(
    *, tournament: Tournament, by: Any, user: Any = None, name: str = "", deck: Any = None
) -> Player:
    """A player joins (``user`` = ``by``) or an organizer adds a guest by name (``user`` None)."""
    organizer = is_organizer(tournament, by)
    if user is not None and not organizer and user != by:
        raise PermissionDenied(_("You can only register yourself."))
    if user is None and not organizer:
        if by is None or not by.is_authenticated:
            raise PermissionDenied(_("Log in to register."))
        user = by
    tournament.refresh_from_db()
    # The deadline (and the freeze) bind players; until round 1 an organizer may still seat a walk-in,
    # whose list only an organizer can then register (see player_submit_deck).
    if not registration_open(tournament) and not (
        organizer and tournament.status == Tournament.Status.REGISTRATION
    ):
        raise ValidationError(_("Registration for this event is closed."))
    name = (name or "").strip() or (user.get_full_name() or user.username if user is not None else "")
    if not name:
        raise ValidationError({"name": _("A guest needs a name.")})
    if len(name) > 150:
        raise ValidationError({"name": _("The name is longer than 150 characters.")})
    if user is not None and tournament.players.filter(user=user).exists():
        raise ValidationError(_("%(name)s is already registered.") % {"name": user.username})
    player = Player.objects.create(tournament=tournament, user=user, name=name)
    if deck is not None:
        player_submit_deck(player=player, by=by, deck=deck)
    return player


@transaction.atomic
def player_submit_deck(
    *, player: Player, by: Any, deck: Any = None, payload: Mapping[str, Any] | None = None,
    pool: Any = None, text: str | bytes = "", filename: str = "",
) -> Player:  # fmt: skip
    """Register a deck: a copy (snapshot) of ``deck`` (a ``decks.Deck``), an inline ``payload``, or a list
    pasted/uploaded as ``text`` in any supported deck format.

    Limited formats check the deck against the player's pool (``pool`` given here, or registered before
    with ``player_submit_pool``). Refused when the list is illegal for the event's format and ban list, or
    after the freeze (an organizer may still register a late entry's first list).
    """
    tournament = Tournament.objects.select_related("game", "banlist").get(pk=player.tournament_id)
    organizer = _check_deck_access(tournament, player, by)
    if decks_frozen(tournament) and not (organizer and player.deck is None):
        raise ValidationError(_("Deck lists are frozen: registration has closed."))
    if deck is None and payload is None and (text.strip() if isinstance(text, str) else text):
        snapshot = decklists.snapshot_from_text(
            game=tournament.game, format_slug=tournament.format_slug, text=text, filename=filename
        )
    elif deck is not None:
        if deck.game_id != tournament.game_id:
            raise ValidationError({"deck": _("That deck is for another game.")})
        if not organizer and deck.owner_id != by.id:
            raise PermissionDenied(_("You can only register one of your own decks."))
        snapshot = decklists.snapshot_from_deck(deck)
    elif payload is not None:
        snapshot = decklists.snapshot_from_payload(game=tournament.game, payload=payload)
    else:
        raise ValidationError({"deck": _("Choose a deck to register.")})
    pool_snapshot = None
    if pool is not None:
        pool_snapshot = (
            decklists.snapshot_from_payload(game=tournament.game, payload=pool)
            if isinstance(pool, Mapping)
            else decklists.snapshot_from_deck(pool)
        )
    elif player.pool is not None:
        pool_snapshot = player.pool
    report = decklists.validate_snapshot(tournament=tournament, snapshot=snapshot, pool=pool_snapshot)
    if not report.get("legal", False):
        problems = [v.get("message", str(v)) for v in report.get("violations", [])][:10]
        raise ValidationError(
            {"deck": [_("This deck is not legal for the event's format and ban list."), *problems]}
        )
    player.deck = snapshot
    player.pool = pool_snapshot
    player.deck_report = report
    player.deck_submitted_at = timezone.now()
    player.source_deck = deck
    player.save(update_fields=["deck", "pool", "deck_report", "deck_submitted_at", "source_deck"])
    return player


def _check_deck_access(tournament: Tournament, player: Player, by: Any) -> bool:
    """The player themself or an organizer, in a game played with decks; returns "is an organizer"."""
    organizer = is_organizer(tournament, by)
    if not organizer and (by is None or player.user_id != by.id):
        raise PermissionDenied(_("You can only register your own deck."))
    if not game_rules(tournament.game).has_decks:
        raise ValidationError(_("%(game)s is played without decks.") % {"game": tournament.game.name})
    return organizer


def format_uses_pool(tournament: Tournament) -> bool:
    """Limited formats: decks are built from a registered card pool (the rules engine checks ``not_in_pool``)."""
    fmt = game_rules(tournament.game).formats.get(tournament.format_slug)
    return fmt is not None and fmt.pool_scope is not None


@transaction.atomic
def player_submit_pool(
    *, player: Player, by: Any, pool: Mapping[str, Any] | None = None, text: str | bytes = "",
    filename: str = "",
) -> Player:  # fmt: skip
    """Limited formats: register the cards the player received (inline ``pool`` or a pasted/uploaded list).

    A deck registered earlier stays only if it is still legal with the new pool; otherwise it is removed
    so the player registers a deck built from this pool (nothing illegal is ever left registered).
    """
    tournament = Tournament.objects.select_related("game", "banlist").get(pk=player.tournament_id)
    organizer = _check_deck_access(tournament, player, by)
    if not format_uses_pool(tournament):
        raise ValidationError(_("This format does not use a card pool."))
    if decks_frozen(tournament) and not (organizer and player.deck is None):
        raise ValidationError(_("Deck lists are frozen: registration has closed."))
    if pool is not None:
        snapshot = decklists.snapshot_from_payload(game=tournament.game, payload=pool)
    else:
        snapshot = decklists.snapshot_from_text(
            game=tournament.game, format_slug=tournament.format_slug, text=text, filename=filename,
            field="pool", as_pool=True,
        )  # fmt: skip
    player.pool = snapshot
    fields = ["pool"]
    if player.deck is not None:
        report = decklists.validate_snapshot(tournament=tournament, snapshot=player.deck, pool=snapshot)
        if report.get("legal", False):
            player.deck_report = report
        else:
            player.deck = player.deck_report = player.deck_submitted_at = player.source_deck = None
            fields += ["deck", "deck_submitted_at", "source_deck"]
        fields.append("deck_report")
    player.save(update_fields=fields)
    return player


@transaction.atomic
def registration_freeze(*, tournament: Tournament, by: Any) -> Tournament:
    """Close registration and freeze every registered list (they are snapshots already)."""
    require_organizer(tournament, by)
    if tournament.registration_frozen_at is None:
        tournament.registration_frozen_at = timezone.now()
        tournament.save(update_fields=["registration_frozen_at"])
    return tournament


@transaction.atomic
def player_drop(*, player: Player, by: Any) -> Player:
    """The player is never paired again but stays in the standings."""
    tournament = Tournament.objects.get(pk=player.tournament_id)
    if not is_organizer(tournament, by) and (by is None or player.user_id != by.id):
        raise PermissionDenied(_("You can only drop yourself."))
    if player.dropped_at_round is not None:
        raise ValidationError(_("%(name)s has already dropped.") % {"name": player.name})
    if tournament.status == Tournament.Status.FINISHED:
        raise ValidationError(_("The event is over."))
    latest = tournament.round_set.filter(kind=Round.Kind.SWISS).order_by("-number").first()
    player.dropped_at_round = latest.number if latest else 0
    player.save(update_fields=["dropped_at_round"])
    return player


@transaction.atomic
def player_add_late(*, tournament: Tournament, by: Any, name: str = "", user: Any = None) -> Player:
    """A late entry joins from the next round; with ``late_entry_losses`` each missed round is a loss."""
    require_organizer(tournament, by)
    tournament.refresh_from_db()
    if tournament.status != Tournament.Status.RUNNING:
        raise ValidationError(_("Late entries join only while the Swiss rounds run."))
    name = (name or "").strip() or (user.username if user is not None else "")
    if not name:
        raise ValidationError({"name": _("A guest needs a name.")})
    if user is not None and tournament.players.filter(user=user).exists():
        raise ValidationError(_("%(name)s is already registered.") % {"name": user.username})
    latest = tournament.round_set.filter(kind=Round.Kind.SWISS).order_by("-number").first()
    return Player.objects.create(
        tournament=tournament, user=user, name=name, joined_round=(latest.number if latest else 0) + 1
    )


# --- rounds ---------------------------------------------------------------------------------------------


@transaction.atomic
def round_pair_next(*, tournament: Tournament, by: Any) -> Round:
    """Pair the next Swiss round (round 1 random from the stored seed; then by match points)."""
    require_organizer(tournament, by)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status in (Tournament.Status.TOP_CUT, Tournament.Status.FINISHED):
        raise ValidationError(_("The Swiss rounds are over."))
    latest = tournament.round_set.filter(kind=Round.Kind.SWISS).order_by("-number").first()
    if latest is not None and not records.round_complete(latest):
        raise ValidationError(
            _("Round %(n)s still has matches without a confirmed result.") % {"n": latest.number}
        )
    number = (latest.number if latest else 0) + 1
    if number == 1:
        _start_event(tournament)
    if tournament.rounds is not None and number > tournament.rounds:
        raise ValidationError(
            _("All %(n)s Swiss rounds have been played; start the top cut or finish the event.")
            % {"n": tournament.rounds}
        )
    round_ = Round.objects.create(
        tournament=tournament, number=number, kind=Round.Kind.SWISS, seed=tournament.seed, paired_by=by
    )
    _pair_into(round_, tournament)
    signals.send_on_commit(signals.round_paired, tournament_id=tournament.pk, round_number=number)
    signals.send_on_commit(signals.tournament_changed, tournament_id=tournament.pk, what="round")
    return round_


def _start_event(tournament: Tournament) -> None:
    players = tournament.players.filter(dropped_at_round__isnull=True)
    count = players.count()
    if count < 2:
        raise ValidationError(_("At least two players are needed to start."))
    if tournament.deck_registration:
        missing = list(players.filter(deck__isnull=True).values_list("name", flat=True)[:10])
        if missing:
            raise ValidationError(
                _("Deck registration is on and these players have no registered deck: %(names)s.")
                % {"names": ", ".join(missing)}
            )
    if tournament.rounds is None:
        from .pairing import recommended_rounds

        default = recommended_rounds(count, tournament.top_cut)
        if default is None:
            raise ValidationError(
                {"rounds": _("Fewer than 9 players: choose the number of Swiss rounds before round 1.")}
            )
        tournament.rounds = default
    tournament.status = Tournament.Status.RUNNING
    tournament.registration_frozen_at = tournament.registration_frozen_at or timezone.now()
    tournament.save(update_fields=["rounds", "status", "registration_frozen_at"])


def _pair_into(round_: Round, tournament: Tournament) -> None:
    history = records.load_history(tournament)
    active = history.active_for_round(round_.number)
    if tournament.match_format == Tournament.MatchFormat.PODS:
        _pair_pods(round_, tournament, history, active)
        return
    from .pairing import PairingImpossible, PairingPlayer, pair_round

    points = {row.player_id: row.points for row in records.compute_rows(history, tournament.tiebreakers)}
    opponents = records.opponents_by_player(history)
    byes = records.byes_by_player(history)
    downs = records.pair_downs_by_player(history)
    engine_players = [
        PairingPlayer(
            id=p.id,
            points=points.get(p.id, 0),
            opponents=frozenset(opponents.get(p.id, ())),
            had_bye=p.id in byes,
            pair_downs=downs.get(p.id, 0),
        )
        for p in active
    ]
    try:
        result = pair_round(engine_players, round_.number, round_.seed)
    except PairingImpossible as error:
        raise ValidationError(_("No valid pairing exists: %(why)s") % {"why": str(error)}) from None
    paired_down = set(result.stats.paired_down)
    matches: list[tuple[int, bool, str, list[tuple[int, int, int, bool]]]] = [
        (pair.table, False, Match.Status.PENDING,
         [(pair.player_a, 0, 0, pair.player_a in paired_down), (pair.player_b, 1, 0, pair.player_b in paired_down)])
        for pair in result.pairs
    ]  # fmt: skip
    if result.bye is not None:
        # Byes count as a 2-0 win and need no confirmation.
        matches.append((len(result.pairs) + 1, True, Match.Status.FINAL, [(result.bye, 0, 2, False)]))
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


def _bulk_create_matches(matches: list[Match]) -> list[Match]:
    from django.db import connection

    if connection.features.can_return_rows_from_bulk_insert:
        return Match.objects.bulk_create(matches, batch_size=500)
    Match.objects.bulk_create(matches, batch_size=500)
    by_table = {m.table: m for m in Match.objects.filter(round=matches[0].round)} if matches else {}
    return [by_table[m.table] for m in matches]


def _pair_pods(round_: Round, tournament: Tournament, history: records.History, active: list[Any]) -> None:
    from . import pod_rounds
    from . import pods as pods_engine

    rules = game_rules(tournament.game)
    low, high = _pod_size_range(rules)
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
        raise ValidationError(_("No valid pod assignment exists: %(why)s") % {"why": str(error)}) from None
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
        raise ValidationError(_("Only Swiss rounds can be re-paired."))
    if tournament.round_set.filter(number__gt=round_.number).exists():
        raise ValidationError(_("Only the latest round can be re-paired."))
    if round_.matches.filter(bye=False).exclude(status=Match.Status.PENDING).exists():
        raise ValidationError(
            _("Round %(n)s already has results; correct them instead.") % {"n": round_.number}
        )
    round_.matches.all().delete()
    # A new stored seed: re-pairing with the same inputs and seed would reproduce the same pairing.
    round_.seed = seed if seed is not None else secrets.randbelow(2**53)
    round_.paired_by = by
    round_.started_at = None
    round_.timer_ends_at = None
    round_.save(update_fields=["seed", "paired_by", "started_at", "timer_ends_at"])
    _pair_into(round_, tournament)
    return round_


@transaction.atomic
def round_timer_start(*, round_: Round, by: Any, minutes: int | None = None) -> Round:
    require_organizer(round_.tournament, by)
    minutes = minutes or round_.tournament.round_minutes
    if not 1 <= minutes <= 600:
        raise ValidationError({"minutes": _("Round time must be between 1 and 600 minutes.")})
    now = timezone.now()
    round_.started_at = now
    round_.timer_ends_at = now + timedelta(minutes=minutes)
    round_.save(update_fields=["started_at", "timer_ends_at"])
    return round_


# --- results --------------------------------------------------------------------------------------------


def match_result_dict(match: Match) -> dict[str, Any]:
    """The result as stored, for the audit trail and the API."""
    seats = list(match.seats.all())
    data: dict[str, Any] = {"status": match.status, "players": [s.player_id for s in seats]}
    if any(s.place is not None for s in seats) and not match.bye:
        data["places"] = [
            {"player": s.player_id, "place": s.place, "score": s.score, "tiebreak": s.tiebreak} for s in seats
        ]
    else:
        data["wins"] = [s.wins for s in seats]
        data["draws"] = match.draws
        games = list(match.games.all())
        if games:
            by_seat = {s.seat: s.player_id for s in seats}
            data["games"] = [
                {"winner": by_seat.get(g.winner_seat) if g.winner_seat is not None else None,
                 "first": by_seat.get(g.first_seat)}
                for g in games
            ]  # fmt: skip
    return data


def _parse_result(
    match: Match,
    seats: list[MatchSeat],
    *,
    wins: Sequence[int] | None,
    draws: int,
    games: Sequence[Mapping[str, Any]] | None,
    places: Sequence[Mapping[str, Any]] | None,
) -> dict[str, Any]:
    """Validate a result against the match and the game's rules; returns what to store."""
    tournament = match.round.tournament
    if match.bye:
        raise ValidationError(_("A bye has no result to report: it counts as a 2-0 win."))
    if tournament.match_format == Tournament.MatchFormat.PODS and match.round.kind == Round.Kind.SWISS:
        if places is None:
            raise ValidationError({"places": _("A pod result needs every player's place or score.")})
        return {"places": _parse_places(tournament, seats, places)}
    if places is not None:
        raise ValidationError({"places": _("Places are for pod games; this is a two-player match.")})
    from . import results

    seat_of = {s.player_id: s.seat for s in seats}
    need = wins_needed(tournament, match.round)
    parsed_games: list[tuple[int | None, int | None]] = []
    if games is not None:
        parsed_games = results.parse_games(games, seat_of)
        results.check_game_sequence(parsed_games, need=need)
        results.check_first_players(game_rules(tournament.game).first_player, parsed_games, chooser=None)
        wins_list, draws = results.games_to_result(parsed_games)
    elif wins is not None:
        if len(wins) != 2 or any(not isinstance(w, int) or w < 0 for w in wins):
            raise ValidationError(
                {"wins": _("Give two non-negative game-win counts, in the order of the players.")}
            )
        wins_list = [int(w) for w in wins]
    else:
        raise ValidationError(_("Give either the games or the game wins and draws."))
    if not isinstance(draws, int) or not 0 <= draws <= 3:
        raise ValidationError({"draws": _("Drawn games must be between 0 and 3.")})
    results.check_score(wins_list, draws, need=need, top_cut=match.round.kind == Round.Kind.TOP_CUT)
    return {"wins": wins_list, "draws": draws, "games": parsed_games}


def _parse_places(
    tournament: Tournament, seats: list[MatchSeat], places: Sequence[Mapping[str, Any]]
) -> list[Any]:
    from . import results

    return results.parse_places(tournament.game.slug, [s.player_id for s in seats], places)


def _store_result(match: Match, seats: list[MatchSeat], parsed: Mapping[str, Any]) -> None:
    if "places" in parsed:
        by_player = {row["player"]: row for row in parsed["places"]}
        for s in seats:
            row = by_player[s.player_id]
            s.place, s.score, s.tiebreak, s.wins = row["place"], row.get("score"), row.get("tiebreak"), 0
        MatchSeat.objects.bulk_update(seats, ["place", "score", "tiebreak", "wins"])
        match.draws = 0
        return
    for s, w in zip(seats, parsed["wins"], strict=True):
        s.wins = w
    MatchSeat.objects.bulk_update(seats, ["wins"])
    match.draws = parsed["draws"]
    match.games.all().delete()
    MatchGame.objects.bulk_create(
        [
            MatchGame(match=match, number=i, winner_seat=winner, first_seat=first)
            for i, (winner, first) in enumerate(parsed["games"], start=1)
        ]
    )


def _audit(match: Match, by: Any, action: str, old: Any, reason: str = "") -> None:
    ResultChange.objects.create(
        match=match, changed_by=by, action=action, old=old, new=match_result_dict(match), reason=reason[:300]
    )


def _locked_match(match: Match) -> tuple[Match, list[MatchSeat]]:
    match = Match.objects.select_for_update().select_related("round__tournament").get(pk=match.pk)
    seats = list(match.seats.select_related("player").order_by("seat"))
    return match, seats


def _check_round_open(match: Match) -> None:
    tournament = match.round.tournament
    latest = tournament.round_set.order_by("-number").first()
    if tournament.status == Tournament.Status.FINISHED or (latest and latest.number != match.round.number):
        raise ValidationError(_("This round is closed; only an organizer can correct its results."))


@transaction.atomic
def match_report_result(
    *,
    match: Match,
    by: Any,
    wins: Sequence[int] | None = None,
    draws: int = 0,
    games: Sequence[Mapping[str, Any]] | None = None,
    places: Sequence[Mapping[str, Any]] | None = None,
) -> Match:
    """A player reports their match (the opponent then confirms); an organizer's entry is final."""
    match, seats = _locked_match(match)
    tournament = match.round.tournament
    organizer = is_organizer(tournament, by)
    me = next(
        (s.player for s in seats if by is not None and s.player.user_id == getattr(by, "id", None)), None
    )
    if not organizer and me is None:
        raise PermissionDenied(_("You can only report your own match."))
    if not organizer:
        _check_round_open(match)
        if match.status in (Match.Status.CONFIRMED, Match.Status.FINAL):
            raise ValidationError(_("This result is already confirmed; ask an organizer to correct it."))
    elif match.status in (Match.Status.CONFIRMED, Match.Status.FINAL) and not match.bye:
        raise ValidationError(_("This result is already confirmed; use a correction instead."))
    parsed = _parse_result(match, seats, wins=wins, draws=draws, games=games, places=places)
    old = match_result_dict(match) if match.status != Match.Status.PENDING else None
    _store_result(match, seats, parsed)
    match.status = Match.Status.FINAL if organizer and me is None else Match.Status.REPORTED
    match.reported_by = by
    match.reported_at = timezone.now()
    match.confirmed_by = by if match.status == Match.Status.FINAL else None
    match.save(update_fields=["status", "draws", "reported_by", "reported_at", "confirmed_by"])
    _audit(match, by, "report" if match.status == Match.Status.REPORTED else "enter", old)
    _announce_result(match)
    return match


def _announce_result(match: Match) -> None:
    tournament_id = match.round.tournament_id
    if match.status in (Match.Status.CONFIRMED, Match.Status.FINAL):
        signals.send_on_commit(signals.result_settled, tournament_id=tournament_id, match_id=match.pk)
    signals.send_on_commit(signals.tournament_changed, tournament_id=tournament_id, what="result")


@transaction.atomic
def match_confirm_result(*, match: Match, by: Any) -> Match:
    """The opponent (any other player of the match) confirms the reported result."""
    match, seats = _locked_match(match)
    if match.status != Match.Status.REPORTED:
        raise ValidationError(_("There is no reported result waiting for confirmation."))
    players = [s.player for s in seats]
    if by is None or not any(p.user_id == by.id for p in players):
        raise PermissionDenied(_("Only a player of this match can confirm its result."))
    if match.reported_by_id == by.id:
        raise PermissionDenied(_("Your opponent must confirm the result you reported."))
    old = match_result_dict(match)
    match.status = Match.Status.CONFIRMED
    match.confirmed_by = by
    match.save(update_fields=["status", "confirmed_by"])
    _audit(match, by, "confirm", old)
    _announce_result(match)
    return match


@transaction.atomic
def match_dispute(*, match: Match, by: Any, reason: str = "") -> Match:
    """A player disagrees with the reported result; the organizer sees it and decides."""
    match, seats = _locked_match(match)
    if by is None or not any(s.player.user_id == by.id for s in seats):
        raise PermissionDenied(_("Only a player of this match can dispute its result."))
    if match.status not in (Match.Status.REPORTED, Match.Status.CONFIRMED):
        raise ValidationError(_("Only a reported result can be disputed."))
    _check_round_open(match)
    old = match_result_dict(match)
    match.status = Match.Status.DISPUTED
    match.save(update_fields=["status"])
    _audit(match, by, "dispute", old, reason)
    _announce_result(match)
    return match


@transaction.atomic
def match_correct_result(
    *,
    match: Match,
    by: Any,
    wins: Sequence[int] | None = None,
    draws: int = 0,
    games: Sequence[Mapping[str, Any]] | None = None,
    places: Sequence[Mapping[str, Any]] | None = None,
    reason: str = "",
) -> Match:
    """An organizer sets any result (also of earlier rounds); the change is recorded old → new."""
    match, seats = _locked_match(match)
    require_organizer(match.round.tournament, by)
    parsed = _parse_result(match, seats, wins=wins, draws=draws, games=games, places=places)
    old = match_result_dict(match)
    _store_result(match, seats, parsed)
    match.status = Match.Status.FINAL
    match.confirmed_by = by
    if match.reported_by_id is None:
        match.reported_by = by
        match.reported_at = timezone.now()
    match.save(update_fields=["status", "draws", "confirmed_by", "reported_by", "reported_at"])
    _audit(match, by, "correct", old, reason)
    _announce_result(match)
    return match


# --- sideboarding ---------------------------------------------------------------------------------------


def current_deck(match: Match, player: Player) -> dict[str, Any] | None:
    """The player's deck in this match: the registered list plus this match's swaps (never earlier ones)."""
    change = (
        SideboardChange.objects.filter(match=match, player=player).order_by("-game_number", "-id").first()
    )
    return change.deck if change is not None else player.deck


@transaction.atomic
def match_sideboard(
    *, match: Match, player: Player, by: Any, game_number: int, swaps: Sequence[Mapping[str, Any]]
) -> SideboardChange:
    """Swap cards before ``game_number`` (2+); the rules engine checks the swap and the resulting deck."""
    match, seats = _locked_match(match)
    tournament = match.round.tournament
    if not sideboarding_allowed(tournament):
        raise ValidationError(_("Sideboarding is not allowed in this event."))
    if player.pk not in {s.player_id for s in seats}:
        raise ValidationError(_("%(name)s is not playing this match.") % {"name": player.name})
    if not is_organizer(tournament, by) and (by is None or player.user_id != by.id):
        raise PermissionDenied(_("You can only sideboard your own deck."))
    if match.bye:
        raise ValidationError(_("A bye has no games."))
    if game_number < 2:
        raise ValidationError({"game_number": _("No sideboarding before game 1.")})
    if game_number > 2 * wins_needed(tournament, match.round) + 1:
        raise ValidationError({"game_number": _("This match has no game %(n)s.") % {"n": game_number}})
    if match.status in (Match.Status.CONFIRMED, Match.Status.FINAL):
        raise ValidationError(_("The match is over."))
    if player.deck is None:
        raise ValidationError(_("%(name)s has no registered deck.") % {"name": player.name})
    before = current_deck(match, player)
    deck_after, report = decklists.apply_swaps(tournament=tournament, snapshot=before, swaps=swaps)
    if not report.get("legal", False):
        problems = [v.get("message", str(v)) for v in report.get("violations", [])][:10]
        raise ValidationError({"swaps": [_("This sideboard swap is not allowed."), *problems]})
    return SideboardChange.objects.create(
        match=match,
        game_number=game_number,
        player=player,
        swaps=[dict(s) for s in swaps],
        deck=deck_after,
        report=report,
        created_by=by,
    )


# --- top cut and finish ---------------------------------------------------------------------------------


@transaction.atomic
def topcut_start(*, tournament: Tournament, by: Any) -> Round:
    """Seed a single-elimination bracket from the Swiss standings (1–8, 4–5, 2–7, 3–6 …)."""
    require_organizer(tournament, by)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status != Tournament.Status.RUNNING or not tournament.top_cut:
        raise ValidationError(_("This event has no top cut to start now."))
    latest = tournament.round_set.order_by("-number").first()
    if latest is None or latest.number < (tournament.rounds or 0) or not records.round_complete(latest):
        raise ValidationError(_("Finish every Swiss round first."))
    from . import topcut

    rows = records.compute_rows(records.load_history(tournament), tournament.tiebreakers)
    if sum(1 for row in rows if not row.dropped) < 2:
        raise ValidationError(_("Not enough players for a top cut."))
    bracket = topcut.first_round(topcut.entrants_from_standings(rows, tournament.top_cut))
    tournament.status = Tournament.Status.TOP_CUT
    tournament.save(update_fields=["status"])
    return _create_cut_round(tournament, latest.number + 1, bracket, by)


def _create_cut_round(tournament: Tournament, number: int, bracket: Sequence[Any], by: Any) -> Round:
    round_ = Round.objects.create(
        tournament=tournament, number=number, kind=Round.Kind.TOP_CUT, seed=tournament.seed, paired_by=by
    )
    matches = _bulk_create_matches(
        [
            Match(
                round=round_,
                table=bm.position + 1,
                bye=bm.is_bye,
                chooser_id=bm.chooser.player_id,
                status=Match.Status.FINAL if bm.is_bye else Match.Status.PENDING,
            )
            for bm in bracket
        ]
    )
    seats = []
    for match, bm in zip(matches, bracket, strict=True):
        seats.append(MatchSeat(match=match, player_id=bm.a.player_id, seat=0, cut_seed=bm.a.seed,
                               wins=2 if bm.is_bye else 0))  # fmt: skip
        if bm.b is not None:
            seats.append(MatchSeat(match=match, player_id=bm.b.player_id, seat=1, cut_seed=bm.b.seed))
    MatchSeat.objects.bulk_create(seats)
    return round_


def match_winner(match: Match) -> int | None:
    seats = list(match.seats.all())
    if match.bye:
        return seats[0].player_id
    if len(seats) == 2 and seats[0].wins != seats[1].wins:
        return seats[0].player_id if seats[0].wins > seats[1].wins else seats[1].player_id
    return None


def bracket_of(round_: Round) -> list[Any]:
    """The stored bracket round as ``topcut.BracketMatch`` values."""
    from . import topcut

    bracket = []
    for match in round_.matches.prefetch_related("seats").order_by("table"):
        seats = sorted(match.seats.all(), key=lambda s: s.seat)
        entrants = [topcut.Entrant(s.cut_seed or 0, s.player_id) for s in seats]
        bracket.append(
            topcut.BracketMatch(match.table - 1, entrants[0], entrants[1] if len(entrants) > 1 else None)
        )
    return bracket


@transaction.atomic
def topcut_advance(*, tournament: Tournament, by: Any) -> Round | None:
    """Pair the next bracket round from the winners; after the final the event is finished."""
    require_organizer(tournament, by)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status != Tournament.Status.TOP_CUT:
        raise ValidationError(_("The top cut is not running."))
    latest = tournament.round_set.order_by("-number").first()
    if latest is None or latest.kind != Round.Kind.TOP_CUT:
        raise ValidationError(_("The top cut is not running."))
    if not records.round_complete(latest):
        raise ValidationError(_("Every top cut match needs a confirmed result first."))
    matches = list(latest.matches.prefetch_related("seats").order_by("table"))
    winners = {m.table - 1: match_winner(m) for m in matches}
    if any(w is None for w in winners.values()):
        raise ValidationError(_("Top cut matches cannot end in a draw; correct the result."))
    if len(matches) == 1:
        tournament.status = Tournament.Status.FINISHED
        tournament.save(update_fields=["status"])
        return None
    from . import topcut

    bracket = topcut.advance(bracket_of(latest), {k: v for k, v in winners.items() if v is not None})
    return _create_cut_round(tournament, latest.number + 1, bracket, by)


@transaction.atomic
def tournament_finish(*, tournament: Tournament, by: Any) -> Tournament:
    require_organizer(tournament, by)
    latest = tournament.round_set.order_by("-number").first()
    if latest is None:
        raise ValidationError(_("No round has been played."))
    if not records.round_complete(latest):
        raise ValidationError(
            _("Round %(n)s still has matches without a confirmed result.") % {"n": latest.number}
        )
    if tournament.status == Tournament.Status.TOP_CUT:
        raise ValidationError(_("Finish the top cut first."))
    tournament.status = Tournament.Status.FINISHED
    tournament.save(update_fields=["status"])
    return tournament
