"""Sign-up, the join screen and join-code look-ups are throttled per client address, in the database;
anonymous visitors cannot tell known codes from unknown ones; an event's id alone does not let anyone in
(25 anonymous accounts in a row, 205 join pages a second, 404 vs 200 on codes, and joining an
open event by its id without its code)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from accounts.models import User
from tournaments.models import Player

from ..tournaments.factories import make_event

pytestmark = pytest.mark.django_db


def _signup(client: Client, number: int) -> Any:
    password = "Lotus-Petal-77"
    data = {"username": f"new{number}", "password1": password, "password2": password}
    return client.post(reverse("accounts:signup"), data)


def test_sign_ups_from_one_address_stop_at_the_limit_and_cache_clears_do_not_reset_it(settings: Any) -> None:
    settings.SIGNUP_THROTTLE_RATE = "3/hour"
    client = Client(REMOTE_ADDR="198.51.100.20")
    codes = []
    for number in range(5):
        client.logout()
        codes.append(_signup(client, number).status_code)
        cache.clear()
    assert codes == [302, 302, 302, 429, 429]
    assert User.objects.filter(username__startswith="new").count() == 3
    other = Client(REMOTE_ADDR="203.0.113.5")
    assert _signup(other, 9).status_code == 302


def test_the_join_screen_counts_look_ups_and_sign_ups_per_address(
    settings: Any, games: Any, organizer: Any
) -> None:
    settings.JOIN_THROTTLE_RATE = "5/min"
    settings.SIGNUP_THROTTLE_RATE = "2/hour"
    event = make_event(organizer, games["caster"])
    client = Client(REMOTE_ADDR="198.51.100.21")
    looks = [client.get(f"/tournaments/join/AAAA{i:02d}/").status_code for i in range(6)]
    assert looks == [200] * 5 + [429]
    refused = client.get(f"/tournaments/join/{event.join_code}/")
    assert refused.status_code == 429 and refused["Retry-After"]

    newcomer = Client(REMOTE_ADDR="198.51.100.22")
    password = "Lotus-Petal-77"
    statuses = []
    for number in range(3):
        newcomer.logout()
        data = {"username": f"walkin{number}", "password1": password, "password2": password}
        statuses.append(newcomer.post(f"/tournaments/join/{event.join_code}/", data).status_code)
    assert statuses == [302, 302, 429]
    assert Player.objects.filter(tournament=event).count() == 2


def test_anonymous_visitors_get_the_same_answer_for_known_and_unknown_codes(
    games: Any, organizer: Any
) -> None:
    event = make_event(organizer, games["caster"], name="Secret Cup")
    client = Client()
    known = client.get(f"/tournaments/join/{event.join_code}/")
    unknown = client.get("/tournaments/join/ZZZZZZ/")
    assert known.status_code == unknown.status_code == 200
    assert "Secret Cup" not in known.content.decode()
    assert known.templates[0].name == unknown.templates[0].name


def test_joining_an_open_event_by_its_id_needs_its_code(
    games: Any, organizer: Any, user: Any, api_client_for: Any
) -> None:
    event = make_event(organizer, games["caster"])
    api = api_client_for(user)
    refused = api.post(f"/api/tournaments/{event.pk}/players/", {}, format="json")
    wrong = api.post(f"/api/tournaments/{event.pk}/players/", {"code": "ZZZZZZ"}, format="json")
    assert refused.status_code == wrong.status_code == 403
    page = Client()
    page.force_login(user)
    page.post(reverse("tournaments:join", args=[event.pk]), {})
    assert not Player.objects.filter(tournament=event).exists()
    page.post(reverse("tournaments:join", args=[event.pk]), {"code": event.join_code.lower()})
    assert Player.objects.filter(tournament=event, user=user).count() == 1
    # The organizer needs no code to add a guest.
    guest = api_client_for(organizer).post(
        f"/api/tournaments/{event.pk}/players/", {"name": "Gwen"}, format="json"
    )
    assert guest.status_code == 201
