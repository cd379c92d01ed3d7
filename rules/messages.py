"""The words of rule reports: one message table keyed by the engine's message keys, rendered through the
translation catalogues in the requester's language.

The engine (rules/engine) returns violations as a ``code``, a message ``key`` and named ``params`` and
builds no sentence; this module turns them into words. A parameter is rendered by its shape:

- a plain value (card name, number, ban-list name) as it is;
- ``{"en": ..., "ru": ...}`` — a data label from the rule set (section, format, hero slot, card property):
  the requester's language, English when the rule set has no word in it;
- ``{"game", "field", "value"}`` — a card value (card type): the game's ``[game.labels]`` word;
- ``{"filter", "fields"}`` — a card filter (a hero's restriction, what a section takes), its fields named
  by the game's labels and joined with the catalogue's words;
- a list of labels — section names, each wrapped and joined as the catalogue says;
- ``size`` — a section size rule (``{"kind": "exact" | "range" | ...}``), in words from the catalogue;
- ``date`` — an ISO date, in the language's short date format;
- ``{"key", "params"}`` — a nested message (why a hero restriction could not be read), worded by this
  table in the same language.

Ban-list files and their import have their keys in rules/banlist_messages.py, merged into this table.

Adding a language is a catalogue (and rule-set labels), never a change here. Keys are part of the API
(``key`` in each report entry): add new ones, never repurpose one.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from datetime import date
from typing import Any

from django.core.exceptions import ValidationError
from django.utils import formats, translation
from django.utils.translation import gettext, gettext_noop, ngettext_lazy, pgettext

from cards.labels import value_label
from games.filters import describe_filter
from games.registry import word_for

from .banlist_messages import BANLIST_MESSAGES
from .engine.report import Violation, set_renderer

log = logging.getLogger(__name__)

# key → English template (%-style named placeholders, checked by gettext's python-format); a message whose
# grammar follows a number is an ``ngettext_lazy`` naming the parameter that counts.
MESSAGES: dict[str, Any] = {
    "count.not_positive": gettext_noop(
        "%(section)s: the count of %(card)s must be a positive whole number, not %(count)s."
    ),
    "deck.no_decks": gettext_noop(
        "%(game)s is played without player decks (one shared stack of cards), so there is no deck to validate."
    ),
    "lookup.unknown_game": gettext_noop("There is no game “%(game)s”; the games are: %(known)s."),
    "lookup.unknown_format": gettext_noop("%(game)s has no format “%(format)s”; its formats are: %(known)s."),
    "lookup.unknown_section": gettext_noop(
        "The %(format)s format of %(game)s has no section “%(section)s”; its sections are: %(known)s."
    ),
    "section_size.unknown_section": gettext_noop(
        "The %(format)s format has no section “%(section)s” (its sections: %(sections)s): "
        "remove its %(total)s cards."
    ),
    "section_size.size": ngettext_lazy(
        "%(section)s has %(total)s card; it must have %(size)s.",
        "%(section)s has %(total)s cards; it must have %(size)s.",
        "total",
    ),
    "section_card_type.not_buildable": gettext_noop(
        "%(card)s cannot be put in a deck (token or not deck-buildable): remove %(count)s from %(section)s."
    ),
    "section_card_type.wrong_type": gettext_noop(
        "%(card)s (%(kind)s) is not allowed in %(section)s, which takes only %(takes)s: move or remove %(count)s."
    ),
    "copy_limit.over": gettext_noop(
        "%(total)s copies of %(card)s in %(sections)s; at most %(limit)s are allowed: remove %(excess)s."
    ),
    "not_on_whitelist.missing": gettext_noop(
        "%(card)s is not on the %(list)s whitelist, so it is not legal: remove all %(total)s from %(sections)s."
    ),
    "not_on_whitelist.no_list": gettext_noop(
        "The %(format)s format is a whitelist format but no whitelist was found; cards were not checked."
    ),
    "banlist_forbidden.forbidden": gettext_noop(
        "%(card)s is Forbidden on %(list)s: remove all %(total)s from %(sections)s."
    ),
    "banlist_limit.limited": gettext_noop(
        "%(card)s is Limited (%(limit)s) on %(list)s; the deck has %(total)s in %(sections)s: remove %(excess)s."
    ),
    "banlist_limit.semi_limited": gettext_noop(
        "%(card)s is Semi-Limited (%(limit)s) on %(list)s; the deck has %(total)s in %(sections)s: "
        "remove %(excess)s."
    ),
    "banlist_limit.no_list": gettext_noop(
        "No ban list for %(format)s is in effect on %(date)s; ban list limits were not checked."
    ),
    "hero_restriction.no_hero": gettext_noop("The %(format)s format has no hero; %(card)s was ignored."),
    "hero_missing.none": gettext_noop(
        "The deck needs exactly one %(hero)s card, outside the counted deck; none was given."
    ),
    "hero_missing.wrong_card": gettext_noop(
        "%(card)s (%(kind)s) cannot be the %(hero)s: choose another card."
    ),
    "hero_count.too_many": gettext_noop(
        "The deck has %(total)s %(hero)s cards (%(names)s); it must have exactly one: remove %(excess)s."
    ),
    "hero_restriction.none_entered": gettext_noop(
        "No deck-building restrictions are entered for the %(hero)s %(leader)s; check its card by hand."
    ),
    "hero_restriction.identity": gettext_noop(
        "%(card)s is outside the %(property)s of the %(hero)s %(leader)s (%(shown)s): it has %(extra)s; "
        "remove %(count)s from %(sections)s."
    ),
    "hero_restriction.unreadable": gettext_noop(
        "A restriction of the %(hero)s %(leader)s could not be read (%(detail)s); check it by hand."
    ),
    "hero_restriction.forbid": gettext_noop(
        "The %(hero)s %(leader)s forbids %(what)s: remove %(count)s × %(card)s from %(sections)s."
    ),
    "hero_restriction.only": gettext_noop(
        "The %(hero)s %(leader)s allows only %(what)s: remove %(count)s × %(card)s from %(sections)s."
    ),
    "hero_restriction.at_least": gettext_noop(
        "The %(hero)s %(leader)s needs at least %(limit)s cards with %(what)s in %(sections)s; "
        "it has %(total)s: add %(missing)s."
    ),
    "hero_restriction.at_most": gettext_noop(
        "The %(hero)s %(leader)s allows at most %(limit)s cards with %(what)s in %(sections)s; "
        "it has %(total)s: remove %(excess)s."
    ),
    "not_in_pool.no_pool": gettext_noop(
        "The %(format)s format builds decks from a registered card pool, and none was given."
    ),
    "not_in_pool.short": gettext_noop(
        "The deck uses %(total)s × %(card)s but the registered pool holds %(have)s: "
        "remove %(excess)s from %(sections)s."
    ),
    "slot.hero": gettext_noop("Hero"),
    "unknown_card.not_found": gettext_noop(
        "“%(ref)s” (%(count)s in %(sections)s) is not in the card database: check the name or id."
    ),
    "unknown_card.hero_slot": gettext_noop(
        "“%(ref)s” (%(count)s in the %(hero)s slot) is not in the card database: check the name or id."
    ),
    "unknown_card.pool": gettext_noop(
        "“%(ref)s” (%(count)s in the registered pool) is not in the card database, "
        "so the pool was checked without it."
    ),
    "sideboard_swap.refused": gettext_noop(
        "The swaps were refused: the deck after them would not be legal (the other reasons say why); "
        "the deck is unchanged."
    ),
    "sideboard_swap.no_sideboard": gettext_noop(
        "The %(format)s format has no sideboard: cards cannot be swapped between games."
    ),
    "sideboard_swap.count": gettext_noop("A swap must move at least one card, got %(count)s."),
    "sideboard_swap.bad_section": gettext_noop(
        "Cannot swap cards into “%(section)s”: choose a deck section of %(format)s."
    ),
    "sideboard_swap.out_short": gettext_noop(
        "Cannot side out %(count)s × %(card)s: %(section)s holds %(have)s."
    ),
    "sideboard_swap.in_short": gettext_noop(
        "Cannot side in %(count)s × %(card)s: %(section)s holds %(have)s."
    ),
    "sideboard_swap.keep_size": gettext_noop(
        "%(section)s must keep %(before)s cards after sideboarding (swap one for one); it would have %(after)s."
    ),
    # A deck file's line the card resolver could not place; ``detail`` is the resolver's problem (a code and
    # params, worded by decks/messages.py).
    "resolve.line": gettext_noop("line %(line)s: %(detail)s"),
    "resolve.detail": "%(detail)s",
    "unreadable_line.parse": gettext_noop("could not read: %(detail)s"),
    # Why a hero restriction could not be read: the ``detail`` of ``hero_restriction.unreadable``.
    "hero_restriction.entry": gettext_noop(
        "%(entry)s is not one of forbid / only / require / at_most / at_least with a filter and a count, "
        "section_size with a section and min/max, or copy_limit with max"
    ),
    "filter.not_object": gettext_noop("a filter must be an object of field -> condition, got %(spec)s"),
    "filter.bad_value": gettext_noop("filter field “%(field)s”: %(value)s is not a text or number value"),
    "filter.not_number": gettext_noop(
        "filter field “%(field)s”: %(condition)s must be a number, got %(value)s"
    ),
    "filter.needs_text": gettext_noop("filter field “%(field)s”: %(condition)s needs a text, got %(value)s"),
    "filter.unknown_condition": gettext_noop("filter field “%(field)s”: unknown condition key(s) %(keys)s"),
    **BANLIST_MESSAGES,
}

# Templates that are only a parameter: nothing to translate.
UNTRANSLATED = frozenset({"resolve.detail"})


def _size(size: Mapping[str, Any]) -> str:
    kind = size.get("kind")
    if kind == "exact":
        return gettext("exactly %(n)s") % {"n": size["n"]}
    if kind == "allowed":
        return pgettext("between allowed sizes", " or ").join(str(n) for n in size["values"])
    if kind == "range":
        return gettext("%(min)s to %(max)s") % {"min": size["min"], "max": size["max"]}
    if kind == "min":
        return gettext("at least %(n)s") % {"n": size["n"]}
    if kind == "max":
        return gettext("at most %(n)s") % {"n": size["n"]}
    return gettext("any number")


def label_text(entry: Mapping[str, Any], lang: str) -> str:
    """One data label in ``lang`` (``pt-br`` tries ``pt-br``, then ``pt``), English when it has none."""
    return word_for(entry, lang)


def filter_phrases() -> dict[str, str]:
    """The joining words of a card filter in the active language (the engine's describe_filter takes them)."""
    return {
        "or": pgettext("between filter alternatives", " or "),
        "not": pgettext("card filter", "%(field)s not %(values)s"),
        "contains": pgettext("card filter", "%(field)s contains “%(values)s”"),
        "not_contains": pgettext("card filter", "%(field)s lacks “%(values)s”"),
    }


def _filter(spec: Any, fields: Mapping[str, Any], lang: str) -> str:
    """A card filter in words ("Size L, Region North / South"), fields named by the game's labels."""
    labels = {key: label_text(entry, lang) for key, entry in fields.items() if isinstance(entry, Mapping)}
    return describe_filter(spec, labels, filter_phrases())


def _value(name: str, value: Any, lang: str) -> Any:
    if name == "size" and isinstance(value, Mapping):
        return _size(value)
    if name == "date" and isinstance(value, str):
        try:
            return formats.date_format(date.fromisoformat(value), "SHORT_DATE_FORMAT")
        except ValueError:
            return value
    if isinstance(value, Mapping):
        if "key" in value and "params" in value:
            return render_key(str(value["key"]), value["params"] or {}, lang)
        if "problem" in value:
            # A deck-list line the parsers or the card resolver could not place: the decks app words it.
            return _problem_words(value, lang)
        if "filter" in value:
            return _filter(value["filter"], value.get("fields") or {}, lang)
        if "field" in value and "game" in value:
            return value_label(str(value["game"]), str(value["field"]), value.get("value"), lang)
        return label_text(value, lang)
    if isinstance(value, list):
        item = pgettext("a section name in a message", "%(name)s")
        names = [item % {"name": label_text(v, lang) if isinstance(v, Mapping) else v} for v in value]
        return pgettext("between section names", " + ").join(names)
    return value


def _template(key: str) -> Any:
    entry = MESSAGES[key]
    if not isinstance(entry, str):
        return entry  # a plural: picks its form when the values are applied, in the active language
    return entry if key in UNTRANSLATED else gettext(entry)


def render(violation: Violation, lang: str | None = None) -> str:
    """The violation's sentence in ``lang`` (None: the active language)."""
    return render_key(violation.key, violation.params, lang, code=violation.code)


def render_key(key: str, params: Mapping[str, Any], lang: str | None = None, *, code: str = "") -> str:
    """The sentence of message ``key`` with ``params`` in ``lang`` (None: the active language)."""
    lang = lang or translation.get_language() or "en"
    with translation.override(lang):
        try:
            values = {name: _value(name, value, lang) for name, value in params.items()}
            return str(_template(key) % values)
        except (KeyError, TypeError, ValueError):
            # A key this version does not know or damaged params (a stored report): say what is known.
            log.warning("cannot render rule message %s %r", key, params)
            return f"{code or key}: {params}"


def error_message(error: Exception) -> str:
    """The words for an engine error that carries a message key (an unknown game, format or section; input
    that cannot be judged) in the active language; other errors' own text."""
    key = getattr(error, "key", "")
    if key in MESSAGES:
        return render_key(key, getattr(error, "params", {}))
    if isinstance(error, KeyError):
        return str(error.args[0]) if error.args else str(error)
    return str(error)


class KeyedValidationError(ValidationError):
    """A service's refusal, worded in the active language, that keeps its message key and params so an API
    can answer them with the words (``message_params``: Django's own ``params`` would be applied again)."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(render_key(key, params), code=key)
        self.message_key = key
        self.message_params = params


def refusal(error: Exception) -> KeyedValidationError | ValidationError:
    """The ValidationError for an error that carries a message key (a ban-list file the readers cannot read,
    input the engine cannot judge), worded in the active language; other errors' own text."""
    key = getattr(error, "key", "")
    if key in MESSAGES:
        return KeyedValidationError(key, **getattr(error, "params", {}))
    return ValidationError(error_message(error))


# The decks app (above rules) words the problems of deck-list lines; it hands its renderer in from
# DecksConfig.ready() (decks.messages.install), so rules never imports decks.
_problem_renderer: Callable[[Mapping[str, Any], str], str] | None = None


def problem_renderer_set(renderer: Callable[[Mapping[str, Any], str], str]) -> None:
    global _problem_renderer
    _problem_renderer = renderer


def _problem_words(value: Mapping[str, Any], lang: str) -> str:
    if _problem_renderer is None:  # the decks app is not installed: its code is all there is to say
        return str(value.get("problem", ""))
    return _problem_renderer(value, lang)


def install() -> None:
    set_renderer(render)
