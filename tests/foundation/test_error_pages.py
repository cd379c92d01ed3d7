"""403 and 404 pages are the site's own pages (styled, in the reader's language) and say what to do."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_it_tells_a_player_refused_the_import_page_why_and_whom_to_ask(games, user):
    client = Client()
    client.force_login(user)
    response = client.get("/cards/import/")
    page = response.content.decode()
    assert response.status_code == 403
    assert 'data-testid="error-403"' in page and "site.css" in page  # the site's layout, not a bare page
    assert "Only a game&#x27;s card editors and staff may import its card database." in page
    assert "Games → card editors" in page
    assert "logged in as alice" in page


def test_it_answers_a_refusal_in_russian(games, user):
    client = Client()
    client.force_login(user)
    page = client.get("/cards/import/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Эта страница вам недоступна" in page
    assert "Что можно сделать" in page


def test_it_shows_a_missing_card_with_the_reason_and_ways_on(games):
    response = Client().get("/cards/999999/")
    page = response.content.decode()
    assert response.status_code == 404
    assert 'data-testid="error-404"' in page and "site.css" in page
    assert "No such card." in page
    assert 'href="/cards/"' in page


def test_it_shows_an_unknown_address_in_russian_without_internal_names(games):
    response = Client().get("/no-such-page/", HTTP_ACCEPT_LANGUAGE="ru")
    page = response.content.decode()
    assert response.status_code == 404
    assert "Здесь ничего нет" in page and "/no-such-page/" in page
    assert "Resolver404" not in page


def test_it_keeps_json_404s_under_the_api(games):
    response = Client().get("/api/no-such-thing/")
    assert response.status_code == 404 and response.json() == {"detail": "not found"}
