"""The organizer's team page: only organizers, the team size set before anyone registers (same rules as the
API), teams registered by usernames with the service's checks, and in Russian."""

from __future__ import annotations

import pytest

from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def _event(organizer, api_client_for, **kw):  # type: ignore[no-untyped-def]
    answer = api_client_for(organizer).post(
        "/api/tournaments/", {"name": "Team Night", "game": "mtg", "format": "constructed", "rounds": 2, **kw},
        format="json",
    )  # fmt: skip
    assert answer.status_code == 201, answer.content
    return Tournament.objects.get(pk=answer.json()["id"])


def test_the_team_page_sets_the_size_and_registers_teams(games, organizer, make_user, api_client_for, client):
    event = _event(organizer, api_client_for)
    url = f"/tournaments/{event.pk}/teams/manage/"
    stranger = make_user("stranger")
    client.force_login(stranger)
    assert client.get(url).status_code == 403
    assert client.post(url, {"form": "setup", "team_size": "3"}).status_code == 403
    client.force_login(organizer)
    page = client.get(url).content.decode()
    assert 'data-testid="team-setup"' in page and 'data-testid="team-add"' not in page
    # Two-Headed Giant needs teams of 2; a bad size is named.
    refused = client.post(url, {"form": "setup", "team_size": "3", "team_mode": "2hg"})
    assert refused.status_code == 400 and "teams of 2" in refused.content.decode()
    assert client.post(url, {"form": "setup", "team_size": "7"}).status_code == 400
    assert client.post(url, {"form": "setup", "team_size": "2", "team_mode": "2hg"}).status_code == 302
    event.refresh_from_db()
    assert (event.team_size, event.team_mode) == (2, "2hg")
    for name in ("ann", "bob", "cat", "dan"):
        make_user(name)
    added = client.post(url, {"form": "team", "name": "Heads", "member_0": "ann", "member_1": "bob"})
    assert added.status_code == 302
    # The same player twice, a missing member, an unknown account, a taken name: refused, nothing written.
    for post, words in (
        ({"name": "Twice", "member_0": "cat", "member_1": "cat"}, "2 different players"),
        ({"name": "Half", "member_0": "cat", "member_1": ""}, "username of every member"),
        ({"name": "Ghosts", "member_0": "cat", "member_1": "ghost"}, "No account named ghost."),
        ({"name": "heads", "member_0": "cat", "member_1": "dan"}, "already a team named"),
        ({"name": "Again", "member_0": "ann", "member_1": "dan"}, "ann is already registered."),
    ):
        answer = client.post(url, {"form": "team", **post})
        assert answer.status_code == 400 and words in answer.content.decode(), post
    assert event.teams.count() == 1 and event.players.count() == 2
    page = client.get(url).content.decode()
    assert "A: ann · B: bob" in page
    # Once anyone is registered the size stays.
    answer = client.post(url, {"form": "setup", "team_size": "3", "team_mode": "seats"})
    assert answer.status_code == 400 and "already registered" in answer.content.decode()
    client.cookies["django_language"] = "ru"
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Зарегистрировать команду" in page and "Место A: логин" in page


def test_the_team_page_registers_decks_by_number_with_the_team_rule(
    games, organizer, make_user, api_client_for, client
):  # type: ignore[no-untyped-def]
    from .test_it_runs_team_events import _mtg_deck

    event = _event(organizer, api_client_for, team_size=3, deck_registration=True)
    game = games["mtg"]
    for name in ("ann", "boris", "chen"):
        make_user(name)
    # Lists the organizer entered by hand (decks of their own): a player's deck is never used without them.
    a, b = _mtg_deck(organizer, game, "Ann"), _mtg_deck(organizer, game, "Boris")
    clash = _mtg_deck(organizer, game, "Chen", extra=["Ann Card 3"])
    other = _mtg_deck(make_user("dora"), game, "Dora")
    url = f"/tournaments/{event.pk}/teams/manage/"
    client.force_login(organizer)
    assert 'data-testid="team-deck_0"' in client.get(url).content.decode()
    post = {"form": "team", "name": "Blue Moon", "member_0": "ann", "member_1": "boris", "member_2": "chen",
            "deck_0": str(a.pk), "deck_1": str(b.pk)}  # fmt: skip
    for decks, words in (
        ({"deck_2": str(clash.pk)}, "Ann Card 3"),  # unified construction: the card and both decks named
        ({"deck_2": str(other.pk)}, f"No deck {other.pk} of yours for chen"),  # a player's deck
        ({"deck_2": "x"}, "No deck x of yours for chen"),
        ({"deck_2": "9" * 30}, "of yours for chen"),
        ({"deck_2": "-4"}, "No deck -4 of yours for chen"),
        ({}, "No deck — of yours for chen"),
    ):
        answer = client.post(url, {**post, **decks})
        page = answer.content.decode()
        assert answer.status_code == 400 and words in page, decks
        assert f'value="{a.pk}"' in page  # what was typed stays
    assert not event.teams.exists() and not event.players.exists()
    # Deck registration on: a team without decks is refused by the service.
    bare = {k: v for k, v in post.items() if not k.startswith("deck")}
    assert "give one deck per member" in client.post(url, bare).content.decode()
    fixed = _mtg_deck(organizer, game, "Chen2")
    assert client.post(url, {**post, "deck_2": str(fixed.pk)}).status_code == 302
    assert [p.deck is not None for p in event.players.all()] == [True, True, True]
