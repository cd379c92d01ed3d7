"""Two-Headed Giant in the players' standings: a team's one game is seated on its seat A player, so seat B's
member is credited with the same game, against the other team's seat B (their opponents' record is then
the opposing team's, as seat A's is). Kept apart from ``records.py`` (which calls these two functions) so the
history read stays the same for every other event; pairing and team standings never see these copies."""

from __future__ import annotations

import dataclasses
from typing import Any

from ..models import TeamMember, Tournament


def two_headed_partners(tournament: Tournament) -> dict[int, int]:
    """Seat A's player id -> seat B's, for every complete team of a Two-Headed Giant event (one query)."""
    seats: dict[int, dict[int, int]] = {}
    for team_id, seat, player_id in TeamMember.objects.filter(team__tournament=tournament).values_list(
        "team_id", "seat", "player_id"
    ):
        seats.setdefault(team_id, {})[seat] = player_id
    return {by_seat[0]: by_seat[1] for by_seat in seats.values() if 0 in by_seat and 1 in by_seat}


def two_headed_records(played: list[Any], partners: dict[int, int]) -> list[Any]:
    """The standings engine's match records for the seat B members: each seat-A record (a shared game, or
    the team's bye) again with every seated player replaced by their partner."""
    if not partners:
        return []
    copies = []
    for record in played:
        if record.missed or not all(pid in partners for pid in record.players):
            continue
        copies.append(dataclasses.replace(record, players=tuple(partners[pid] for pid in record.players)))
    return copies
