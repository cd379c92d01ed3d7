"""Reads of the deck lists and the metagame, each through tournaments.permissions.decklist_level."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from tournaments.models import Match, MatchSeat, Tournament
from tournaments.permissions import decklist_level, decklist_stage, decklist_timeline, list_is_private

from .services import archetypes_of


def decklists_visible(tournament: Tournament, user: Any) -> dict[str, Any]:
    """Every player with what ``user`` may see of their list now: the list, the archetype, or nothing."""
    labels = archetypes_of(tournament)
    entries = []
    for player in tournament.players.filter(waitlisted=False).order_by("name", "pk"):
        level = decklist_level(tournament, player, user)
        label = labels.get(player.pk)
        entries.append({
            "player": player.pk,
            "name": player.name,
            "archetype": {"name": label.name, "rule": label.rule} if level != "none" and label else None,
            "list": player.deck if level == "list" else None,
            "list_private": list_is_private(tournament, player, user),
        })  # fmt: skip
    return {
        "stage": decklist_stage(tournament),
        "timeline": decklist_timeline(tournament),
        "players": entries,
    }


def metagame(tournament: Tournament, user: Any) -> dict[str, Any]:
    """Archetype share, conversion into the cut, match win rates and the archetype-vs-archetype matrix, over
    the decks whose archetype ``user`` may see now (nothing before the timeline shows archetypes)."""
    labels = archetypes_of(tournament)
    players = list(tournament.players.filter(waitlisted=False, deck__isnull=False))
    named: dict[int, str] = {}
    entries = []
    # The most played cards count only the lists the viewer may read now: a count is part of a list.
    cards: dict[str, list[int]] = defaultdict(lambda: [0, 0])  # copies, decks
    readable = 0
    for player in players:
        if decklist_level(tournament, player, user) == "list":
            readable += 1
            seen = set()
            for slug, lines in (player.deck or {}).get("sections", {}).items():
                for line in lines if slug != "side" else ():
                    cards[line.get("name", "?")][0] += int(line.get("count", 0))
                    seen.add(line.get("name", "?"))
            for name in seen:
                cards[name][1] += 1
        label = labels.get(player.pk)
        if decklist_level(tournament, player, user) == "none" or label is None:
            continue
        named[player.pk] = label.name  # "": in review (no rule, or two)
        entries.append({"player": player.pk, "name": player.name,
                        "archetype": {"name": label.name, "rule": label.rule},
                        "list_visible": decklist_level(tournament, player, user) == "list",
                        "list_private": list_is_private(tournament, player, user)})  # fmt: skip
    cut = set(
        MatchSeat.objects.filter(
            match__round__tournament=tournament, match__round__kind="top_cut"
        ).values_list("player_id", flat=True)
    )
    counts: dict[str, int] = defaultdict(int)
    cut_counts: dict[str, int] = defaultdict(int)
    for pid, name in named.items():
        counts[name] += 1
        cut_counts[name] += pid in cut
    record: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])  # wins, losses, draws
    matrix: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0])
    matches = (
        Match.objects.filter(round__tournament=tournament, bye=False)
        .exclude(status=Match.Status.PENDING)
        .prefetch_related("seats")
    )
    for match in matches:
        seats = list(match.seats.all())
        if len(seats) != 2 or seats[0].player_id not in named or seats[1].player_id not in named:
            continue
        a, b = seats
        for me, them in ((a, b), (b, a)):
            outcome = 0 if me.wins > them.wins else 1 if me.wins < them.wins else 2
            record[named[me.player_id]][outcome] += 1
            if named[me.player_id] != named[them.player_id] or me is a:
                matrix[(named[me.player_id], named[them.player_id])][outcome] += 1
    total = len(named)
    archetypes = []
    for name, count in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        w, lost, d = record[name]
        played = w + lost + d
        archetypes.append({
            "name": name, "count": count, "share": round(count / total, 4) if total else 0.0,
            "cut_count": cut_counts[name],
            "match_win_rate": round((w + d / 2) / played, 4) if played else None,
            "matches": played,
        })  # fmt: skip
    cells = [{"archetype": x, "opponent": y, "wins": v[0], "losses": v[1], "draws": v[2],
              "matches": sum(v)} for (x, y), v in sorted(matrix.items())]  # fmt: skip
    top_cards = [{"name": name, "copies": v[0], "decks": v[1]}
                 for name, v in sorted(cards.items(), key=lambda kv: (-kv[1][1], -kv[1][0], kv[0]))[:20]]  # fmt: skip
    return {"stage": decklist_stage(tournament), "players": total, "archetypes": archetypes,
            "top_cards": top_cards, "lists_counted": readable,
            "matrix": cells, "entries": entries}  # fmt: skip
