"""The browsable ban list pages."""

from __future__ import annotations

import pytest
from django.urls import reverse

from rules.services import banlist_import

from .conftest import SAMPLE_LIST

pytestmark = pytest.mark.django_db


def test_the_ban_list_index_groups_lists_by_game(ygo, client):
    banlist_import(game=ygo["game"], text=SAMPLE_LIST)
    page = client.get(reverse("rules:banlists")).content.decode()
    assert "Yu-Gi-Oh! TCG" in page and "2024.01 Test TCG" in page


def test_the_detail_groups_entries_and_searches(ygo, client):
    [item] = banlist_import(game=ygo["game"], text=SAMPLE_LIST)
    url = reverse("rules:banlist_detail", args=[item.banlist.pk])
    page = client.get(url).content.decode()
    assert (
        page.index("Forbidden") < page.index("Pot of Greed") < page.index("Limited") < page.index("Raigeki")
    )
    found = client.get(url, {"q": "raig"}, HTTP_HX_REQUEST="true").content.decode()
    assert "Raigeki" in found and "Pot of Greed" not in found and "<html" not in found


def test_the_pages_are_translated_and_escape_names(ygo, client):
    [item] = banlist_import(game=ygo["game"], text="!2024.03 <b>TCG</b>\n55144522 0 --<script>x</script>\n")
    page = client.get(reverse("rules:banlist_detail", args=[item.banlist.pk]), HTTP_ACCEPT_LANGUAGE="ru")
    html = page.content.decode()
    assert "<b>TCG</b>" not in html and "&lt;b&gt;TCG&lt;/b&gt;" in html
    assert "Запрещена" in html or "Запрещено" in html
