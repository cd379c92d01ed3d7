"""`load_demo` shows a legal deck of every deck game, under the ban list in effect today, with the real
shared data and with only the shipped samples, and rebuilds an illegal demo deck left by an older run."""

from __future__ import annotations

from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

pytestmark = pytest.mark.django_db

DECK_GAMES = {"yugioh", "everseal", "twindeck", "caster"}


@pytest.fixture(autouse=True)
def debug_on(settings: Any) -> None:
    # pytest-django runs with DEBUG off; load_demo is a development command that refuses without it.
    settings.DEBUG = True


@pytest.fixture
def samples_only(settings: Any, tmp_path: Path) -> None:
    settings.SHARED_DATA_DIR = tmp_path / "no-shared-data"


def load_demo() -> str:
    out = StringIO()
    call_command("load_demo", stdout=out)
    return out.getvalue()


def demo_decks() -> dict[str, Any]:
    """One demo deck per game: the first by name (Everseal has two, one per hero)."""
    from decks.models import Deck

    decks: dict[str, Any] = {}
    for deck in Deck.objects.filter(owner__username="demo").select_related("game").order_by("-name"):
        decks[deck.game.slug] = deck
    return decks


def test_every_demo_deck_is_legal_including_the_restricted_everseal_hero(samples_only: None) -> None:
    from decks.models import Deck

    load_demo()
    everseal = Deck.objects.filter(owner__username="demo", game__slug="everseal")
    assert {deck.hero.name for deck in everseal} == {"Странник", "Ледяная Хранительница"}
    for deck in Deck.objects.filter(owner__username="demo"):
        assert problems(deck) == [], f"{deck.game.slug} demo deck {deck.name!r} is not legal"
    guarded = everseal.get(hero__name="Ледяная Хранительница")
    assert not guarded.entries.filter(card__attributes__size="L").exists()


def problems(deck: Any) -> list[str]:
    """The rules engine's violations for the deck as saved, judged today (no pinned list or date)."""
    from decks.selectors import deck_sections
    from rules.services import deck_validate

    assert deck.banlist is None and deck.on_date is None, "a demo deck follows the list in effect today"
    report = deck_validate(
        game=deck.game, format_slug=deck.format_slug, sections=deck_sections(deck), hero=deck.hero
    )
    return [v.message for v in report.violations]


def copies_by_name(deck: Any) -> dict[str, int]:
    totals: dict[str, int] = {}
    for entry in deck.entries.select_related("card"):
        totals[entry.card.name] = totals.get(entry.card.name, 0) + entry.count
    return totals


def test_it_builds_a_legal_deck_of_every_deck_game_from_the_shared_data(shared_data: Path) -> None:
    from rules.models import BanList

    load_demo()
    decks = demo_decks()
    assert set(decks) == DECK_GAMES
    assert BanList.objects.filter(name="2026.05 TCG").exists()
    for slug, deck in decks.items():
        assert problems(deck) == [], f"{slug} demo deck {deck.name!r} is not legal"
    yugioh = copies_by_name(decks["yugioh"])
    # Forbidden on 2026.05 TCG, and two artworks of Dark Magician share one limit of 3.
    assert not {"Pot of Greed", "Graceful Charity", "Heavy Storm"} & set(yugioh)
    assert yugioh["Dark Magician"] <= 3


def test_it_builds_legal_decks_from_the_samples_when_the_shared_data_is_missing(samples_only: None) -> None:
    from rules.models import BanList

    out = load_demo()
    assert list(BanList.objects.values_list("name", flat=True)) == ["2024.01 Sample TCG"]
    decks = demo_decks()
    # Every deck game gets a demo deck from the shipped samples alone (Caster: 13 names x 4 >= 50).
    assert set(decks) == {"yugioh", "everseal", "twindeck", "caster"}
    assert "cannot make a legal" not in out
    for slug, deck in decks.items():
        assert problems(deck) == [], f"{slug} demo deck {deck.name!r} is not legal"
    yugioh = copies_by_name(decks["yugioh"])
    assert not {"Pot of Greed", "Graceful Charity", "Change of Heart"} & set(yugioh)
    assert yugioh["Dark Magician"] <= 3
    assert sum(e.count for e in decks["yugioh"].entries.filter(section="main")) >= 40


def test_it_rebuilds_an_illegal_demo_deck_from_an_older_run_as_a_new_version(samples_only: None) -> None:
    from cards.models import Card
    from decks.services import deck_update

    load_demo()
    deck = demo_decks()["yugioh"]
    magicians = list(Card.objects.filter(game=deck.game, name="Dark Magician").order_by("external_id"))
    pot = Card.objects.get(game=deck.game, name="Pot of Greed")
    filler = list(Card.objects.filter(game=deck.game, card_type="trap").order_by("external_id"))
    # What an older demo saved: 2 + 2 Dark Magician over two artworks and a forbidden card.
    old = [(magicians[0], 2), (magicians[1], 2), (pot, 1)] + [(c, 3) for c in filler[:4]]
    old += [(c, 2) for c in Card.objects.filter(game=deck.game, subtypes=["normal"], is_token=False)[:12]]
    deck_update(deck=deck, by=deck.owner, sections={"main": old}, message="old demo")
    assert problems(deck)
    versions = deck.versions.count()

    out = load_demo()

    deck.refresh_from_db()
    assert "'Demo: Yu-Gi-Oh! beatdown' was not legal, rebuilt as a new version" in out
    assert deck.versions.count() == versions + 1
    assert problems(deck) == []
    # Legal now, so the next run leaves it alone.
    load_demo()
    assert deck.versions.count() == versions + 1


def test_it_leaves_legal_demo_decks_alone_on_a_second_run(samples_only: None) -> None:
    from decks.models import Deck, DeckVersion

    load_demo()
    before = (Deck.objects.count(), DeckVersion.objects.count())
    out = load_demo()
    assert (Deck.objects.count(), DeckVersion.objects.count()) == before
    assert "'Demo: Yu-Gi-Oh! beatdown' exists, left alone" in out
