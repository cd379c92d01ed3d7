"""The words of audit trails: the audit rows store codes (``action = "report"``, a result as
``{"wins": [2, 1], "status": "reported", ...}``); pages render them here, through the catalogues, in the
reader's language. Adding a language is a catalogue; adding an action is one line in ``ACTIONS``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext, gettext_lazy, pgettext_lazy

from ..models import Match

# ResultChange.action / EntryChange.action → what happened, as the result-history table says it.
ACTIONS: dict[str, Any] = {
    "report": pgettext_lazy("result history", "reported"),
    "enter": pgettext_lazy("result history", "entered by an organizer"),
    "game": pgettext_lazy("result history", "game saved"),
    "finish": pgettext_lazy("result history", "ended early"),
    "confirm": pgettext_lazy("result history", "confirmed"),
    "dispute": pgettext_lazy("result history", "disputed"),
    "correct": pgettext_lazy("result history", "corrected"),
    "resolve": pgettext_lazy("result history", "dispute resolved"),
    "check_in": pgettext_lazy("entry history", "checked in"),
    "check_out": pgettext_lazy("entry history", "check-in undone"),
    "undo_no_show": pgettext_lazy("entry history", "no-show undone"),
    "undo_drop": pgettext_lazy("entry history", "drop undone"),
    "rename": pgettext_lazy("entry history", "renamed"),
    "late_entry": pgettext_lazy("entry history", "late entry"),
    "link": pgettext_lazy("entry history", "linked to an account"),
    "claim": pgettext_lazy("entry history", "claimed by its player"),
    "promote": pgettext_lazy("entry history", "moved up from the waitlist"),
}

# Match.ended_by → how a match ended before it was played out.
ENDINGS: dict[str, Any] = {
    "time": gettext_lazy("on time"),
    "concession": gettext_lazy("by concession"),
    "intentional_draw": gettext_lazy("intentional draw"),
}

_STATUSES = dict(Match.Status.choices)


def action_text(code: str) -> str:
    """The action in words; a code this version does not know (an older row) is shown as stored."""
    label = ACTIONS.get(code)
    return str(label) if label is not None else code


def result_text(result: Mapping[str, Any] | None) -> str:
    """A stored result in words: "2–1 reported", "1–1–1 final, on time", "places 1, 3, 2, 4 confirmed"."""
    if not isinstance(result, Mapping):
        return "—"
    if isinstance(result.get("places"), list):
        places = ", ".join(str(p.get("place") or "—") for p in result["places"] if isinstance(p, Mapping))
        score = gettext("places %(places)s") % {"places": places}
    else:
        wins = [str(w) for w in result.get("wins") or []]
        if result.get("draws"):
            wins.append(str(result["draws"]))
        score = "–".join(wins)
    status = result.get("status")
    words = [score] if score else []
    if status:
        words.append(str(_STATUSES.get(status, status)))
    text = " ".join(words)
    ending = result.get("ended_by")
    if ending:
        text = gettext("%(result)s, %(ending)s") % {"result": text, "ending": ENDINGS.get(ending, ending)}
    return text or "—"


def audit_rows(changes: Any) -> list[dict[str, Any]]:
    """Result-history rows as the match page lists them: the row plus its action and results in words."""
    return [
        {"change": c, "action": action_text(c.action), "old": result_text(c.old) if c.old else "—",
         "new": result_text(c.new)}
        for c in changes
    ]  # fmt: skip
