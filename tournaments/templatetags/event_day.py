"""Template helpers of the event-day pages."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django import template
from django.utils.html import format_html_join
from django.utils.safestring import SafeString

register = template.Library()


@register.simple_tag
def deck_lines(lines: Iterable[Mapping[str, Any]]) -> SafeString:
    """A deck section's ``<li>`` lines ("3 × Name", names escaped). In Python rather than a template loop:
    every phone's page carries its whole deck, and after a round is posted 2,000 of them are rendered
    within seconds — the loop's per-line template machinery was most of that page's cost."""
    return format_html_join("", "<li>{} × {}</li>", ((int(line["count"]), line["name"]) for line in lines))


@register.filter
def get_item(mapping: Mapping[Any, Any] | None, key: Any) -> Any:
    """``mapping[key]`` or None: per-player counts on the organizer's pages."""
    return None if mapping is None else mapping.get(key)


@register.filter
def clock(seconds: Any) -> str:
    """Seconds as a clock reads them, ``36:51`` or ``1:02:05`` (a paused round's time left, never "2211 s")."""
    try:
        total = max(0, int(float(seconds)))
    except (TypeError, ValueError):
        return ""
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


@register.filter
def seat_name(seat: Any) -> str:
    """Who holds a seat of a match: the team ("Blue Mages (alice & bob)") in Two-Headed Giant, where the seat
    is its seat A player's (``reads.teams.label_two_headed_seats`` sets the label), else the player's name."""
    return getattr(seat, "team_label", "") or seat.player.name
