"""The pure rules engine: plain typed data in, a report out. No Django import anywhere in this package.

Entry points: :func:`validate_deck`, :func:`apply_sideboard`, :func:`default_registry`.
"""

from __future__ import annotations

from games.cards import BanListInfo, CardInfo, Deck, UnknownCard
from games.errors import NoDecksError, RulesError, RuleSetError
from games.filters import compile_filter, describe_filter
from games.registry import (
    CopyLimitRules,
    FormatRules,
    GameRules,
    Registry,
    SearchFilter,
    SectionRules,
    SizeRule,
    default_registry,
    load_registry,
)

from .report import CODES, Report, Violation
from .sideboard import Swap, apply_sideboard
from .validate import validate_deck

__all__ = [
    "CODES",
    "BanListInfo",
    "CardInfo",
    "CopyLimitRules",
    "Deck",
    "FormatRules",
    "GameRules",
    "NoDecksError",
    "Registry",
    "Report",
    "RuleSetError",
    "RulesError",
    "SearchFilter",
    "SectionRules",
    "SizeRule",
    "Swap",
    "UnknownCard",
    "Violation",
    "apply_sideboard",
    "compile_filter",
    "default_registry",
    "describe_filter",
    "load_registry",
    "validate_deck",
]
