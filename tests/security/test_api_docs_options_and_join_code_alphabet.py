"""OPTIONS on the API docs answers 204 with its Allow header, not a 500; the join-code alphabet holds each
symbol once and none of the look-alikes (0/O, 1/I/L, 2/Z, 5/S, 8/B, U/V)."""

from __future__ import annotations

import pytest
from django.test import Client

from tournaments.models import JOIN_CODE_ALPHABET


@pytest.mark.django_db
def test_options_on_the_api_docs_is_answered_not_a_500() -> None:
    response = Client(raise_request_exception=False).options("/api/docs/")
    assert response.status_code == 204
    assert "GET" in response["Allow"]


def test_the_join_code_alphabet_holds_each_symbol_once() -> None:
    assert len(set(JOIN_CODE_ALPHABET)) == len(JOIN_CODE_ALPHABET)
    assert not set("0O1IL2Z5S8BUV") & set(JOIN_CODE_ALPHABET)
