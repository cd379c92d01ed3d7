"""Files, tests and docstrings say what they show, never the change that brought them: a reader cannot know
what ``teams25b`` or "issue 23" means. Migrations keep the names they were made with."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PLACES = ("accounts", "bench", "cards", "config", "decks", "games", "idempotency", "rules", "seasons",
          "static", "templates", "tests", "tournaments", "venue")  # fmt: skip
SUFFIXES = {".py", ".html", ".js", ".css", ".md", ".toml", ".po"}
# "issue 23", "issues #9, #26", "wave 2" in any text; a work tag (pics24, teams25b, live26) in a file name.
NAMING_THE_WORK = re.compile(r"\bissues? #?\d+|\bwave #?\d+", re.IGNORECASE)
WORK_TAG_IN_FILE_NAME = re.compile(r"(^|_)[a-z]+\d{2}[a-z]?(_|$)")


def _sources() -> list[Path]:
    return [
        path
        for place in PLACES
        for path in (ROOT / place).rglob("*")
        if path.suffix in SUFFIXES
        and path.is_file()
        and "migrations" not in path.parts
        and "artifacts" not in path.parts
        and "__pycache__" not in path.parts
        and path.name != Path(__file__).name
    ]


def test_it_recognises_names_of_the_work() -> None:
    assert NAMING_THE_WORK.search('"""Hostile ZIPs (issue 24) are refused."""')
    assert NAMING_THE_WORK.search("see issues #9, #26")
    assert NAMING_THE_WORK.search("Issue 21's scenario")
    assert not NAMING_THE_WORK.search("Jinzo #7 is a real name; an import issue: set #2 must be text")
    assert WORK_TAG_IN_FILE_NAME.search("test_teams25b_team_page")
    assert not WORK_TAG_IN_FILE_NAME.search("test_round_clock_notice")
    assert not WORK_TAG_IN_FILE_NAME.search("bench_day2")


def test_no_file_is_named_after_a_change() -> None:
    named = sorted(
        str(path.relative_to(ROOT))
        for path in _sources()
        if path.suffix == ".py" and WORK_TAG_IN_FILE_NAME.search(path.stem)
    )
    assert named == []


def test_no_text_names_an_issue_or_a_work_tag() -> None:
    found = []
    for path in _sources():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if match := NAMING_THE_WORK.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {match.group(0)}")
    assert found == []
