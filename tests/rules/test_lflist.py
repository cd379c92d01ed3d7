"""EDOPro lflist.conf parsing and writing."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from rules.lflist import LfIssue, LflistError, parse_lflist, read_lflist, serialize_lflist
from rules.messages import error_message, render_key

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
    assert read.warnings == [LfIssue("banlist_file.before_list", {"line": 1, "text": "[2020.04 OCG]"})]


def test_a_line_that_is_not_passcode_count_is_skipped_with_a_warning():
    """Speed Duel lists hold lines like `--SS05 Bakura`: not a passcode, EDOPro skips them."""
    [lst] = parse_lflist("!2021.01 Speed Duel\n--SS05 Bakura\n55144522 0 --Pot of Greed\n")
    assert [e.external_id for e in lst.entries] == ["55144522"]
    assert lst.warnings == [LfIssue("banlist_file.not_passcode_count", {"line": 2, "text": "--SS05 Bakura"})]


def test_a_line_without_a_space_is_skipped_with_a_warning():
    [lst] = parse_lflist("!2021.01 TCG\n55144522\n12580477 1\n")
    assert [e.external_id for e in lst.entries] == ["12580477"]
    assert lst.warnings == [LfIssue("banlist_file.no_count", {"line": 2, "text": "55144522"})]


def test_a_passcode_listed_twice_takes_the_later_count_with_a_warning():
    """Rush lists repeat a passcode with another count; EDOPro keeps the later one."""
    [lst] = parse_lflist("!2022.01 Rush\n1 1 --Card\n2 3 --Other\n1 2 --Card\n2 3 --Other\n")
    assert [(e.external_id, e.limit) for e in lst.entries] == [("1", 2), ("2", 3)]
    assert lst.warnings == [
        LfIssue(
            "banlist_file.repeated", {"line": 4, "code": "1", "count": 2, "earlier_line": 2, "earlier": 1}
        )
    ]


def test_an_unknown_directive_and_a_count_above_three_are_read_leniently():
    [lst] = parse_lflist("!L 2020.01\n$blacklist\n55144522 4\n")
    assert [(e.external_id, e.limit) for e in lst.entries] == [("55144522", 3)]
    assert lst.warnings == [
        LfIssue("banlist_file.unknown_directive", {"line": 2, "text": "$blacklist"}),
        LfIssue("banlist_file.count_above", {"line": 3, "count": 4, "max": 3}),
    ]


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
    ("text", "key", "params"),
    [
        ("!\n55144522 0\n", "banlist_file.no_name", {"line": 1}),
        ("!L\n#date 2020-02-30\n", "banlist_file.bad_date", {"line": 2, "value": "2020-02-30"}),
        ("# only comments\n", "banlist_file.no_list", {}),
    ],
)
def test_it_names_the_line_of_a_parse_error(text, key, params):
    with pytest.raises(LflistError) as error:
        parse_lflist(text)
    assert (error.value.key, error.value.params) == (key, params)


def test_the_reader_builds_no_sentence_the_catalogues_word_it_in_the_readers_language():
    [warning] = read_lflist("!L 2020.01\n55144522 4\n").lists[0].warnings
    assert render_key(warning.key, warning.params, "en") == (
        "line 2: count 4 is above 3; read as 3 (unlimited)."
    )
    assert render_key(warning.key, warning.params, "ru") == (
        "строка 2: количество 4 больше 3; прочитано как 3 (без ограничений)."
    )
    with pytest.raises(LflistError) as error:
        parse_lflist("!L\n#date 2020-02-30\n")
    assert "2020-02-30" in str(error.value) and " " not in error.value.key  # a key, not a sentence
    from django.utils import translation

    with translation.override("ru"):
        assert (
            error_message(error.value) == "строка 2: «#date 2020-02-30» — несуществующая дата (ГГГГ-ММ-ДД)."
        )


def test_it_reads_every_shared_list(shared_data: Path):
    """Measured: every real lflist.conf in the shared data reads with no warnings."""
    paths = sorted((shared_data / "ygo/lflist").glob("*.lflist.conf"))
    assert paths
    for path in paths:
        read = read_lflist(path.read_text(encoding="utf-8"))
        [lst] = read.lists
        assert lst.effective_date is not None and lst.entries, path.name
        assert read.warnings == [] and lst.warnings == [], path.name
