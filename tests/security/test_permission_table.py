"""Permissions as a table: every API endpoint that writes (and the reads that guard private data) and
every writing HTML view, tried by each kind of visitor. A refused attempt must get the expected status
AND leave the database exactly as it was (re-read of every table an attempt could touch).

Each role's attempt runs inside a transaction that is rolled back afterwards, so one world serves the
whole row and an allowed write by one role cannot change what the next role sees.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.db import transaction
from django.test import Client
from rest_framework.test import APIClient

ROLES = ("anonymous", "player", "other_organizer", "organizer", "staff", "owner")
LOGIN = "login"  # HTML views send anonymous visitors to the log-in page
# The event pages refuse a non-organizer by redirecting back with an error message (no 403 page).
REFUSED_302 = "refused-302"


@dataclass(frozen=True)
class Row:
    method: str
    url: Callable[[dict[str, Any]], str]
    expected: dict[str, int | str]
    body: Callable[[dict[str, Any]], Any] | None = None
    api: bool = True
    multipart: bool = False

    @property
    def name(self) -> str:
        return f"{self.method.upper()} {self.url(_PLACEHOLDERS)}"


_PLACEHOLDERS = {"deck": "{deck}", "private": "{private}", "event": "{event}", "match": "{match}",
                 "player": "{player}", "card": "{card}"}  # fmt: skip


def _status(denied: int, allowed: int, *, allowed_roles: tuple[str, ...]) -> dict[str, int]:
    return {r: (allowed if r in allowed_roles else denied) for r in ROLES}


def owner_only(denied: int, allowed: int, anonymous: int | str = 403) -> dict[str, int | str]:
    return {**_status(denied, allowed, allowed_roles=("owner",)), "anonymous": anonymous}


def organizer_only(allowed: int, anonymous: int | str = 403, denied: int | str = 403) -> dict[str, int | str]:
    return {**_status(denied, allowed, allowed_roles=("organizer", "staff")), "anonymous": anonymous}


def any_user(allowed: int, anonymous: int | str = 403) -> dict[str, int | str]:
    return {**_status(allowed, allowed, allowed_roles=ROLES), "anonymous": anonymous}


def _card_upload(world: dict[str, Any]) -> dict[str, Any]:
    from django.core.files.uploadedfile import SimpleUploadedFile

    return {
        "game": "yugioh",
        "file": SimpleUploadedFile("c.json", b'{"format": "deckhall-cards", "cards": []}'),
    }


ROWS = [
    # --- decks API: the owner writes; others are refused (private decks are not even shown: 404)
    Row("get", lambda w: f"/api/decks/{w['private']}/", owner_only(404, 200, anonymous=404)),
    Row("get", lambda w: f"/api/decks/{w['private']}/export/", owner_only(404, 200, anonymous=404)),
    Row("get", lambda w: f"/api/decks/{w['private']}/versions/", owner_only(404, 200, anonymous=404)),
    Row("patch", lambda w: f"/api/decks/{w['deck']}/", owner_only(403, 200), lambda w: {"name": "taken"}),
    Row("put", lambda w: f"/api/decks/{w['deck']}/", owner_only(403, 200), lambda w: {"name": "taken"}),
    Row("patch", lambda w: f"/api/decks/{w['private']}/", owner_only(404, 200), lambda w: {"name": "taken"}),
    Row("delete", lambda w: f"/api/decks/{w['deck']}/", owner_only(403, 204)),
    Row("post", lambda w: f"/api/decks/{w['deck']}/versions/1/restore/", owner_only(403, 200)),
    Row("post", lambda w: f"/api/decks/{w['deck']}/copy/", any_user(201), lambda w: {}),
    Row("post", lambda w: f"/api/decks/{w['private']}/copy/", owner_only(404, 201), lambda w: {}),
    Row("post", lambda w: "/api/decks/", any_user(201), lambda w: {"game": "yugioh", "name": "New"}),
    Row(
        "post",
        lambda w: "/api/decks/import/",
        any_user(201),
        lambda w: {"game": "yugioh", "fmt": "ydk", "data": f"#main\n{w['card_external']}\n"},
        multipart=True,  # the import reads the multipart body its schema documents (a file upload)
    ),
    # --- card databases and ban lists: staff (and a game's card editors, none here)
    Row(
        "post",
        lambda w: "/api/cards/import/",
        {**_status(403, 202, allowed_roles=("staff",))},
        _card_upload,
        multipart=True,
    ),
    Row(
        "post",
        lambda w: "/api/banlists/import/",
        {**_status(403, 201, allowed_roles=("staff",))},
        lambda w: {
            "game": "yugioh",
            "text": "#[2026.01 TCG]\n!2026.01 TCG\n" + f"{w['card_external']} 1 --x\n",
        },
    ),
    # --- tournaments API: organizers create; the event's organizer (or staff) runs it
    Row(
        "post",
        lambda w: "/api/tournaments/",
        {**_status(403, 201, allowed_roles=("other_organizer", "organizer", "staff"))},
        lambda w: {"name": "Another", "game": "caster", "format": "standard"},
    ),
    Row("post", lambda w: f"/api/tournaments/{w['event']}/freeze/", organizer_only(200), lambda w: {}),
    # A running event cannot be finished yet: the organizer is refused by the event's state (400).
    Row("post", lambda w: f"/api/tournaments/{w['event']}/finish/", organizer_only(409), lambda w: {}),
    Row(
        "post",
        lambda w: f"/api/tournaments/{w['event']}/players/{w['player']}/drop/",
        organizer_only(200),
        lambda w: {},
    ),
    Row(
        "post",
        lambda w: f"/api/matches/{w['match']}/correct/",
        organizer_only(200),
        lambda w: {"wins": [2, 0], "reason": "table 1 misreported"},
    ),
    # --- phases and series: the event's organizer adds a phase; organizers create a series
    Row(
        "post",
        lambda w: f"/api/tournaments/{w['event']}/phases/",
        organizer_only(201),
        lambda w: {"kind": "swiss", "rounds": 1, "advance": {"min_points": 3}},
    ),
    Row(
        "post",
        lambda w: "/api/series/",
        {**_status(403, 201, allowed_roles=("other_organizer", "organizer", "staff"))},
        lambda w: {"name": "League", "game": "caster", "best_of": 3},
    ),
    # --- HTML views that write
    Row("post", lambda w: f"/decks/{w['deck']}/delete/", owner_only(403, 302, anonymous=LOGIN), api=False),
    Row(
        "post",
        lambda w: f"/decks/{w['deck']}/versions/1/restore/",
        owner_only(403, 302, anonymous=LOGIN),
        api=False,
    ),
    Row("get", lambda w: f"/decks/{w['deck']}/edit/", owner_only(403, 200, anonymous=LOGIN), api=False),
    Row("post", lambda w: f"/decks/{w['private']}/copy/", owner_only(404, 302, anonymous=LOGIN), api=False),
    Row(
        "post",
        lambda w: "/decks/new/",
        any_user(302, anonymous=LOGIN),
        lambda w: {"game": "yugioh", "name": "Page deck", "format_slug": "advanced", "visibility": "private"},
        api=False,
    ),
    Row(
        "get",
        lambda w: "/cards/import/",
        {**_status(403, 200, allowed_roles=("staff",)), "anonymous": LOGIN},
        api=False,
    ),
    Row(
        "post",
        lambda w: "/cards/import/",
        {**_status(403, 302, allowed_roles=("staff",)), "anonymous": LOGIN},
        _card_upload,
        api=False,
        multipart=True,
    ),
    Row(
        "post",
        lambda w: f"/tournaments/{w['event']}/freeze/",
        organizer_only(302, anonymous=LOGIN, denied=REFUSED_302),
        lambda w: {},
        api=False,
    ),
    Row(
        "post",
        lambda w: f"/tournaments/{w['event']}/finish/",
        organizer_only(302, anonymous=LOGIN, denied=REFUSED_302),
        lambda w: {},
        api=False,
    ),
    Row(
        "post",
        lambda w: f"/tournaments/{w['event']}/guests/",
        organizer_only(302, anonymous=LOGIN, denied=REFUSED_302),
        lambda w: {"name": "Walk-in"},
        api=False,
    ),
    Row(
        "post",
        lambda w: f"/tournaments/{w['event']}/players/{w['player']}/drop/",
        organizer_only(302, anonymous=LOGIN, denied=REFUSED_302),
        lambda w: {},
        api=False,
    ),
    Row(
        "post",
        lambda w: f"/tournaments/matches/{w['match']}/correct/",
        organizer_only(302, anonymous=LOGIN, denied=REFUSED_302),
        lambda w: {"wins": "2-0", "reason": "misreported"},
        api=False,
    ),
]


@pytest.fixture
def world(make_user: Any, games: Any) -> dict[str, Any]:
    from decks.services import deck_create
    from tests.tournaments.factories import make_card, make_event
    from tournaments import services

    owner = make_user("owner")
    users = {
        "player": make_user("bob"),
        "other_organizer": make_user("oscar", organizer=True),
        "organizer": make_user("olga", organizer=True),
        "owner": owner,
    }
    staff = make_user("root")
    staff.is_staff = True
    staff.save(update_fields=["is_staff"])
    users["staff"] = staff
    card = make_card(games["yugioh"], "89631139", "Blue-Eyes White Dragon", card_type="monster", level=8)
    deck = deck_create(owner=owner, game=games["yugioh"], name="Public", visibility="public",
                       sections={"main": [(card, 3)]})  # fmt: skip
    private = deck_create(owner=owner, game=games["yugioh"], name="Private", sections={"main": [(card, 2)]})
    make_event(users["other_organizer"], games["caster"], name="Elsewhere")
    event = make_event(users["organizer"], games["caster"], name="Here", rounds=3)
    for name in ("Zoe", "Анна", "Boris", "Mia"):
        services.player_register(tournament=event, by=users["organizer"], name=name)
    services.round_pair_next(tournament=event, by=users["organizer"])
    match = event.round_set.get(number=1).matches.filter(bye=False).order_by("table").first()
    return {
        "users": users, "deck": deck.pk, "private": private.pk, "event": event.pk, "match": match.pk,
        "player": event.players.order_by("pk").first().pk, "card": card.pk, "card_external": card.external_id,
    }  # fmt: skip


def _snapshot() -> dict[str, list[dict[str, Any]]]:
    from django.apps import apps

    labels = ["decks.Deck", "decks.DeckVersion", "decks.DeckCard", "cards.Card", "cards.ImportJob",
              "rules.BanList", "tournaments.Tournament", "tournaments.Player", "tournaments.Round",
              "tournaments.Match"]  # fmt: skip
    return {label: list(apps.get_model(label).objects.order_by("pk").values()) for label in labels}


def _attempt(row: Row, role: str, world: dict[str, Any]) -> Any:
    user = world["users"].get(role)
    url = row.url(world)
    body = row.body(world) if row.body else None
    if row.api:
        client = APIClient()
        if user is not None:
            client.force_authenticate(user)
        kwargs: dict[str, Any] = (
            {"format": "multipart" if row.multipart else "json"} if body is not None else {}
        )
        return (
            getattr(client, row.method)(url, body, **kwargs)
            if body is not None
            else getattr(client, row.method)(url)
        )
    client = Client()
    if user is not None:
        client.force_login(user)
    return getattr(client, row.method)(url, body or {})


def _matches(expected: int | str, response: Any) -> bool:
    if expected == LOGIN:
        return response.status_code == 302 and "/accounts/login/" in response["Location"]
    if expected == REFUSED_302:
        return response.status_code == 302
    return response.status_code == expected


@pytest.mark.parametrize("row", ROWS, ids=[row.name for row in ROWS])
def test_each_visitor_gets_the_expected_status_and_refusals_change_nothing(
    row: Row, world: dict[str, Any]
) -> None:
    before = _snapshot()
    wrong: dict[str, Any] = {}
    for role in ROLES:
        expected = row.expected[role]
        with transaction.atomic():
            response = _attempt(row, role, world)
            if not _matches(expected, response):
                wrong[role] = (expected, response.status_code)
            if expected in (LOGIN, REFUSED_302) or int(expected) >= 400:
                assert _snapshot() == before, (
                    f"{row.name} as {role}: refused ({response.status_code}) but wrote"
                )
            transaction.set_rollback(True)
    assert not wrong, f"{row.name}: role → (expected, got) {wrong}"


def test_the_table_covers_every_writing_api_operation() -> None:
    """Each unsafe API operation of the schema has a row (tournament operations besides the core ones
    are exercised by schemathesis for 5xx and documented statuses)."""
    print(f"\npermission table: {len(ROWS)} rows × {len(ROLES)} roles = {len(ROWS) * len(ROLES)} attempts")
    assert len(ROWS) * len(ROLES) >= 150
