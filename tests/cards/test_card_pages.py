"""The card browser and card detail pages (Django test client)."""

from __future__ import annotations

import pytest

from cards.demo import SAMPLES
from cards.models import Card
from cards.services import cards_import
from tests.cards.conftest import COCKATRICE_V4, deckhall_json, es_card

pytestmark = pytest.mark.django_db


@pytest.fixture
def yugioh(games):
    assert cards_import(
        game=games["yugioh"], data=(SAMPLES / "yugioh-sample.json").read_bytes(), filename="y.json"
    ).ok
    return games["yugioh"]


def test_the_detail_page_links_alternate_artworks_both_ways(client, yugioh):
    original = Card.objects.get(game=yugioh, external_id="46986414")
    alternate = Card.objects.get(game=yugioh, external_id="46986415")
    page = client.get(f"/cards/{original.pk}/").content.decode()
    assert "Same card, other printings or artworks" in page
    assert f'href="/cards/{alternate.pk}/"' in page and "(46986415)" in page
    back = client.get(f"/cards/{alternate.pk}/").content.decode()
    assert f'href="/cards/{original.pk}/"' in back and "(46986414)" in back
    lone = Card.objects.get(game=yugioh, external_id="55144522")
    assert "other printings or artworks" not in client.get(f"/cards/{lone.pk}/").content.decode()


def test_the_browser_marks_the_alternate_artwork(client, yugioh):
    page = client.get("/cards/", {"game": "yugioh", "q": "dark magician"}).content.decode()
    assert page.count('data-testid="alternate-artwork"') == 1 and "alternate artwork #46986415" in page


def test_the_detail_page_lists_printings_with_set_rarity_and_image(client, games):
    assert cards_import(game=games["caster"], data=COCKATRICE_V4.encode(), filename="v4.xml").ok
    dragon = Card.objects.get(external_id="Огненный Дракон")
    page = client.get(f"/cards/{dragon.pk}/").content.decode()
    assert "Printings" in page and "TST — Test Set · 12 · rare" in page
    assert 'href="https://example.com/d.jpg"' in page


def test_the_detail_page_shows_attributes_readably_and_escaped(client, games):
    card = es_card("1", "<script>alert(1)</script>")
    card["attributes"] |= {"restrictions": [{"kind": "forbid", "filter": {"size": "L"}}], "flag": True}
    assert cards_import(game=games["everseal"], data=deckhall_json([card]), filename="x.json").ok
    page = client.get(f"/cards/{Card.objects.get().pk}/").content.decode()
    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<td>Стая</td>" in page  # a list attribute, not "['Стая']"
    assert (
        "{&quot;kind&quot;: &quot;forbid&quot;, &quot;filter&quot;: {&quot;size&quot;: &quot;L&quot;}}"
        in page
    )
    assert "<td>true</td>" in page


def test_the_detail_page_is_translated(client, yugioh):
    card = Card.objects.get(game=yugioh, external_id="46986414")
    page = client.get(f"/cards/{card.pk}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Идентичность (лимит копий)" in page and "Та же карта: другие издания и арты" in page
    assert client.get("/cards/999999/").status_code == 404
