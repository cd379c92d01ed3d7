"""Print for play (card-size pages, 3 × 3 on A4 or Letter, cut marks, pictures where the game has them, text
cards otherwise) and the registration sheets in each game's own layout, Cyrillic included, with the deck hash."""

from __future__ import annotations

import io
import subprocess

import pytest
from django.urls import reverse

from decks.deckhash import deck_hash_of
from decks.selectors import deck_sections
from decks.services import deck_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def weasyprint():  # type: ignore[no-untyped-def]
    try:
        import weasyprint
    except (ImportError, OSError) as error:
        pytest.skip(f"WeasyPrint cannot run here: {error}")
    return weasyprint


def _pages(content: bytes, tmp_path) -> tuple[int, str]:  # type: ignore[no-untyped-def]
    path = tmp_path / "info.pdf"
    path.write_bytes(content)
    info = subprocess.run(["pdfinfo", str(path)], check=True, capture_output=True, text=True).stdout
    fields = dict(line.split(":", 1) for line in info.splitlines() if ":" in line)
    return int(fields["Pages"]), fields["Page size"].strip()


def _picture(card, settings, tmp_path):  # type: ignore[no-untyped-def]
    from django.core.files.base import ContentFile
    from PIL import Image

    from cards.models import CardPicture

    settings.MEDIA_ROOT = tmp_path / "media"
    buffer = io.BytesIO()
    Image.new("RGB", (63, 88), (200, 30, 30)).save(buffer, "PNG")
    picture = CardPicture(card=card, width=63, height=88)
    picture.image.save("pot.png", ContentFile(buffer.getvalue()), save=False)
    picture.save()


def test_it_prints_every_copy_card_sized_nine_a_page_with_pictures_or_text(
    weasyprint, sample_cards, user, card, client, pdf_text, settings, tmp_path
) -> None:
    pot = card("yugioh", "Pot of Greed")
    _picture(pot, settings, tmp_path)
    deck = deck_create(
        owner=user, game=sample_cards["yugioh"], name="Print me", format_slug="advanced",
        sections={"main": [(card("yugioh", "Dark Magician"), 3), (pot, 2), (card("yugioh", "Mirror Force"), 3)],
                  "extra": [(card("yugioh", "Stardust Dragon"), 2)]},
    )  # fmt: skip
    client.force_login(user)
    answer = client.get(reverse("decks:export", args=[deck.pk, "cards"]))
    assert answer.status_code == 200 and answer["Content-Type"] == "application/pdf"
    assert answer["Content-Disposition"].endswith('.cards.pdf"')
    assert _pages(answer.content, tmp_path) == (2, "595.276 x 841.89 pts (A4)")  # 10 copies: 9 + 1
    text = pdf_text(answer.content, layout=False)
    assert text.count("Dark Magician") == 3 and text.count("Mirror Force") == 3
    assert "Pot of Greed" not in text  # its copies are its picture
    assert text.count("Stardust Dragon") == 2
    letter = client.get(reverse("decks:export", args=[deck.pk, "cards"]) + "?paper=letter")
    assert _pages(letter.content, tmp_path) == (2, "612 x 792 pts (letter)")
    assert client.get(reverse("decks:export", args=[deck.pk, "cards"]) + "?paper=a3").status_code == 404


def test_cut_marks_stay_in_the_margin_and_cards_are_63_by_88(sample_cards, user, card) -> None:
    from decks.printing import print_context

    deck = deck_create(owner=user, game=sample_cards["yugioh"], name="Marks", format_slug="advanced",
                       sections={"main": [(card("yugioh", "Raigeki"), 3)]})  # fmt: skip
    for paper in ("a4", "letter"):
        context = print_context(deck, paper=paper)
        left, top = context["grid"]["left"], context["grid"]["top"]
        right, bottom = left + 3 * 63, top + 3 * 88
        assert (context["card"]["w"], context["card"]["h"]) == (63.0, 88.0)
        assert (
            left > 5 and top > 5 and right < context["paper"]["w"] - 5 and bottom < context["paper"]["h"] - 5
        )
        for mark in context["marks"]:
            inside_x = left < mark["x"] + mark["w"] and mark["x"] < right
            inside_y = top < mark["y"] + mark["h"] and mark["y"] < bottom
            assert not (inside_x and inside_y), mark
            assert mark["x"] >= 0 and mark["x"] + mark["w"] <= context["paper"]["w"]
        assert len(context["marks"]) == 16


def test_text_cards_print_cyrillic(weasyprint, sample_cards, user, card, client, pdf_text) -> None:
    deck = deck_create(
        owner=user, game=sample_cards["everseal"], name="Зимняя стая", format_slug="standard",
        hero=card("everseal", "Странник"), sections={"main": [(card("everseal", "Снежный Волчонок"), 2)]},
    )  # fmt: skip
    client.force_login(user)
    text = pdf_text(client.get(reverse("decks:export", args=[deck.pk, "cards"])).content, layout=False)
    assert text.count("Снежный Волчонок") == 2 and "Странник" in text and "Зимняя стая" in text


def test_the_yugioh_sheet_is_konamis_layout_with_the_player_id(
    weasyprint, sample_cards, user, card, client, pdf_text
) -> None:
    deck = deck_create(
        owner=user, game=sample_cards["yugioh"], name="Магия", format_slug="advanced",
        sections={"main": [(card("yugioh", "Dark Magician"), 3), (card("yugioh", "Pot of Greed"), 1),
                           (card("yugioh", "Mirror Force"), 2), (card("yugioh", "Raigeki"), 1)],
                  "extra": [(card("yugioh", "Stardust Dragon"), 1)], "side": [(card("yugioh", "Trap Hole"), 2)]},
    )  # fmt: skip
    client.force_login(user)
    url = (
        reverse("decks:export", args=[deck.pk, "pdf"]) + "?player=Юги Муто&event=Locals&player_id=0123456789"
    )
    text = pdf_text(client.get(url).content)
    for needle in ("KONAMI", "CARD GAME ID", "Юги Муто", "Locals", "Магия", "Monster Cards", "Spell Cards",
                   "Trap Cards", "Side Deck", "Extra Deck", "For judge use only"):  # fmt: skip
        assert needle in text, needle
    assert "0 1 2 3 4 5 6 7 8 9" in " ".join(text.split())
    flat = " ".join(text.split())
    assert "3 Total Monster Cards" in flat and "2 Total Spell Cards" in flat and "2 Total Trap Cards" in flat
    assert deck_hash_of(game_slug="yugioh", sections=deck_sections(deck)) in text
    # Without one in the request, the sheet carries the ID the player saved for the game.
    from accounts.models import OfficialId

    OfficialId.objects.create(user=user, game_slug="yugioh", value="9876543210")
    saved = pdf_text(client.get(reverse("decks:export", args=[deck.pk, "pdf"])).content)
    assert "9 8 7 6 5 4 3 2 1 0" in " ".join(saved.split())


def test_the_magic_sheet_is_the_wizards_layout_with_cockatrices_hash(
    weasyprint, games, user, client, pdf_text
) -> None:
    from cards.models import Card
    from decks.deckhash import deck_hash

    def make(name: str, card_type: str = "instant") -> Card:
        return Card.objects.create(game=games["mtg"], external_id=name, identity=name, name=name,
                                   search_name=name.casefold(), card_type=card_type)  # fmt: skip

    bolt, island, spell = make("Lightning Bolt"), make("Island", "land"), make("Counterspell")
    deck = deck_create(owner=user, game=games["mtg"], name="Izzet", format_slug="constructed",
                       sections={"main": [(bolt, 4), (island, 56)], "side": [(spell, 3)]})  # fmt: skip
    client.force_login(user)
    url = reverse("decks:export", args=[deck.pk, "pdf"]) + "?player=Chandra Nalaar"
    flat = " ".join(pdf_text(client.get(url).content, layout=False).split())
    for needle in ("DECK REGISTRATION SHEET", "First letter of last name", "# in deck", "Sideboard",
                   "For official use only", "Total Number of Cards in Main Deck"):  # fmt: skip
        assert needle in flat, needle
    expected = deck_hash({"main": [("Lightning Bolt", 4), ("Island", 56)], "side": [("Counterspell", 3)]},
                         counted={"main": "", "side": "SB:"})  # fmt: skip
    assert expected in flat
    api = client.get(reverse("api-deck-detail", args=[deck.pk])).json()
    assert api["hash"] == expected
