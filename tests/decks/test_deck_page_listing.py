"""The deck page lists the whole deck: every section in the game's order, cards grouped by the game's
types with counts and a preview each, a copyable ydke:// link, in a constant number of queries."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

pytestmark = pytest.mark.django_db


def _sections_in_page(page: str) -> list[str]:
    return re.findall(r'data-section="(\w+)" data-testid="section-', page)


def test_it_lists_every_section_in_order_grouped_by_type(ygo_deck, client) -> None:
    client.force_login(ygo_deck.owner)
    page = client.get(reverse("decks:detail", args=[ygo_deck.pk])).content.decode()
    assert _sections_in_page(page) == ["main", "extra", "side"]
    main = page[page.index('data-testid="section-main"') : page.index('data-testid="section-extra"')]
    assert re.search(r'data-type="monster">Monster <span class="badge">3</span>', main)
    assert re.search(r'data-type="spell">Spell <span class="badge">1</span>', main)
    extra = page[page.index('data-testid="section-extra"') : page.index('data-testid="section-side"')]
    assert "Stardust Dragon" in extra
    side = page[page.index('data-testid="section-side"') :]
    assert "Mirror Force" in side[: side.index("</section>")]
    # Each card carries its preview: text and stats in the game's words.
    assert 'class="card-preview"' in main and "ATK" in main and "<dt>Level</dt>" in main


def test_it_words_types_and_stats_in_russian(ygo_deck, client) -> None:
    client.cookies["django_language"] = "ru"
    client.force_login(ygo_deck.owner)
    page = client.get(reverse("decks:detail", args=[ygo_deck.pk])).content.decode()
    assert 'data-type="monster">Монстр' in page and 'data-type="trap">Ловушка' in page
    assert "<dt>АТК</dt>" in page and "ТЬМА" in page


def test_it_shows_a_copyable_ydke_link_that_imports_back(ygo_deck, client) -> None:
    from decks.formats import parse_deck

    client.force_login(ygo_deck.owner)
    page = client.get(reverse("decks:detail", args=[ygo_deck.pk])).content.decode()
    link = re.search(r'value="(ydke://[^"]+)" data-testid="ydke-value"', page).group(1)
    parsed = parse_deck(link)
    assert parsed.counts() == {
        "main": [("46986414", 3), ("55144522", 1)],
        "extra": [(parsed.sections["extra"][0].ref, 2)],
        "side": [("44095762", 2)],
    }
    assert 'data-testid="ydke-copy"' in page


def test_it_reads_the_deck_page_in_a_constant_number_of_queries(ygo_deck, sample_cards, client, card) -> None:
    from decks.services import deck_update

    client.force_login(ygo_deck.owner)
    with CaptureQueriesContext(connection) as small:
        client.get(reverse("decks:detail", args=[ygo_deck.pk]))
    # Both decks hold an alternate artwork, so both pages look up printings.
    more = [(card("yugioh", "46986415"), 2)] + [
        (c, 1)
        for c in sample_cards["yugioh"].cards.filter(card_type__in=["spell", "trap"], deck_buildable=True)
    ]
    deck_update(
        deck=ygo_deck,
        by=ygo_deck.owner,
        sections={"main": more, "side": [(card("yugioh", "Pot of Greed"), 1)]},
    )
    with CaptureQueriesContext(connection) as large:
        client.get(reverse("decks:detail", args=[ygo_deck.pk]))
    assert len(more) > 10
    assert len(large) == len(small)
