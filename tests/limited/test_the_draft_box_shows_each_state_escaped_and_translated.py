"""My draft's live box (limited/draft_box.py), joined in Python instead of a template: each state of a seat
shows its own parts, every card name and key is escaped, the words come in the active language (Russian
plurals included), and the CSRF token is asked for only when the box has the pack's form (and given)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any

import pytest
from django.utils import translation

from limited.draft_box import clock, draft_box

NOW = datetime(2026, 11, 28, 20, 15, 3, tzinfo=UTC)
HOSTILE = '<script>alert("x")</script>&\''
CARDS = {
    "a": SimpleNamespace(name=HOSTILE, card_type="Creature <i>"),
    "b": SimpleNamespace(name="Bolt", card_type=""),
    "c": SimpleNamespace(name="Zed", card_type="Spell"),
}
STATE = {
    "pod": 3, "seat": 5, "seats": 8, "pack_number": 2, "pick_in_pack": 4, "pick_number": 19,
    "pack": ["a", "b", 'k"<y>'], "picks": ["a", "a", "c"], "waiting": False, "finished": False, "paused": False,
    "deadline": NOW + timedelta(seconds=83), "passing": "right", "physical": False,
}  # fmt: skip


class Token:
    """Django's get_token stand-in: counts how often the box asked for a token."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self) -> str:
        self.calls += 1
        return "tok&en"


def box(state: dict[str, Any] | None, token: Token | None = None, **kw: Any) -> str:
    args: dict[str, Any] = {
        "state": state, "tournament_id": 7, "sealed": False, "started": True, "has_pool": False, "cards": CARDS,
        "csrf_token": token or Token(), "etag": "", "build_until": None, "now": NOW,
    }  # fmt: skip
    args.update(kw)
    return str(draft_box(**args))


def test_the_pack_is_one_form_with_a_button_per_card_and_the_token_asked_for_once() -> None:
    token = Token()
    html = box(STATE, token)
    assert token.calls == 1
    assert '<form method="post" action="/tournaments/7/draft/pick/" data-queue="Pick 19">' in html
    assert '<input type="hidden" name="csrfmiddlewaretoken" value="tok&amp;en">' in html
    assert '<input type="hidden" name="pick_number" value="19">' in html
    assert re.findall(r'name="card" value="([^"]*)"', html) == ["a", "b", "k&quot;&lt;y&gt;"]
    assert 'data-testid="draft-position">Pack 2, pick 4 · passing right</p>' in html
    # The countdown as draft.js shows it, with the deadline and the server's time for the script.
    assert 'data-deadline="2026-11-28T20:16:26+00:00"' in html and ">1:23</p>" in html


def test_every_card_name_key_and_type_is_escaped() -> None:
    html = box(STATE)
    assert "<script>" not in html and "<i>" not in html and '"<y>' not in html
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#x27;" in html
    assert "Creature &lt;i&gt;" in html
    # The picks: "2 × name" per card, by name; a card the box does not know shows as "?".
    picks = box({**STATE, "picks": ["c", "a", "a", "gone"]})
    assert re.findall(r"<li>(\d) × ([^<]*)</li>", picks) == [
        ("2", "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#x27;"),
        ("1", "?"),
        ("1", "Zed"),
    ]


def test_without_a_token_the_form_has_none_for_the_page_to_fill_in() -> None:
    html = box(STATE, csrf_token=None)
    assert "<form" in html and "csrfmiddlewaretoken" not in html and 'name="card"' in html


def test_a_seat_that_picked_waits_without_a_form_or_a_token() -> None:
    token = Token()
    html = box({**STATE, "waiting": True}, token)
    assert 'data-testid="draft-waiting"' in html and "<form" not in html
    assert token.calls == 0


@pytest.mark.parametrize(
    ("change", "shown", "hidden"),
    [
        ({"paused": True}, 'data-testid="draft-paused"', 'data-testid="draft-timer"'),
        ({"deadline": None}, 'data-testid="draft-position"', 'data-testid="draft-timer"'),
        ({"passing": "left"}, "passing left", "passing right"),
        ({"physical": True, "pack": []}, 'data-testid="enter-pool-link"', "<form"),
        ({"finished": True, "pack": []}, 'data-testid="build-link"', "<form"),
    ],
)
def test_each_state_shows_its_own_parts(change: dict[str, Any], shown: str, hidden: str) -> None:
    html = box({**STATE, **change})
    assert shown in html and hidden not in html


def test_a_finished_draft_links_the_pool_and_says_until_when_decks_are_built() -> None:
    html = box({**STATE, "finished": True, "pack": []}, build_until=NOW + timedelta(minutes=40))
    assert '<a class="button" href="/tournaments/7/draft/build/" data-testid="build-link">' in html
    assert 'data-testid="build-clock">Deck building until 20:55.</p>' in html


def test_without_a_seat_the_box_says_why() -> None:
    assert "The draft has not started yet" in box(None, started=False)
    assert "The draft has not started yet" in box(None, sealed=True)
    assert "You have no seat in this draft." in box(None)
    assert 'href="/tournaments/7/draft/build/"' in box(None, has_pool=True)
    assert "/draft/build/" not in box(None)


def test_the_tag_the_page_polls_with_next_is_in_the_box_escaped() -> None:
    assert '<span hidden data-draft-etag="W/&quot;t&lt;1&gt;&quot;"></span>' in box(STATE, etag='W/"t<1>"')
    assert "data-draft-etag" not in box(STATE)


def test_the_words_come_in_russian_with_russian_plurals() -> None:
    with translation.override("ru"):
        html = box(STATE)
        one = box({**STATE, "picks": ["c"]})
        five = box({**STATE, "picks": ["c"] * 5})
    assert "Стол 3 · место 5 из 8" in html
    assert "Бустер 2, пик 4 · передача направо" in html
    assert "Ваши пики (3)" in html and "Ваш пик (1)" in one and "Ваши пики (5)" in five
    assert "Pick" not in html and "Your" not in html


def test_the_clock_counts_minutes_and_seconds_and_never_below_zero() -> None:
    assert clock(NOW + timedelta(seconds=83), NOW) == "1:23"
    assert clock(NOW + timedelta(seconds=5.4), NOW) == "0:05"
    assert clock(NOW - timedelta(seconds=3), NOW) == "0:00"
    assert clock(None, NOW) == ""
