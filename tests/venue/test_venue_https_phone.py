"""A phone at a venue served over HTTPS: the real venue server (`manage.py venue --self-signed`:
gunicorn with a certificate made for the laptop's LAN address and 127.0.0.1), Chromium at 390×844.

- With the certificate accepted, the service worker runs: join, go offline, save a game, reload — My event and
  the queued game are still there — online, and the match holds that game once.
- What Chromium does with a certificate it does not trust (observed here, said in README "HTTPS at the
  venue"): the page does not open without an exception; with the error overridden for the page (what a
  player's "Proceed anyway" does), the page loads but the service worker is refused.
- With the certificate trusted by the browser's own store (what a real certificate gives), the service worker
  runs with no flag at all.

Screenshots: tests/artifacts/venue22_https/.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import ssl
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import CHROMIUM_ARGS, _chromium_path
from tests.deploy.event_driver import Site, rounds_list
from tests.tournaments.test_browser_phone_venue import _decode
from tests.venue.conftest import Venue
from venue.lan import primary_address

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "venue22_https"
PHONE = {"width": 390, "height": 844}

REGISTER = """async () => {
  const out = {secure: window.isSecureContext, api: 'serviceWorker' in navigator};
  if (!out.api) return out;
  try { await navigator.serviceWorker.register('/sw.js', {scope: '/'}); out.registered = true; }
  catch (e) { out.registered = false; out.error = String(e); }
  return out;
}"""


class TLSVenue(Venue):
    """The venue server started as an organizer would for HTTPS: `manage.py venue --self-signed`."""

    @property
    def base(self) -> str:
        return f"https://127.0.0.1:{self.port}"

    @property
    def certificate(self) -> Path:
        return self.home / "var" / "tls" / "self-signed.pem"

    def ssl_context(self) -> ssl.SSLContext:
        # The test's HTTP client trusts exactly the certificate the server made: verification stays on.
        context = ssl.create_default_context(cafile=str(self.certificate))
        context.verify_flags |= ssl.VERIFY_X509_PARTIAL_CHAIN
        return context

    def start(self) -> None:
        log = open(self.home / "server.log", "ab")  # noqa: SIM115 - the server writes to it until killed
        command = [sys.executable, "manage.py", "venue", "--port", str(self.port), "--self-signed"]
        # Four threads, as `make venue` runs (3 × 4): a phone opens several connections at once.
        command += ["--workers", "2", "--threads", "4"]
        self.process = subprocess.Popen(
            command, cwd=Path(__file__).resolve().parents[2], env=self.env, stdout=log,
            stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError((self.home / "server.log").read_text()[-3000:])
            if self.certificate.exists():
                with contextlib.suppress(OSError):
                    urllib.request.urlopen(self.base + "/healthz", context=self.ssl_context(), timeout=5)
                    return
            time.sleep(0.5)
        self.kill()
        raise AssertionError(
            "the HTTPS venue did not answer: " + (self.home / "server.log").read_text()[-3000:]
        )

    def site(self) -> Site:
        site = Site(self.base)
        site._opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(site.cookies),
            urllib.request.HTTPSHandler(context=self.ssl_context()),
        )
        site.log_in_token("organizer", self.organizer_password())
        return site


@pytest.fixture(scope="module")
def tls_venue(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TLSVenue]:
    if os.environ.get("DATABASE_URL"):
        pytest.skip("the venue runs on SQLite: its server test belongs to the SQLite leg")
    place = TLSVenue(home=tmp_path_factory.mktemp("tls-venue"))
    place.start()
    yield place
    place.kill()


def _launch(browser: Any, *extra: str, env: dict[str, str] | None = None) -> Any:
    """Another Chromium with other flags, from the session's Playwright (tests/conftest.py's `browser`: one
    Playwright per test session)."""
    return browser.browser_type.launch(
        executable_path=_chromium_path(), headless=True, args=CHROMIUM_ARGS + list(extra), env=env
    )


def _shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"{name}: {width}px wide"


def _wait_controlled(page: Any) -> None:
    """Until the service worker controls the page (registered by offline.js on My event)."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if page.evaluate("Boolean(navigator.serviceWorker && navigator.serviceWorker.controller)"):
            return
        time.sleep(0.2)
    raise AssertionError("no service worker controls My event")


def test_over_https_a_phone_reloads_my_event_offline_and_its_saved_game_is_sent_once(
    tls_venue: TLSVenue, browser: Any
) -> None:
    site = tls_venue.site()
    event = site.post("/api/tournaments/", {"name": "HTTPS Cup", "game": "yugioh", "format": "advanced",
                                            "rounds": 3, "seed": 7})  # fmt: skip
    site.post(f"/api/tournaments/{event['id']}/players/", {"name": "Otto Opponent"})

    # Test scaffolding only: --ignore-certificate-errors stands in for a certificate the phone trusts (a
    # real one; see the last test for the same worker with a trusted certificate and no flag). Players'
    # browsers never run with it, and a player's "Proceed anyway" does not give the worker (next test).
    chromium = _launch(browser, "--ignore-certificate-errors")
    try:
        # --- the organizer prints the poster (logged in on the laptop as 127.0.0.1): its QR code is https ------
        desk = chromium.new_context(locale="en-US", viewport={"width": 1280, "height": 900}).new_page()
        desk.goto(f"{tls_venue.base}/accounts/login/?next=/tournaments/{event['id']}/poster/")
        desk.fill("input[name=username]", "organizer")
        desk.fill("input[name=password]", tls_venue.organizer_password())
        desk.get_by_role("button", name="Log in").click()
        desk.wait_for_selector("[data-testid=poster-qr]")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        desk.get_by_test_id("poster-qr").screenshot(path=str(ARTIFACTS / "00-poster-qr.png"))
        desk.screenshot(path=str(ARTIFACTS / "00-poster.png"), full_page=True)
        (scanned,) = _decode(ARTIFACTS / "00-poster-qr.png")
        lan_origin = f"https://{primary_address() or '127.0.0.1'}:{tls_venue.port}"
        assert scanned == f"{lan_origin}/tournaments/join/{event['join_code']}/"
        assert desk.get_by_test_id("poster-url").inner_text() == scanned
        desk.context.close()

        # --- the phone opens what it scanned: the LAN address, which the certificate names -------------------
        context = chromium.new_context(locale="en-US", viewport=PHONE)
        context.set_default_timeout(45_000)  # a shared, loaded machine: generous, only paid on a failure
        phone = context.new_page()
        phone.goto(scanned)
        assert phone.evaluate("window.isSecureContext")
        phone.fill("input[name=username]", "tls_tina")
        phone.fill("input[name=password1]", "Lotus-Petal-77")
        phone.fill("input[name=password2]", "Lotus-Petal-77")
        phone.get_by_test_id("join-submit").click()
        phone.wait_for_selector("[data-testid=my-event]")
        site.post(f"/api/tournaments/{event['id']}/rounds/")  # the organizer pairs round 1

        me = f"{lan_origin}/tournaments/{event['id']}/me/"
        phone.goto(me)
        _wait_controlled(phone)
        phone.reload()  # through the worker now: it keeps this session's copy of My event
        phone.wait_for_selector("[data-testid=game-form-1]")
        _shot(phone, "01-my-event-https")

        # --- the Wi-Fi drops: the game is saved on the phone ----------------------------------------------
        context.set_offline(True)
        form = phone.get_by_test_id("game-form-1")
        mine = form.locator("label.choice", has_text="tls_tina").first.locator("input").get_attribute("value")
        form.locator(f"input[name=first][value='{mine}']").check()
        form.locator(f"input[name=winner][value='{mine}']").check()
        phone.get_by_test_id("save-game-1").click()
        phone.wait_for_selector("[data-testid=offline-queue] li.waiting")
        assert "saved on this phone, not sent yet" in phone.get_by_test_id("offline-queue").inner_text()
        _shot(phone, "02-offline-game-saved")

        # Reload while offline: over HTTPS the worker answers with its copy; the queued game is still listed.
        phone.reload()
        phone.wait_for_selector("[data-testid=my-table]")
        # The worker's copy (offline.js marks a page rendered the same as the last one it saw), not a new one.
        assert phone.evaluate("document.documentElement.classList.contains('offline-copy')")
        assert "Otto Opponent" in phone.get_by_test_id("my-opponents").inner_text()
        assert phone.get_by_test_id("offline-queue").inner_text().count("not sent yet") == 1
        assert phone.get_by_test_id("offline-note").is_visible()
        _shot(phone, "03-offline-reloaded")

        # --- the Wi-Fi returns: the game reaches the server once ------------------------------------------
        context.set_offline(False)
        phone.wait_for_selector("[data-testid=offline-queue] li", state="detached", timeout=30_000)
        match = next(m for m in rounds_list(site, event["id"])[0]["matches"] if not m["bye"])
        games = site.get(f"/api/matches/{match['id']}/")["games"]
        assert [(g["number"], g["winner"]) for g in games] == [(1, int(mine))], games
        _shot(phone, "04-online-sent")
        context.close()
    finally:
        chromium.close()


def test_chromium_refuses_the_worker_behind_an_untrusted_certificate(
    tls_venue: TLSVenue, browser: Any
) -> None:
    chromium = _launch(browser)
    try:
        # No exception: the phone's browser stops at its warning page (here: the navigation fails).
        context = chromium.new_context(viewport=PHONE)
        with pytest.raises(Exception, match="ERR_CERT_AUTHORITY_INVALID"):
            context.new_page().goto(tls_venue.base + "/")
        context.close()
        # The error overridden for the page, as a player's "Proceed anyway" does: the page loads, is a secure
        # context, and still gets no service worker (Chromium: "An SSL certificate error occurred when
        # fetching the script"), so a reload while offline cannot show My event.
        context = chromium.new_context(viewport=PHONE, ignore_https_errors=True)
        page = context.new_page()
        page.goto(tls_venue.base + "/")
        outcome = page.evaluate(REGISTER)
        assert outcome["secure"] and outcome["registered"] is False, outcome
        assert "SSL certificate error" in outcome["error"], outcome
        context.close()
    finally:
        chromium.close()


def test_with_a_certificate_the_browser_trusts_the_worker_runs_with_no_flag(
    tls_venue: TLSVenue, browser: Any, tmp_path: Path
) -> None:
    certutil = shutil.which("certutil")
    if certutil is None:
        pytest.skip(
            "certutil is not installed (apt-get install libnss3-tools): cannot give Chromium a trust store"
        )
    # Chromium on Linux reads user-trusted certificates from $HOME/.pki/nssdb: trusting the venue's certificate
    # there is what a real certificate (a public CA the phone already trusts) gives.
    nssdb = tmp_path / ".pki" / "nssdb"
    nssdb.mkdir(parents=True)
    subprocess.run([certutil, "-d", f"sql:{nssdb}", "-N", "--empty-password"], check=True)
    subprocess.run([certutil, "-d", f"sql:{nssdb}", "-A", "-n", "deckhall-venue", "-t", "P,,",
                    "-i", str(tls_venue.certificate)], check=True)  # fmt: skip
    chromium = _launch(browser, env={**os.environ, "HOME": str(tmp_path)})
    try:
        context = chromium.new_context(viewport=PHONE)
        page = context.new_page()
        page.goto(tls_venue.base + "/")
        outcome = page.evaluate(REGISTER)
        assert outcome == {"secure": True, "api": True, "registered": True}, outcome
        context.close()
    finally:
        chromium.close()


def test_over_plain_http_on_the_lan_address_phones_get_no_worker(browser: Any) -> None:
    """The default: a page from `http://<LAN address>` is no secure context, so Chromium offers no service
    worker at all (the browser's rule, observed on a bare page at the laptop's address)."""
    import http.server
    import threading

    address = primary_address()
    if address is None:
        pytest.skip("this machine has no LAN address")

    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = b"<!doctype html><title>venue</title>"
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer((address, 0), Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    chromium = _launch(browser)
    try:
        page = chromium.new_context(viewport=PHONE).new_page()
        page.goto(f"http://{address}:{server.server_address[1]}/")
        assert page.evaluate(REGISTER) == {"secure": False, "api": False}
    finally:
        chromium.close()
        server.shutdown()
        server.server_close()
