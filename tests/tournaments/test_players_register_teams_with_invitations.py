"""Players register their own team: the captain names it and the teammates on the event's page, each teammate
accepts on their own phone (nobody is registered without agreeing), a declined seat gets someone else, and the
event starts only with every team complete."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from tournaments import services
from tournaments.models import Player, TeamInvite, TeamMember

from .factories import make_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def trio_event(games, organizer, make_user):  # type: ignore[no-untyped-def]
    event = make_event(organizer, games["mtg"], format_slug="constructed", rounds=2, team_size=3)
    people = {name: make_user(name) for name in ("cap", "ann", "bob", "cy", "dee")}
    return event, people


def _detail(client, event, user) -> str:  # type: ignore[no-untyped-def]
    client.force_login(user)
    return client.get(reverse("tournaments:detail", args=[event.pk])).content.decode()


def test_a_captain_registers_and_teammates_accept_or_decline_on_their_phones(client, trio_event):
    event, p = trio_event
    assert 'data-testid="team-propose"' in _detail(client, event, p["cap"])
    client.post(
        reverse("tournaments:team_propose", args=[event.pk]),
        {"name": "Blue Moon", "mate_1": "ann", "mate_2": "bob"},
    )
    team = event.teams.get(name="Blue Moon")
    assert [m.player.user for m in team.members.all()] == [p["cap"]]
    assert not Player.objects.filter(
        tournament=event, user__in=[p["ann"], p["bob"]]
    ).exists()  # not without them
    page = _detail(client, event, p["ann"])
    invite = TeamInvite.objects.get(user=p["ann"])
    assert f'data-testid="team-invite-{invite.pk}"' in page and "cap invites you to team “Blue Moon”." in page
    client.post(reverse("tournaments:team_invite_answer", args=[invite.pk]), {"answer": "accept"})
    client.force_login(p["bob"])
    client.post(reverse("tournaments:team_invite_answer", args=[TeamInvite.objects.get(user=p["bob"]).pk]),
                {"answer": "decline"})  # fmt: skip
    assert sorted(TeamMember.objects.filter(team=team).values_list("seat", flat=True)) == [0, 1]
    page = _detail(client, event, p["cap"])
    assert 'data-testid="team-replace-C"' in page
    client.post(reverse("tournaments:team_invite_replace", args=[team.pk]), {"seat": "2", "username": "cy"})
    client.force_login(p["cy"])
    client.post(reverse("tournaments:team_invite_answer", args=[TeamInvite.objects.get(user=p["cy"]).pk]),
                {"answer": "accept"})  # fmt: skip
    assert TeamMember.objects.filter(team=team).count() == 3
    assert "Your team is complete." in _detail(client, event, p["cap"])


def test_only_the_invited_player_answers(client, trio_event):
    event, p = trio_event
    services.team_propose(tournament=event, by=p["cap"], name="Reds", teammates=[p["ann"], p["bob"]])
    invite = TeamInvite.objects.get(user=p["ann"])
    client.force_login(p["dee"])
    client.post(reverse("tournaments:team_invite_answer", args=[invite.pk]), {"answer": "accept"})
    invite.refresh_from_db()
    assert invite.answered_at is None and not Player.objects.filter(tournament=event, user=p["dee"]).exists()


def test_a_player_cannot_be_on_two_teams_or_invited_twice(trio_event):
    event, p = trio_event
    services.team_propose(tournament=event, by=p["cap"], name="Reds", teammates=[p["ann"], p["bob"]])
    with pytest.raises(ValidationError, match="already invited"):
        services.team_propose(tournament=event, by=p["cy"], name="Greens", teammates=[p["ann"], p["dee"]])
    with pytest.raises(ValidationError, match="teammates"):
        services.team_propose(tournament=event, by=p["cy"], name="Greens", teammates=[p["dee"]])


def test_the_event_cannot_start_while_a_seat_waits(trio_event, organizer, games, make_user):
    event, p = trio_event
    services.team_propose(tournament=event, by=p["cap"], name="Reds", teammates=[p["ann"], p["bob"]])
    services.team_invite_answer(invite=TeamInvite.objects.get(user=p["ann"]), by=p["ann"], accept=True)
    others = [make_user(f"o{i}") for i in range(3)]
    services.team_register(tournament=event, by=organizer, name="Desk team", members=others)
    with pytest.raises(ValidationError, match="missing a member: Reds"):
        services.tournament_start(tournament=event, by=organizer)


def test_the_join_code_of_a_team_event_leads_to_the_team_forms(client, trio_event):
    event, p = trio_event
    client.force_login(p["dee"])
    answer = client.get(reverse("tournaments:join_code", args=[event.join_code]))
    assert answer.status_code == 302 and answer["Location"] == reverse("tournaments:detail", args=[event.pk])


def test_the_invitation_reads_in_russian(client, trio_event):
    event, p = trio_event
    services.team_propose(tournament=event, by=p["cap"], name="Reds", teammates=[p["ann"], p["bob"]])
    client.cookies["django_language"] = "ru"
    assert "приглашает вас в команду «Reds»" in _detail(client, event, p["ann"])
