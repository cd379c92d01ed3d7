"""My draft's live box (``#live``): the seat, the pack the phone holds, the countdown, the player's own picks.

Joined in Python with every value escaped (``esc``: the standard library's, which Django's own escape wraps),
not rendered from a template: every changed poll of 2,000 drafting phones and every pick's answer renders it,
and through Django's template engine the box cost ~0.4 ms of a 2-core laptop's CPU per answer (~40 % of a
changed poll; bench/README.md, "Booster drafts in pods"). The words are the site's translations, escaped as
``{% translate %}`` escapes them; a sentence with numbers in it is the translation with only the numbers put
in, as ``{% blocktranslate %}`` does.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from html import escape as esc
from typing import Any

from django.template.defaultfilters import date as date_filter
from django.template.defaultfilters import time as time_filter
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext


def clock(deadline: datetime | None, now: datetime) -> str:
    """The pick's time left as draft.js counts it down (m:ss), so the page shows the same before its script runs."""
    if deadline is None:
        return ""
    left = max(0, round((deadline - now).total_seconds()))
    return f"{left // 60}:{left % 60:02d}"


def pack_items(pack: Sequence[str], cards: Mapping[str, Any]) -> str:
    """One button per card of the pack: pressing it submits the pack's one form with the card's key."""
    items = []
    for key in pack:
        card = cards.get(key)
        kind = f' <span class="muted small">{esc(card.card_type)}</span>' if card and card.card_type else ""
        items.append(
            f'<li><button type="submit" name="card" value="{esc(key)}" class="pick" data-testid="pick">'
            f"{esc(card.name if card else key)}{kind}</button></li>"
        )
    return "".join(items)


def picked_items(picks: Sequence[str], cards: Mapping[str, Any]) -> str:
    """A line "2 × Name" per card picked, by name."""
    named = sorted((cards[k].name if k in cards else "?", n) for k, n in Counter(picks).items())
    return "".join(f"<li>{n} × {esc(name)}</li>" for name, n in named)


def _build_link(tournament_id: int, testid: str = "") -> str:
    words = esc(_("Build your deck from your pool"))
    test = f' data-testid="{testid}"' if testid else ""
    url = esc(reverse("limited:build", args=[tournament_id]))
    return f'<a class="button" href="{url}"{test}>{words}</a>'


# Every gettext call stands outside the f-strings: makemessages (xgettext) does not look inside them.
def _no_seat(*, tournament_id: int, sealed: bool, started: bool, has_pool: bool) -> str:
    title = esc(_("My draft"))
    if sealed or not started:
        why = esc(_("The draft has not started yet: the organizer seats the pods."))
    else:
        why = esc(_("You have no seat in this draft."))
    pool = f"<p>{_build_link(tournament_id)}</p>" if has_pool else ""
    return f'<section class="tile"><h1>{title}</h1><p>{why}</p>{pool}</section>'


def _physical(tournament_id: int, has_pool: bool) -> str:
    follow = esc(
        _(
            "The packs are on the tables: follow the judge's calls. After the draft, enter the cards you drafted."
        )
    )
    enter_words = esc(_("Enter your pool"))
    enter = esc(reverse("limited:enter_pool", args=[tournament_id]))
    build = " " + _build_link(tournament_id) if has_pool else ""
    return (
        f'<p data-testid="draft-physical">{follow}</p>'
        f'<p><a class="button" href="{enter}" data-testid="enter-pool-link">{enter_words}</a>{build}</p>'
    )


def _finished(tournament_id: int, build_until: datetime | None) -> str:
    over = esc(_("The draft is over: your picks are your pool."))
    until = ""
    if build_until:
        words = esc(_("Deck building until %(t)s."), quote=False) % {
            "t": esc(time_filter(build_until, "H:i"))
        }
        until = f'<p data-testid="build-clock">{words}</p>'
    build = _build_link(tournament_id, "build-link")
    return f'<p data-testid="draft-finished"><strong>{over}</strong></p>{until}<p>{build}</p>'


def _position(state: Mapping[str, Any], now: datetime) -> str:
    where = esc(_("Pack %(pack)s, pick %(pick)s"), quote=False) % {
        "pack": int(state["pack_number"]), "pick": int(state["pick_in_pack"]),
    }  # fmt: skip
    passing = esc(_("passing left")) if state.get("passing") == "left" else esc(_("passing right"))
    out = f'<p data-testid="draft-position">{where} · {passing}</p>'
    if state.get("paused"):
        paused = esc(_("The organizer paused your pod."))
        out += f'<p class="warn" data-testid="draft-paused">{paused}</p>'
    elif state.get("deadline"):
        deadline = state["deadline"]
        out += (
            f'<p class="draft-timer" data-deadline="{esc(date_filter(deadline, "c"))}" '
            f'data-now="{esc(date_filter(now, "c"))}" data-testid="draft-timer" aria-live="off">'
            f"{esc(clock(deadline, now))}</p>"
        )
    return out


def _head(
    state: Mapping[str, Any],
    *,
    tournament_id: int,
    has_pool: bool,
    build_until: datetime | None,
    now: datetime,
) -> str:
    title = esc(_("Pod %(pod)s · seat %(seat)s of %(seats)s"), quote=False) % {
        "pod": int(state["pod"]), "seat": int(state["seat"]), "seats": int(state["seats"]),
    }  # fmt: skip
    if state.get("physical"):
        body = _physical(tournament_id, has_pool)
    elif state.get("finished"):
        body = _finished(tournament_id, build_until)
    else:
        body = _position(state, now)
    return f'<section class="tile draft-head" data-testid="draft-head"><h1>{title}</h1>{body}</section>'


def _pack(
    state: Mapping[str, Any],
    *,
    tournament_id: int,
    csrf_token: Callable[[], str] | None,
    cards: Mapping[str, Any],
) -> str:
    if state.get("finished") or state.get("physical"):
        return ""
    if state.get("waiting"):
        waiting = esc(_("Picked. Waiting for the pod to pass the next pack…"))
        return f'<p class="tile" data-testid="draft-waiting">{waiting}</p>'
    number = int(state["pick_number"])
    label = esc(_("Pick %(n)s") % {"n": number})
    title = esc(_("Your pack"))
    url = esc(reverse("limited:pick", args=[tournament_id]))
    token = (
        f'<input type="hidden" name="csrfmiddlewaretoken" value="{esc(csrf_token())}">' if csrf_token else ""
    )
    # One form, a button per card: the button pressed is the pick (the queue sends its name and value).
    return (
        f'<section class="tile"><h2>{title}</h2><form method="post" action="{url}" data-queue="{label}">'
        f"{token}"
        f'<input type="hidden" name="pick_number" value="{number}">'
        f'<ul class="pack" data-testid="pack">{pack_items(state.get("pack", []), cards)}</ul></form></section>'
    )


def _picks(state: Mapping[str, Any], cards: Mapping[str, Any]) -> str:
    picks = state.get("picks", [])
    title = esc(ngettext("Your pick (%(n)s)", "Your picks (%(n)s)", len(picks)), quote=False) % {
        "n": len(picks)
    }
    none = esc(_("None yet."))
    lines = picked_items(picks, cards) or f'<li class="muted">{none}</li>'
    return f'<section class="tile"><h2>{title}</h2><ul class="picks small" data-testid="my-picks">{lines}</ul></section>'


def draft_box(
    *,
    state: Mapping[str, Any] | None,
    tournament_id: int,
    sealed: bool,
    started: bool,
    has_pool: bool,
    cards: Mapping[str, Any],
    csrf_token: Callable[[], str] | None,
    etag: str,
    build_until: datetime | None,
    now: datetime,
) -> SafeString:
    """The box for ``state`` (``services.draft_me_polled``; None: no seat), in the active language. ``etag``
    is the tag the page's script polls with next. ``csrf_token`` is called for the pack's form only when the box
    has one (Django's ``get_token`` masks a fresh token and renews the cookie each time it is called); None
    for the polled box and a pick's answer, whose form takes the token the page holds (draft.js) — only the
    whole page, which works without JavaScript, renders one."""
    tag = f'<span hidden data-draft-etag="{esc(etag)}"></span>' if etag else ""
    if not state:
        body = _no_seat(tournament_id=tournament_id, sealed=sealed, started=started, has_pool=has_pool)
    else:
        body = (
            _head(state, tournament_id=tournament_id, has_pool=has_pool, build_until=build_until, now=now)
            + _pack(state, tournament_id=tournament_id, csrf_token=csrf_token, cards=cards)
            + _picks(state, cards)
        )
    return mark_safe(tag + body)  # noqa: S308 - every value above is escaped
