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
    hand = client.get(reverse("decks:sample_hand", args=[ygo_deck.pk]) + "?seed=7").content.decode()
    assert hand.count('class="hand-card"') == 4  # the whole 4-card main deck (hand size 5)
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
    assert "Версии" in body and "Вытянуть пробную руку" in body
    catalog = client.get("/jsi18n/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert (
        "\\u0421\\u043e\\u0445\\u0440\\u0430\\u043d\\u0435\\u043d\\u0438\\u0435" in catalog
        or "Сохранение" in catalog
    )
