"""HTML pages: list, builder, detail with SVG statistics, import with unknown cards, permissions."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.urls import reverse

from decks.models import Deck

pytestmark = pytest.mark.django_db


def test_it_renders_the_deck_pages_for_the_owner(ygo_deck, user, client) -> None:
    client.force_login(user)
    assert "Magicians" in client.get(reverse("decks:list")).content.decode()
    builder = client.get(reverse("decks:builder", args=[ygo_deck.pk]))
    assert builder.status_code == 200 and b"builder-config" in builder.content
    detail = client.get(reverse("decks:detail", args=[ygo_deck.pk])).content.decode()
    assert detail.count("<svg") >= 6  # curve + types for main, extra and side
    assert "Dark Magician" in detail
    odds = client.get(
        reverse("decks:odds", args=[ygo_deck.pk]),
        {"section": "main", "card": ygo_deck.entries.first().card_id},
    )
    assert "%" in odds.content.decode()


def test_it_hides_private_decks_and_forbids_editing_others(ygo_deck, other_user, client) -> None:
    for name in ("decks:detail", "decks:builder"):
        client.logout()
        response = client.get(reverse(name, args=[ygo_deck.pk]))
        assert response.status_code in (302, 404)
        client.force_login(other_user)
        assert client.get(reverse(name, args=[ygo_deck.pk])).status_code == 404
    Deck.objects.filter(pk=ygo_deck.pk).update(visibility="unlisted")
    assert client.get(reverse("decks:detail", args=[ygo_deck.pk])).status_code == 200
    assert client.get(reverse("decks:builder", args=[ygo_deck.pk])).status_code == 403
    assert client.post(reverse("decks:delete", args=[ygo_deck.pk])).status_code == 403
    assert client.post(reverse("decks:restore", args=[ygo_deck.pk, 1])).status_code == 403
    assert "Magicians" not in client.get(reverse("decks:list")).content.decode()  # unlisted: not in lists


def test_it_escapes_card_and_deck_names(sample_cards, user, client, card) -> None:
    from decks.services import deck_create

    deck = deck_create(
        owner=user, game=sample_cards["yugioh"], name="<script>alert(1)</script>",
        sections={"main": [(card("yugioh", "Raigeki"), 1)]},
    )  # fmt: skip
    client.force_login(user)
    for name in ("decks:detail", "decks:builder"):
        body = client.get(reverse(name, args=[deck.pk])).content.decode()
        assert "<script>alert(1)</script>" not in body


def test_it_shows_unknown_cards_and_imports_without_them_on_request(sample_cards, user, client) -> None:
    client.force_login(user)
    form = {"game": "yugioh", "data": "Main\n3 Dark Magician\n1 Nonexistent Dragon\n", "name": "Pasted"}
    refused = client.post(reverse("decks:import"), form)
    assert refused.status_code == 200
    assert "Nonexistent Dragon" in refused.content.decode()
    assert not Deck.objects.exists()
    accepted = client.post(reverse("decks:import"), {**form, "allow_unknown": "on"})
    assert accepted.status_code == 302
    assert Deck.objects.get().name == "Pasted"


def test_it_imports_and_exports_from_the_command_line(sample_cards, user, tmp_path) -> None:
    path = tmp_path / "deck.ydk"
    path.write_text("#main\n46986414\n46986414\n#extra\n44508094\n!side\n")
    out = io.StringIO()
    call_command("import_deck", str(path), "--game", "yugioh", "--owner", "alice", stdout=out)
    deck = Deck.objects.get()
    assert f"imported deck {deck.pk}" in out.getvalue()
    out = io.StringIO()
    call_command("export_deck", str(deck.pk), "--format", "ydk", stdout=out)
    assert "46986414\n46986414\n#extra\n44508094\n!side" in out.getvalue()


def test_it_loads_demo_decks_idempotently(sample_cards) -> None:
    from decks import demo

    demo.load(io.StringIO())
    count = Deck.objects.count()
    assert count >= 4
    demo.load(io.StringIO())
    assert Deck.objects.count() == count
    assert set(Deck.objects.values_list("visibility", flat=True)) == {"public"}


def test_it_speaks_russian(ygo_deck, user, client) -> None:
    client.force_login(user)
    client.cookies["django_language"] = "ru"
    body = client.get(reverse("decks:detail", args=[ygo_deck.pk]), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Версии" in body and "Новая рука" in body
    catalog = client.get("/jsi18n/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert (
        "\\u0421\\u043e\\u0445\\u0440\\u0430\\u043d\\u0435\\u043d\\u0438\\u0435" in catalog
        or "Сохранение" in catalog
    )


def test_it_charts_a_game_without_costs_or_levels_by_its_first_attribute_filter(
    sample_cards, user, client, card
) -> None:
    """Everseal cards have neither cost nor level: the first chart is a breakdown by the rule set's first
    attribute "choice" filter (size), not a single "—" bar."""
    from cards.models import Card
    from decks.services import deck_create

    game = sample_cards["everseal"]
    monsters = list(Card.objects.filter(game=game).exclude(card_type="hero").order_by("external_id")[:3])
    assert all(c.cost is None and c.level is None for c in monsters)
    sizes = [c.attributes["size"] for c in monsters]
    deck = deck_create(
        owner=user, game=game, name="Sizes", format_slug="standard",
        sections={"main": [(c, 2) for c in monsters]},
    )  # fmt: skip
    client.force_login(user)
    body = client.get(reverse("decks:detail", args=[deck.pk])).content.decode()
    assert 'aria-label="Deck: Size"' in body
    for size in set(sizes):
        assert f"<title>{size}: {2 * sizes.count(size)}</title>" in body
    assert "<title>—: 6</title>" not in body
    client.cookies["django_language"] = "ru"
    body_ru = client.get(reverse("decks:detail", args=[deck.pk]), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert 'aria-label="Колода: Размер"' in body_ru


def test_it_still_charts_costs_and_levels(ygo_deck, user, client) -> None:
    client.force_login(user)
    body = client.get(reverse("decks:detail", args=[ygo_deck.pk])).content.decode()
    assert 'aria-label="Main deck: Level"' in body


def test_it_words_hero_restrictions_for_the_picker_in_both_languages(sample_cards, user, client) -> None:
    import json
    import re

    from cards.models import Card
    from decks.services import deck_create

    game = sample_cards["everseal"]
    hero = Card.objects.get(game=game, card_type="hero", name="Ледяная Хранительница")
    assert hero.attributes["restrictions"] == [{"kind": "forbid", "filter": {"size": "L"}}]
    deck = deck_create(owner=user, game=game, name="Heroes", format_slug="standard", hero=hero)
    client.force_login(user)

    def config(lang: str) -> dict:
        client.cookies["django_language"] = lang
        body = client.get(reverse("decks:builder", args=[deck.pk])).content.decode()
        raw = re.search(r'<script id="builder-config" type="application/json">(.*?)</script>', body, re.S)
        assert raw is not None
        return json.loads(raw.group(1))

    # The field is named as the rule set labels it (everseal.toml search_filters), not by its data key.
    assert config("en")["hero_restrictions"][str(hero.pk)] == ["No cards with Size L"]
    assert config("ru")["hero_restrictions"][str(hero.pk)] == ["Запрещены карты: Размер L"]


def test_it_describes_every_restriction_kind() -> None:
    from decks.gamerules import describe_restriction

    sections = {"main": "Deck"}
    cases = [
        ({"kind": "only", "filter": {"region": ["A", "B"]}}, "Only cards with Region A / B"),
        (
            {"kind": "at_least", "count": 5, "filter": {"keywords": "Pack"}},
            "At least 5 cards with Keyword Pack",
        ),
        ({"kind": "at_most", "count": 6, "filter": {"region": "X"}}, "At most 6 cards with Region X"),
        # A field the rule set gives no label keeps its key.
        ({"kind": "forbid", "filter": {"mana": {"min": 3}}}, "No cards with mana ≥ 3"),
        ({"kind": "copy_limit", "max": 2}, "At most 2 copies of a card"),
        ({"kind": "section_size", "section": "main", "min": 30, "max": 35}, "Deck: 30–35 cards"),
        ({"kind": "mystery", "x": 1}, "kind: mystery, x: 1"),
        ({"text": "Printed text", "text_ru": "Текст"}, "Printed text"),
    ]
    for item, expected in cases:
        assert describe_restriction(item, "en", sections) == expected
    assert describe_restriction({"text": "Printed text", "text_ru": "Текст"}, "ru") == "Текст"


def test_it_names_restriction_fields_by_the_game_labels_in_both_languages() -> None:
    from decks.gamerules import describe_restriction, filter_labels

    forbid = {"kind": "forbid", "filter": {"size": "L", "atk": {"max": 4}, "mana": 2}}
    en, ru = filter_labels("everseal", "en"), filter_labels("everseal", "ru")
    assert en["size"] == "Size" and ru["size"] == "Размер"
    assert describe_restriction(forbid, "en", labels=en) == "No cards with Size L, Attack ≤ 4, mana 2"
    assert describe_restriction(forbid, "ru", labels=ru) == "Запрещены карты: Размер L, Атака ≤ 4, mana 2"
    # Explicit labels win (here: none at all, so the raw keys).
    assert describe_restriction(forbid, "en", labels={}) == "No cards with size L, atk ≤ 4, mana 2"
    assert filter_labels("no-such-game") == {}


def test_it_explains_unknown_import_lines_in_russian(sample_cards, user, client) -> None:
    client.force_login(user)
    client.cookies["django_language"] = "ru"
    form = {"game": "caster", "data": "Main\n2 Nonexistent Dragon\nCreatures\n1 Carella Lv1\n", "name": "x"}
    page = client.post(reverse("decks:import"), form).content.decode()
    assert "Nonexistent Dragon" in page and "нет в базе карт этой игры" in page
    assert "в этом формате нет такого раздела" in page  # Caster has no creature deck
    assert not Deck.objects.exists()


def test_it_offers_the_games_formats_and_takes_a_slug_in_any_case(sample_cards, user, client) -> None:
    client.force_login(user)
    page = client.get(reverse("decks:new") + "?game=yugioh").content.decode()
    assert '<select name="format_slug"' in page and 'value="yugioh/advanced"' in page
    assert 'value="everseal/' in page  # hidden by forms.js for another game, checked by the form
    created = client.post(
        reverse("decks:new"),
        {"game": "yugioh", "name": "A", "format_slug": "Advanced", "visibility": "private"},
    )
    assert created.status_code == 302
    assert Deck.objects.get(name="A").format_slug == "advanced"
    wrong = client.post(
        reverse("decks:new"),
        {"game": "yugioh", "name": "B", "format_slug": "everseal/standard", "visibility": "private"},
    )
    assert wrong.status_code == 200 and "its formats: advanced" in wrong.content.decode()
    assert not Deck.objects.filter(name="B").exists()


def test_it_creates_decks_over_the_api_with_a_format_slug_in_any_case(sample_cards, user, api_client) -> None:
    api_client.force_authenticate(user)
    response = api_client.post(
        "/api/decks/", {"game": "yugioh", "name": "Caps", "format_slug": "ADVANCED"}, format="json"
    )
    assert response.status_code == 201, response.content
    assert response.json()["format_slug"] == "advanced"
