"""Every shared real deck goes out through every export format and comes back as the same cards: by
identity for every format, by printing too for .ydk, ydke, JSON and CSV (they carry passcodes)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from django.db import models

from decks.formats import parse_deck
from decks.selectors import deck_sections
from decks.services import deck_export, deck_import

pytestmark = pytest.mark.django_db

FORMATS = ("ydk", "ydke", "text", "csv", "json", "cod")
BY_PRINTING = {"ydk", "ydke", "csv", "json"}


@pytest.fixture
def full_ygo_database(shared_data: Path, games):  # type: ignore[no-untyped-def]
    from cards.services import cards_import

    cdb = shared_data / "ygo" / "cdb" / "cards-2020-03-30.cdb"
    result = cards_import(game=games["yugioh"], data=cdb.read_bytes(), filename=cdb.name)
    assert result.ok, result.errors[:5]
    return games["yugioh"]


def _cards(deck, key):  # type: ignore[no-untyped-def]
    counted: dict[str, Counter[str]] = {}
    for slug, lines in deck_sections(deck).items():
        for card, count in lines:
            counted.setdefault(slug, Counter())[key(card)] += count
    return counted


def _alternate_artworks_ydk(game) -> bytes:  # type: ignore[no-untyped-def]
    """A deck of alternate artworks (Dark Magician's among them, whose name a token shares): the cards
    whose names stand for several printings, the case name look-ups must get right."""
    from cards.models import Card

    alternates = Card.objects.filter(game=game, deck_buildable=True, is_token=False).exclude(
        external_id=models.F("identity")
    )
    extra_kinds = {"fusion", "synchro", "xyz", "link"}
    main = [c.external_id for c in alternates if not extra_kinds & set(c.subtypes)][:40]
    extra = [c.external_id for c in alternates if extra_kinds & set(c.subtypes)][:15]
    assert "46986415" in main
    return ("#main\n" + "\n".join(main) + "\n#extra\n" + "\n".join(extra) + "\n!side\n").encode()


def test_it_round_trips_every_shared_deck_through_every_format(full_ygo_database, shared_data, user) -> None:
    paths = sorted((shared_data / "ygo" / "ydk").glob("*.ydk"))
    assert paths, "no shared .ydk decks"
    decks = [(path.name, path.read_bytes()) for path in paths]
    decks.append(("alternate-artworks.ydk", _alternate_artworks_ydk(full_ygo_database)))
    for name, data in decks:
        # Cards newer than the 2020 database are left out (and listed); the rest must survive every trip.
        original = deck_import(
            owner=user, game=full_ygo_database, data=data, filename=name, allow_unknown=True
        ).deck
        identities = _cards(original, lambda card: card.identity)
        printings = _cards(original, lambda card: card.external_id)
        for fmt in FORMATS:
            exported = deck_export(deck=original, fmt=fmt)
            text = exported.content if isinstance(exported.content, str) else exported.content.decode()
            again = deck_import(
                owner=user, game=full_ygo_database, data=text, fmt=fmt, format_slug="advanced"
            )
            assert not again.unknown, (name, fmt, [u.message for u in again.unknown][:3])
            assert _cards(again.deck, lambda card: card.identity) == identities, (name, fmt)
            if fmt in BY_PRINTING:
                assert _cards(again.deck, lambda card: card.external_id) == printings, (name, fmt)


def test_it_writes_sections_in_the_games_order_in_every_format(sample_cards, user, card) -> None:
    from decks.services import deck_create

    deck = deck_create(
        owner=user,
        game=sample_cards["yugioh"],
        name="Order",
        format_slug="advanced",
        # Added side first, then extra, then main: the exports still read Main, Extra, Side.
        sections={
            "side": [(card("yugioh", "Mirror Force"), 1)],
            "extra": [(card("yugioh", "Stardust Dragon"), 1)],
            "main": [(card("yugioh", "Pot of Greed"), 1)],
        },
    )
    for fmt in ("text", "csv", "json", "cod"):
        content = deck_export(deck=deck, fmt=fmt).content
        content = content if isinstance(content, str) else content.decode()
        assert list(parse_deck(content, fmt=fmt).sections) == ["main", "extra", "side"], fmt


@pytest.mark.parametrize("game_slug", ["everseal", "twindeck", "caster"])
def test_it_round_trips_the_demo_deck_of_every_other_game_through_its_formats(game_slug, games, user) -> None:
    """Heroes, twin decks and Caster levels survive every format those games can be written in."""
    import io

    from cards import demo as cards_demo
    from decks import demo as decks_demo
    from decks.models import Deck

    cards_demo.load(io.StringIO())
    decks_demo.load(io.StringIO())
    original = Deck.objects.filter(owner__username="demo", game__slug=game_slug).order_by("name").first()
    identities = _cards(original, lambda card: card.identity)
    printings = _cards(original, lambda card: card.external_id)
    for fmt in ("text", "csv", "json", "cod"):
        content = deck_export(deck=original, fmt=fmt).content.decode()
        again = deck_import(
            owner=user, game=games[game_slug], data=content, fmt=fmt, format_slug=original.format_slug
        ).deck
        assert _cards(again, lambda card: card.identity) == identities, fmt
        assert (again.hero_id, again.format_slug) == (original.hero_id, original.format_slug), fmt
        if fmt in BY_PRINTING:
            assert _cards(again, lambda card: card.external_id) == printings, fmt
