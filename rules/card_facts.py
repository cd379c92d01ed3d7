"""The card page's ban-list statuses: where a card stands on each ban list in effect today for its game's
formats. Installed on the card page from ``RulesConfig.ready()`` (cards stands below rules, see cards/facts.py)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cards.models import Card
from games.registry import default_registry

from .selectors import banlist_info
from .services import banlist_choose, card_info

BAN_STATUS = {
    0: gettext_lazy("Forbidden"),
    1: gettext_lazy("Limited"),
    2: gettext_lazy("Semi-limited"),
}


def banlist_statuses(card: Card, lang: str) -> list[dict[str, Any]]:
    """The card's status on each ban list in effect today for the game's formats (one row per list)."""
    try:
        formats = default_registry().game(card.game.slug).formats.values()
    except KeyError:
        return []
    rows: dict[int, dict[str, Any]] = {}
    info = card_info(card)
    for fmt in formats:
        if fmt.banlist is None:
            continue
        chosen = banlist_choose(game=card.game, fmt=fmt)
        if chosen is None:
            continue
        title = fmt.title(lang)
        if chosen.pk in rows:
            rows[chosen.pk]["formats"].append(title)
            continue
        limit = banlist_info(chosen).limit_for(info)
        if limit is None:
            whitelist = chosen.is_whitelist or fmt.banlist.whitelist
            status, code = (_("Not on this whitelist"), "forbidden") if whitelist else (_("Unlimited"), "")
        else:
            status = BAN_STATUS.get(limit, _("Unlimited"))
            code = {0: "forbidden", 1: "limited", 2: "semi-limited"}.get(limit, "")
        rows[chosen.pk] = {"banlist": chosen, "formats": [title], "status": status, "code": code}
    return list(rows.values())
