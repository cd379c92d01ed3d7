"""The deck builder's team check (POST /api/tournaments/team-check/): a deck being edited against the teammates'
decks by the format's team rule (MTG's unified construction), naming the card and both decks; only a member
of the team sees the check against its registered decks."""

from __future__ import annotations

import pytest

from .factories import make_card, make_deck
from .test_it_runs_team_events import _mtg_deck, _team_event

pytestmark = pytest.mark.django_db
URL = "/api/tournaments/team-check/"


def _line(name: str, count: int = 4) -> dict:
    return {"card": name, "count": count}


def test_it_names_the_shared_card_and_both_decks_against_readable_decks(games, make_user, api_client_for):
    game = games["mtg"]
    ann, boris = make_user("ann"), make_user("boris")
    mine = _mtg_deck(ann, game, "Ann")
    theirs = _mtg_deck(boris, game, "Boris")
    theirs.visibility = "unlisted"
    theirs.save(update_fields=["visibility"])
    api = api_client_for(ann)
    clean = api.post(URL, {"deck": mine.pk, "decks": [theirs.pk]}, format="json")
    assert clean.status_code == 200, clean.content
    assert clean.json() == {
        "format": "constructed",
        "rule": True,
        "decks": ["Ann deck", "Boris deck"],
        "conflicts": [],
    }
    # The builder's unsaved lines: Ann adds Boris's card (and a basic land, which every deck may hold).
    sections = {"main": [_line("Ann Card 0"), _line("Boris Card 5"), _line("Mountain")]}
    answer = api.post(
        URL, {"deck": mine.pk, "decks": [theirs.pk], "sections": sections}, format="json"
    ).json()
    (conflict,) = answer["conflicts"]
    assert conflict["card"] == "Boris Card 5" and conflict["decks"] == ["Ann deck", "Boris deck"]
    assert "Boris Card 5" in conflict["message"] and "Ann deck" in conflict["message"]
    # In Russian too.
    ru = api.post(URL, {"deck": mine.pk, "decks": [theirs.pk], "sections": sections}, format="json",
                  HTTP_ACCEPT_LANGUAGE="ru").json()  # fmt: skip
    assert "Boris Card 5" in ru["conflicts"][0]["message"] and "колод" in ru["conflicts"][0]["message"]


def test_it_refuses_what_the_user_may_not_check(games, make_user, api_client_for, api_client):
    game = games["mtg"]
    ann, boris = make_user("ann"), make_user("boris")
    mine = _mtg_deck(ann, game, "Ann")
    private = _mtg_deck(boris, game, "Boris")  # private by default
    api = api_client_for(ann)
    assert api.post(URL, {"deck": mine.pk, "decks": [private.pk]}, format="json").status_code == 400
    assert api.post(URL, {"deck": mine.pk}, format="json").status_code == 400  # nothing to check against
    assert api.post(URL, {"deck": mine.pk, "decks": [mine.pk]}, format="json").status_code == 400
    # Someone else's deck cannot be the one checked.
    assert (
        api_client_for(boris).post(URL, {"deck": mine.pk, "decks": [private.pk]}, format="json").status_code
        == 404
    )
    assert api_client.post(URL, {"deck": mine.pk, "decks": [private.pk]}, format="json").status_code in (
        401,
        403,
    )
    bad = api.post(URL, {"deck": mine.pk, "decks": [private.pk + 999], "sections": {"main": [_line("No Such")]}},
                   format="json")  # fmt: skip
    assert bad.status_code == 400
    unknown = api.post(URL, {"deck": mine.pk, "decks": [mine.pk + 999], "sections": {"main": [_line("Nope")]}},
                       format="json")  # fmt: skip
    assert unknown.status_code == 400
    huge = {f"s{i}": [_line("Ann Card 0", 1)] * 30 for i in range(19)}
    too_big = api.post(URL, {"deck": mine.pk, "decks": [mine.pk + 999], "sections": huge}, format="json")
    assert too_big.status_code == 400 and "500" in str(too_big.json())


def test_a_member_checks_against_the_teammates_registered_decks(games, organizer, make_user, api_client_for):
    client, tid = _team_event(organizer, games, api_client_for)
    game = games["mtg"]
    ann, _boris, _chen = (make_user(n) for n in ("ann", "boris", "chen"))
    # The lists the organizer entered by hand (a player's own deck is never registered without them).
    a, b, c = (_mtg_deck(organizer, game, name) for name in ("Ann", "Boris", "Chen"))
    url = f"/api/tournaments/{tid}/teams/"
    made = client.post(url, {"name": "Blue Moon", "members": ["ann", "boris", "chen"], "decks": [a.pk, b.pk, c.pk]},
                       format="json")  # fmt: skip
    assert made.status_code == 201, made.content
    api = api_client_for(ann)
    events = api.get(URL).json()["events"]
    assert [(e["tournament"], e["team"], e["seat"], e["rule"]) for e in events] == [
        (tid, "Blue Moon", "A", True)
    ]
    assert [(m["seat"], m["deck"]) for m in events[0]["teammates"]] == [
        ("B", "Boris deck"),
        ("C", "Chen deck"),
    ]
    # Ann starts a new deck for the event and puts Chen's card in it.
    new = make_deck(ann, game, {"sections": {"main": []}}, format_slug="constructed", name="Ann v2")
    make_card(game, "Shared Spell", "Shared Spell", card_type="instant", attributes={"supertypes": []})
    sections = {"main": [_line("Chen Card 2"), _line("Shared Spell")]}
    answer = api.post(URL, {"deck": new.pk, "tournament": tid, "sections": sections}, format="json")
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["decks"] == ["Ann v2", "Boris deck", "Chen deck"]
    assert [(c["card"], c["decks"]) for c in body["conflicts"]] == [("Chen Card 2", ["Ann v2", "Chen deck"])]
    # A player not on the team may not read the team's decks through the check.
    dora = make_user("dora")
    hers = _mtg_deck(dora, game, "Dora")
    assert (
        api_client_for(dora).post(URL, {"deck": hers.pk, "tournament": tid}, format="json").status_code == 403
    )
    assert api_client_for(dora).get(URL).json() == {"events": []}
    # A deck of another game is refused by name.
    ygo = make_deck(ann, games["yugioh"], {"sections": {"main": []}}, name="Ygo")
    wrong = api.post(URL, {"deck": ygo.pk, "tournament": tid}, format="json")
    assert wrong.status_code == 400 and "another game" in str(wrong.json())


def test_a_format_without_a_team_rule_says_so(games, make_user, api_client_for):
    from .factories import ygo_cards, ygo_payload

    game = games["yugioh"]
    ann, boris = make_user("ann"), make_user("boris")
    cards = ygo_cards(game)
    mine = make_deck(ann, game, ygo_payload(cards), name="Mine")
    theirs = make_deck(boris, game, ygo_payload(cards), name="Theirs")
    theirs.visibility = "public"
    theirs.save(update_fields=["visibility"])
    body = api_client_for(ann).post(URL, {"deck": mine.pk, "decks": [theirs.pk]}, format="json").json()
    assert body["rule"] is False and body["conflicts"] == []
