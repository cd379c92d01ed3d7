"""A player's deck is never used without them, and a private deck is never readable by anyone but its owner,
whatever path leads to it: every deck page and API route that takes a deck id, and every form and API body
that names a deck (a team's registration by the organizer, a player's registration by username, joining with
a code, the team check). The organizer registering someone else enters the list as a deck of their own."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import get_resolver

from tournaments.models import Player, Team

from ..tournaments.factories import make_card, make_deck

pytestmark = pytest.mark.django_db

SECRET = "Zyxwv Hidden Tech"


def _mtg_deck(owner, game, prefix: str, *, secret: bool = False, visibility: str = "private"):  # type: ignore[no-untyped-def]
    names = [f"{prefix} Card {i}" for i in range(13)] + ([SECRET] if secret else [f"{prefix} Card 13"])
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


@pytest.fixture
def scene(games, organizer, make_user, api_client_for):  # type: ignore[no-untyped-def]
    game = games["mtg"]
    owner = make_user("dora")
    for name in ("ann", "boris"):
        make_user(name)
    secret = _mtg_deck(owner, game, "Dora", secret=True)
    api = api_client_for(organizer)
    team = api.post("/api/tournaments/", {"name": "Trios", "game": "mtg", "format": "constructed", "team_size": 3,
                                          "deck_registration": True}, format="json").json()  # fmt: skip
    solo = api.post("/api/tournaments/", {"name": "Solo", "game": "mtg", "format": "constructed",
                                          "deck_registration": True}, format="json").json()  # fmt: skip
    return {"game": game, "owner": owner, "secret": secret, "api": api, "team": team["id"], "solo": solo,
            "organizer": organizer}  # fmt: skip


def _deck_routes() -> list[str]:
    """Every page and API route whose path takes a deck's id (found from the URL configuration, so a new
    route is walked without editing this test)."""
    routes: list[str] = []

    def walk(patterns, prefix: str = "") -> None:  # type: ignore[no-untyped-def]
        for p in patterns:
            route = prefix + str(p.pattern)
            if hasattr(p, "url_patterns"):
                walk(p.url_patterns, route)
            elif route.startswith(
                ("decks/", "api/^decks/", "collection/decks/", "api/collection/decks/")
            ) and ("pk>" in route or "deck_id>" in route):
                routes.append(route)

    walk(get_resolver().url_patterns)
    return routes


def _path(route: str, deck_id: int) -> str:
    path = route.replace("^", "").replace("$", "").replace("\\", "")
    for placeholder in ("(?P<pk>d+)", "<int:pk>"):
        path = path.replace(placeholder, str(deck_id))
    for placeholder in ("(?P<number>d+)", "<int:number>"):
        path = path.replace(placeholder, "1")
    return "/" + path.replace("<str:fmt>", "text")


def test_it_walks_every_deck_route_and_shows_a_private_deck_to_nobody_but_its_owner(scene, client, make_user):
    routes = _deck_routes()
    assert len(routes) >= 12, routes  # the pages and the API routes of a deck
    organizer = Client()
    organizer.force_login(scene["organizer"])
    stranger = Client()
    stranger.force_login(make_user("eve"))
    owner = Client()
    owner.force_login(scene["owner"])
    deck = scene["secret"]
    read_by_owner = 0
    for route in routes:
        path = _path(route, deck.pk)
        for who, c in (("anonymous", Client()), ("organizer", organizer), ("stranger", stranger)):
            for method in ("get", "post"):
                answer = getattr(c, method)(path)
                body = answer.content.decode(errors="replace")
                assert answer.status_code in (302, 400, 401, 403, 404, 405), (
                    who,
                    method,
                    path,
                    answer.status_code,
                )
                assert SECRET not in body and "Dora Brew" not in body, (who, method, path)
        if owner.get(path).status_code == 200:
            read_by_owner += 1
    # Deck ids given in the query: the comparison page and API (either side), as the stranger and organizer.
    mine = _mtg_deck(scene["organizer"], scene["game"], "Olga")
    for query in (f"a={deck.pk}&b={mine.pk}", f"a={mine.pk}&b={deck.pk}", f"a={deck.pk}&b={deck.pk}"):
        for path in (f"/decks/compare/?{query}", f"/api/decks/compare/?{query}"):
            for who, c in (("anonymous", Client()), ("organizer", organizer), ("stranger", stranger)):
                body = c.get(path).content.decode(errors="replace")
                assert SECRET not in body and "Dora Brew" not in body, (who, path)
    assert read_by_owner >= 5  # the walk reaches real pages: the owner reads them
    deck.refresh_from_db()
    assert deck.name == "Dora Brew" and deck.entries.count() == 15  # nothing changed it


def test_an_organizer_cannot_register_a_team_with_a_players_decks(scene, games):
    api, tid, game = scene["api"], scene["team"], scene["game"]
    ann = _mtg_deck(scene["owner"].__class__.objects.get(username="ann"), game, "Ann", visibility="public")
    boris = _mtg_deck(scene["owner"].__class__.objects.get(username="boris"), game, "Boris")
    body = {
        "name": "Blue Moon",
        "members": ["ann", "boris", "dora"],
        "decks": [ann.pk, boris.pk, scene["secret"].pk],
    }
    # The members' own decks: only asked for (each member accepts on their phone); nothing registered or read.
    asked = api.post(f"/api/tournaments/{tid}/teams/", body, format="json")
    assert asked.status_code == 202 and SECRET not in asked.content.decode()
    assert not Player.objects.filter(tournament_id=tid).exists()
    Team.objects.filter(tournament_id=tid).delete()
    # Someone else's deck for a member (here ann's for dora's seat) is refused outright.
    swapped = api.post(f"/api/tournaments/{tid}/teams/", {**body, "decks": [ann.pk, scene["secret"].pk, boris.pk]},
                       format="json")  # fmt: skip
    assert swapped.status_code == 400 and "decks" in swapped.json()
    # Even a public deck of a member is theirs: never registered for them without them.
    own = [_mtg_deck(scene["organizer"], game, f"Copy{i}") for i in range(2)]
    public = api.post(f"/api/tournaments/{tid}/teams/", {**body, "decks": [ann.pk, *[d.pk for d in own]]},
                      format="json")  # fmt: skip
    assert public.status_code == 400
    page = Client()
    page.force_login(scene["organizer"])
    form = {"name": "Blue Moon", "member_0": "ann", "member_1": "boris", "member_2": "dora",
            "deck_0": str(own[0].pk), "deck_1": str(own[1].pk), "deck_2": str(scene["secret"].pk)}  # fmt: skip
    answer = page.post(f"/tournaments/{tid}/teams/manage/", form)
    assert answer.status_code in (200, 400) and SECRET not in answer.content.decode()
    assert not Team.objects.exists() and not Player.objects.filter(tournament_id=tid).exists()
    # The organizer's own copies (entered by hand) are accepted.
    third = _mtg_deck(scene["organizer"], game, "Copy2")
    ok = api.post(f"/api/tournaments/{tid}/teams/", {**body, "decks": [d.pk for d in (*own, third)]},
                  format="json")  # fmt: skip
    assert ok.status_code == 201, ok.content
    assert Team.objects.count() == 1


def test_no_body_that_names_a_deck_registers_someone_elses(scene, api_client_for, make_user):
    api, solo, secret = scene["api"], scene["solo"], scene["secret"]
    public = _mtg_deck(scene["owner"], scene["game"], "Shown", visibility="public")
    for deck in (secret, public):
        # Her own deck named by the organizer: a request she answers on her phone; nothing is registered.
        by_name = api.post(f"/api/tournaments/{solo['id']}/players/", {"username": "dora", "deck": deck.pk},
                           format="json")  # fmt: skip
        assert by_name.status_code in (202, 409), by_name.content  # 409: her request is already open
        assert SECRET not in by_name.content.decode()
    # Her deck for another account: refused, and nothing of it shows.
    make_user("frank")
    for_frank = api.post(f"/api/tournaments/{solo['id']}/players/", {"username": "frank", "deck": secret.pk},
                         format="json")  # fmt: skip
    assert for_frank.status_code in (400, 403, 404) and SECRET not in for_frank.content.decode()
    eve = make_user("eve")
    code = solo.get("join_code") or ""
    assert code
    joined = api_client_for(eve).post(
        "/api/tournaments/join/", {"code": code, "deck": public.pk}, format="json"
    )
    assert joined.status_code in (400, 403, 404), joined.content
    hidden = api_client_for(eve).post(
        "/api/tournaments/join/", {"code": code, "deck": secret.pk}, format="json"
    )
    assert hidden.status_code in (400, 403, 404) and SECRET not in hidden.content.decode()
    page = Client()
    page.force_login(eve)
    form = page.post(f"/tournaments/join/{code}/", {"deck": secret.pk})
    assert form.status_code in (200, 400, 403, 404) and SECRET not in form.content.decode()
    own = _mtg_deck(eve, scene["game"], "Eve")
    check = api_client_for(eve).post("/api/tournaments/team-check/", {"deck": own.pk, "decks": [secret.pk]},
                                     format="json")  # fmt: skip
    assert check.status_code in (400, 403, 404) and SECRET not in check.content.decode()
    assert not Player.objects.filter(source_deck__in=[secret, public]).exists()
    for url in (f"/tournaments/{solo['id']}/decklists/", f"/api/tournaments/{solo['id']}/players/"):
        organizer = Client()
        organizer.force_login(scene["organizer"])
        assert SECRET not in organizer.get(url).content.decode()
