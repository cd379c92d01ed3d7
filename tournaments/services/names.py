"""The names an account goes by, and which guest entries (added by name) may be that account's.

A player pre-registered by name ("Erin Park", added in bulk) who then joins with their account (``erin``)
should take over that entry rather than get a second one. The match is deliberately generous — the same
full name, the same username, or a first name equal to the username or the account's first name — because
it only *offers* the entry ("this is me"); the player confirms, and the claim is audited.
"""

from __future__ import annotations

from typing import Any

from ..models import Player, Tournament

MAX_NAME = 150


def display_name(user: Any) -> str:
    """The name an account plays under: its full name, else its username."""
    return (user.get_full_name() or user.username).strip()[:MAX_NAME]


def _fold(text: str) -> str:
    return " ".join(str(text or "").casefold().split())


def account_names(user: Any) -> tuple[set[str], set[str]]:
    """(whole names, first names) an account may have been written down under, case-folded."""
    whole = {_fold(display_name(user)), _fold(user.username), _fold(user.get_full_name())} - {""}
    first = {_fold(user.username), _fold(getattr(user, "first_name", ""))} - {""}
    return whole, first


def name_matches(name: str, user: Any) -> bool:
    whole, first = account_names(user)
    folded = _fold(name)
    return folded in whole or (folded.split(" ", 1)[0] in first if folded else False)


def claim_candidates(tournament: Tournament, user: Any) -> list[Player]:
    """Guest entries of the event still in it (not dropped) whose name may be this account's."""
    if user is None or not user.is_authenticated:
        return []
    guests = tournament.players.filter(user__isnull=True, dropped_at_round__isnull=True).order_by("id")
    return [p for p in guests if name_matches(p.name, user)]
