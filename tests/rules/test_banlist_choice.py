"""Which dated list each Yu-Gi-Oh! format reads: TCG (advanced), Traditional, OCG and the GOAT whitelist."""

from __future__ import annotations

from datetime import date

import pytest

from rules.engine import default_registry
from rules.services import banlist_choose, banlist_import, deck_validate

from .conftest import fillers

pytestmark = pytest.mark.django_db

LISTS = """!2024.01 TCG
55144522 0 --Pot of Greed
12580477 1 --Raigeki
!2024.02 OCG
12580477 0 --Raigeki
!2024.04 Traditional
55144522 1 --Pot of Greed
!2005.4 GOAT
$whitelist
12580477 1 --Raigeki
"""


def chosen(game, format_slug: str, on: date) -> str | None:
    fmt = default_registry().format("yugioh", format_slug)
    found = banlist_choose(game=game, fmt=fmt, on_date=on)
    return found.name if found else None


@pytest.mark.parametrize(
    ("format_slug", "on", "expected"),
    [
        ("advanced", date(2024, 6, 1), "2024.01 TCG"),  # never the newer OCG or Traditional list
        ("advanced", date(2023, 12, 31), None),
        ("ocg", date(2024, 6, 1), "2024.02 OCG"),
        ("ocg", date(2024, 1, 15), None),
        ("traditional", date(2024, 6, 1), "2024.04 Traditional"),
        (
            "traditional",
            date(2024, 3, 1),
            "2024.01 TCG",
        ),  # before a Traditional list: the TCG list, read leniently
        ("goat", date(2024, 6, 1), "2005.4 GOAT"),
    ],
)
def test_each_format_reads_its_own_region_in_effect_on_the_date(ygo, format_slug, on, expected):
    banlist_import(game=ygo["game"], text=LISTS)
    assert chosen(ygo["game"], format_slug, on) == expected


def deck(ygo, *extra: str) -> dict:
    counts: dict[str, int] = {}
    for code in [*fillers(40 - len(extra)), *extra]:
        counts[code] = counts.get(code, 0) + 1
    return {"main": [(ygo[c], n) for c, n in counts.items()]}


def test_the_same_deck_is_judged_by_each_formats_list(ygo):
    banlist_import(game=ygo["game"], text=LISTS)
    sections = deck(ygo, "55144522", "12580477")  # one Pot of Greed, one Raigeki
    on = date(2024, 3, 1)

    def codes(format_slug: str) -> list[str]:
        report = deck_validate(game=ygo["game"], format_slug=format_slug, sections=sections, on_date=on)
        return sorted(v.code for v in report.violations if v.card in ("Pot of Greed", "Raigeki"))

    assert codes("advanced") == ["banlist_forbidden"]  # Pot of Greed is Forbidden in the TCG
    assert codes("traditional") == []  # ... and Limited in Traditional (Forbidden read as Limited)
    assert codes("ocg") == ["banlist_forbidden"]  # Raigeki is Forbidden in the OCG
    assert codes("goat") == ["not_on_whitelist"]  # Pot of Greed is not on the GOAT whitelist, Raigeki is
