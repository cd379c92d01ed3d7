"""Parsed deck lists become cards: by id, by name (any case, Cyrillic), by Caster name + level."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from decks.formats import parse_deck
from decks.resolve import deck_resolve

pytestmark = pytest.mark.django_db


def test_it_resolves_ids_names_and_alternate_artworks_in_one_query(sample_cards, card) -> None:
    parsed = parse_deck("Main\n2 dark magician\n1 46986415\n3 Pot of Greed\nExtra\n1 Stardust Dragon\n")
    with CaptureQueriesContext(connection) as queries:
        resolved = deck_resolve(game=sample_cards["yugioh"], parsed=parsed, format_slug="advanced")
    assert len(queries) == 1
    assert resolved.ok, resolved.problems()
    main = {c.external_id: n for c, n in resolved.sections["main"]}
    # The name picks the original printing; the alternate artwork's passcode stays itself.
    assert main == {"46986414": 2, "46986415": 1, "55144522": 3}
    assert [c.name for c, _ in resolved.sections["extra"]] == ["Stardust Dragon"]


def test_it_lists_unknown_cards_with_line_and_section(sample_cards) -> None:
    parsed = parse_deck("Main\n3 Pot of Greed\n2 No Such Card\nSide\n1 Missing Too\n")
    resolved = deck_resolve(game=sample_cards["yugioh"], parsed=parsed, format_slug="advanced")
    assert [(u.ref, u.line, u.section, u.reason) for u in resolved.unknown] == [
        ("No Such Card", 3, "main", "unknown"),
        ("Missing Too", 5, "side", "unknown"),
    ]
    assert [c.name for c, _ in resolved.sections["main"]] == ["Pot of Greed"]


def test_it_reports_tokens_and_sections_the_format_lacks(sample_cards) -> None:
    parsed = parse_deck("Main\n1 Sheep Token\nCreatures\n1 Pot of Greed\n")
    resolved = deck_resolve(game=sample_cards["yugioh"], parsed=parsed, format_slug="advanced")
    reasons = {u.ref: u.reason for u in resolved.unknown}
    assert reasons == {"Sheep Token": "not_buildable", "Pot of Greed": "section"}
    assert "its sections: main, extra, side" in resolved.unknown[1].message


def test_it_resolves_caster_names_with_levels_and_russian_names(sample_cards) -> None:
    from cards.models import Card

    # The shared database replaces the sample when present: take whichever caster is there.
    caster_card = Card.objects.filter(game=sample_cards["caster"], card_type="caster", level__gte=2).first()
    text = f"Main\n4 {caster_card.name.upper()} lv{caster_card.level}\n"
    caster = deck_resolve(game=sample_cards["caster"], parsed=parse_deck(text), format_slug="standard")
    assert caster.ok, caster.problems()
    ((found, count),) = caster.sections["main"]
    assert (found.pk, count) == (caster_card.pk, 4)
    everseal = deck_resolve(
        game=sample_cards["everseal"],
        parsed=parse_deck("Герой\n1 странник\nОсновная колода\n3 СНЕЖНЫЙ ВОЛЧОНОК\n"),
    )
    assert everseal.ok, everseal.problems()
    assert everseal.hero.name == "Странник"


def test_it_maps_a_sideboard_to_the_twin_deck_additional_set(sample_cards) -> None:
    parsed = parse_deck("Существа\n4 Гоблин-Налётчик\nSideboard\n2 Засада\n")
    resolved = deck_resolve(game=sample_cards["twindeck"], parsed=parsed, format_slug="basic")
    assert resolved.ok, resolved.problems()
    assert set(resolved.sections) == {"creatures", "side"}


def _yugioh_card(game, external_id: str, name: str, *, identity: str = "", **fields):  # type: ignore[no-untyped-def]
    from cards.models import Card

    return Card.objects.create(
        game=game,
        external_id=external_id,
        identity=identity or external_id,
        name=name,
        search_name=name.casefold(),
        card_type=fields.pop("card_type", "monster"),
        **fields,
    )


def test_it_ignores_a_token_that_shares_a_cards_name(sample_cards) -> None:
    game = sample_cards["yugioh"]
    _yugioh_card(game, "46986420", "Dark Magician", is_token=True, deck_buildable=False)
    resolved = deck_resolve(game=game, parsed=parse_deck("Main\n3 Dark Magician\n"), format_slug="advanced")
    assert resolved.ok, resolved.problems()
    assert [(c.external_id, n) for c, n in resolved.sections["main"]] == [("46986414", 3)]


def test_it_names_truly_different_cards_and_how_to_pick_one(sample_cards) -> None:
    game = sample_cards["yugioh"]
    _yugioh_card(game, "90000001", "Pot of Greed", card_type="monster", level=4)
    resolved = deck_resolve(game=game, parsed=parse_deck("Main\n1 Pot of Greed\n"), format_slug="advanced")
    ((problem,),) = [resolved.unknown]
    assert problem.reason == "ambiguous"
    assert "#55144522" in problem.message and "#90000001" in problem.message and "level 4" in problem.message
    # The picker is written "(#id)", a syntax no real name has ("Jinzo #7" is a real name).
    assert "write “Pot of Greed (#90000001)”" in problem.message
    picked = deck_resolve(
        game=game, parsed=parse_deck("Main\n2 Pot of Greed #90000001\n"), format_slug="advanced"
    )
    assert picked.ok, picked.problems()
    assert [(c.external_id, n) for c, n in picked.sections["main"]] == [("90000001", 2)]


def test_it_exports_a_shared_name_with_the_id_that_imports_it_back(sample_cards, user, card) -> None:
    from decks.services import deck_create, deck_export, deck_import

    game = sample_cards["yugioh"]
    twin = _yugioh_card(game, "90000001", "Pot of Greed", card_type="monster", level=4)
    deck = deck_create(
        owner=user, game=game, name="Two pots", format_slug="advanced",
        sections={"main": [(card("yugioh", "55144522"), 1), (twin, 2), (card("yugioh", "Mirror Force"), 1)]},
    )  # fmt: skip
    text = deck_export(deck=deck, fmt="text").content.decode()
    assert "1 Mirror Force\n" in text and "2 Pot of Greed (#90000001)\n" in text
    again = deck_import(owner=user, game=game, data=text, fmt="text", format_slug="advanced").deck
    from decks.selectors import deck_sections

    assert {(c.external_id, n) for c, n in deck_sections(again)["main"]} == {
        ("55144522", 1),
        ("90000001", 2),
        ("44095762", 1),
    }
