"""A refused sideboard swap changes nothing and says every reason, `sideboard_swap` always among them;
limited twin-deck swaps work within the registered pool.

Rule texts (shared/rules/): Yu-Gi-Oh! side deck swaps are one for one (yugioh.ru.txt, side deck 0–15, the
digest's "the side deck keeps its size"); g001 1.1 / 1.2 (red backs in the creature deck, blue backs in the
main deck), 1.1.1 / 1.2.1 / 1.5.1 (basic: 16 / 40 / 16 or none), 1.5.2 (limited: the additional set is every
card received at the event), 3.8 (after a game a player may swap any number of cards between the decks
and the additional set).
"""

from __future__ import annotations

import pytest

from rules.engine import Deck, Swap, apply_sideboard

from .helpers import card, filler, fmt

ADV = fmt("yugioh", "advanced")
BASIC = fmt("twindeck", "basic")
LIMITED = fmt("twindeck", "limited")


def snapshot(deck: Deck) -> dict[str, list[tuple[str, int]]]:
    return {slug: [(c.key, n) for c, n in entries] for slug, entries in deck.sections.items()}


def ygo_deck() -> Deck:
    link = card("Link Guy", card_type="monster", subtypes=("link",))
    side = [(card("Side Trap", card_type="trap"), 3), (link, 2)]
    return Deck(sections={"main": filler("Spell", 40, 3, card_type="spell"), "side": side})


def twin_deck() -> Deck:
    red = filler("Goblin", 16, 4, card_type="creature", attributes={"back": "red"})
    blue = filler("Sword", 40, 4, card_type="weapon", attributes={"back": "blue"})
    spare = filler("Orc", 8, 4, card_type="creature", attributes={"back": "red"}) + filler(
        "Axe", 8, 4, card_type="weapon", attributes={"back": "blue"}
    )
    return Deck(sections={"creatures": red, "main": blue, "side": spare})


REFUSED = [
    pytest.param(
        ygo_deck,
        ADV,
        [
            Swap(section="main", out="Spell 0", count=2),
            Swap(section="main", into="Side Trap", count=1),
        ],
        {"section_size", "sideboard_swap"},
        id="ygo-out-2-in-1",
    ),
    pytest.param(
        ygo_deck,
        ADV,
        [Swap(section="main", out="Spell 0", into="Link Guy", count=1)],
        {"section_card_type", "sideboard_swap"},
        id="ygo-link-into-main",
    ),
    pytest.param(
        twin_deck,
        BASIC,
        [Swap(section="main", into="Axe 0", count=2)],
        {"section_size", "sideboard_swap"},
        id="g001-breaks-16-40-16",
    ),
    pytest.param(
        twin_deck,
        BASIC,
        [Swap(section="main", out="Sword 0", into="Orc 1", count=1)],
        {"section_card_type", "sideboard_swap"},
        id="g001-red-back-into-main",
    ),
    pytest.param(
        ygo_deck,
        ADV,
        [Swap(section="main", out="Pot of Greed", into="Side Trap")],
        {"sideboard_swap"},
        id="missing-card",
    ),
]


@pytest.mark.parametrize(("build", "rules", "swaps", "codes"), REFUSED)
def test_it_returns_a_refused_swap_unchanged_with_all_its_reasons(build, rules, swaps, codes):
    """yugioh side deck one-for-one; g001 1.1, 1.2, 1.1.1, 1.2.1, 1.5.1: every refusal leaves the deck as it was."""
    registered = build()
    before = snapshot(registered)
    new, report = apply_sideboard(registered, swaps, rules)
    assert not report.legal
    assert set(report.codes()) == codes
    assert snapshot(new) == before, "a refused swap must come back unchanged"
    assert snapshot(registered) == before, "the registered deck is never changed in place"


def test_the_refusal_for_an_illegal_result_names_itself_in_both_languages():
    """yugioh: a Link monster belongs in the Extra deck, so siding it into the Main deck is refused."""
    _, report = apply_sideboard(ygo_deck(), [Swap(section="main", out="Spell 0", into="Link Guy")], ADV)
    swap = next(v for v in report.violations if v.code == "sideboard_swap")
    assert "refused" in swap.message and "unchanged" in swap.message
    assert "отклонены" in swap.message_ru and "не изменена" in swap.message_ru
    assert (swap.count, swap.limit) == (1, 0)


def test_an_accepted_swap_returns_the_new_deck():
    """yugioh: a one-for-one swap keeps the side deck's size and is legal."""
    new, report = apply_sideboard(
        ygo_deck(), [Swap(section="main", out="Spell 0", into="Side Trap", count=2)], ADV
    )
    assert report.legal and "sideboard_swap" not in report.codes()
    assert dict((c.name, n) for c, n in new.sections["main"])["Side Trap"] == 2


def limited_pool() -> tuple[list, list, list]:
    red = filler("Goblin", 14, 2, card_type="creature", attributes={"back": "red"})
    blue = filler("Sword", 34, 2, card_type="weapon", attributes={"back": "blue"})
    return red, blue, red + blue


def test_limited_swaps_any_number_within_the_pool():
    """g001 3.8: any number of cards may be swapped with the additional set; 1.5.2: that set is the rest of
    the pool. A 2-for-2 swap between the decks and the pool is legal."""
    red, blue, pool = limited_pool()
    registered = Deck(sections={"creatures": red[:6], "main": blue[:15]})  # 12 creatures, 30 main
    new, report = apply_sideboard(
        registered,
        [
            Swap(section="main", out="Sword 0", into="Sword 16", count=2),
            Swap(section="creatures", out="Goblin 0", into="Goblin 6", count=2),
        ],
        LIMITED,
        pool=pool,
    )
    assert report.legal, report.to_dict()
    assert "not_in_pool" not in report.codes()
    main = dict((c.name, n) for c, n in new.sections["main"])
    assert main.get("Sword 16") == 2 and "Sword 0" not in main
    assert new.section_total("creatures") == 12 and new.section_total("main") == 30


def test_limited_swaps_may_change_deck_sizes_as_long_as_minimums_hold():
    """g001 1.1.2, 1.2.2, 1.3: limited decks have minimums only, so 3 in for 1 out is fine (3.8: any number)."""
    red, blue, pool = limited_pool()
    registered = Deck(sections={"creatures": red[:6], "main": blue[:15]})
    _, report = apply_sideboard(
        registered, [Swap(section="main", out="Sword 0", count=1), Swap(section="main", into="Sword 16", count=2)],
        LIMITED, pool=pool,
    )  # fmt: skip
    assert report.legal, report.to_dict()


def test_limited_swaps_cannot_bring_in_a_card_outside_the_pool():
    """g001 1.5.2: the additional set holds only cards received at the event (the pool)."""
    red, blue, pool = limited_pool()
    registered = Deck(sections={"creatures": red[:6], "main": blue[:15]})
    before = snapshot(registered)
    new, report = apply_sideboard(registered, [Swap(section="main", into="Laser Sword")], LIMITED, pool=pool)
    assert "sideboard_swap" in report.codes() and snapshot(new) == before


def test_limited_without_any_pool_is_refused_with_not_in_pool():
    """g001 1.5.2: without the registered pool the deck cannot be judged as drawn from it."""
    red, blue, _pool = limited_pool()
    registered = Deck(sections={"creatures": red[:6], "main": blue[:15], "side": blue[15:17]})
    _, report = apply_sideboard(registered, [Swap(section="main", out="Sword 0", into="Sword 15")], LIMITED)
    assert {"not_in_pool", "sideboard_swap"} <= set(report.codes())
