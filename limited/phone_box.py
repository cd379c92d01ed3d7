"""My draft's live box for one seat, as the page, its polls and a pick's answer show it: the cards it names
(read once per process and version of the game's card data) and the box joined by limited/draft_box.py.

Both ways in use it: the views (the page, a pick's answer) and the WSGI fast path that answers a phone's
changed poll before Django (limited/wsgi.py), so the two never show a seat differently."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime, timedelta

from django.utils import timezone

from cards.models import Card
from tournaments.models import Player

from . import services
from .draft_box import draft_box
from .models import LimitedEvent

# What My draft shows of a card (name and type), per process and per version of the game's card data: every
# changed poll of 2,000 phones names its pack and picks, and the same few hundred cards come back all draft.
# Cards are read only for keys not seen yet, so a game of 47,000 printings costs only the cards drafted.
_SHOWN: dict[tuple[int, str], dict[str, Card]] = {}


def shown_cards(event: LimitedEvent, keys: Iterable[str]) -> dict[str, Card]:
    game = event.tournament.game
    known = _SHOWN.get((game.pk, game.cards_version))
    if known is None:
        for stale in [k for k in list(_SHOWN) if k[0] == game.pk]:
            _SHOWN.pop(stale, None)  # the game's cards were imported again: names may have changed
        known = _SHOWN.setdefault((game.pk, game.cards_version), {})
    wanted = set(keys)
    missing = wanted - known.keys()
    if missing:
        cards = Card.objects.filter(game_id=game.pk, external_id__in=missing).only(
            "external_id", "name", "card_type"
        )
        known.update((c.external_id, c) for c in cards)
    return {k: known[k] for k in wanted if k in known}


def build_until(event: LimitedEvent) -> datetime | None:
    """The end of deck building: from the last pick of the draft, or from the dealing of sealed pools."""
    event.refresh_from_db(fields=["draft_finished_at", "pools_dealt_at"])
    start = event.draft_finished_at if event.kind == LimitedEvent.Kind.DRAFT else event.pools_dealt_at
    return start + timedelta(minutes=event.deck_building_minutes) if start else None


def phone_box(
    event: LimitedEvent,
    player: Player,
    polled: services.DraftPolled,
    *,
    csrf_token: Callable[[], str] | None = None,
) -> str:
    """The box for the phone's state, in the active language. Its form carries a CSRF token only with
    ``csrf_token`` (the whole page, which works without JavaScript): the polled box and a pick's answer go to
    draft.js, which gives the form the token the page holds. Masking a token costs 32 calls for randomness
    and renews the cookie (a Set-Cookie) in every answer that shows one — every changed poll and pick of a
    draft, for a token the page already has."""
    state = polled.state
    cards = shown_cards(event, [*(state or {}).get("pack", []), *(state or {}).get("picks", [])])
    return draft_box(
        state=state, tournament_id=event.tournament_id, sealed=event.kind == LimitedEvent.Kind.SEALED,
        started=event.draft_started_at is not None, has_pool=bool(player.pool), cards=cards,
        # Shown once the draft is over (or on a pool's page): a phone's poll mid-draft does not read it.
        build_until=build_until(event) if not state or state.get("finished") else None,
        csrf_token=csrf_token, etag=polled.tag or "", now=timezone.now(),
    )  # fmt: skip
