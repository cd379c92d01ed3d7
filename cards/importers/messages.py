"""Import problems as stable message codes + parameters, rendered in any language when shown.

Parsers run long before (and far from) the page that shows their problems, and the job stores them as
JSON, so a problem is kept as ``{"code", "params"}`` plus its English rendering ``reason`` (what the
API, the CLI and old clients read). `import_issue_text` renders it in the viewer's language. Codes are
part of the stored data and the API: never rename or repurpose one; add a new code instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils import translation
from django.utils.translation import gettext_noop

# code → English template (%-style named placeholders, the format gettext checks).
MESSAGES: dict[str, str] = {
    # Free text we cannot translate (a library's own error message); also wraps old plain strings.
    "detail": "%(detail)s",
    # Kinds of JSON values, used as the "kind" parameter of "not_text".
    "kind.object": gettext_noop("an object"),
    "kind.list": gettext_noop("a list"),
    "kind.bool": gettext_noop("true/false"),
    # Python's names for numbers, as the English messages always said.
    "kind.int": gettext_noop("int"),
    "kind.float": gettext_noop("float"),
    "kind.other": "%(name)s",
    # Whole-file problems.
    "file_empty": gettext_noop("the file is empty"),
    "file_too_large": gettext_noop("the file is larger than %(megabytes)s MB"),
    "file_too_deep": gettext_noop("the file is nested too deeply to read"),
    "no_cards": gettext_noop("the file holds no cards"),
    "internal_error": gettext_noop("internal error while importing; see logs"),
    # The import job's own ends (the file may be fine; the run was not).
    "job_worker_lost": gettext_noop(
        "the worker running this import stopped (crash, restart or out of memory) %(attempts)s time(s); "
        "nothing was imported, upload the file again"
    ),
    "job_time_limit": gettext_noop(
        "the import took longer than %(seconds)s seconds and was stopped; nothing was imported"
    ),
    "job_not_started": gettext_noop(
        "no worker started this import within %(minutes)s minutes (is a Celery worker running?); "
        "nothing was imported"
    ),
    "job_enqueue_failed": gettext_noop(
        "the import could not be queued (the task broker did not answer); nothing was imported, try again"
    ),
    "database_refused": gettext_noop("the database refused a value: %(detail)s; nothing was imported"),
    "not_encoding": gettext_noop(
        "the file is not %(encoding)s text (byte %(byte)s on line %(line)s); "
        "save it as UTF-8 (in Excel: “CSV UTF-8”)"
    ),
    "format_undetected": gettext_noop("cannot tell the format of %(filename)s; choose one of: %(formats)s"),
    "format_undetected_unnamed": gettext_noop(
        "cannot tell the format of the file; choose one of: %(formats)s"
    ),
    "unknown_format": gettext_noop("unknown format %(format)s; choose one of: %(formats)s"),
    "wrong_game_for_format": gettext_noop(
        "a %(label)s file holds cards of the game %(games)s, not %(game)s; choose that game"
    ),
    "malformed_json": gettext_noop("malformed JSON: %(detail)s (column %(column)s)"),
    "malformed_json_constant": gettext_noop("malformed JSON: %(name)s is not a number JSON allows"),
    "json_constant": gettext_noop("%(name)s is not a number JSON allows"),
    "malformed_xml": gettext_noop("malformed XML: %(detail)s (column %(column)s)"),
    "xml_entities": gettext_noop(
        "the XML declares entities or external references, which are refused: %(detail)s"
    ),
    "xml_unknown_encoding": gettext_noop(
        "unknown character encoding %(encoding)s declared in the XML header"
    ),
    "xml_not_encoding": gettext_noop(
        "the file is not valid %(encoding)s text (byte %(byte)s); save it as UTF-8"
    ),
    "not_cockatrice": gettext_noop("not a Cockatrice card database of version 3 or 4 (version %(version)s)"),
    "not_vale": gettext_noop('not a Vale card list: expected {"cards": [...]} or a list of cards'),
    "not_deckhall": gettext_noop('not a Deckhall card file: expected an object with a "cards" list'),
    "sets_not_list": gettext_noop('"sets" must be a list of sets'),
    "wrong_format_tag": gettext_noop('"format" must be %(tag)s'),
    "file_for_other_game": gettext_noop("the file is for the game %(file_game)s, not %(game)s"),
    "csv_empty": gettext_noop("the CSV file is empty"),
    "malformed_csv": gettext_noop("malformed CSV: %(detail)s"),
    "missing_columns": gettext_noop("missing column(s): %(columns)s (the header row must name them)"),
    "repeated_columns": gettext_noop("column(s) named twice in the header: %(columns)s"),
    "unknown_columns": gettext_noop(
        "unknown column(s): %(columns)s; attribute columns are named '%(prefix)s<key>'"
    ),
    "not_sqlite": gettext_noop("not a YGOPro card database: the file is not an SQLite database"),
    "sqlite_open": gettext_noop("cannot open the SQLite database: %(detail)s"),
    "sqlite_corrupt": gettext_noop("the SQLite database is corrupt or unreadable: %(detail)s"),
    "missing_tables": gettext_noop("not a YGOPro card database: missing table(s) %(tables)s"),
    "missing_table_columns": gettext_noop("table `%(table)s` lacks column(s) %(columns)s"),
    "cdb_views_triggers": gettext_noop(
        "the card database contains %(objects)s; only plain tables are read, so views and triggers "
        "are refused (remove them with an SQLite editor)"
    ),
    "cdb_too_slow": gettext_noop(
        "reading the card database took longer than %(seconds)s seconds; it is not a plain card database"
    ),
    # Problems of one card, set or cell.
    "empty": gettext_noop("is empty"),
    "required": gettext_noop("is required"),
    "too_long": gettext_noop("is longer than %(limit)s characters"),
    "duplicate_id": gettext_noop("duplicate of the card on line %(other_line)s"),
    "nul": gettext_noop("contains a NUL character"),
    "nested_too_deeply": gettext_noop("is nested too deeply"),
    "not_finite": gettext_noop("%(value)s is not a finite number"),
    "not_whole_number": gettext_noop("expected a whole number, got %(value)s"),
    "out_of_range": gettext_noop("%(value)s is out of range (%(min)s–%(max)s)"),
    "not_boolean": gettext_noop("expected true/false, got %(value)s"),
    "not_text": gettext_noop("must be text, got %(kind)s"),
    "must_be_text": gettext_noop("must be text"),
    "not_list": gettext_noop("must be a list"),
    "not_object": gettext_noop("must be an object"),
    "not_list_of_strings": gettext_noop("must be a list of strings"),
    "not_list_of_text": gettext_noop("must be a list of text values"),
    "not_json_list": gettext_noop("must be a JSON list"),
    "attributes_not_object": gettext_noop("must be an object of key → value"),
    "bad_attribute_name": gettext_noop("attribute names must be letters, digits or _ (max 40)"),
    "printing_no_set": gettext_noop("a printing has no set code"),
    "printing_needs_set": gettext_noop('every printing needs a "set"'),
    "not_http_url": gettext_noop("must be an http(s) address"),
    "printing_too_long": gettext_noop(
        "a set code (max %(set_code)s), printing code (max %(code)s), "
        "rarity (max %(rarity)s) or image address (max %(image_url)s) is too long"
    ),
    "not_a_date": gettext_noop("%(value)s is not a YYYY-MM-DD date"),
    "set_no_name": gettext_noop("a set has no short name"),
    "set_needs_code": gettext_noop('set #%(index)s needs a "code"'),
    "set_field_not_text": gettext_noop("set #%(index)s: must be text, got %(kind)s"),
    "empty_set_element": gettext_noop("a <set> element is empty"),
    "card_not_object": gettext_noop("card #%(index)s is not an object"),
    "not_one_of": gettext_noop("%(value)s is not one of %(choices)s"),
    "effect_needs_type": gettext_noop("every effect needs a type of %(types)s"),
    "cell_count": gettext_noop("has %(cells)s cells, the header has %(columns)s"),
    "invalid_passcode": gettext_noop("invalid passcode %(value)s"),
    "name_without_text_row": gettext_noop("is empty (no row in `texts` for this passcode?)"),
    "bad_type_bits": gettext_noop("type bits %(bits)s are neither monster, spell nor trap"),
    "cdb_no_text_row": gettext_noop("skipped: no row in `texts` for this passcode (EDOPro skips it too)"),
    "cdb_not_deck_type": gettext_noop(
        "type bits %(bits)s are neither monster, spell nor trap: imported as %(card_type)s, "
        "which cannot be put in a deck"
    ),
    "cdb_duplicate_rows": gettext_noop(
        "%(count)s rows for this passcode: the last one is kept, as YGOPro and EDOPro keep it"
    ),
    "not_a_mana_value": gettext_noop("expected a mana value such as 3, 2.0 or 6 // 6, got %(value)s"),
    "mtgjson_unknown_shape": gettext_noop(
        "an MTGJSON file whose “data” is neither sets (AllPrintings), one set nor cards by name (AtomicCards)"
    ),
    "magic_not_deck_cards": gettext_noop(
        "skipped what no deck holds (tokens, emblems, art-series and other non-game cards): %(counts)s"
    ),
    # Updates from the community's files (cards/updates.py): each ends the run with nothing changed.
    "update_no_sources": gettext_noop(
        "no update source is configured for %(game)s (set %(setting)s to the URLs of its files); nothing was changed"
    ),
    "update_bad_url": gettext_noop("%(url)s is not an http(s) URL; nothing was changed"),
    "update_unreachable": gettext_noop(
        "cannot reach %(host)s (%(reason)s): is this machine online? Nothing was changed; import a file "
        "brought on a USB stick on the import page instead"
    ),
    "update_http_error": gettext_noop("%(url)s answered HTTP %(status)s; nothing was changed"),
    "update_listing_empty": gettext_noop(
        "%(url)s lists none of the files read (%(patterns)s); nothing was changed"
    ),
    "update_too_large": gettext_noop("%(url)s is larger than %(megabytes)s MB; nothing was changed"),
    "update_download_broken": gettext_noop(
        "the download of %(url)s broke off (%(reason)s); nothing was changed"
    ),
    "update_file_refused": gettext_noop("%(filename)s cannot be imported (below); nothing was changed"),
    "update_banlist_refused": gettext_noop(
        "a ban-list file cannot be imported (%(detail)s); nothing was changed"
    ),
    "update_nothing_to_roll_back": gettext_noop("%(game)s has no applied update to roll back"),
    "update_rollback_in_decks": gettext_noop(
        "%(count)s decks or tournaments already use what this update added (%(decks)s); remove them from "
        "those first; nothing was rolled back"
    ),
    "update_snapshot_unreadable": gettext_noop(
        "the saved cards cannot be read (%(detail)s); nothing was rolled back"
    ),
    "cdb_other_game": gettext_noop(
        "this is a %(game)s database, not Yu-Gi-Oh!: %(hits)s of %(sample)s card texts speak of its zones, "
        "shields or civilizations, which no Yu-Gi-Oh! card does; nothing was imported (%(total)s cards)"
    ),
    "level_out_of_range": gettext_noop("level/rank/link %(value)s is out of range (0–%(max)s)"),
    # A ZIP of card pictures uploaded with an import (cards/pictures.py); the "card" column names the file.
    "nothing_to_import": gettext_noop("choose a card database file, a ZIP of card pictures, or both"),
    "pictures_zip_too_large": gettext_noop("the pictures ZIP is larger than %(megabytes)s MB"),
    "pictures_not_zip": gettext_noop("the pictures file is not a ZIP archive (%(detail)s)"),
    "pictures_too_many": gettext_noop(
        "the pictures ZIP holds %(count)s files; at most %(limit)s are accepted in one import "
        "(split it into several ZIPs); nothing was imported"
    ),
    "pictures_too_big_total": gettext_noop(
        "the pictures ZIP would unpack to %(megabytes)s MB; at most %(limit)s MB are accepted; "
        "nothing was imported"
    ),
    "pictures_file_too_big": gettext_noop(
        "unpacks to %(megabytes)s MB; a picture may be at most %(limit)s MB; nothing was imported"
    ),
    "pictures_ratio": gettext_noop(
        "compressed %(ratio)s times (pictures barely compress; at most %(limit)s is accepted): "
        "refused as a ZIP bomb; nothing was imported"
    ),
    "pictures_unsafe_path": gettext_noop(
        "unsafe file name (absolute, or leading out of the folder with ..): refused; nothing was imported"
    ),
    "pictures_link": gettext_noop("a symbolic link, not a picture: refused; nothing was imported"),
    "pictures_encrypted": gettext_noop("is encrypted; upload a ZIP without a password; nothing was imported"),
    "pictures_damaged": gettext_noop("cannot be unpacked (%(detail)s); nothing was imported"),
    "pictures_not_image": gettext_noop(
        "is not a JPEG, PNG, WebP, GIF or BMP picture (%(detail)s); nothing was imported"
    ),
    "pictures_too_many_pixels": gettext_noop(
        "is %(width)s × %(height)s pixels, more than the %(limit)s megapixels accepted; nothing was imported"
    ),
    "pictures_total_pixels": gettext_noop(
        "the pictures together are more than %(limit)s megapixels (each costs decoding time): upload them in "
        "smaller ZIPs; nothing was imported"
    ),
    "pictures_too_slow": gettext_noop(
        "reading the pictures took more than %(seconds)s seconds: upload them in smaller ZIPs or smaller "
        "pictures; nothing was imported"
    ),
    "pictures_empty": gettext_noop(
        "the pictures ZIP holds no pictures (.jpg, .jpeg, .png, .webp, .gif or .bmp files)"
    ),
    "pictures_resized": gettext_noop(
        "resized from %(width)s × %(height)s to %(new_width)s × %(new_height)s: pictures are kept at most "
        "%(max_height)s px high and %(max_width)s px wide, sharp at the size pages show them"
    ),
    "pictures_unknown_card": gettext_noop(
        "names no card of this game (neither an external id nor a card name): skipped"
    ),
    "pictures_duplicate": gettext_noop("a second picture for %(card)s (the first is %(first)s): skipped"),
    "pictures_not_picture_file": gettext_noop(
        "not a picture file (.jpg, .jpeg, .png, .webp, .gif or .bmp): skipped"
    ),
    "pictures_field_art": gettext_noop("an EDOPro field-spell background, not a card picture: skipped"),
}
# Templates that are only a parameter: nothing to translate (not in the catalogue either).
UNTRANSLATED = frozenset({"detail", "kind.other"})


@dataclass(frozen=True)
class Message:
    """A problem's text as data: a code of MESSAGES and its parameters (text, numbers or Messages)."""

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "params": _params_dict(self.params)}

    def __str__(self) -> str:
        return _render(self.code, _params_dict(self.params), translate=False)


def msg(code: str, /, **params: Any) -> Message:
    """A Message; an unknown code or a missing parameter is a bug and fails here, not when shown."""
    message = Message(code, params)
    str(message)  # KeyError for an unknown code or a parameter the template needs but lacks
    return message


def kind(value: Any) -> Message:
    """What a JSON value is, for "must be text, got …" (translated with the rest of the message)."""
    for python_type, code in ((bool, "kind.bool"), (dict, "kind.object"), (list, "kind.list")):
        if isinstance(value, python_type):
            return msg(code)
    if isinstance(value, int):
        return msg("kind.int")
    if isinstance(value, float):
        return msg("kind.float")
    return msg("kind.other", name=type(value).__name__)


class ReasonError(ValueError):
    """A ValueError whose reason is a translatable Message (raised by the shared cell parsers)."""

    def __init__(self, message: Message) -> None:
        super().__init__(str(message))
        self.message = message


def reason_of(exc: Exception) -> Message:
    return exc.message if isinstance(exc, ReasonError) else msg("detail", detail=str(exc))


def _params_dict(params: Mapping[str, Any]) -> dict[str, Any]:
    # JSON-ready: nested Messages become {"code", "params"}; anything else not JSON becomes its text.
    out: dict[str, Any] = {}
    for key, value in params.items():
        if isinstance(value, Message):
            out[key] = value.as_dict()
        elif value is None or isinstance(value, str | int | float | bool):
            out[key] = value
        else:
            out[key] = str(value)
    return out


def _render(code: str, params: Mapping[str, Any], *, translate: bool) -> str:
    template = MESSAGES[code]
    if translate and code not in UNTRANSLATED:
        template = translation.gettext(template)
    values = {
        key: _render(value["code"], value.get("params") or {}, translate=translate)
        if isinstance(value, dict) and "code" in value
        else value
        for key, value in params.items()
    }
    return template % values


def import_issue_text(issue: Mapping[str, Any], language: str | None = None) -> str:
    """The reason of a stored problem (`ImportIssue.as_dict()`, `ImportJob.errors` item) in `language`
    (None: the active one). Jobs stored before codes existed, or with a code this version no longer
    knows, show their stored English `reason`."""
    code = issue.get("code")
    fallback = str(issue.get("reason") or "")
    if not isinstance(code, str) or code not in MESSAGES:
        return fallback
    params = issue.get("params") or {}
    try:
        if language is None:
            return _render(code, params, translate=True)
        with translation.override(language):
            return _render(code, params, translate=True)
    except (KeyError, TypeError, ValueError, AttributeError):  # damaged or foreign params
        return fallback
