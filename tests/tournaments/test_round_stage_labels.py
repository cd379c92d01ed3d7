"""Top-cut rounds are named the way players say them (semifinals, final), in both languages."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command

from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished_event(settings: Any) -> Tournament:
    settings.DEBUG = True  # load_demo is a development command
    call_command("load_demo", stdout=StringIO())
    return Tournament.objects.get(name__startswith="Demo:")


def test_it_names_the_top_cut_rounds_by_stage(client: Any, finished_event: Tournament) -> None:
    html = client.get(f"/tournaments/{finished_event.pk}/").content.decode()
    assert "Round 1" in html and "Round 3" in html
    assert "Semifinals" in html and "Final<" in html


def test_it_names_the_stages_in_russian(client: Any, finished_event: Tournament) -> None:
    client.cookies["django_language"] = "ru"
    html = client.get(f"/tournaments/{finished_event.pk}/").content.decode()
    assert "Тур 1" in html and "Полуфиналы" in html and "Финал<" in html
