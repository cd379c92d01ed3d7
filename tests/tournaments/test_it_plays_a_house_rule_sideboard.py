"""An Everseal or Caster event that allows a sideboard as a house rule: the format gains a side section for that
event, so a deck with one registers (by payload, pasted list or a deck check), and swaps between games are judged
by the format's own rules (sizes, copy limits across deck + side). Without the house rule the same deck is
refused."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from games.registry import default_registry, with_house_sideboard
from tournaments import services
from tournaments.printables.decklists import snapshot_size

from .factories import make_card, make_event

pytestmark = pytest.mark.django_db


def _caster(game):  # type: ignore[no-untyped-def]
    deck = [make_card(game, f"C{i}", f"Servant {i}", card_type="servant") for i in range(13)]
    side = [make_card(game, f"S{i}", f"Answer {i}", card_type="servant") for i in range(3)]
    payload = {
        "sections": {
            "main": [{"card": c.external_id, "count": 4} for c in deck[:12]] + [{"card": "C12", "count": 2}],
            "side": [{"card": c.external_id, "count": 2} for c in side],
        }
    }
    return deck, side, payload


def _everseal(game):  # type: ignore[no-untyped-def]
    hero = make_card(game, "H1", "Hero One", card_type="hero")
    deck = [
        make_card(game, f"M{i}", f"Monster {i}", card_type="monster", attributes={"size": "S"})
        for i in range(10)
    ]
    side = [
        make_card(game, f"X{i}", f"Side Monster {i}", card_type="monster", attributes={"size": "S"})
        for i in range(2)
    ]
    payload = {
        "hero": "H1",
        "sections": {
            "main": [{"card": c.external_id, "count": 3} for c in deck],
            "side": [{"card": c.external_id, "count": 3} for c in side],
        },
    }
    return [hero, *deck], side, payload


BUILD = {"caster": _caster, "everseal": _everseal}


def _event(organizer, game, payload, **kw):  # type: ignore[no-untyped-def]
    event = make_event(organizer, game, deck_registration=True, rounds=2, **kw)
    for i in range(2):
        player = services.player_register(tournament=event, by=organizer, name=f"P{i}")
        services.player_submit_deck(player=player, by=organizer, payload=payload)
    return event


def test_the_house_rule_adds_a_side_section_to_a_format_without_one():
    fmt = default_registry().format("everseal", "standard")
    house = with_house_sideboard(fmt)
    assert fmt.sideboard is None and "side" not in fmt.section_map
    assert house.sideboard is not None and house.sideboard.section == "side"
    assert house.section_map["side"].size.max == 15
    assert all("side" in limit.scope for limit in house.copy_limits)
    yugioh = default_registry().format("yugioh", "advanced")
    assert with_house_sideboard(yugioh) is yugioh  # a game with its own sideboard keeps it


@pytest.mark.parametrize("slug", ["caster", "everseal"])
def test_a_deck_with_a_side_section_registers_and_swaps(games, organizer, slug):
    deck, side, payload = BUILD[slug](games[slug])
    event = _event(organizer, games[slug], payload, allow_sideboard=True)
    match = services.round_pair_next(tournament=event, by=organizer).matches.get()
    player = match.seats.get(seat=0).player
    out_card = deck[1] if slug == "everseal" else deck[0]
    change = services.match_sideboard(
        match=match, player=player, by=organizer, game_number=2,
        swaps=[{"section": "main", "out": out_card.external_id, "in": side[0].external_id, "count": 2}],
    )  # fmt: skip
    assert change.report["legal"]
    sizes = snapshot_size(change.deck)
    assert (
        sizes["main"] == snapshot_size(player.deck)["main"]
        and sizes["side"] == snapshot_size(player.deck)["side"]
    )
    options = services.sideboard_options(match=match, player=player, by=organizer)
    assert options["side_section"] == "side"
    assert {line["external_id"]: line["count"] for line in options["side"]}[out_card.external_id] == 2


def test_swaps_still_follow_the_format_rules(games, organizer):
    _deck, side, payload = _caster(games["caster"])
    event = _event(organizer, games["caster"], payload, allow_sideboard=True)
    match = services.round_pair_next(tournament=event, by=organizer).matches.get()
    player = match.seats.get(seat=0).player
    # Caster decks are exactly 50 cards: bringing a card in without taking one out is refused.
    with pytest.raises(ValidationError, match="not allowed"):
        services.match_sideboard(
            match=match, player=player, by=organizer, game_number=2,
            swaps=[{"section": "main", "in": side[0].external_id, "count": 1}],
        )  # fmt: skip


def test_without_the_house_rule_the_side_section_is_refused(games, organizer):
    _deck, _side, payload = _caster(games["caster"])
    event = make_event(organizer, games["caster"], deck_registration=True, rounds=2)
    player = services.player_register(tournament=event, by=organizer, name="P")
    with pytest.raises(ValidationError, match="not legal"):
        services.player_submit_deck(player=player, by=organizer, payload=payload)


def test_the_copy_limit_counts_the_side_section(games, organizer):
    deck, _side, payload = _caster(games["caster"])
    payload["sections"]["side"].append({"card": deck[0].external_id, "count": 1})  # a fifth Servant 0
    event = make_event(organizer, games["caster"], deck_registration=True, rounds=2, allow_sideboard=True)
    player = services.player_register(tournament=event, by=organizer, name="P")
    with pytest.raises(ValidationError, match="not legal"):
        services.player_submit_deck(player=player, by=organizer, payload=payload)


def test_a_pasted_list_with_a_sideboard_joins_the_event(games, organizer, user, client):
    deck, side, _payload = _caster(games["caster"])
    event = make_event(organizer, games["caster"], deck_registration=True, rounds=2, allow_sideboard=True)
    text = "\n".join(f"4 {c.name}" for c in deck[:12]) + f"\n2 {deck[12].name}\n\nSideboard\n"
    text += "\n".join(f"2 {c.name}" for c in side) + "\n"
    client.force_login(user)
    client.post(reverse("tournaments:join_code", args=[event.join_code]), {"deck_text": text})
    player = event.players.get(user=user)
    assert player.deck is not None and snapshot_size(player.deck) == {"main": 50, "side": 6}
