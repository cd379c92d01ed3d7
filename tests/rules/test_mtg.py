"""Magic: The Gathering as a sixth game made of data only (games/rulesets/mtg.toml), checked with small
in-test card data shaped as the Cockatrice importer stores it (card_type = main type, attributes carry
supertypes, color, manacost; text is the rules text).

Rules (Magic Comprehensive Rules): 100.2a constructed decks have at least 60 cards, a sideboard of up to 15,
and no more than four of any card by English name other than basic lands; 903.5a/b Commander decks are
exactly 100 cards including the commander and singleton except basic lands; 903.4 colour identity; 903.5c
every card's colour identity within the commander's; 903.3 the commander is a legendary creature (or says it
can be your commander). Cards such as Relentless Rats say "A deck can have any number of cards named ...".
"""

from __future__ import annotations

import pytest

from rules.engine import Deck, default_registry, validate_deck

from .helpers import card

CONSTRUCTED = default_registry().format("mtg", "constructed")
COMMANDER = default_registry().format("mtg", "commander")


def spell(name: str, mana: str = "{1}{R}", color: str | list[str] = "R", text: str = "", **kw) -> object:
    return card(name, card_type="instant", attributes={"manacost": mana, "color": color}, text=text, **kw)


def basic(name: str, symbol: str) -> object:
    return card(name, card_type="land", subtypes=(name.casefold(),), attributes={"supertypes": ["basic"]},
                text=f"({{T}}: Add {{{symbol}}}.)")  # fmt: skip


def spells(n: int, per: int, prefix: str = "Bolt", **kw) -> list:
    out, i = [], 0
    while n > 0:
        take = min(per, n)
        out.append((spell(f"{prefix} {i}", **kw), take))
        n, i = n - take, i + 1
    return out


def test_constructed_takes_60_or_more_with_a_sideboard_of_15():
    """CR 100.2a: at least 60 cards; CR 100.4a: a sideboard of up to fifteen cards."""
    legal = validate_deck(Deck(sections={"main": spells(64, 4), "side": spells(15, 3, "Shock")}), CONSTRUCTED)
    assert legal.legal, legal.to_dict()
    short = validate_deck(Deck(sections={"main": spells(59, 4), "side": spells(16, 4, "Shock")}), CONSTRUCTED)
    assert [(v.code, v.section, v.limit) for v in short.violations] == [
        ("section_size", "main", 60), ("section_size", "side", 15),
    ]  # fmt: skip


def test_constructed_counts_four_per_name_across_main_and_sideboard():
    """CR 100.2a: no more than four of any one card (by English name) in the deck and sideboard combined."""
    bolt = spell("Lightning Bolt")
    other = spell("Lightning Bolt", key="Lightning Bolt (M10)")  # another printing, same name
    deck = Deck(sections={"main": [*spells(57, 4), (bolt, 3)], "side": [(other, 2)]})
    [v] = validate_deck(deck, CONSTRUCTED).violations
    assert (v.code, v.card, v.count, v.limit, v.section) == (
        "copy_limit",
        "Lightning Bolt",
        5,
        4,
        "main+side",
    )


def test_basic_lands_and_any_number_cards_are_exempt():
    """CR 100.2a exempts basic lands; the card text "A deck can have any number of cards named Relentless
    Rats" exempts that card too."""
    rats = card("Relentless Rats", card_type="creature", attributes={"color": "B", "manacost": "{1}{B}{B}"},
                text="A deck can have any number of cards named Relentless Rats.")  # fmt: skip
    deck = Deck(sections={"main": [(basic("Swamp", "B"), 30), (rats, 30)]})
    report = validate_deck(deck, CONSTRUCTED)
    assert report.legal, report.to_dict()


def commander_deck(commander, main: list) -> Deck:
    return Deck(sections={"main": main}, hero=commander)


KAALIA = card("Kaalia of the Vast", card_type="creature", attributes={
    "supertypes": ["legendary"], "color": ["W", "B", "R"], "manacost": "{1}{R}{W}{B}"})  # fmt: skip


def singles(n: int, **kw) -> list:
    return [(spell(f"Single {i}", **kw), 1) for i in range(n)]


def test_commander_is_exactly_100_counting_the_commander_and_says_commander():
    """CR 903.5a: exactly 100 cards including the commander."""
    ok = validate_deck(commander_deck(KAALIA, [*singles(60), (basic("Plains", "W"), 39)]), COMMANDER)
    assert ok.legal, ok.to_dict()
    [v] = validate_deck(
        commander_deck(KAALIA, [*singles(60), (basic("Plains", "W"), 40)]), COMMANDER
    ).violations
    assert (v.code, v.count, v.limit) == ("section_size", 101, 100)
    size, missing = validate_deck(Deck(sections={"main": singles(99)}), COMMANDER).violations
    assert (size.code, size.count) == ("section_size", 99)
    assert (
        missing.code == "hero_missing" and "Commander" in missing.message and "Командир" in missing.message_ru
    )


def test_commander_is_singleton_except_basic_lands():
    """CR 903.5b: only one copy of each card other than basic lands."""
    deck = commander_deck(KAALIA, [*singles(97), (spell("Single 0"), 1), (basic("Plains", "W"), 1)])
    [v] = validate_deck(deck, COMMANDER).violations
    assert (v.code, v.card, v.count, v.limit) == ("copy_limit", "Single 0", 2, 1)


def test_the_commander_must_be_legendary_or_say_so():
    """CR 903.3: a legendary creature, or a card that says it can be your commander."""
    [v] = validate_deck(commander_deck(spell("Shock"), singles(99)), COMMANDER).violations
    assert v.code == "hero_missing" and "cannot be the Commander" in v.message
    walker = card("Teferi", card_type="planeswalker", attributes={"color": "U", "manacost": "{2}{U}{U}"},
                  text="Teferi can be your commander.")  # fmt: skip
    assert validate_deck(commander_deck(walker, singles(99, mana="{U}", color="U")), COMMANDER).legal


@pytest.mark.parametrize(
    ("mana", "color", "text", "outside"),
    [
        ("{G}", "G", "", "G"),  # a green card
        ("{2}", [], "{T}: Add {U}.", "U"),  # a colourless card whose rules text makes blue mana
        ("{W/U}", ["W", "U"], "", "U"),  # hybrid: both halves count
    ],
)
def test_every_card_stays_within_the_commanders_colour_identity(mana, color, text, outside):
    """CR 903.4 / 903.5c: colour identity is the colours of mana symbols in cost and rules text and the card's
    colour; every card must be within the commander's (Kaalia: W, B, R)."""
    stray = spell("Stray", mana=mana, color=color, text=text)
    deck = commander_deck(KAALIA, [*singles(98), (stray, 1)])
    [v] = validate_deck(deck, COMMANDER).violations
    assert (v.code, v.card, v.count) == ("hero_restriction", "Stray", 1)
    assert f"it has {outside}" in v.message and "colour identity" in v.message
    assert "цветовая принадлежность" in v.message_ru


def test_a_colourless_commander_allows_only_colourless_cards():
    golem = card(
        "Karn's Golem", card_type="creature", attributes={"supertypes": ["legendary"], "manacost": "{5}"}
    )
    report = validate_deck(
        commander_deck(golem, [*singles(98, mana="{3}", color=[]), (spell("Red"), 1)]), COMMANDER
    )
    assert [v.card for v in report.violations] == ["Red"]


def test_formats_carry_their_own_players_and_match_format():
    assert (CONSTRUCTED.min_players, CONSTRUCTED.max_players, CONSTRUCTED.match_format) == (2, 2, "bo3")
    assert (COMMANDER.min_players, COMMANDER.max_players, COMMANDER.match_format) == (2, 4, "pods")
    game = default_registry().game("mtg")
    assert game.first_player == "loser_chooses"  # not written in mtg.toml: the documented default


def test_the_deck_app_reads_the_formats_hero_label():
    from decks.gamerules import format_info

    commander, everseal = format_info("mtg", "commander"), format_info("everseal", "standard")
    assert (commander.hero_title("en"), commander.hero_title("ru")) == ("Commander", "Командир")
    assert (everseal.hero_title("en"), everseal.hero_title("ru")) == ("Hero", "Герой")


# --- Commander as the rules stand today ----------------------------------------------------------------


def legend(
    name: str, colors: str, text: str = "", card_type: str = "creature", subtypes=(), **attrs
) -> object:
    mana = "".join(f"{{{c}}}" for c in colors)
    return card(name, card_type=card_type, subtypes=subtypes, text=text,
                attributes={"supertypes": ["legendary"], "color": list(colors), "manacost": mana, **attrs})  # fmt: skip


def two(first, second, main: list) -> Deck:
    return Deck(sections={"main": main}, hero=first, extra_heroes=[second])


def mixed(n: int, colors: str) -> list:
    return [(spell(f"Mixed {i}", mana=f"{{{colors[i % len(colors)]}}}", color=colors[i % len(colors)]), 1)
            for i in range(n)]  # fmt: skip


PARTNER = "Partner (You can have two commanders if both have partner.)"


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # CR 702.124: two cards with partner.
        (
            legend("Tymna the Weaver", "WB", f"Lifelink\n{PARTNER}"),
            legend("Thrasios, Triton Hero", "GU", PARTNER),
        ),
        # "Partner with" names each other (Zndrsplt and Okaun).
        (
            legend("Zndrsplt, Eye of Wisdom", "U", "Partner with Okaun, Eye of Chaos (When this enters, …)"),
            legend("Okaun, Eye of Chaos", "R", "Partner with Zndrsplt, Eye of Wisdom (When this enters, …)"),
        ),
        # Friends forever.
        (
            legend("Cecily, Haunted Mage", "UR", "Friends forever (You can have two commanders …)"),
            legend("Will the Wise", "B", "Friends forever (You can have two commanders …)"),
        ),
        # Choose a Background: the Background is a legendary enchantment, not a creature.
        (
            legend(
                "Wilson, Refined Grizzly",
                "G",
                "Choose a Background (You can have a Background as a second commander.)",
            ),
            legend(
                "Raised by Giants",
                "G",
                "Commander creatures you own have base power and toughness 10/10.",
                card_type="enchantment",
                subtypes=("Background",),
            ),
        ),
        # Doctor's companion and a Time Lord Doctor.
        (
            legend(
                "Rose Tyler",
                "W",
                "Doctor's companion (You can have two commanders if the other is the Doctor.)",
            ),
            legend("The Tenth Doctor", "URG", "Allons-y!", subtypes=("Time Lord", "Doctor")),
        ),
    ],
    ids=["partner", "partner-with", "friends-forever", "background", "doctors-companion"],
)
def test_two_commanders_that_pair_are_legal_with_both_identities(first, second):
    """CR 903.3c, 702.124: two commanders count toward the 100 and the colour identity is both of theirs."""
    colors = "".join(dict.fromkeys(first.attributes["color"] + second.attributes["color"]))
    report = validate_deck(two(first, second, mixed(98, colors)), COMMANDER)
    assert report.legal, report.to_dict()
    size = validate_deck(two(first, second, mixed(99, colors)), COMMANDER)
    assert [(v.code, v.count) for v in size.violations] == [("section_size", 101)]


def test_two_commanders_that_do_not_pair_are_too_many():
    partner = legend("Thrasios, Triton Hero", "GU", PARTNER)
    report = validate_deck(two(KAALIA, partner, mixed(98, "W")), COMMANDER)
    assert "hero_count" in [v.code for v in report.violations]
    # "Partner with" pairs only with the card it names.
    zndrsplt = legend("Zndrsplt, Eye of Wisdom", "U", "Partner with Okaun, Eye of Chaos")
    other = legend("Pir, Imaginative Rascal", "G", "Partner with Toothy, Imaginary Friend")
    assert "hero_count" in [
        v.code for v in validate_deck(two(zndrsplt, other, mixed(98, "U")), COMMANDER).violations
    ]
    # A Background alone is no commander.
    background = legend("Raised by Giants", "G", card_type="enchantment", subtypes=("Background",))
    [v] = validate_deck(commander_deck(background, mixed(99, "G")), COMMANDER).violations
    assert v.code == "hero_missing"


def test_reminder_text_is_no_part_of_colour_identity():
    """CR 903.4: reminder text is ignored. Crypt Ghast's extort reminder shows {W/B}; a mono-black deck
    led by Crypt Ghast is legal (two official precons were judged illegal for it)."""
    ghast = legend("Crypt Ghast", "B", "Extort (Whenever you cast a spell, you may pay {W/B}. If you do, …)\n"
                   "Whenever you tap a Swamp for mana, add an additional {B}.")  # fmt: skip
    report = validate_deck(commander_deck(ghast, mixed(99, "B")), COMMANDER)
    assert report.legal, report.to_dict()
    pontiff = spell("Pontiff of Blight", mana="{4}{B}{B}", color="B",
                    text="Extort (Whenever you cast a spell, you may pay {W/B}. …)")  # fmt: skip
    assert validate_deck(commander_deck(ghast, [*mixed(98, "B"), (pontiff, 1)]), COMMANDER).legal
    # A hybrid symbol in the rules text proper still counts.
    hybrid = spell("Hybrid Thing", mana="{B}", color="B", text="{W/B}: Regenerate Hybrid Thing.")
    [v] = validate_deck(commander_deck(ghast, [*mixed(98, "B"), (hybrid, 1)]), COMMANDER).violations
    assert v.code == "hero_restriction"


def test_a_companion_sits_in_the_sideboard_within_the_colour_identity():
    """CR 702.139a: a companion starts outside the game; Commander allows only it there."""
    companion = card("Lurrus of the Dream-Den", card_type="creature", text="Companion — Each permanent card …",
                     attributes={"supertypes": ["legendary"], "color": ["W", "B"], "manacost": "{1}{W/B}{W/B}"})  # fmt: skip
    deck = Deck(sections={"main": mixed(99, "WB"), "side": [(companion, 1)]}, hero=KAALIA)
    assert validate_deck(deck, COMMANDER).legal
    shock = Deck(sections={"main": mixed(99, "WB"), "side": [(spell("Shock"), 1)]}, hero=KAALIA)
    assert "section_card_type" in [v.code for v in validate_deck(shock, COMMANDER).violations]


def test_a_legendary_spacecraft_with_power_and_toughness_can_be_the_commander():
    """Since Edge of Eternities (2025) a legendary Vehicle or Spacecraft with a power/toughness box may lead
    a Commander deck (Hearthhull, the Worldseed); one without such a box may not."""
    hearthhull = legend("Hearthhull, the Worldseed", "BRG", "Station (…)", card_type="artifact",
                        subtypes=("Spacecraft",), power=6, toughness=7)  # fmt: skip
    assert validate_deck(commander_deck(hearthhull, mixed(99, "BRG")), COMMANDER).legal
    station = legend("Some Station", "B", "Station (…)", card_type="artifact", subtypes=("Spacecraft",))
    [v] = validate_deck(commander_deck(station, mixed(99, "B")), COMMANDER).violations
    assert v.code == "hero_missing"
