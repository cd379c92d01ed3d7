"""The validation report: the same shape in Python, the CLI and the API.

``{"legal": bool, "violations": [{"code", "message", "section", "card", "count", "limit"}], "warnings": [...]}``
Every message exists in English and Russian and names the card, section, count and limit involved.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

CODES = (
    "section_size",
    "section_card_type",
    "copy_limit",
    "banlist_forbidden",
    "banlist_limit",
    "not_on_whitelist",
    "hero_missing",
    "hero_restriction",
    "unknown_card",
    "not_in_pool",
    "sideboard_swap",
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


@dataclass(slots=True)
class Report:
    violations: list[Violation] = field(default_factory=list)
    warnings: list[Violation] = field(default_factory=list)

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

    def to_dict(self, lang: str = "en") -> dict[str, Any]:
        return {
            "legal": self.legal,
            "violations": [v.to_dict(lang) for v in self.violations],
            "warnings": [w.to_dict(lang) for w in self.warnings],
        }
