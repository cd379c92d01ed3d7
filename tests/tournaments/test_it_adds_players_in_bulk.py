"""Organizers add a list of players at once (names or CSV with optional deck lists) and attach decks later."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from tournaments import services
from tournaments.models import Player

from .factories import make_event, ydk_text, ygo_cards, ygo_payload

pytestmark = pytest.mark.django_db


def test_it_adds_names_and_attaches_decks_later(games, organizer, api_client_for):
    payload = ygo_payload(ygo_cards(games["yugioh"]))
    event = make_event(organizer, games["yugioh"], deck_registration=True)
    response = api_client_for(organizer).post(
        f"/api/tournaments/{event.pk}/players/bulk/", {"names": ["Ann", " Boris ", "", "Chen"]}, format="json"
    )
    assert response.status_code == 201, response.content
    players = response.json()["players"]
    assert [p["name"] for p in players] == ["Ann", "Boris", "Chen"]
    assert not any(p["has_deck"] for p in players)
    boris = Player.objects.get(pk=players[1]["id"])
    services.player_submit_deck(player=boris, by=organizer, text=ydk_text(payload))
    boris.refresh_from_db()
    assert boris.deck is not None


def test_it_reads_a_csv_with_optional_deck_lists(games, organizer):
    payload = ygo_payload(ygo_cards(games["yugioh"]))
    event = make_event(organizer, games["yugioh"], deck_registration=True)
    quoted = ydk_text(payload).replace('"', '""')
    rows = services.players_from_csv(f'name,deck\nDana,"{quoted}"\nEli\n')
    players = services.players_bulk_add(tournament=event, by=organizer, rows=rows)
    assert [(p.name, p.deck is not None) for p in players] == [("Dana", True), ("Eli", False)]


def test_a_csv_with_old_mac_line_ends_is_read_and_one_the_reader_refuses_names_its_line(
    games, organizer, api_client_for
):
    # A lone carriage return inside an unquoted field was a server error ("new-line character seen in
    # unquoted field"); it is a line end, as in an old Mac export.
    assert services.players_from_csv("Ann\rBen,\rCid") == [("Ann", ""), ("Ben", ""), ("Cid", "")]
    event = make_event(organizer, games["yugioh"])
    response = api_client_for(organizer).post(
        f"/api/tournaments/{event.pk}/players/bulk/",
        {"csv": "\u00cb\r\u00bc`\u00b0\u0016\u0081"},
        format="json",
    )
    assert response.status_code == 201, response.content
    # What the csv module itself refuses (a field over its size limit) is a 400 naming the line.
    with pytest.raises(ValidationError, match="Line 2 cannot be read as CSV"):
        services.players_from_csv('Ann\n"' + "x" * 200_000 + '"\n')


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({"names": ["Ann", "ann"]}, 422),  # the same person twice: each line well-formed, not together
        ({"names": []}, 422),  # well-formed, nothing to read (README "Errors")
        ({"names": ["x" * 151]}, 400),
        ({"csv": "Dana,#main\n999\n"}, 422),  # an illegal list: the whole batch is refused
        ({"names": ["Ann"], "csv": "Ben"}, 400),
    ],
)
def test_it_refuses_a_bad_batch_and_adds_nobody(body, expected, games, organizer, api_client_for):
    event = make_event(organizer, games["yugioh"], deck_registration=True)
    response = api_client_for(organizer).post(
        f"/api/tournaments/{event.pk}/players/bulk/", body, format="json"
    )
    assert response.status_code == expected, response.content
    assert not event.players.exists()


def test_only_organizers_add_in_bulk(games, organizer, user, api_client_for):
    event = make_event(organizer, games["caster"])
    response = api_client_for(user).post(
        f"/api/tournaments/{event.pk}/players/bulk/", {"names": ["A"]}, format="json"
    )
    assert response.status_code == 403 and not event.players.exists()


def test_a_name_already_in_the_event_is_refused(games, organizer):
    event = make_event(organizer, games["caster"], players=1)
    with pytest.raises(ValidationError, match="already in the event"):
        services.players_bulk_add(tournament=event, by=organizer, rows=["Player 01"])


def test_a_name_already_registered_is_a_conflict_naming_it_and_adds_nobody(games, organizer, api_client_for):
    event = make_event(organizer, games["caster"], players=1)
    response = api_client_for(organizer).post(
        f"/api/tournaments/{event.pk}/players/bulk/", {"names": ["Ann", "player 01"]}, format="json"
    )
    # The event's state refuses it (README "Errors": 409), with the name and its line.
    assert response.status_code == 409, response.content
    assert response.json()["detail"] == "Line 2: player 01 is already in the event."
    assert list(event.players.values_list("name", flat=True)) == ["Player 01"]


def test_a_name_twice_in_one_list_is_unprocessable_naming_it_and_its_first_line(
    games, organizer, api_client_for
):
    event = make_event(organizer, games["caster"])
    response = api_client_for(organizer).post(
        f"/api/tournaments/{event.pk}/players/bulk/", {"names": ["Ann", "Boris", "ann"]}, format="json"
    )
    # Every line is well-formed (the schema cannot say "no two alike"); together they cannot be: 422.
    assert response.status_code == 422, response.content
    assert response.json() == {"names": ["Line 3: ann is already on line 1 of this list."]}
    assert not event.players.exists()
