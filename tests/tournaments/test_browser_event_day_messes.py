"""An event day with its messes, end to end in Chromium.

A desktop organizer (1280 px), 390x844 phones (each a browser context of its own) and a 1920 px projector run
one capped event: a waitlisted phone learns by itself that a drop before the start gave it a place; "Erin Park",
added in bulk, is claimed by erin joining by code; a no-show frees a place at the start and a late player joins
by code after round 1 is paired; the organizer swaps two players before any result, records a penalty and gives
one table five more minutes (seen on that table's phone and on the projector); a phone calls a judge, which
reaches the round dashboard that the organizer keeps open in its own tab and that never reloads; the top 4 is
played to the end and every player's My event shows their final place.

People click what people click (phones: join, report, confirm, call a judge; the organizer: the confirm-then-act
pages); what a person would not click through (accounts, the other tables' results) goes through the services.
Screenshots in tests/artifacts/event_day_messes/.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser_session import sign_in_context

from .factories import finish_round, make_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "event_day_messes"
PHONE = {"width": 390, "height": 844}
DESK = {"width": 1280, "height": 900}
WALL = {"width": 1920, "height": 1080}
SERVER_ERRORS: list[str] = []  # every 5xx any browser of the scenario received (the day must see no 5xx)


def _server_error(response: Any) -> None:
    """Record a 5xx, except the busy database's designed answer to a live poll: the test server's SQLite
    has one writer, so a poll may meet a write from the test's own services and answer 503 with Retry-After
    (config/busy.py); the page's script skips it and polls again."""
    if response.status < 500:
        return
    busy_poll = (
        response.status == 503
        and "/live/" in response.url
        and response.request.method == "GET"
        and response.headers.get("retry-after")
    )
    if not busy_poll:
        SERVER_ERRORS.append(f"{response.status} {response.request.method} {response.url}")


def _context(browser: Any, live_server: Any, user: Any = None, *, viewport: dict[str, int] = PHONE) -> Any:
    """A browser of its own, already signed in as ``user`` (a server-side session: the log-in form is
    tested elsewhere)."""

    context = browser.new_context(locale="en-US", viewport=viewport)
    context.set_default_timeout(15_000)
    context.on("response", _server_error)
    if user is not None:
        sign_in_context(context, live_server, user)
    page = context.new_page()
    page.base_url = live_server.url  # type: ignore[attr-defined]
    return page


def _shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
    width = page.viewport_size["width"]
    if width <= 400:
        scroll = page.evaluate("document.documentElement.scrollWidth")
        assert scroll <= width, f"{name}: {scroll}px wide on a {width}px phone"


def _join_by_code(page: Any, code: str) -> None:
    page.goto(f"{page.base_url}/tournaments/join/")
    page.fill("[data-testid=join-code-input]", code.lower())
    page.get_by_test_id("join-code-go").click()
    page.wait_for_selector("[data-testid=join-form]")


def _confirm(page: Any) -> None:
    page.wait_for_selector("[data-testid=confirm-page]")
    page.get_by_test_id("confirm-yes").click()
    page.wait_for_load_state()


def _sent(page: Any) -> None:
    """My event sends its writes from a queue on the phone: wait until nothing waits in it."""
    page.wait_for_selector("[data-testid=offline-queue] li.waiting", state="detached")


def test_an_event_day_with_its_messes_runs_to_the_end(
    browser: Any, live_server: Any, games: Any, organizer: Any, make_user: Any
) -> None:
    from tournaments import services
    from tournaments.models import EntryChange, Match, MatchSeat, PairingChange, Penalty, Player, Tournament

    SERVER_ERRORS.clear()
    event = make_event(organizer, games["yugioh"], name="Messy Cup", rounds=2, top_cut=4, capacity=6, seed=21)
    accounts = [make_user(name) for name in ("ann", "ben", "cy")]
    for user in accounts:
        services.player_register(tournament=event, by=user)
    erin, wendy, lena = make_user("erin"), make_user("wendy"), make_user("lena")

    # --- before the start: the organizer adds three names; the event is full, wendy waits in line ---------------
    desk = _context(browser, live_server, organizer, viewport=DESK)
    desk.goto(f"{desk.base_url}/tournaments/{event.pk}/players/bulk/")
    desk.fill("[data-testid=bulk-text]", "Erin Park\nGus Hale\nHal Ortiz\n")
    desk.get_by_test_id("bulk-submit").click()
    desk.wait_for_selector("[data-testid=check-in-list]")
    assert Player.objects.filter(tournament=event, waitlisted=False).count() == 6

    wendy_phone = _context(browser, live_server, wendy)
    _join_by_code(wendy_phone, event.join_code)
    wendy_phone.get_by_test_id("join-submit").click()
    wendy_phone.wait_for_selector("[data-testid=waitlisted]")
    assert Player.objects.get(tournament=event, user=wendy).waitlisted
    _shot(wendy_phone, "01-wendy-waitlisted")

    # Erin joins by code as `erin` and says the bulk-added "Erin Park" is her: one entry, not two.
    erin_phone = _context(browser, live_server, erin)
    _join_by_code(erin_phone, event.join_code)
    erin_entry = Player.objects.get(tournament=event, name="Erin Park")
    erin_phone.get_by_test_id(f"claim-{erin_entry.pk}").check()
    _shot(erin_phone, "02-erin-claims")
    erin_phone.get_by_test_id("join-submit").click()
    erin_phone.wait_for_selector("[data-testid=my-record]")
    assert erin_phone.locator("h1.me-title").inner_text() == "Erin Park"
    assert Player.objects.get(pk=erin_entry.pk).user == erin
    assert Player.objects.filter(tournament=event, name__icontains="erin").count() == 1

    # Gus drops before the start (the organizer's confirm page): wendy's phone says so by itself.
    gus = Player.objects.get(tournament=event, name="Gus Hale")
    desk.goto(f"{desk.base_url}/tournaments/{event.pk}/")
    desk.get_by_test_id(f"drop-{gus.pk}").click()
    _confirm(desk)
    wendy_phone.wait_for_selector("[data-testid=promoted]", timeout=20_000)
    assert wendy_phone.locator("[data-testid=waitlisted]").count() == 0
    assert not Player.objects.get(tournament=event, user=wendy).waitlisted
    assert EntryChange.objects.filter(player__user=wendy, action="promote").exists()
    _shot(wendy_phone, "03-wendy-promoted")

    # --- the start: Hal never shows up (a place frees), round 1 is paired -----------------------------------
    services.checkin_open(tournament=event, by=organizer)
    for player in Player.objects.filter(tournament=event, waitlisted=False, dropped_at_round__isnull=True):
        if player.name != "Hal Ortiz":
            services.player_check_in(player=player, by=organizer)
    desk.goto(f"{desk.base_url}/tournaments/{event.pk}/check-in/")
    desk.get_by_test_id("start-event").click()
    _confirm(desk)
    desk.wait_for_selector("[data-testid=round-title]")
    assert Player.objects.get(tournament=event, name="Hal Ortiz").no_show
    round1 = event.round_set.get(number=1)

    # The organizer keeps round 1's dashboard open in a tab of its own; it must never be navigated.
    dash = desk.context.new_page()
    dash.goto(f"{desk.base_url}/tournaments/{event.pk}/rounds/1/")
    dash.wait_for_selector("[data-testid=alerts-none]")
    dash.evaluate("window.stillTheSamePage = 'yes'")
    base_title = dash.title()

    # --- a late player joins by code after round 1 is paired ------------------------------------------------
    lena_phone = _context(browser, live_server, lena)
    _join_by_code(lena_phone, event.join_code)
    assert "play from round 2" in lena_phone.get_by_test_id("late-join").inner_text()
    lena_phone.get_by_test_id("join-submit").click()
    lena_phone.wait_for_selector("[data-testid=next-step]")
    assert Player.objects.get(tournament=event, user=lena).joined_round == 2
    _shot(lena_phone, "04-lena-late")

    # --- a swapped pairing before any result ------------------------------------------------------------------
    seats = list(
        MatchSeat.objects.filter(match__round=round1, match__bye=False)
        .select_related("player")
        .order_by("match__table", "seat")
    )
    a, b = seats[0].player, seats[2].player
    desk.get_by_test_id("mend-tools").locator("summary").click()
    form = desk.get_by_test_id("swap-form")
    form.locator("select[name=player]").select_option(label=a.name)
    form.locator("select[name=other]").select_option(label=b.name)
    form.get_by_test_id("swap").click()
    desk.wait_for_selector("[data-testid=confirm-page]")
    assert f"Swap {a.name} and {b.name}?" in desk.inner_text("h1")
    desk.get_by_test_id("confirm-yes").click()
    desk.wait_for_selector("[data-testid=pairing-changes]")
    assert PairingChange.objects.filter(round=round1, actor=organizer).count() == 1
    assert MatchSeat.objects.get(player=a, match__round=round1).match_id == seats[2].match_id
    assert MatchSeat.objects.get(player=b, match__round=round1).match_id == seats[0].match_id
    # The open dashboard shows the new pairing by itself.
    dash.wait_for_function(
        "([t, name]) => document.querySelector(`tr[data-table='${t}']`)?.innerText.includes(name)",
        arg=[seats[2].match.table, a.name],
    )

    # --- a penalty (confirm-then-act), counted on the open dashboard ------------------------------------------
    desk.get_by_test_id("penalties-link").click()
    desk.select_option("[data-testid=penalty-player]", label=b.name)
    desk.fill("[data-testid=penalty-infraction]", "Slow play")
    desk.select_option("[data-testid=penalty-kind]", value="warning")
    desk.get_by_test_id("penalty-submit").click()
    _confirm(desk)
    desk.wait_for_selector("[data-testid=penalty-log]")
    assert Penalty.objects.get(tournament=event).player == b
    dash.wait_for_selector(f"[data-testid=penalty-count-{b.pk}]")

    # --- five more minutes for one table: its phone and the projector see it ----------------------------------
    services.round_timer_start(round_=round1, by=organizer, minutes=40)
    table = MatchSeat.objects.get(player=a, match__round=round1).match
    first, second = [s.player for s in table.seats.select_related("player__user").order_by("seat")]
    assert first.user_id and second.user_id, "both players of the swapped table have phones"
    phone1 = _context(browser, live_server, first.user)
    phone2 = _context(browser, live_server, second.user)
    for phone in (phone1, phone2):
        phone.goto(f"{phone.base_url}/tournaments/{event.pk}/me/")
        assert str(table.table) in phone.get_by_test_id("my-table").inner_text()
    wall = _context(browser, live_server, viewport=WALL)
    wall.goto(f"{wall.base_url}/tournaments/{event.pk}/projector/timer/")
    wall.wait_for_selector("[data-testid=projector-timer]")
    desk.goto(f"{desk.base_url}/tournaments/{event.pk}/rounds/1/")
    desk.get_by_test_id(f"extend-{table.pk}").click()
    desk.wait_for_selector(f"[data-testid=extra-{table.pk}]")
    table.refresh_from_db()
    assert table.extra_minutes == 5
    phone1.wait_for_selector("[data-testid=my-extra-time]")
    assert "5 extra minutes" in phone1.get_by_test_id("my-extra-time").inner_text()
    wall.wait_for_selector("[data-testid=projector-extensions]")
    assert f"Table {table.table}: +5 min" in wall.get_by_test_id("projector-extensions").inner_text()
    dash.wait_for_selector(f"[data-testid=extra-{table.pk}]")
    _shot(phone1, "05-phone-extra-time")
    _shot(wall, "06-projector-extra-time")

    # --- a judge call from the phone reaches the open dashboard without a reload ------------------------------
    phone1.get_by_test_id("call-judge").click()
    phone1.wait_for_selector("[data-testid=judge-called]")
    dash.wait_for_selector(f"[data-testid=judge-call-{table.table}]")
    assert dash.get_by_test_id("alert-badge").inner_text() == "1"
    assert dash.title() == f"(1) {base_title}"
    assert dash.get_by_test_id(f"table-call-{table.pk}").is_visible()
    assert dash.evaluate("window.stillTheSamePage") == "yes", "the dashboard reloaded"
    _shot(dash, "07-dashboard-judge-call")

    # The table plays on: the first phone saves both games, the second confirms them.
    for number in (1, 2):
        game_form = phone1.get_by_test_id(f"game-form-{number}")
        game_form.locator(f"input[name=first][value='{first.pk}']").check()
        game_form.locator(f"input[name=winner][value='{first.pk}']").check()
        game_form.get_by_test_id(f"save-game-{number}").click()
        _sent(phone1)
    phone2.reload()
    phone2.get_by_test_id("confirm").click()
    _sent(phone2)
    table.refresh_from_db()
    assert table.status == Match.Status.CONFIRMED
    finish_round(event, organizer)
    dash.wait_for_selector("[data-testid=outstanding]:has-text('0 matches still need a result')")
    assert dash.evaluate("window.stillTheSamePage") == "yes", "the dashboard reloaded"
    _shot(dash, "08-dashboard-round-done")

    # --- round 2 (with the late player), then the top 4 to the end --------------------------------------------
    desk.goto(f"{desk.base_url}/tournaments/{event.pk}/")
    desk.get_by_test_id("pair-next").click()
    _confirm(desk)
    assert Match.objects.filter(round__tournament=event, round__number=2, seats__player__user=lena).exists()
    finish_round(event, organizer)
    for step in ("start-topcut", "advance-topcut"):
        desk.goto(f"{desk.base_url}/tournaments/{event.pk}/")
        desk.get_by_test_id(step).click()
        _confirm(desk)
        if step == "start-topcut":
            finish_round(event, organizer)

    # The final is played on the finalists' phones: the higher seed is told they choose who goes first.
    final = event.round_set.order_by("-number").first().matches.get()
    finalists = [s.player for s in final.seats.select_related("player__user").order_by("seat")]
    pages = {}
    for player in finalists:
        pages[player.pk] = _context(browser, live_server, player.user)
        pages[player.pk].goto(f"{live_server.url}/tournaments/{event.pk}/me/")
    prompts = {pk: page.get_by_test_id("next-first").inner_text() for pk, page in pages.items()}
    seed = next(p for p in finalists if "you are the higher seed, so you choose" in prompts[p.pk])
    other = next(p for p in finalists if p.pk != seed.pk)
    assert f"{seed.name} is the higher seed and chooses who goes first" in prompts[other.pk]
    assert "toss" not in prompts[seed.pk] + prompts[other.pk]
    for number in (1, 2):
        game_form = pages[seed.pk].get_by_test_id(f"game-form-{number}")
        game_form.locator(f"input[name=first][value='{seed.pk}']").check()
        game_form.locator(f"input[name=winner][value='{seed.pk}']").check()
        game_form.get_by_test_id(f"save-game-{number}").click()
        _sent(pages[seed.pk])
    pages[other.pk].reload()
    pages[other.pk].get_by_test_id("confirm").click()
    _sent(pages[other.pk])
    final.refresh_from_db()
    assert final.status == Match.Status.CONFIRMED
    for page in pages.values():
        page.context.close()
    desk.goto(f"{desk.base_url}/tournaments/{event.pk}/")
    desk.get_by_test_id("finish").click()
    _confirm(desk)
    event.refresh_from_db()
    assert event.status == Tournament.Status.FINISHED

    # Every player's phone shows their final place; the API agrees.
    api = desk.request.get(f"{desk.base_url}/api/tournaments/{event.pk}/players/")
    assert api.ok
    rows = api.json()["players"]
    places = {row["name"]: row["place"] for row in rows if row.get("place") is not None}
    phones = {wendy.pk: wendy_phone, erin.pk: erin_phone, lena.pk: lena_phone}
    phones |= {first.user_id: phone1, second.user_id: phone2}
    for user in (*accounts, erin, wendy, lena):
        player = Player.objects.get(tournament=event, user=user)
        page = phones.get(user.pk) or _context(browser, live_server, user)
        phones[user.pk] = page
        page.goto(f"{page.base_url}/tournaments/{event.pk}/me/")
        final = page.get_by_test_id("my-final").inner_text()
        assert final.startswith("Final standings: you finished"), (user.username, final)
        assert f"of {len(places)}" in final and player.name in places, (user.username, final, places)
        assert "The round timer has not started." not in page.inner_text("main"), user.username
        if user.pk in (lena.pk, first.user_id):
            _shot(page, f"09-final-place-{user.username}")
    assert len(places) == 6 and sorted(places.values())[:2] == [1, 2], places
    assert places[seed.name] == 1 and places[other.name] == 2, places
    assert "Hal Ortiz" not in places and "Gus Hale" not in places  # dropped before round 1: not listed
    for page in (*phones.values(), desk, wall):
        page.context.close()
    assert not SERVER_ERRORS, SERVER_ERRORS
