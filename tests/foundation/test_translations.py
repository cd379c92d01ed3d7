"""Every UI string has a Russian translation, and the compiled catalogues match their sources."""

from __future__ import annotations

import gettext
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PO_FILES = sorted(p for p in ROOT.glob("**/locale/ru/LC_MESSAGES/django.po") if ".venv" not in p.parts)


def po_entries(path: Path) -> dict[str, str]:
    """msgid → msgstr for every non-header, non-obsolete entry (plural forms keyed by msgid)."""
    entries: dict[str, str] = {}
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        lines = [line for line in block.splitlines() if not line.startswith("#~")]
        if any(line.startswith("#, fuzzy") for line in lines) and 'msgid ""' not in lines:
            entries[f"<fuzzy>{block}"] = ""
            continue
        text = "\n".join(line for line in lines if not line.startswith("#"))
        match = re.search(r'msgid ((?:".*"\n?)+)', text)
        if not match:
            continue
        msgid = "".join(re.findall(r'"(.*)"', match.group(1)))
        if not msgid:
            continue
        strs = re.findall(r'msgstr(?:\[\d\])? ((?:".*"\n?)+)', text)
        entries[msgid] = "".join(re.findall(r'"(.*)"', strs[0])) if strs else ""
    return entries


def test_it_has_a_russian_catalogue_for_the_site_and_every_app_with_ui() -> None:
    found = {p.relative_to(ROOT).parts[0] for p in PO_FILES}
    assert "locale" in found


@pytest.mark.parametrize("po", PO_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_it_translates_every_string(po: Path) -> None:
    untranslated = [msgid for msgid, msgstr in po_entries(po).items() if not msgstr]
    assert not untranslated, f"{po}: untranslated or fuzzy: {untranslated[:10]}"


@pytest.mark.parametrize("po", PO_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_it_ships_a_compiled_catalogue_matching_the_source(po: Path) -> None:
    mo = po.with_suffix(".mo")
    assert mo.exists(), f"{mo} missing: run make messages"
    with mo.open("rb") as handle:
        catalogue = gettext.GNUTranslations(handle)
    for msgid, msgstr in po_entries(po).items():
        if (
            "%" in msgid and "(" in msgid and msgid not in catalogue._catalog
        ):  # plural entries are keyed by tuples
            continue
        assert (
            catalogue.gettext(msgid) == msgstr.encode().decode("unicode_escape").encode("latin-1").decode()
        ), f"{mo} is stale for {msgid!r}: run make messages"
