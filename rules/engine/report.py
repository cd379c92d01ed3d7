"""The validation report: the same shape in Python, the CLI and the API.

``{"legal": bool, "violations": [{"code", "key", "params", "message", "section", "card", "count", "limit"}],
"warnings": [...], "rules": {"game", "format", "version", "effective_date"}}`` — ``rules`` names the version of
the format the deck was judged by (a format may change on a date).

The engine speaks in codes: a violation carries its ``code`` (what went wrong, a stable API value), its
message ``key`` (which sentence says it, ``code.variant``) and named ``params`` — numbers, card names, and
data labels as ``{"en": ..., "ru": ...}`` tables from the rule set. It builds no sentence: the words live in
the site's translation catalogues (rules/messages.py), which registers itself here with `set_renderer` when
Django starts, so ``message`` is rendered in whatever language is asked for.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import Any

CODES = (
    "section_size",
    "section_card_type",
    "copy_limit",
    "banlist_forbidden",
    "banlist_limit",
    "not_on_whitelist",
    "hero_missing",
    "hero_count",
    "hero_restriction",
    "unknown_card",
    "not_in_pool",
    "sideboard_swap",
    "unreadable_line",
)


def label(en: str, ru: str | None = None, **others: str) -> dict[str, str]:
    """A data label players read, per language (English always): rendered in the requester's language,
    English when the rule set has no word for it."""
    out = {"en": en}
    if ru:
        out["ru"] = ru
    out.update({lang: text for lang, text in others.items() if text})
    return out


def _plain(violation: Violation, lang: str) -> str:
    # Without the site's catalogues (the engine used on its own) a message is its key and parameters.
    return f"{violation.key} {violation.params}"


_renderer: Callable[[Violation, str], str] = _plain


def set_renderer(renderer: Callable[[Violation, str], str]) -> None:
    """Install the function that turns a violation into words (rules/messages.py does, at start-up)."""
    global _renderer
    _renderer = renderer


@dataclass(slots=True)
class Violation:
    code: str
    key: str
    params: dict[str, Any] = field(default_factory=dict)
    section: str | None = None
    card: str | None = None
    count: int | None = None
    limit: int | None = None

    def render(self, lang: str) -> str:
        return _renderer(self, lang)

    @property
    def message(self) -> str:
        return _renderer(self, "en")

    @property
    def message_ru(self) -> str:
        return _renderer(self, "ru")

    def to_dict(self, lang: str = "en") -> dict[str, Any]:
        return {
            "code": self.code,
            "key": self.key,
            "params": self.params,
            "message": _renderer(self, lang),
            "section": self.section,
            "card": self.card,
            "count": self.count,
            "limit": self.limit,
        }


@dataclass(frozen=True, slots=True)
class RulesUsed:
    """Which rule set judged a deck: the format's version in force on the validation date."""

    game: str
    format: str
    version: str
    effective_date: date | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "format": self.format,
            "version": self.version,
            "effective_date": self.effective_date.isoformat() if self.effective_date else None,
        }


@dataclass(slots=True)
class Report:
    violations: list[Violation] = field(default_factory=list)
    warnings: list[Violation] = field(default_factory=list)
    rules: RulesUsed | None = None

    @property
    def legal(self) -> bool:
        return not self.violations

    def codes(self) -> list[str]:
        return [v.code for v in self.violations]

    def add(self, violation: Violation, *, provisional: bool = False) -> None:
        # Provisional rules (unpublished or decided by us) warn instead of failing the deck.
        (self.warnings if provisional else self.violations).append(violation)

    def extend(self, other: Report) -> None:
        self.violations.extend(other.violations)
        self.warnings.extend(other.warnings)
        if self.rules is None:
            self.rules = other.rules

    def to_dict(self, lang: str = "en") -> dict[str, Any]:
        out: dict[str, Any] = {
            "legal": self.legal,
            "violations": [v.to_dict(lang) for v in self.violations],
            "warnings": [w.to_dict(lang) for w in self.warnings],
        }
        if self.rules is not None:
            out["rules"] = self.rules.to_dict()
        return out
