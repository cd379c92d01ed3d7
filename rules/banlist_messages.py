"""The words of ban-list files and their import: the keys the readers (rules/lflist.py, rules/namelist.py)
and the import service return, with English templates for the catalogues.

rules/messages.py merges this table into its own, so a ban-list message is rendered like any rule report
message (``render_key``, ``error_message``) and the translation tests check it with the others. Keys are
part of the API (``key`` of an import's warnings and refusals): add new ones, never repurpose one.
"""

from __future__ import annotations

from django.utils.translation import gettext_noop

BANLIST_MESSAGES: dict[str, str] = {
    # A file the readers cannot read: the import is refused, nothing is written.
    "banlist_file.no_list": gettext_noop("No list found: a list starts with a “!name” line."),
    "banlist_file.no_name": gettext_noop("line %(line)s: a list needs a name after “!”."),
    "banlist_file.bad_date": gettext_noop(
        "line %(line)s: “#date %(value)s” is not a real date (YYYY-MM-DD)."
    ),
    "banlist_file.name_entry": gettext_noop(
        "line %(line)s: expected “Card Name: banned | restricted | limited N”, got “%(text)s”."
    ),
    "banlist_file.entry_before_list": gettext_noop(
        "line %(line)s: “%(text)s” comes before the first “!name” list header."
    ),
    "banlist_file.name_repeated": gettext_noop(
        "line %(line)s: “%(name)s” is listed again (line %(earlier_line)s) in “%(list)s”."
    ),
    # Lines EDOPro skips or reads leniently: read the same way, and the import says so.
    "banlist_file.before_list": gettext_noop(
        "line %(line)s: “%(text)s” comes before the first “!name” list; skipped."
    ),
    "banlist_file.unknown_directive": gettext_noop(
        "line %(line)s: unknown directive “%(text)s” (only $whitelist is known); skipped."
    ),
    "banlist_file.no_count": gettext_noop(
        "line %(line)s: “%(text)s” has no count after the passcode; skipped."
    ),
    "banlist_file.not_passcode_count": gettext_noop(
        "line %(line)s: expected “passcode count --name”, got “%(text)s”; skipped."
    ),
    "banlist_file.count_above": gettext_noop(
        "line %(line)s: count %(count)s is above %(max)s; read as %(max)s (unlimited)."
    ),
    "banlist_file.repeated": gettext_noop(
        "line %(line)s: passcode %(code)s is listed again with count %(count)s (line %(earlier_line)s says "
        "%(earlier)s); the later count is used, as EDOPro does."
    ),
    # The import service's refusals.
    "banlist_import.missing_lists": gettext_noop(
        "The file has no list named %(names)s; its lists: %(known)s."
    ),
    "banlist_import.no_date": gettext_noop(
        "List “%(list)s”: no date in its name (like “2020.04 TCG”); give the effective date explicitly."
    ),
    "banlist_import.immutable": gettext_noop(
        "List “%(list)s” of %(date)s already exists with different entries; ban lists are immutable: "
        "import the change under a new effective date or name."
    ),
    "banlist.unknown_name": gettext_noop("There is no ban list named “%(name)s” for %(game)s."),
}
