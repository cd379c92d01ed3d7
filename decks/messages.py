"""The words of deck-list problems: one message table keyed by the codes the parsers (decks/formats) and the
card resolver (decks/resolve.py) return, rendered through the translation catalogues in the reader's language.

A parameter is rendered by its shape: a plain value (a card name, a line's text, a number) as it is; a
``{"en": ..., "ru": ...}`` data label (a format's name) in the reader's language, English when the rule set
has no word in it; a card type (``{"game", "field", "value"}``) in the game's ``[game.labels]`` word; the
``options`` of an ambiguous name as one phrase per card.

Codes are part of the API (``key`` of an import's ``unknown`` lines, ``params.detail.problem`` of a rule
report's unreadable line): add new ones, never repurpose one. Adding a language is a catalogue.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from django.utils import translation
from django.utils.translation import gettext, gettext_noop, ngettext_lazy, pgettext

from cards.labels import value_label
from games.registry import word_for
from rules import messages as rules_messages

from .formats import problems

log = logging.getLogger(__name__)

MESSAGES: dict[str, Any] = {
    "line": gettext_noop("line %(line)s: %(detail)s"),
    # Whole-file problems.
    "file_too_large": gettext_noop("the file is too large (%(size)s bytes; at most %(limit)s are accepted)"),
    "not_text": gettext_noop("the file is not text (neither UTF-8 nor Windows-1251)"),
    "unknown_format": gettext_noop("unknown deck format '%(format)s'; use one of: %(formats)s"),
    "too_many_lines": gettext_noop("the file has more than %(limit)s lines"),
    # Lines of any format.
    "quantity_not_number": gettext_noop("the quantity '%(quantity)s' of %(what)s is not a whole number"),
    "quantity_range": gettext_noop("the quantity %(quantity)s of %(what)s must be between 1 and %(max)s"),
    "line_too_long": gettext_noop("the line is longer than %(limit)s characters"),
    "control_characters": gettext_noop("the line contains control characters"),
    "hero_second": gettext_noop("a deck has one hero; a second one was given"),
    "hero_count": gettext_noop("a deck has exactly one hero, not %(count)s"),
    "unknown_section_header": gettext_noop("unknown section header '%(header)s'"),
    # .ydk and ydke://
    "not_passcode": gettext_noop("'%(text)s' is not a card passcode (digits only)"),
    "ydke_prefix": gettext_noop("a ydke link starts with ydke://"),
    "ydke_parts": gettext_noop("a ydke link has three parts (main!extra!side!)"),
    "ydke_base64": gettext_noop("the %(section)s part of the ydke link is not valid base64"),
    "ydke_truncated": gettext_noop("the %(section)s part of the ydke link is truncated"),
    # Cockatrice .cod and MTGO .dek (XML).
    "xml_entities": gettext_noop("the XML uses entities or DTDs, which are refused"),
    "xml_invalid": gettext_noop("the file is not valid XML (%(detail)s)"),
    "xml_root": gettext_noop("expected a <cockatrice_deck> document, found <%(tag)s>"),
    "card_no_name": gettext_noop("card #%(position)s has no name"),
    # Deckhall JSON.
    "json_invalid": gettext_noop("the file is not valid JSON (%(detail)s)"),
    "json_not_object": gettext_noop("a Deckhall deck is a JSON object"),
    "json_format_tag": gettext_noop('"format" must be "%(tag)s"'),
    "json_version": gettext_noop("unsupported version %(version)s (expected 1)"),
    "json_not_string": gettext_noop('"%(key)s" must be a string'),
    "json_sections_shape": gettext_noop('"sections" must be an object of section: [entries]'),
    "json_section_shape": gettext_noop("%(where)s: must be a list of entries"),
    "json_entry_shape": gettext_noop('%(where)s: each entry is {"card": id, "count": n}'),
    "json_card_id": gettext_noop("%(where)s: 'card' must be the card's id (a string)"),
    # Other clients' files.
    "forge_outside_section": gettext_noop(
        "'%(text)s' stands before any [Main] / [Sideboard] section of the Forge deck"
    ),
    "mtgjson_shape": gettext_noop('an MTGJSON deck needs a "mainBoard" list of cards'),
    # CSV.
    "csv_header": gettext_noop("the header must be: section,count,card,name"),
    "csv_row_unreadable": gettext_noop("the row is too long or contains control characters"),
    "csv_row_no_card": gettext_noop("the row names no card (card and name are empty)"),
    "csv_malformed": gettext_noop("the CSV is malformed (%(detail)s)"),
    # Writing a deck in a format that cannot hold it.
    "export_other_sections": gettext_noop(
        "%(format)s holds only main, extra and side decks; this deck also has %(sections)s"
    ),
    "export_hero": gettext_noop(
        "%(format)s holds only main, extra and side decks; this deck also has a hero"
    ),
    "export_not_passcode": gettext_noop("%(format)s needs numeric passcodes; “%(card)s” has none"),
    "export_no_printing": gettext_noop(
        "%(format)s names each card by its set and collector number; “%(card)s” has no printing in the database"
    ),
    "export_xmage_sections": gettext_noop(
        "%(format)s holds only a main deck and a sideboard; this deck also has %(sections)s"
    ),
    "export_xmage_side": gettext_noop(
        "%(format)s keeps a commander in the sideboard: a Commander deck with a sideboard cannot be written"
    ),
    # The card resolver: lines that became no card of the deck.
    "resolve.unknown_id": gettext_noop("card id '%(ref)s' is not in the card database"),
    "resolve.unknown_id_named": gettext_noop("card id '%(ref)s' (%(name)s) is not in the card database"),
    "resolve.unknown_name": gettext_noop("card '%(ref)s' is not in the card database"),
    "resolve.unknown_name_suggest": gettext_noop(
        "card '%(ref)s' is not in the card database — did you mean '%(suggestion)s'?"
    ),
    "resolve.not_buildable": gettext_noop("%(card)s is a token or otherwise cannot be put in a deck"),
    "resolve.no_hero": gettext_noop("%(format)s decks have no hero"),
    "resolve.section": gettext_noop(
        "section '%(section)s' is not part of %(format)s (its sections: %(sections)s)"
    ),
    "resolve.ambiguous": ngettext_lazy(
        "'%(text)s' matches %(count)s different card: %(options)s",
        "'%(text)s' matches %(count)s different cards: %(options)s",
        "count",
    ),
    # One card of an ambiguous name, and what tells it apart.
    "resolve.option": gettext_noop("%(name)s (%(facts)s) — write “%(name)s (#%(id)s)”"),
    "resolve.fact.set": gettext_noop("set %(set)s"),
    "resolve.fact.level": gettext_noop("level %(level)s"),
}


def _option(option: Mapping[str, Any], lang: str) -> str:
    facts = [f"#{option.get('id', '')}"]
    if option.get("set"):
        facts.append(gettext(MESSAGES["resolve.fact.set"]) % {"set": option["set"]})
    if option.get("level") is not None:
        facts.append(gettext(MESSAGES["resolve.fact.level"]) % {"level": option["level"]})
    if isinstance(option.get("type"), Mapping):
        facts.append(str(_value("type", option["type"], lang)))
    return gettext(MESSAGES["resolve.option"]) % {
        "name": option.get("name", ""),
        "id": option.get("id", ""),
        "facts": pgettext("between facts about a card", ", ").join(facts),
    }


def _value(name: str, value: Any, lang: str) -> Any:
    if name == "options" and isinstance(value, list):
        return pgettext("between cards of one name", "; ").join(
            _option(option, lang) for option in value if isinstance(option, Mapping)
        )
    if isinstance(value, Mapping):
        if "game" in value and "field" in value:
            return value_label(str(value["game"]), str(value["field"]), value.get("value"), lang)
        return word_for(value, lang)
    return value


def render(code: str, params: Mapping[str, Any], lang: str | None = None) -> str:
    """The problem's words in ``lang`` (None: the active language)."""
    lang = lang or translation.get_language() or "en"
    with translation.override(lang):
        try:
            entry = MESSAGES[code]
            template = gettext(entry) if isinstance(entry, str) else entry
            return str(template % {key: _value(key, value, lang) for key, value in params.items()})
        except (KeyError, TypeError, ValueError):
            # A code this version does not know, or damaged params (a stored report): say what is known.
            log.warning("cannot render deck problem %s %r", code, params)
            return f"{code}: {dict(params)}" if params else code


def render_param(value: Mapping[str, Any], lang: str | None = None) -> str:
    """A problem carried as a report parameter (``{"problem", "params", "line"}``), with its line."""
    text = render(str(value.get("problem", "")), value.get("params") or {}, lang)
    line = value.get("line")
    return render("line", {"line": line, "detail": text}, lang) if line else text


def install() -> None:
    problems.set_renderer(render)
    # Report parameters that carry a deck-list problem are worded here, not in rules (below decks).
    rules_messages.problem_renderer_set(render_param)
