"""Game 1 of a top-cut match: the higher seed chooses to play or draw (MTR 2.2) where the game's rule set says
so; the twin-deck game keeps its toss (g001 2.3: the toss winner goes first, then the loser of the previous game).
The phone, the match page and the API say the same, and nobody is told to toss where the seed decides."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from games.registry import default_registry
from tournaments import services

from .factories import make_event

pytestmark = pytest.mark.django_db


def _final(organizer, game, alice_user, bob_user):  # type: ignore[no-untyped-def]
    """A two-player event: alice wins the only Swiss round, so she is seed 1 of the final."""
    event = make_event(organizer, game, rounds=1, top_cut=2)
    alice = services.player_register(tournament=event, by=alice_user)
    bob = services.player_register(tournament=event, by=bob_user)
    swiss = services.round_pair_next(tournament=event, by=organizer).matches.get()
    wins = [2, 0] if swiss.seats.get(seat=0).player_id == alice.pk else [0, 2]
    services.match_report_result(match=swiss, by=organizer, wins=wins)
    final = services.topcut_start(tournament=event, by=organizer).matches.get()
    return event, final, alice, bob


def test_it_reads_the_cut_policy_from_the_rule_sets():
    registry = default_registry()
    assert registry.game("yugioh").top_cut_first_player == "higher_seed"
    assert registry.game("twindeck").top_cut_first_player == "toss"


def test_it_lets_the_higher_seed_choose_game_one_of_a_yugioh_final(
    games, organizer, user, other_user, api_client_for
):
    _event, final, alice, _bob = _final(organizer, games["yugioh"], user, other_user)
    assert final.chooser_id == alice.pk
    body = api_client_for(user).get(f"/api/matches/{final.pk}/").json()
    assert body["next_first"] == {"toss": False, "player": alice.pk, "action": "chooses"}


def test_it_tells_the_phones_who_chooses_and_never_to_toss(games, organizer, user, other_user, client):
    event, _final_match, _alice, _bob = _final(organizer, games["yugioh"], user, other_user)
    client.force_login(user)
    page = client.get(reverse("tournaments:my_event", args=[event.pk])).content.decode()
    assert "you are the higher seed, so you choose who goes first" in page
    assert "toss a coin" not in page
    client.force_login(other_user)
    with translation.override("ru"):
        page = client.get(reverse("tournaments:my_event", args=[event.pk]), HTTP_ACCEPT_LANGUAGE="ru").content
    text = page.decode()
    assert "более высокий посев" in text and "жереб" not in text.lower()


def test_it_records_the_higher_seed_as_the_chooser_and_refuses_another(
    games, organizer, user, other_user, api_client_for
):
    _event, final, alice, bob = _final(organizer, games["yugioh"], user, other_user)
    client = api_client_for(user)
    wrong = client.post(
        f"/api/matches/{final.pk}/games/", {"number": 1, "first": bob.pk, "winner": bob.pk, "chooser": bob.pk},
        format="json",
    )  # fmt: skip
    assert wrong.status_code == 400 and "higher seed" in str(wrong.json())
    # The seed may choose to go second; left out, the chooser is the one the rule names.
    saved = client.post(
        f"/api/matches/{final.pk}/games/", {"number": 1, "first": bob.pk, "winner": bob.pk}, format="json"
    ).json()
    assert saved["games"][0]["chooser"] == alice.pk
    # Game 2: the loser of game 1 (alice) chooses again.
    assert saved["next_first"] == {"toss": False, "player": alice.pk, "action": "chooses"}


def test_the_twin_deck_final_keeps_the_toss_and_the_loser_then_goes_first(
    games, organizer, user, other_user, api_client_for, client
):
    event, final, alice, bob = _final(organizer, games["twindeck"], user, other_user)
    api = api_client_for(user)
    body = api.get(f"/api/matches/{final.pk}/").json()
    assert body["next_first"] == {"toss": True, "player": None, "action": "goes_first"}
    client.force_login(organizer)
    match_page = client.get(reverse("tournaments:match", args=[final.pk])).content.decode()
    assert "higher seed" not in match_page
    client.force_login(user)
    phone = client.get(reverse("tournaments:my_event", args=[event.pk])).content.decode()
    assert "toss a coin; the winner goes first" in phone and "higher seed" not in phone
    # Nobody chooses in the twin-deck game: a reported chooser is refused, the toss winner goes first.
    refused = api.post(
        f"/api/matches/{final.pk}/games/", {"number": 1, "first": bob.pk, "winner": bob.pk, "chooser": bob.pk},
        format="json",
    )  # fmt: skip
    assert refused.status_code == 400 and "nobody chooses" in str(refused.json())
    one = api.post(
        f"/api/matches/{final.pk}/games/", {"number": 1, "first": bob.pk, "winner": bob.pk}, format="json"
    )
    assert one.json()["games"][0]["chooser"] is None
    assert one.json()["next_first"] == {"toss": False, "player": alice.pk, "action": "goes_first"}
    wrong = api.post(
        f"/api/matches/{final.pk}/games/", {"number": 2, "first": bob.pk, "winner": alice.pk}, format="json"
    )
    assert wrong.status_code == 400 and "loser of the previous game goes first" in str(wrong.json())


def test_the_match_page_and_the_slips_name_the_higher_seed(games, organizer, user, other_user, client):
    event, final, alice, _bob = _final(organizer, games["caster"], user, other_user)
    client.force_login(organizer)
    page = client.get(reverse("tournaments:match", args=[final.pk])).content.decode()
    assert f"{alice.name} (the higher seed) chooses to play or draw in game 1." in page
    slips = client.get(
        reverse("tournaments:print", args=[event.pk, "slips"]) + f"?round={final.round.number}"
    ).content.decode()
    assert 'data-testid="slip-cut-chooser"' in slips and alice.name in slips
