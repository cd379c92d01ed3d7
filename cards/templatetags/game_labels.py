"""Template filters naming games and formats in the page's language (rule-set labels, English fallback):
``{% load game_labels %}{{ game|game_title }} — {{ fmt|format_title }}``."""

from __future__ import annotations

from django import template
from django.utils import translation

from cards import labels
from cards.models import Format, Game

register = template.Library()


def _lang() -> str:
    return translation.get_language() or "en"


@register.filter(name="game_title")
def game_title(game: Game) -> str:
    return labels.game_title(game, _lang())


@register.filter(name="format_title")
def format_title(fmt: Format) -> str:
    return labels.format_title(fmt, _lang())


@register.filter(name="format_named")
def format_named(game: Game, format_slug: str) -> str:
    """A format by its slug (what a tournament or deck stores), named in the page's language."""
    return labels.format_slug_title(game, format_slug, _lang())
