"""Tags on deck lines: the player's own words ("combo", "hand trap", "board wipe"), several per line.

A line is (section, card id); tags follow the line through versions (the snapshot's "tags" maps
"section:card id" to the list), restores and copies. They never reach validation or play formats."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext

from cards.models import Card

from .models import Deck

LineTags = dict[tuple[str, int], list[str]]

MAX_TAG_LENGTH = 40
MAX_TAGS_PER_LINE = 10


def clean_tag_list(raw: Sequence[Any], *, where: str) -> list[str]:
    """Trimmed, de-duplicated (case-insensitively, first spelling kept), each 1–40 characters, ≤ 10."""
    out: list[str] = []
    seen: set[str] = set()
    for tag in raw:
        if not isinstance(tag, str):
            raise ValidationError({"tags": gettext("%(where)s: a tag is text") % {"where": where}})
        text = " ".join(tag.split())
        if not text:
            continue
        if len(text) > MAX_TAG_LENGTH or any(ord(ch) < 32 for ch in text):
            raise ValidationError(
                {"tags": gettext("%(where)s: the tag %(tag)r is longer than 40 characters or has control "
                                 "characters") % {"where": where, "tag": text[:50]}}
            )  # fmt: skip
        if text.casefold() not in seen:
            seen.add(text.casefold())
            out.append(text)
    if len(out) > MAX_TAGS_PER_LINE:
        raise ValidationError({"tags": gettext("%(where)s: at most 10 tags on one line") % {"where": where}})
    return out


def check_tags(tags: Mapping[tuple[str, int], Sequence[Any]]) -> LineTags:
    return {
        key: cleaned
        for key, raw in tags.items()
        if (cleaned := clean_tag_list(raw, where=f"{key[0]} #{key[1]}"))
    }


def current_tags(deck: Deck) -> LineTags:
    return {
        (section, card_id): list(tags)
        for section, card_id, tags in deck.entries.values_list("section", "card_id", "tags")
        if tags
    }


def tags_snapshot(sections: Mapping[str, Sequence[tuple[Card, int]]], tags: LineTags) -> dict[str, list[str]]:
    """The tags of the lines the version holds, keyed "section:card id" (JSON keys are text)."""
    return {
        f"{slug}:{card.pk}": tags[(slug, card.pk)]
        for slug, lines in sections.items()
        for card, _count in lines
        if tags.get((slug, card.pk))
    }


def tags_from_snapshot(snapshot: Mapping[str, Any]) -> LineTags:
    out: LineTags = {}
    for key, tags in (snapshot.get("tags") or {}).items():
        section, _sep, card_id = str(key).rpartition(":")
        if section and card_id.isdecimal() and isinstance(tags, list):
            out[(section, int(card_id))] = [str(t) for t in tags]
    return out


def deck_line_tags(deck: Deck) -> dict[str, dict[str, list[str]]]:
    """section → {card id (text): tags}, for the API's deck lines and the builder."""
    out: dict[str, dict[str, list[str]]] = {}
    for (section, card_id), tags in current_tags(deck).items():
        out.setdefault(section, {})[str(card_id)] = tags
    return out


def check_folder(folder: str) -> str:
    text = " ".join((folder or "").split())
    if len(text) > 80:
        raise ValidationError({"folder": gettext("a folder name has at most 80 characters")})
    return text
