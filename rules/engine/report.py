"""The validation report: the same shape in Python, the CLI and the API.

``{"legal": bool, "violations": [{"code", "message", "section", "card", "count", "limit"}], "warnings": [...],
"rules": {"game", "format", "version", "effective_date"}}`` — ``rules`` names the version of the format the
deck was judged by (a format may change on a date). Every message exists in English and Russian and names
the card, section, count and limit involved.
"""

from __future__ import annotations

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


@dataclass(slots=True)
class Violation:
    code: str
    message: str
    message_ru: str
    section: str | None = None
    card: str | None = None
    count: int | None = None
    limit: int | None = None

    def to_dict(self, lang: str = "en") -> dict[str, Any]:
        return {
            "code": self.code,
            "message": self.message_ru if lang == "ru" else self.message,
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
