"""Printables: pairings by table and by name, match slips, standings and deck lists as HTML and PDF."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tournaments import services

from .factories import finish_round, make_deck, make_event, ygo_cards, ygo_payload

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(games, organizer):  # type: ignore[no-untyped-def]
    event = make_event(organizer, games["caster"], name="Кубок Города", rounds=3)
    for name in ("Zoe", "Анна", "Boris", "Mia", "Lev"):
        services.player_register(tournament=event, by=organizer, name=name)
    services.round_pair_next(tournament=event, by=organizer)
    return event


def test_pairings_by_table_and_by_name(client, event):
    url = reverse("tournaments:print", args=[event.pk, "pairings"])
    by_table = client.get(url, {"round": 1}).content.decode()
    assert "Table" in by_table and "Кубок Города" in by_table
    by_name = client.get(url, {"round": 1, "order": "name"}).content.decode()
    first_column = re.findall(r"<tr><td>([^<]+)</td><td>\d+</td>", by_name)
    assert first_column == ["Boris", "Lev", "Mia", "Zoe", "Анна"]
    assert "bye" in by_name


def test_pairings_pdf_has_the_names_in_cyrillic_too(client, event, pdf_text):
    response = client.get(
        reverse("tournaments:print", args=[event.pk, "pairings"]), {"round": 1, "format": "pdf"}
    )
    assert response["Content-Type"] == "application/pdf"
    text = pdf_text(response.content)
    assert "Кубок Города" in text and "Анна" in text and "Zoe" in text


def test_match_slips_leave_space_for_games_and_signatures(client, event, pdf_text):
    html = client.get(reverse("tournaments:print", args=[event.pk, "slips"]), {"round": 1}).content.decode()
    assert html.count('class="slip"') == 2  # five players: two matches and a bye, which needs no slip
    assert "Signature" in html
    text = pdf_text(
        client.get(
            reverse("tournaments:print", args=[event.pk, "slips"]), {"round": 1, "format": "pdf"}
        ).content
    )
    assert "Signature" in text and "Went first" in text


def test_standings_pdf(client, event, organizer, pdf_text):
    finish_round(event, organizer)
    text = pdf_text(
        client.get(reverse("tournaments:print", args=[event.pk, "standings"]), {"format": "pdf"}).content
    )
    assert "OMW%" in text and "Анна" in text


def test_decklists_pdf_for_the_organizer_only(client, games, organizer, user, pdf_text):
    game = games["yugioh"]
    cards = ygo_cards(game)
    event = make_event(organizer, game, deck_registration=True, rounds=1)
    services.player_register(tournament=event, by=user, deck=make_deck(user, game, ygo_payload(cards)))
    url = reverse("tournaments:print", args=[event.pk, "decklists"])
    client.force_login(organizer)
    text = pdf_text(client.get(url, {"format": "pdf"}).content)
    assert "alice" in text and "Test Monster 3" in text
    client.logout()
    assert b"Test Monster" not in client.get(url).content


def test_the_pdf_renderer_never_fetches_remote_urls(rf, event, monkeypatch):
    import urllib.request

    from tournaments.printables import documents as printables

    def refuse(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise AssertionError("network access attempted")

    monkeypatch.setattr(urllib.request, "urlopen", refuse)
    context = printables.context_for(event, "standings", number=None, order="table", user=None)
    context["tournament"].name = '<img src="http://example.com/x.png">'
    pdf = printables.render_pdf(rf.get("/"), context)
    assert pdf.startswith(b"%PDF")
