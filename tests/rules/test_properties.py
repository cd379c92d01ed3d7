"""Hypothesis properties of the pure engine."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine import BanListInfo, Deck, validate_deck

from .helpers import card, fmt

ADV = fmt("yugioh", "advanced")
POOL = [card(f"C{i}", key=str(i), identity=str(i % 12), card_type="spell") for i in range(16)]
BANLIST = BanListInfo(name="prop", limits={"1": 0, "2": 1, "3": 2})

entries = st.lists(st.tuples(st.sampled_from(POOL), st.integers(1, 5)), max_size=12)
decks = st.fixed_dictionaries({"main": entries, "extra": st.just([]), "side": entries})


IDENTITY_OF = {c.name: c.identity for c in POOL}


def _cards(deck: Deck, code: str) -> set[str | None]:
    # Violations name a card by one of its printings; compare the canonical identities behind them.
    return {
        IDENTITY_OF[v.card] for v in validate_deck(deck, ADV, banlist=BANLIST).violations if v.code == code
    }


@settings(max_examples=150, deadline=None)
@given(decks, st.data())
def test_removing_a_card_never_adds_a_copy_limit_or_ban_list_violation(sections, data):
    deck = Deck(sections={k: list(v) for k, v in sections.items()})
    nonempty = [k for k, v in deck.sections.items() if v]
    if not nonempty:
        return
    slug = data.draw(st.sampled_from(nonempty))
    i = data.draw(st.integers(0, len(deck.sections[slug]) - 1))
    smaller = Deck(sections={k: list(v) for k, v in deck.sections.items()})
    c, n = smaller.sections[slug][i]
    smaller.sections[slug][i : i + 1] = [(c, n - 1)] if n > 1 else []
    for code in ("copy_limit", "banlist_forbidden", "banlist_limit"):
        assert _cards(smaller, code) <= _cards(deck, code)


@settings(max_examples=150, deadline=None)
@given(decks)
def test_the_report_is_legal_exactly_when_it_has_no_violations_and_order_does_not_matter(sections):
    deck = Deck(sections={k: list(v) for k, v in sections.items()})
    reversed_deck = Deck(sections={k: list(reversed(v)) for k, v in sections.items()})
    a = validate_deck(deck, ADV, banlist=BANLIST)
    b = validate_deck(reversed_deck, ADV, banlist=BANLIST)
    assert a.legal == (not a.violations) == b.legal
    assert sorted((v.code, v.section, v.count, v.limit) for v in a.violations) == sorted(
        (v.code, v.section, v.count, v.limit) for v in b.violations
    )


@settings(max_examples=150, deadline=None)
@given(decks)
def test_every_violation_uses_a_stable_code_and_names_its_numbers(sections):
    from rules.engine import CODES

    report = validate_deck(Deck(sections={k: list(v) for k, v in sections.items()}), ADV, banlist=BANLIST)
    for v in report.violations:
        assert v.code in CODES
        assert v.message and v.message_ru
        if v.count is not None:
            assert str(v.count) in v.message and str(v.count) in v.message_ru
