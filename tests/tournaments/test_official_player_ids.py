"""Official player IDs as data per game: the format comes from the rule set (Konami CARD GAME ID: ten digits;
Magic: the Wizards Account e-mail), a player keeps theirs per game, registration carries it onto the entry, My
event asks for it when missing, and only organizers see it — on printed deck lists and in the standings exports
(CSV and JSON) the official systems read."""

from __future__ import annotations

import csv
import io

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from accounts.models import OfficialId
from tournaments import services
from tournaments.models import Player

from .factories import make_event

pytestmark = pytest.mark.django_db


def test_each_game_declares_its_id_format(games):
    konami = services.game_rules(games["yugioh"]).player_id
    assert konami.name == "Konami CARD GAME ID" and konami.accepts("0012345678")
    assert not konami.accepts("12345") and not konami.accepts("00123456789")
    assert services.game_rules(games["mtg"]).player_id.accepts("ann@example.com")
    assert not services.game_rules(games["mtg"]).player_id.accepts("@" * 5000)
    assert services.game_rules(games["caster"]).player_id is None
    with pytest.raises(ValidationError, match="is not a Konami CARD GAME ID"):
        services.official_id_check(game=games["yugioh"], value="12-34")


def test_a_player_keeps_ids_per_game_and_open_entries_take_them(client, games, organizer, user):
    event = make_event(organizer, games["yugioh"], rounds=2)
    entry = services.player_register(tournament=event, by=user)
    client.force_login(user)
    page = client.get(reverse("tournaments:my_official_ids")).content.decode()
    assert 'data-testid="official-id-yugioh"' in page and 'data-testid="official-id-caster"' not in page
    bad = client.post(reverse("tournaments:my_official_ids"), {"game": "yugioh", "value": "abc"}, follow=True)
    assert "is not a Konami CARD GAME ID (for example 0012345678)" in bad.content.decode()
    client.post(reverse("tournaments:my_official_ids"), {"game": "yugioh", "value": "0012345678"})
    assert OfficialId.objects.get(user=user, game_slug="yugioh").value == "0012345678"
    assert Player.objects.get(pk=entry.pk).official_id == "0012345678"
    later = make_event(organizer, games["yugioh"], rounds=2, name="Next week")
    assert services.player_register(tournament=later, by=user).official_id == "0012345678"


def test_my_event_asks_for_a_missing_id_and_takes_it(client, games, organizer, user):
    event = make_event(organizer, games["yugioh"], rounds=2)
    entry = services.player_register(tournament=event, by=user)
    client.force_login(user)
    page = client.get(reverse("tournaments:my_event", args=[event.pk])).content.decode()
    assert 'data-testid="ask-official-id"' in page and "Your Konami CARD GAME ID" in page
    client.post(reverse("tournaments:player_official_id", args=[event.pk, entry.pk]), {"value": "0099887766"})
    page = client.get(reverse("tournaments:my_event", args=[event.pk])).content.decode()
    assert 'data-testid="my-official-id"' in page and "0099887766" in page


def test_joining_with_the_code_takes_the_id(client, games, organizer, user):
    event = make_event(organizer, games["yugioh"], rounds=2)
    client.force_login(user)
    url = reverse("tournaments:join_code", args=[event.join_code])
    assert 'data-testid="join-official-id"' in client.get(url).content.decode()
    refused = client.post(url, {"official_id": "not an id"})
    assert refused.status_code == 400 and not event.players.exists()
    client.post(url, {"official_id": "0012345678"})
    assert event.players.get(user=user).official_id == "0012345678"


def test_only_organizers_see_ids_on_printed_deck_lists(client, games, organizer, user, other_user):
    event = make_event(organizer, games["yugioh"], rounds=2)
    entry = services.player_register(tournament=event, by=user)
    services.player_official_id_set(player=entry, by=user, value="0012345678")
    url = reverse("tournaments:print", args=[event.pk, "decklists"])
    client.force_login(organizer)
    assert "0012345678" in client.get(url).content.decode()
    client.force_login(other_user)
    assert "0012345678" not in client.get(url).content.decode()


def test_the_standings_exports_carry_the_ids_for_organizers_only(client, games, organizer, user, other_user):
    event = make_event(organizer, games["yugioh"], rounds=1)
    entry = services.player_register(tournament=event, by=user)
    services.player_official_id_set(player=entry, by=organizer, value="0012345678")
    services.player_register(tournament=event, by=organizer, name="=HYPERLINK(1)")
    client.force_login(other_user)
    assert client.get(reverse("tournaments:standings_export", args=[event.pk, "csv"])).status_code == 403
    client.force_login(organizer)
    rows = list(
        csv.DictReader(
            io.StringIO(
                client.get(reverse("tournaments:standings_export", args=[event.pk, "csv"])).content.decode()
            )
        )
    )
    assert {r["name"]: r["official_id"] for r in rows} == {entry.name: "0012345678", "'=HYPERLINK(1)": ""}
    document = client.get(reverse("tournaments:standings_export", args=[event.pk, "json"])).json()
    assert document["event"]["official_id"] == "Konami CARD GAME ID"
    assert any(r["official_id"] == "0012345678" for r in document["standings"])
    assert client.get(reverse("tournaments:standings_export", args=[event.pk, "xml"])).status_code == 404


def test_the_id_pages_read_in_russian(client, user, games):
    client.force_login(user)
    client.cookies["django_language"] = "ru"
    assert "Мои ID игрока" in client.get(reverse("tournaments:my_official_ids")).content.decode()
