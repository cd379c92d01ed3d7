"""Deck-list parsers and the card resolver return problem codes with parameters; decks/messages.py words
them in the reader's language. The API keeps its shape (a rendered ``message``, now also ``key``/``params``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.urls import reverse

from decks.formats import parse_deck
from decks.messages import MESSAGES
from tests.rules.conftest import ygo  # noqa: F401 (the fixture, imported to be used here)

ROOT = Path(__file__).resolve().parents[2]


def _codes_in(path: str, pattern: str) -> set[str]:
    return set(re.findall(pattern, (ROOT / path).read_text(encoding="utf-8")))


def test_every_code_the_parsers_and_the_resolver_return_has_words() -> None:
    # Every reader of decks/formats/ (parse.py and the other clients' formats beside it).
    parse_codes = set().union(
        *(
            _codes_in(str(path.relative_to(ROOT)), r'(?:ParseError\([^,()]+|_failed\([^,()]+), "([a-z_]+)"')
            for path in sorted((ROOT / "decks" / "formats").glob("*.py"))
        )
    )
    resolve_codes = _codes_in("decks/resolve.py", r'"(resolve\.[a-z_]+)"')
    assert len(parse_codes) > 25 and len(resolve_codes) >= 6
    assert not (parse_codes | resolve_codes) - set(MESSAGES)


@pytest.mark.parametrize(
    ("text", "fmt", "code", "russian"),
    [
        ("#main\nabc\n", "ydk", "not_passcode", "строка 2: «abc» — не пароль карты (только цифры)"),
        ("ydke://@@@!!!", "ydke", "ydke_base64", "строка 1: часть main ссылки ydke — не корректный base64"),
        ('{"format": "other"}', "json", "json_format_tag", "строка 1: «format» должен быть «deckhall-deck»"),
        (
            "section,count,card\nmain,0,x\n",
            "csv",
            "quantity_range",
            "количество 0 для x должно быть от 1 до 999",
        ),
    ],
)
def test_parse_problems_are_codes_worded_in_each_language(text, fmt, code, russian) -> None:
    errors = parse_deck(text, fmt).errors
    assert errors[0].code == code
    assert russian in errors[0].render("ru")
    english = errors[0].render("en")
    assert english.startswith("line ") and not re.search("[а-я]", english)


@pytest.mark.django_db
def test_an_import_explains_its_problems_in_the_readers_language(sample_cards, user, api_client_for) -> None:
    client = api_client_for(user)
    body = {"game": "yugioh", "data": "Main\n2 No Such Card\n"}
    refused = client.post(reverse("api-deck-import"), body, format="multipart", HTTP_ACCEPT_LANGUAGE="ru")
    assert refused.status_code == 422
    [line] = [u for u in refused.json()["unknown"] if u["ref"] == "No Such Card"]
    assert line["reason"] == "unknown" and line["key"] == "resolve.unknown_name"
    assert line["params"] == {"ref": "No Such Card"}
    assert line["message"] == "карты «No Such Card» нет в базе карт"
    syntax = client.post(
        reverse("api-deck-import"), {"game": "yugioh", "data": "#main\nnope\n", "fmt": "ydk"}, format="multipart",
        HTTP_ACCEPT_LANGUAGE="ru",
    )  # fmt: skip
    assert syntax.json()["errors"] == ["строка 2: «nope» — не пароль карты (только цифры)"]


@pytest.mark.django_db
def test_a_rule_report_words_unreadable_and_misplaced_lines_in_the_readers_language(ygo, api_client) -> None:  # noqa: F811
    text = "#main\n55144522\nabc\n!side\n"
    response = api_client.post(
        "/api/decks/validate/", {"game": "yugioh", "format": "advanced", "ydk": text}, format="json",
        HTTP_ACCEPT_LANGUAGE="ru",
    )  # fmt: skip
    assert response.status_code == 200, response.content
    [unreadable] = [v for v in response.json()["violations"] if v["code"] == "unreadable_line"]
    assert unreadable["params"]["detail"] == {"problem": "not_passcode", "params": {"text": "abc"}, "line": 3}
    assert unreadable["message"] == "ошибка чтения: строка 3: «abc» — не пароль карты (только цифры)"


@pytest.mark.django_db
def test_deck_api_errors_name_the_game_in_the_readers_language(
    sample_cards, user, api_client_for, card
) -> None:
    stranger = card("everseal", "Кракен")
    body = {"game": "yugioh", "name": "x", "sections": {"main": [{"card": stranger.pk, "count": 1}]}}
    response = api_client_for(user).post(
        reverse("api-deck-list"), body, format="json", HTTP_ACCEPT_LANGUAGE="ru"
    )
    assert response.status_code == 422  # a card of another game
    assert response.json() == {"sections": [f"карта с id {stranger.pk} — не карта игры Yu-Gi-Oh! ККИ"]}
