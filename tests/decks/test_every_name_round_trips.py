"""Property: every name in every game's card database survives the text and the Cockatrice .cod
export and comes back as the same card. The databases are the real community files of ../shared/data
(the whole 10,628-card YGOPro .cdb, four Cockatrice Magic sets, the Caster Chronicles XML) and the
sample sets of the games without a public list. The names are all taken, not sampled: the hard ones are
few ("Jinzo #7", names two different cards share, "X 0"), and a sample would miss them. Tokens and other
cards no deck may hold are left out: no deck list carries them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cards.models import Card
from decks.exporting import deck_list_of
from decks.formats import WRITERS, parse_deck
from decks.gamerules import format_info
from decks.models import Deck
from decks.resolve import deck_resolve

pytestmark = pytest.mark.django_db

SOURCES = {
    "yugioh": ["ygo/cdb/cards-2020-03-30.cdb"],
    "mtg": [
        "mtg/cockatrice/ELD.xml",
        "mtg/cockatrice/INR.xml",
        "mtg/cockatrice/M20.xml",
        "mtg/cockatrice/UNF.xml",
    ],
    "caster": ["caster/caster-chronicles.cockatrice.xml"],
}
SAMPLES = Path(__file__).resolve().parents[2] / "cards" / "samples"
CHUNK = 1500


def _load(game: Any, shared_data: Path) -> None:
    from cards.services import cards_import

    paths = [shared_data / p for p in SOURCES.get(game.slug, [])] or [SAMPLES / f"{game.slug}-sample.json"]
    for path in paths:
        result = cards_import(game=game, data=path.read_bytes(), filename=path.name)
        assert result.ok, (path.name, result.errors[:3])


@pytest.mark.parametrize("slug", ["yugioh", "mtg", "caster", "everseal", "twindeck"])
@pytest.mark.parametrize("fmt", ["text", "cod"])
def test_every_deck_card_name_comes_back_as_the_same_card(games, shared_data, user, slug, fmt):
    game = games[slug]
    _load(game, shared_data)
    info = format_info(slug, None)
    section = info.section_slugs[0]
    cards = list(Card.objects.filter(game=game, deck_buildable=True, is_token=False).order_by("pk"))
    assert cards
    names = set()
    lost = []
    for start in range(0, len(cards), CHUNK):
        chunk = cards[start : start + CHUNK]
        deck = Deck(owner=user, game=game, name="Every name", format_slug=info.slug)
        written = WRITERS[fmt](deck_list_of(deck, {section: [(card, 1) for card in chunk]}))
        resolved = deck_resolve(game=game, parsed=parse_deck(written, fmt), format_slug=info.slug)
        lost += [u.message for u in resolved.unknown] + resolved.errors
        back = {(card.identity, card.name) for card, _n in resolved.sections.get(section, [])}
        names |= back
        lost += [card.name for card in chunk if (card.identity, card.name) not in back]
    assert not lost, lost[:10]
    assert names == {(card.identity, card.name) for card in cards}
