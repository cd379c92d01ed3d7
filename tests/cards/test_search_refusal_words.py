"""A card search parameter that cannot be applied is refused in the requester's language: the
selector's words come from the catalogue."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("url", "english", "russian"),
    [
        ("/api/cards/?game=yugioh&ordering=sideways", "ordering must be one of", "ordering должен быть одним из"),
        ("/api/cards/?game=yugioh&level_min=high", "level_min must be a whole number, got 'high'",
         "level_min должен быть целым числом, а не «high»"),
        ("/api/cards/?game=yugioh&attr.bad-key=1", "attribute name 'bad-key'", "имя атрибута «bad-key»"),
        ("/api/cards/grouped/?game=yugioh&page=0", "page must be 1 or more", "page должен быть не меньше 1"),
        ("/api/cards/?game=yugioh&deck_buildable=maybe", "deck_buildable must be true or false",
         "deck_buildable должен быть true или false"),
    ],
)  # fmt: skip
def test_a_bad_search_parameter_is_refused_in_the_requesters_language(client, games, url, english, russian):
    for language, words in (("en", english), ("ru", russian)):
        response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code == 400, response.content
        assert words in response.content.decode(), (language, response.content.decode())
