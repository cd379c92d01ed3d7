"""Every player's registered list prints in the game's own section order (Main, Extra, Side), as the deck
page and the exports do — never alphabetically (which would put Extra before Main)."""

from __future__ import annotations

from types import SimpleNamespace

from tournaments.printables.documents import snapshot_entry


def _line(name: str) -> dict[str, object]:
    return {"card_id": 1, "external_id": "1", "name": name, "count": 1}


def test_it_lists_a_yugioh_snapshot_main_extra_side() -> None:
    snapshot = {"sections": {"extra": [_line("E")], "main": [_line("M")], "side": [_line("S")]}}
    entry = snapshot_entry(snapshot, game_slug="yugioh", format_slug="advanced")
    assert [section["slug"] for section in entry["sections"]] == ["main", "extra", "side"]


def test_it_keeps_the_stored_order_when_the_game_is_not_given() -> None:
    snapshot = {"sections": {"extra": [_line("E")], "main": [_line("M")]}}
    assert [s["slug"] for s in snapshot_entry(snapshot)["sections"]] == ["extra", "main"]


def test_it_orders_each_players_list_in_decklist_entries() -> None:
    from tournaments.printables import documents as printables

    tournament = SimpleNamespace(game=SimpleNamespace(slug="yugioh"), format_slug="advanced")
    player = SimpleNamespace(
        tournament_id=1,
        tournament=tournament,
        deck={"sections": {"side": [_line("S")], "extra": [_line("E")], "main": [_line("M")]}},
    )
    entries = printables.decklist_entries([player])
    assert [s["slug"] for s in entries[0]["sections"]] == ["main", "extra", "side"]
