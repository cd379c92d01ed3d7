"""Demo decks for `manage.py load_demo`: a few public decks per deck game, owned by the user "demo".

Idempotent: a deck is recognised by (owner, name) and left alone when it exists. Built from whatever
cards the cards demo loaded, so the decks follow the sample databases.
"""

from __future__ import annotations

from typing import TextIO

from accounts.models import User
from cards.models import Card, Game

from .gamerules import format_info
from .models import Deck
from .services import deck_create

DEMO_USER = "demo"


def _cards(game: Game, **filters: object) -> list[Card]:
    return list(
        Card.objects.filter(game=game, is_token=False, deck_buildable=True, **filters).order_by("external_id")
    )


def _fill(cards: list[Card], total: int, per_card: int) -> list[tuple[Card, int]]:
    """Take copies of cards in order until ``total`` copies are reached (None-safe if there are too few)."""
    lines: list[tuple[Card, int]] = []
    left = total
    for card in cards:
        if left <= 0:
            break
        take = min(per_card, left)
        lines.append((card, take))
        left -= take
    return lines


def _plans(game: Game) -> list[dict]:
    slug = game.slug
    if slug == "yugioh":
        monsters = [
            c
            for c in _cards(game, card_type="monster")
            if not {"fusion", "synchro", "xyz", "link", "ritual", "pendulum"} & set(c.subtypes)
        ]
        extra = [
            c
            for c in _cards(game, card_type="monster")
            if {"fusion", "synchro", "xyz", "link"} & set(c.subtypes)
        ]
        spells_traps = _cards(game, card_type__in=["spell", "trap"])
        main = _fill(monsters, 20, 2) + _fill(spells_traps, 20, 1)
        return [{"name": "Demo: Yu-Gi-Oh! beatdown", "sections": {"main": main, "extra": _fill(extra, 6, 1)}}]
    if slug == "everseal":
        heroes = _cards(game, card_type="hero")
        monsters = [c for c in _cards(game, card_type="monster") if "image" not in c.subtypes]
        hero = next(
            (h for h in heroes if not (h.attributes or {}).get("restrictions")), heroes[0] if heroes else None
        )
        return [{"name": "Демо: Странник", "hero": hero, "sections": {"main": _fill(monsters, 30, 2)}}]
    if slug == "twindeck":
        creatures = _cards(game, card_type="creature")
        others = [c for c in _cards(game) if c.card_type != "creature"]
        return [
            {
                "name": "Демо: базовая колода",
                "sections": {"creatures": _fill(creatures, 16, 4), "main": _fill(others, 40, 2)},
            }
        ]
    if slug == "caster":
        cards = [c for c in _cards(game) if "soul bond" not in c.subtypes]
        return [{"name": "Demo: Caster Chronicles", "sections": {"main": _fill(cards, 50, 4)}}]
    return []


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
        for plan in _plans(game):
            if Deck.objects.filter(owner=owner, name=plan["name"]).exists():
                stdout.write(f"decks: {plan['name']!r} exists, left alone\n")
                continue
            sections = {
                slug: lines for slug, lines in plan["sections"].items() if lines and slug in fmt.section_slugs
            }
            if not sections:
                stdout.write(f"decks: no {game.slug} cards loaded, skipped {plan['name']!r}\n")
                continue
            deck = deck_create(
                owner=owner,
                game=game,
                name=plan["name"],
                format_slug=fmt.slug,
                sections=sections,
                hero=plan.get("hero"),
                visibility=Deck.Visibility.PUBLIC,
                notes="Demo deck built from the sample card database.",
            )
            stdout.write(
                f"decks: created {deck.name!r} ({sum(n for ls in sections.values() for _c, n in ls)} cards)\n"
            )
