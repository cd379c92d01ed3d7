"""Partner commanders in tournament registration: a Frodo + Sam deck registers by deck id, pasted Arena
text and inline payload with both commanders kept; a pair the rules do not allow is refused naming both; the
registered list, its printable and a sideboard swap keep both."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError

from cards.models import Card
from decks.models import Deck, DeckCard
from tournaments import services
from tournaments.models import Player
from tournaments.printables import decklists

from .factories import make_event

pytestmark = pytest.mark.django_db

FRODO = "Frodo, Adventurous Hobbit"
SAM = "Sam, Loyal Attendant"


def _card(game: Any, name: str, *, kind: str = "creature", text: str = "", colors: str = "", legendary=False):
    attrs: dict[str, Any] = {"color": list(colors), "manacost": "".join(f"{{{c}}}" for c in colors)}
    if legendary:
        attrs["supertypes"] = ["legendary"]
    return Card.objects.create(game=game, external_id=name, identity=name, name=name, search_name=name.casefold(),
                               card_type=kind, attributes=attrs, text=text)  # fmt: skip


@pytest.fixture
def mtg(games: dict[str, Any]) -> Any:
    game = games["mtg"]
    _card(game, FRODO, text=f"Partner with {SAM}\nVigilance", colors="WB", legendary=True)
    _card(game, SAM, text=f"Partner with {FRODO}\nFood tokens", colors="G", legendary=True)
    _card(game, "Grima, Saruman's Footman", text="Partner with Saruman", colors="UB", legendary=True)
    for i in range(98):
        _card(game, f"Spell {i}", kind="instant", colors="WBG"[i % 3])
    _card(
        game, "Lurrus of the Dream-Den", text="Companion — Each permanent card …", colors="WB", legendary=True
    )
    _card(game, "Spare Spell", kind="instant", colors="W")
    return game


def _by_name(game: Any, name: str) -> Card:
    return Card.objects.get(game=game, name=name)


def _event(organizer: Any, game: Any) -> Any:
    return make_event(organizer, game, format_slug="commander", deck_registration=True, allow_sideboard=True)


def _deck(owner: Any, game: Any, partner: str = SAM) -> Deck:
    deck = Deck.objects.create(owner=owner, game=game, format_slug="commander", name="Fellowship",
                               hero=_by_name(game, FRODO))  # fmt: skip
    deck.co_heroes.set([_by_name(game, partner)])
    spells = Card.objects.filter(game=game, name__startswith="Spell ").order_by("id")
    DeckCard.objects.bulk_create(
        [DeckCard(deck=deck, section="main", card=c, count=1, position=i) for i, c in enumerate(spells)]
    )
    return deck


ARENA = f"Commander\n1 {FRODO}\n1 {SAM}\n\nDeck\n" + "".join(f"1 Spell {i}\n" for i in range(98))


def _submit(event: Any, by: Any, **kw: Any) -> Player:
    """Join, then register the list (pasted text or inline payload) as the registration page does."""
    player = services.player_register(tournament=event, by=by, name="" if by.username != "olga" else "Guest")
    return services.player_submit_deck(player=player, by=by, **kw)


def _heroes(snapshot: dict[str, Any]) -> list[str]:
    return [snapshot["hero"]["name"], *(e["name"] for e in snapshot.get("co_heroes", []))]


def test_a_builder_deck_registers_with_both_commanders(mtg, organizer, user, client):
    event = _event(organizer, mtg)
    player = services.player_register(tournament=event, by=user, deck=_deck(user, mtg))
    snapshot = Player.objects.get(pk=player.pk).deck
    assert _heroes(snapshot) == [FRODO, SAM]
    assert decklists.validate_snapshot(tournament=event, snapshot=snapshot)["legal"]
    client.force_login(organizer)
    for url in (f"/tournaments/{event.pk}/players/{player.pk}/list/", f"/tournaments/{event.pk}/decklists/"):
        page = client.get(url).content.decode()
        assert f"{FRODO} + {SAM}" in page, url
    client.force_login(user)
    mine = client.get(f"/tournaments/{event.pk}/me/").content.decode()
    assert 'data-testid="my-deck-hero"' in mine and f"{FRODO} + {SAM}" in mine
    client.cookies["django_language"] = "ru"
    assert "Командиры:</strong>" in client.get(f"/tournaments/{event.pk}/me/").content.decode()


def test_pasted_arena_text_registers_with_both_commanders(mtg, organizer, user):
    event = _event(organizer, mtg)
    player = _submit(event, user, text=ARENA)
    assert _heroes(Player.objects.get(pk=player.pk).deck) == [FRODO, SAM]


def test_an_inline_payload_registers_with_both_commanders(mtg, organizer, user):
    event = _event(organizer, mtg)
    spells = Card.objects.filter(game=mtg, name__startswith="Spell ")
    payload = {"hero": FRODO, "co_heroes": [_by_name(mtg, SAM).pk],
               "sections": {"main": [{"card": c.external_id, "count": 1} for c in spells]}}  # fmt: skip
    player = _submit(event, user, payload=payload)
    assert _heroes(Player.objects.get(pk=player.pk).deck) == [FRODO, SAM]
    with pytest.raises(ValidationError, match="co_heroes"):
        _submit(event, organizer, payload={**payload, "co_heroes": "Sam"})


def test_a_pair_the_rules_do_not_allow_is_refused_naming_both(mtg, organizer, user, other_user):
    event = _event(organizer, mtg)
    with pytest.raises(ValidationError) as refused:
        services.player_register(
            tournament=event, by=user, deck=_deck(user, mtg, partner="Grima, Saruman's Footman")
        )
    words = " ".join(refused.value.messages)
    assert FRODO in words and "Grima, Saruman's Footman" in words, words
    with pytest.raises(ValidationError) as pasted:
        _submit(event, other_user, text=ARENA.replace(SAM, "Grima, Saruman's Footman"))
    assert "Grima, Saruman's Footman" in " ".join(pasted.value.messages)
    assert not Player.objects.filter(tournament=event, deck__isnull=False).exists()


def test_the_printable_and_a_deck_check_keep_both_commanders(mtg, organizer, user, client):
    from tournaments.printables import documents as printables

    event = _event(organizer, mtg)
    player = services.player_register(tournament=event, by=user, deck=_deck(user, mtg))
    player.refresh_from_db()
    entry = printables.decklist_entries([player])[0]
    assert entry["hero"]["name"] == FRODO and [c["name"] for c in entry["co_heroes"]] == [SAM]
    client.force_login(organizer)
    html = client.get(f"/tournaments/{event.pk}/print/decklists/")
    assert html.status_code == 200 and f"{FRODO} + {SAM}" in html.content.decode()
    # The same list presented with the commanders in the other order is no difference; without Sam it is.
    same = ARENA.replace(f"1 {FRODO}\n1 {SAM}", f"1 {SAM}\n1 {FRODO}")
    assert printables.deck_check(event, player, same) == []
    spells = Card.objects.filter(game=mtg, name__startswith="Spell ")
    presented = decklists.snapshot_from_sections({"main": [(c, 1) for c in spells]}, _by_name(mtg, FRODO))
    diffs = decklists.compare_lists(player.deck, presented)
    assert diffs == [{"section": "hero", "card": SAM, "registered": 1, "presented": 0}]


def test_sideboarding_keeps_both_commanders(mtg, organizer, user):
    """Commander has no sideboard (its side section holds a companion only), so a swap is refused — with the
    deck unchanged, both commanders kept, and no word about the commanders: the engine judged the pair."""
    event = _event(organizer, mtg)
    deck = _deck(user, mtg)
    DeckCard.objects.create(deck=deck, section="side", card=_by_name(mtg, "Lurrus of the Dream-Den"), count=1)
    player = services.player_register(tournament=event, by=user, deck=deck)
    player.refresh_from_db()
    after, report = decklists.apply_swaps(
        tournament=event, snapshot=player.deck,
        swaps=[{"section": "main", "out": "Spell 0", "in": "Lurrus of the Dream-Den", "count": 1}],
    )  # fmt: skip
    assert _heroes(after) == [FRODO, SAM]
    assert {v["code"] for v in report["violations"]} == {"sideboard_swap"}, report["violations"]
