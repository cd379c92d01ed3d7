"""Legality for the card search language: the ban list a format reads on a date, as limits by card.

``banned:`` / ``limited:`` / ``legal:`` take a format slug (``legal:traditional``), a ban-list region
(``banned:ocg``) or nothing (the game's first format); the list is the one in force on the date, as deck
validation and the builder's badges choose it (``banlist_in_effect``), so the search and the badges agree.
"""

from __future__ import annotations

from datetime import date

from cards.models import Game
from games.registry import default_registry

from .selectors import banlist_in_effect, banlist_info


def legality_for(game: Game, fmt: str, on_date: date) -> tuple[str, dict[str, int], bool] | None:
    try:
        rules = default_registry().game(game.slug)
    except KeyError:
        return None
    formats = rules.formats
    if not formats:
        return None
    if not fmt:
        chosen = next(iter(formats.values()))
        regions = list(chosen.banlist.regions) if chosen.banlist else []
        label = chosen.slug
    elif fmt in formats:
        chosen = formats[fmt]
        regions = list(chosen.banlist.regions) if chosen.banlist else []
        label = chosen.slug
    elif fmt in rules.banlist_regions or fmt in rules.banlist_region_names:
        regions, label = [fmt], fmt
    else:
        raise KeyError(sorted({*formats, *rules.banlist_regions}))
    if not regions:
        return None
    banlist = banlist_in_effect(game=game, regions=regions, on_date=on_date)
    if banlist is None:
        return (label, {}, False)
    info = banlist_info(banlist)
    return (f"{banlist.name}", dict(info.limits), info.whitelist)
