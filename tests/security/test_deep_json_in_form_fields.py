"""Deep JSON inside form fields never reaches a decoder: ``deck`` and ``pool`` sent as form or multipart
fields once went through DRF's own json.loads (RecursionError, 500); these operations now read only the
JSON their schema documents, so such a body is refused as a media type (415) before anything is parsed."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tournaments.models import Player

from ..tournaments.factories import make_event

pytestmark = pytest.mark.django_db

VERY_DEEP = "[" * 50_000 + "]" * 50_000
DEEP = "[" * 100 + "]" * 100


@pytest.mark.parametrize("body", [VERY_DEEP, DEEP], ids=["past-the-decoder", "past-our-limit"])
@pytest.mark.parametrize("encoding", ["multipart", "form"])
def test_deck_and_pool_form_fields_nested_deep_are_refused_as_an_undocumented_media_type(
    body: str, encoding: str, games: Any, organizer: Any, user: Any, api_client_for: Any
) -> None:
    event = make_event(organizer, games["yugioh"], deck_registration=True)
    client = api_client_for(user)
    client.raise_request_exception = False
    kwargs: dict[str, Any] = {"format": "multipart"} if encoding == "multipart" else {}
    if encoding == "form":
        from urllib.parse import urlencode

        kwargs = {"content_type": "application/x-www-form-urlencoded"}
    for url, data in (
        ("/api/tournaments/join/", {"code": event.join_code, "deck": body}),
        (f"/api/tournaments/{event.pk}/players/", {"code": event.join_code, "deck": body}),
        (f"/api/tournaments/{event.pk}/players/", {"code": event.join_code, "pool": body}),
    ):
        payload: Any = urlencode(data) if encoding == "form" else data
        response = client.post(url, payload, **kwargs)
        assert response.status_code == 415, (url, response.status_code)
        assert "media type" in str(response.json())
    assert not Player.objects.filter(tournament=event).exists()


def test_a_deep_json_list_pasted_into_the_join_screen_is_refused_with_a_message(
    games: Any, organizer: Any, user: Any
) -> None:
    event = make_event(organizer, games["yugioh"], deck_registration=True)
    client = Client(raise_request_exception=False)
    client.force_login(user)
    for body in (VERY_DEEP, "{" + '"a":' * 5000 + "1" + "}" * 5000):
        response = client.post(f"/tournaments/join/{event.join_code}/", {"deck_text": body})
        assert response.status_code == 400
    assert not Player.objects.filter(tournament=event).exists()
