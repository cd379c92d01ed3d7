"""Every UI string has a Russian translation, and the compiled catalogues match their sources."""

from __future__ import annotations

import gettext
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PO_FILES = sorted(p for p in ROOT.glob("**/locale/ru/LC_MESSAGES/*.po") if ".venv" not in p.parts)


def _joined(quoted: str) -> str:
    return "".join(re.findall(r'"(.*)"', quoted))


def po_entries(path: Path) -> dict[tuple[str | None, str], str]:
    """(msgctxt, msgid) → msgstr for every non-header, non-obsolete entry (plural entries: the first form).

    A fuzzy entry maps to "" because msgfmt does not ship it: for users it is untranslated.
    """
    entries: dict[tuple[str | None, str], str] = {}
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        lines = [line for line in block.splitlines() if not line.startswith("#~")]
        text = "\n".join(line for line in lines if not line.startswith("#"))
        msgid_match = re.search(r'msgid ((?:".*"\n?)+)', text)
        if not msgid_match or not _joined(msgid_match.group(1)):
            continue
        context_match = re.search(r'msgctxt ((?:".*"\n?)+)', text)
        key = (_joined(context_match.group(1)) if context_match else None, _joined(msgid_match.group(1)))
        if any(line.startswith("#,") and "fuzzy" in line for line in lines):
            entries[key] = ""
            continue
        msgstrs = re.findall(r'msgstr(?:\[\d\])? ((?:".*"\n?)+)', text)
        entries[key] = _joined(msgstrs[0]) if msgstrs else ""
    return entries


def unescape(po_string: str) -> str:
    return po_string.encode().decode("unicode_escape").encode("latin-1").decode()


def test_it_has_a_russian_catalogue_for_the_site_and_every_app_with_ui() -> None:
    found = {p.relative_to(ROOT).parts[0] for p in PO_FILES}
    assert {"locale", "cards", "rules", "decks", "tournaments"} <= found


@pytest.mark.parametrize("po", PO_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_it_translates_every_string(po: Path) -> None:
    untranslated = [msgid for (_context, msgid), msgstr in po_entries(po).items() if not msgstr]
    assert not untranslated, f"{po}: untranslated or fuzzy: {untranslated[:10]}"


@pytest.mark.parametrize("po", PO_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_it_ships_a_compiled_catalogue_matching_the_source(po: Path) -> None:
    mo = po.with_suffix(".mo")
    assert mo.exists(), f"{mo} missing: run make messages"
    with mo.open("rb") as handle:
        catalogue = gettext.GNUTranslations(handle)
    for (context, msgid), msgstr in po_entries(po).items():
        key = unescape(msgid) if context is None else f"{unescape(context)}\x04{unescape(msgid)}"
        # Plural entries are stored under (msgid, form index).
        compiled = catalogue._catalog.get(key, catalogue._catalog.get((key, 0)))  # type: ignore[attr-defined]
        assert compiled == unescape(msgstr), f"{mo} is stale for {msgid!r}: run make messages"
