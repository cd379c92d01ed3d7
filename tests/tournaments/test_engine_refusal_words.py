"""The pairing and pod engines refuse with a message key and params; the organizer reads the reason in
their language (tournaments/pairings/refusals.py), never the engine's English."""

from __future__ import annotations

import pytest
from django.utils import translation

from tournaments.engine.pairing import PairingImpossible, PairingPlayer, pair_round
from tournaments.engine.pod_rounds import PodPlanImpossible, plan_pod_round
from tournaments.engine.pods import PodsImpossible, pod_sizes
from tournaments.pairings.refusals import reason


def _words(error: Exception) -> dict[str, str]:
    out = {}
    for lang in ("en", "ru"):
        with translation.override(lang):
            out[lang] = reason(error)
    return out


def test_a_pairing_nobody_can_get_a_bye_in_is_refused_in_the_organizers_language() -> None:
    players = [PairingPlayer(id=i, points=0, had_bye=True) for i in (1, 2, 3)]
    with pytest.raises(PairingImpossible) as refused:
        pair_round(players, round_number=4, seed=0)
    assert (refused.value.key, refused.value.params) == ("pairing.all_had_bye", {})
    assert _words(refused.value) == {
        "en": "odd number of players and every player has already had a bye",
        "ru": "игроков нечётное число, и каждый уже получал бай",
    }


def test_pod_refusals_carry_their_numbers_as_params() -> None:
    with pytest.raises(PodsImpossible) as too_few:
        pod_sizes(2, 3, 4)
    assert (too_few.value.key, too_few.value.params) == ("pods.too_few", {"players": 2, "min": 3})
    assert _words(too_few.value)["ru"] == "игроков: 2 — не хватает на стол хотя бы из 3"
    points = {1: 6, 2: 3, 3: 0, 4: 0, 5: 3}
    with pytest.raises(PodPlanImpossible) as no_bye:
        plan_pod_round(points, min_size=3, max_size=4, two_player_games=False, had_bye=set(points), seed=7)
    assert no_bye.value.params == {"players": 5, "min": 3, "max": 4, "eligible": 0}
    assert _words(no_bye.value)["ru"].startswith("игроков: 5 — их нельзя рассадить за столы по 3–4")


def test_an_error_without_a_known_key_keeps_its_own_text() -> None:
    assert reason(ValueError("invalid pod size range 4-3")) == "invalid pod size range 4-3"


def test_impossible_everseal_scores_are_refused_in_the_readers_language() -> None:
    from tournaments.engine.pods import EversealResult, PodResultError, everseal_places

    with pytest.raises(PodResultError) as refused:
        everseal_places(
            [EversealResult(1, 3), EversealResult(2, 3), EversealResult(3, 0), EversealResult(4, 0)]
        )
    assert refused.value.key == "pods.two_winners"
    assert _words(refused.value)["ru"] == (
        "победить всех соперников может только один игрок: партия заканчивается, когда это удаётся первому"
    )
    with pytest.raises(PodResultError) as too_many:
        everseal_places([EversealResult(7, 5), EversealResult(8, 0)])
    assert too_many.value.params == {"player": 7, "defeats": 5, "max": 1}
