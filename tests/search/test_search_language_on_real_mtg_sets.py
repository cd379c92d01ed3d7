"""Magic queries over the four shared Cockatrice set files (ELD, INR, M20, UNF) come back with exactly the
cards a direct reading of the XML gives: name words, type-line words, colours, mana value, power, rules-text
phrases, sets and rarities, negation and or."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

pytestmark = pytest.mark.django_db


def words(text: str) -> list[str]:
    return re.sub(r"[\W_]+", " ", text.lower()).split()


@pytest.fixture
def mtg(shared_data: Path, games):  # type: ignore[no-untyped-def]
    from cards.services import cards_import

    cards: dict[str, dict] = {}
    for path in sorted((shared_data / "mtg" / "cockatrice").glob("*.xml")):
        result = cards_import(game=games["mtg"], data=path.read_bytes(), filename=path.name)
        assert result.ok, result.errors[:3]
        for node in ET.parse(path).getroot().iter("card"):
            name = node.findtext("name") or ""
            entry = cards.setdefault(name, {"sets": set(), "rarities": set()})
            for printing in node.findall("set"):
                entry["sets"].add((printing.text or "").lower())
                entry["rarities"].add((printing.get("rarity") or "").lower())
            # Version 3 writes the fields under <card>, version 4 (INR) under <prop>.
            prop = node.find("prop")
            field = lambda tag: node.findtext(tag) or (prop.findtext(tag) if prop is not None else None) or ""  # noqa: E731, B023
            entry["type"] = field("type")
            entry["colors"] = {c.text for c in node.iter("color")} | set(field("colors"))
            cmc = field("cmc").split("//")[0].strip()
            entry["mv"] = math.floor(float(cmc)) if cmc else None
            pt = field("pt").split("/")
            numeric = len(pt) == 2 and all(x.strip().lstrip("-").isdigit() for x in pt)
            entry["power"] = int(pt[0]) if numeric else None
            entry["toughness"] = int(pt[1]) if numeric else None
            entry["text"] = " ".join(words(node.findtext("text") or ""))
    return cards


def names(client, q: str) -> set[str]:  # type: ignore[no-untyped-def]
    found: set[str] = set()
    page = 1
    while True:
        data = client.get("/api/cards/", {"game": "mtg", "q": q, "page_size": 200, "page": page}).json()
        found |= {card["name"] for card in data["results"]}
        if not data["next"]:
            return found
        page += 1


def test_it_answers_as_the_set_files_read(client, mtg) -> None:  # type: ignore[no-untyped-def]
    def expect(pred) -> set[str]:  # type: ignore[no-untyped-def]
        return {name for name, card in mtg.items() if pred(name, card)}

    cases = {
        "dragon": expect(lambda n, c: "dragon" in " ".join(words(n))),
        "t:knight": expect(lambda n, c: "knight" in words(c["type"])),
        "t:creature c:w mv>=4": expect(lambda n, c: "creature" in words(c["type"]) and "W" in c["colors"] and (c["mv"] or 0) >= 4),
        "pow>=5 -c:g": expect(lambda n, c: c["power"] is not None and c["power"] >= 5 and "G" not in c["colors"]),
        'o:"draw a card"': expect(lambda n, c: "draw a card" in c["text"]),
        # "Mythic" in version 3 files, "Mythic Rare" in version 4
        "s:eld r:mythic": expect(lambda n, c: "eld" in c["sets"] and any("mythic" in words(r) for r in c["rarities"])),
        "t:instant (s:m20 or s:inr) -o:damage": expect(
            lambda n, c: "instant" in words(c["type"]) and c["sets"] & {"m20", "inr"} and "damage" not in c["text"]
        ),
        "c:r c:g": expect(lambda n, c: {"R", "G"} <= c["colors"]),
        "c=r t:creature": expect(lambda n, c: c["colors"] == {"R"} and "creature" in words(c["type"])),
        "tou>=5 -t:legendary": expect(lambda n, c: c["toughness"] is not None and c["toughness"] >= 5 and "legendary" not in words(c["type"])),
        "t:legendary t:creature o:flying": expect(
            lambda n, c: {"legendary", "creature"} <= set(words(c["type"])) and "flying" in c["text"]
        ),
        'o:"enters the battlefield" (s:eld or s:unf) -c:b': expect(
            lambda n, c: "enters the battlefield" in c["text"] and c["sets"] & {"eld", "unf"} and "B" not in c["colors"]
        ),
    }  # fmt: skip
    for query, expected in cases.items():
        assert expected, query
        assert names(client, query) == expected, query
    # An exact name, and the name's words in another order with its punctuation dropped.
    name = next(n for n in sorted(mtg) if "," in n and len(words(n)) >= 3)
    # '"Brims" Barone, Midway Mobster' typed without its quotes: punctuation is not part of a name's match.
    assert names(client, '!"{}"'.format(name.replace('"', ""))) == {name}
    shuffled = " ".join(reversed(words(name)))
    assert names(client, shuffled) == expect(lambda n, c: all(w in " ".join(words(n)) for w in words(name)))
