"""The versioned results document of an event (``/api/tournaments/{id}/results.json``), for other tools.

Its shape is fixed by ``results/schemas/results-v1.schema.json``: a change that breaks a reader bumps
``version`` (and adds a schema file); additions that old readers can ignore do not. Lists and archetypes go in
only as far as the event's deck list timeline and each player's consent allow the asking user now — the same
``tournaments.permissions.decklist_level`` every page asks.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from tournaments.models import Match, Round, Tournament
from tournaments.reads.selectors import standings_compute

from .selectors import decklists_visible

VERSION = 1
SCHEMA_ID = "https://deckhall.example/schemas/results-v1.schema.json"


def results_document(tournament: Tournament, user: Any) -> dict[str, Any]:
    lists = decklists_visible(tournament, user)
    by_player = {entry["player"]: entry for entry in lists["players"]}
    standings = [
        {"rank": row["rank"], "player": row["player"], "name": row["name"], "points": row["points"],
         "wins": row["wins"], "losses": row["losses"], "draws": row["draws"], "dropped": bool(row["dropped"]),
         "top_cut": row.get("top_cut"), "tiebreakers": row.get("tiebreakers") or {}}
        for row in standings_compute(tournament=tournament)
    ] if tournament.round_set.exists() else []  # fmt: skip
    rounds = []
    # Draft rounds are the organizers' until published: never in a public document.
    published = tournament.round_set.filter(draft=False).order_by("number")
    matches = (
        Match.objects.filter(round__in=published)
        .prefetch_related("seats", "games")
        .order_by("round__number", "table")
    )
    per_round: dict[int, list[dict[str, Any]]] = {}
    for match in matches:
        seats = sorted(match.seats.all(), key=lambda seat: seat.seat)
        players = [seat.player_id for seat in seats]
        per_round.setdefault(match.round_id, []).append({
            "table": match.table,
            "bye": match.bye,
            "status": match.status,
            "players": players,
            "wins": [seat.wins for seat in seats],
            "draws": match.draws,
            "games": [{"number": g.number,
                       "winner": players[g.winner_seat] if g.winner_seat is not None and g.winner_seat < len(players)
                       else None} for g in sorted(match.games.all(), key=lambda g: g.number)],
        })  # fmt: skip
    for round_ in published:
        rounds.append({"number": round_.number, "kind": round_.kind,
                       "top_cut": round_.kind == Round.Kind.TOP_CUT, "matches": per_round.get(round_.pk, [])})  # fmt: skip
    return {
        "$schema": SCHEMA_ID,
        "version": VERSION,
        "generated_at": timezone.now().isoformat(),
        "tournament": {
            "id": tournament.pk, "name": tournament.name, "game": tournament.game.slug,
            "format": tournament.format_slug, "status": tournament.status, "stage": lists["stage"],
            "rounds": tournament.rounds, "top_cut": tournament.top_cut, "decklists": lists["timeline"],
        },
        "standings": standings,
        "rounds": rounds,
        "players": [
            {"id": pid, "name": entry["name"], "archetype": entry["archetype"], "list": entry["list"],
             "list_private": entry["list_private"]}
            for pid, entry in by_player.items()
        ],
    }  # fmt: skip
