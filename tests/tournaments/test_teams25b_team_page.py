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
