"""An organizer who names a player's account with one of that player's own decks registers nothing: the
player sees the request on their events list (and the event page) and accepts or declines on their phone.
Until they accept the deck is not frozen, not shown anywhere and not paired. The other way is the
organizer's own copy of the list, registered at once and marked "entered by the organizer" on every page and
printable showing it (the team page, the list page, the deck check and the printed deck lists)."""

from __future__ import annotations

import pytest
from django.test import Client

from tournaments import services
from tournaments.models import EntryRequest, Match, Player, Team, TeamInvite

from ..tournaments.factories import make_card, make_deck

pytestmark = pytest.mark.django_db

SECRET = "Qwerty Hidden Gem"
MARK = "entered by the organizer"


def _deck(owner, game, prefix: str, *, secret: bool = False, visibility: str = "private"):  # type: ignore[no-untyped-def]
    names = [f"{prefix} Spell {i}" for i in range(13)] + ([SECRET] if secret else [f"{prefix} Spell 13"])
    for name in names:
        make_card(game, name, name, card_type="instant", attributes={"supertypes": []})
    make_card(game, "Mountain", "Mountain", card_type="land", attributes={"supertypes": ["basic"]})
    lines = [{"card": n, "count": 4} for n in names] + [{"card": "Mountain", "count": 4}]
    deck = make_deck(
        owner, game, {"sections": {"main": lines}}, format_slug="constructed", name=f"{prefix} Brew"
    )
    deck.visibility = visibility
    deck.save(update_fields=["visibility"])
    return deck


def _signed_in(user) -> Client:  # type: ignore[no-untyped-def]
    client = Client()
    client.force_login(user)
    return client


def _event(api, **extra):  # type: ignore[no-untyped-def]
    body = {"name": "Asked Open", "game": "mtg", "format": "constructed", "deck_registration": True, **extra}
    made = api.post("/api/tournaments/", body, format="json")
    assert made.status_code == 201, made.content
    return made.json()["id"]


def _pages_showing_lists(tid: int, player: Player | None) -> list[str]:
    pages = [f"/tournaments/{tid}/decklists/", f"/tournaments/{tid}/print/decklists/", f"/tournaments/{tid}/"]
    if player is not None:
        pages += [
            f"/tournaments/{tid}/players/{player.pk}/list/",
            f"/tournaments/{tid}/players/{player.pk}/check/",
        ]
    return pages


def test_a_players_own_deck_is_only_asked_for_and_registered_when_they_accept(
    games, organizer, make_user, api_client_for
):
    dora = make_user("dora")
    for name in ("ann", "boris"):
        make_user(name)
    api = api_client_for(organizer)
    tid = _event(api)
    secret = _deck(dora, games["mtg"], "Dora", secret=True)
    for name in ("ann", "boris"):
        copy = _deck(organizer, games["mtg"], f"{name} copy")
        added = api.post(
            f"/api/tournaments/{tid}/players/", {"username": name, "deck": copy.pk}, format="json"
        )
        assert added.status_code == 201, added.content

    asked = api.post(
        f"/api/tournaments/{tid}/players/", {"username": "dora", "deck": secret.pk}, format="json"
    )
    assert asked.status_code == 202, asked.content  # the old behaviour refused it (400) or registered it
    assert asked.json()["status"] == "waiting" and SECRET not in asked.content.decode()
    # Until she accepts: no entry, no frozen list, nothing shown, not paired.
    assert not Player.objects.filter(tournament_id=tid, user=dora).exists()
    as_organizer = _signed_in(organizer)
    for page in _pages_showing_lists(tid, None):
        assert SECRET not in as_organizer.get(page).content.decode(), page
    players = api.get(f"/api/tournaments/{tid}/players/").json()["players"]
    assert "dora" not in {p["username"] for p in players}
    # The organizer cannot answer for her; another player cannot either.
    request_id = asked.json()["id"]
    for other in (organizer, make_user("eve")):
        answer = api_client_for(other).post(f"/api/tournaments/requests/{request_id}/", {"accept": True},
                                            format="json")  # fmt: skip
        assert answer.status_code == 404
    # She sees it on her events list, with Accept and Decline, and accepts on her phone.
    phone = _signed_in(dora)
    listing = phone.get("/tournaments/").content.decode()
    assert f'data-testid="entry-request-{request_id}"' in listing and "entry-request-accept" in listing
    assert [r["id"] for r in api_client_for(dora).get("/api/tournaments/requests/").json()["requests"]] == [
        request_id
    ]
    accepted = phone.post(f"/tournaments/requests/{request_id}/", {"answer": "accept"})
    assert accepted.status_code == 302 and accepted.url == f"/tournaments/{tid}/me/"
    entry = Player.objects.get(tournament_id=tid, user=dora)
    assert entry.deck is not None and entry.source_deck_id == secret.pk
    assert entry.deck_entered_by_organizer is False  # she registered it herself, by accepting
    assert EntryRequest.objects.get(pk=request_id).accepted is True
    services.tournament_start(tournament=entry.tournament, by=organizer)
    services.round_pair_next(tournament=entry.tournament, by=organizer)
    assert Match.objects.filter(round__tournament_id=tid, seats__player=entry).exists()


def test_a_declined_request_leaves_nothing_in_the_event(games, organizer, make_user, api_client_for):
    dora = make_user("dora")
    api = api_client_for(organizer)
    tid = _event(api)
    secret = _deck(dora, games["mtg"], "Dora", secret=True)
    asked = api.post(
        f"/api/tournaments/{tid}/players/", {"username": "dora", "deck": secret.pk}, format="json"
    )
    assert asked.status_code == 202
    again = api.post(
        f"/api/tournaments/{tid}/players/", {"username": "dora", "deck": secret.pk}, format="json"
    )
    assert again.status_code == 409  # one open request per player: the state refuses a second
    answer = api_client_for(dora).post(
        f"/api/tournaments/requests/{asked.json()['id']}/", {"accept": False}, format="json"
    )
    assert answer.status_code == 200 and answer.json()["player"] is None
    assert answer.json()["request"]["status"] == "declined"
    assert not Player.objects.filter(tournament_id=tid).exists()
    assert "entry-request-" not in _signed_in(dora).get("/tournaments/").content.decode()


def test_the_organizers_own_copy_is_marked_entered_by_the_organizer_everywhere(
    games, organizer, make_user, api_client_for
):
    make_user("dora")
    api = api_client_for(organizer)
    tid = _event(api)
    copy = _deck(organizer, games["mtg"], "Desk")
    made = api.post(f"/api/tournaments/{tid}/players/", {"username": "dora", "deck": copy.pk}, format="json")
    assert made.status_code == 201, made.content
    assert made.json()["deck_entered_by_organizer"] is True
    entry = Player.objects.get(pk=made.json()["id"])
    as_organizer = _signed_in(organizer)
    for page in _pages_showing_lists(tid, entry)[:2] + _pages_showing_lists(tid, entry)[3:]:
        body = as_organizer.get(page).content.decode()
        assert "Desk Spell 0" in body and MARK in body, page
    # The player's own list, registered by the player, carries no mark.
    own = make_user("erin")
    own_deck = _deck(own, games["mtg"], "Erin")
    joined = api_client_for(own).post(
        f"/api/tournaments/{tid}/players/", {"deck": own_deck.pk, "code": api.get(f"/api/tournaments/{tid}/").json()
                                             ["join_code"]}, format="json")  # fmt: skip
    assert joined.status_code == 201, joined.content
    assert joined.json()["deck_entered_by_organizer"] is False
    erin = Player.objects.get(pk=joined.json()["id"])
    body = as_organizer.get(f"/tournaments/{tid}/players/{erin.pk}/list/").content.decode()
    assert "Erin Spell 0" in body and MARK not in body


def test_a_team_with_its_members_own_decks_waits_for_each_member(games, organizer, make_user, api_client_for):
    members = [make_user(name) for name in ("ann", "boris", "dora")]
    api = api_client_for(organizer)
    tid = _event(api, team_size=3)
    decks = [_deck(m, games["mtg"], m.username.title(), secret=m.username == "dora") for m in members]
    body = {"name": "Blue Moon", "members": ["ann", "boris", "dora"], "decks": [d.pk for d in decks]}
    asked = api.post(f"/api/tournaments/{tid}/teams/", body, format="json")
    assert asked.status_code == 202, asked.content
    assert asked.json()["invited"] == ["ann", "boris", "dora"] and SECRET not in asked.content.decode()
    assert not Player.objects.filter(tournament_id=tid).exists()
    manage = _signed_in(organizer).get(f"/tournaments/{tid}/teams/manage/").content.decode()
    assert "team-waiting" in manage and SECRET not in manage
    for member in members:
        phone = _signed_in(member)
        invite = TeamInvite.objects.get(user=member, answered_at__isnull=True)
        assert f'data-testid="team-invite-{invite.pk}"' in phone.get("/tournaments/").content.decode()
        assert phone.post(f"/tournaments/team-invites/{invite.pk}/", {"answer": "accept"}).status_code == 302
    team = Team.objects.get(tournament_id=tid)
    entries = [m.player for m in team.members.select_related("player").order_by("seat")]
    assert [e.source_deck_id for e in entries] == [d.pk for d in decks]
    assert not any(e.deck_entered_by_organizer for e in entries)


def test_a_team_of_the_organizers_copies_is_registered_and_marked(
    games, organizer, make_user, api_client_for
):
    for name in ("ann", "boris", "dora"):
        make_user(name)
    api = api_client_for(organizer)
    tid = _event(api, team_size=3)
    copies = [_deck(organizer, games["mtg"], f"Copy{i}") for i in range(3)]
    body = {"name": "Desk Team", "members": ["ann", "boris", "dora"], "decks": [d.pk for d in copies]}
    made = api.post(f"/api/tournaments/{tid}/teams/", body, format="json")
    assert made.status_code == 201, made.content
    assert all(p.deck_entered_by_organizer for p in Player.objects.filter(tournament_id=tid))
    manage = _signed_in(organizer).get(f"/tournaments/{tid}/teams/manage/").content.decode()
    assert manage.count('data-testid="entered-by-organizer"') == 3
