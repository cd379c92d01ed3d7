"""Late entries with their phones (join code after the start, organizers adding an account by username),
guest entries claimed by their player or linked by an organizer: one account, one entry, every change
audited."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from tournaments import services
from tournaments.models import EntryChange, Player
from tournaments.reads.selectors import standings_compute

from .factories import finish_round, make_event

pytestmark = pytest.mark.django_db


def started(organizer, games, *, players=4, rounds=4, **kw):
    event = make_event(organizer, games["caster"], players=players, rounds=rounds, **kw)
    services.tournament_start(tournament=event, by=organizer)
    return event


def play_rounds(event, organizer, n):
    for _ in range(n):
        services.round_pair_next(tournament=event, by=organizer)
        finish_round(event, organizer)


def test_the_join_code_works_after_the_start_while_late_entry_is_open(games, organizer, user, api_client_for):
    event = started(organizer, games)
    play_rounds(event, organizer, 1)
    response = api_client_for(user).post("/api/tournaments/join/", {"code": event.join_code}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["username"] == "alice" and body["joined_round"] == 2 and body["status"] == "registered"
    late = Player.objects.get(pk=body["id"])
    audit = EntryChange.objects.get(player=late, action="late_entry")
    assert audit.changed_by == user and audit.new["joined_round"] == 2
    round_two = services.round_pair_next(tournament=event, by=organizer)
    match = round_two.matches.get(seats__player=late)
    # The late player reports from their own phone (the API as their account).
    report = api_client_for(user).post(f"/api/matches/{match.pk}/result/", {"wins": [2, 0]}, format="json")
    assert report.status_code == 200, report.content


def test_the_code_expires_after_the_late_entry_window_with_a_clear_error(
    games, organizer, user, api_client_for
):
    event = started(organizer, games, late_entry_until_round=1)
    play_rounds(event, organizer, 2)
    response = api_client_for(user).post("/api/tournaments/join/", {"code": event.join_code}, format="json")
    assert response.status_code == 409
    assert "late entry closed at the end of round 1" in str(response.json())
    assert not Player.objects.filter(user=user).exists()


def test_an_organizer_adds_an_account_by_username_after_the_start(
    games, organizer, user, api_client_for, client
):
    event = started(organizer, games)
    play_rounds(event, organizer, 2)
    response = api_client_for(organizer).post(
        f"/api/tournaments/{event.pk}/players/", {"username": "alice"}, format="json"
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["username"] == "alice" and body["user"] == user.pk and body["joined_round"] == 3
    late = Player.objects.get(pk=body["id"])
    assert EntryChange.objects.filter(player=late, action="late_entry", changed_by=organizer).exists()
    # Missed rounds: a match loss each (the default policy), then paired from round 3.
    row = next(r for r in standings_compute(tournament=event) if r["player"] == late.pk)
    assert (row["wins"], row["losses"], row["points"]) == (0, 2, 0)
    round_three = services.round_pair_next(tournament=event, by=organizer)
    assert round_three.matches.filter(seats__player=late).exists()
    client.force_login(user)
    mine = client.get(f"/tournaments/{event.pk}/me/")
    assert mine.status_code == 200 and b'data-round="3"' in mine.content


def test_the_nothing_recorded_policy_leaves_missed_rounds_empty(games, organizer, user):
    event = started(organizer, games, late_entry_losses=False)
    play_rounds(event, organizer, 2)
    late = services.player_add_late(tournament=event, by=organizer, user=user)
    row = next(r for r in standings_compute(tournament=event) if r["player"] == late.pk)
    assert (row["wins"], row["losses"], row["draws"]) == (0, 0, 0)


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"username": "nobody-here"}, 404, "No account is called nobody-here"),
        ({"username": "alice"}, 409, "already registered"),
        ({"username": "olga_late"}, 400, "closed at the end of round 2"),
    ],
)
def test_bad_late_adds_are_refused_and_change_nothing(
    body, status, words, games, organizer, user, make_user, api_client_for
):
    make_user("olga_late")
    event = started(organizer, games)
    services.player_add_late(tournament=event, by=organizer, user=user)
    if "olga_late" in body["username"]:
        play_rounds(event, organizer, 3)
    before = list(Player.objects.order_by("id").values_list("id", "user_id"))
    response = api_client_for(organizer).post(f"/api/tournaments/{event.pk}/players/", body, format="json")
    assert response.status_code == status and words in str(response.json()), response.content
    assert list(Player.objects.order_by("id").values_list("id", "user_id")) == before


def test_only_organizers_add_accounts(games, organizer, user, other_user, api_client_for):
    event = started(organizer, games)
    response = api_client_for(user).post(
        f"/api/tournaments/{event.pk}/players/", {"username": "bob"}, format="json"
    )
    assert response.status_code == 403
    with pytest.raises(PermissionDenied):
        services.player_add_late(tournament=event, by=user, user=other_user)


def test_no_late_entry_in_the_last_swiss_round(games, organizer, user):
    event = started(organizer, games, rounds=2, late_entry_until_round=5)
    play_rounds(event, organizer, 2)
    with pytest.raises(ValidationError, match="no round is left"):
        services.player_add_late(tournament=event, by=organizer, user=user)


# --- claims and links ---------------------------------------------------------------------------------


@pytest.fixture
def erin(make_user):
    account = make_user("erin")
    return account


def test_a_player_whose_name_matches_a_guest_is_offered_it_not_a_duplicate(
    games, organizer, erin, api_client_for
):
    event = make_event(organizer, games["caster"])
    (guest,) = services.players_bulk_add(tournament=event, by=organizer, rows=["Erin Park"])
    client = api_client_for(erin)
    offered = client.post("/api/tournaments/join/", {"code": event.join_code}, format="json")
    assert offered.status_code == 400 and f"Erin Park (#{guest.pk})" in str(offered.json()["claim"])
    assert event.players.count() == 1
    claimed = client.post(
        "/api/tournaments/join/", {"code": event.join_code, "claim": guest.pk}, format="json"
    )
    assert claimed.status_code == 201, claimed.content
    assert claimed.json()["id"] == guest.pk and claimed.json()["username"] == "erin"
    assert event.players.count() == 1
    audit = EntryChange.objects.get(player=guest, action="claim")
    assert audit.changed_by == erin and audit.new == {"user": erin.pk, "username": "erin"}
    again = client.post("/api/tournaments/join/", {"code": event.join_code}, format="json")
    assert again.status_code == 409 and "already registered" in str(again.json())


def test_a_player_may_still_join_as_a_new_entry(games, organizer, erin, api_client_for):
    event = make_event(organizer, games["caster"])
    services.players_bulk_add(tournament=event, by=organizer, rows=["Erin Park"])
    response = api_client_for(erin).post(
        "/api/tournaments/join/", {"code": event.join_code, "new_entry": True}, format="json"
    )
    assert response.status_code == 201 and event.players.count() == 2


def test_claims_of_someone_elses_entry_or_a_linked_one_are_refused(
    games, organizer, erin, user, api_client_for
):
    event = make_event(organizer, games["caster"])
    guest, other = services.players_bulk_add(tournament=event, by=organizer, rows=["Erin Park", "Zed Quinn"])
    foreign = api_client_for(erin).post(
        "/api/tournaments/join/", {"code": event.join_code, "claim": other.pk}, format="json"
    )
    assert foreign.status_code == 403 and "not under your name" in str(foreign.json())
    services.player_link(player=guest, by=organizer, username="alice")
    taken = api_client_for(erin).post(
        "/api/tournaments/join/", {"code": event.join_code, "claim": guest.pk}, format="json"
    )
    assert taken.status_code == 409 and "already belongs to the account alice" in str(taken.json())
    assert Player.objects.get(pk=guest.pk).user == user
    assert not EntryChange.objects.filter(action="claim").exists()


def test_an_organizer_links_any_guest_entry_to_an_account(games, organizer, user, api_client_for):
    event = started(organizer, games)
    guest = event.players.order_by("id").first()
    url = f"/api/tournaments/{event.pk}/players/{guest.pk}/link/"
    assert api_client_for(user).post(url, {"username": "alice"}, format="json").status_code == 403
    unknown = api_client_for(organizer).post(url, {"username": "ghost"}, format="json")
    assert unknown.status_code == 404 and "No account is called ghost" in str(unknown.json())
    linked = api_client_for(organizer).post(url, {"username": "alice"}, format="json")
    assert linked.status_code == 200 and linked.json()["username"] == "alice"
    audit = EntryChange.objects.get(player=guest, action="link")
    assert audit.changed_by == organizer and audit.old == {"user": None}
    twice = api_client_for(organizer).post(url, {"username": "alice"}, format="json")
    assert twice.status_code == 409 and "already belongs" in str(twice.json())
    second = event.players.exclude(pk=guest.pk).order_by("id").first()
    duplicate = api_client_for(organizer).post(
        f"/api/tournaments/{event.pk}/players/{second.pk}/link/", {"username": "alice"}, format="json"
    )
    assert duplicate.status_code == 409 and "one account, one entry" in str(duplicate.json())
    assert Player.objects.filter(tournament=event, user=user).count() == 1
    # The linked player reports their game from their account.
    round_one = services.round_pair_next(tournament=event, by=organizer)
    match = round_one.matches.get(seats__player=guest)
    if not match.bye:
        report = api_client_for(user).post(
            f"/api/matches/{match.pk}/result/", {"wins": [2, 1]}, format="json"
        )
        assert report.status_code == 200, report.content


@pytest.mark.parametrize(("claim", "status"), [(999_999, 404), ("abc", 400), (0, 400), ("other event", 404)])
def test_bad_claims_are_refused_naming_the_claim(claim, status, games, organizer, erin, api_client_for):
    event = make_event(organizer, games["caster"])
    services.players_bulk_add(tournament=event, by=organizer, rows=["Erin Park"])
    if claim == "other event":
        elsewhere = make_event(organizer, games["caster"], name="Elsewhere")
        (claim_entry,) = services.players_bulk_add(tournament=elsewhere, by=organizer, rows=["Erin Park"])
        claim = claim_entry.pk
    before = list(Player.objects.order_by("id").values_list("id", "user_id"))
    response = api_client_for(erin).post(
        "/api/tournaments/join/", {"code": event.join_code, "claim": claim}, format="json"
    )
    assert response.status_code == status and "claim" in response.json(), response.content
    assert list(Player.objects.order_by("id").values_list("id", "user_id")) == before


def test_a_link_needs_a_username(games, organizer, api_client_for):
    event = make_event(organizer, games["caster"], players=1)
    guest = event.players.get()
    url = f"/api/tournaments/{event.pk}/players/{guest.pk}/link/"
    for body in ({}, {"username": ""}, {"username": "   "}):
        response = api_client_for(organizer).post(url, body, format="json")
        assert response.status_code == 400 and "username" in response.json(), (body, response.content)
    assert Player.objects.get(pk=guest.pk).user is None


def test_an_organizer_posting_no_name_and_no_username_after_the_start_enters_themselves(
    games, organizer, api_client_for
):
    # As before the start: the body's fields are all optional, so an empty body is the organizer's own entry
    # (it was a guest with no name: 400 for a request the schema allows).
    event = started(organizer, games)
    play_rounds(event, organizer, 1)
    response = api_client_for(organizer).post(f"/api/tournaments/{event.pk}/players/", {}, format="json")
    assert response.status_code == 201, response.content
    entry = Player.objects.get(pk=response.json()["id"])
    assert entry.user == organizer and entry.joined_round == 2
