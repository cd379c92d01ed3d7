"""One name resolver for every text format: a real name always wins, then the spellings other
tools write (front faces, split separators, accents and apostrophes folded, set codes, tags, foil marks,
categories); several cards under one spelling are listed with the choices, never guessed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cards.models import Card
from decks.formats import parse_deck
from decks.resolve import deck_resolve
from decks.spelling import card_keys, fold, spellings, undecorated

pytestmark = pytest.mark.django_db


def _card(game: Any, external_id: str, name: str, **fields: Any) -> Card:
    values = {"identity": fields.pop("identity", name), "card_type": "creature", "subtypes": []}
    return Card.objects.create(
        game=game, external_id=external_id, name=name, search_name=name.casefold(), **(values | fields)
    )


def _resolve(game: Any, text: str, fmt: str = "constructed", kind: str | None = None) -> Any:
    return deck_resolve(game=game, parsed=parse_deck(text, kind), format_slug=fmt)


def _names(resolved: Any) -> list[tuple[str, str, int]]:
    return [(slug, card.name, n) for slug, lines in resolved.sections.items() for card, n in lines]


@pytest.fixture
def ygo_hash_names(games: dict[str, Any]) -> Any:
    """Real Yu-Gi-Oh! names that end in "#N", beside the card of the shorter name."""
    game = games["yugioh"]
    for code, name in [
        ("77585513", "Jinzo"),
        ("32809211", "Jinzo #7"),
        ("17658803", "Luster Dragon #2"),
        ("11091375", "Luster Dragon"),
        ("84834865", "Flying Kamakiri #1"),
    ]:
        _card(game, code, name, identity=code, card_type="monster", subtypes=["normal"], level=4)
    return game


@pytest.mark.parametrize("kind", ["text", "cod"])
def test_a_real_name_ending_in_hash_n_wins_over_the_id_picker(ygo_hash_names, kind):
    text = "Main\n2 Jinzo #7\n1 Luster Dragon #2\n1 Flying Kamakiri #1\n1 Jinzo\n"
    if kind == "cod":
        text = (
            '<cockatrice_deck version="1"><zone name="main"><card number="2" name="Jinzo #7"/>'
            '<card number="1" name="Luster Dragon #2"/><card number="1" name="Flying Kamakiri #1"/>'
            '<card number="1" name="Jinzo"/></zone></cockatrice_deck>'
        )
    resolved = _resolve(ygo_hash_names, text, "advanced", kind)
    assert resolved.ok, resolved.problems()
    assert sorted((c.external_id, n) for c, n in resolved.sections["main"]) == [
        ("17658803", 1), ("32809211", 2), ("77585513", 1), ("84834865", 1),
    ]  # fmt: skip


def test_the_picker_is_still_read_when_no_card_bears_the_whole_text(ygo_hash_names):
    resolved = _resolve(ygo_hash_names, "Main\n1 Jinzo (#77585513)\n1 Luster Dragon #11091375\n", "advanced")
    assert resolved.ok, resolved.problems()
    assert sorted(c.external_id for c, _n in resolved.sections["main"]) == ["11091375", "77585513"]


@pytest.fixture
def mtg(games: dict[str, Any], shared_data: Path) -> Any:
    from cards.services import cards_import

    game = games["mtg"]
    for path in sorted((shared_data / "mtg" / "cockatrice").glob("*.xml")):
        result = cards_import(game=game, data=path.read_bytes(), filename=path.name)
        assert result.ok, (path.name, result.errors[:3])
    return game


def test_front_faces_split_separators_and_folded_spellings_resolve(mtg):
    # Real ELD adventure cards; "Fae of Wishes // Granted" written the ways MTGO, Arena and others do.
    lines = [
        "1 Murderous Rider",  # the front face (Arena and MTGO write adventures so)
        "1 Bonecrusher Giant (ELD) 115",  # Arena's printing after the front face
        "1 Fae of Wishes/Granted",  # MTGO's split separator
        "1 Brazen Borrower /// Petty Theft",  # Cockatrice's old triple slash
        "1 Curious Pair // Treats to Share *F*",  # Moxfield foil mark
        "1 Flaxen Intruder #blink #!Value",  # Moxfield tags
        "1 Acclaimed Contender [ELD]",  # set in brackets
        "1 Ardenvale Tactician (eld) 1 [Tempo]",  # Archidekt: lower-case set, number, category
        "1 Beanstalk Giant ^Have,#37d67a^",  # Archidekt label
    ]
    resolved = _resolve(mtg, "Deck\n" + "\n".join(lines) + "\n")
    assert resolved.ok, resolved.problems()
    assert sorted(name for _slug, name, _n in _names(resolved)) == [
        "Acclaimed Contender",
        "Ardenvale Tactician // Dizzying Swoop",
        "Beanstalk Giant // Fertile Footsteps",
        "Bonecrusher Giant // Stomp",
        "Brazen Borrower // Petty Theft",
        "Curious Pair // Treats to Share",
        "Fae of Wishes // Granted",
        "Flaxen Intruder // Welcome Home",
        "Murderous Rider // Swift End",
    ]


def test_accents_ligatures_and_apostrophes_fold(games):
    game = games["mtg"]
    _card(game, "1", "Khazad-dûm")
    _card(game, "2", "Æther Vial")
    _card(game, "3", "Urza’s Saga")
    _card(game, "4", "Gaea's Cradle")
    resolved = _resolve(game, "Deck\n1 Khazad-dum\n1 Aether Vial\n1 Urza's Saga\n1 Gaea’s Cradle\n")
    assert resolved.ok, resolved.problems()
    assert sorted(name for _s, name, _n in _names(resolved)) == [
        "Gaea's Cradle", "Khazad-dûm", "Urza’s Saga", "Æther Vial",
    ]  # fmt: skip


def test_a_spelling_two_different_cards_share_is_listed_never_guessed(games):
    game = games["mtg"]
    _card(game, "1", "Réveillark")
    _card(game, "2", "Reveillark")
    _card(game, "3", "Fire // Ice")
    exact = _resolve(game, "Deck\n1 Reveillark\n")
    assert exact.ok and _names(exact) == [("main", "Reveillark", 1)]  # the exact name wins
    _card(game, "4", "Fire // Ice (Alt)", identity="Fire // Ice (Alt)")
    _card(game, "5", "Fire / Ice", identity="Fire / Ice")
    [problem] = _resolve(game, "Deck\n1 Fire/Ice\n").unknown
    assert problem.reason == "ambiguous"
    assert "Fire // Ice" in problem.message and "Fire / Ice" in problem.message


def test_an_unknown_spelling_is_still_unknown(mtg):
    [problem] = _resolve(mtg, "Deck\n1 Murderous Ryder\n").unknown
    assert problem.reason == "unknown" and problem.key == "resolve.unknown_name"


names = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=40).filter(str.strip)


@given(names)
def test_folding_is_stable_and_ignores_apostrophe_and_accent_spelling(name):
    key = fold(name)
    assert fold(key) == key
    assert fold(name.replace("'", "’")) == fold(name.replace("’", "'"))
    assert card_keys(name)[0] == key
    assert spellings(name)[0] == key


@given(names, st.sampled_from([" #ramp", " *F*", " [Removal]", " (ELD) 123", " [M20]", " ^Have,#37d67a^"]))
def test_decorations_come_off_a_name(name, decoration):
    name = name.strip()
    if undecorated(name) != name or not fold(name):
        return  # the name itself ends like a decoration, or is only marks: nothing to compare
    assert undecorated(name + decoration) == name
    assert fold(name) in spellings(name + decoration)
