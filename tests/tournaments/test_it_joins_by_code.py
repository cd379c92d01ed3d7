"""Players join an event in one step with its join code; the code is for organizers' eyes and expires."""

from __future__ import annotations

import pytest

from tournaments import services
from tournaments.models import JOIN_CODE_ALPHABET, Player

from .factories import make_event, ydk_text, ygo_cards, ygo_payload

pytestmark = pytest.mark.django_db


def test_it_gives_every_event_an_unambiguous_code_shown_to_organizers_only(
    games, organizer, user, api_client_for
):
    event = make_event(organizer, games["caster"])
    assert len(event.join_code) == 6 and set(event.join_code) <= set(JOIN_CODE_ALPHABET)
    assert not set("0O1IL5S8B") & set(JOIN_CODE_ALPHABET)
    assert (
        api_client_for(organizer).get(f"/api/tournaments/{event.pk}/").json()["join_code"] == event.join_code
    )
    assert api_client_for(user).get(f"/api/tournaments/{event.pk}/").json()["join_code"] is None
    listing = api_client_for(user).get("/api/tournaments/").json()["results"]
    assert all(row["join_code"] is None for row in listing)


def test_it_joins_with_the_code_under_the_account_name(games, organizer, make_user, api_client_for):
    player_user = make_user("zoe")
    player_user.first_name, player_user.last_name = "Zoë", "Keller"
    player_user.save()
    event = make_event(organizer, games["caster"])
    typed = event.join_code.lower()[:3] + "-" + event.join_code.lower()[3:]
    response = api_client_for(player_user).post("/api/tournaments/join/", {"code": typed}, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["name"] == "Zoë Keller" and response.json()["user"] == player_user.pk


def test_it_joins_with_a_pasted_list(games, organizer, user, api_client_for):
    payload = ygo_payload(ygo_cards(games["yugioh"]))
    event = make_event(organizer, games["yugioh"], deck_registration=True)
    response = api_client_for(user).post(
        "/api/tournaments/join/", {"code": event.join_code, "list": ydk_text(payload)}, format="json"
    )
    assert response.status_code == 201, response.content
    assert response.json()["has_deck"] is True


@pytest.mark.parametrize(
    "case",
    ["wrong code", "expired code", "joining twice", "illegal list", "anonymous"],
)
def test_it_refuses_bad_joins_and_changes_nothing(case, games, organizer, user, api_client_for, api_client):
    event = make_event(organizer, games["yugioh"], deck_registration=True)
    client, body = api_client_for(user), {"code": event.join_code}
    if case == "wrong code":
        body = {"code": "XXXXXX" if event.join_code != "XXXXXX" else "YYYYYY"}
    elif case == "expired code":
        services.registration_freeze(tournament=event, by=organizer)
    elif case == "joining twice":
        services.player_register(tournament=event, by=user)
    elif case == "illegal list":
        body["list"] = "#main\n999999\n"
    else:
        client = api_client
    before = list(Player.objects.values_list("id", flat=True))
    response = client.post("/api/tournaments/join/", body, format="json")
    # A code no event has: 404; a state that refuses the join: 409; a well-formed list the event cannot take
    # (a card it does not know): 422 (README, API "Errors").
    expected = {"anonymous": 403, "wrong code": 404, "expired code": 409, "joining twice": 409}.get(case, 422)
    assert response.status_code == expected, response.content
    assert isinstance(response.json(), dict)
    assert list(Player.objects.values_list("id", flat=True)) == before
    if case == "expired code":
        assert "expired" in str(response.json())
