"""The printable's `order` parameter never reaches a response header as given (no header injection)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournaments import services

from .factories import make_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(games, organizer):  # type: ignore[no-untyped-def]
    event = make_event(organizer, games["caster"], name="Header Cup", rounds=3)
    for name in ("Zoe", "Boris", "Mia"):
        services.player_register(tournament=event, by=organizer, name=name)
    services.round_pair_next(tournament=event, by=organizer)
    return event


@pytest.mark.parametrize(
    "order",
    ["x\r\nX-Injected: yes", 'a";filename="evil.html', "name\nSet-Cookie: a=b", "../../etc/passwd"],
)
def test_it_never_puts_the_order_parameter_into_content_disposition(client, event, order):
    url = reverse("tournaments:print", args=[event.pk, "pairings"])
    response = client.get(url, {"round": 1, "order": order, "format": "pdf"})
    assert response.status_code == 200
    disposition = response["Content-Disposition"]
    assert disposition == f'inline; filename="pairings-{event.pk}-r1-table.pdf"'
    assert "X-Injected" not in response and "evil" not in disposition


def test_it_keeps_the_by_name_order_in_the_file_name(client, event):
    url = reverse("tournaments:print", args=[event.pk, "pairings"])
    response = client.get(url, {"round": 1, "order": "name", "format": "pdf"})
    assert response["Content-Disposition"] == f'inline; filename="pairings-{event.pk}-r1-name.pdf"'
