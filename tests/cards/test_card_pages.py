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


def test_the_detail_page_lists_every_printing_of_the_card_both_ways(client, yugioh):
    original = Card.objects.get(game=yugioh, external_id="46986414")
    alternate = Card.objects.get(game=yugioh, external_id="46986415")
    page = client.get(f"/cards/{original.pk}/").content.decode()
    assert f'href="/cards/{alternate.pk}/">#46986415</a>' in page and "<strong>#46986414</strong>" in page
    back = client.get(f"/cards/{alternate.pk}/").content.decode()
    assert f'href="/cards/{original.pk}/">#46986414</a>' in back
    lone = Card.objects.get(game=yugioh, external_id="55144522")
    assert "(original)" not in client.get(f"/cards/{lone.pk}/").content.decode()


def test_the_browser_shows_one_row_per_card_with_its_printings(client, yugioh):
    page = client.get("/cards/", {"game": "yugioh", "q": "dark magician"}).content.decode()
    assert page.count('data-testid="card-link">Dark Magician</a>') == 1
    assert '<span class="muted" data-testid="printing-count">2 printings</span>' in page
    # The game's words in the filters, not raw values.
    russian = client.get("/cards/", {"game": "yugioh"}, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert (
        '<option value="DARK">ТЬМА</option>' in russian
        and '<option value="monster">Монстр</option>' in russian
    )


def test_the_detail_page_shows_stats_in_the_games_words(client, yugioh):
    card = Card.objects.get(game=yugioh, external_id="46986414")
    page = client.get(f"/cards/{card.pk}/").content.decode()
    assert "<th>ATK</th><td>2500</td>" in page and "<th>Passcode</th><td>46986414</td>" in page
    assert "Monster — Normal" in page
    for raw in ("<th>atk</th>", "<th>ot</th>", "setcode", "Identity (copy limits)"):
        assert raw not in page


def test_the_detail_page_lists_printings_with_set_rarity_and_image(client, games):
    assert cards_import(game=games["caster"], data=COCKATRICE_V4.encode(), filename="v4.xml").ok
    dragon = Card.objects.get(external_id="Огненный Дракон")
    page = client.get(f"/cards/{dragon.pk}/").content.decode()
    assert "Printings" in page and "TST — Test Set · 12 · rare" in page
    assert 'href="https://example.com/d.jpg"' in page


def test_the_detail_page_shows_attributes_readably_and_escaped(client, games):
    card = es_card("1", "<script>alert(1)</script>")
    card["card_type"] = "hero"
    card["attributes"] |= {"restrictions": [{"kind": "forbid", "filter": {"size": "L"}}]}
    assert cards_import(game=games["everseal"], data=deckhall_json([card]), filename="x.json").ok
    page = client.get(f"/cards/{Card.objects.get().pk}/").content.decode()
    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<th>Keywords</th><td>Стая</td>" in page  # a list attribute, not "['Стая']"
    assert 'data-testid="hero-restrictions"' in page and "Size L" in page
    assert "&quot;kind&quot;" not in page


def test_the_detail_page_is_translated(client, yugioh):
    card = Card.objects.get(game=yugioh, external_id="46986414")
    page = client.get(f"/cards/{card.pk}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "<th>АТК</th><td>2500</td>" in page and "<th>Атрибут</th><td>ТЬМА</td>" in page
    assert "Монстр — Обычный" in page
    assert client.get("/cards/999999/").status_code == 404


def test_the_detail_page_shows_the_cards_status_on_the_lists_in_effect(client, yugioh):
    from rules.demo import SAMPLES as RULE_SAMPLES
    from rules.services import banlist_import

    text = (RULE_SAMPLES / "sample_tcg.lflist.conf").read_text(encoding="utf-8")
    banlist_import(game=yugioh, text=text, source="sample_tcg.lflist.conf")
    pot = Card.objects.get(game=yugioh, external_id="55144522")
    page = client.get(f"/cards/{pot.pk}/").content.decode()
    assert 'data-testid="ban-statuses"' in page and "2024.01 Sample TCG" in page
    assert '<td class="ban-status forbidden">Forbidden</td>' in page
    magician = Card.objects.get(game=yugioh, external_id="46986415")
    assert '<td class="ban-status ">Unlimited</td>' in client.get(f"/cards/{magician.pk}/").content.decode()
    russian = client.get(f"/cards/{pot.pk}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Запрещена" in russian and "Действующие бан-листы" in russian
