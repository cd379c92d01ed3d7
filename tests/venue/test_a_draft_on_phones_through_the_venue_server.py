"""A booster draft on four phones (Chromium at 390×844) against the real venue server (`manage.py venue`:
gunicorn forking workers from the loaded site, SQLite), one phone in Russian: every page and poll goes through
the stack the room gets — the fast paths before Django included (limited/wsgi.py: the unchanged poll's 304 and
the changed box after a pass). Each phone taps a card, shows "waiting", and sees the next pack when the last
seat of the pod has picked, in its own language; the database holds each pick once.

Screenshots: tests/artifacts/venue_draft/."""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts" / "venue_draft"
PHONE = {"width": 390, "height": 844}
SEATS, PICKS = 4, 3

pytestmark = pytest.mark.skipif(
    not (ROOT / "bench" / "bench_draft.py").exists(), reason="the draft is made by bench/bench_draft.py"
)

# Run inside the venue's own database (manage.py shell): the draft the bench drives, seated and opened, its
# phones each signed in with a session of their own.
SETUP = f"""
import json, sys
sys.path.insert(0, "bench")
from bench_draft import create_draft
made = create_draft({SEATS}, 5)
print("DRAFT " + json.dumps({{"event": made["tournament"], "cookies": [p["headers"]["Cookie"] for p in made["phones"]]}}))
"""


def _cookies(header: str, base: str) -> list[dict[str, str]]:
    pairs = (part.strip().split("=", 1) for part in header.split(";") if "=" in part)
    return [{"name": name, "value": value, "url": base} for name, value in pairs]


def _shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"{name}: {width}px wide"


def _heading(pick: int, russian: bool) -> str:
    return f"Бустер 1, пик {pick}" if russian else f"Pack 1, pick {pick}"


def test_four_phones_draft_through_the_venue_server_and_each_sees_the_pass_in_its_language(
    venue: Any, browser: Any
) -> None:
    venue.start()
    out = venue.manage("shell", "-c", SETUP).stdout
    draft = json.loads(next(line for line in out.splitlines() if line.startswith("DRAFT "))[6:])
    russian_seat = 0
    answers: list[list[dict[str, str]]] = [[] for _ in range(SEATS)]  # each phone's changed-box answers
    contexts, phones = [], []
    try:
        for seat, cookie in enumerate(draft["cookies"]):
            context = browser.new_context(locale="en-US", viewport=PHONE)
            context.set_default_timeout(30_000)
            context.add_cookies(_cookies(cookie, venue.base))
            if seat == russian_seat:
                context.add_cookies([{"name": "django_language", "value": "ru", "url": venue.base}])
            contexts.append(context)
            page = context.new_page()
            page.on("response", lambda r, seat=seat: answers[seat].append(r.all_headers())
                    if "fragment=1" in r.url and r.status == 200 else None)  # fmt: skip
            page.goto(f"{venue.base}/tournaments/{draft['event']}/draft/")
            phones.append(page)
        for pick in range(1, PICKS + 1):
            for seat, phone in enumerate(phones):
                phone.wait_for_selector(f"text={_heading(pick, seat == russian_seat)}")
                phone.locator("[data-testid=pick]").first.click()
                phone.locator("[data-testid=offline-queue] [data-state=waiting]").wait_for(state="detached")
                if pick == 1 and seat == 1:
                    phone.wait_for_selector("[data-testid=draft-waiting]")
                    _shot(phone, "phone-waiting-for-the-pass")
            if pick == 2:
                # The boxes every phone shows now came with the pass: by its poll, in its own language.
                phones[1].wait_for_selector(f"text={_heading(3, False)}")
                phones[russian_seat].wait_for_selector(f"text={_heading(3, True)}")
                _shot(phones[1], "phone-next-pack-after-the-pass")
                _shot(phones[russian_seat], "phone-next-pack-after-the-pass-ru")
        for seat, phone in enumerate(phones):
            phone.wait_for_selector(f"text={_heading(PICKS + 1, seat == russian_seat)}")
    finally:
        for context in contexts:
            context.close()

    # Every phone learned of each pass by a poll whose answer was the new box (not a page reload), in the
    # phone's language, with the page's headers; such answers are made before Django, whose own answer
    # (gzipped by its middleware) carries a weak tag, so a strong one shows the fast path served it.
    # (The last seat to pick is answered with the next pack by its own pick: it never waits for a pass.)
    for seat in range(SEATS - 1):
        language = "ru" if seat == russian_seat else "en"
        assert answers[seat], f"phone {seat}: no changed box came by a poll"
        assert {a["content-language"] for a in answers[seat]} == {language}
        assert all(a["x-frame-options"] == "DENY" and "content-security-policy" in a for a in answers[seat])
        assert any(not a["etag"].startswith("W/") for a in answers[seat]), answers[seat]

    with sqlite3.connect(venue.home / "db.sqlite3") as db:
        rows = db.execute("SELECT seat, pick_number FROM limited_draftpick").fetchall()
    assert Counter(rows) == Counter((seat, n) for seat in range(SEATS) for n in range(1, PICKS + 1))
