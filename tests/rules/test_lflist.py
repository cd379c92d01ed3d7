"""EDOPro lflist.conf parsing and writing."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from rules.lflist import LflistError, parse_lflist, read_lflist, serialize_lflist

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
    assert (tcg.name, tcg.whitelist, tcg.effective_date) == ("2020.04 TCG", False, date(2020, 4, 1))
    assert [(e.external_id, e.limit, e.name) for e in tcg.entries] == [
        ("55144522", 0, "Pot of Greed"),
        ("12580477", 1, "Raigeki"),
        ("5318639", 0, "Mystical Space Typhoon"),
    ]
    assert goat.whitelist and len(goat.entries) == 2


def test_it_writes_back_what_it_reads():
    lists = parse_lflist(TEXT)
    again = parse_lflist(serialize_lflist(lists))
    assert [
        (lst.name, lst.whitelist, sorted((e.external_id, e.limit) for e in lst.entries)) for lst in again
    ] == [(lst.name, lst.whitelist, sorted((e.external_id, e.limit) for e in lst.entries)) for lst in lists]


# Each case is a line EDOPro's LoadLFListSingle reads leniently or skips; we read it the same way and say so.
def test_a_count_glued_to_the_name_is_its_leading_integer():
    """Four official 2023 OCG lists write `35371948 2--Trickstar Light Stage` (no space before --)."""
    read = read_lflist("!2023.01 OCG\n35371948 2--Trickstar Light Stage\n")
    [lst] = read.lists
    assert [(e.external_id, e.limit, e.name) for e in lst.entries] == [
        ("35371948", 2, "Trickstar Light Stage")
    ]
    assert lst.warnings == [] and read.warnings == []


def test_a_first_line_without_hash_is_skipped_with_a_warning():
    """`[2020.04 OCG]` as the first line, without `#`: EDOPro skips lines before the first `!`."""
    read = read_lflist("[2020.04 OCG]\n!2020.04 OCG\n55144522 0 --Pot of Greed\n")
    assert [lst.name for lst in read.lists] == ["2020.04 OCG"]
    assert read.warnings == ["line 1: '[2020.04 OCG]' comes before the first '!name' list; skipped"]


def test_a_line_that_is_not_passcode_count_is_skipped_with_a_warning():
    """Speed Duel lists hold lines like `--SS05 Bakura`: not a passcode, EDOPro skips them."""
    [lst] = parse_lflist("!2021.01 Speed Duel\n--SS05 Bakura\n55144522 0 --Pot of Greed\n")
    assert [e.external_id for e in lst.entries] == ["55144522"]
    assert lst.warnings == ["line 2: expected 'passcode count --name', got '--SS05 Bakura'; skipped"]


def test_a_line_without_a_space_is_skipped_with_a_warning():
    [lst] = parse_lflist("!2021.01 TCG\n55144522\n12580477 1\n")
    assert [e.external_id for e in lst.entries] == ["12580477"]
    assert lst.warnings == ["line 2: '55144522' has no count after the passcode; skipped"]


def test_a_passcode_listed_twice_takes_the_later_count_with_a_warning():
    """Rush lists repeat a passcode with another count; EDOPro keeps the later one."""
    [lst] = parse_lflist("!2022.01 Rush\n1 1 --Card\n2 3 --Other\n1 2 --Card\n2 3 --Other\n")
    assert [(e.external_id, e.limit) for e in lst.entries] == [("1", 2), ("2", 3)]
    assert lst.warnings == [
        "line 4: passcode 1 is listed again with count 2 (line 2 says 1); the later count is used, as EDOPro does"
    ]


def test_an_unknown_directive_and_a_count_above_three_are_read_leniently():
    [lst] = parse_lflist("!L 2020.01\n$blacklist\n55144522 4\n")
    assert [(e.external_id, e.limit) for e in lst.entries] == [("55144522", 3)]
    assert [w.split(":")[0] for w in lst.warnings] == ["line 2", "line 3"]


def test_a_date_line_gives_the_list_its_exact_effective_date_and_is_written_back():
    [lst] = parse_lflist("!2020.04 TCG\n#date 2020-04-20\n#region tcg\n55144522 0\n")
    assert (lst.effective_date, lst.region) == (date(2020, 4, 20), "tcg")
    text = serialize_lflist([lst])
    assert "#date 2020-04-20" in text.splitlines() and "#region tcg" in text.splitlines()
    [again] = parse_lflist(text)
    assert (again.effective_date, again.region) == (date(2020, 4, 20), "tcg")
    # Any other "#date ..." text is an ordinary comment.
    [plain] = parse_lflist("!2020.04 TCG\n#date changed in May\n55144522 0\n")
    assert plain.effective_date == date(2020, 4, 1)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("!\n55144522 0\n", "line 1: a list needs a name"),
        ("!L\n#date 2020-02-30\n", "line 2: '#date 2020-02-30' is not a real date"),
        ("# only comments\n", "no list found"),
    ],
)
def test_it_names_the_line_of_a_parse_error(text, message):
    with pytest.raises(LflistError, match=message):
        parse_lflist(text)


def test_it_reads_every_shared_list(shared_data: Path):
    """Measured: every real lflist.conf in the shared data reads with no warnings."""
    paths = sorted((shared_data / "ygo/lflist").glob("*.lflist.conf"))
    assert paths
    for path in paths:
        read = read_lflist(path.read_text(encoding="utf-8"))
        [lst] = read.lists
        assert lst.effective_date is not None and lst.entries, path.name
        assert read.warnings == [] and lst.warnings == [], path.name
