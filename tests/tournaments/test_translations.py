"""Tournament pages speak Russian when asked; card and player names stay data."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from tournaments import services

from .factories import make_event

pytestmark = pytest.mark.django_db


def test_event_pages_and_errors_are_translated(client, games, organizer):
    event = make_event(organizer, games["caster"], players=4, rounds=2)
    services.round_pair_next(tournament=event, by=organizer)
    client.cookies["django_language"] = "ru"
    page = client.get(
        reverse("tournaments:detail", args=[event.pk]), HTTP_ACCEPT_LANGUAGE="ru"
    ).content.decode()
    assert "Турнирная таблица" in page and "Игроки" in page and "Player 01" in page
    round_page = client.get(reverse("tournaments:round", args=[event.pk, 1]), HTTP_ACCEPT_LANGUAGE="ru")
    assert "Стол" in round_page.content.decode()
    with translation.override("ru"):
        from django.core.exceptions import ValidationError

        with pytest.raises(ValidationError) as info:
            services.round_pair_next(tournament=event, by=organizer)
        assert "подтверждённого" in str(info.value)
