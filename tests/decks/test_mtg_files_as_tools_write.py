"""Magic deck files as Arena, MTGO, Moxfield and Cockatrice write and read them: the text export
writes Arena's sections (Commander / Deck / Sideboard), MTGO's blank-line sideboard reads back, the .cod
keeps the commander in "main" named by <bannerCard> as Cockatrice saves it, and partner commanders import,
validate, show and export as two commanders."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cards.models import Card
from decks.formats import parse_deck
from decks.resolve import deck_resolve
from decks.selectors import deck_report, deck_sections
from decks.services import deck_export, deck_import

pytestmark = pytest.mark.django_db

PARTNER = "Partner (You can have two commanders if both have partner.)"


def _card(game: Any, name: str, *, kind: str = "creature", text: str = "", colors: str = "", legendary=False):
    attrs = {"color": list(colors), "manacost": "".join(f"{{{c}}}" for c in colors)}
    if legendary:
        attrs["supertypes"] = ["legendary"]
    return Card.objects.create(game=game, external_id=name, identity=name, name=name, search_name=name.casefold(),
                               card_type=kind, attributes=attrs, text=text)  # fmt: skip


@pytest.fixture
def partners(games: dict[str, Any]) -> Any:
    game = games["mtg"]
    _card(game, "Tymna the Weaver", text=f"Lifelink\n{PARTNER}", colors="WB", legendary=True)
    _card(game, "Thrasios, Triton Hero", text=PARTNER, colors="GU", legendary=True)
    for i in range(98):
        _card(game, f"Spell {i}", kind="instant", colors="WUBG"[i % 4])
    _card(
        game, "Lurrus of the Dream-Den", text="Companion — Each permanent card …", colors="WB", legendary=True
    )
    return game


ARENA_PARTNERS = (
    "Commander\n1 Tymna the Weaver\n1 Thrasios, Triton Hero\n\nDeck\n"
    + "".join(f"1 Spell {i}\n" for i in range(98))
    + "\nSideboard\n1 Lurrus of the Dream-Den\n"
)


def test_partner_commanders_import_validate_show_and_export(partners, user, client):
    result = deck_import(owner=user, game=partners, data=ARENA_PARTNERS, fmt="text", format_slug="commander",
                         name="Tymna Thrasios")  # fmt: skip
    deck = result.deck
    assert deck.hero.name == "Tymna the Weaver"
    assert [c.name for c in deck.co_heroes.all()] == ["Thrasios, Triton Hero"]
    assert [c.name for c, _n in deck_sections(deck)["side"]] == ["Lurrus of the Dream-Den"]
    report = deck_report(deck=deck)
    assert report["legal"], report["violations"]
    client.force_login(user)
    page = client.get(f"/decks/{deck.pk}/").content.decode()
    assert "Thrasios, Triton Hero" in page and 'data-testid="co-hero"' in page
    text = deck_export(deck=deck, fmt="text").content.decode()
    assert text.startswith(
        "About\nName Tymna Thrasios\n\nCommander\n1 Tymna the Weaver\n1 Thrasios, Triton Hero\n\nDeck\n"
    )
    assert "\nSideboard\n1 Lurrus of the Dream-Den\n" in text
    for fmt in ("text", "cod"):
        data = deck_export(deck=deck, fmt=fmt).content.decode()
        again = deck_import(owner=user, game=partners, data=data, fmt=fmt, format_slug="commander").deck
        assert again.hero == deck.hero and list(again.co_heroes.all()) == list(deck.co_heroes.all()), fmt
        assert sum(n for lines in deck_sections(again).values() for _c, n in lines) == 99, fmt


def test_the_cod_keeps_the_commander_in_main_as_cockatrice_saves_it(partners, user):
    deck = deck_import(
        owner=user, game=partners, data=ARENA_PARTNERS, fmt="text", format_slug="commander"
    ).deck
    cod = deck_export(deck=deck, fmt="cod").content.decode()
    assert "<bannerCard>Tymna the Weaver</bannerCard>" in cod
    assert '<zone name="main">' in cod and '<zone name="side">' in cod and 'name="hero"' not in cod
    assert "Commander: Thrasios, Triton Hero" in cod
    parsed = parse_deck(cod, "cod")
    assert parsed.hero is None and parsed.commanders == ["Tymna the Weaver", "Thrasios, Triton Hero"]
    assert parsed.notes == ""  # the "Commander:" line is no note of the player's
    # In a format without a commander the banner card is just a card of the deck.
    constructed = deck_resolve(game=partners, parsed=parse_deck(cod, "cod"), format_slug="constructed")
    assert constructed.hero is None and len(constructed.sections["main"]) == 100


def test_the_real_cockatrice_commander_deck_gets_its_commander(games, shared_data: Path):
    from cards.services import cards_import

    game = games["mtg"]
    for path in sorted((shared_data / "mtg" / "cockatrice").glob("*.xml")):
        cards_import(game=game, data=path.read_bytes(), filename=path.name)
    _card(game, "Kelsien, the Plague", colors="RWB", legendary=True)
    data = (shared_data / "mtg" / "cod" / "dons-decks_edh-Assassin.cod").read_bytes()
    parsed = parse_deck(data, "cod")
    assert parsed.commanders == ["Kelsien, the Plague"]
    resolved = deck_resolve(game=game, parsed=parsed, format_slug="commander")
    assert resolved.hero is not None and resolved.hero.name == "Kelsien, the Plague"
    assert "Kelsien, the Plague" not in {c.name for c, _n in resolved.sections.get("main", [])}


def test_mtgo_puts_the_sideboard_after_a_blank_line_and_it_reads_back(partners):
    mtgo = "".join(f"1 Spell {i}\n" for i in range(60)) + "\n" + "1 Spell 90\n1 Spell 91\n"
    resolved = deck_resolve(game=partners, parsed=parse_deck(mtgo, "text"), format_slug="constructed")
    assert resolved.ok, resolved.problems()
    assert len(resolved.sections["main"]) == 60
    assert [c.name for c, _n in resolved.sections["side"]] == ["Spell 90", "Spell 91"]


def test_a_yugioh_text_export_keeps_its_own_titles(sample_cards, ygo_deck):
    text = deck_export(deck=ygo_deck, fmt="text").content.decode()
    assert "\nMain\n" in text and "\nDeck\n" not in text and "About\n" not in text


def test_the_api_reads_and_writes_partner_commanders(partners, user, other_user, api_client_for):
    client = api_client_for(user)
    tymna, thrasios = (
        Card.objects.get(game=partners, name=n) for n in ("Tymna the Weaver", "Thrasios, Triton Hero")
    )
    spells = Card.objects.filter(game=partners, name__startswith="Spell ")
    body = {"game": "mtg", "name": "API partners", "format_slug": "commander", "hero": tymna.pk,
            "co_heroes": [thrasios.pk], "sections": {"main": [{"card": c.pk, "count": 1} for c in spells]}}  # fmt: skip
    created = client.post("/api/decks/", body, format="json")
    assert created.status_code == 201, created.json()
    assert [h["name"] for h in created.json()["co_heroes"]] == ["Thrasios, Triton Hero"]
    deck_id = created.json()["id"]
    cleared = client.patch(f"/api/decks/{deck_id}/", {"co_heroes": []}, format="json")
    assert cleared.status_code == 200 and cleared.json()["co_heroes"] == []
    foreign = Card.objects.filter(game__slug="yugioh").first() or _card(
        Card.objects.get(pk=tymna.pk).game.__class__.objects.get(slug="yugioh"), "Kuriboh"
    )
    refused = client.patch(f"/api/decks/{deck_id}/", {"co_heroes": [foreign.pk]}, format="json")
    # A card of another game, as for the hero and the sections: well-formed, cannot go with the deck (422).
    assert refused.status_code == 422 and "co_heroes" in refused.json()
    no_hero = client.patch(
        f"/api/decks/{deck_id}/", {"hero": None, "co_heroes": [thrasios.pk]}, format="json"
    )
    # Well formed, but partners without the commander they partner cannot go together (422, README "Errors").
    assert no_hero.status_code == 422 and "co_heroes" in no_hero.json()
