"""Parsing and checking reported results against the game's rules (first player, match length, pods).

Helpers over plain values that refuse with a ValidationError in the reader's words (so they live beside the
services, not in the Django-free ``engine/``); the services call them before anything is written.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from ..engine import first_player, pods
from ..engine_messages import reason


def parse_games(
    games: Sequence[Mapping[str, Any]], seat_of: Mapping[int, int]
) -> list[tuple[int | None, int | None]]:
    """``[{"winner": player_id | null, "first": player_id}]`` → ``[(winner_seat | None, first_seat)]``."""
    if not isinstance(games, list | tuple) or not games:
        raise ValidationError({"games": _("Give at least one game.")})
    parsed: list[tuple[int | None, int | None]] = []
    for number, game in enumerate(games, start=1):
        if not isinstance(game, Mapping):
            raise ValidationError({"games": _("Game %(n)s must be an object.") % {"n": number}})
        winner, first = game.get("winner"), game.get("first")
        # Ids are integers; anything else (a list, an object) names nobody rather than failing the lookup.
        winner = winner if winner is None or isinstance(winner, int) else -1
        first = first if first is None or isinstance(first, int) else -1
        if winner is not None and winner not in seat_of:
            raise ValidationError(
                {
                    "games": _("Game %(n)s: the winner %(p)s is not a player of this match.")
                    % {"n": number, "p": winner}
                }
            )
        if first is None:
            raise ValidationError({"games": _("Game %(n)s: say who went first.") % {"n": number}})
        if first not in seat_of:
            raise ValidationError(
                {
                    "games": _("Game %(n)s: player %(p)s who went first is not in this match.")
                    % {"n": number, "p": first}
                }
            )
        parsed.append((seat_of[winner] if winner is not None else None, seat_of[first]))
    return parsed


def check_first_players(
    policy: str, games: Sequence[tuple[int | None, int | None]], chooser: int | None
) -> None:
    """Reject a game sequence whose first players break the game's rule (twin-deck: previous loser goes first)."""
    records = [first_player.GameRecord(winner=w, first_player=f) for w, f in games]
    try:
        problems = first_player.validate_games(policy, (0, 1), records)
    except ValueError:
        problems = []
        policy = first_player.DEFAULT_POLICY
    if problems:
        problem = problems[0]
        decision = first_player.next_decision(policy, (0, 1), records[: problem.game_number - 1])
        raise ValidationError(
            {
                "games": _(
                    "Game %(n)s: the loser of the previous game goes first in this game, so player %(seat)s "
                    "(by the order of the match) should have gone first."
                )
                % {"n": problem.game_number, "seat": (decision.player or 0) + 1}
            }
        )


def games_to_result(games: Sequence[tuple[int | None, int | None]]) -> tuple[list[int], int]:
    wins = [0, 0]
    draws = 0
    for winner, _first in games:
        if winner is None:
            draws += 1
        else:
            wins[winner] += 1
    return wins, draws


def check_score(wins: Sequence[int], draws: int, *, need: int, top_cut: bool) -> None:
    """A best-of-``2·need−1`` score: nobody above ``need`` wins, not both at ``need``; a cut match has a winner."""
    if max(wins) > need:
        raise ValidationError(
            {"wins": _("Nobody can win more than %(n)s games in this match.") % {"n": need}}
        )
    if wins[0] == need and wins[1] == need:
        raise ValidationError({"wins": _("Both players cannot have won the match.")})
    if sum(wins) + draws == 0:
        raise ValidationError(
            {"wins": _("A result needs at least one game (0-0-3 for an intentional draw).")}
        )
    if top_cut and wins[0] == wins[1]:
        raise ValidationError(
            {"wins": _("A top cut match cannot end in a draw: play until there is a winner.")}
        )


def check_game_sequence(games: Sequence[tuple[int | None, int | None]], *, need: int) -> None:
    """No game may follow the one that decided the match."""
    wins = [0, 0]
    for number, (winner, _first) in enumerate(games, start=1):
        if max(wins) >= need:
            raise ValidationError(
                {"games": _("Game %(n)s was played after the match was already decided.") % {"n": number}}
            )
        if winner is not None:
            wins[winner] += 1


def parse_places(
    game_slug: str, player_ids: Sequence[int], rows: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """A pod game: ``[{"player", "score"?, "tiebreak"?, "place"?}]`` for every player of the pod.

    Vale: score = victory points, tiebreak = summoned cards; places follow the game's tie rule (shared places
    allowed). Everseal: score = opponents defeated; the first to defeat everyone places first. Other games
    give places directly.
    """
    if not isinstance(rows, list | tuple):
        raise ValidationError({"places": _("Places must be a list with one entry per player.")})
    by_player: dict[int, Mapping[str, Any]] = {}
    for row in rows:
        if not isinstance(row, Mapping) or row.get("player") not in player_ids:
            raise ValidationError({"places": _("Every entry needs the id of a player of this pod.")})
        if row["player"] in by_player:
            raise ValidationError({"places": _("Player %(p)s is listed twice.") % {"p": row["player"]}})
        for key in ("score", "tiebreak", "place"):
            value = row.get(key)
            if value is not None and (not isinstance(value, int) or value < 0):
                raise ValidationError(
                    {
                        "places": _("%(key)s of player %(p)s must be a non-negative integer.")
                        % {"key": key, "p": row["player"]}
                    }
                )
        by_player[row["player"]] = row
    missing = [pid for pid in player_ids if pid not in by_player]
    if missing:
        raise ValidationError(
            {
                "places": _("Every player of the pod needs a result; missing: %(m)s.")
                % {"m": ", ".join(map(str, missing))}
            }
        )
    try:
        if game_slug == "vale" and all(by_player[p].get("score") is not None for p in player_ids):
            places = pods.vale_places(
                [
                    pods.ValeResult(p, by_player[p]["score"], by_player[p].get("tiebreak") or 0)
                    for p in player_ids
                ]
            )
        elif game_slug == "everseal" and all(by_player[p].get("score") is not None for p in player_ids):
            places = pods.everseal_places([pods.EversealResult(p, by_player[p]["score"]) for p in player_ids])
        elif all(by_player[p].get("place") is not None for p in player_ids):
            places = {p: by_player[p]["place"] for p in player_ids}
            if any(not 1 <= v <= len(player_ids) for v in places.values()):
                raise ValueError(_("places go from 1 to the number of players"))
        else:
            raise ValueError(_("give every player's place, or the game score the places follow from"))
    except ValueError as error:
        raise ValidationError({"places": reason(error)}) from None
    return [
        {
            "player": p,
            "place": places[p],
            "score": by_player[p].get("score"),
            "tiebreak": by_player[p].get("tiebreak"),
        }
        for p in player_ids
    ]


def pod_value_labels(game_slug: str) -> tuple[Any, Any]:
    """What a pod's ``score`` and ``tiebreak`` mean in this game, in words (the second is None when unused).

    The meanings follow ``parse_places`` above (Vale: victory points then summoned cards; Everseal: opponents
    defeated); other games report places and a score of their own.
    """
    from django.utils.translation import gettext_lazy

    labels = {
        "vale": (gettext_lazy("Victory points"), gettext_lazy("Summoned cards")),
        "everseal": (gettext_lazy("Opponents defeated"), None),
    }
    return labels.get(game_slug, (gettext_lazy("Score"), gettext_lazy("Tiebreak")))
