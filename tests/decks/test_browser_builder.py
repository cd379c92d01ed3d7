"""In Chromium: build a legal deck from scratch for each deck game, watch a violation appear and
disappear live, save, export the deck and import the file back."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest

from tests.conftest import login_in_browser

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def browser_cards(transactional_db: Any, make_user: Any) -> dict[str, Any]:
    from cards import demo
    from cards.games import games_sync

    games_sync()
    demo.load(io.StringIO())
    make_user("alice")
    return {}


def new_deck(page: Any, game: str, fmt: str, name: str) -> None:
    page.goto(page.base_url + f"/decks/new/?game={game}")
    page.select_option("select[name=game]", game)
    page.fill("input[name=name]", name)
    page.select_option("select[name=format_slug]", f"{game}/{fmt}")
    page.click("[data-testid=new-deck-form] button[type=submit]")
    page.wait_for_selector("#builder-config", state="attached")
    page.wait_for_function("document.getElementById('legal-status').textContent !== ''")


def row(page: Any, section: str, name: str) -> Any:
    return page.locator(f"li.deck-row[data-section={section}]").filter(
        has=page.locator("span.name", has_text=re.compile("^" + re.escape(name) + "$"))
    )


def add(page: Any, section: str, name: str, copies: int, query: str | None = None) -> None:
    """Search, pick the exact result with the arrow keys, Enter to add, then + on the row for more copies."""
    page.select_option("[data-testid=target-section]", section)
    page.fill("[data-testid=search-q]", query or name)
    # The list is stamped with the query it answers, so an older answer is never used.
    handle = page.wait_for_function(
        "([q, name]) => document.getElementById('search-results').dataset.query === q && "
        "[...document.querySelectorAll('#search-results li.result .result-name')].findIndex(n => n.textContent === name) + 1",
        arg=[(query or name).strip(), name],
    )
    index = handle.json_value() - 1
    for _ in range(index):
        page.press("[data-testid=search-q]", "ArrowDown")
    page.press("[data-testid=search-q]", "Enter")
    target = row(page, section, name)
    target.wait_for()
    target.focus()
    for _ in range(copies - 1):
        page.keyboard.press("+")
    assert target.locator(".count").text_content() == str(copies)


def expect_count(page: Any, section: str, n: int) -> None:
    page.wait_for_function(
        "([s, n]) => document.querySelector(`[data-testid=count-${s}]`)?.textContent === String(n)",
        arg=[section, n],
    )


def expect_legal(page: Any, legal: bool) -> None:
    text = "Legal" if legal else "Not legal"
    page.wait_for_function("t => document.getElementById('legal-status').textContent === t", arg=text)


def violation_on(page: Any, section: str, name: str) -> Any:
    return row(page, section, name).locator(".row-violations li.violation")


def save_export_reimport(page: Any, game: str, fmt: str, export_fmt: str, tmp_path: Any) -> dict[str, str]:
    page.click("[data-testid=save-deck]")
    page.wait_for_function(
        "document.getElementById('save-status').textContent.startsWith('Saved as version')"
    )
    counts = {
        el.get_attribute("data-testid"): el.text_content()
        for el in page.locator(".section-count").element_handles()
    }
    page.click("[data-testid=deck-page-link]")
    page.wait_for_selector("[data-testid=deck-report]")
    assert page.locator("[data-testid=deck-report] strong").text_content() == "Legal"
    with page.expect_download() as info:
        page.click(f"[data-testid=exports] a[data-fmt={export_fmt}]")
    path = tmp_path / info.value.suggested_filename
    info.value.save_as(path)
    page.goto(page.base_url + "/decks/import/")
    page.select_option("select[name=game]", game)
    page.select_option("select[name=format_slug]", f"{game}/{fmt}")
    page.set_input_files("input[name=file]", str(path))
    page.click("[data-testid=import-form] button[type=submit]")
    page.wait_for_url(re.compile(r"/decks/\d+/edit/$"))
    page.wait_for_function("document.getElementById('legal-status').textContent === 'Legal'")
    again = {
        el.get_attribute("data-testid"): el.text_content()
        for el in page.locator(".section-count").element_handles()
    }
    assert again == counts
    return again


def test_it_builds_a_yugioh_deck_with_extra_and_side(browser_cards, page, tmp_path) -> None:
    login_in_browser(page, "alice")
    new_deck(page, "yugioh", "advanced", "Browser YGO")
    for name in ("Summoned Skull", "Celtic Guardian", "Gemini Elf", "Mystical Elf", "Giant Rat", "Exiled Force",
                 "Mystic Tomato", "Marshmallon", "Trap Hole", "Mirror Force", "Magic Cylinder",
                 "Swords of Revealing Light", "Heavy Storm"):  # fmt: skip
        add(page, "main", name, 3)
    add(page, "main", "Raigeki", 1)
    add(page, "extra", "Stardust Dragon", 1)
    add(page, "extra", "Number 39: Utopia", 1)
    add(page, "side", "Scapegoat", 2)
    expect_count(page, "main", 40)
    expect_legal(page, True)
    # A fourth copy breaks the 3-copy limit: the message appears on that row, then goes away.
    row(page, "main", "Summoned Skull").focus()
    page.keyboard.press("+")
    expect_legal(page, False)
    violation_on(page, "main", "Summoned Skull").first.wait_for()
    row(page, "main", "Summoned Skull").focus()
    page.keyboard.press("-")
    expect_legal(page, True)
    assert violation_on(page, "main", "Summoned Skull").count() == 0
    # Moving a main-deck card to the extra deck is illegal there; M moves it on to the side deck.
    add(page, "main", "Jinzo", 1)
    row(page, "main", "Jinzo").focus()
    page.keyboard.press("m")
    violation_on(page, "extra", "Jinzo").first.wait_for()
    row(page, "extra", "Jinzo").focus()
    page.keyboard.press("m")
    expect_legal(page, True)
    expect_count(page, "side", 3)
    save_export_reimport(page, "yugioh", "advanced", "ydk", tmp_path)


def test_it_builds_an_everseal_deck_with_a_hero(browser_cards, page, tmp_path) -> None:
    login_in_browser(page, "alice")
    new_deck(page, "everseal", "standard", "Browser Everseal")
    page.select_option("[data-testid=hero-select]", label="Ледяная Хранительница")
    page.locator("[data-testid=hero-restriction-list] li").first.wait_for()
    for name in ("Снежный Волчонок", "Ледяной Ёж", "Горный Тролль", "Инеевый Дух", "Лесная Фея", "Мшистый Жук",
                 "Дриада-Хранительница", "Корневой Змей", "Песчаная Гиена", "Огненный Скорпион"):  # fmt: skip
        add(page, "main", name, 3)
    expect_count(page, "main", 30)
    expect_legal(page, True)
    # The hero forbids size-L monsters: adding one shows the hero's restriction on that card.
    add(page, "main", "Северный Мамонт", 1)
    expect_legal(page, False)
    row(page, "main", "Северный Мамонт").focus()
    page.keyboard.press("Delete")
    expect_legal(page, True)
    save_export_reimport(page, "everseal", "standard", "json", tmp_path)


def test_it_builds_a_basic_twin_deck(browser_cards, page, tmp_path) -> None:
    login_in_browser(page, "alice")
    new_deck(page, "twindeck", "basic", "Browser twin-deck")
    for name in ("Гоблин-Налётчик", "Эльфийская Лучница", "Скелет-Страж", "Гномий Жрец"):
        add(page, "creatures", name, 4)
    for name in ("Ржавый Кинжал", "Посох Ученика", "Боевой Молот", "Стальной Меч", "Мантия Послушника",
                 "Кожаный Доспех", "Кольчуга", "Дубовый Щит", "Засада", "Зелье Лечения"):  # fmt: skip
        add(page, "main", name, 4)
    expect_count(page, "creatures", 16)
    expect_count(page, "main", 40)
    expect_legal(page, True)
    # A creature card in the main deck is the wrong kind of card there.
    add(page, "main", "Орк-Берсерк", 1)
    violation_on(page, "main", "Орк-Берсерк").first.wait_for()
    row(page, "main", "Орк-Берсерк").focus()
    page.keyboard.press("-")
    expect_legal(page, True)
    save_export_reimport(page, "twindeck", "basic", "text", tmp_path)


def test_it_builds_a_caster_deck(browser_cards, page, tmp_path) -> None:
    from cards.models import Card, Game

    game = Game.objects.get(slug="caster")
    cards = [
        c
        for c in Card.objects.filter(game=game, is_token=False, deck_buildable=True).order_by("external_id")
        if "soul bond" not in [s.lower() for s in c.subtypes]
    ]
    # The small sample database (used when ../shared is absent) has too few cards for 50: add fillers.
    for n in range(max(0, 13 - len(cards))):
        cards.append(Card.objects.create(game=game, external_id=f"Filler {n}", identity=f"Filler {n}",
                                         name=f"Filler {n}", search_name=f"filler {n}", card_type="spell"))  # fmt: skip
    picks = cards[:13]
    login_in_browser(page, "alice")
    new_deck(page, "caster", "standard", "Browser Caster")
    for index, card in enumerate(picks):
        add(page, "main", str(card), 4 if index < 12 else 2, query=card.name)
    expect_count(page, "main", 50)
    expect_legal(page, True)
    row(page, "main", str(picks[0])).focus()
    page.keyboard.press("+")
    expect_legal(page, False)
    violation_on(page, "main", str(picks[0])).first.wait_for()
    row(page, "main", str(picks[0])).focus()
    page.keyboard.press("-")
    expect_legal(page, True)
    save_export_reimport(page, "caster", "standard", "cod", tmp_path)
