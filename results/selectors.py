"""Reads of the deck lists and the metagame, each through tournaments.permissions.decklist_level."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
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


@dataclass
class Tally:
    """Raw sums of one or more events, before shares and rates: events add up by adding tallies."""

    counts: Counter[str] = field(default_factory=Counter)
    cut_counts: Counter[str] = field(default_factory=Counter)
    record: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0, 0]))  # W, L, D
    matrix: dict[tuple[str, str], list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0, 0]))
    cards: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))  # copies, decks
    readable: int = 0
    entries: list[dict[str, Any]] = field(default_factory=list)


def tally(tournament: Tournament, user: Any, into: Tally | None = None) -> Tally:
    """One event's archetypes, matches and (readable) cards as ``user`` may see them now, added to ``into``."""
    t = into or Tally()
    labels = archetypes_of(tournament)
    players = list(tournament.players.filter(waitlisted=False, deck__isnull=False))
    named: dict[int, str] = {}
    for player in players:
        level = decklist_level(tournament, player, user)
        # The most played cards count only the lists the viewer may read now: a count is part of a list.
        if level == "list":
            t.readable += 1
            seen = set()
            for slug, lines in (player.deck or {}).get("sections", {}).items():
                for line in lines if slug != "side" else ():
                    t.cards[line.get("name", "?")][0] += int(line.get("count", 0))
                    seen.add(line.get("name", "?"))
            for name in seen:
                t.cards[name][1] += 1
        label = labels.get(player.pk)
        if level == "none" or label is None:
            continue
        named[player.pk] = label.name  # "": in review (no rule, or two)
        t.entries.append({"player": player.pk, "name": player.name,
                          "archetype": {"name": label.name, "rule": label.rule},
                          "list_visible": level == "list",
                          "list_private": list_is_private(tournament, player, user)})  # fmt: skip
    cut = set(
        MatchSeat.objects.filter(
            match__round__tournament=tournament, match__round__kind="top_cut"
        ).values_list("player_id", flat=True)
    )
    for pid, name in named.items():
        t.counts[name] += 1
        t.cut_counts[name] += pid in cut
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
            t.record[named[me.player_id]][outcome] += 1
            # A mirror match is one cell, counted once (from the first seat).
            if named[me.player_id] != named[them.player_id] or me is a:
                t.matrix[(named[me.player_id], named[them.player_id])][outcome] += 1
    return t


def summary(t: Tally) -> dict[str, Any]:
    total = sum(t.counts.values())
    archetypes = []
    for name, count in sorted(t.counts.items(), key=lambda kv: (-kv[1], kv[0])):
        w, lost, d = t.record[name]
        played = w + lost + d
        archetypes.append({
            "name": name, "count": count, "share": round(count / total, 4) if total else 0.0,
            "cut_count": t.cut_counts[name],
            "match_win_rate": round((w + d / 2) / played, 4) if played else None,
            "matches": played,
        })  # fmt: skip
    cells = [{"archetype": x, "opponent": y, "wins": v[0], "losses": v[1], "draws": v[2],
              "matches": sum(v)} for (x, y), v in sorted(t.matrix.items())]  # fmt: skip
    top_cards = [{"name": name, "copies": v[0], "decks": v[1]}
                 for name, v in sorted(t.cards.items(), key=lambda kv: (-kv[1][1], -kv[1][0], kv[0]))[:20]]  # fmt: skip
    return {"players": total, "archetypes": archetypes, "top_cards": top_cards, "lists_counted": t.readable,
            "matrix": cells, "entries": t.entries}  # fmt: skip


def metagame(tournament: Tournament, user: Any) -> dict[str, Any]:
    """Archetype share, conversion into the cut, match win rates and the archetype-vs-archetype matrix, over
    the decks whose archetype ``user`` may see now (nothing before the timeline shows archetypes)."""
    return {"stage": decklist_stage(tournament), **summary(tally(tournament, user))}


def metagame_of_events(tournaments: list[Tournament], user: Any) -> dict[str, Any]:
    """A series' or a date range's metagame: the events' tallies added up, each under its own timeline."""
    total = Tally()
    for tournament in tournaments:
        tally(tournament, user, total)
    return {"events": len(tournaments), **summary(total)}
