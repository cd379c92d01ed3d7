"""Hostile player names are shown as text everywhere (pages, printables, PDF); forms need the CSRF token."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tournaments import services

from .factories import make_event

pytestmark = pytest.mark.django_db

HOSTILE = "<script>alert(1)</script>"
ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;"


@pytest.fixture
def event(games, organizer):  # type: ignore[no-untyped-def]
    event = make_event(organizer, games["caster"], name=f"Cup {HOSTILE}", rounds=2)
    for name in (HOSTILE, "Bob", "Cat", "Dan"):
        services.player_register(tournament=event, by=organizer, name=name)
    services.round_pair_next(tournament=event, by=organizer)
    return event


@pytest.mark.parametrize(
    ("name", "query"),
    [
        ("pairings", {"round": 1}),
        ("pairings", {"round": 1, "order": "name"}),
        ("slips", {"round": 1}),
        ("standings", {}),
    ],
)
def test_printables_escape_a_hostile_guest_name(client, event, name, query):
    html = client.get(reverse("tournaments:print", args=[event.pk, name]), query).content.decode()
    assert HOSTILE not in html
    assert ESCAPED in html


@pytest.mark.parametrize("page", ["detail", "standings", "round"])
def test_pages_escape_a_hostile_guest_name(client, organizer, event, page):
    client.force_login(organizer)
    args = [event.pk, 1] if page == "round" else [event.pk]
    html = client.get(reverse(f"tournaments:{page}", args=args)).content.decode()
    assert HOSTILE not in html and ESCAPED in html


def test_the_match_page_escapes_a_hostile_name(client, organizer, event):
    match = event.round_set.get(number=1).matches.filter(seats__player__name=HOSTILE).get()
    client.force_login(organizer)
    html = client.get(reverse("tournaments:match", args=[match.pk])).content.decode()
    assert HOSTILE not in html and ESCAPED in html


@pytest.mark.parametrize("name", ["pairings", "slips", "standings"])
def test_pdfs_print_the_hostile_name_as_text(client, event, name, pdf_text):
    response = client.get(reverse("tournaments:print", args=[event.pk, name]), {"round": 1, "format": "pdf"})
    assert response["Content-Type"] == "application/pdf"
    text = pdf_text(response.content, layout=False)
    # Printed literally: the markup was text, not an element that would vanish from the page.
    assert "<script>alert(1)</script>" in text.replace("\n", "")


def test_the_api_returns_the_name_verbatim_as_json(api_client, event):
    body = api_client.get(f"/api/tournaments/{event.pk}/standings/").json()
    assert HOSTILE in {row["name"] for row in body["standings"]}


def test_posts_without_the_csrf_token_are_refused(event, organizer, user):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(organizer)
    match = event.round_set.get(number=1).matches.filter(bye=False).first()
    response = browser.post(reverse("tournaments:report", args=[match.pk]), {"wins_a": "2", "wins_b": "0"})
    assert response.status_code == 403
    response = browser.post(
        f"/api/matches/{match.pk}/result/", {"wins": [2, 0]}, content_type="application/json"
    )
    assert response.status_code == 403
    match.refresh_from_db()
    assert match.status == "pending"
    # With the token (as the page's form sends it) the same report goes through.
    page = browser.get(reverse("tournaments:match", args=[match.pk]))
    token = page.cookies["csrftoken"].value
    response = browser.post(
        reverse("tournaments:report", args=[match.pk]),
        {"wins_a": "2", "wins_b": "0", "draws": "0", "csrfmiddlewaretoken": token},
    )
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == "final"
