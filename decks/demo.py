"""Demo decks for `manage.py load_demo`: a few public decks per deck game, owned by the user "demo".

Built from whatever cards the cards demo loaded (the shared data when present, else the samples), and
legal for their format under the ban list in effect today: copies are capped by the format's copy
limits and the ban list (counted by identity, so two artworks of one card share a limit), and every deck
is checked by the rules engine before it is saved. A deck that cannot be made legal from the cards at
hand is skipped with a message rather than saved illegal.

Idempotent: a deck is recognised by (owner, name). An existing demo deck that is still legal is left
alone; one that is no longer legal (made by an older run, or a newer ban list took effect) gets the
legal content as a new version.
"""

from __future__ import annotations

import json
from collections import Counter
from functools import cache
from typing import Any, TextIO

from accounts.models import User
from cards.demo import SAMPLES
from cards.models import Card, Game
from games.registry import default_registry
from rules.selectors import banlist_info
from rules.services import banlist_choose, card_info

from .gamerules import format_info
from .models import Deck
from .selectors import deck_report
from .services import deck_create, deck_update

DEMO_USER = "demo"
DEMO_NOTES = "Demo deck built from the sample card database."
Lines = list[tuple[Card, int]]


@cache
def _sample_ids(game_slug: str) -> frozenset[str]:
    """External ids of the game's shipped sample cards (cards/samples/): well-known cards, so the demo
    decks built from the full real database still read like decks players know."""
    path = SAMPLES / f"{game_slug}-sample.json"
    if not path.is_file():
        return frozenset()
    return frozenset(
        str(card["external_id"]) for card in json.loads(path.read_text(encoding="utf-8"))["cards"]
    )


def _cards(game: Game, **filters: object) -> list[Card]:
    known = _sample_ids(game.slug)
    cards = Card.objects.filter(game=game, is_token=False, deck_buildable=True, **filters).order_by(
        "external_id"
    )
    return sorted(cards, key=lambda card: card.external_id not in known)


def _copy_key(card: Card, key: str) -> str:
    # The same keys the rules engine counts copies by (rules/engine/validate.py).
    if key == "name":
        return card.name.casefold()
    if key == "name_level":
        return f"{card.name.casefold()}|{card.level}"
    return card.identity


class _Budget:
    """How many more copies of a card the format's copy limits and today's ban list allow.

    Shared by all sections of one deck, because both limits count over several sections together.
    """

    def __init__(self, game: Game, format_slug: str) -> None:
        self._card_info = card_info
        self.fmt = default_registry().format(game.slug, format_slug)
        chosen = banlist_choose(game=game, fmt=self.fmt) if self.fmt.banlist is not None else None
        self.banlist = banlist_info(chosen) if chosen is not None else None
        self.banlist_name = chosen.name if chosen is not None else ""
        self._copies: Counter[tuple[int, str]] = Counter()
        self._banned: Counter[str] = Counter()

    def _banlist_limit(self, info: Any) -> int | None:
        policy = self.fmt.banlist
        if policy is None:
            return None
        if self.banlist is None:
            # A whitelist format with no list in effect admits nothing (the validator says the same).
            return 0 if policy.whitelist else None
        limit = self.banlist.limit_for(info)
        if limit is None:
            return 0 if (self.banlist.whitelist or policy.whitelist) else None
        limit = max(limit, 0)
        if limit == 0 and policy.forbidden_as is not None:
            limit = policy.forbidden_as
        return limit

    def room(self, card: Card, section: str) -> int:
        info = self._card_info(card)
        room = 10**6
        for index, rule in enumerate(self.fmt.copy_limits):
            if section not in rule.scope or (rule.filter is not None and not rule.filter(info)):
                continue
            key = _copy_key(card, rule.key)
            limit = rule.exceptions.get(key, rule.exceptions.get(card.name, rule.max))
            room = min(room, limit - self._copies[(index, key)])
        banned = self._banlist_limit(info)
        if banned is not None:
            room = min(room, banned - self._banned[card.identity])
        return max(room, 0)

    def take(self, card: Card, section: str, wanted: int) -> int:
        n = min(wanted, self.room(card, section))
        if n <= 0:
            return 0
        for index, rule in enumerate(self.fmt.copy_limits):
            if section in rule.scope:
                self._copies[(index, _copy_key(card, rule.key))] += n
        self._banned[card.identity] += n
        return n


def _fill(budget: _Budget, section: str, cards: list[Card], total: int, per_card: int) -> Lines:
    """Up to ``per_card`` copies of each card in order until ``total`` copies, within the budget."""
    lines: Lines = []
    left = total
    for card in cards:
        if left <= 0:
            break
        take = budget.take(card, section, min(per_card, left))
        if take:
            lines.append((card, take))
            left -= take
    return lines


def _top_up(budget: _Budget, section: str, lines: Lines, cards: list[Card], total: int) -> Lines:
    """Add copies (of cards already in, then of the others) until the section holds ``total`` cards."""
    counts: dict[int, int] = {card.pk: n for card, n in lines}
    order = [card for card, _n in lines] + [c for c in cards if c.pk not in counts]
    left = total - sum(counts.values())
    for card in order:
        if left <= 0:
            break
        take = budget.take(card, section, left)
        if take:
            counts[card.pk] = counts.get(card.pk, 0) + take
            left -= take
    by_pk = {card.pk: card for card in order}
    return [(by_pk[pk], n) for pk, n in counts.items()]


def _plans(game: Game, format_slug: str) -> list[dict[str, Any]]:
    slug = game.slug
    budget = _Budget(game, format_slug)
    if slug == "yugioh":
        extra_kinds = {"fusion", "synchro", "xyz", "link"}
        monsters = [
            c
            for c in _cards(game, card_type="monster")
            if not (extra_kinds | {"ritual", "pendulum"}) & set(c.subtypes)
        ]
        extra = [c for c in _cards(game, card_type="monster") if extra_kinds & set(c.subtypes)]
        spells_traps = _cards(game, card_type__in=["spell", "trap"])
        main = _fill(budget, "main", monsters, 20, 2) + _fill(budget, "main", spells_traps, 20, 1)
        # Forbidden and limited cards leave gaps: fill the 40-card minimum with more of the legal ones.
        main = _top_up(budget, "main", main, monsters + spells_traps, 40)
        return [
            {
                "name": "Demo: Yu-Gi-Oh! beatdown",
                "sections": {"main": main, "extra": _fill(budget, "extra", extra, 6, 1)},
            }
        ]
    if slug == "everseal":
        heroes = _cards(game, card_type="hero")
        monsters = [c for c in _cards(game, card_type="monster") if "image" not in c.subtypes]
        hero = next(
            (h for h in heroes if not (h.attributes or {}).get("restrictions")), heroes[0] if heroes else None
        )
        main = _top_up(budget, "main", _fill(budget, "main", monsters, 30, 2), monsters, 30)
        plans = [{"name": "Демо: Странник", "hero": hero, "sections": {"main": main}}]
        # A hero whose restriction shows in the builder: no size L monsters.
        guardian = next((h for h in heroes if h.name == "Ледяная Хранительница"), None)
        if guardian is not None:
            own = _Budget(game, format_slug)
            small = [c for c in monsters if (c.attributes or {}).get("size") != "L"]
            guarded = _top_up(own, "main", _fill(own, "main", small, 30, 2), small, 30)
            plans.append(
                {"name": "Демо: Ледяная Хранительница", "hero": guardian, "sections": {"main": guarded}}
            )
        return plans
    if slug == "twindeck":
        creatures = _cards(game, card_type="creature")
        others = [c for c in _cards(game) if c.card_type != "creature"]
        return [
            {
                "name": "Демо: базовая колода",
                "sections": {
                    "creatures": _fill(budget, "creatures", creatures, 16, 4),
                    "main": _fill(budget, "main", others, 40, 2),
                },
            }
        ]
    if slug == "caster":
        cards = [c for c in _cards(game) if "soul bond" not in c.subtypes]
        return [
            {"name": "Demo: Caster Chronicles", "sections": {"main": _fill(budget, "main", cards, 50, 4)}}
        ]
    return []


def _problems(report: dict[str, Any] | None) -> str:
    if report is None:
        return "the rules app is missing"
    return "; ".join(v["message"] for v in report["violations"][:5])


def load(stdout: TextIO) -> None:
    owner, created = User.objects.get_or_create(username=DEMO_USER, defaults={"email": "demo@example.com"})
    if created:
        owner.set_unusable_password()
        owner.save(update_fields=["password"])
    for game in Game.objects.filter(has_decks=True):
        try:
            fmt = format_info(game.slug, None)
        except KeyError:
            continue
        for plan in _plans(game, fmt.slug):
            name, hero = plan["name"], plan.get("hero")
            sections = {
                slug: lines for slug, lines in plan["sections"].items() if lines and slug in fmt.section_slugs
            }
            existing = Deck.objects.filter(owner=owner, name=name).first()
            if existing is not None:
                current = deck_report(deck=existing)
                if current is not None and current["legal"]:
                    stdout.write(f"decks: {name!r} exists, left alone\n")
                    continue
            if not sections:
                stdout.write(f"decks: no {game.slug} cards loaded, skipped {name!r}\n")
                continue
            # Only a legal deck is saved: the demo shows what a correct deck of each game looks like.
            report = deck_report(game=game, format_slug=fmt.slug, sections=sections, hero=hero)
            if report is None or not report["legal"]:
                stdout.write(
                    f"decks: the {game.slug} cards loaded cannot make a legal {name!r} "
                    f"({_problems(report)}), skipped\n"
                )
                continue
            size = sum(n for lines in sections.values() for _c, n in lines)
            if existing is not None:
                # It was judged illegal above and the new content is legal, so this is a real change.
                deck_update(
                    deck=existing,
                    by=owner,
                    sections=sections,
                    hero=hero,
                    format_slug=fmt.slug,
                    banlist=None,
                    on_date=None,
                    message="demo deck rebuilt to be legal under the rules in effect today",
                )
                stdout.write(f"decks: {name!r} was not legal, rebuilt as a new version ({size} cards)\n")
                continue
            deck = deck_create(
                owner=owner,
                game=game,
                name=name,
                format_slug=fmt.slug,
                sections=sections,
                hero=hero,
                visibility=Deck.Visibility.PUBLIC,
                notes=DEMO_NOTES,
            )
            stdout.write(f"decks: created {deck.name!r} ({size} cards)\n")
