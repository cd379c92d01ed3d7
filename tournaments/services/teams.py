"""Team events: registering a team (with the game's team deck rule), pairing team rounds, team standings.

- ``team_register(tournament=, by=, name=, members=[users], decks=[decks]) -> Team`` — organizers, while
  registration is open; every member becomes an entry with their deck, the team's decks checked together by
  the format's ``team`` rule (unified construction: a card in one teammate's deck only).
- ``team_event_configure(tournament=, by=, team_size=, team_mode=)`` — organizers turn an event into a team
  event (or back) from its team page, before anyone registers.
- ``team_round_matches(round_=, tournament=, history=)`` — the rows of a team round for the pairing service:
  teams paired by the Swiss engine on team points, each pairing ``size`` seat matches at consecutive tables.
- ``team_results(tournament, history)`` / ``team_standings_rows(tournament)`` — team matches and standings.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from config.api import StateConflict

from ..engine import teams as team_engine
from ..models import Match, Team, TeamMember, Tournament
from ..permissions import is_organizer
from ..printables.decklists import snapshot_from_deck
from ..reads import records
from ..reads.teams import membership as _membership
from ..reads.teams import tables_per_pairing, team_results
from .common import announce
from .registration import player_register, player_submit_deck
from .team_decks import team_deck_conflicts

SEATS = "ABC"


def team_form_errors(tournament: Tournament, *, name: str, members: Sequence[Any]) -> dict[str, Any]:
    """What is wrong with a team's name and members, by field (one wording for every way a team is formed)."""
    errors: dict[str, Any] = {}
    size = tournament.team_size
    if not name or len(name) > 100:
        errors["name"] = _("A team needs a name of at most 100 characters.")
    elif tournament.teams.filter(name__iexact=name).exists():
        errors["name"] = _("There is already a team named “%(name)s”.") % {"name": name}
    if len(members) != size or len({m.pk for m in members}) != size:
        errors["members"] = _("A team of this event has %(n)s different players.") % {"n": size}
    return errors


@transaction.atomic
def team_register(
    *, tournament: Tournament, by: Any, name: str, members: Sequence[Any], decks: Sequence[Any] = ()
) -> Team:
    if not is_organizer(tournament, by):
        raise PermissionDenied(_("Only the organizers of this event may register teams."))
    tournament = Tournament.objects.select_for_update().select_related("game").get(pk=tournament.pk)
    size = tournament.team_size
    if size < 2:
        raise StateConflict(_("This event is not a team event."))
    if tournament.status != Tournament.Status.REGISTRATION:
        raise StateConflict(_("Registration for this event is closed."))
    name = (name or "").strip()
    errors = team_form_errors(tournament, name=name, members=members)
    if decks and len(decks) != size:
        errors["decks"] = _("Give one deck per member, in the members' order (%(n)s).") % {"n": size}
    elif not decks and tournament.deck_registration:
        errors["decks"] = _("Deck registration is on: give one deck per member.")
    if errors:
        raise ValidationError(errors)
    conflicts = team_deck_conflicts(
        game=tournament.game,
        format_slug=tournament.format_slug,
        decks=[(deck.name, snapshot_from_deck(deck)) for deck in decks],
    )
    if conflicts:
        raise ValidationError({"decks": [c["message"] for c in conflicts]})
    team = Team.objects.create(tournament=tournament, name=name, created_by=by)
    for seat, member in enumerate(members):
        player = player_register(tournament=tournament, by=by, user=member)
        if decks:
            player_submit_deck(player=player, by=by, deck=decks[seat])
        try:
            with transaction.atomic():
                TeamMember.objects.create(team=team, player=player, seat=seat)
        except IntegrityError:
            raise ValidationError({"members": _("A player can be on one team only.")}) from None
    announce(tournament.pk, "players")
    return team


@transaction.atomic
def team_event_configure(
    *, tournament: Tournament, by: Any, team_size: int, team_mode: str = "seats"
) -> Tournament:
    """Set an event's team size and mode from the organizer's team page: only while registration is open and
    nobody is registered yet (entries are players or team members, never converted), with the same rules as
    creating a team event through the API."""
    if not is_organizer(tournament, by):
        raise PermissionDenied(_("Only the organizers of this event may register teams."))
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    errors: dict[str, str] = {}
    if tournament.status != Tournament.Status.REGISTRATION or tournament.round_set.exists():
        errors["team_size"] = _("Registration for this event is closed.")
    elif tournament.players.exists():
        errors["team_size"] = _(
            "Players are already registered: the team size can only change before anyone is."
        )
    elif team_size not in (1, 2, 3):
        errors["team_size"] = _("Teams have 2 or 3 players (1: no teams).")
    elif team_size > 1 and tournament.match_format == Tournament.MatchFormat.PODS:
        errors["team_size"] = _("Team events are not played in pods.")
    elif team_mode not in ("seats", "2hg"):
        errors["team_mode"] = _("Team mode must be seats or 2hg.")
    elif team_mode == "2hg" and team_size != 2:
        errors["team_mode"] = _("Two-Headed Giant is played by teams of 2: set team_size to 2.")
    elif team_size == 2 and team_mode != "2hg" and tournament.top_cut:
        errors["team_size"] = _(
            "A top cut of teams needs teams of 3 or Two-Headed Giant: two seat matches can split."
        )
    if errors:
        raise ValidationError(errors)
    tournament.team_size = team_size
    tournament.team_mode = team_mode if team_size > 1 else "seats"
    tournament.save(update_fields=["team_size", "team_mode"])
    announce(tournament.pk, "settings")
    return tournament


def team_round_matches(
    *, round_: Any, tournament: Tournament, history: records.History
) -> list[tuple[int, bool, str, list[tuple[int, int, int, bool]]]]:
    """Pair a team round: the engine pairs teams on team points; each pairing becomes seat matches."""
    from ..engine.pairing import PairingImpossible, PairingPlayer, pair_round
    from ..pairings.refusals import reason
    from ..reads import phases
    from .phases import phase_seat_entrants

    seat_of, members = _membership(tournament)
    size = tournament.team_size
    per = tables_per_pairing(tournament)
    # A phase's first round fixes which teams made its cut (by team standings); its rounds pair only them.
    phase_seat_entrants(tournament=tournament, number=round_.number, history=history)
    phase = phases.phase_of_round(tournament, round_.number)
    entrants = set(phase.entrants) if phase is not None and phase.entrants is not None else None
    active = {p.id for p in history.active_for_round(round_.number)}
    loose = [history.players[pid].name for pid in sorted(active) if pid not in seat_of]
    if loose:
        raise StateConflict(
            _("These players are on no team: %(names)s. Register them as a team or drop them.")
            % {"names": ", ".join(loose[:10])}
        )
    teams = [
        t
        for t, ids in members.items()
        if len(ids) == size and all(pid in active and (entrants is None or pid in entrants) for pid in ids)
    ]
    if len(teams) < 2:
        raise StateConflict(_("At least two complete teams are needed to pair a round."))
    played = team_results(tournament, history)
    counted = (
        played
        if phase is None or phase.carry_points
        else team_results(tournament, phases.phase_history(history, phase))
    )
    rows = {r.team_id: r for r in team_engine.team_standings(teams, counted)}
    met: dict[int, set[int]] = {t: set() for t in teams}
    byes = set()
    for m in played:
        if m.team_b is None:
            byes.add(m.team_a)
        else:
            met.setdefault(m.team_a, set()).add(m.team_b)
            met.setdefault(m.team_b, set()).add(m.team_a)
    engine_teams = [
        PairingPlayer(id=t, points=rows[t].points, opponents=frozenset(met.get(t, ())), had_bye=t in byes)
        for t in teams
    ]
    try:
        result = pair_round(engine_teams, round_.number, round_.seed)
    except PairingImpossible as error:
        raise StateConflict(_("No valid pairing exists: %(why)s") % {"why": reason(error)}) from None
    matches: list[tuple[int, bool, str, list[tuple[int, int, int, bool]]]] = []
    for pair in result.pairs:
        for seat in range(per):
            table = (pair.table - 1) * per + seat + 1
            matches.append((table, False, Match.Status.PENDING,
                            [(members[pair.player_a][seat], 0, 0, False), (members[pair.player_b][seat], 1, 0, False)]))  # fmt: skip
    if result.bye is not None:
        # Every member of the bye team has a bye (a 2-0 win, final at once), at the team's tables.
        base = len(result.pairs) * per
        for seat in range(per):
            matches.append(
                (base + seat + 1, True, Match.Status.FINAL, [(members[result.bye][seat], 0, 2, False)])
            )
    return matches


def team_standings_rows(
    tournament: Tournament, phase: Any = None, *, phase_one: bool = False
) -> list[dict[str, Any]]:
    """Team standings with each team's members (by seat), for the API and the pages: the whole event's, or
    one phase's (an added phase: its own rounds and teams; ``phase_one``: the rounds before the first added
    phase)."""
    from ..reads import phases

    history = records.load_history(tournament)
    teams = {t.pk: t for t in tournament.teams.prefetch_related("members__player__user")}
    if phase is not None:
        history = phases.phase_history(history, phase)
        entrants = set(phase.entrants or ())
        teams = {pk: t for pk, t in teams.items() if any(m.player_id in entrants for m in t.members.all())}
    elif phase_one:
        first_added = tournament.phases.order_by("number").first()
        if first_added is not None:
            history = phases.before_round(history, first_added.first_round)
    rows = team_engine.team_standings(teams, team_results(tournament, history))
    stages: dict[int, str] = {}
    if phase is None and not phase_one and tournament.top_cut:
        from ..reads.cut_stages import STAGE_ORDER
        from ..reads.teams import team_stages

        # As for players: the cut's teams first, by how far each went, then the rest by Swiss rank.
        stages = team_stages(tournament)
        rows = sorted(
            rows, key=lambda r: (STAGE_ORDER.get(stages.get(r.team_id, ""), len(STAGE_ORDER)), r.rank)
        )
    out = [
        {
            "rank": position,
            "swiss_rank": row.rank,
            "top_cut": stages.get(row.team_id),
            "team": row.team_id,
            "name": teams[row.team_id].name,
            "points": row.points,
            "wins": row.wins,
            "losses": row.losses,
            "draws": row.draws,
            "omw": round(row.omw, 6),
            "seat_win": round(row.seat_win, 6),
            "members": [
                {
                    "seat": SEATS[m.seat],
                    "player": m.player_id,
                    "name": m.player.name,
                    "user": m.player.user.username if m.player.user else None,
                }
                for m in teams[row.team_id].members.all()
            ],
        }
        for position, row in enumerate(rows, start=1)
    ]
    if not stages:
        # Without a cut the engine's ranks stand (teams tied on every tiebreak share one).
        for entry, row in zip(out, rows, strict=True):
            entry["rank"] = row.rank
    return out


def team_seat_of(player_id: int) -> tuple[str, str, str, int | None, str, str] | None:
    """(team name, seat letter, Two-Headed Giant line or "", the team's shared match id or None, the team
    match's line or "", why the team met these opponents or "") of a player in a team event, for their phone.
    In Two-Headed Giant the team's one match is seated on seat A's player: seat B's phone says where to play and
    links the match. With seat matches the team match's line tells how the team pairing stands (seats won each
    way, or the team's result once all are in)."""
    member = TeamMember.objects.select_related("team__tournament").filter(player_id=player_id).first()
    if member is None:
        return None
    shared, match_id, team_line = "", None, ""
    two_headed = member.team.tournament.team_mode == "2hg"
    mates = list(member.team.members.select_related("player").order_by("seat"))
    seated = mates[0].player_id if two_headed else member.player_id
    match = (
        Match.objects.filter(seats__player_id=seated, round__draft=False)
        .select_related("round__tournament")
        .order_by("-round__number")
        .first()
    )
    if two_headed:
        partner = next((m.player.name for m in mates if m.pk != member.pk), "")
        if match is None or match.bye:
            shared = _("Two-Headed Giant with %(partner)s.") % {"partner": partner}
        else:
            shared = _("Two-Headed Giant with %(partner)s: your team plays at table %(table)s.") % {
                "partner": partner,
                "table": match.table,
            }
            match_id = match.pk
    elif match is not None and not match.bye:
        team_line = _team_match_line(member, match, {m.player_id for m in mates})
    why = ""
    if match is not None:
        from ..pairings.team_report import team_why_line

        why = team_why_line(match.round, member.team_id)
    return (member.team.name, SEATS[member.seat], shared, match_id, team_line, why)


def _team_match_line(member: TeamMember, match: Match, mine: set[int]) -> str:
    """How the member's team pairing of the latest published round stands, from its seat matches."""
    size = member.team.tournament.team_size
    first = (match.table - 1) // size * size + 1
    won = lost = decided = 0
    opponent = ""
    for seat_match in Match.objects.filter(
        round=match.round, table__gte=first, table__lt=first + size
    ).prefetch_related("seats__player__team_member__team"):
        seats = list(seat_match.seats.all())
        if len(seats) != 2:
            continue
        ours = next((s for s in seats if s.player_id in mine), None)
        theirs = next((s for s in seats if s.player_id not in mine), None)
        if ours is None or theirs is None:
            continue
        team = getattr(getattr(theirs.player, "team_member", None), "team", None)
        opponent = opponent or (team.name if team is not None else theirs.player.name)
        if seat_match.status in records.DONE_STATUSES:
            decided += 1
            won += ours.wins > theirs.wins
            lost += ours.wins < theirs.wins
    values = {"team": opponent, "won": won, "lost": lost, "decided": decided, "n": size}
    if decided < size:
        return (
            _("Team match against %(team)s: seats %(won)s–%(lost)s, %(decided)s of %(n)s decided.") % values
        )
    if won > lost:
        return _("Team match against %(team)s: your team won, seats %(won)s–%(lost)s.") % values
    if won < lost:
        return _("Team match against %(team)s: your team lost, seats %(won)s–%(lost)s.") % values
    return _("Team match against %(team)s: a draw, seats %(won)s–%(lost)s.") % values


def two_headed_stand_in(seats: Sequence[Any], user_id: int | None) -> Any:
    """In Two-Headed Giant, the seated player (seat A) whose teammate ``user_id`` is: a team's result is
    reported and confirmed once, by either of its members. None otherwise."""
    if user_id is None or not seats:
        return None
    ids = {s.player_id: s.player for s in seats}
    mates = TeamMember.objects.filter(player__user_id=user_id, team__tournament__team_mode="2hg").values_list(
        "team__members__player_id", flat=True
    )
    return next((ids[pid] for pid in mates if pid in ids), None)


def two_headed_side(tournament: Tournament, seats: Sequence[Any], me: Any, user: Any) -> tuple[Any, set[int]]:
    """For a match page: the seated player the user plays for (themselves, or in Two-Headed Giant the seat A
    teammate) and the user ids of that side (a result reported by either member waits for the other team)."""
    uid = getattr(user, "id", None)
    if uid is None or tournament.team_mode != "2hg":
        return me, {uid} if uid is not None else set()
    side = me or two_headed_stand_in(seats, uid)
    if side is None:
        return None, {uid}
    mates = TeamMember.objects.filter(team__members__player_id=side.pk).values_list(
        "player__user_id", flat=True
    )
    return side, {uid, *(u for u in mates if u is not None)}


def two_headed_side_ids(tournament: Tournament, player: Any) -> set[int]:
    """The entries whose seat is this player's side of a match: themselves, and in Two-Headed Giant their
    teammate (the team's game is seated on seat A)."""
    if tournament.team_mode != "2hg":
        return {player.pk}
    team = TeamMember.objects.filter(player_id=player.pk).values_list("team_id", flat=True).first()
    if team is None:
        return {player.pk}
    return set(TeamMember.objects.filter(team_id=team).values_list("player_id", flat=True))


def two_headed_side_users(tournament: Tournament, side_ids: set[int], user_id: int | None) -> set[int | None]:
    """The accounts of a side: a result either head reported waits for the other team, not the partner."""
    if tournament.team_mode != "2hg":
        return {user_id}
    from ..models import Player

    return {user_id, *Player.objects.filter(pk__in=side_ids).values_list("user_id", flat=True)}


def two_headed_versus(tournament: Tournament, seats: Sequence[Any], side_ids: set[int]) -> str:
    """ "Blue Mages (alice & bob) vs Twin Heads (p06 & p07)" for a Two-Headed Giant game; "" otherwise."""
    if tournament.team_mode != "2hg" or len(seats) != 2:
        return ""
    seated = [s.player_id for s in seats]
    teams: dict[int, tuple[str, list[str]]] = {}
    members = TeamMember.objects.filter(team__members__player_id__in=seated).select_related("team", "player")
    for member in members.order_by("team_id", "seat").distinct():
        _name, heads = teams.setdefault(member.team_id, (member.team.name, []))
        heads.append(member.player.name)
    lines = {team_id: f"{name} ({' & '.join(heads)})" for team_id, (name, heads) in teams.items()}
    ours = next((tid for tid, (_n, _h) in teams.items()
                 if TeamMember.objects.filter(team_id=tid, player_id__in=side_ids).exists()), None)  # fmt: skip
    theirs = [line for tid, line in lines.items() if tid != ours]
    if ours is None or not theirs:
        return ""
    return _("%(ours)s vs %(theirs)s") % {"ours": lines[ours], "theirs": theirs[0]}
