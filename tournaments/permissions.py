"""Who may do what in an event. Services call these; views only use them to show or hide controls."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _

from .models import Match, MatchSeat, Player, Tournament


def can_organize_any(user: Any) -> bool:
    return bool(user is not None and user.is_authenticated and getattr(user, "can_organize", False))


def is_organizer(tournament: Tournament, user: Any) -> bool:
    """The creator, a co-organizer or staff."""
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff or tournament.created_by_id == user.id:
        return True
    # Cached per tournament instance: list pages and templates ask many times.
    cache = tournament.__dict__.setdefault("_co_organizer_ids", None)
    if cache is None:
        cache = set(tournament.co_organizers.values_list("id", flat=True))
        tournament.__dict__["_co_organizer_ids"] = cache
    return user.id in cache


def require_organizer(tournament: Tournament, user: Any) -> None:
    if not is_organizer(tournament, user):
        raise PermissionDenied(_("Only the organizers of this event may do that."))


def player_for_user(tournament: Tournament, user: Any) -> Player | None:
    if user is None or not user.is_authenticated:
        return None
    return tournament.players.filter(user=user).first()


def seat_player_ids(match: Match) -> list[int]:
    return [seat.player_id for seat in match.seats.all()]


def user_seat_player(match: Match, user: Any) -> Player | None:
    """The player of this match that the user is, if any."""
    if user is None or not user.is_authenticated:
        return None
    for seat in match.seats.all():
        if seat.player.user_id == user.id:
            return seat.player
    return None


# The decklist timeline. Each stage of an event says what the public (anyone who is neither the list's
# player nor an organizer) sees of the registered lists:
#   closed      nothing — not even whether a list exists beyond "registered";
#   archetypes  the archetype label (and the rule that matched), never a card;
#   open        the lists — at the top_cut stage only the lists of the players in the cut (the others stay at
#               "archetypes": the cut is what the audience watches, the rest could still be scouted by
#               nobody but it is not news yet); at "finished" every list.
# Consent: a list is "open" to the public only for a player who said yes at registration
# (publish_consent=True). A player who declined, or was never asked (a guest added by name), shows as
# "list private": the archetype label still shows wherever the stage shows archetypes, since it is the
# event's metagame and not the list. Events without a timeline keep the old switch (publish_decklists:
# finished → open) and count a never-asked player as consenting, as the event had announced it; an explicit
# "no" is honoured there too.
DECKLIST_STAGES = ("registration", "swiss", "top_cut", "finished")
DECKLIST_LEVELS = ("closed", "archetypes", "open")
_STAGE_OF_STATUS = {
    Tournament.Status.REGISTRATION: "registration",
    Tournament.Status.RUNNING: "swiss",
    Tournament.Status.TOP_CUT: "top_cut",
    Tournament.Status.FINISHED: "finished",
}


def decklist_stage(tournament: Tournament) -> str:
    return _STAGE_OF_STATUS.get(tournament.status, "registration")


def decklist_timeline(tournament: Tournament) -> dict[str, str]:
    """The four stages, each with its level; filled in from the legacy switch when the event has none."""
    stored = tournament.decklist_timeline or {}
    if not stored:
        finished = "open" if tournament.publish_decklists else "closed"
        return {**dict.fromkeys(DECKLIST_STAGES, "closed"), "finished": finished}
    return {stage: stored.get(stage, "closed") for stage in DECKLIST_STAGES}


def cut_player_ids(tournament: Tournament) -> set[int]:
    """Players seated in a top-cut round (cached on the instance: list pages ask once per player)."""
    cached = tournament.__dict__.get("_cut_player_ids")
    if cached is None:
        cached = set(
            MatchSeat.objects.filter(
                match__round__tournament=tournament, match__round__kind="top_cut"
            ).values_list("player_id", flat=True)
        )
        tournament.__dict__["_cut_player_ids"] = cached
    return cached


def decklist_level(tournament: Tournament, player: Player, user: Any) -> str:
    """What ``user`` may see of ``player``'s registered list now: "list", "archetype" or "none".
    The one place that decides; every page, printable, export and API answer asks here."""
    if is_organizer(tournament, user):
        return "list"
    if (
        user is not None
        and user.is_authenticated
        and player.user_id is not None
        and player.user_id == user.id
    ):
        return "list"
    level = decklist_timeline(tournament)[decklist_stage(tournament)]
    if level == "closed":
        return "none"
    if level == "archetypes":
        return "archetype"
    if tournament.status == Tournament.Status.TOP_CUT and player.pk not in cut_player_ids(tournament):
        return "archetype"
    consent = player.publish_consent
    if consent is None:
        consent = not tournament.decklist_timeline  # legacy events: the announcement was the consent
    return "list" if consent else "archetype"


def can_see_decklist(tournament: Tournament, player: Player, user: Any) -> bool:
    return decklist_level(tournament, player, user) == "list"


def list_is_private(tournament: Tournament, player: Player, user: Any) -> bool:
    """The stage opens lists but this player's stays closed for want of consent: "list private"."""
    consent = player.publish_consent
    if consent is None:
        consent = not tournament.decklist_timeline
    return (
        not consent
        and decklist_level(tournament, player, user) == "archetype"
        and decklist_timeline(tournament)[decklist_stage(tournament)] == "open"
    )
