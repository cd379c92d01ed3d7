"""Builders for tournament tests: cards, decks and events in the database (plain functions, not fixtures)."""

from __future__ import annotations

from typing import Any

from cards.models import Card, Game


def make_card(game: Game, external_id: str, name: str, **kw: Any) -> Card:
    card, _ = Card.objects.get_or_create(
        game=game,
        external_id=external_id,
        defaults={
            "identity": kw.pop("identity", external_id),
            "name": name,
            "search_name": name.casefold(),
            **kw,
        },
    )
    return card


def ygo_cards(game: Game) -> dict[str, list[Card]]:
    """14 main-deck monsters, 5 spells for the side deck, 1 Fusion monster."""
    main = [
        make_card(game, f"{1000 + i}", f"Test Monster {i}", card_type="monster", subtypes=["normal"], level=4)
        for i in range(14)
    ]
    side = [
        make_card(game, f"{2000 + i}", f"Side Spell {i}", card_type="spell", subtypes=["normal"])
        for i in range(5)
    ]
    extra = [make_card(game, "3000", "Test Fusion", card_type="monster", subtypes=["fusion"], level=6)]
    return {"main": main, "side": side, "extra": extra}


def ygo_payload(cards: dict[str, list[Card]], *, main_copies: int = 3) -> dict[str, Any]:
    """42 main (14×3), 1 extra, 6 side (3 spells × 2)."""
    return {
        "sections": {
            "main": [{"card": c.external_id, "count": main_copies} for c in cards["main"]],
            "extra": [{"card": cards["extra"][0].external_id, "count": 1}],
            "side": [{"card": c.external_id, "count": 2} for c in cards["side"][:3]],
        }
    }


def twindeck_cards(game: Game) -> dict[str, list[Card]]:
    creatures = [
        make_card(game, f"Creature {i}", f"Creature {i}", card_type="creature", attributes={"back": "red"})
        for i in range(8)
    ]
    main = [
        make_card(game, f"Spell {i}", f"Spell {i}", card_type="spell", attributes={"back": "blue"})
        for i in range(14)
    ]
    side = [
        make_card(game, f"Extra {i}", f"Extra {i}", card_type="spell", attributes={"back": "blue"})
        for i in range(8)
    ]
    return {"creatures": creatures, "main": main, "side": side}


def twindeck_payload(cards: dict[str, list[Card]]) -> dict[str, Any]:
    """Creatures 16 (8×2), main 40 (10×4), additional set 16 (8×2)."""
    return {
        "sections": {
            "creatures": [{"card": c.external_id, "count": 2} for c in cards["creatures"]],
            "main": [{"card": c.external_id, "count": 4} for c in cards["main"][:10]],
            "side": [{"card": c.external_id, "count": 2} for c in cards["side"]],
        }
    }


def make_deck(
    owner: Any, game: Game, payload: dict[str, Any], *, format_slug: str = "advanced", name: str = "Deck"
) -> Any:
    from decks.models import Deck, DeckCard

    deck = Deck.objects.create(owner=owner, game=game, format_slug=format_slug, name=name)
    by_ext = {c.external_id: c for c in Card.objects.filter(game=game)}
    rows = []
    for section, lines in payload["sections"].items():
        for pos, line in enumerate(lines):
            rows.append(
                DeckCard(
                    deck=deck,
                    section=section,
                    card=by_ext[str(line["card"])],
                    count=line["count"],
                    position=pos,
                )
            )
    DeckCard.objects.bulk_create(rows)
    return deck


def make_event(
    organizer: Any, game: Game, *, players: int = 0, format_slug: str | None = None, **kw: Any
) -> Any:
    from tournaments import services

    fmt = format_slug or {"yugioh": "advanced", "twindeck": "basic"}.get(game.slug, "standard")
    kw.setdefault("seed", 42)
    tournament = services.tournament_create(
        created_by=organizer, name=kw.pop("name", "Test Event"), game=game, format_slug=fmt, **kw
    )
    for i in range(players):
        services.player_register(tournament=tournament, by=organizer, name=f"Player {i + 1:02d}")
    return tournament


def finish_round(tournament: Any, by: Any, outcome: Any = None) -> None:
    """Enter a result for every open match of the latest round (default 2-0 for the first seat)."""
    from tournaments import services

    round_ = tournament.round_set.order_by("-number").first()
    for match in round_.matches.filter(bye=False, status="pending").order_by("table"):
        wins = outcome(match) if outcome else [2, 0]
        if isinstance(wins, dict):
            services.match_report_result(match=match, by=by, **wins)
        else:
            services.match_report_result(match=match, by=by, wins=wins)


def ydk_text(payload: dict[str, Any]) -> str:
    """The payload as a .ydk file (main, extra, side), as players paste it."""
    lines = []
    for section, header in (("main", "#main"), ("extra", "#extra"), ("side", "!side")):
        lines.append(header)
        for line in payload["sections"].get(section, []):
            lines.extend([str(line["card"])] * line["count"])
    return "\n".join(lines) + "\n"


def on_commit_signals(django_capture_on_commit_callbacks: Any, action: Any) -> list[str]:
    """Run ``action`` and return the ``what`` of every tournament_changed sent after its commit."""
    from tournaments import signals

    seen: list[str] = []

    def receiver(sender: Any, **kwargs: Any) -> None:
        seen.append(kwargs["what"])

    signals.tournament_changed.connect(receiver, weak=False)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            action()
    finally:
        signals.tournament_changed.disconnect(receiver)
    return seen
