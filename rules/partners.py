"""Which cards may share the commander slot with a given hero: the format's ``hero.pairs`` (rule-set data,
games/pairs.py) asked of the game's cards, for the deck builder's partner picker.

The database narrows the candidates the way each rule names them (the keyword in the rules text, the card a
"Partner with" line names); a rule that names its cards by predicates (Choose a Background, Doctor's
companion) is asked of every card of the game, as the engine itself would judge the pair.
"""

from __future__ import annotations

import hashlib
from datetime import date

from django.core.cache import cache
from django.db.models import Count, Max, Q

from cards.models import Card, Game
from games.pairs import PairRule, ability_lines, has_keyword, pair_rule

from .services import _format, card_info

MAX_PARTNERS = 200
# A Background or Doctor's companion commander asks every card of the game (about a second for 30,000 cards on
# a busy laptop); the answer is kept an hour, or until the game's cards change (their count or newest id moves)
# or the hero's own text does. An edit of another card's text shows within the hour.
CACHE_SECONDS = 3600


def _narrowing(rule: PairRule, hero_lines: list[str], hero: Card) -> Q | None:
    """A database filter every partner of ``hero`` under ``rule`` passes, or None (ask every card)."""
    if rule.names_other:
        phrase = rule.names_other.casefold() + " "
        named = [line[len(phrase) :] for line in hero_lines if line.startswith(phrase)]
        return Q(search_name__in=named)
    if rule.keyword:
        return Q(text__icontains=rule.keyword)
    return None


def _may_involve(rule: PairRule, hero_info: object, hero_lines: list[str]) -> bool:
    """Could ``rule`` pair the hero with anything (cheap, before asking the cards)?"""
    if rule.names_other and not any(
        line.startswith(rule.names_other.casefold() + " ") for line in hero_lines
    ):
        return False
    if rule.keyword and not has_keyword(hero_info, rule.keyword):  # type: ignore[arg-type]
        return False
    if rule.first is not None or rule.second is not None:
        first_ok = rule.first is None or rule.first(hero_info)  # type: ignore[arg-type]
        second_ok = rule.second is None or rule.second(hero_info)  # type: ignore[arg-type]
        return first_ok or second_ok
    return True


def partners_for(
    *, game: Game, format_slug: str, hero: Card, on_date: date | None = None
) -> dict[str, object]:
    """``{"pairs": bool, "partners": [(Card, rule name)]}``: ``pairs`` says whether the format lets two heroes
    share the slot at all; ``partners`` the cards that may stand beside ``hero`` (by name, at most
    ``MAX_PARTNERS``). Raises ValidationError for an unknown format (as deck validation does)."""
    fmt = _format(game, format_slug, on_date)
    rules = fmt.hero.pairs if fmt.hero is not None else ()
    if not rules:
        return {"pairs": False, "partners": []}
    hero_info = card_info(hero)
    hero_lines = ability_lines(hero_info)
    involved = [rule for rule in rules if _may_involve(rule, hero_info, hero_lines)]
    filters = [_narrowing(rule, hero_lines, hero) for rule in involved]
    if not involved:
        return {"pairs": True, "partners": []}
    stamp = Card.objects.filter(game=game).aggregate(n=Count("id"), last=Max("id"))
    own = hashlib.sha1(f"{hero.name}\n{hero.text}".encode(), usedforsecurity=False).hexdigest()[:12]
    key = f"partners:{game.pk}:{format_slug}:{fmt.version}:{fmt.effective_date}:{hero.pk}:{own}:{stamp['n']}:{stamp['last']}"
    cached = cache.get(key)
    if cached is None:
        cached = _scan(game, hero, involved, filters)
        cache.set(key, cached, CACHE_SECONDS)
    rows = Card.objects.in_bulk([pk for pk, _rule in cached])
    return {"pairs": True, "partners": [(rows[pk], rule) for pk, rule in cached if pk in rows]}


def _scan(game: Game, hero: Card, involved: list[PairRule], filters: list[Q | None]) -> list[tuple[int, str]]:
    """(card id, rule name) of every partner of ``hero``, by name."""
    hero_info = card_info(hero)
    cards = Card.objects.filter(game=game).exclude(identity=hero.identity)
    if all(f is not None for f in filters):
        combined = Q()
        for f in filters:
            combined |= f  # type: ignore[operator]
        cards = cards.filter(combined)
    found: dict[str, tuple[int, str]] = {}
    for card in cards.order_by("name", "id").iterator(chunk_size=2000):
        if card.identity in found:
            continue  # one row per card, whatever its printings
        rule = pair_rule(tuple(involved), hero_info, card_info(card))
        if rule is not None:
            found[card.identity] = (card.pk, rule.name)
            if len(found) >= MAX_PARTNERS:
                break
    return list(found.values())
