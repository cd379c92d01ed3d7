"""MTR 2.4: players may agree to an intentional draw at any point before the result is reported, games played
or not; it is reported as 0-0-3 and the phone asks to confirm "the intentional draw", not "0–0"."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import translation

from tournaments import services

from .factories import make_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(games, organizer, user, other_user):  # type: ignore[no-untyped-def]
    event = make_event(organizer, games["caster"], rounds=3)
    alice = services.player_register(tournament=event, by=user)
    bob = services.player_register(tournament=event, by=other_user)
    match = services.round_pair_next(tournament=event, by=organizer).matches.get()
    return event, match, alice, bob


def test_it_accepts_an_intentional_draw_after_a_game_was_saved(table, user):
    _event, match, alice, _bob = table
    services.match_save_game(match=match, by=user, number=1, first=alice.pk, winner=alice.pk)
    drawn = services.match_finish_early(match=match, by=user, how="intentional_draw")
    assert drawn.status == "reported" and drawn.ended_by == "intentional_draw"
    assert [s.wins for s in drawn.seats.all()] == [0, 0] and drawn.draws == 3
    assert drawn.games.count() == 1  # the game played stays on record


def test_it_refuses_an_intentional_draw_once_the_result_is_reported(table, user, other_user):
    _event, match, _alice, _bob = table
    services.match_report_result(match=match, by=user, wins=[1, 1], draws=1)
    with pytest.raises(ValidationError, match="already reported"):
        services.match_finish_early(match=match, by=other_user, how="intentional_draw")


def test_the_phone_offers_the_draw_mid_match_and_asks_to_confirm_it_in_words(table, client, user, other_user):
    event, match, alice, bob = table
    services.match_save_game(match=match, by=user, number=1, first=alice.pk, winner=bob.pk)
    client.force_login(user)
    url = reverse("tournaments:my_event", args=[event.pk])
    assert 'value="intentional_draw"' in client.get(url).content.decode()
    client.post(
        reverse("tournaments:match_finish", args=[match.pk]), {"how": "intentional_draw", "next": url}
    )
    client.force_login(other_user)
    page = client.get(url).content.decode()
    assert "Confirm the intentional draw" in page and "Confirm 0–0" not in page
    with translation.override("ru"):
        ru = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Подтвердить ничью по согласию" in ru
