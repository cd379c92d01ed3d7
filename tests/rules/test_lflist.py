"""EDOPro lflist.conf parsing and writing."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from rules.lflist import LflistError, parse_lflist, serialize_lflist

TEXT = """#[2020.04 TCG][2005.4 GOAT]
!2020.04 TCG
#Forbidden
55144522 0 --Pot of Greed
12580477 1 --Raigeki
5318639 -1 --Mystical Space Typhoon
!2005.4 GOAT
$whitelist
55144522 0 --Pot of Greed
46986414 3 --Dark Magician
"""


def test_it_reads_several_lists_with_whitelists_and_negative_counts():
    tcg, goat = parse_lflist(TEXT)
    assert (tcg.name, tcg.whitelist, tcg.effective_date, tcg.region) == (
        "2020.04 TCG",
        False,
        date(2020, 4, 1),
        "tcg",
    )
    assert [(e.external_id, e.limit, e.name) for e in tcg.entries] == [
        ("55144522", 0, "Pot of Greed"),
        ("12580477", 1, "Raigeki"),
        ("5318639", 0, "Mystical Space Typhoon"),
    ]
    assert goat.whitelist and goat.region == "goat" and len(goat.entries) == 2


def test_it_writes_back_what_it_reads():
    lists = parse_lflist(TEXT)
    again = parse_lflist(serialize_lflist(lists))
    assert [
        (lst.name, lst.whitelist, sorted((e.external_id, e.limit) for e in lst.entries)) for lst in again
    ] == [(lst.name, lst.whitelist, sorted((e.external_id, e.limit) for e in lst.entries)) for lst in lists]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("55144522 0 --Pot\n", "line 1: .* before any '!name'"),
        ("!L 2020.01\n55144522 zero\n", "line 2: expected 'passcode count --name'"),
        ("!L 2020.01\n55144522 4\n", "line 2: count 4 is above 3"),
        ("!L 2020.01\n$blacklist\n", "line 2: unknown directive"),
        ("!L 2020.01\n1 1\n1 2\n", "line 3: passcode 1 is listed again .*line 2 says 1"),
        ("# only comments\n", "no list found"),
    ],
)
def test_it_names_the_line_of_a_parse_error(text, message):
    with pytest.raises(LflistError, match=message):
        parse_lflist(text)


def test_it_reads_every_shared_list(shared_data: Path):
    for path in sorted((shared_data / "ygo/lflist").glob("*.lflist.conf")):
        [lst] = parse_lflist(path.read_text(encoding="utf-8"))
        assert lst.effective_date is not None and lst.region, path.name
        assert lst.entries
