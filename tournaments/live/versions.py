"""The per-event change counters every live page follows, and the receiver that bumps them.

``Tournament.live_version`` counts every visible change; ``pairings_version`` skips the changes the
pairings and timer pages do not show (results, swaps, check-ins), so those big shared pages are not
re-rendered for every result of a round; ``standings_version`` skips what the standings do not show (swaps,
decks, judge calls, the round clock, a game saved while its match goes on), so the standings are
computed at most once per result, not once per swap or game. All
are bumped with an ``F()`` update by the receiver of
``signals.tournament_changed`` (sent after commit), so concurrent bumps never lose one, and they live in the
database, so every worker and web node sees them without any pub/sub.
"""

from __future__ import annotations

from typing import Any

from django.db.models import F
from django.dispatch import receiver

from .. import signals
from ..models import Tournament
from .etags import digest
from .sql import poll_fetch


@receiver(signals.tournament_changed, dispatch_uid="tournaments.live.bump")
def _bump_on_change(sender: Any, *, tournament_id: int, **kwargs: Any) -> None:
    live_version_bump(tournament_id=tournament_id, what=kwargs.get("what", ""))


# Changes that the pairings pages do not show: a result comes in every few seconds during a round, and
# re-rendering a 2,000-name pairings page for each would be most of the laptop's work. Nor the clock: it is
# the pairings pages' clock part (``page_state``), which a poll gets as a tiny clock notice.
NOT_ON_PAIRINGS = frozenset(
    {"result", "game", "sideboard", "check_in", "decks", "penalty", "judge_call", "timer"}
)
# Changes the standings do not show: a swap or a judge call must not recompute a 2,000-player standings.
# A game saved in a match still pending ("game"): the standings count reported matches only.
NOT_ON_STANDINGS = frozenset({"game", "sideboard", "check_in", "decks", "judge_call", "timer"})
# Shared pages keyed by Tournament.pairings_version, by standings_version; every other page by live_version.
# (The projector's clock page follows live_version: its list of tables with extra time changes with results.)
_PAIRINGS_PAGES = ("pairings-", "projector-pairings")
# Shared pages that show the round clock: their state is "<version>c<clock>" while a clock is set.
CLOCK_PAGES = ("pairings-", "projector-pairings")
_STANDINGS_PAGES = ("standings", "projector-standings")


def live_version_bump(*, tournament_id: int, what: str = "") -> None:
    # F(): two workers bumping at once both count, with no read-modify-write race.
    counters = {"live_version": F("live_version") + 1}
    if what not in NOT_ON_PAIRINGS:
        counters["pairings_version"] = F("pairings_version") + 1
    if what not in NOT_ON_STANDINGS:
        counters["standings_version"] = F("standings_version") + 1
    Tournament.objects.filter(pk=tournament_id).update(**counters)


_VERSION_SQL = (
    "SELECT live_version, pairings_version, standings_version FROM tournaments_tournament WHERE id = %s"
)


def _versions(tournament_id: int) -> tuple[int, int, int] | None:
    """The event's change counters (one primary-key read), or None when there is no such event. Plain SQL:
    this runs on every poll of every phone, and building the ORM query would cost more than running it."""
    rows = poll_fetch(_VERSION_SQL, [tournament_id])
    return None if not rows else (int(rows[0][0]), int(rows[0][1]), int(rows[0][2]))


def page_version(tournament_id: int, page: str) -> int | None:
    """The counter a shared page's content follows: the pairings and timer pages ignore results, the
    standings ignore swaps and the clock."""
    versions = _versions(tournament_id)
    if versions is None:
        return None
    if page.startswith(_PAIRINGS_PAGES):
        return versions[1]
    return versions[2] if page.startswith(_STANDINGS_PAGES) else versions[0]


_CLOCK_SQL = """
SELECT timer_ends_at, timer_paused_left FROM tournaments_round
 WHERE tournament_id = %s AND NOT draft AND (number = %s OR %s = 0) ORDER BY number DESC LIMIT 1"""


def page_round_number(page: str) -> int:
    """The round a pairings page shows (0: the latest)."""
    number = page.removeprefix("pairings-")
    return int(number) if number.isascii() and number.isdigit() else 0


def page_clock(tournament_id: int, page: str) -> str:
    """A short digest of the clock a pairings page shows, or "" when that round has no clock set."""
    number = page_round_number(page)
    rows = poll_fetch(_CLOCK_SQL, [tournament_id, number, number])
    if not rows or (rows[0][0] is None and rows[0][1] is None):
        return ""
    return digest([str(rows[0][0]), rows[0][1]])[:8]


def page_state(tournament_id: int, page: str) -> str | None:
    """What a shared page's tag and cache key name: its counter, and for the pages with a round clock the
    clock too (``"12c1a2b3c4d"``), so a clock change is told apart from a change of the page."""
    version = page_version(tournament_id, page)
    if version is None:
        return None
    clock = page_clock(tournament_id, page) if page.startswith(CLOCK_PAGES) else ""
    return f"{version}c{clock}" if clock else str(version)
