"""The printable registration sheet: a real PDF whose text holds the cards (Cyrillic too) and totals."""

from __future__ import annotations

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.fixture
def weasyprint():  # type: ignore[no-untyped-def]
    try:
        import weasyprint
    except (ImportError, OSError) as error:  # OSError: Pango/Cairo system libraries missing
        pytest.skip(f"WeasyPrint cannot run here: {error}")
    return weasyprint


def test_it_prints_cyrillic_names_and_totals(weasyprint, sample_cards, user, card, client, pdf_text) -> None:
    from decks.services import deck_create

    deck = deck_create(
        owner=user,
        game=sample_cards["everseal"],
        name="Зимняя стая",
        format_slug="standard",
        hero=card("everseal", "Странник"),
        sections={"main": [(card("everseal", "Снежный Волчонок"), 3), (card("everseal", "Кракен"), 2)]},
    )
    client.force_login(user)
    response = client.get(reverse("decks:export", args=[deck.pk, "pdf"]) + "?player=Алиса&event=Cup")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")
    text = pdf_text(response.content)
    for needle in ("Алиса", "Cup", "Зимняя стая", "Странник", "Снежный Волчонок", "Кракен", "monster"):
        assert needle in text
    assert "Итого" in text and " 5" in text  # 3 + 2 monsters, per section and per type


def test_it_never_fetches_from_the_network(weasyprint) -> None:
    from decks.exporting import safe_url_fetcher

    fetcher = safe_url_fetcher()
    for url in ("http://example.com/x.png", "https://example.com/font.woff", "file:///etc/passwd"):
        with pytest.raises(ValueError, match="refusing"):
            fetcher.fetch(url)
    assert fetcher.fetch("data:text/plain,ok").read() == b"ok"
