"""Sideboarding between games: apply swaps to the registered deck, then re-validate the result."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.cards import BanListInfo, CardInfo, Deck
from games.registry import FormatRules

from .report import Report, Violation
from .validate import validate_deck


@dataclass(frozen=True, slots=True)
class Swap:
    """Move ``count`` × ``out`` from ``section`` to the side section and ``count`` × ``into`` back.

    Either side may be None (a one-sided move); cards are referred to by key or by name.
    """

    section: str
    out: str | None = None
    into: str | None = None
    count: int = 1


def _matches(card: CardInfo, ref: str) -> bool:
    return (
        card.key == ref or card.name.casefold() == ref.casefold() or card.label.casefold() == ref.casefold()
    )


def _take(entries: list[tuple[CardInfo, int]], ref: str, count: int) -> list[tuple[CardInfo, int]]:
    """Remove ``count`` copies of ``ref`` from ``entries`` in place (across printings of one name);
    returns what was taken. The caller has checked there are enough."""
    taken: list[tuple[CardInfo, int]] = []
    i = 0
    while count > 0 and i < len(entries):
        card, n = entries[i]
        if not _matches(card, ref):
            i += 1
            continue
        k = min(n, count)
        taken.append((card, k))
        count -= k
        if k == n:
            del entries[i]
        else:
            entries[i] = (card, n - k)
            i += 1
    return taken


def _put(entries: list[tuple[CardInfo, int]], card: CardInfo, count: int) -> None:
    for i, (c, n) in enumerate(entries):
        if c is card or c.key == card.key:
            entries[i] = (c, n + count)
            return
    entries.append((card, count))


def _swap_error(
    report: Report,
    key: str,
    params: dict[str, Any],
    *,
    section: str | None,
    card: str | None,
    count: int | None,
    limit: int | None,
) -> None:
    report.violations.append(
        Violation(
            "sideboard_swap",
            f"sideboard_swap.{key}",
            params,
            section=section,
            card=card,
            count=count,
            limit=limit,
        )
    )


def _copy(deck: Deck) -> Deck:
    return Deck(
        sections={slug: list(entries) for slug, entries in deck.sections.items()},
        hero=deck.hero,
        pool=deck.pool,
        unknown=list(deck.unknown),
        extra_heroes=list(deck.extra_heroes),
    )


def _additional_set_from_pool(deck: Deck, fmt: FormatRules, side_slug: str) -> list[tuple[CardInfo, int]]:
    """g001 1.5.2: in a limited event the additional set is every pool card the decks do not use."""
    assert deck.pool is not None
    used: dict[str, int] = {}
    for slug in fmt.pool_scope or ():
        if slug == side_slug:
            continue
        for card, n in deck.sections.get(slug, ()):
            used[card.identity] = used.get(card.identity, 0) + n
    side: list[tuple[CardInfo, int]] = []
    for card, n in deck.pool:
        spare = n - used.get(card.identity, 0)
        used[card.identity] = max(0, used.get(card.identity, 0) - n)
        if spare > 0:
            side.append((card, spare))
    return side


def apply_sideboard(
    deck: Deck,
    swaps: list[Swap],
    fmt: FormatRules,
    *,
    banlist: BanListInfo | None = None,
    pool: list[tuple[CardInfo, int]] | None = None,
) -> tuple[Deck, Report]:
    """Apply ``swaps`` to the registered ``deck`` (never changed in place) and judge the result.

    Accepted: the deck after the swaps and its report (legal). Refused — a swap that cannot be done (no
    sideboard, a card that is not there, a size that must stay the same) or a deck that would be illegal
    after them — the deck exactly as it was and a report with every reason, always including a
    ``sideboard_swap`` violation. This function is the one place that decides "refused -> unchanged".

    ``pool`` (limited events, a format with ``pool``): the player's registered pool; given here it replaces
    ``deck.pool``. The additional set is then the pool minus the decks (g001 1.5.2: every card the player
    received), whatever side section was registered, so any number of swaps between the decks and the
    additional set stays within the pool and is judged against deck + additional set.
    """
    if pool is not None:
        deck = Deck(sections=deck.sections, hero=deck.hero, pool=pool, unknown=deck.unknown,
                    extra_heroes=deck.extra_heroes)  # fmt: skip
    report = Report()
    new = _copy(deck)
    _move(new, deck, swaps, fmt, report)
    report.extend(validate_deck(new, fmt, banlist=banlist))
    if report.legal or not swaps:
        return new, report
    if "sideboard_swap" not in report.codes():
        _swap_error(
            report,
            "refused",
            {},
            section=None,
            card=None,
            count=sum(max(s.count, 0) for s in swaps),
            limit=0,
        )
    return _copy(deck), report


def _move(new: Deck, deck: Deck, swaps: list[Swap], fmt: FormatRules, report: Report) -> None:
    """Carry out the swaps on ``new``; every swap that cannot be done adds its ``sideboard_swap`` reason."""
    policy = fmt.sideboard
    if policy is None:
        if swaps:
            _swap_error(
                report,
                "no_sideboard",
                {"format": fmt.words()},
                section=None,
                card=None,
                count=len(swaps),
                limit=0,
            )
        return
    if fmt.pool_scope is not None and new.pool is not None:
        new.sections[policy.section] = _additional_set_from_pool(new, fmt, policy.section)
    side = new.sections.setdefault(policy.section, [])
    side_title = fmt.section(policy.section)
    side_label = side_title.words()
    for swap in swaps:
        if swap.count < 1:
            _swap_error(
                report,
                "count",
                {"count": swap.count},
                section=swap.section,
                card=swap.out or swap.into,
                count=swap.count,
                limit=1,
            )
            continue
        if swap.section not in fmt.section_map or swap.section == policy.section:
            _swap_error(
                report,
                "bad_section",
                {"section": swap.section, "format": fmt.words()},
                section=swap.section,
                card=swap.out or swap.into,
                count=swap.count,
                limit=0,
            )
            continue
        target = new.sections.setdefault(swap.section, [])
        title = fmt.section(swap.section)
        # Both halves are checked before anything moves, so each reason names the deck as it stood.
        if swap.out is not None:
            have = sum(n for c, n in target if _matches(c, swap.out))
            if have < swap.count:
                _swap_error(
                    report,
                    "out_short",
                    {
                        "count": swap.count,
                        "card": swap.out,
                        "section": title.words(),
                        "have": have,
                    },
                    section=swap.section,
                    card=swap.out,
                    count=swap.count,
                    limit=have,
                )
                continue
        if swap.into is not None:
            have = sum(n for c, n in side if _matches(c, swap.into))
            if have < swap.count:
                _swap_error(
                    report,
                    "in_short",
                    {"count": swap.count, "card": swap.into, "section": side_label, "have": have},
                    section=policy.section,
                    card=swap.into,
                    count=swap.count,
                    limit=have,
                )
                continue
        taken_in = _take(side, swap.into, swap.count) if swap.into is not None else []
        if swap.out is not None:
            for card, k in _take(target, swap.out, swap.count):
                _put(side, card, k)
        for card, k in taken_in:
            _put(target, card, k)
    for slug in policy.keep_sizes:
        before, after = deck.section_total(slug), new.section_total(slug)
        if before != after:
            title = fmt.section(slug)
            _swap_error(
                report,
                "keep_size",
                {"section": title.words(), "before": before, "after": after},
                section=slug,
                card=None,
                count=after,
                limit=before,
            )
