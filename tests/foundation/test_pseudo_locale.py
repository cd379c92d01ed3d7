"""A new language is catalogues only: a throw-away pseudo-locale, generated here from the Russian .po files
(every message wrapped in ⟦…⟧), changes rule reports, importer errors, API messages and pages with no
Python change. Data labels the rule sets do not have in that language fall back to English."""

from __future__ import annotations

import re
import subprocess

import pytest
from django.test import override_settings

from rules.engine import BanListInfo, validate_deck
from tests.rules.conftest import fillers, ygo  # noqa: F401 (ygo: the fixture, imported to be used here)

from .test_translations import PO_FILES, ROOT

PSEUDO = "eo"  # a language code Django knows but Deckhall does not ship: stands in for "a new language"
OPEN, CLOSE = "⟦", "⟧"


def _pseudo_po(source: str) -> str:
    """The catalogue with every msgstr replaced by its msgid in brackets (placeholders kept as they are)."""
    out = [
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
        '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n'
    ]
    for block in source.split("\n\n"):
        text = "\n".join(line for line in block.splitlines() if not line.startswith("#"))
        msgid = re.search(r'^msgid ((?:".*"\n?)+)', text, re.M)
        if not msgid or not "".join(re.findall(r'"(.*)"', msgid.group(1))):
            continue
        ident = "".join(re.findall(r'"(.*)"', msgid.group(1)))
        context = re.search(r'^msgctxt ((?:".*"\n?)+)', text, re.M)
        plural = re.search(r'^msgid_plural ((?:".*"\n?)+)', text, re.M)
        entry = f"msgctxt {context.group(1).strip()}\n" if context else ""
        entry += f"msgid {msgid.group(1).strip()}\n"
        if plural:
            other = "".join(re.findall(r'"(.*)"', plural.group(1)))
            entry += f"msgid_plural {plural.group(1).strip()}\n"
            entry += f'msgstr[0] "{OPEN}{ident}{CLOSE}"\nmsgstr[1] "{OPEN}{other}{CLOSE}"\n'
        else:
            entry += f'msgstr "{OPEN}{ident}{CLOSE}"\n'
        out.append(entry)
    return "\n".join(out)


@pytest.fixture(scope="module")
def pseudo_locale_paths(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    root = tmp_path_factory.mktemp("pseudo-locale")
    paths = []
    for i, po in enumerate(PO_FILES):
        target = root / str(i) / PSEUDO / "LC_MESSAGES"
        target.mkdir(parents=True)
        (target / po.name).write_text(_pseudo_po(po.read_text(encoding="utf-8")), encoding="utf-8")
        subprocess.run(["msgfmt", "-o", str(target / po.with_suffix(".mo").name), str(target / po.name)],
                       check=True)  # fmt: skip
        paths.append(str(root / str(i)))
    return paths


@pytest.fixture
def pseudo(pseudo_locale_paths: list[str]):
    from django.conf import settings as django_settings

    # The apps' own catalogues come from INSTALLED_APPS; the pseudo ones are extra locale paths.
    with override_settings(
        LANGUAGES=[*django_settings.LANGUAGES, (PSEUDO, "Pseudo")],
        LOCALE_PATHS=[*pseudo_locale_paths, *django_settings.LOCALE_PATHS],
    ):
        yield PSEUDO


def _wrapped(text: str) -> bool:
    return OPEN in text and CLOSE in text


def test_the_pseudo_catalogue_covers_every_russian_catalogue() -> None:
    assert {p.relative_to(ROOT).parts[0] for p in PO_FILES} >= {"locale", "rules", "cards", "decks"}


def test_rule_reports_change_language_and_keep_english_labels(pseudo: str) -> None:
    from tests.rules.helpers import card, deck, filler, fmt

    adv = fmt("yugioh", "advanced")
    pot = card("Pot of Greed", key="55144522", card_type="spell")
    spells = filler("Spell", 38, 3, card_type="spell")
    report = validate_deck(
        deck(main=[*spells, (pot, 2)]), adv, banlist=BanListInfo(name="L", limits={"55144522": 0})
    )
    [forbidden] = report.violations
    message = report.to_dict(pseudo)["violations"][0]["message"]
    assert _wrapped(message) and "Pot of Greed" in message
    # The rule set has no pseudo-language section names: English, never a raw slug or Russian.
    assert "Main deck" in message and "Основная" not in message
    size = validate_deck(deck(main=filler("Spell", 39, 3, card_type="spell")), adv).violations[0]
    assert size.render(pseudo).count(OPEN) >= 2  # the sentence and the size wording ("40 to 60")
    assert forbidden.message_ru.startswith("Карта") and not _wrapped(forbidden.message)


def test_importer_errors_change_language(pseudo: str) -> None:
    from cards.importers.messages import import_issue_text

    text = import_issue_text({"code": "file_too_large", "params": {"megabytes": 5}, "reason": "x"}, pseudo)
    assert _wrapped(text) and "5" in text


def test_deck_list_problems_change_language(pseudo: str) -> None:
    from decks.formats import parse_deck

    [error] = parse_deck("#main\nabc\n", "ydk").errors
    text = error.render(pseudo)
    # The problem and its line prefix are both catalogue entries.
    assert text.count(OPEN) == 2 and "abc" in text


def test_hero_restrictions_change_language(pseudo: str) -> None:
    from decks.gamerules import describe_restriction

    text = describe_restriction({"kind": "at_least", "count": 5, "filter": {"size": "L"}}, pseudo, labels={})
    assert _wrapped(text) and "5" in text and "size L" in text


def test_ban_list_file_messages_change_language(pseudo: str) -> None:
    from rules.lflist import read_lflist
    from rules.messages import render_key

    [warning] = read_lflist("!L 2020.01\n55144522 4\n").lists[0].warnings
    text = render_key(warning.key, warning.params, pseudo)
    assert _wrapped(text) and "line 2" in text


def test_pairing_and_export_refusals_change_language(pseudo: str) -> None:
    from django.utils import translation

    from decks.formats import DeckFormatError
    from tournaments.engine.pods import pod_sizes
    from tournaments.pairings.refusals import reason

    with pytest.raises(ValueError) as refused:
        pod_sizes(2, 3, 4)
    with translation.override(pseudo):
        assert _wrapped(reason(refused.value)) and "2" in reason(refused.value)
        assert _wrapped(str(DeckFormatError("export_hero", format=".ydk")))


def test_result_history_words_change_language(pseudo: str) -> None:
    from django.utils import translation

    from tournaments.reads.history import action_text, result_text

    with translation.override(pseudo):
        assert _wrapped(action_text("dispute"))
        assert _wrapped(result_text({"wins": [0, 1], "status": "reported", "ended_by": "time"}))


def test_names_from_rule_set_labels_fall_back_to_english(pseudo: str) -> None:
    from games.registry import default_registry

    advanced = default_registry().game("yugioh").formats["advanced"]
    assert advanced.title(pseudo) == advanced.name and advanced.sections[0].title(pseudo) == "Main deck"


@pytest.mark.django_db
def test_api_messages_change_language(pseudo: str, ygo, api_client) -> None:  # noqa: F811
    body = {
        "game": "yugioh",
        "format": "advanced",
        "sections": {"main": [{"card": c, "count": 1} for c in fillers(3)]},
    }
    response = api_client.post("/api/decks/validate/", body, format="json", HTTP_ACCEPT_LANGUAGE=pseudo)
    assert response.status_code == 200, response.content
    messages = [v["message"] for v in response.json()["violations"]]
    assert messages and all(_wrapped(m) for m in messages), messages


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url",
    ["/", "/rules/banlists/", "/decks/", "/tournaments/", "/cards/", "/decks/import/", "/tournaments/new/"],
)
def test_pages_change_language(pseudo: str, admin_client, url: str) -> None:
    client = admin_client  # signed in: the import page and the new-tournament form need it
    client.cookies["django_language"] = pseudo
    response = client.get(url, follow=True)
    assert response.status_code == 200
    page = response.content.decode()
    assert f'lang="{pseudo}"' in page
    assert page.count(OPEN) >= 3, url
