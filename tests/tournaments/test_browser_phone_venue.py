"""A player's phone at a venue, in Chromium at 390×844 with venue settings: the poster's QR code is
decoded from a screenshot and from the printed PDF and names the laptop's LAN address (the organizer opened
the page as localhost, and is told so); the phone joins with it, checks in, loses the Wi-Fi, saves games 1
and 2 on the phone, reloads while offline (the service worker's copy and the queued games are still there),
gets the Wi-Fi back, and the match holds exactly those two games once. A second phone's POST whose answer is
lost is sent again with the same Idempotency-Key and applied once. Screenshots: tests/artifacts/phone_venue/.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.browser_session import sign_in_context

from .factories import make_event
from .test_browser_event_day import _context

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "phone_venue"
LAN = "192.168.77.10"


def _decode(path: Path) -> list[str]:
    import zxingcpp
    from PIL import Image

    return [
        result.text for result in zxingcpp.read_barcodes(Image.open(path)) if result.format.name == "QRCode"
    ]


def _shot(page: Any, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    if page.viewport_size["width"] <= 400:
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= page.viewport_size["width"], f"{name}: {width}px wide"
    return path


@pytest.fixture
def venue(settings: Any, monkeypatch: Any) -> str:
    from venue import lan

    settings.VENUE_MODE = True
    monkeypatch.setattr(lan, "primary_address", lambda: LAN)
    return LAN


def test_a_phone_joins_from_the_poster_and_keeps_its_results_through_a_wifi_drop(
    browser: Any, live_server: Any, games: Any, organizer: Any, make_user: Any, venue: str
) -> None:
    from tournaments import services
    from tournaments.models import Match, Player, ResultChange

    event = make_event(organizer, games["yugioh"], name="Wi-Fi Cup", rounds=3)
    port = live_server.url.rsplit(":", 1)[1]
    join_path = f"/tournaments/join/{event.join_code}/"

    # --- the poster, opened on the laptop as localhost: a warning, and a code that names the LAN address ----
    desk = _context(browser, live_server, organizer, phone=False)
    desk.goto(f"{desk.base_url}/tournaments/{event.pk}/poster/")
    assert f"http://{venue}:{port}" in desk.get_by_test_id("loopback-warning").inner_text()
    assert desk.get_by_test_id("poster-url").inner_text() == f"http://{venue}:{port}{join_path}"
    _shot(desk, "01-poster-desktop")
    desk.get_by_test_id("poster-qr").screenshot(path=str(ARTIFACTS / "02-poster-qr.png"))
    assert _decode(ARTIFACTS / "02-poster-qr.png") == [f"http://{venue}:{port}{join_path}"]
    # Printed on A4: Chromium's PDF, rasterised as a printer would, must scan too.
    pdf = ARTIFACTS / "03-poster.pdf"
    desk.pdf(path=str(pdf), format="A4")
    subprocess.run(["pdftoppm", "-r", "100", "-png", "-f", "1", "-l", "1", str(pdf), str(ARTIFACTS / "03-poster")],
                   check=True)  # fmt: skip
    printed = sorted(ARTIFACTS.glob("03-poster-*.png"))[0]
    assert _decode(printed) == [f"http://{venue}:{port}{join_path}"]
    # The other codes: the event page, the check-in desk and the projector during registration.
    for name, path, selector in (
        ("event", f"/tournaments/{event.pk}/", "[data-testid=join-qr]"),
        ("check-in", f"/tournaments/{event.pk}/check-in/", ".qr"),
        ("projector", f"/tournaments/{event.pk}/projector/pairings/", "[data-testid=projector-join] .qr"),
    ):
        desk.goto(desk.base_url + path)
        desk.locator(selector).screenshot(path=str(ARTIFACTS / f"03-{name}-qr.png"))
        assert _decode(ARTIFACTS / f"03-{name}-qr.png") == [f"http://{venue}:{port}{join_path}"], name
    _shot(desk, "03-projector")
    desk.context.close()

    # --- the phone: scan → join as a newcomer → check in ----------------------------------------------------
    phone = _context(browser, live_server)
    decoded = _decode(ARTIFACTS / "02-poster-qr.png")[0]
    # The phone reaches the laptop at the LAN address; in the test, the live server is that laptop.
    phone.goto(phone.base_url + decoded.split(f"{venue}:{port}", 1)[1])
    phone.fill("input[name=username]", "wifi_wanda")
    phone.fill("input[name=password1]", "Lotus-Petal-77")
    phone.fill("input[name=password2]", "Lotus-Petal-77")
    phone.get_by_test_id("join-submit").click()
    phone.wait_for_selector("[data-testid=my-event]")
    wanda = Player.objects.get(tournament=event, user__username="wifi_wanda")
    services.player_register(tournament=event, by=make_user("opponent_otto"))
    services.checkin_open(tournament=event, by=organizer)
    phone.reload()
    phone.get_by_test_id("check-in").click()
    phone.wait_for_selector("[data-testid=checked-in]")
    assert Player.objects.get(pk=wanda.pk).checked_in_at is not None
    otto = Player.objects.get(tournament=event, user__username="opponent_otto")
    services.player_check_in(player=otto, by=organizer, present=True)
    services.tournament_start(tournament=event, by=organizer)
    services.round_timer_start(round_=services.round_pair_next(tournament=event, by=organizer), by=organizer)
    phone.reload()
    phone.wait_for_selector("[data-testid=game-form-1]")
    _shot(phone, "04-my-event-round-1")

    # --- the Wi-Fi drops: games 1 and 2 are saved on the phone ---------------------------------------------
    phone.context.set_offline(True)
    form1 = phone.get_by_test_id("game-form-1")
    form1.locator(f"input[name=first][value='{wanda.pk}']").check()
    form1.locator(f"input[name=winner][value='{wanda.pk}']").check()
    phone.get_by_test_id("save-game-1").click()
    phone.wait_for_selector("[data-testid=offline-queue] li.waiting")
    form2 = phone.get_by_test_id("game-form-2")
    form2.locator(f"input[name=first][value='{otto.pk}']").check()
    form2.locator(f"input[name=winner][value='{wanda.pk}']").check()
    phone.get_by_test_id("save-game-2").click()
    phone.wait_for_selector("[data-testid=offline-queue] li.waiting >> nth=1")
    assert "No connection" in phone.get_by_test_id("offline-note").inner_text()
    queue = phone.get_by_test_id("offline-queue").inner_text()
    assert queue.count("saved on this phone, not sent yet") == 2, queue
    _shot(phone, "05-offline-two-games-queued")
    assert not Match.objects.get(seats__player=wanda).games.exists()

    # Reload while offline: the worker's copy of My event, the table and opponent, and the queue are there.
    phone.reload()
    phone.wait_for_selector("[data-testid=my-table]")
    assert "opponent_otto" in phone.get_by_test_id("my-opponents").inner_text()
    assert phone.get_by_test_id("offline-queue").inner_text().count("not sent yet") == 2
    assert phone.get_by_test_id("my-timer").inner_text() not in ("", "…")
    assert phone.get_by_test_id("offline-note").is_visible()
    _shot(phone, "06-offline-reloaded")

    # --- the Wi-Fi returns: both games reach the server, once each -----------------------------------------
    phone.context.set_offline(False)
    phone.wait_for_selector("[data-testid=offline-queue] li", state="detached", timeout=20_000)
    match = Match.objects.get(seats__player=wanda)
    seat = {s.player_id: s.seat for s in match.seats.all()}
    assert [(g.number, g.first_seat, g.winner_seat) for g in match.games.order_by("number")] == [
        (1, seat[wanda.pk], seat[wanda.pk]),
        (2, seat[otto.pk], seat[wanda.pk]),
    ]
    assert match.status == Match.Status.REPORTED
    assert ResultChange.objects.filter(match=match, action="game").count() == 2
    phone.wait_for_selector("[data-testid=waiting-confirm]")
    assert not phone.get_by_test_id("offline-note").is_visible()
    _shot(phone, "07-online-sent")
    # The copies are this session's: logging out forgets them (a shared phone shows nobody else's event).
    assert [n for n in phone.evaluate("caches.keys()") if n.startswith("pages-")], "no copy was kept"
    phone.locator("label.nav-toggle-label").click()
    phone.locator("form[data-logout] button").click()
    phone.wait_for_url(lambda url: "/me/" not in url)
    # Only shared static files may be cached again by the next page; no page of the session is left.
    assert not [name for name in phone.evaluate("caches.keys()") if name.startswith("pages-")]
    assert phone.evaluate("Object.keys(localStorage).filter(k => k.startsWith('deckhall:'))") == []
    phone.context.close()

    # --- the opponent confirms, and the answer is lost on the way back: sent again, applied once ----------
    otto_phone = browser.new_context(
        locale="en-US", viewport={"width": 390, "height": 844}, service_workers="block"
    )
    otto_page = _context_page(otto_phone, live_server, otto.user)
    otto_page.goto(f"{live_server.url}/tournaments/{event.pk}/me/")
    lost: list[str] = []

    def lose_answer(route: Any) -> None:
        if route.request.method == "POST" and not lost:
            lost.append(route.request.headers.get("idempotency-key", ""))
            route.fetch()  # the server applies it…
            route.abort("connectionreset")  # …and the phone never hears back
        else:
            route.continue_()

    otto_page.route("**/matches/*/confirm/", lose_answer)
    otto_page.get_by_test_id("confirm").click()
    otto_page.wait_for_selector("[data-testid=settled]", timeout=20_000)
    assert lost and lost[0]
    assert Match.objects.get(pk=match.pk).status == Match.Status.CONFIRMED
    assert ResultChange.objects.filter(match=match, action="confirm").count() == 1
    _shot(otto_page, "08-confirm-after-lost-answer")
    otto_phone.close()


def _context_page(context: Any, live_server: Any, user: Any) -> Any:
    sign_in_context(context, live_server, user)
    context.set_default_timeout(15_000)
    return context.new_page()
