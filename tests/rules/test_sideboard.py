"""Sideboarding between games: swaps produce a new deck, re-validated; illegal swaps are named."""

from __future__ import annotations

from rules.engine import Deck, Swap, apply_sideboard

from .helpers import card, filler, fmt

ADV = fmt("yugioh", "advanced")
BASIC = fmt("twindeck", "basic")


def ygo_deck() -> Deck:
    side = [(card("Side Trap", card_type="trap"), 3), (card("Pendulum Guy", card_type="monster",
                                                                subtypes=("pendulum",)), 1)]  # fmt: skip
    return Deck(sections={"main": filler("Spell", 40, 3, card_type="spell"), "side": side})


def test_a_one_for_one_swap_keeps_the_side_count_and_stays_legal():
    registered = ygo_deck()
    new, report = apply_sideboard(
        registered, [Swap(section="main", out="Spell 0", into="Side Trap", count=2)], ADV
    )
    assert report.legal, report.to_dict()
    assert new.section_total("side") == 4 and new.section_total("main") == 40
    assert dict((c.name, n) for c, n in new.sections["main"])["Side Trap"] == 2
    assert registered.section_total("side") == 4 and "Side Trap" not in [
        c.name for c, _ in registered.sections["main"]
    ]


def test_siding_in_without_siding_out_breaks_the_side_count():
    _, report = apply_sideboard(ygo_deck(), [Swap(section="main", into="Side Trap")], ADV)
    codes = report.codes()
    assert "sideboard_swap" in codes
    swap = next(v for v in report.violations if v.code == "sideboard_swap")
    assert (swap.section, swap.count, swap.limit) == ("side", 3, 4)


def test_siding_out_a_card_that_is_not_there_is_refused_with_the_reason():
    _, report = apply_sideboard(ygo_deck(), [Swap(section="main", out="Pot of Greed", into="Side Trap")], ADV)
    v = next(v for v in report.violations if v.code == "sideboard_swap")
    assert "Pot of Greed" in v.message and v.limit == 0


def test_the_result_is_revalidated_in_full():
    _, report = apply_sideboard(ygo_deck(), [Swap(section="extra", into="Pendulum Guy")], ADV)
    assert "section_card_type" in report.codes()


def test_twin_deck_basic_keeps_16_40_16():
    red = filler("Goblin", 16, 4, card_type="creature", attributes={"back": "red"})
    spare_red = filler("Orc", 8, 4, card_type="creature", attributes={"back": "red"})
    blue = filler("Sword", 40, 4, card_type="weapon", attributes={"back": "blue"})
    spare_blue = filler("Axe", 8, 4, card_type="weapon", attributes={"back": "blue"})
    registered = Deck(sections={"creatures": red, "main": blue, "side": spare_red + spare_blue})
    _new, ok = apply_sideboard(
        registered, [Swap(section="creatures", out="Goblin 0", into="Orc 1", count=4)], BASIC
    )
    assert ok.legal, ok.to_dict()
    _, bad = apply_sideboard(registered, [Swap(section="main", out="Sword 0", into="Orc 1", count=1)], BASIC)
    # A red card in the main deck: the swap keeps sizes but the result is illegal, so it is refused.
    assert bad.codes() == ["section_card_type", "sideboard_swap"]
    _, uneven = apply_sideboard(registered, [Swap(section="main", into="Axe 0", count=2)], BASIC)
    assert sorted(set(uneven.codes())) == ["section_size", "sideboard_swap"]


def test_formats_without_a_sideboard_refuse_swaps():
    everseal = fmt("everseal", "standard")
    d = Deck(
        sections={"main": filler("Wolf", 30, 3, card_type="monster")}, hero=card("Aria", card_type="hero")
    )
    _, report = apply_sideboard(d, [Swap(section="main", out="Wolf 0", into="Wolf 1")], everseal)
    assert report.codes() == ["sideboard_swap"]


def test_a_refused_swap_changes_nothing_and_reports_only_its_own_reason():
    registered = ygo_deck()
    new, report = apply_sideboard(
        registered, [Swap(section="main", out="Spell 0", into="Pendulum Guy", count=2)], ADV
    )
    # Pendulum Guy: 1 in the side deck, 2 asked; Spell 0 must not have moved out half-way.
    assert report.codes() == ["sideboard_swap"]
    v = report.violations[0]
    assert (v.section, v.card, v.count, v.limit) == ("side", "Pendulum Guy", 2, 1)
    assert new.section_total("main") == 40 and new.section_total("side") == 4


def test_siding_out_counts_every_printing_of_a_name():
    art = card("Dark Magician", key="46986414", identity="46986414", card_type="monster")
    alt = card("Dark Magician", key="36996508", identity="46986414", card_type="monster")
    main = [*filler("Spell", 37, 3, card_type="spell"), (art, 2), (alt, 1)]
    d = Deck(sections={"main": main, "side": [(card("Side Trap", card_type="trap"), 3)]})
    new, report = apply_sideboard(
        d, [Swap(section="main", out="Dark Magician", into="Side Trap", count=3)], ADV
    )
    assert report.legal, report.to_dict()
    assert sorted((c.key, n) for c, n in new.sections["side"] if c.name == "Dark Magician") == [
        ("36996508", 1), ("46986414", 2),
    ]  # fmt: skip
    assert new.section_total("main") == 40 and new.section_total("side") == 3
