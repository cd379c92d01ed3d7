"""Creating an event and changing its settings.

- ``tournament_create(created_by=, name=, game=, format_slug=, …) -> Tournament`` — organizers only; the event
  gets a random seed and a join code (``Tournament.join_code``, see ``new_join_code``).
- ``tournament_update(tournament=, by=, **fields)`` — settings in ``EDITABLE_ALWAYS`` any time, those in
  ``EDITABLE_BEFORE_ROUND_1`` until round 1 is paired.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from cards.models import Game
from config.api import Unprocessable

from ..models import JOIN_CODE_ALPHABET, JOIN_CODE_LENGTH, Tournament
from ..permissions import DECKLIST_LEVELS, DECKLIST_STAGES, can_organize_any, require_organizer
from .common import MAX_SEED, TOP_CUT_SIZES, announce, game_rules
from .registration import freeze_if_deadline_passed
from .waitlist import waitlist_promote

# Settings whose valid values depend on the game (its formats, whether it is played in pods, its ban
# lists): a refusal of these alone is a 422, the rest are malformed requests (400).
GAME_DEPENDENT = frozenset({"format", "match_format", "banlist"})


def new_join_code() -> str:
    """A random code nobody else uses (6 symbols of an alphabet without look-alikes)."""
    while True:
        code = "".join(secrets.choice(JOIN_CODE_ALPHABET) for _ in range(JOIN_CODE_LENGTH))
        if not Tournament.objects.filter(join_code=code).exists():
            return code


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
    rated: bool = True,
    late_entry_losses: bool = True,
    publish_decklists: bool = False,
    decklist_timeline: dict[str, str] | None = None,
    round_minutes: int = 50,
    draft_pairings: bool = False,
    co_organizers: Sequence[Any] = (),
    team_size: int = 1,
    team_mode: str = "seats",
    capacity: int | None = None,
    late_entry_until_round: int = 2,
) -> Tournament:
    if not can_organize_any(created_by):
        raise PermissionDenied(_("Only organizers may create tournaments."))
    rules = game_rules(game)
    errors: dict[str, str] = {}
    # Settings that are each valid but cannot go together (README "Errors": 422, unless something is malformed).
    unfit: dict[str, str] = {}
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
        unfit["tiebreakers"] = _(
            "The pods tiebreak policy goes with the pods match format, and only with it."
        )
    if rounds is not None and not 1 <= rounds <= 30:
        errors["rounds"] = _("Swiss rounds must be between 1 and 30.")
    if top_cut not in TOP_CUT_SIZES:
        errors["top_cut"] = _("Top cut must be 0 (none) or from 2 to 64 players.")
    elif top_cut and match_format == Tournament.MatchFormat.PODS:
        unfit["top_cut"] = _("Pod events have no single-elimination top cut.")
    if seed is not None and not 0 <= seed < MAX_SEED:
        errors["seed"] = _("The seed must be a non-negative integer below 2^62.")
    if not 1 <= round_minutes <= 600:
        errors["round_minutes"] = _("Round time must be between 1 and 600 minutes.")
    if team_size not in (1, 2, 3):
        errors["team_size"] = _("Teams have 2 or 3 players (1: no teams).")
    elif team_size > 1 and match_format == Tournament.MatchFormat.PODS:
        unfit["team_size"] = _("Team events are not played in pods.")
    elif team_size == 2 and team_mode != "2hg" and top_cut:
        unfit["team_size"] = _(
            "A top cut of teams needs teams of 3 or Two-Headed Giant: two seat matches can split."
        )
    if team_mode not in ("seats", "2hg"):
        errors["team_mode"] = _("Team mode must be seats or 2hg.")
    elif team_mode == "2hg" and team_size != 2:
        unfit["team_mode"] = _("Two-Headed Giant is played by teams of 2: set team_size to 2.")
    if banlist is not None and getattr(banlist, "game_id", game.pk) != game.pk:
        errors["banlist"] = _("That ban list belongs to another game.")
    errors.update(
        _entry_setting_errors(
            capacity=capacity,
            late_entry_until_round=late_entry_until_round,
            decklist_timeline=decklist_timeline,
        )
    )
    _refuse(errors, unfit=unfit)
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
        rated=rated,
        late_entry_losses=late_entry_losses,
        publish_decklists=publish_decklists,
        decklist_timeline=decklist_timeline or {},
        round_minutes=round_minutes,
        draft_pairings=bool(draft_pairings),
        team_size=team_size,
        team_mode=team_mode,
        capacity=capacity,
        late_entry_until_round=late_entry_until_round,
        created_by=created_by,
        join_code=new_join_code(),
    )
    if co_organizers:
        tournament.co_organizers.set([u for u in co_organizers if u.pk != created_by.pk])
    return tournament


def _refuse(errors: dict[str, str], *, unfit: dict[str, str]) -> None:
    """One status per refusal (README "Errors"): anything malformed is 400 with every problem listed; else
    settings that cannot go together, or that this game does not have, are 422 (each under its field, so
    the settings pages show them where they belong)."""
    unfit = {**unfit, **{key: errors.pop(key) for key in list(errors) if key in GAME_DEPENDENT}}
    if errors:
        raise ValidationError({**unfit, **errors})
    if unfit:
        raise Unprocessable(unfit)


def _entry_setting_errors(**fields: Any) -> dict[str, str]:
    errors = {}
    timeline = fields.get("decklist_timeline") or {}
    if not isinstance(timeline, dict) or any(
        stage not in DECKLIST_STAGES or level not in DECKLIST_LEVELS for stage, level in timeline.items()
    ):
        errors["decklist_timeline"] = _(
            "Deck list visibility: each stage (registration, swiss, top_cut, finished) is closed, archetypes "
            "or open."
        )
    capacity = fields.get("capacity")
    if capacity is not None and (not isinstance(capacity, int) or not 1 <= capacity <= 100_000):
        errors["capacity"] = _("The player cap must be a whole number from 1 to 100000 (blank: no cap).")
    until = fields.get("late_entry_until_round", 0)
    if not isinstance(until, int) or not 0 <= until <= 30:
        errors["late_entry_until_round"] = _("Late entry must end after a round from 0 (none) to 30.")
    return errors


EDITABLE_ALWAYS = (
    "name", "publish_decklists", "round_minutes", "late_entry_losses", "allow_sideboard", "draft_pairings", "rated",
    "capacity", "late_entry_until_round", "decklist_timeline",
)  # fmt: skip
EDITABLE_BEFORE_ROUND_1 = (
    "rounds", "top_cut", "deck_registration", "registration_deadline", "banlist", "on_date",
)  # fmt: skip


@transaction.atomic
def tournament_update(*, tournament: Tournament, by: Any, **fields: Any) -> Tournament:
    """Change settings. Rounds, cut, ban list and registration settings are editable until round 1 is paired."""
    require_organizer(tournament, by)
    started = tournament.round_set.exists()
    errors: dict[str, str] = {}
    unfit: dict[str, str] = {}
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
        errors["top_cut"] = _("Top cut must be 0 (none) or from 2 to 64 players.")
    elif fields.get("top_cut") and tournament.team_size == 2 and tournament.team_mode != "2hg":
        unfit["top_cut"] = _(
            "A top cut of teams needs teams of 3 or Two-Headed Giant: two seat matches can split."
        )
    if "name" in fields and not str(fields["name"]).strip():
        errors["name"] = _("The event needs a name.")
    errors.update(
        _entry_setting_errors(
            **{
                k: fields[k]
                for k in ("capacity", "late_entry_until_round", "decklist_timeline")
                if k in fields
            }
        )
    )
    _refuse(errors, unfit=unfit)
    co = fields.pop("co_organizers", None)
    for key, value in fields.items():
        setattr(tournament, key, value)
    if fields:
        tournament.save(update_fields=list(fields))
    if co is not None:
        tournament.co_organizers.set([u for u in co if u.pk != tournament.created_by_id])
        tournament.__dict__.pop("_co_organizer_ids", None)
    if "capacity" in fields:
        # A raised (or removed) cap frees places: the waitlist moves up at once.
        waitlist_promote(tournament=tournament, by=by)
    announce(tournament.pk, "settings")
    return tournament
