"""Small MTGJSON and Scryfall files of the real shapes (field names, nesting and values as the two projects
publish them: MTGJSON v5 Set and Card (Set/Atomic) models, Scryfall card objects), holding one card of each
kind that matters: normal, split, adventure, transform, modal DFC, a token and an art-series card."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

META = {"date": "2026-11-20", "version": "5.2.2+20261120"}
LEGAL = {"commander": "Legal", "legacy": "Legal", "modern": "Legal", "vintage": "Legal"}


def _face(**fields: Any) -> dict[str, Any]:
    card = {
        "availability": ["mtgo", "paper"],
        "borderColor": "black",
        "colorIdentity": [],
        "colors": [],
        "finishes": ["nonfoil", "foil"],
        "foreignData": [],
        "frameVersion": "2015",
        "hasFoil": True,
        "hasNonFoil": True,
        "identifiers": {"scryfallId": "00000000-0000-0000-0000-000000000000", "multiverseId": "1"},
        "keywords": [],
        "language": "English",
        "layout": "normal",
        "legalities": dict(LEGAL),
        "manaValue": 0.0,
        "convertedManaCost": 0.0,
        "printings": [],
        "purchaseUrls": {},
        "rarity": "common",
        "rulings": [],
        "subtypes": [],
        "supertypes": [],
        "types": [],
        "uuid": "",
    }
    card.update(fields)
    return card


def _german(name: str) -> list[dict[str, Any]]:
    return [{"language": "German", "name": name, "multiverseId": 2}, {"language": "Japanese", "name": name}]


OPT = _face(
    name="Opt",
    manaCost="{U}",
    manaValue=1.0,
    convertedManaCost=1.0,
    colors=["U"],
    colorIdentity=["U"],
    type="Instant",
    types=["Instant"],
    text="Scry 1.\nDraw a card.",
    number="59",
    setCode="ELD",
    identifiers={"scryfallId": "a5f6a2b3-9ef5-4d3e-a0e4-c3d9d1f4f0a1"},
    uuid="opt-eld",
    foreignData=_german("Hellsehen"),
    printings=["ELD", "M20"],
)
FIRE_ICE = [
    _face(
        name="Fire // Ice",
        faceName="Fire",
        side="a",
        layout="split",
        manaCost="{1}{R}",
        manaValue=4.0,
        faceManaValue=2.0,
        colors=["R"],
        colorIdentity=["R", "U"],
        type="Instant",
        types=["Instant"],
        text="Fire deals 2 damage divided as you choose among one or two targets.",
        number="128",
        setCode="MH2",
        rarity="uncommon",
        identifiers={"scryfallId": "b9ee0c4a-5c93-4d8b-a0a0-9ecd4f4b4f6c"},
        uuid="fire",
    ),
    _face(
        name="Fire // Ice",
        faceName="Ice",
        side="b",
        layout="split",
        manaCost="{1}{U}",
        manaValue=4.0,
        faceManaValue=2.0,
        colors=["U"],
        colorIdentity=["R", "U"],
        type="Instant",
        types=["Instant"],
        text="Tap target permanent.\nDraw a card.",
        number="128",
        setCode="MH2",
        rarity="uncommon",
        identifiers={"scryfallId": "b9ee0c4a-5c93-4d8b-a0a0-9ecd4f4b4f6c"},
        uuid="ice",
    ),
]
BONECRUSHER = [
    _face(
        name="Bonecrusher Giant // Stomp",
        faceName="Bonecrusher Giant",
        side="a",
        layout="adventure",
        manaCost="{2}{R}",
        manaValue=3.0,
        colors=["R"],
        colorIdentity=["R"],
        type="Creature — Giant",
        types=["Creature"],
        subtypes=["Giant"],
        power="4",
        toughness="3",
        number="115",
        setCode="ELD",
        rarity="rare",
        text="Whenever Bonecrusher Giant becomes the target of a spell, "
        "Bonecrusher Giant deals 2 damage to that spell's controller.",
        identifiers={"scryfallId": "09fd2d9c-1793-4beb-a3fb-7a869f660cd4"},
        uuid="bonecrusher",
        legalities={**LEGAL, "pioneer": "Legal", "standard": "Not Legal"},
    ),
    _face(
        name="Bonecrusher Giant // Stomp",
        faceName="Stomp",
        side="b",
        layout="adventure",
        manaCost="{1}{R}",
        manaValue=3.0,
        colors=["R"],
        colorIdentity=["R"],
        type="Instant — Adventure",
        types=["Instant"],
        subtypes=["Adventure"],
        number="115",
        setCode="ELD",
        rarity="rare",
        text="Damage can't be prevented this turn. Stomp deals 2 damage to any target.",
        identifiers={"scryfallId": "09fd2d9c-1793-4beb-a3fb-7a869f660cd4"},
        uuid="stomp",
    ),
]
DELVER = [
    _face(
        name="Delver of Secrets // Insectile Aberration",
        faceName="Delver of Secrets",
        side="a",
        layout="transform",
        manaCost="{U}",
        manaValue=1.0,
        colors=["U"],
        colorIdentity=["U"],
        type="Creature — Human Wizard",
        types=["Creature"],
        subtypes=["Human", "Wizard"],
        power="1",
        toughness="1",
        number="51",
        setCode="INR",
        text="At the beginning of your upkeep, look at the top card "
        "of your library. You may reveal that card. If an instant or sorcery card is revealed this way, "
        "transform Delver of Secrets.",
        identifiers={"scryfallId": "871c4ccc-5a14-4583-b4c7-6f2d2aeb8253"},
        uuid="delver",
        legalities={**LEGAL, "vintage": "Restricted"},
    ),
    _face(
        name="Delver of Secrets // Insectile Aberration",
        faceName="Insectile Aberration",
        side="b",
        layout="transform",
        manaValue=1.0,
        colors=["U"],
        colorIdentity=["U"],
        colorIndicator=["U"],
        type="Creature — Human Insect",
        types=["Creature"],
        subtypes=["Human", "Insect"],
        power="3",
        toughness="2",
        number="51",
        setCode="INR",
        text="Flying",
        identifiers={"scryfallId": "871c4ccc-5a14-4583-b4c7-6f2d2aeb8253"},
        uuid="aberration",
    ),
]
VALAKUT = [
    _face(
        name="Valakut Awakening // Valakut Stoneforge",
        faceName="Valakut Awakening",
        side="a",
        layout="modal_dfc",
        manaCost="{2}{R}",
        manaValue=3.0,
        colors=["R"],
        colorIdentity=["R"],
        type="Instant",
        types=["Instant"],
        text="Put any number of cards from your hand on the bottom of your "
        "library, then draw that many cards plus one.",
        number="174",
        setCode="ZNR",
        rarity="rare",
        identifiers={"scryfallId": "c1e2a5b6-7d8e-4f90-a1b2-c3d4e5f6a7b8"},
        uuid="valakut-a",
    ),
    _face(
        name="Valakut Awakening // Valakut Stoneforge",
        faceName="Valakut Stoneforge",
        side="b",
        layout="modal_dfc",
        manaValue=3.0,
        colorIdentity=["R"],
        type="Land",
        types=["Land"],
        text="As Valakut Stoneforge enters the battlefield, you may pay 3 life. If you don't, it enters "
        "tapped.\n{T}: Add {R}.",
        number="174",
        setCode="ZNR",
        rarity="rare",
        identifiers={"scryfallId": "c1e2a5b6-7d8e-4f90-a1b2-c3d4e5f6a7b8"},
        uuid="valakut-b",
    ),
]
ART_SOL_RING = _face(
    name="Sol Ring // Sol Ring",
    faceName="Sol Ring",
    layout="art_series",
    type="Card",
    number="21",
    setCode="ACMM",
    identifiers={"scryfallId": "d1e2a5b6-7d8e-4f90-a1b2-c3d4e5f6a7b8"},
    uuid="art-sol",
)


def _set(code: str, name: str, date: str, set_type: str, cards: list[dict[str, Any]]) -> dict[str, Any]:
    for card in cards:
        card["setCode"] = code
    return {
        "baseSetSize": len(cards),
        "block": "",
        "booster": {},
        "cards": cards,
        "code": code,
        "isFoilOnly": False,
        "isOnlineOnly": False,
        "keyruneCode": code,
        "languages": ["English", "German", "Japanese"],
        "name": name,
        "releaseDate": date,
        "tokens": [_face(name="Goblin", type="Token Creature — Goblin", layout="token", number="T1")],
        "totalSetSize": len(cards),
        "translations": {},
        "type": set_type,
    }


def all_printings() -> dict[str, Any]:
    opt_m20 = copy.deepcopy(OPT) | {"number": "65", "rarity": "common", "identifiers": {"scryfallId": "f0f1"
        "a2b3-0000-4000-8000-000000000065"}}  # fmt: skip
    return {
        "meta": META,
        "data": {
            "ELD": _set(
                "ELD",
                "Throne of Eldraine",
                "2019-10-04",
                "expansion",
                [copy.deepcopy(OPT), *copy.deepcopy(BONECRUSHER)],
            ),
            "M20": _set("M20", "Core Set 2020", "2019-07-12", "core", [opt_m20]),
            "MH2": _set(
                "MH2", "Modern Horizons 2", "2021-06-18", "draft_innovation", copy.deepcopy(FIRE_ICE)
            ),
            "INR": _set("INR", "Innistrad Remastered", "2025-01-24", "masters", copy.deepcopy(DELVER)),
            "ZNR": _set("ZNR", "Zendikar Rising", "2020-09-25", "expansion", copy.deepcopy(VALAKUT)),
            "ACMM": _set(
                "ACMM",
                "Commander Masters Art Series",
                "2023-08-04",
                "memorabilia",
                [copy.deepcopy(ART_SOL_RING)],
            ),
        },
    }


def one_set() -> dict[str, Any]:
    return {"meta": META, "data": all_printings()["data"]["ELD"]}


def atomic_cards() -> dict[str, Any]:
    def atomic(face: dict[str, Any]) -> dict[str, Any]:
        keep = {"number", "setCode", "rarity", "uuid", "availability", "borderColor", "finishes", "hasFoil",
                "hasNonFoil", "frameVersion", "language"}  # fmt: skip
        out = {key: value for key, value in face.items() if key not in keep}
        out["identifiers"] = {"scryfallOracleId": "oracle-" + face["uuid"]}
        out["firstPrinting"] = face.get("setCode", "")
        return out

    return {
        "meta": META,
        "data": {
            "Opt": [atomic(OPT)],
            "Fire // Ice": [atomic(face) | {"printings": ["APC", "MH2"]} for face in FIRE_ICE],
            "Delver of Secrets // Insectile Aberration": [
                atomic(face) | {"printings": ["ISD", "INR"]} for face in DELVER
            ],
        },
    }


def _scryfall(**fields: Any) -> dict[str, Any]:
    card = {
        "object": "card",
        "id": "00000000-0000-0000-0000-000000000000",
        "oracle_id": "00000000-0000-0000-0000-000000000001",
        "multiverse_ids": [],
        "lang": "en",
        "released_at": "2019-10-04",
        "uri": "https://api.scryfall.com/cards/x",
        "scryfall_uri": "https://scryfall.com/card/x",
        "layout": "normal",
        "highres_image": True,
        "image_status": "highres_scan",
        "cmc": 0.0,
        "color_identity": [],
        "keywords": [],
        "legalities": {
            "standard": "not_legal",
            "pioneer": "legal",
            "modern": "legal",
            "legacy": "legal",
            "vintage": "legal",
            "commander": "legal",
            "pauper": "not_legal",
        },
        "games": ["paper", "mtgo"],
        "reserved": False,
        "foil": True,
        "nonfoil": True,
        "finishes": ["nonfoil", "foil"],
        "oversized": False,
        "promo": False,
        "reprint": False,
        "variation": False,
        "set_id": "set-id",
        "set": "eld",
        "set_name": "Throne of Eldraine",
        "set_type": "expansion",
        "collector_number": "1",
        "digital": False,
        "rarity": "common",
        "border_color": "black",
        "frame": "2015",
        "full_art": False,
        "textless": False,
        "booster": True,
        "prices": {"usd": "0.10", "eur": None},
    }
    card.update(fields)
    return card


def _uris(scryfall_id: str, side: str = "front") -> dict[str, str]:
    base = f"https://cards.scryfall.io/{{size}}/{side}/{scryfall_id[0]}/{scryfall_id[1]}/{scryfall_id}.jpg"
    return {
        size: base.format(size=size)
        for size in ("small", "normal", "large", "png", "art_crop", "border_crop")
    }


def default_cards() -> list[dict[str, Any]]:
    return [
        _scryfall(id="a5f6a2b3-9ef5-4d3e-a0e4-c3d9d1f4f0a1", name="Opt", mana_cost="{U}", cmc=1.0,
                  type_line="Instant", oracle_text="Scry 1.\nDraw a card.", colors=["U"], color_identity=["U"],
                  collector_number="59", image_uris=_uris("a5f6a2b3-9ef5-4d3e-a0e4-c3d9d1f4f0a1")),
        _scryfall(id="f0f1a2b3-0000-4000-8000-000000000065", name="Opt", mana_cost="{U}", cmc=1.0,
                  type_line="Instant", oracle_text="Scry 1.\nDraw a card.", colors=["U"], color_identity=["U"],
                  set="m20", set_name="Core Set 2020", set_type="core", released_at="2019-07-12",
                  collector_number="65", lang="ja", image_uris=_uris("f0f1a2b3-0000-4000-8000-000000000065")),
        _scryfall(id="09fd2d9c-1793-4beb-a3fb-7a869f660cd4", name="Bonecrusher Giant // Stomp",
                  layout="adventure", mana_cost="{2}{R} // {1}{R}", cmc=3.0,
                  type_line="Creature — Giant // Instant — Adventure", colors=["R"], color_identity=["R"],
                  collector_number="115", rarity="rare", image_uris=_uris("09fd2d9c-1793-4beb-a3fb-7a869f660cd4"),
                  card_faces=[
                      {"object": "card_face", "name": "Bonecrusher Giant", "mana_cost": "{2}{R}",
                       "type_line": "Creature — Giant", "oracle_text": "Whenever Bonecrusher Giant becomes the "
                       "target of a spell, Bonecrusher Giant deals 2 damage to that spell's controller.",
                       "power": "4", "toughness": "3"},
                      {"object": "card_face", "name": "Stomp", "mana_cost": "{1}{R}",
                       "type_line": "Instant — Adventure",
                       "oracle_text": "Damage can't be prevented this turn. Stomp deals 2 damage to any target."},
                  ]),
        _scryfall(id="871c4ccc-5a14-4583-b4c7-6f2d2aeb8253", name="Delver of Secrets // Insectile Aberration",
                  layout="transform", cmc=1.0, type_line="Creature — Human Wizard // Creature — Human Insect",
                  color_identity=["U"], set="inr", set_name="Innistrad Remastered", set_type="masters",
                  released_at="2025-01-24", collector_number="51",
                  legalities={"modern": "legal", "legacy": "legal", "vintage": "restricted", "standard": "not_legal"},
                  card_faces=[
                      {"object": "card_face", "name": "Delver of Secrets", "mana_cost": "{U}",
                       "type_line": "Creature — Human Wizard", "oracle_text": "At the beginning of your upkeep, "
                       "look at the top card of your library.", "colors": ["U"], "power": "1", "toughness": "1",
                       "image_uris": _uris("871c4ccc-5a14-4583-b4c7-6f2d2aeb8253")},
                      {"object": "card_face", "name": "Insectile Aberration", "mana_cost": "",
                       "type_line": "Creature — Human Insect", "oracle_text": "Flying", "colors": ["U"],
                       "color_indicator": ["U"], "power": "3", "toughness": "2",
                       "image_uris": _uris("871c4ccc-5a14-4583-b4c7-6f2d2aeb8253", "back")},
                  ]),
        _scryfall(id="c1e2a5b6-7d8e-4f90-a1b2-c3d4e5f6a7b8", name="Valakut Awakening // Valakut Stoneforge",
                  layout="modal_dfc", cmc=3.0, type_line="Instant // Land", color_identity=["R"], set="znr",
                  set_name="Zendikar Rising", collector_number="174", rarity="rare",
                  card_faces=[
                      {"object": "card_face", "name": "Valakut Awakening", "mana_cost": "{2}{R}",
                       "type_line": "Instant", "oracle_text": "Put any number of cards from your hand on the "
                       "bottom of your library, then draw that many cards plus one.", "colors": ["R"],
                       "image_uris": _uris("c1e2a5b6-7d8e-4f90-a1b2-c3d4e5f6a7b8")},
                      {"object": "card_face", "name": "Valakut Stoneforge", "mana_cost": "",
                       "type_line": "Land", "oracle_text": "{T}: Add {R}.", "colors": [],
                       "image_uris": _uris("c1e2a5b6-7d8e-4f90-a1b2-c3d4e5f6a7b8", "back")},
                  ]),
        _scryfall(id="d0d0d0d0-0000-4000-8000-000000000001", name="Goblin", layout="token",
                  type_line="Token Creature — Goblin", set="teld", set_type="token", collector_number="T1"),
        _scryfall(id="d1e2a5b6-7d8e-4f90-a1b2-c3d4e5f6a7b8", name="Sol Ring // Sol Ring", layout="art_series",
                  type_line="Card // Card", set="acmm", set_type="memorabilia", collector_number="21"),
    ]  # fmt: skip


def write(path: Path, document: Any) -> Path:
    path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    return path
