"""Team deck construction (pure Python): which cards two teammates' decks may not both hold.

``team_conflicts(rule, decks)`` applies a format's ``team`` rule (``registry.TeamRule``) to the decks of one
team, each with a label the messages use (the deck's name); it returns every card found in more than one of
them, with the first two decks holding it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.cards import CardInfo, Deck
from games.registry import TeamRule

__all__ = ["TeamConflict", "team_conflicts"]


@dataclass(frozen=True, slots=True)
class TeamConflict:
    card: str
    decks: tuple[str, str]


def _key(rule: TeamRule, card: CardInfo) -> str:
    return (card.identity if rule.key == "identity" else card.name).casefold()


def team_conflicts(rule: TeamRule, decks: Sequence[tuple[str, Deck]]) -> list[TeamConflict]:
    """Cards in more than one teammate's deck that the rule restricts, in the order the decks list them."""
    first_seen: dict[str, tuple[str, str]] = {}
    conflicts: dict[str, TeamConflict] = {}
    for label, deck in decks:
        seen_here: set[str] = set()
        for slug in rule.scope:
            for card, count in deck.sections.get(slug, ()):
                if count <= 0 or (rule.filter is not None and not rule.filter(card)):
                    continue
                key = _key(rule, card)
                if key in seen_here:
                    continue
                seen_here.add(key)
                if key not in first_seen:
                    first_seen[key] = (card.label, label)
                elif key not in conflicts:
                    conflicts[key] = TeamConflict(first_seen[key][0], (first_seen[key][1], label))
    return list(conflicts.values())
