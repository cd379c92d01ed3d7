"""The pairing report's codes in words (the engine and the report speak in codes; people read these)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from ..models import Match, Round, Tournament


def reason_line(code: str, params: dict[str, Any]) -> str:
    """One line: why a player met this opponent, or got the bye."""
    if code == "same_points":
        return _("Why this opponent: same points (%(points)s).") % params
    if code == "paired_down":
        return _("Why this opponent: you were paired down from %(from)s points (opponent: %(to)s).") % params
    if code == "paired_up":
        return _("Why this opponent: they were paired down from %(from)s points to meet you.") % params
    if code == "lowest_without_bye":
        return _("Bye: you are the lowest-ranked player without a bye (%(points)s points).") % params
    if code == "lower_players_had_byes":
        return _("Bye: everyone below %(points)s points has already had a bye.") % params
    if code == "lower_bye_forces_rematch":
        return _("Bye: a bye lower down would have forced a rematch (%(points)s points).") % params
    return ""


def bye_reason_report(code: str, points: int) -> str:
    """Why a player got the bye, for the round's public report (third person)."""
    params = {"points": points}
    if code == "lowest_without_bye":
        return _("the lowest-ranked player without a bye (%(points)s points)") % params
    if code == "lower_players_had_byes":
        return _("everyone below %(points)s points has already had a bye") % params
    if code == "lower_bye_forces_rematch":
        return _("a bye lower down would have forced a rematch (%(points)s points)") % params
    return ""


def why_opponent(
    tournament: Tournament, round_: Round | None, match: Match | None, player_id: int, opponent_id: int | None
) -> str:
    """My event's "why this opponent" line for the player's match in a two-player Swiss round, else ''.

    A pairing needs only the two players' points (one small query); the bye's reason needs the whole round
    (cached per pairing, and only the one player with the bye asks).
    """
    if (
        round_ is None
        or match is None
        or round_.kind != Round.Kind.SWISS
        or tournament.match_format == Tournament.MatchFormat.PODS
        or tournament.team_size > 1
    ):
        return ""
    from .report import opponent_reasons, pairing_points_of

    if match.bye:
        found = opponent_reasons(round_, tournament).get(player_id)
        return reason_line(*found) if found else ""
    if opponent_id is None:
        return ""
    points = pairing_points_of(round_, tournament, [player_id, opponent_id])
    mine, theirs = points[player_id], points[opponent_id]
    if mine == theirs:
        return reason_line("same_points", {"points": mine})
    if mine > theirs:
        return reason_line("paired_down", {"from": mine, "to": theirs})
    return reason_line("paired_up", {"from": theirs, "to": mine})
