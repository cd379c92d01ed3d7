"""Every violation message names the card, the section, the count and the limit, in English and Russian."""

from __future__ import annotations

import pytest

from rules.engine import BanListInfo, Deck, Swap, UnknownCard, apply_sideboard, validate_deck

from .helpers import card, deck, filler, fmt

ADV = fmt("yugioh", "advanced")
POT = card("Pot of Greed", key="55144522", card_type="spell")
RAIGEKI = card("Raigeki", key="12580477", card_type="spell")
LIST = BanListInfo(name="TEST TCG", limits={"55144522": 0, "12580477": 1})


def spells(n: int) -> list:
    return filler("Spell", n, 3, card_type="spell")


def monsters(n: int, **attrs: object) -> list:
    return filler("Wolf", n, 3, card_type="monster", attributes={"size": "S", **attrs})


def hero(*restrictions: dict) -> object:
    return card("Aria", card_type="hero", attributes={"restrictions": list(restrictions)})


def only(report, code: str):
    [v] = [v for v in report.violations if v.code == code]
    return v


def assert_names(v, *, card: str | None, section_en: str, section_ru: str, numbers: tuple[int, ...]) -> None:
    for message, section in ((v.message, section_en), (v.message_ru, section_ru)):
        if card is not None:
            assert card in message, message
        assert section in message, message
        for n in numbers:
            assert str(n) in message, (n, message)


def test_banlist_messages_name_the_sections_holding_the_card():
    report = validate_deck(
        deck(main=[*spells(38), (RAIGEKI, 1), (POT, 1)], side=[(RAIGEKI, 1)]), ADV, banlist=LIST
    )
    limited = only(report, "banlist_limit")
    assert (limited.section, limited.count, limited.limit) == ("main+side", 2, 1)
    assert_names(limited, card="Raigeki", section_en="Main deck + Side deck",
                 section_ru="«Основная колода» + «Сайд-колода»", numbers=(2, 1))  # fmt: skip
    forbidden = only(report, "banlist_forbidden")
    assert_names(
        forbidden, card="Pot of Greed", section_en="Main deck", section_ru="«Основная колода»", numbers=(1,)
    )


def test_whitelist_messages_name_the_section():
    goat = fmt("yugioh", "goat")
    fill = spells(39)
    white = BanListInfo(name="GOAT", whitelist=True, limits={c.key: 3 for c, _ in fill})
    v = only(validate_deck(deck(main=fill, side=[(RAIGEKI, 2)]), goat, banlist=white), "not_on_whitelist")
    assert v.section == "side"
    assert_names(v, card="Raigeki", section_en="Side deck", section_ru="«Сайд-колода»", numbers=(2,))


def test_copy_limit_and_size_messages_name_card_section_count_and_limit():
    report = validate_deck(deck(main=[*spells(36), (RAIGEKI, 4)]), ADV)
    assert_names(only(report, "copy_limit"), card="Raigeki", section_en="Main deck", section_ru="Основная колода",
                 numbers=(4, 3))  # fmt: skip
    size = only(validate_deck(deck(main=spells(1)), ADV), "section_size")
    assert "Main deck has 1 card;" in size.message
    assert_names(size, card=None, section_en="Main deck", section_ru="Основная колода", numbers=(1, 40, 60))


@pytest.mark.parametrize(
    ("restriction", "numbers"),
    [
        ({"kind": "forbid", "filter": {"size": "L"}}, (2,)),
        ({"kind": "at_most", "count": 1, "filter": {"size": "L"}}, (2, 1)),
        ({"kind": "at_least", "count": 5, "filter": {"size": "L"}}, (2, 5)),
    ],
)
def test_hero_restriction_messages_name_the_hero_the_section_and_the_numbers(restriction, numbers):
    big = card("Giant", card_type="monster", attributes={"size": "L"})
    report = validate_deck(Deck(sections={"main": [*monsters(28), (big, 2)]}, hero=hero(restriction)),
                           fmt("everseal", "standard"))  # fmt: skip
    v = only(report, "hero_restriction")
    assert "Aria" in v.message and "Aria" in v.message_ru
    assert_names(v, card=None, section_en="Deck", section_ru="Колода", numbers=numbers)


def test_pool_and_unknown_card_messages_name_the_section():
    limited = fmt("twindeck", "limited")
    red = filler("Goblin", 12, 4, card_type="creature", attributes={"back": "red"})
    blue = filler("Sword", 30, 4, card_type="weapon", attributes={"back": "blue"})
    d = Deck(sections={"creatures": red, "main": blue}, pool=[*red, *blue[:-1]],
             unknown=[UnknownCard(section="main", ref="Mystery", count=2)])  # fmt: skip
    report = validate_deck(d, limited)
    pool = only(report, "not_in_pool")
    assert_names(pool, card=blue[-1][0].name, section_en="Main deck", section_ru="«Основная колода»",
                 numbers=(blue[-1][1], 0))  # fmt: skip
    unknown = only(report, "unknown_card")
    assert_names(
        unknown, card="Mystery", section_en="Main deck", section_ru="«Основная колода»", numbers=(2,)
    )


def test_sideboard_swap_messages_name_card_section_count_and_limit():
    d = Deck(sections={"main": spells(40), "side": [(RAIGEKI, 1)]})
    _, report = apply_sideboard(d, [Swap(section="main", out="Spell 0", into="Raigeki", count=2)], ADV)
    v = only(report, "sideboard_swap")
    assert (v.card, v.count, v.limit) == ("Raigeki", 2, 1)
    assert_names(v, card="Raigeki", section_en="Side deck", section_ru="Сайд-колода", numbers=(2, 1))
