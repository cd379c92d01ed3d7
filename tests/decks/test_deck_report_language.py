"""The deck page's rules report speaks the reader's language: Russian, or any language added as catalogues."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.foundation.test_pseudo_locale import CLOSE, OPEN, pseudo, pseudo_locale_paths  # noqa: F401

pytestmark = pytest.mark.django_db


def test_the_deck_page_report_is_russian_for_a_russian_reader(ygo_deck, user, client) -> None:
    client.force_login(user)
    client.cookies["django_language"] = "ru"
    page = client.get(reverse("decks:detail", args=[ygo_deck.pk])).content.decode()
    assert "В разделе «Основная колода» карт: 4; нужно: от 40 до 60." in page
    assert "Main deck has 4 cards" not in page and "it must have" not in page


def test_the_deck_page_report_follows_a_new_language(ygo_deck, user, client, pseudo) -> None:  # noqa: F811
    client.force_login(user)
    client.cookies["django_language"] = pseudo
    page = client.get(reverse("decks:detail", args=[ygo_deck.pk])).content.decode()
    assert f"{OPEN}Main deck has 4 cards; it must have {OPEN}40 to 60{CLOSE}.{CLOSE}" in page
