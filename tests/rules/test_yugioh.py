"""Yu-Gi-Oh! construction rules (digest: "Yu-Gi-Oh!"), one test per rule and edge case."""

from __future__ import annotations

import pytest

from rules.engine import BanListInfo, Deck, UnknownCard, validate_deck

from .helpers import card, deck, filler, fmt

ADV = fmt("yugioh", "advanced")


def spells(n: int, prefix: str = "Spell") -> list:
    return filler(prefix, n, 3, card_type="spell", subtypes=["normal"])


def monster(name: str, *subtypes: str, **kw) -> object:
    return card(name, card_type="monster", subtypes=list(subtypes), level=kw.pop("level", 4), **kw)


def test_it_accepts_a_40_card_main_deck_with_empty_extra_and_side():
    report = validate_deck(deck(main=spells(40)), ADV)
    assert report.legal, report.to_dict()


@pytest.mark.parametrize(("size", "limit"), [(39, 40), (61, 60)])
def test_it_rejects_a_main_deck_outside_40_to_60(size, limit):
    report = validate_deck(deck(main=spells(size)), ADV)
    [v] = report.violations
    assert (v.code, v.section, v.count, v.limit) == ("section_size", "main", size, limit)


def test_it_accepts_60_main_15_extra_15_side():
    extra = [(monster(f"Fusion {i}", "fusion", "effect"), 1) for i in range(15)]
    report = validate_deck(deck(main=spells(60), extra=extra, side=spells(15, "Side")), ADV)
    assert report.legal, report.to_dict()


def test_it_rejects_a_16_card_extra_deck_and_a_16_card_side_deck():
    extra = [(monster(f"Xyz {i}", "xyz"), 1) for i in range(16)]
    report = validate_deck(deck(main=spells(40), extra=extra, side=spells(16, "Side")), ADV)
    assert sorted((v.code, v.section, v.count, v.limit) for v in report.violations) == [
        ("section_size", "extra", 16, 15),
        ("section_size", "side", 16, 15),
    ]


def test_it_rejects_a_pendulum_monster_in_the_extra_deck():
    pend = monster("Odd-Eyes Pendulum Dragon", "effect", "pendulum", level=7)
    report = validate_deck(deck(main=spells(40), extra=[(pend, 1)]), ADV)
    [v] = report.violations
    assert (v.code, v.section, v.card, v.count) == (
        "section_card_type",
        "extra",
        "Odd-Eyes Pendulum Dragon",
        1,
    )


def test_it_rejects_a_ritual_monster_in_the_extra_deck_but_accepts_it_in_the_main_deck():
    ritual = monster("Black Luster Soldier", "ritual", level=8)
    assert validate_deck(deck(main=spells(40), extra=[(ritual, 1)]), ADV).codes() == ["section_card_type"]
    assert validate_deck(deck(main=[*spells(39), (ritual, 1)]), ADV).legal


@pytest.mark.parametrize("kind", ["fusion", "synchro", "xyz", "link"])
def test_it_accepts_every_extra_deck_type_in_the_extra_deck_and_refuses_it_in_the_main(kind):
    m = monster(f"A {kind}", kind, "effect")
    assert validate_deck(deck(main=spells(40), extra=[(m, 1)]), ADV).legal
    assert validate_deck(deck(main=[*spells(39), (m, 1)]), ADV).codes() == ["section_card_type"]


def test_it_accepts_a_synchro_pendulum_in_the_extra_deck():
    m = monster("Clear Wing Synchro Dragon", "synchro", "pendulum", "effect", level=7)
    assert validate_deck(deck(main=spells(40), extra=[(m, 1)]), ADV).legal


def test_it_rejects_tokens_anywhere():
    tok = monster("Sheep Token", "token", is_token=True, deck_buildable=False)
    report = validate_deck(deck(main=[*spells(39), (tok, 1)]), ADV)
    assert report.codes() == ["section_card_type"]


def test_it_counts_copies_across_main_extra_and_side_together():
    pot = card("Pot of Duality", key="98645731", card_type="spell")
    report = validate_deck(deck(main=[*spells(38), (pot, 2)], side=[(pot, 2)]), ADV)
    [v] = report.violations
    assert (v.code, v.card, v.count, v.limit) == ("copy_limit", "Pot of Duality", 4, 3)


def test_it_counts_alternate_artworks_as_one_card():
    dm = monster("Dark Magician", "normal", key="46986414", identity="46986414", level=7)
    dm_alt = monster("Dark Magician", "normal", key="36996508", identity="46986414", level=7)
    report = validate_deck(deck(main=[*spells(36), (dm, 2), (dm_alt, 2)]), ADV)
    assert report.codes() == ["copy_limit"]
    assert report.violations[0].count == 4


POT = card("Pot of Greed", key="55144522", card_type="spell")
RAIGEKI = card("Raigeki", key="12580477", card_type="spell")
MST = card(
    "Mystical Space Typhoon", key="5318639", identity="5318639", card_type="spell", subtypes=["quick-play"]
)
MST_ALT = card("Mystical Space Typhoon", key="5318640", identity="5318639", card_type="spell")
LIST = BanListInfo(name="TEST TCG", limits={"55144522": 0, "12580477": 1, "5318639": 2})


def test_it_forbids_a_forbidden_card_even_in_the_side_deck():
    report = validate_deck(deck(main=spells(40), side=[(POT, 1)]), ADV, banlist=LIST)
    [v] = report.violations
    assert (v.code, v.card, v.count, v.limit) == ("banlist_forbidden", "Pot of Greed", 1, 0)


def test_it_allows_one_limited_and_refuses_two_across_decks():
    assert validate_deck(deck(main=[*spells(39), (RAIGEKI, 1)]), ADV, banlist=LIST).legal
    report = validate_deck(deck(main=[*spells(39), (RAIGEKI, 1)], side=[(RAIGEKI, 1)]), ADV, banlist=LIST)
    [v] = report.violations
    assert (v.code, v.count, v.limit) == ("banlist_limit", 2, 1)


def test_it_refuses_three_copies_of_a_semi_limited_card_counting_alternate_artworks():
    report = validate_deck(deck(main=[*spells(37), (MST, 2), (MST_ALT, 1)]), ADV, banlist=LIST)
    [v] = report.violations
    assert (v.code, v.card, v.count, v.limit) == ("banlist_limit", "Mystical Space Typhoon", 3, 2)


def test_it_finds_the_limit_of_an_alternate_artwork_through_its_alias():
    only_alt = BanListInfo(name="alias", limits={"5318639": 1})
    report = validate_deck(deck(main=[*spells(38), (MST_ALT, 2)]), ADV, banlist=only_alt)
    assert report.codes() == ["banlist_limit"]


def test_traditional_turns_forbidden_into_limited():
    trad = fmt("yugioh", "traditional")
    assert validate_deck(deck(main=[*spells(39), (POT, 1)]), trad, banlist=LIST).legal
    report = validate_deck(deck(main=[*spells(38), (POT, 2)]), trad, banlist=LIST)
    [v] = report.violations
    assert (v.code, v.limit) == ("banlist_limit", 1)


def test_goat_accepts_only_whitelisted_cards():
    goat = fmt("yugioh", "goat")
    fill = spells(40)
    white = BanListInfo(name="GOAT", whitelist=True, limits={c.key: 3 for c, _ in fill} | {"55144522": 0})
    assert validate_deck(deck(main=fill), goat, banlist=white).legal
    report = validate_deck(deck(main=[*fill[:-1], (RAIGEKI, 1)]), goat, banlist=white)
    # The last filler entry holds a single copy, so the deck stays at 40 cards.
    [v] = report.violations
    assert (v.code, v.card, v.count, v.limit) == ("not_on_whitelist", "Raigeki", 1, 0)
    forbidden = validate_deck(deck(main=[*fill[:-1], (POT, 3)]), goat, banlist=white)
    assert forbidden.codes() == ["banlist_forbidden"]


def test_it_reports_unknown_cards_and_still_counts_them_in_the_section_size():
    d = Deck(sections={"main": spells(39)}, unknown=[UnknownCard(section="main", ref="99999999", count=1)])
    report = validate_deck(d, ADV)
    [v] = report.violations
    assert (v.code, v.card, v.section, v.count) == ("unknown_card", "99999999", "main", 1)


def test_it_refuses_a_section_the_format_does_not_have():
    report = validate_deck(deck(main=spells(40), hero=spells(1, "Hero")), ADV)
    [v] = report.violations
    assert (v.code, v.section, v.limit) == ("section_size", "hero", 0)


def test_its_messages_name_card_section_count_and_limit_in_both_languages():
    report = validate_deck(deck(main=[*spells(38), (RAIGEKI, 2)]), ADV, banlist=LIST)
    v = report.violations[0]
    assert "Raigeki" in v.message and "2" in v.message and "1" in v.message
    assert "Raigeki" in v.message_ru and "ограничена" in v.message_ru
    size = validate_deck(deck(main=spells(39)), ADV).violations[0]
    assert "Main deck" in size.message and "39" in size.message and "40 to 60" in size.message
    assert "Основная колода" in size.message_ru and "от 40 до 60" in size.message_ru
    assert report.to_dict("ru")["violations"][0]["message"] == v.message_ru
    assert set(report.to_dict()["violations"][0]) == {
        "code",
        "key",
        "params",
        "message",
        "section",
        "card",
        "count",
        "limit",
    }
