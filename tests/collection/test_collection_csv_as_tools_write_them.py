"""Collection CSVs as Moxfield, Deckbox, ManaBox and Dragon Shield export them import exactly; Deckhall's own
export reads back to the same collection."""

from __future__ import annotations

import pytest

from collection.csvformats import CollectionFileError, parse_collection_csv
from collection.models import CollectionEntry
from collection.services import collection_import

MOXFIELD = (
    '"Count","Tradelist Count","Name","Edition","Condition","Language","Foil","Tags","Last Modified",'
    '"Collector Number","Alter","Proxy","Purchase Price"\n'
    '"4","0","Lightning Bolt","2xm","Near Mint","English","","","2024-03-01 18:22:01.350000","117","False","False",""\n'
    '"1","1","Brazen Borrower // Petty Theft","eld","Near Mint","English","foil","","2024-03-01 18:22:01.350000",'
    '"39","False","False","12.50"\n'
    '"2","0","Counterspell","mh2","Lightly Played","German","","","2024-03-01 18:22:01.350000","267","False","False",""\n'
)
DECKBOX = (
    "Count,Tradelist Count,Name,Edition,Card Number,Condition,Language,Foil,Signed,Artist Proof,Altered Art,"
    "Misprint,Promo,Textless,My Price\n"
    "4,0,Lightning Bolt,Double Masters,117,Near Mint,English,,,,,,,,$0.00\n"
    '1,0,"Brazen Borrower // Petty Theft",Throne of Eldraine,39,Near Mint,English,foil,,,,,,,$12.50\n'
    "2,2,Counterspell,Modern Horizons 2,267,Good (Lightly Played),German,,,,,,,,\n"
)
MANABOX = (
    "Name,Set code,Set name,Collector number,Foil,Rarity,Quantity,ManaBox ID,Scryfall ID,Purchase price,"
    "Misprint,Altered,Condition,Language,Purchase price currency\n"
    "Lightning Bolt,2XM,Double Masters,117,normal,uncommon,4,75124,e3285e6b-3e79-4d7c-bf96-d920f973b80d,0.99,"
    "false,false,near_mint,en,EUR\n"
    '"Brazen Borrower // Petty Theft",ELD,Throne of Eldraine,39,foil,mythic,1,53010,'
    "d1e0f5f7-e9d2-4b2b-8d11-9a4c7ee6a2a5,12.50,false,false,near_mint,en,EUR\n"
    "Counterspell,MH2,Modern Horizons 2,267,normal,uncommon,2,80233,5b2b9e7f-2a0e-4b3c-8f56-2d4a7c6e4b11,0.50,"
    "false,false,light_played,de,EUR\n"
)
DRAGON_SHIELD = (
    '"sep=,"\n'
    "Folder Name,Quantity,Trade Quantity,Card Name,Set Code,Set Name,Card Number,Condition,Printing,Language,"
    "Price Bought,Date Bought,LOW,MID,MARKET\n"
    "Binder,4,0,Lightning Bolt,2XM,Double Masters,117,NearMint,Normal,English,0.99,2024-03-01,0.80,1.00,1.10\n"
    'Binder,1,0,"Brazen Borrower // Petty Theft",ELD,Throne of Eldraine,39,NearMint,Foil,English,12.50,2024-03-01,'
    "10.00,12.00,13.00\n"
    "Trades,2,2,Counterspell,MH2,Modern Horizons 2,267,Excellent,Normal,German,0.50,2024-03-01,0.30,0.40,0.60\n"
)

TOOLS = {"moxfield": MOXFIELD, "deckbox": DECKBOX, "manabox": MANABOX, "dragonshield": DRAGON_SHIELD}


@pytest.fixture
def magic_cards(games):  # type: ignore[no-untyped-def]
    from cards.models import Card

    cards = {}
    for name, card_type in (("Lightning Bolt", "instant"), ("Counterspell", "instant"),
                            ("Brazen Borrower", "creature")):  # fmt: skip
        cards[name] = Card.objects.create(
            game=games["mtg"], external_id=name, identity=name, name=name, search_name=name.casefold(),
            card_type=card_type,
        )  # fmt: skip
    return cards


@pytest.mark.parametrize("tool", TOOLS)
def test_it_reads_each_tools_layout_row_for_row(tool) -> None:
    parsed = parse_collection_csv(TOOLS[tool].encode("utf-8"))
    assert parsed.layout.slug == tool
    assert parsed.problems == []
    rows = [(r.count, r.name, r.foil, r.number) for r in parsed.rows]
    assert rows == [
        (4, "Lightning Bolt", False, "117"),
        (1, "Brazen Borrower // Petty Theft", True, "39"),
        (2, "Counterspell", False, "267"),
    ]


@pytest.mark.parametrize("tool", TOOLS)
def test_it_imports_each_tools_file_into_the_collection(tool, magic_cards, user) -> None:
    result = collection_import(owner=user, game=magic_cards["Counterspell"].game, data=TOOLS[tool].encode())
    assert (result.layout, result.rows_read, result.copies_read, result.unknown) == (tool, 3, 7, [])
    owned = {(e.card.name, e.foil): e.count for e in CollectionEntry.objects.filter(owner=user)}
    assert owned == {("Lightning Bolt", False): 4, ("Brazen Borrower", True): 1, ("Counterspell", False): 2}


def test_it_reads_manabox_binder_exports_too() -> None:
    text = "Binder Name,Binder Type,Name,Set code,Set name,Collector number,Foil,Rarity,Quantity,ManaBox ID,"
    text += "Scryfall ID,Purchase price,Misprint,Altered,Condition,Language,Purchase price currency\n"
    text += (
        "Trade binder,binder,Counterspell,MH2,Modern Horizons 2,267,foil,uncommon,2,80233,x,0.50,false,false,"
    )
    text += "near_mint,en,EUR\n"
    parsed = parse_collection_csv(text)
    assert (parsed.layout.slug, [(r.count, r.name, r.foil) for r in parsed.rows]) == (
        "manabox", [(2, "Counterspell", True)],
    )  # fmt: skip


def test_it_reads_a_bom_and_a_spreadsheets_semicolons(magic_cards, user) -> None:
    text = "\ufeffCount;Tradelist Count;Name;Edition;Card Number;Condition;Language;Foil;Signed\n3;0;Counterspell;MH2;267;;;;\n"
    result = collection_import(owner=user, game=magic_cards["Counterspell"].game, data=text.encode("utf-8"))
    assert (result.layout, result.copies_read) == ("deckbox", 3)


def test_it_lists_unknown_and_unreadable_lines_and_imports_the_rest(magic_cards, user) -> None:
    text = MANABOX + "Black Lotus,LEA,Alpha,232,normal,rare,1,1,x,,false,false,near_mint,en,EUR\n"
    text += "Counterspell,MH2,Modern Horizons 2,267,normal,uncommon,lots,1,x,,false,false,near_mint,en,EUR\n"
    result = collection_import(owner=user, game=magic_cards["Counterspell"].game, data=text.encode())
    assert result.copies_read == 7
    assert [(u["line"], u["reason"]) for u in result.unknown] == [(5, "unknown_card"), (6, "bad_count")]
    assert "Black Lotus" in result.unknown[0]["message"]


def test_it_refuses_a_file_it_does_not_know_and_writes_nothing(magic_cards, user) -> None:
    from django.core.exceptions import ValidationError

    collection_import(owner=user, game=magic_cards["Counterspell"].game, data=MOXFIELD)
    with pytest.raises(ValidationError, match="Card,Qty"):
        collection_import(
            owner=user, game=magic_cards["Counterspell"].game, data="Card,Qty\nLightning Bolt,4\n"
        )
    assert CollectionEntry.objects.filter(owner=user).count() == 3
    with pytest.raises(CollectionFileError):
        parse_collection_csv(b"")


def test_it_exports_its_own_layout_and_reads_it_back_exactly(sample_cards, user, card) -> None:
    from collection.exporting import collection_csv

    game = sample_cards["yugioh"]
    alternate = card("yugioh", "46986415")  # Dark Magician's alternate artwork: its own passcode
    text = (
        "Count,Name,Card ID,Set Code,Collector Number,Foil,Condition,Language\n"
        "2,Dark Magician,46986414,LOB,LOB-EN005,,Near Mint,English\n"
        f"1,Dark Magician,{alternate.external_id},SDY,SDY-006,foil,Played,Русский\n"
        "3,Blue-Eyes White Dragon,89631139,LOB,LOB-EN001,,,\n"
    )
    first = collection_import(owner=user, game=game, data=text)
    assert (first.layout, first.copies_read, first.cards) == ("deckhall", 6, 3)
    exported = collection_csv(user, game)
    again = collection_import(owner=user, game=game, data=exported)
    assert (again.copies_read, again.cards) == (6, 3)
    assert collection_csv(user, game) == exported
    assert CollectionEntry.objects.get(owner=user, card=alternate).language == "Русский"
