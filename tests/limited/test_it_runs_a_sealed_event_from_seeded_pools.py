"""Sealed through the API: pools dealt from the seed (the same seed and entrants → the same pools), seen by
their player and the organizers only, decks judged against the pool, and the event played to the end."""

from __future__ import annotations

import pytest

from cards.models import Card
from tests.tournaments.factories import finish_round
from tournaments import services as tournament_services
from tournaments.models import Tournament

from .conftest import create_limited_event, sign_up

pytestmark = pytest.mark.django_db


def _event(api_client_for, make_user, organizer, prefix, seed=1234):
    client = api_client_for(organizer)
    answer = create_limited_event(
        client, {"kind": "sealed", "product": "td-sample", "packs": 5, "seed": seed}
    )
    assert answer.status_code == 201, answer.content
    data = answer.json()
    assert data["limited"]["seed"] == seed and data["limited"]["packs"] == 5
    players = sign_up(api_client_for, make_user, data["id"], data["join_code"], 12, prefix)
    dealt = client.post(f"/api/tournaments/{data['id']}/limited/deal/")
    assert dealt.status_code == 201 and dealt.json() == {"pools": 12}
    return data["id"], client, players


def _deck_from(pool: dict[str, int]) -> dict:
    backs = dict(Card.objects.filter(external_id__in=pool).values_list("external_id", "attributes__back"))
    creatures = [{"card": k, "count": n} for k, n in pool.items() if backs[k] == "red"]
    main = [{"card": k, "count": n} for k, n in pool.items() if backs[k] == "blue"]
    return {"sections": {"creatures": creatures, "main": main}}


def test_a_twelve_player_sealed_event_runs_from_pools_to_the_end(
    twindeck, api_client_for, make_user, organizer
):
    event_id, organizer_client, players = _event(api_client_for, make_user, organizer, "a")
    pools = []
    for _user, client, player_id in players:
        pool = client.get(f"/api/tournaments/{event_id}/pools/{player_id}/").json()
        assert sum(pool.values()) == 75  # five boosters of 15
        assert organizer_client.get(f"/api/tournaments/{event_id}/pools/{player_id}/").json() == pool
        pools.append(pool)
    # Nobody else's pool: another player is refused.
    other = players[1][1].get(f"/api/tournaments/{event_id}/pools/{players[0][2]}/")
    assert other.status_code == 403
    assert len({tuple(sorted(p.items())) for p in pools}) == 12  # twelve different pools

    # A deck with a card the pool does not hold: 400 naming it.
    _user, client, player_id = players[0]
    outside = next(c for c in Card.objects.filter(game=twindeck) if c.external_id not in pools[0])
    deck = _deck_from(pools[0])
    bad = {
        "sections": {
            **deck["sections"],
            "main": [*deck["sections"]["main"], {"card": outside.external_id, "count": 1}],
        }
    }
    refused = client.post(f"/api/tournaments/{event_id}/pools/{player_id}/deck/", bad, format="json")
    assert refused.status_code == 400 and outside.name in refused.content.decode()

    for (_user, client, player_id), pool in zip(players, pools, strict=True):
        answer = client.post(
            f"/api/tournaments/{event_id}/pools/{player_id}/deck/", _deck_from(pool), format="json"
        )
        assert answer.status_code == 201, answer.content

    tournament = Tournament.objects.get(pk=event_id)
    tournament_services.tournament_start(tournament=tournament, by=organizer)
    tournament.refresh_from_db()
    for _round in range(3):
        tournament_services.round_pair_next(tournament=tournament, by=organizer)
        finish_round(tournament, organizer)
    tournament_services.tournament_finish(tournament=tournament, by=organizer)
    assert Tournament.objects.get(pk=event_id).status == Tournament.Status.FINISHED

    # The same seed and entrants: the same pools, pool by pool, in a second event.
    second_id, second_client, second_players = _event(api_client_for, make_user, organizer, "b")
    again = [
        second_client.get(f"/api/tournaments/{second_id}/pools/{pid}/").json()
        for _u, _c, pid in second_players
    ]
    assert again == pools
    # Another seed, another pool 1 (generated as the dealing does, without a third event).
    from limited import services

    spec = services.booster_spec(tournament, "td-sample")
    assert services.sealed_pool(spec, services.booster_cards(tournament, spec), 1234, 0, 5) == pools[0]
    assert services.sealed_pool(spec, services.booster_cards(tournament, spec), 99, 0, 5) != pools[0]


def test_a_product_the_game_cannot_open_leaves_no_event(twindeck, api_client_for, organizer):
    client = api_client_for(organizer)
    before = Tournament.objects.count()
    unknown = create_limited_event(client, {"kind": "sealed", "product": "no-such-set"})
    assert (
        unknown.status_code == 422 and "no-such-set" in unknown.content.decode()
    )  # the game has no such product
    constructed = create_limited_event(client, {"kind": "sealed", "product": "td-sample"}, format="basic")
    assert constructed.status_code == 400 and "pool" in constructed.content.decode()
    bad_kind = create_limited_event(client, {"kind": "rochester", "product": "td-sample"})
    assert bad_kind.status_code == 400
    assert Tournament.objects.count() == before


def test_a_dealt_pool_is_frozen_for_its_player_and_an_organizer_may_change_it(
    twindeck, api_client_for, make_user, organizer
):
    from django.core.exceptions import ValidationError

    from tournaments.models import Player

    client = api_client_for(organizer)
    data = create_limited_event(
        client, {"kind": "sealed", "product": "td-sample", "packs": 2, "seed": 8}
    ).json()
    ((user, _c, player_id),) = sign_up(api_client_for, make_user, data["id"], data["join_code"], 1, "f")
    client.post(f"/api/tournaments/{data['id']}/limited/deal/")
    player = Player.objects.get(pk=player_id)
    dealt = player.pool
    other = {"sections": {"main": [{"card": "td-001", "count": 30}]}}
    with pytest.raises(ValidationError, match="frozen"):
        tournament_services.player_submit_pool(player=player, by=user, pool=other)
    assert Player.objects.get(pk=player_id).pool == dealt
    tournament_services.player_submit_pool(player=player, by=organizer, pool=other)
    assert Player.objects.get(pk=player_id).pool != dealt
