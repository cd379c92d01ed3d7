"""Four phones (Chromium, 390×844) draft one pod of a cube to the end: one phone loses the Wi-Fi for a pick
(the pick waits on the phone, is sent when the Wi-Fi is back and applied once), every phone sees only its own
picks, the player opens the pool builder, the organizer's pods page and the projector's seatings and called
timer are shown. Screenshots: tests/artifacts/limited_draft/."""

from __future__ import annotations

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


def test_a_pod_of_phones_drafts_with_one_phone_offline_for_a_pick(
    browser: Any, live_server: Any, twindeck: Any, organizer: Any, make_user: Any
) -> None:
    from cards.models import Card
    from limited import services
    from limited.models import DraftPick, DraftPod
    from tests.tournaments.factories import make_event
    from tournaments import services as tournament_services

    event = make_event(organizer, twindeck, format_slug="limited", deck_registration=True)
    cube = sorted(Card.objects.filter(game=twindeck).values_list("external_id", flat=True))[:32]
    limited = services.limited_event_create(
        tournament=event, by=organizer, kind="draft", product="cube", cube=cube, packs=2, cube_pack_size=4,
        pick_time_scale=6, seed=11,
    )  # fmt: skip
    users = [make_user(f"drafter{i}") for i in range(4)]
    for user in users:
        tournament_services.player_register(tournament=event, by=user)
    services.draft_start(event=limited, by=organizer)

    phones = [signed_in_page(browser, live_server, u, viewport=PHONE, timeout_ms=30_000) for u in users]
    org_phone = signed_in_page(browser, live_server, organizer, viewport=PHONE)
    try:
        for phone in phones:
            phone.goto(f"{live_server.url}/tournaments/{event.pk}/draft/")
        offline = phones[1]
        for number in range(1, 9):
            pack, pick = (number - 1) // 4 + 1, (number - 1) % 4 + 1
            for i, phone in enumerate(phones):
                phone.wait_for_selector(f"text=Pack {pack}, pick {pick}")
                button = phone.locator("[data-testid=pick]").first
                phone.wait_for_selector("[data-testid=pick]")
                if phone is offline and number == 2:
                    phone.context.set_offline(True)
                    button.click()
                    queued = phone.locator("[data-testid=offline-queue]")
                    queued.get_by_text("saved on this phone, not sent yet").wait_for()
                    _shot(phone, "phone-offline-pick-queued")
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
            if number == 2:
                assert (
                    DraftPick.objects.filter(pick_number=2).count() == 3
                )  # the offline pick is still on the phone
                offline.context.set_offline(False)
                offline.locator("[data-testid=offline-queue] [data-state=waiting]").wait_for(state="detached")
        for phone in phones:
            phone.wait_for_selector("[data-testid=draft-finished]")
        _shot(phones[0], "phone-draft-finished")

        pod = DraftPod.objects.get()
        assert DraftPick.objects.count() == 32 and not DraftPick.objects.filter(auto=True).exists()
        assert Counter(DraftPick.objects.values_list("card", flat=True)) == Counter(
            card for rnd in pod.packs for pack in rnd for card in pack
        )
        # Each phone lists its own eight picks, nobody else's.
        for phone, user in zip(phones, users, strict=True):
            player_id = event.players.get(user=user).pk
            mine = set(DraftPick.objects.filter(player_id=player_id).values_list("card", flat=True))
            names = set(
                Card.objects.filter(game=twindeck, external_id__in=mine).values_list("name", flat=True)
            )
            text = phone.locator("[data-testid=my-picks]").inner_text()
            others = set(
                Card.objects.filter(game=twindeck, external_id__in=set(cube) - mine).values_list(
                    "name", flat=True
                )
            )
            assert all(name in text for name in names) and not any(name in text for name in others - names)

        phones[0].click("[data-testid=build-link]")
        phones[0].wait_for_selector("[data-testid=build-form]")
        _shot(phones[0], "phone-build-from-pool")

        desk = signed_in_page(browser, live_server, organizer, viewport={"width": 1280, "height": 800})
        desk.goto(f"{live_server.url}/tournaments/{event.pk}/draft/projector/")
        desk.click("text=Start the calls")
        desk.wait_for_selector("[data-testid=called-position]:has-text('Pack 1, pick 1')")
        assert desk.locator("[data-testid=seatings] li").count() == 4
        _shot(desk, "projector-seatings-timer")
        org_phone.goto(f"{live_server.url}/tournaments/{event.pk}/limited/")
        org_phone.wait_for_selector("text=Finished drafting")
        _shot(org_phone, "organizer-pods")
        desk.context.close()
    finally:
        for phone in [*phones, org_phone]:
            phone.context.close()
