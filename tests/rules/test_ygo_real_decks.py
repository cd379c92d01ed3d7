"""The twelve real .ydk decks against the shared 2020-03-30 .cdb and the 2020.04 TCG list.

Expectations were worked out by reading the files against the rules, not from the engine: every deck has
40–60 main / 15 or fewer extra (all Fusion/Synchro/Xyz/Link) / 15 or fewer side cards and no card above
3 copies; what varies is cards newer than the 2020 database (unknown) and cards the 2020.04 list forbids
or limits (e.g. Maxx "C" was Forbidden, Upstart Goblin Limited).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.engine import BanListInfo, validate_deck

from .helpers import fmt
from .ygo_data import load_cdb, ydk_deck

# deck: (distinct unknown passcodes, forbidden card names, (limited/semi-limited name, count, limit))
EXPECTED: dict[str, tuple[int, set[str], set[tuple[str, int, int]]]] = {
    "AI_Albaz": (37, {'Maxx "C"'}, set()),
    "AI_Altergeist": (0, {'Maxx "C"', "Harpie's Feather Duster"}, {("Altergeist Multifaker", 2, 1)}),
    "AI_BE2025": (22, {'Maxx "C"'}, set()),
    "AI_Blackwing": (0, set(), set()),
    "AI_BlueEyesMaxDragon": (
        0,
        {'Maxx "C"', "Firewall Dragon", "Grinder Golem", "Knightmare Mermaid"},
        {("Upstart Goblin", 3, 1), ("Red Reboot", 2, 1)},
    ),
    "AI_Burn": (0, set(), set()),
    "AI_GrenMajuThunderBoarder": (
        0,
        {'Maxx "C"', "Harpie's Feather Duster", "Heavymetalfoes Electrumite"},
        {("Card of Demise", 2, 1), ("Scapegoat", 2, 1), ("Macro Cosmos", 2, 1)},
    ),
    "AI_Kashtira": (13, {'Maxx "C"', "Thunder Dragon Colossus", "Number 42: Galaxy Tomahawk"}, set()),
    "AI_LightswornShaddoldinosour": (
        0,
        {
            "Fairy Tail - Snow",
            'Maxx "C"',
            "Glow-Up Bulb",
            "That Grass Looks Greener",
            "Harpie's Feather Duster",
        },
        set(),
    ),
    "AI_Orcust": (
        0,
        {
            "Destrudo the Lost Dragon's Frisson",
            "Orcust Harp Horror",
            'Maxx "C"',
            "Sky Striker Mobilize - Engage!",
            "The Phantom Knights of Rusty Bardiche",
            "Knightmare Mermaid",
            "Harpie's Feather Duster",
        },
        {("Trickstar Light Stage", 3, 1), ("Dinowrestler Pankratops", 2, 1), ("Mind Control", 3, 1)},
    ),
    "AI_Phantasm": (
        0,
        {"Harpie's Feather Duster", "Summon Sorceress", "Heavymetalfoes Electrumite"},
        {
            ("Card of Demise", 3, 1),
            ("Scapegoat", 2, 1),
            ("Metaverse", 2, 1),
            ("Skill Drain", 2, 1),
            ("Macro Cosmos", 2, 1),
        },
    ),
    "AI_Witchcraft": (0, {'Maxx "C"', "That Grass Looks Greener"}, {("Reasoning", 3, 1)}),
}


def tcg_2020_04(shared: Path) -> BanListInfo:
    limits: dict[str, int] = {}
    for line in (shared / "ygo/lflist/TCG_2020.04.lflist.conf").read_text(encoding="utf-8").splitlines():
        if line and line[0].isdigit():
            code, count = line.split()[:2]
            limits[code] = int(count)
    return BanListInfo(name="2020.04 TCG", limits=limits)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_it_judges_the_real_deck_as_the_rules_say(shared_data: Path, name: str):
    cards = load_cdb(shared_data / "ygo/cdb/cards-2020-03-30.cdb")
    deck = ydk_deck(shared_data / f"ygo/ydk/{name}.ydk", cards)
    report = validate_deck(deck, fmt("yugioh", "advanced"), banlist=tcg_2020_04(shared_data))
    unknown, forbidden, limited = EXPECTED[name]
    assert len([v for v in report.violations if v.code == "unknown_card"]) == unknown
    assert {v.card for v in report.violations if v.code == "banlist_forbidden"} == forbidden
    assert {(v.card, v.count, v.limit) for v in report.violations if v.code == "banlist_limit"} == limited
    # Nothing else is wrong with these decks: sizes, extra-deck types and copy counts are all within the rules.
    assert set(report.codes()) <= {"unknown_card", "banlist_forbidden", "banlist_limit"}
    assert report.legal is (not unknown and not forbidden and not limited)
