"""Name-keyed ban lists (rules/namelist.py) for games without passcodes, proven on the `mtg` game:
`Card Name: banned | restricted | limited N`, dated, with a region, chosen by the format and written back."""

from __future__ import annotations

from datetime import date
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from rules.lflist import LflistError
from rules.messages import render_key
from rules.models import BanList
from rules.namelist import read_namelist, serialize_namelist
from rules.services import banlist_import, deck_validate

LIST = """#[Commander]
!Commander 2024-09
#date 2024-09-23
Sol Ring: restricted
Black Lotus: banned
Lightning Bolt: limited 2
"""


def test_it_reads_names_statuses_date_and_writes_them_back():
    [lst] = read_namelist(LIST).lists
    assert (lst.name, lst.effective_date) == ("Commander 2024-09", date(2024, 9, 23))
    assert [(e.external_id, e.limit) for e in lst.entries] == [
        ("Sol Ring", 1),
        ("Black Lotus", 0),
        ("Lightning Bolt", 2),
    ]
    [again] = read_namelist(serialize_namelist([lst])).lists
    assert sorted((e.name, e.limit) for e in again.entries) == sorted((e.name, e.limit) for e in lst.entries)
    assert again.effective_date == lst.effective_date


@pytest.mark.parametrize(
    ("text", "key", "params"),
    [
        ("!L\nSol Ring: maybe\n", "banlist_file.name_entry", {"line": 2, "text": "Sol Ring: maybe"}),
        ("Sol Ring: banned\n", "banlist_file.entry_before_list", {"line": 1, "text": "Sol Ring: banned"}),
        (
            "!L\nSol Ring: banned\nsol ring: restricted\n",
            "banlist_file.name_repeated",
            {"line": 3, "name": "sol ring", "earlier_line": 2, "list": "L"},
        ),
        ("# nothing\n", "banlist_file.no_list", {}),
    ],
)
def test_a_bad_line_is_an_error_naming_it(text, key, params):
    with pytest.raises(LflistError) as error:
        read_namelist(text)
    assert (error.value.key, error.value.params) == (key, params)


def test_a_bad_line_reads_in_english_and_in_russian():
    with pytest.raises(LflistError) as error:
        read_namelist("!L\nSol Ring: maybe\n")
    words = {lang: render_key(error.value.key, error.value.params, lang) for lang in ("en", "ru")}
    assert words == {
        "en": "line 2: expected “Card Name: banned | restricted | limited N”, got “Sol Ring: maybe”.",
        "ru": "строка 2: ожидалось «Название карты: banned | restricted | limited N», а написано «Sol Ring: maybe».",
    }


def _card(game: Any, name: str, **attrs: Any) -> Any:
    from cards.models import Card

    return Card.objects.create(game=game, external_id=name, identity=name, name=name, search_name=name.casefold(),
                               card_type="instant", attributes=attrs)  # fmt: skip


@pytest.mark.django_db
def test_an_imported_name_list_limits_the_format_whose_region_it_names(games: dict[str, Any], tmp_path: Path):
    game = games["mtg"]
    bolt = _card(game, "Lightning Bolt", color="R", manacost="{R}")
    fillers = [_card(game, f"Shock {i}", color="R", manacost="{R}") for i in range(15)]
    src = tmp_path / "commander.txt"
    src.write_text(LIST, encoding="utf-8")
    out = StringIO()
    call_command("import_banlist", str(src), game="mtg", stdout=out)
    assert "Commander 2024-09 (2024-09-23, region commander): imported" in out.getvalue()
    entry = BanList.objects.get().entries.get(external_id="Lightning Bolt")
    assert entry.card == bolt
    # A constructed deck on a date the list is in force: the constructed format reads only constructed lists.
    sections = {"main": [(bolt, 4), *[(c, 4) for c in fillers[:14]]]}
    report = deck_validate(game=game, format_slug="constructed", sections=sections, on_date=date(2024, 10, 1))
    assert "banlist_limit" not in report.codes()
    banlist_import(game=game, text=LIST.replace("Commander", "Modern"), region="constructed")
    report = deck_validate(game=game, format_slug="constructed", sections=sections, on_date=date(2024, 10, 1))
    [v] = [v for v in report.violations if v.code == "banlist_limit"]
    assert (v.card, v.count, v.limit) == ("Lightning Bolt", 4, 2)
    dest = tmp_path / "out.txt"
    call_command("export_banlist", game="mtg", output=dest)
    exported = dest.read_text(encoding="utf-8")
    assert "Lightning Bolt: limited 2" in exported and "#date 2024-09-23" in exported
