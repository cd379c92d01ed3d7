"""Words for a game's card fields and values, from its rule set's ``[game.labels]`` table
(rules/README.md, "Labels"), and the card preview built from them.

Card data keeps the raw values the importers store ("monster", "DARK", "atk"); players read the rule
set's words in their language, English when the rule set has no Russian word, the raw value when it has
none at all. One place builds the preview so the builder, the deck page, the browser and the card page
lay a card out the same way.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from games.registry import default_registry, game_labels, word_for

from .images import card_image
from .models import Card, Format, Game

# Built-in Card columns a rule set's ``preview`` list may name besides attribute keys.
_COLUMNS = ("level", "cost")
# A stat the importer stores as null is printed "?" on the card (YGOPro's atk/def of -2).
_UNKNOWN = "?"


def _lang(lang: str) -> str:
    return "ru" if lang.startswith("ru") else "en"


def game_label_table(game_slug: str) -> Mapping[str, Any]:
    try:
        return game_labels(game_slug)
    except (KeyError, OSError):
        return {}


def _word(entry: Any, lang: str) -> str | None:
    if isinstance(entry, str):
        return entry
    if isinstance(entry, Mapping):
        # A rule set may name a value in any language the site has; English is the fallback.
        return word_for(entry, lang) or None
    return None


def field_label(game_slug: str, field: str, lang: str = "en", subtypes: Iterable[str] = ()) -> str:
    """The game's word for a field ("ATK", "Ранг" for an Xyz monster's level); the search filter's label
    or the key made readable when the rule set has none."""
    table = game_label_table(game_slug)
    by_subtype = table.get("fields_by_subtype", {})
    for subtype in subtypes:
        word = _word(by_subtype.get(subtype, {}).get(field), lang)
        if word:
            return word
    word = _word(table.get("fields", {}).get(field), lang)
    if word:
        return word
    from .selectors import game_search_filters

    for search_filter in game_search_filters(game_slug=game_slug):
        if search_filter.field == field:
            return search_filter.title(_lang(lang))
    return field.replace("_", " ").capitalize()


def value_label(game_slug: str, field: str, value: Any, lang: str = "en") -> str:
    """The game's word for one value of a field ("Монстр" for type "monster"); the value itself otherwise."""
    entry = game_label_table(game_slug).get("values", {}).get(field, {}).get(str(value))
    return _word(entry, lang) or str(value)


def value_labels(game_slug: str, field: str, lang: str = "en") -> dict[str, str]:
    """Every labelled value of a field in ``lang``: what a search filter's options show."""
    values = game_label_table(game_slug).get("values", {}).get(field, {})
    return {str(value): _word(entry, lang) or str(value) for value, entry in values.items()}


def display_value(game_slug: str, field: str, raw: Any, lang: str = "en") -> str:
    if raw is None:
        return _UNKNOWN
    if isinstance(raw, bool):
        return "✓" if raw else "—"
    if isinstance(raw, list):
        return ", ".join(
            value_label(game_slug, field, item, lang) for item in raw if not isinstance(item, dict)
        )
    if isinstance(raw, dict):
        return ", ".join(f"{key}: {value}" for key, value in raw.items())
    # "DARK/LIGHT": the YGOPro importer joins several attribute bits with a slash.
    if isinstance(raw, str) and "/" in raw:
        return "/".join(value_label(game_slug, field, part, lang) for part in raw.split("/"))
    return value_label(game_slug, field, raw, lang)


def type_line(card: Card, lang: str = "en") -> str:
    """ "Monster — Normal, Tuner": the card type and its subtypes in the game's words."""
    slug = card.game.slug
    head = value_label(slug, "type", card.card_type, lang) if card.card_type else ""
    subtypes = [value_label(slug, "subtype", s, lang) for s in card.subtypes or [] if isinstance(s, str)]
    return f"{head} — {', '.join(subtypes)}" if head and subtypes else head or ", ".join(subtypes)


def preview_fields(game_slug: str) -> list[str]:
    """The fields a preview shows, in the rule set's order; every built-in column when it names none."""
    fields = game_label_table(game_slug).get("preview")
    return [str(f) for f in fields] if isinstance(fields, list) else list(_COLUMNS)


def card_stats(card: Card, lang: str = "en") -> list[dict[str, str]]:
    """The card's stats as (label, value) rows in the rule set's order; fields the card lacks are left out
    (a spell has no ATK), a null stat the card does have reads "?"."""
    slug = card.game.slug
    attributes = card.attributes if isinstance(card.attributes, dict) else {}
    subtypes = [s for s in card.subtypes or [] if isinstance(s, str)]
    rows = []
    for field in preview_fields(slug):
        if field in _COLUMNS:
            raw = getattr(card, field)
            if raw is None:
                continue
        elif field in attributes:
            raw = attributes[field]
        else:
            continue
        if raw == [] or raw == "":
            continue
        rows.append(
            {
                "field": field,
                "label": field_label(slug, field, lang, subtypes),
                "value": display_value(slug, field, raw, lang),
            }
        )
    return rows


def card_preview(card: Card, lang: str = "en") -> dict[str, Any]:
    """Everything a preview panel shows for one card, as plain data (the builder gets it as JSON)."""
    return {
        "id": card.pk,
        "name": str(card),
        "type_line": type_line(card, lang),
        "stats": card_stats(card, lang),
        "text": card.text,
        # "" when there is no picture to show (cards/images.py): pages keep the text-only layout then.
        "image": card_image(card),
    }


def with_value_labels(game_slug: str, facets: list[dict[str, Any]], lang: str = "en") -> list[dict[str, Any]]:
    """The search facets (cards.selectors.card_facets) with ``options``: (value, the game's word for it)
    for each choice, what the builder's and the browser's filter selects show."""
    return [
        {**facet, "options": [(v, value_label(game_slug, facet["field"], v, lang)) for v in facet["values"]]}
        if facet["kind"] == "choice"
        else facet
        for facet in facets
    ]


def _rule_set_names(game_slug: str, format_slug: str | None = None) -> dict[str, str]:
    try:
        game = default_registry().game(game_slug)
        return game.formats[format_slug].words() if format_slug else game.words()
    except KeyError:
        return {}


def _with_rows_names(names: dict[str, str], name: str, name_ru: str) -> dict[str, str]:
    # The database row's names are editable (the twin-deck game has no official name): they win for the
    # languages they cover; the rule set's labels name the game or format in the others.
    out = {**names, "en": name}
    if name_ru:
        out["ru"] = name_ru
    return out


def game_title(game: Game, lang: str = "en") -> str:
    """The game's name in ``lang``: its row's name/name_ru, else the rule set's label, else English."""
    return word_for(_with_rows_names(_rule_set_names(game.slug), game.name, game.name_ru), lang)


def format_title(fmt: Format, lang: str = "en", game_slug: str | None = None) -> str:
    """The format's name in ``lang``, by the same rule as :func:`game_title`."""
    slug = game_slug or fmt.game.slug
    return word_for(_with_rows_names(_rule_set_names(slug, fmt.slug), fmt.name, fmt.name_ru), lang)


def format_slug_title(game: Game, format_slug: str, lang: str = "en") -> str:
    """A format a deck or tournament names by slug, in ``lang``; the slug itself for a format the rule set
    no longer has (a stored event outlives its data)."""
    return word_for(_rule_set_names(game.slug, format_slug), lang) or format_slug
