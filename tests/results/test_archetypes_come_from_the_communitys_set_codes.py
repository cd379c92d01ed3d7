"""Yu-Gi-Oh! archetypes from YGOPro's own data: the cards' set codes and strings.conf's names."""

from __future__ import annotations

import sqlite3
from collections import Counter
from pathlib import Path

import pytest

from results.archetypes import parse_setnames, setcode_label

SHARED = Path(__file__).resolve().parents[3] / "shared" / "data" / "ygo"

# Held out: YGOPro's windbot decks, each with the archetype a player would name (or the review queue).
EXPECTED = {
    "AI_Altergeist.ydk": "Altergeist",
    "AI_Blackwing.ydk": "Blackwing",
    "AI_Orcust.ydk": "Orcust",
    "AI_Witchcraft.ydk": "Witchcrafter",
    "AI_LightswornShaddoldinosour.ydk": "Shaddoll",
    "AI_BlueEyesMaxDragon.ydk": ("Blue-Eyes", "Impcantation"),  # 6 and 6 copies: two rules, a human decides
    "AI_Burn.ydk": None,  # no archetype engine: review queue
}


def _main_deck(path: Path) -> Counter[int]:
    counts: Counter[int] = Counter()
    section = "main"
    for line in path.read_text().splitlines():
        line = line.strip()
        if line.startswith("#extra"):
            section = "extra"
        elif line.startswith("!"):
            section = "side"
        elif line.isdigit() and section == "main":
            counts[int(line)] += 1
    return counts


@pytest.mark.skipif(
    not (SHARED / "strings.conf").is_file(), reason="needs ../shared/data/ygo (community data)"
)
def test_it_labels_real_decks_by_the_archetype_most_of_their_cards_belong_to() -> None:
    names = parse_setnames((SHARED / "strings.conf").read_text(errors="replace"))
    assert names[0x2] == "Genex" and names[0x1002] == "R-Genex" and len(names) > 500
    db = sqlite3.connect(SHARED / "cdb" / "cards-2020-03-30.cdb")
    codes = {
        cid: [c for c in ((sc >> shift) & 0xFFFF for shift in (0, 16, 32, 48)) if c]
        for cid, sc in db.execute("SELECT id, setcode FROM datas")
    }
    for deck, expected in EXPECTED.items():
        main = _main_deck(SHARED / "ydk" / deck)
        label = setcode_label([(codes.get(card, []), n) for card, n in main.items()], names)
        if expected is None:
            assert label is None, deck
        elif isinstance(expected, tuple):
            assert label is not None and label.name == "" and label.candidates == expected, deck
        else:
            assert label is not None and label.name == expected, (deck, label)
            assert label.rule.startswith("set code 0x") and f" {expected}: " in label.rule


def test_a_variant_names_the_deck_only_after_its_parent() -> None:
    names = {0x2: "Genex", 0x1002: "R-Genex", 0x33: "Blackwing"}
    variant = setcode_label([([0x1002], 12), ([0x2], 6), ([0x33], 3), ([], 19)], names)
    assert variant is not None and variant.name == "R-Genex"
    assert "0x2 Genex: 18 of 40" in variant.rule and "variant 0x1002 R-Genex: 12" in variant.rule
    parent = setcode_label([([0x1002], 4), ([0x2], 14), ([], 22)], names)
    assert parent is not None and parent.name == "Genex"
    # A splash of a variant whose parent is not the deck's engine names nothing.
    assert setcode_label([([0x1002], 3), ([0x33], 12), ([], 25)], names).name == "Blackwing"
    assert setcode_label([([0x33], 5), ([], 35)], names) is None
