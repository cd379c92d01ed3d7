"""Eight phones (Chromium, 390×844) draft one pod of a Magic cube to the end through the "My draft" page:
two phones lose the Wi-Fi for a pick each (the pick waits on the phone, is sent when the Wi-Fi is back and
applied once), every phone sees only its own picks, its polls send the tag they hold (304 while nothing
moved); one player builds a 40-card deck from the picks plus free
basic lands and registers it; the organizer's pods page and the projector's seatings and called timer are
shown. Screenshots: tests/artifacts/limited_draft/."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.browser_session import signed_in_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "limited_draft"
PHONE = {"width": 390, "height": 844}


def _shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
    if page.viewport_size["width"] <= 400:
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= page.viewport_size["width"], f"{name}: {width}px wide"


def test_eight_phones_draft_a_pod_with_two_offline_for_a_pick_and_one_registers_a_deck(
    browser: Any, live_server: Any, magic: Any, organizer: Any, make_user: Any
) -> None:
    from cards.models import Card
    from limited import services
    from limited.models import DraftPick, DraftPod
    from tests.tournaments.factories import make_event
    from tournaments import services as tournament_services

    event = make_event(organizer, magic, format_slug="limited", deck_registration=True)
    cube = sorted(
        Card.objects.filter(game=magic, card_type="creature").values_list("external_id", flat=True)
    )[:48]
    # Small packs (2 of 3 cards) keep the run short; every pick goes through the page as on the day.
    limited = services.limited_event_create(
        tournament=event, by=organizer, kind="draft", product="cube", cube=cube, packs=2, cube_pack_size=3,
        pick_time_scale=6, seed=11,
    )  # fmt: skip
    users = [make_user(f"drafter{i}") for i in range(8)]
    for user in users:
        tournament_services.player_register(tournament=event, by=user)
    services.draft_start(event=limited, by=organizer)

    phones = [signed_in_page(browser, live_server, u, viewport=PHONE, timeout_ms=30_000) for u in users]
    org_phone = signed_in_page(browser, live_server, organizer, viewport=PHONE)
    offline_at = {1: 2, 5: 4}  # phone index → the pick it makes without the Wi-Fi
    polls: list[int] = []  # what the first phone's polls were answered: 304 while nothing moved
    phones[0].on("response", lambda r: polls.append(r.status) if "fragment=1" in r.url else None)
    try:
        for phone in phones:
            phone.goto(f"{live_server.url}/tournaments/{event.pk}/draft/")
        for number in range(1, 7):
            pack, pick = (number - 1) // 3 + 1, (number - 1) % 3 + 1
            away = []
            for i, phone in enumerate(phones):
                phone.wait_for_selector(f"text=Pack {pack}, pick {pick}")
                phone.wait_for_selector("[data-testid=pick]")
                button = phone.locator("[data-testid=pick]").first
                if offline_at.get(i) == number:
                    phone.context.set_offline(True)
                    button.click()
                    queued = phone.locator("[data-testid=offline-queue]")
                    queued.get_by_text("saved on this phone, not sent yet").wait_for()
                    if not away:
                        _shot(phone, "phone-offline-pick-queued")
                    away.append(phone)
                    continue
                button.click()
                phone.locator("[data-testid=offline-queue] [data-state=waiting]").wait_for(state="detached")
                if number == 1 and i == 0:
                    _shot(phone, "phone-picked-waiting")
                if number == 3 and i == 0:
                    # The organizer's pods mid-draft: who has picked (never what), the timer, pause.
                    org_phone.goto(f"{live_server.url}/tournaments/{event.pk}/limited/")
                    org_phone.wait_for_selector("[data-testid=pause]")
                    assert "✓" in org_phone.locator("[data-testid=pod]").inner_text()
                    _shot(org_phone, "organizer-pods-mid-draft")
            if away:
                # The pod waits for the picks still on the two phones; none of them has reached the server.
                assert DraftPick.objects.filter(pick_number=number).count() == 8 - len(away)
                for phone in away:
                    phone.context.set_offline(False)
                for phone in away:
                    phone.locator("[data-testid=offline-queue] [data-state=waiting]").wait_for(
                        state="detached"
                    )
        for phone in phones:
            phone.wait_for_selector("[data-testid=draft-finished]")
        _shot(phones[0], "phone-draft-finished")
        # The page sends the tag it holds: most of its polls are bodiless 304s, a pass brings a 200.
        assert 304 in polls and 200 in polls, Counter(polls)

        pod = DraftPod.objects.get()
        assert DraftPick.objects.count() == 48 and not DraftPick.objects.filter(auto=True).exists()
        assert Counter(DraftPick.objects.values_list("card", flat=True)) == Counter(
            card for rnd in pod.packs for pack in rnd for card in pack
        )
        # Each phone lists its own six picks, nobody else's.
        for phone, user in zip(phones, users, strict=True):
            player_id = event.players.get(user=user).pk
            mine = set(DraftPick.objects.filter(player_id=player_id).values_list("card", flat=True))
            names = set(Card.objects.filter(game=magic, external_id__in=mine).values_list("name", flat=True))
            others = set(
                Card.objects.filter(game=magic, external_id__in=set(cube) - mine).values_list(
                    "name", flat=True
                )
            )
            text = phone.locator("[data-testid=my-picks]").inner_text()
            # Whole names ("Common 1" is not "Common 12").
            listed = {
                name for name in names | others if re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", text)
            }
            assert listed == names, (listed, names)

        # The deck from the picks: all six in the main deck and 34 Forests (free, MTR 7.3), registered.
        builder, user = phones[0], users[0]
        builder.click("[data-testid=build-link]")
        builder.wait_for_selector("[data-testid=build-form]")
        player = event.players.get(user=user)
        picked = Counter(DraftPick.objects.filter(player=player).values_list("card", flat=True))
        for key, count in picked.items():
            builder.fill(f"input[name='main:{key}']", str(count))
        forest = Card.objects.get(game=magic, name="Forest").external_id
        builder.fill(f"input[name='main:{forest}']", str(40 - sum(picked.values())))
        _shot(builder, "phone-build-from-picks")
        builder.click("[data-testid=register-deck]")
        builder.wait_for_selector("[data-testid=deck-registered]")
        _shot(builder, "phone-deck-registered")
        player.refresh_from_db()
        main = {line["external_id"]: line["count"] for line in player.deck["sections"]["main"]}
        assert main == {**picked, forest: 34}

        desk = signed_in_page(browser, live_server, organizer, viewport={"width": 1280, "height": 800})
        desk.goto(f"{live_server.url}/tournaments/{event.pk}/draft/projector/")
        desk.click("text=Start the calls")
        desk.wait_for_selector("[data-testid=called-position]:has-text('Pack 1, pick 1')")
        assert desk.locator("[data-testid=seatings] li").count() == 8
        _shot(desk, "projector-seatings-timer")
        org_phone.goto(f"{live_server.url}/tournaments/{event.pk}/limited/")
        org_phone.wait_for_selector("text=Finished drafting")
        _shot(org_phone, "organizer-pods")
        desk.context.close()
    finally:
        for phone in [*phones, org_phone]:
            phone.context.close()
