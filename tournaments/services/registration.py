"""Registration: joining by code, organizers adding players, deck lists, renaming (many at once: ``bulk_add``).

- ``player_register(tournament=, by=, user=None, name="", deck=None) -> Player`` — yourself, or (organizers) a
  guest by name. An account's entry carries the account's display name; only organizers choose another.
- ``player_join(code=, by=, deck=None, text="") -> Player`` — a signed-in player joins with the event's join
  code, optionally with one of their decks or a pasted list; the code expires when registration closes.
- ``player_submit_deck`` / ``player_submit_pool`` — register a frozen snapshot of a list (or a pool).
- ``player_rename(player=, by=, name=)`` — organizers, audited in ``EntryChange``.
- ``registration_freeze``, ``player_add_late`` (a late entry during the Swiss rounds, see ``late_entry``).

Past the event's cap a new entry waits in line (``waitlist``); a signed-in player whose name matches a guest
entry is offered that entry (``claims``) rather than a second one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.api import MissingReference, StateConflict

from ..models import EntryChange, Player, Tournament
from ..permissions import is_organizer, require_organizer
from ..printables import decklists
from .common import announce, format_uses_pool, game_rules
from .late_entry import late_entry_open, late_entry_refusal, latest_swiss_round
from .names import MAX_NAME, claim_candidates, display_name
from .official_ids import official_id_of
from .waitlist import entry_goes_to_waitlist

# Checks a higher layer adds from its AppConfig.ready() (limited/: a pool dealt by the event is frozen for its
# player): each is called as guard(tournament=..., player=..., organizer=...) before a pool is registered and
# refuses by raising ValidationError / PermissionDenied.
POOL_GUARDS: list[Any] = []


def normalize_join_code(code: str) -> str:
    """Codes are read aloud and typed on phones: ignore case, spaces and dashes."""
    return "".join(ch for ch in str(code).upper() if ch.isalnum())


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
    *,
    tournament: Tournament,
    by: Any,
    user: Any = None,
    name: str = "",
    deck: Any = None,
    over_cap: bool = False,
) -> Player:
    """A player joins (``user`` = ``by``) or an organizer adds a guest by name (``user`` None); an organizer's
    ``over_cap`` entry takes a place past the cap (audited)."""
    organizer = is_organizer(tournament, by)
    if over_cap and not organizer:
        raise PermissionDenied(_("Only organizers may add a player over the cap."))
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
        raise StateConflict(_("Registration for this event is closed."))
    # A player cannot enter under someone else's name: an account's entry shows its display name.
    name = (name or "").strip() if organizer else ""
    name = name or (display_name(user) if user is not None else "")
    _check_name(name)
    player = _create_entry(tournament=tournament, user=user, name=name, over_cap=over_cap, by=by)
    if deck is not None:
        player_submit_deck(player=player, by=by, deck=deck)
    announce(tournament.pk, "players")
    return player


def _check_name(name: str) -> None:
    if not name:
        raise ValidationError({"name": _("A guest needs a name.")})
    if len(name) > MAX_NAME:
        raise ValidationError({"name": _("The name is longer than 150 characters.")})


def _create_entry(
    *,
    tournament: Tournament,
    user: Any,
    name: str,
    joined_round: int = 1,
    over_cap: bool = False,
    by: Any = None,
) -> Player:
    """Insert the entry; a second entry of the same account (two taps, two tabs) is refused, never a 500.

    The check before the insert answers the usual case; the unique constraint settles simultaneous requests,
    inside a savepoint so the caller's transaction survives the refused insert.
    """
    already = _("%(name)s is already registered.")
    if user is not None and tournament.players.filter(user=user).exists():
        raise StateConflict(already % {"name": display_name(user)})
    full = over_cap and entry_goes_to_waitlist(tournament)
    waitlisted = False if over_cap else entry_goes_to_waitlist(tournament)
    try:
        with transaction.atomic():
            player = Player.objects.create(
                tournament=tournament, user=user, name=name, joined_round=joined_round, waitlisted=waitlisted,
                official_id=official_id_of(user, tournament.game),
            )  # fmt: skip
    except IntegrityError:
        raise StateConflict(already % {"name": display_name(user) if user is not None else name}) from None
    if full and joined_round == 1:
        EntryChange.objects.create(
            player=player, changed_by=by, action="register", old=None, new={"over_cap": True}
        )
    return player


def join_code_check(*, tournament: Tournament, by: Any, code: str) -> None:
    """Registering yourself for an event by its id needs the event's join code: the code is what keeps an
    event to the people in the room (anyone can read an open event's id). Organizers need none."""
    if is_organizer(tournament, by):
        return
    if not tournament.join_code or normalize_join_code(code or "") != tournament.join_code:
        raise PermissionDenied(
            _("Joining this event needs its join code (on the poster, or ask the organizer).")
        )


def tournament_by_join_code(code: str) -> Tournament:
    """The event a join code opens, or a ValidationError saying the code is wrong or has expired."""
    normalized = normalize_join_code(code)
    tournament = (
        Tournament.objects.select_related("game").filter(join_code=normalized).first() if normalized else None
    )
    if tournament is None:
        raise MissingReference({"code": _("No event has the join code %(code)s; check it and try again.")
                                 % {"code": str(code)[:20]}})  # fmt: skip
    if registration_open(tournament) or late_entry_open(tournament):
        return tournament
    if tournament.status == Tournament.Status.RUNNING and latest_swiss_round(tournament) > 0:
        raise StateConflict(
            {
                "code": _(
                    "The join code of %(event)s has expired: late entry closed at the end of round %(n)s."
                )
                % {"event": tournament.name, "n": tournament.late_entry_until_round}
            }
        )
    raise StateConflict(
        {
            "code": _("The join code of %(event)s has expired: registration is closed.")
            % {"event": tournament.name}
        }
    )


@transaction.atomic
def player_consent_set(*, player: Player, by: Any, consent: bool | None) -> Player:
    """Record the player's answer to "may the public see my list when the event opens lists?". The player
    answers for themselves; an organizer records the answer of a guest (given on paper at the desk)."""
    own = by is not None and by.is_authenticated and player.user_id is not None and player.user_id == by.id
    if not own and not is_organizer(player.tournament, by):
        raise PermissionDenied(_("Only the player decides whether their list may be published."))
    Player.objects.filter(pk=player.pk).update(publish_consent=consent)
    player.publish_consent = consent
    return player


def player_join(*, code: str, by: Any, deck: Any = None, payload: Mapping[str, Any] | None = None,
                text: str = "", new_entry: bool = False, judged: JudgedDeck | None = None) -> Player:  # fmt: skip
    """A signed-in player joins the event of ``code`` in one step, with a deck of theirs or a pasted list.

    After the start (while late entry is open) they join as a late entry. When a guest entry of the event
    may be theirs (same name), they must choose: claim it (``claims.player_claim``) or ``new_entry``.
    The list is parsed and judged first (``registration_deck_judge``, or ``judged`` when the caller did it
    before opening its own transaction); only then does the short write transaction open.
    """
    if by is None or not by.is_authenticated:
        raise PermissionDenied(_("Log in to register."))
    tournament = tournament_by_join_code(code)
    if tournament.players.filter(user=by).exists():
        raise StateConflict(_("You are already registered for %(event)s.") % {"event": tournament.name})
    if tournament.team_size > 1:
        # An entry on no team could never be paired: teams are registered whole.
        raise StateConflict(
            _("%(event)s is a team event: the organizer registers each team with its members (ask them at the "
              "desk); a lone entry cannot play.") % {"event": tournament.name}
        )  # fmt: skip
    candidates = [] if new_entry else claim_candidates(tournament, by)
    if candidates:
        raise ValidationError(
            {
                "claim": _(
                    "%(event)s already has an entry under your name: %(entries)s. Say whether it is you: "
                    "claim it, or join as a new entry."
                )
                % {"event": tournament.name, "entries": ", ".join(f"{p.name} (#{p.pk})" for p in candidates)}
            }
        )
    if judged is None and (deck is not None or payload is not None or (text or "").strip()):
        judged = registration_deck_judge(tournament=tournament, by=by, deck=deck, payload=payload, text=text)
    with transaction.atomic():
        if tournament.status == Tournament.Status.REGISTRATION:
            player = player_register(tournament=tournament, by=by, user=by)
        else:
            player = _late_entry(tournament=tournament, by=by, user=by, name=display_name(by))
        if judged is not None:
            player_submit_deck(player=player, by=by, judged=judged)
    return player


@transaction.atomic
def player_rename(*, player: Player, by: Any, name: str) -> Player:
    """Organizers correct the name an entry shows (pairings, slips, standings); audited."""
    tournament = Tournament.objects.get(pk=player.tournament_id)
    require_organizer(tournament, by)
    name = (name or "").strip()
    _check_name(name)
    old = player.name
    if name == old:
        return player
    player.name = name
    player.save(update_fields=["name"])
    EntryChange.objects.create(
        player=player, changed_by=by, action="rename", old={"name": old}, new={"name": name}
    )
    announce(tournament.pk, "players")
    return player


@dataclass(frozen=True)
class JudgedDeck:
    """A list parsed, resolved and judged legal, before any write (see ``registration_deck_judge``)."""

    snapshot: decklists.Snapshot
    pool: decklists.Snapshot | None
    report: dict[str, Any]
    source_deck: Any
    pool_given: bool


def registration_deck_judge(
    *, tournament: Tournament, by: Any, deck: Any = None, payload: Mapping[str, Any] | None = None,
    pool: Any = None, text: str | bytes = "", filename: str = "", player_pool: decklists.Snapshot | None = None,
) -> JudgedDeck:  # fmt: skip
    """Parse, resolve and judge a list for ``tournament`` without writing anything.

    The slow part of registering a list (parsing pasted text, resolving names, the rules engine) runs here,
    outside any transaction: on SQLite every transaction holds the one write lock from its first statement,
    and a request that parsed inside one made every other writer in the venue wait. Refused (ValidationError)
    when the list is unreadable or illegal for the event's format and ban list.
    """
    if deck is None and payload is None and (text.strip() if isinstance(text, str) else text):
        snapshot = decklists.snapshot_from_text(
            game=tournament.game, format_slug=tournament.format_slug, text=text, filename=filename,
            house_sideboard=tournament.allow_sideboard,
        )  # fmt: skip
    elif deck is not None:
        if deck.game_id != tournament.game_id:
            raise ValidationError({"deck": _("That deck is for another game.")})
        deck_check_own(deck, by)
        snapshot = decklists.snapshot_from_deck(deck)
    elif payload is not None:
        snapshot = decklists.snapshot_from_payload(game=tournament.game, payload=payload)
    else:
        raise ValidationError({"deck": _("Choose a deck to register.")})
    pool_snapshot = player_pool
    if pool is not None:
        if not isinstance(pool, Mapping):
            deck_check_own(pool, by)
        pool_snapshot = (
            decklists.snapshot_from_payload(game=tournament.game, payload=pool)
            if isinstance(pool, Mapping)
            else decklists.snapshot_from_deck(pool)
        )
    report = decklists.validate_snapshot(tournament=tournament, snapshot=snapshot, pool=pool_snapshot)
    if not report.get("legal", False):
        problems = [v.get("message", str(v)) for v in report.get("violations", [])][:10]
        raise ValidationError(
            {"deck": [_("This deck is not legal for the event's format and ban list."), *problems]}
        )
    return JudgedDeck(snapshot, pool_snapshot, report, deck, pool is not None)


def deck_check_own(deck: Any, by: Any) -> None:
    """Only the deck's owner registers it, organizers included: a player's deck (private or not) is never
    used for them without them. An organizer registering someone else enters the list as their own deck (a
    copy they own, shown as entered by the organizer), or the player joins and picks their deck themselves."""
    if by is None or not getattr(by, "is_authenticated", False) or deck.owner_id != by.pk:
        raise PermissionDenied(
            _(
                "Only a deck's owner can register it. Ask the player to join and choose their deck "
                "themselves, or enter the list as a deck of your own."
            )
        )


def player_submit_deck(
    *, player: Player, by: Any, deck: Any = None, payload: Mapping[str, Any] | None = None,
    pool: Any = None, text: str | bytes = "", filename: str = "", judged: JudgedDeck | None = None,
) -> Player:  # fmt: skip
    """Register a deck: a copy (snapshot) of ``deck`` (a ``decks.Deck``), an inline ``payload``, or a list
    pasted/uploaded as ``text`` in any supported deck format (or a list ``judged`` already).

    Limited formats check the deck against the player's pool (``pool`` given here, or registered before
    with ``player_submit_pool``). Refused when the list is illegal for the event's format and ban list, or
    after the freeze (an organizer may still register a late entry's first list). The list is judged before
    the write transaction opens; the transaction itself only re-checks the freeze and the pool and saves.
    """
    tournament = Tournament.objects.select_related("game", "banlist").get(pk=player.tournament_id)
    organizer = _check_deck_access(tournament, player, by)
    if decks_frozen(tournament) and not (player.deck is None and (organizer or _late_first_list(player))):
        raise StateConflict(_("Deck lists are frozen: registration has closed."))
    if judged is None:
        judged = registration_deck_judge(
            tournament=tournament, by=by, deck=deck, payload=payload, pool=pool, text=text,
            filename=filename, player_pool=player.pool,
        )  # fmt: skip
    with transaction.atomic():
        tournament.refresh_from_db(fields=["status", "registration_deadline", "registration_frozen_at"])
        current = Player.objects.filter(pk=player.pk).values_list("pool", "deck").first()
        if current is None:
            raise ValidationError(_("This entry no longer exists."))
        if decks_frozen(tournament) and not (current[1] is None and (organizer or _late_first_list(player))):
            raise StateConflict(_("Deck lists are frozen: registration has closed."))
        report = judged.report
        if not judged.pool_given and current[0] != judged.pool:
            # The pool changed while the list was judged (a second tab): judge against the registered one.
            report = decklists.validate_snapshot(
                tournament=tournament, snapshot=judged.snapshot, pool=current[0]
            )
            if not report.get("legal", False):
                raise ValidationError(
                    {"deck": _("This deck is not legal for the event's format and ban list.")}
                )
        player.deck = judged.snapshot
        player.pool = judged.pool if judged.pool_given else current[0]
        player.deck_report = report
        player.deck_submitted_at = timezone.now()
        player.source_deck = judged.source_deck
        # Anyone but the player's own account (an organizer at the desk, a guest's list) entered this list.
        player.deck_entered_by_organizer = player.user_id is None or getattr(by, "pk", None) != player.user_id
        player.save(
            update_fields=[
                "deck",
                "pool",
                "deck_report",
                "deck_submitted_at",
                "source_deck",
                "deck_entered_by_organizer",
            ]
        )
        announce(tournament.pk, "decks")
    return player


def _late_first_list(player: Player) -> bool:
    """A late entry registers its first list itself while late entry is open (others did before the start)."""
    return EntryChange.objects.filter(player=player, action="late_entry").exists() and late_entry_open(
        Tournament.objects.get(pk=player.tournament_id)
    )


def _check_deck_access(tournament: Tournament, player: Player, by: Any) -> bool:
    """The player themself or an organizer, in a game played with decks; returns "is an organizer"."""
    organizer = is_organizer(tournament, by)
    if not organizer and (by is None or player.user_id != by.id):
        raise PermissionDenied(_("You can only register your own deck."))
    if not game_rules(tournament.game).has_decks:
        raise StateConflict(_("%(game)s is played without decks.") % {"game": tournament.game.name})
    return organizer


def player_submit_pool(
    *, player: Player, by: Any, pool: Mapping[str, Any] | None = None, text: str | bytes = "",
    filename: str = "",
) -> Player:  # fmt: skip
    """Limited formats: register the cards the player received (inline ``pool`` or a pasted/uploaded list).

    A deck registered earlier stays only if it is still legal with the new pool; otherwise it is removed
    so the player registers a deck built from this pool (nothing illegal is ever left registered). The pool
    is parsed and resolved before the (short) write transaction opens.
    """
    tournament = Tournament.objects.select_related("game", "banlist").get(pk=player.tournament_id)
    organizer = _check_deck_access(tournament, player, by)
    if not format_uses_pool(tournament):
        raise StateConflict(_("This format does not use a card pool."))
    if decks_frozen(tournament) and not (organizer and player.deck is None):
        raise StateConflict(_("Deck lists are frozen: registration has closed."))
    for guard in POOL_GUARDS:
        guard(tournament=tournament, player=player, organizer=organizer)
    if pool is not None:
        snapshot = decklists.snapshot_from_payload(game=tournament.game, payload=pool)
    else:
        snapshot = decklists.snapshot_from_text(
            game=tournament.game, format_slug=tournament.format_slug, text=text, filename=filename,
            field="pool", as_pool=True,
        )  # fmt: skip
    deck = Player.objects.filter(pk=player.pk).values_list("deck", flat=True).first()
    report = (
        decklists.validate_snapshot(tournament=tournament, snapshot=deck, pool=snapshot) if deck else None
    )
    with transaction.atomic():
        tournament.refresh_from_db(fields=["status", "registration_deadline", "registration_frozen_at"])
        current = Player.objects.filter(pk=player.pk).values_list("deck", flat=True).first()
        if decks_frozen(tournament) and not (organizer and current is None):
            raise StateConflict(_("Deck lists are frozen: registration has closed."))
        if current != deck:  # a deck registered meanwhile (a second tab): judge it with the new pool
            deck = current
            report = (
                decklists.validate_snapshot(tournament=tournament, snapshot=deck, pool=snapshot)
                if deck
                else None
            )
        player.pool = snapshot
        player.deck = deck
        fields = ["pool"]
        if deck is not None and report is not None:
            if report.get("legal", False):
                player.deck_report = report
            else:
                player.deck = player.deck_report = player.deck_submitted_at = player.source_deck = None
                fields += ["deck", "deck_submitted_at", "source_deck"]
            fields.append("deck_report")
        player.save(update_fields=fields)
        announce(tournament.pk, "decks")
    return player


@transaction.atomic
def registration_freeze(*, tournament: Tournament, by: Any) -> Tournament:
    """Close registration and freeze every registered list (they are snapshots already)."""
    require_organizer(tournament, by)
    if tournament.registration_frozen_at is None:
        tournament.registration_frozen_at = timezone.now()
        tournament.save(update_fields=["registration_frozen_at"])
        announce(tournament.pk, "registration")
    return tournament


@transaction.atomic
def player_add_late(
    *, tournament: Tournament, by: Any, name: str = "", user: Any = None, over_cap: bool = False
) -> Player:
    """Organizers add a late entry — a guest by name, or an existing account (``user``) whose phone then
    works as any player's — while late entry is open (``late_entry.late_entry_refusal`` says why not). At
    the cap the entry waits in line unless ``over_cap``."""
    require_organizer(tournament, by)
    tournament.refresh_from_db()
    refusal = late_entry_refusal(tournament)
    if refusal is not None:
        raise ValidationError(refusal)
    name = (name or "").strip() or (display_name(user) if user is not None else "")
    return _late_entry(tournament=tournament, by=by, user=user, name=name, over_cap=over_cap)


def _late_entry(*, tournament: Tournament, by: Any, user: Any, name: str, over_cap: bool = False) -> Player:
    """The entry plays from the next Swiss round to be paired; the missed ones follow the event's policy."""
    _check_name(name)
    joined = latest_swiss_round(tournament) + 1
    full = over_cap and entry_goes_to_waitlist(tournament)
    player = _create_entry(
        tournament=tournament, user=user, name=name, joined_round=joined, over_cap=over_cap
    )
    EntryChange.objects.create(
        player=player, changed_by=by, action="late_entry", old=None,
        new={"joined_round": joined, "user": user.pk if user is not None else None,
             "missed_rounds": "loss" if tournament.late_entry_losses else "nothing",
             "waitlisted": player.waitlisted, **({"over_cap": True} if full else {})},
    )  # fmt: skip
    announce(tournament.pk, "players")
    return player
