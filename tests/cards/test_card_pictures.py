"""Where a card's picture comes from (cards/images.py) and who may load it: a printing's own picture
(Cockatrice picURL) wins over the game's URL template; only allowed hosts (CARD_IMAGE_HOSTS, also added to
the CSP img-src) or the site itself; nothing when no host is allowed. The server never fetches one."""

from __future__ import annotations

from typing import Any

import pytest

from cards.images import allowed_image_url, card_image, card_images
from cards.labels import card_preview
from cards.models import Card
from cards.services import cards_import
from config.csp import with_image_hosts

pytestmark = pytest.mark.django_db

SCRYFALL = "https://img.scryfall.com"
YGO = "https://images.ygoprodeck.com"


def _ygo(game: Any, code: str, name: str) -> Card:
    return Card.objects.create(game=game, external_id=code, identity=code, name=name, search_name=name.casefold(),
                               card_type="monster")  # fmt: skip


def test_the_games_template_names_the_picture_by_passcode(games, settings):
    settings.CARD_IMAGE_HOSTS = [YGO]
    card = _ygo(games["yugioh"], "46986414", "Dark Magician")
    assert card_image(card) == f"{YGO}/images/cards/46986414.jpg"
    assert card_preview(card)["image"] == f"{YGO}/images/cards/46986414.jpg"


def test_nothing_is_shown_from_a_host_the_site_does_not_allow(games, settings):
    settings.CARD_IMAGE_HOSTS = []
    card = _ygo(games["yugioh"], "46986414", "Dark Magician")
    assert card_image(card) == "" and card_preview(card)["image"] == ""
    settings.CARD_IMAGE_HOSTS = ["https://elsewhere.example"]
    assert card_images([card]) == {card.pk: ""}


def test_a_cockatrice_picurl_wins_over_the_template_and_pages_cost_one_query(games, settings, shared_data,
                                                                               django_assert_num_queries):  # fmt: skip
    settings.CARD_IMAGE_HOSTS = [SCRYFALL]
    game = games["mtg"]
    data = (shared_data / "mtg" / "cockatrice" / "ELD.xml").read_bytes()
    assert cards_import(game=game, data=data, filename="ELD.xml").ok
    cards = list(Card.objects.filter(game=game).select_related("game").order_by("name")[:30])
    with django_assert_num_queries(1):
        found = card_images(cards)
    assert all(url.startswith(SCRYFALL + "/cards/") for url in found.values())
    rider = Card.objects.get(game=game, name="Murderous Rider // Swift End")
    assert card_image(rider).endswith(".jpg")


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("/media/cards/1.png", True),
        ("//evil.example/x.png", False),
        ("javascript:alert(1)", False),
        ("https://images.ygoprodeck.com/images/cards/1.jpg", True),
        ("https://images.ygoprodeck.com.evil.example/1.jpg", False),
        ("http://images.ygoprodeck.com/images/cards/1.jpg", False),  # another scheme is another origin
    ],
)
def test_only_the_site_and_allowed_origins_are_shown(settings, url, shown):
    settings.CARD_IMAGE_HOSTS = [YGO]
    assert (allowed_image_url(url) == url) is shown


def test_the_csp_lets_pictures_load_from_the_allowed_hosts_only(client, settings, games):
    settings.CARD_IMAGE_HOSTS = [YGO, SCRYFALL]
    policy = client.get("/cards/").headers["Content-Security-Policy"]
    img = next(part.strip() for part in policy.split(";") if part.strip().startswith("img-src"))
    assert img == f"img-src 'self' data: blob: {YGO} {SCRYFALL}"
    assert "script-src 'self'" in policy
    settings.CARD_IMAGE_HOSTS = []
    assert "img-src 'self' data: blob:;" in client.get("/cards/").headers["Content-Security-Policy"]
    # A host that would break out of the directive is never written into the policy.
    assert with_image_hosts("img-src 'self'", ["https://a.example; script-src *"]) == "img-src 'self'"


def test_the_search_api_gives_each_preview_its_picture(client, games, settings):
    settings.CARD_IMAGE_HOSTS = [YGO]
    _ygo(games["yugioh"], "46986414", "Dark Magician")
    body = client.get("/api/cards/grouped/?game=yugioh&q=dark").json()
    [row] = body["results"]
    assert row["preview"]["image"] == f"{YGO}/images/cards/46986414.jpg"


def test_the_card_page_shows_the_picture_lazily(client, games, settings):
    settings.CARD_IMAGE_HOSTS = [YGO]
    card = _ygo(games["yugioh"], "46986414", "Dark Magician")
    page = client.get(f"/cards/{card.pk}/").content.decode()
    assert f'src="{YGO}/images/cards/46986414.jpg"' in page and 'loading="lazy"' in page
    settings.CARD_IMAGE_HOSTS = []
    assert "card-image" not in client.get(f"/cards/{card.pk}/").content.decode()
