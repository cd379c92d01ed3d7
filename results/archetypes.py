"""Archetype labels from the community's own data (pure: no Django).

Yu-Gi-Oh!: every YGOPro `.cdb` card carries up to four archetype set codes (``datas.setcode``, stored by the
importer as ``attributes["setcode"]``); YGOPro's ``strings.conf`` names them (``!setname 0x2 Genex``). A set
code's low 12 bits are the archetype, the high 4 bits a sub-archetype (0x1002 R-Genex is a Genex too): a
deck is labelled by the parent archetype most of its main-deck cards belong to, then by a variant (a
sub-archetype) when most of those cards are also the variant — variants checked after the parent.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

SETNAME = re.compile(r"^!setname\s+0x([0-9a-fA-F]+)\s+(.+?)\s*$")
# The defaults of the rule set's ``[archetype_families]`` (games/rulesets/yugioh.toml says them again).
# An archetype owns a deck when it is the plurality among the main deck's archetype cards and an engine of
# its own: at least 6 copies, 15 % of a bigger deck (measured on YGOPro's own windbot decks: the real engines
# run 8–29 copies, the splashes 1–5). Below that, or on a tie, the deck goes to the organizers' review queue.
MIN_COPIES = 6
MIN_SHARE = 0.15


@dataclass(frozen=True)
class Label:
    name: str
    rule: str
    candidates: tuple[str, ...] = field(default=())


def parse_setnames(text: str) -> dict[int, str]:
    """``!setname`` lines of a strings.conf → {set code: name}. Later lines win (EDOPro's overrides)."""
    names: dict[int, str] = {}
    for line in text.splitlines():
        found = SETNAME.match(line)
        if found:
            # A trailing "|Japanese name" is an alias some files carry; the English name is enough here.
            names[int(found.group(1), 16)] = found.group(2).split("\t")[0].strip()
    return names


def _codes(
    codes: Iterable[int], names: Mapping[int, str], parent_mask: int
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A card's named families (each once) and named sub-families."""
    parents: list[int] = []
    variants: list[int] = []
    for code in codes:
        parent = code & parent_mask
        if parent in names and parent not in parents:
            parents.append(parent)
        if code != parent and code in names:
            variants.append(code)
    return tuple(parents), tuple(variants)


class SetcodeLabeler:
    """The set-code rule bound to an event's cards: each card's families are read once, then a deck is a
    count over its lines (what ``setcode_label`` does per line, without re-reading the codes per deck)."""

    def __init__(
        self,
        setcodes: Mapping[Any, Iterable[int]],
        names: Mapping[int, str],
        *,
        parent_mask: int = 0xFFF,
        min_copies: int = MIN_COPIES,
        min_share: float = MIN_SHARE,
    ) -> None:
        self.names, self.parent_mask = names, parent_mask
        self.min_copies, self.min_share = min_copies, min_share
        self.families = {key: _codes(codes, names, parent_mask) for key, codes in setcodes.items()}

    def label(self, main: Iterable[tuple[Any, int]]) -> Label | None:
        """``main``: (card key, copies) per main-deck line."""
        total = 0
        parents: dict[int, int] = {}
        variants: dict[int, int] = {}
        empty: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
        families = self.families
        for key, count in main:
            total += count
            own, subs = families.get(key, empty)
            for code in own:
                parents[code] = parents.get(code, 0) + count
            for code in subs:
                variants[code] = variants.get(code, 0) + count
        return self.decide(total, parents, variants)

    def decide(self, total: int, parents: Mapping[int, int], variants: Mapping[int, int]) -> Label | None:
        if not total or not parents:
            return None
        names, mask = self.names, self.parent_mask
        hits = max(parents.values())
        if hits < max(self.min_copies, total * self.min_share):
            return None
        tied = [code for code, n in parents.items() if n == hits]
        if len(tied) > 1:
            return Label("", "", tuple(sorted(names[c] for c in tied)))
        best = tied[0]
        rule = f"set code {best:#x} {names[best]}: {hits} of {total} main-deck cards"
        # A variant names the deck when it holds most of the parent's cards (the biggest; a tie: the lowest code).
        own = sorted(((-n, code) for code, n in variants.items() if code & mask == best and n * 2 > hits))
        if own:
            n, code = -own[0][0], own[0][1]
            return Label(names[code], f"{rule}; variant {code:#x} {names[code]}: {n} of them")
        return Label(names[best], rule)


def setcode_label(
    main: Iterable[tuple[Iterable[int], int]],
    names: Mapping[int, str],
    *,
    parent_mask: int = 0xFFF,
    min_copies: int = MIN_COPIES,
    min_share: float = MIN_SHARE,
) -> Label | None:
    """``main``: (set codes, copies) per main-deck line. None: no archetype is an engine of the deck;
    a Label without a name but with candidates: two archetypes tie (both go to the review queue)."""
    lines = list(main)
    labeler = SetcodeLabeler(
        {i: codes for i, (codes, _n) in enumerate(lines)},
        names,
        parent_mask=parent_mask,
        min_copies=min_copies,
        min_share=min_share,
    )
    return labeler.label((i, n) for i, (_codes, n) in enumerate(lines))
