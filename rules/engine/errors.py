"""Errors the engine raises for input it cannot judge (as opposed to an illegal deck, which is a report)."""

from __future__ import annotations


class RulesError(ValueError):
    """The request cannot be validated at all; the message says why in plain words."""


class RuleSetError(RulesError):
    """A rule-set data file is malformed; the message names the file and the key."""


class NoDecksError(RulesError):
    """The game is played without player decks, so there is nothing to validate."""
