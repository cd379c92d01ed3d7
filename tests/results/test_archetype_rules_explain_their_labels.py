"""Archetype rules as data: FILTER conditions with counts (main or side), variants after the parent, a
fallback by overlap with reference lists, two rules → review; a store's file is read by the classifier."""

from __future__ import annotations

from typing import Any

import pytest

from games.cards import CardInfo
from games.errors import RuleSetError
from results import services as results_services
from results.models import DeckArchetype
from results.rules_engine import classify, load_rulebook
from tests.tournaments.factories import make_card, make_event

BOOK = """
[[archetypes]]
name = "Blackwing"
when = [{ at_least = 6, of = { name = { contains = "Blackwing" } } }, { none_of = { name = "Raigeki" }, section = "side" }]
[[archetypes.variants]]
name = "Blackwing Zoo"
when = [{ at_least = 3, of = { name = ["Rescue Rabbit", "Gold Sarcophagus"] } }]

[[archetypes]]
name = "Beasts"
when = [{ at_least = 9, of = { type = "monster", race = "beast" } }]

[[archetype_references]]
name = "Normal Beatdown"
cards = { "Gene-Warped Warwolf" = 3, "Alexandrite Dragon" = 3, "Mystic Tomato" = 2 }
"""


def card(name: str, **attributes: Any) -> CardInfo:
    return CardInfo(key=name, name=name, card_type="monster", attributes=attributes)


def test_it_labels_by_rule_variant_or_overlap_and_says_why() -> None:
    book = load_rulebook(BOOK)
    wings = [(card("Blackwing - Gale"), 3, "main"), (card("Blackwing - Shura"), 3, "main")]
    label = classify(book, wings)
    assert (
        label.name == "Blackwing" and "at least 6 of {'name': {'contains': 'Blackwing'}} (main)" in label.rule
    )
    zoo = classify(book, [*wings, (card("Rescue Rabbit"), 3, "main")])
    assert zoo.name == "Blackwing Zoo" and "variant Blackwing Zoo" in zoo.rule
    # "none of … in the side": a side Raigeki breaks the rule; in the main deck it does not.
    assert classify(book, [*wings, (card("Raigeki"), 1, "side")]) is None
    assert classify(book, [*wings, (card("Raigeki"), 1, "main")]).name == "Blackwing"
    beasts = [
        (card("Blackwing - Gale", race="beast"), 6, "main"),
        (card("Rescue Rabbit", race="beast"), 3, "main"),
    ]
    two = classify(book, beasts)
    assert two.name == "" and two.candidates == ("Beasts", "Blackwing")
    beat = classify(book, [(card("Gene-Warped Warwolf"), 3, "main"), (card("Alexandrite Dragon"), 2, "main")])
    assert (
        beat.name == "Normal Beatdown" and beat.rule == "overlap 62% with the reference list Normal Beatdown"
    )
    assert (
        classify(book, [(card("Gene-Warped Warwolf"), 3, "main")]) is None
    )  # 38 %: below the fallback's bar


@pytest.mark.parametrize(
    "text",
    ["[[archetypes]]\nwhen = [{ of = { name = 'x' } }]", "[[archetypes]]\nname = 'x'\nwhen = [{ section = 'main' }]",
     "[[archetypes]]\nname = 'x'\nwhen = [{ of = { name = 'x' }, section = 'deck' }]", "[[archetypes]\n"],
)  # fmt: skip
def test_a_broken_rule_file_is_refused_by_name(text: str) -> None:
    with pytest.raises(RuleSetError):
        load_rulebook(text, "store.toml")


@pytest.mark.django_db
def test_a_stores_rule_file_labels_registered_decks(
    games: Any, organizer: Any, settings: Any, tmp_path: Any
) -> None:
    from tournaments import services

    (tmp_path / "yugioh.toml").write_text(BOOK)
    settings.DECKHALL_ARCHETYPE_DIRS = [str(tmp_path)]
    settings.SHARED_DATA_DIR = tmp_path  # no strings.conf: the rules alone
    results_services.ygo_setnames.cache_clear()
    game = games["yugioh"]
    wings = [make_card(game, f"{500 + i}", f"Blackwing {i}", card_type="monster", subtypes=["normal"], level=4)
             for i in range(14)]  # fmt: skip
    extra = make_card(game, "901", "Fusion", card_type="monster", subtypes=["fusion"], level=6)
    event = make_event(organizer, game, deck_registration=True)
    player = services.player_register(tournament=event, by=organizer, name="Wing")
    payload = {"sections": {"main": [{"card": c.external_id, "count": 3} for c in wings],
                            "extra": [{"card": extra.external_id, "count": 1}], "side": []}}  # fmt: skip
    services.player_submit_deck(player=player, by=organizer, payload=payload)
    labels = results_services.archetypes_classify(tournament=event)
    assert labels[player.pk].name == "Blackwing" and labels[player.pk].source == DeckArchetype.Source.RULE
    results_services.ygo_setnames.cache_clear()
