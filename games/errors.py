"""Errors the engine raises for input it cannot judge (as opposed to an illegal deck, which is a report)."""

from __future__ import annotations

from typing import Any


class RulesError(ValueError):
    """The request cannot be validated at all. ``key`` and ``params`` say why for the edge to word in the
    requester's language (``rules.messages.error_message``); the message is the English of logs and
    scripts (and all a rule-set author's RuleSetError has)."""

    def __init__(self, message: str, *, key: str = "", **params: Any) -> None:
        super().__init__(message)
        self.key = key
        self.params = params


class RuleSetError(RulesError):
    """A rule-set data file is malformed; the message names the file and the key."""


class NoDecksError(RulesError):
    """The game is played without player decks, so there is nothing to validate."""
