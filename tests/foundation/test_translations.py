"""Every UI string has a Russian translation, and the compiled catalogues match their sources."""

from __future__ import annotations

import gettext
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# Only the project's own catalogues: never a virtualenv's (.venv, CI's .ci-runtime-venv inside the checkout).
PO_FILES = sorted(
    p for p in ROOT.glob("**/locale/ru/LC_MESSAGES/*.po") if not any("venv" in part for part in p.parts)
)


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


def _has_russian(template: object) -> bool:
    """The Russian catalogues hold a non-empty entry for a message table template (plurals: all forms)."""
    from django.utils.translation import trans_real

    catalogue = trans_real.translation("ru")._catalog  # the merged catalogues of the site and every app
    if isinstance(template, str):
        return bool(catalogue.get(template))
    from django.utils import translation

    class Blank(dict):
        def __missing__(self, key: str) -> str:
            return ""

    # An ngettext_lazy plural: each Russian form differs from the English sentence.
    words = {}
    for lang in ("en", "ru"):
        with translation.override(lang):
            words[lang] = [str(template % Blank(total=n, count=n)) for n in (1, 3, 5)]
    return all(en != ru for en, ru in zip(words["en"], words["ru"], strict=True))


def test_every_rule_message_key_has_a_russian_translation() -> None:
    from rules.messages import MESSAGES, UNTRANSLATED

    missing = [
        key for key, template in MESSAGES.items() if key not in UNTRANSLATED and not _has_russian(template)
    ]
    assert not missing, f"rule message keys without a Russian catalogue entry: {missing}"


def test_every_importer_message_code_has_a_russian_translation() -> None:
    from cards.importers.messages import MESSAGES, UNTRANSLATED

    missing = [
        code for code, template in MESSAGES.items() if code not in UNTRANSLATED and not _has_russian(template)
    ]
    assert not missing, f"importer message codes without a Russian catalogue entry: {missing}"


def test_every_deck_problem_code_has_a_russian_translation() -> None:
    from decks.messages import MESSAGES

    missing = [code for code, template in MESSAGES.items() if not _has_russian(template)]
    assert not missing, f"deck-list problem codes without a Russian catalogue entry: {missing}"


def test_every_history_action_and_ending_has_a_russian_translation() -> None:
    from django.utils import translation

    from tournaments.reads.history import ACTIONS, ENDINGS

    missing = []
    for code, label in {**ACTIONS, **ENDINGS}.items():
        with translation.override("en"):
            english = str(label)
        with translation.override("ru"):
            if str(label) == english:
                missing.append(code)
    assert not missing, f"result-history words without Russian: {missing}"


def _labels_without_russian(table: object, path: str) -> list[str]:
    if isinstance(table, dict):
        if "en" in table and not table.get("ru"):
            return [path]
        return [
            bad for key, value in table.items() for bad in _labels_without_russian(value, f"{path}.{key}")
        ]
    return []


RULESETS = sorted((ROOT / "games" / "rulesets").glob("*.toml"))


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda p: p.name)
def test_every_rule_set_label_has_a_russian_word(ruleset: Path) -> None:
    import tomllib

    labels = tomllib.loads(ruleset.read_text(encoding="utf-8"))["game"].get("labels", {})
    missing = _labels_without_russian(labels, "game.labels")
    assert not missing, f"{ruleset.name}: labels with an English word but no Russian one: {missing}"


def test_every_message_key_the_rules_code_uses_is_in_the_table() -> None:
    """A key the readers, the engine or a service use but the table lacks would reach people as a raw key:
    every quoted ``prefix.name`` literal in rules/ and games/ (the registry raises keyed errors the rules app
    words) whose prefix is a message family must be a table key."""
    from rules.messages import MESSAGES

    families = {key.split(".")[0] for key in MESSAGES}
    literal = re.compile(r"""["']([a-z_]+\.[a-z_]+)["']""")
    tables = {ROOT / "rules" / "messages.py", ROOT / "rules" / "banlist_messages.py"}
    used = {
        (path.relative_to(ROOT).as_posix(), key)
        for package in ("rules", "games")
        for path in (ROOT / package).rglob("*.py")
        if path not in tables and "migrations" not in path.parts
        for key in literal.findall(path.read_text(encoding="utf-8"))
        if key.split(".")[0] in families
    }
    missing = sorted((where, key) for where, key in used if key not in MESSAGES)
    assert not missing, f"message keys used in rules/ or games/ but not in rules/messages.py: {missing}"
    # The ban-list readers and the filter compiler are covered (not only the engine's report keys).
    assert {"banlist_file.repeated", "banlist_import.immutable", "filter.not_number"} <= {k for _, k in used}


def test_every_pairing_and_pod_refusal_has_a_russian_translation() -> None:
    from tournaments.pairings.refusals import MESSAGES

    missing = [key for key, template in MESSAGES.items() if not _has_russian(template)]
    assert not missing, f"pairing/pod refusal keys without a Russian catalogue entry: {missing}"
