"""Boosters as data: a booster is slots → sheets, a sheet is a FILTER over the game's cards (pure Python).

A rule set's ``[[boosters]]`` entry names its sheets (each a FILTER, with optional per-card ``rates``: a card's
weight on the sheet, 1 when not named) and its slots (``count`` cards from one ``sheet``, or from one of
``sheets`` chosen by weight: ``{ rare = 7, mythic = 1 }`` is "a mythic one pack in eight"). Besides the card
fields, a sheet may filter on ``set`` and ``rarity``: the sets and rarities of the card's printings.

``parse_boosters`` checks the definitions when the rule set loads (an unknown sheet, a bad FILTER, a zero count
fail loudly); ``resolve`` checks them against the card database (a sheet that matches no card, or fewer
cards than a slot draws without repeats, fails naming the sheet). Every pack comes from a seed: the same seed
and the same cards give the same pack on any machine (only ``random.Random.random()`` is used, whose
sequence Python keeps stable for a given integer seed).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .cards import CardInfo
from .errors import RuleSetError
from .filters import CardPredicate, compile_filter


@dataclass(frozen=True, slots=True)
class Sheet:
    slug: str
    filter: Any
    predicate: CardPredicate
    rates: Mapping[str, float] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Slot:
    count: int
    # (sheet slug, weight): one sheet is chosen per pack by weight; a single sheet has weight 1.
    sheets: tuple[tuple[str, float], ...]


@dataclass(frozen=True, slots=True)
class BoosterSpec:
    slug: str
    names: Mapping[str, str]
    sheets: Mapping[str, Sheet]
    slots: tuple[Slot, ...]
    # The sealed product: this many boosters plus fixed extras (card key -> count) per player.
    sealed_packs: int = 6
    sealed_extras: Mapping[str, int] = field(default_factory=dict)
    draft_packs: int = 3

    @property
    def pack_size(self) -> int:
        return sum(slot.count for slot in self.slots)


class BoosterError(ValueError):
    """A booster that cannot be made from the cards at hand; ``key`` and ``params`` for the edge's words."""

    def __init__(self, message: str, *, key: str, **params: Any) -> None:
        super().__init__(message)
        self.key = key
        self.params = params


def parse_boosters(raw: Sequence[Mapping[str, Any]], where: str = "") -> dict[str, BoosterSpec]:
    """Check and compile a rule set's ``[[boosters]]``; RuleSetError names the booster and what is wrong."""
    out: dict[str, BoosterSpec] = {}
    for i, item in enumerate(raw):
        slug = str(item.get("slug", ""))
        here = f"{where}boosters[{i}] ({slug})"
        if not slug or slug in out:
            raise RuleSetError(f"{here}: a booster needs a slug of its own")
        sheets: dict[str, Sheet] = {}
        for sheet in item.get("sheets", []):
            sslug = str(sheet.get("slug", ""))
            if not sslug or sslug in sheets:
                raise RuleSetError(f"{here}: every sheet needs a slug of its own (got {sslug!r})")
            try:
                predicate = compile_filter(sheet.get("filter", {}))
            except RuleSetError as exc:
                raise RuleSetError(f"{here}: sheet {sslug!r}: {exc}") from None
            rates = {str(k): float(v) for k, v in dict(sheet.get("rates", {})).items()}
            if any(v <= 0 for v in rates.values()):
                raise RuleSetError(f"{here}: sheet {sslug!r}: every rate must be above 0")
            sheets[sslug] = Sheet(sslug, sheet.get("filter", {}), predicate, rates)
        slots: list[Slot] = []
        for j, slot in enumerate(item.get("slots", [])):
            count = int(slot.get("count", 1))
            choices = slot.get("sheets") or ({slot["sheet"]: 1} if "sheet" in slot else {})
            if count < 1 or not choices:
                raise RuleSetError(f"{here}: slot {j + 1} needs a count of 1 or more and a sheet")
            for name, weight in choices.items():
                if name not in sheets:
                    raise RuleSetError(f"{here}: slot {j + 1} names the unknown sheet {name!r}")
                if float(weight) <= 0:
                    raise RuleSetError(f"{here}: slot {j + 1}: the chance of {name!r} must be above 0")
            slots.append(Slot(count, tuple((str(n), float(w)) for n, w in choices.items())))
        if not slots:
            raise RuleSetError(f"{here}: a booster needs at least one slot")
        sealed = dict(item.get("sealed", {}))
        out[slug] = BoosterSpec(
            slug=slug,
            names={
                "en": str(item.get("name", slug)),
                "ru": str(item.get("name_ru") or item.get("name", slug)),
            },
            sheets=sheets,
            slots=tuple(slots),
            sealed_packs=int(sealed.get("packs", 6)),
            sealed_extras={str(k): int(v) for k, v in dict(sealed.get("extras", {})).items()},
            draft_packs=int(item.get("draft_packs", 3)),
        )
    return out


# A sheet resolved against the card database: (card key, weight) in a stable order.
Resolved = Mapping[str, tuple[tuple[str, float], ...]]


def resolve(spec: BoosterSpec, cards: Sequence[CardInfo]) -> Resolved:
    """Each sheet's cards and weights; BoosterError when a sheet matches no card or too few for a slot."""
    ordered = sorted(cards, key=lambda c: c.key)
    out: dict[str, tuple[tuple[str, float], ...]] = {}
    for slug, sheet in spec.sheets.items():
        out[slug] = tuple((c.key, sheet.rates.get(c.key, 1.0)) for c in ordered if sheet.predicate(c))
        if not out[slug]:
            raise BoosterError(
                f"booster {spec.slug!r}: sheet {slug!r} matches no card", key="sheet_empty",
                booster=spec.slug, sheet=slug,
            )  # fmt: skip
    for slot in spec.slots:
        for slug, _weight in slot.sheets:
            if len(out[slug]) < slot.count:
                raise BoosterError(
                    f"booster {spec.slug!r}: sheet {slug!r} has {len(out[slug])} cards, a slot draws {slot.count}",
                    key="sheet_short", booster=spec.slug, sheet=slug, cards=len(out[slug]), count=slot.count,
                )  # fmt: skip
    return out


def rng_for(seed: int | str, *parts: object) -> random.Random:
    """A generator for one pack: the event's seed and the pack's place (pool 17, pack 3) hashed together."""
    text = ":".join(str(p) for p in (seed, *parts))
    return random.Random(int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big"))


def _weighted_index(weights: Sequence[float], rng: random.Random) -> int:
    point = rng.random() * sum(weights)
    for i, w in enumerate(weights):
        point -= w
        if point < 0:
            return i
    return len(weights) - 1


def open_pack(spec: BoosterSpec, resolved: Resolved, rng: random.Random) -> list[str]:
    """One booster: each slot draws its count of different cards from its sheet (weighted)."""
    pack: list[str] = []
    for slot in spec.slots:
        sheet = (
            slot.sheets[_weighted_index([w for _s, w in slot.sheets], rng)][0]
            if len(slot.sheets) > 1
            else slot.sheets[0][0]
        )
        pool = [entry for entry in resolved[sheet] if entry[0] not in pack]
        if len(pool) < slot.count:  # another slot took cards this one needed: fall back to repeats
            pool = list(resolved[sheet])
        for _ in range(slot.count):
            i = _weighted_index([w for _k, w in pool], rng)
            pack.append(pool.pop(i)[0])
    return pack


def booster(spec: BoosterSpec, resolved: Resolved, seed: int | str, *place: object) -> list[str]:
    return open_pack(spec, resolved, rng_for(seed, spec.slug, *place))


def sealed_pool(
    spec: BoosterSpec, resolved: Resolved, seed: int | str, index: int, packs: int | None = None
) -> dict[str, int]:
    """Pool ``index`` of an event: ``packs`` boosters (the product's number by default) plus the extras."""
    pool: dict[str, int] = dict(spec.sealed_extras)
    for n in range(packs or spec.sealed_packs):
        for key in booster(spec, resolved, seed, "pool", index, "pack", n):
            pool[key] = pool.get(key, 0) + 1
    return pool


def cut_cube(cube: Sequence[str], seed: int | str, *, packs: int, pack_size: int) -> list[list[str]]:
    """A store's cube list shuffled from the seed and cut into ``packs`` packs of ``pack_size``."""
    if packs * pack_size > len(cube):
        raise BoosterError(
            f"the cube holds {len(cube)} cards, {packs} packs of {pack_size} need {packs * pack_size}",
            key="cube_short", cards=len(cube), needed=packs * pack_size,
        )  # fmt: skip
    cards = list(cube)
    rng = rng_for(seed, "cube")
    for i in range(len(cards) - 1, 0, -1):  # Fisher–Yates on rng.random() alone (stable across versions)
        j = int(rng.random() * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]
    return [cards[i * pack_size : (i + 1) * pack_size] for i in range(packs)]


def with_printings(card: CardInfo, sets: Sequence[str], rarities: Sequence[str]) -> CardInfo:
    """The card as a sheet sees it: its attributes plus ``set`` and ``rarity`` from its printings."""
    attributes = {**card.attributes, "set": list(sets), "rarity": list(rarities)}
    return CardInfo(
        key=card.key, name=card.name, identity=card.identity, card_type=card.card_type, subtypes=card.subtypes,
        level=card.level, cost=card.cost, attributes=attributes, deck_buildable=card.deck_buildable,
        is_token=card.is_token, text=card.text,
    )  # fmt: skip
