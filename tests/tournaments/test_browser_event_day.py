"""Event day in Chromium, on 390x844 phones and the organizer's desktop.

Ten players join by code (three bulk-added by the organizer, who attaches their decks), check-in with one
no-show, three Swiss rounds with game-by-game reporting (one game corrected), a stale confirm refused, a
private swap the opponent's page and API do not show, a dispute resolved with a reason, a drop undone, the
pairings reaching a phone by themselves, a top 4, final standings with the cut; then a Vale pod event with a
shared first place. A screenshot of every step is kept under tests/artifacts/event_day/.

Steps that only repeat what another step already drove through the pages (the other tables' results) go
through the services, so the whole file stays well under a minute of browser time.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser_session import sign_in_context

from .factories import make_deck, make_event, ygo_cards, ygo_payload

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "event_day"
PHONE = {"width": 390, "height": 844}


class Screens:
    def __init__(self) -> None:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        self.n = 0

    def shot(self, page: Any, name: str) -> None:
        self.n += 1
        page.screenshot(path=str(ARTIFACTS / f"{self.n:02d}-{name}.png"), full_page=True)
        # Phone first: nothing may scroll sideways at 390 px.
        if page.viewport_size["width"] <= 400:
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= page.viewport_size["width"], f"{name}: {width}px wide on a 390px phone"


def _context(browser: Any, live_server: Any, user: Any = None, *, phone: bool = True) -> Any:
    """A browser (phone or desktop) already signed in as ``user``: a session made on the server side, so the
    test spends its time on the event pages, not on the log-in form (tested elsewhere)."""

    viewport = PHONE if phone else {"width": 1280, "height": 900}
    context = browser.new_context(locale="en-US", viewport=viewport)
    context.set_default_timeout(15_000)
    if user is not None:
        sign_in_context(context, live_server, user)
    page = context.new_page()
    page.base_url = live_server.url  # type: ignore[attr-defined]
    return page


def _sent(page: Any) -> None:
    """My event sends its writes from a queue on the phone: wait until nothing waits in it."""
    page.wait_for_selector("[data-testid=offline-queue] li.waiting", state="detached")


def _confirm(page: Any) -> None:
    page.wait_for_selector("[data-testid=confirm-page]")
    page.get_by_test_id("confirm-yes").click()
    page.wait_for_load_state()


def _ydk(payload: dict[str, Any]) -> str:
    lines = []
    for section, tag in (("main", "#main"), ("extra", "#extra"), ("side", "!side")):
        lines.append(tag)
        for line in payload["sections"].get(section, []):
            lines.extend([str(line["card"])] * line["count"])
    return "\n".join(lines) + "\n"


def _finish_other_tables(event: Any, organizer: Any, skip: set[int]) -> None:
    from tournaments import services

    round_ = event.round_set.order_by("-number").first()
    for match in (
        round_.matches.filter(bye=False).exclude(status__in=["confirmed", "final"]).order_by("table")
    ):
        if match.pk not in skip:
            services.match_report_result(match=match, by=organizer, wins=[2, 1])


def test_event_day_on_phones(
    browser: Any, live_server: Any, games: Any, organizer: Any, make_user: Any
) -> None:
    from tournaments import services
    from tournaments.models import Match, Player, SideboardChange, Tournament

    screens = Screens()
    game = games["yugioh"]
    cards = ygo_cards(game)
    payload = ygo_payload(cards)
    # The opponent-to-be of our sideboarding player holds other side cards, so a leak would be visible.
    users = [make_user(f"player{i}") for i in range(1, 7)]
    for user in users:
        make_deck(user, game, payload, name=f"{user.username} deck")
    make_deck(organizer, game, payload, name="Loaner deck")
    event = make_event(
        organizer, game, name="Phone Cup", rounds=3, top_cut=4, deck_registration=True, seed=99
    )
    code = event.join_code

    # --- joining: six players with accounts, one newcomer creating an account in the same screen -------------
    for user in users:
        phone = _context(browser, live_server, user)
        phone.goto(f"{phone.base_url}/tournaments/join/")
        phone.fill("[data-testid=join-code-input]", code.lower())
        phone.get_by_test_id("join-code-go").click()
        phone.select_option("[data-testid=join-deck]", label=f"{user.username} deck")
        if user is users[0]:
            screens.shot(phone, "join-signed-in")
        phone.get_by_test_id("join-submit").click()
        phone.wait_for_selector("[data-testid=my-event]")
        if user is users[0]:
            screens.shot(phone, "my-event-registered")
        phone.context.close()
    newcomer = _context(browser, live_server)
    newcomer.goto(f"{newcomer.base_url}/tournaments/join/{code}/")
    newcomer.fill("input[name=username]", "nina")
    newcomer.fill("input[name=password1]", "Lotus-Petal-77")
    newcomer.fill("input[name=password2]", "Lotus-Petal-77")
    newcomer.fill("[data-testid=join-deck-text]", _ydk(payload))
    screens.shot(newcomer, "join-newcomer")
    newcomer.get_by_test_id("join-submit").click()
    newcomer.wait_for_selector("[data-testid=my-event]")
    nina = Player.objects.get(tournament=event, user__username="nina")
    assert nina.deck is not None
    newcomer.context.close()

    # --- the organizer: bulk add three, attach their decks, check-in with one no-show, start ----------------
    desk = _context(browser, live_server, organizer, phone=False)
    desk.goto(f"{desk.base_url}/tournaments/{event.pk}/players/bulk/")
    desk.fill("[data-testid=bulk-text]", "Guest Gwen\nGuest Hal\nGuest Ivo\n")
    screens.shot(desk, "bulk-add")
    desk.get_by_test_id("bulk-submit").click()
    desk.wait_for_selector("[data-testid=check-in-list]")
    for name in ("Guest Gwen", "Guest Hal", "Guest Ivo"):
        guest = Player.objects.get(tournament=event, name=name)
        desk.get_by_test_id(f"attach-deck-{guest.pk}").click()
        desk.select_option("#deck-choice", label="Loaner deck (advanced)")
        desk.locator("form:has(#deck-choice) button[type=submit]").first.click()
        desk.wait_for_load_state()
        desk.goto(f"{desk.base_url}/tournaments/{event.pk}/check-in/")
    assert Player.objects.filter(tournament=event, deck__isnull=False).count() == 10
    desk.get_by_test_id("open-check-in").click()
    desk.wait_for_selector("[data-testid=check-in-count]")
    # Two players check in from their phones; the organizer marks six more; player6 never shows up.
    for user in users[:2]:
        phone = _context(browser, live_server, user)
        phone.goto(f"{phone.base_url}/tournaments/{event.pk}/me/")
        phone.get_by_test_id("check-in").click()
        phone.wait_for_selector("[data-testid=checked-in]")
        if user is users[0]:
            screens.shot(phone, "checked-in-on-phone")
        phone.context.close()
    absent = Player.objects.get(tournament=event, user=users[5])
    for player in Player.objects.filter(tournament=event, checked_in_at__isnull=True).exclude(pk=absent.pk):
        desk.get_by_test_id(f"mark-{player.pk}").click()
        desk.wait_for_load_state()
    assert "9 of 10 checked in." in desk.get_by_test_id("check-in-count").inner_text()
    screens.shot(desk, "check-in")
    desk.get_by_test_id("start-event").click()
    screens.shot(desk, "confirm-start")
    _confirm(desk)
    desk.wait_for_selector("[data-testid=round-title]")
    absent.refresh_from_db()
    assert absent.no_show and event.round_set.count() == 1
    desk.get_by_test_id("start-timer").click()
    desk.wait_for_load_state()

    # --- round 1 on two phones: game by game, one game corrected, a private swap, a stale confirm ------------
    round1 = event.round_set.get(number=1)
    duel = next(m for m in round1.matches.filter(bye=False) if all(s.player.user_id for s in m.seats.all()))
    first, second = [s.player for s in duel.seats.select_related("player__user").order_by("seat")]
    alice = _context(browser, live_server, first.user)
    bob = _context(browser, live_server, second.user)
    alice.goto(f"{alice.base_url}/tournaments/{event.pk}/me/")
    assert str(duel.table) in alice.get_by_test_id("my-table").inner_text()
    assert second.name in alice.get_by_test_id("my-opponents").inner_text()
    screens.shot(alice, "my-event-round-1")

    def save_game(page: Any, number: int, went_first: Any, winner: Any | None, correct: bool = False) -> None:
        if correct:
            page.locator(f"li[data-game='{number}'] details.fix summary").click()
        form = (
            page.get_by_test_id(f"game-form-{number}").last
            if correct
            else page.get_by_test_id(f"game-form-{number}")
        )
        form.locator(f"input[name=first][value='{went_first.pk}']").check()
        form.locator(f"input[name=winner][value='{winner.pk if winner else 'draw'}']").check()
        form.get_by_test_id(f"save-game-{number}").click()
        _sent(page)

    save_game(alice, 1, first, second)  # a slip: alice won game 1, not bob
    assert alice.get_by_test_id("match-status").inner_text() == "pending"
    save_game(alice, 1, first, first, correct=True)
    assert f"{first.name} won" in alice.locator("li[data-game='1']").inner_text()
    assert alice.get_by_test_id("next-first").is_visible()
    screens.shot(alice, "game-1-corrected")
    # Bob lost game 1, so he chooses who goes first; alice sides one card in before game 2 by clicking.
    assert f"{second.name} chooses" in alice.get_by_test_id("next-first").inner_text()
    alice.locator(
        "[data-testid=my-sideboard] li:has(input[name^='out:main:']) button[data-step='1']"
    ).first.click()
    alice.locator("[data-testid=my-sideboard] li:has(input[name^='in:']) button[data-step='1']").first.click()
    screens.shot(alice, "sideboard-by-clicking")
    alice.get_by_test_id("submit-sideboard").click()
    _sent(alice)
    change = SideboardChange.objects.get(match=duel, player=first)
    secret = next(line["in"] for line in payload_names(cards, change.swaps) if line["in"])
    assert secret in alice.get_by_test_id("my-swaps").text_content()
    save_game(alice, 2, second, first)
    duel.refresh_from_db()
    assert duel.status == Match.Status.REPORTED and duel.games.count() == 2
    screens.shot(alice, "reported")

    bob.goto(f"{bob.base_url}/tournaments/{event.pk}/me/")
    assert "Confirm 2–0" in bob.get_by_test_id("confirm-box").inner_text()
    # Bob holds the same side deck, so look for the swap itself: "+1 <card>", the swap lists, the card id.
    secret_id = next(s["in"] for s in change.swaps if s.get("in"))
    for url in (f"/tournaments/{event.pk}/me/", f"/tournaments/matches/{duel.pk}/"):
        bob.goto(bob.base_url + url)
        html = bob.content()
        assert f"+1 {secret}" not in html and "my-swaps" not in html and "sideboard-changes" not in html, url
    api = bob.request.get(f"{bob.base_url}/api/matches/{duel.pk}/")
    assert api.ok and f'"{secret_id}"' not in api.text() and "swaps" not in api.text()
    bob.goto(f"{bob.base_url}/tournaments/{event.pk}/me/")
    screens.shot(bob, "opponent-sees-confirm-not-swaps")
    # Alice corrects game 2 while bob's page still shows 2–0: his confirm is refused and he sees 1–1.
    services.match_save_game(match=duel, by=first.user, number=2, first=second.pk, winner=second.pk)
    bob.get_by_test_id("confirm").click()
    _sent(bob)
    assert "changed since you read it" in bob.content()
    duel.refresh_from_db()
    assert duel.status != Match.Status.CONFIRMED
    screens.shot(bob, "stale-confirm-refused")
    alice.goto(f"{alice.base_url}/tournaments/{event.pk}/me/")
    save_game(alice, 3, first, first)
    bob.goto(f"{bob.base_url}/tournaments/{event.pk}/me/")
    bob.get_by_test_id("confirm").click()
    _sent(bob)
    duel.refresh_from_db()
    assert duel.status == Match.Status.CONFIRMED and [s.wins for s in duel.seats.order_by("seat")] == [2, 1]

    # --- a dispute, highlighted on the dashboard and resolved with a reason ------------------------------
    disputed = next(
        m
        for m in round1.matches.filter(bye=False).exclude(pk=duel.pk)
        if all(s.player.user_id for s in m.seats.all())
    )
    reporter, disputer = [
        s.player.user for s in disputed.seats.select_related("player__user").order_by("seat")
    ]
    services.match_report_result(match=disputed, by=reporter, wins=[2, 0])
    phone = _context(browser, live_server, disputer)
    phone.goto(f"{phone.base_url}/tournaments/{event.pk}/me/")
    phone.locator("details.dispute summary").click()
    phone.fill("#dispute-reason", "We played three games")
    phone.get_by_test_id("dispute").click()
    phone.wait_for_selector("[data-testid=disputed]")
    screens.shot(phone, "disputed-on-phone")
    phone.context.close()
    _finish_other_tables(event, organizer, skip={duel.pk, disputed.pk})
    desk.goto(f"{desk.base_url}/tournaments/{event.pk}/rounds/1/")
    assert "We played three games" in desk.get_by_test_id(f"dispute-reason-{disputed.pk}").inner_text()
    assert desk.locator("tbody tr").first.get_attribute("data-match") == str(disputed.pk), "disputes first"
    screens.shot(desk, "dashboard-dispute")
    resolve = desk.get_by_test_id(f"resolve-{disputed.pk}")
    resolve.locator("input[name=wins_a]").fill("2")
    resolve.locator("input[name=wins_b]").fill("1")
    resolve.locator("input[name=reason]").fill("Both players agree it went to three games")
    desk.get_by_test_id(f"resolve-set-{disputed.pk}").click()
    desk.wait_for_load_state()
    disputed.refresh_from_db()
    assert disputed.status == Match.Status.FINAL
    assert disputed.result_changes.filter(reason__startswith="Both players agree").exists()

    # --- a drop, confirmed and undone ---------------------------------------------------------------------
    dropper = Player.objects.get(tournament=event, name="Guest Ivo")
    desk.goto(f"{desk.base_url}/tournaments/{event.pk}/")
    desk.get_by_test_id(f"drop-{dropper.pk}").click()
    screens.shot(desk, "confirm-drop")
    _confirm(desk)
    desk.get_by_test_id(f"undrop-{dropper.pk}").click()
    desk.wait_for_load_state()
    dropper.refresh_from_db()
    assert not dropper.dropped

    # --- round 2 reaches alice's phone by itself ----------------------------------------------------------
    alice.goto(f"{alice.base_url}/tournaments/{event.pk}/me/")
    alice.wait_for_selector("[data-round='1']")
    desk.goto(f"{desk.base_url}/tournaments/{event.pk}/")
    desk.get_by_test_id("pair-next").click()
    _confirm(desk)
    alice.wait_for_selector("[data-round='2']", timeout=8_000)
    screens.shot(alice, "round-2-arrived-by-itself")
    projector = _context(browser, live_server, phone=False)
    projector.goto(f"{projector.base_url}/tournaments/{event.pk}/projector/pairings/")
    names = projector.locator("[data-testid=pairings-by-name] li strong").all_inner_texts()
    assert names == sorted(names, key=str.casefold) and len(names) == 9
    screens.shot(projector, "projector-pairings")
    projector.context.close()
    _finish_other_tables(event, organizer, skip=set())
    desk.goto(f"{desk.base_url}/tournaments/{event.pk}/")
    desk.get_by_test_id("pair-next").click()
    _confirm(desk)
    _finish_other_tables(event, organizer, skip=set())

    # --- top 4: stages by name, no intentional draw in the cut, an explicit finish ------------------------
    desk.goto(f"{desk.base_url}/tournaments/{event.pk}/")
    desk.get_by_test_id("start-topcut").click()
    _confirm(desk)
    assert desk.get_by_test_id("round-title").inner_text() == "Semifinals"
    assert desk.get_by_role("button", name="Intentional draw").count() == 0
    screens.shot(desk, "semifinals")
    _finish_other_tables(event, organizer, skip=set())
    desk.goto(f"{desk.base_url}/tournaments/{event.pk}/")
    desk.get_by_test_id("advance-topcut").click()
    _confirm(desk)
    assert desk.get_by_test_id("round-title").inner_text() == "Final"
    _finish_other_tables(event, organizer, skip=set())
    desk.goto(f"{desk.base_url}/tournaments/{event.pk}/")
    desk.get_by_test_id("finish").click()
    _confirm(desk)
    event.refresh_from_db()
    assert event.status == Tournament.Status.FINISHED
    desk.goto(f"{desk.base_url}/tournaments/{event.pk}/standings/")
    rows = desk.locator("[data-testid=standings] tbody tr")
    assert "Winner" in rows.nth(0).inner_text() and "Finalist" in rows.nth(1).inner_text()
    screens.shot(desk, "final-standings")
    alice.goto(f"{alice.base_url}/tournaments/{event.pk}/me/")
    screens.shot(alice, "my-event-finished")
    for page in (alice, bob, desk):
        page.context.close()


def payload_names(cards: dict[str, list[Any]], swaps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    by_id = {c.external_id: c.name for group in cards.values() for c in group}
    return [{"in": by_id.get(s.get("in") or ""), "out": by_id.get(s.get("out") or "")} for s in swaps]


def test_a_vale_pod_event_with_a_shared_first_place(
    browser: Any, live_server: Any, games: Any, organizer: Any
) -> None:
    from tournaments import services

    screens = Screens()
    screens.n = 40
    event = make_event(
        organizer, games["vale"], name="Vale Night", match_format="pods", tiebreakers="pods", rounds=1
    )
    for name in ("Ann", "Ben", "Cid"):
        services.player_register(tournament=event, by=organizer, name=name)
    round_ = services.round_pair_next(tournament=event, by=organizer)
    pod = round_.matches.get()
    desk = _context(browser, live_server, organizer, phone=False)
    desk.goto(f"{desk.base_url}/tournaments/matches/{pod.pk}/")
    form = desk.get_by_test_id("pod-form")
    seats = list(pod.seats.select_related("player").order_by("seat"))
    for seat, score in zip(seats, (58, 58, 40), strict=True):
        form.locator(f"input[name=score_{seat.player_id}]").fill(str(score))
        form.locator(f"input[name=tiebreak_{seat.player_id}]").fill("8")
    screens.shot(desk, "vale-pod-result")
    form.get_by_role("button", name="Save").click()
    desk.wait_for_load_state()
    places = sorted(pod.seats.values_list("place", flat=True))
    assert places == [1, 1, 3]
    phone = _context(browser, live_server)
    phone.goto(f"{phone.base_url}/tournaments/{event.pk}/standings/")
    table = phone.get_by_test_id("standings")
    header = table.locator("thead").inner_text()
    assert "Victory points" in header and "Summoned cards" in header and "TB1" not in header
    first_two = [table.locator("tbody tr").nth(i).inner_text() for i in range(2)]
    last = table.locator("tbody tr").nth(2).inner_text()
    # The two sharing first place score the same, more than the third, and the values are rounded.
    points = [float(row.split("\t")[2]) for row in (*first_two, last)]
    assert points[0] == points[1] > points[2], points
    assert all(len(cell) <= 4 for row in (*first_two, last) for cell in row.split("\t")[4:])
    assert seats[2].player.name in last
    screens.shot(phone, "vale-standings-phone")
    phone.context.close()
    desk.context.close()
