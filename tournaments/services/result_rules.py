"""Parsing and checking reported results against the game's rules (first player, match length, pods).

Helpers over plain values that refuse with a ValidationError in the reader's words (so they live beside the
services, not in the Django-free ``engine/``); the services call them before anything is written.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from config.api import Unprocessable

from ..engine import first_player, pods
from ..pairings.refusals import reason

# A parsed game: (winner seat | None for a drawn game, first seat, chooser seat | None).
ParsedGame = tuple[int | None, int | None, int | None]


def parse_games(games: Sequence[Mapping[str, Any]], seat_of: Mapping[int, int]) -> list[ParsedGame]:
    """``[{"winner": id | null, "first": id, "chooser"?: id | null}]`` → ``[(winner, first, chooser)]`` seats."""
    if not isinstance(games, list | tuple) or not games:
        raise ValidationError({"games": _("Give at least one game.")})
    parsed: list[ParsedGame] = []
    for number, game in enumerate(games, start=1):
        if not isinstance(game, Mapping):
            raise ValidationError({"games": _("Game %(n)s must be an object.") % {"n": number}})
        winner, first, chooser = game.get("winner"), game.get("first"), game.get("chooser")
        # Ids are integers; anything else (a list, an object) names nobody rather than failing the lookup.
        winner = winner if winner is None or isinstance(winner, int) else -1
        first = first if first is None or isinstance(first, int) else -1
        chooser = chooser if chooser is None or isinstance(chooser, int) else -1
        if winner is not None and winner not in seat_of:
            raise Unprocessable(
                {
                    "games": _("Game %(n)s: the winner %(p)s is not a player of this match.")
                    % {"n": number, "p": winner}
                }
            )
        if first is None:
            raise ValidationError({"games": _("Game %(n)s: say who went first.") % {"n": number}})
        if first not in seat_of:
            raise Unprocessable(
                {
                    "games": _("Game %(n)s: player %(p)s who went first is not in this match.")
                    % {"n": number, "p": first}
                }
            )
        if chooser is not None and chooser not in seat_of:
            raise Unprocessable(
                {
                    "games": _("Game %(n)s: player %(p)s who chose who goes first is not in this match.")
                    % {"n": number, "p": chooser}
                }
            )
        parsed.append(
            (seat_of[winner] if winner is not None else None, seat_of[first],
             seat_of[chooser] if chooser is not None else None)
        )  # fmt: skip
    return parsed


def check_first_players(
    policy: str, games: Sequence[ParsedGame], *, seeded: int | None = None, refill_after: int | None = None
) -> list[ParsedGame]:
    """Refuse a game sequence whose first players or choosers break the game's rule; return it with every
    chooser the rule determines filled in (the loser of the previous game, the higher seed ``seeded`` in game
    1 of a top-cut match), so who chose is recorded even when a report leaves it out.

    ``refill_after``: a game was corrected, so the choosers the rule determines in the games after it are
    filled in again rather than checked (the stored ones followed the old result)."""
    try:
        policy = first_player.Policy(policy)
    except ValueError:
        policy = first_player.DEFAULT_POLICY
    if refill_after is not None:
        games = _refill_choosers(policy, games, seeded=seeded, after=refill_after)
    records = [first_player.GameRecord(winner=w, first_player=f, chooser=c) for w, f, c in games]
    problems = first_player.validate_games(policy, (0, 1), records, seeded=seeded)
    if problems:
        raise ValidationError({"games": _first_player_refusal(problems[0], seeded=seeded)})
    completed: list[ParsedGame] = []
    for number, (winner, first, chooser) in enumerate(games, start=1):
        decision = first_player.next_decision(policy, (0, 1), records[: number - 1], seeded=seeded)
        if chooser is None and decision.action is first_player.Action.CHOOSES and not decision.toss:
            chooser = decision.player
        completed.append((winner, first, chooser))
    return completed


def _refill_choosers(
    policy: first_player.Policy, games: Sequence[ParsedGame], *, seeded: int | None, after: int
) -> list[ParsedGame]:
    refilled: list[ParsedGame] = []
    for number, (winner, first, chooser) in enumerate(games, start=1):
        if number > after:
            previous = [first_player.GameRecord(winner=w, first_player=f) for w, f, _c in refilled]
            decision = first_player.next_decision(policy, (0, 1), previous, seeded=seeded)
            if not decision.toss:
                chooser = decision.player if decision.action is first_player.Action.CHOOSES else None
        refilled.append((winner, first, chooser))
    return refilled


def _first_player_refusal(problem: first_player.Inconsistency, *, seeded: int | None) -> str:
    n = problem.game_number
    expected = problem.params.get("expected")
    seat = (expected or 0) + 1
    if problem.code == "should_have_gone_first":
        return _(
            "Game %(n)s: the loser of the previous game goes first in this game, so player %(seat)s "
            "(by the order of the match) should have gone first."
        ) % {"n": n, "seat": seat}
    if problem.code == "should_have_chosen" and n == 1 and seeded is not None:
        return _(
            "Game 1: in the top cut the higher seed chooses who goes first, so player %(seat)s "
            "(by the order of the match) should have chosen."
        ) % {"seat": seat}
    if problem.code == "should_have_chosen":
        return _(
            "Game %(n)s: the loser of the previous game chooses who goes first, so player %(seat)s "
            "(by the order of the match) should have chosen."
        ) % {"n": n, "seat": seat}
    return _(
        "Game %(n)s: nobody chooses who goes first in this game (the toss winner, then the loser of the "
        "previous game, goes first); leave the chooser out."
    ) % {"n": n}


def games_to_result(games: Sequence[ParsedGame]) -> tuple[list[int], int]:
    wins = [0, 0]
    draws = 0
    for winner, *_rest in games:
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


def check_game_sequence(games: Sequence[ParsedGame], *, need: int, top_cut: bool = False) -> None:
    """No game may follow the one that decided the match, nor go past the match's length (``game_limit``)."""
    from .common import game_limit

    wins = [0, 0]
    drawn = 0
    for number, (winner, *_rest) in enumerate(games, start=1):
        if max(wins) >= need:
            raise ValidationError(
                {"games": _("Game %(n)s was played after the match was already decided.") % {"n": number}}
            )
        limit = game_limit(need, drawn=drawn)
        if number > limit:
            raise ValidationError({"games": too_many_games(number, need=need, top_cut=top_cut, limit=limit)})
        if winner is None:
            drawn += 1
        else:
            wins[winner] += 1


def too_many_games(number: int, *, need: int, top_cut: bool, limit: int) -> str:
    """Why game ``number`` cannot be played, in the reader's words."""
    from .common import EXTRA_DRAWS

    if top_cut:
        return _(
            "There is no game %(n)s: this top cut match can have %(limit)s games at most (each drawn game adds "
            "one, up to %(extra)s). An organizer enters the result."
        ) % {"n": number, "limit": limit, "extra": EXTRA_DRAWS}
    return _(
        "There is no game %(n)s: this match can have %(limit)s games at most (each drawn game adds one, up to "
        "%(extra)s). If time is up, end the match with the games played."
    ) % {"n": number, "limit": limit, "extra": EXTRA_DRAWS}


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
            raise Unprocessable({"places": _("Every entry needs the id of a player of this pod.")})
        if row["player"] in by_player:
            raise Unprocessable({"places": _("Player %(p)s is listed twice.") % {"p": row["player"]}})
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
        raise Unprocessable(
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
        raise Unprocessable({"places": reason(error)}) from None
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
