"""The Russian UI has no English left: the main pages, visited in Russian with Django's test client over one
played-through event, show no visible text (text nodes, placeholders, titles, labels of buttons) that is an
English UI string of the site's catalogues or an English rule-set name that has a Russian word.

User data — card, deck, player and tournament names, ban-list titles, set codes — is English or Russian as
its owner wrote it and is not checked; the fixtures name users' things in Russian or with words that are no
UI string, so a hit is always a leftover.

Pages: home, card search, card page, card import, ban lists, deck list, new deck, deck import (empty and
with problems), deck builder, deck page,
tournament list, new-tournament form, tournament detail, round, match (result history), standings,
My event, printable pairings and standings.
"""

from __future__ import annotations

import re
import tomllib
from functools import cache
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from tests.tournaments.factories import make_deck, make_event, ygo_cards, ygo_payload
from tournaments import services

from .test_translations import PO_FILES, ROOT, po_entries, unescape

_PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|%[sd]|\{\{?\s*\w+\s*\}?\}")
# What the user typed (a textarea echoes their list) is data, like scripts are not text.
_SKIP = {"script", "style", "template", "svg", "textarea"}
_ATTRIBUTES = {"placeholder", "title", "aria-label", "alt"}
# The language switcher names each language in itself ("English" on the Russian page), as switchers should.
_OWN_NAMES = {"English", "Русский"}


@cache
def _catalogue_patterns() -> list[tuple[str, re.Pattern[str]]]:
    """Every English msgid the catalogues translate into different Russian words, as a whole-text pattern
    (placeholders match any text)."""
    out = []
    for po in PO_FILES:
        for (_context, msgid), msgstr in po_entries(po).items():
            english, russian = unescape(msgid), unescape(msgstr)
            if (
                not russian
                or russian == english
                or not re.search(r"[A-Za-z]{2}", _PLACEHOLDER.sub("", english))
            ):
                continue
            parts = _PLACEHOLDER.split(english)
            # re.split keeps the groups: literal, name, literal, name, ... → literals joined by ".+?".
            # A literal's spaces next to a placeholder stay word boundaries: "%(min)s to %(max)s" is " to " between
            # two texts, not any "to" inside a word ("AtomicCards").
            literals = [
                (r"\s" if p[:1].isspace() else "") + re.escape(_norm(p)) + (r"\s" if p[-1:].isspace() else "")
                for p in parts[::2]
            ]
            out.append((english, re.compile(r"^" + r".+?".join(literals) + r"$", re.S)))
    return out


@cache
def _rule_set_words() -> dict[str, str]:
    """English game, format and section names and card-value labels with a different Russian word."""
    words: dict[str, str] = {}

    def add(en: object, ru: object) -> None:
        if isinstance(en, str) and isinstance(ru, str) and ru and ru != en:
            words[en] = ru

    for path in sorted((ROOT / "games" / "rulesets").glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        add(data["game"]["name"], data["game"].get("name_ru"))
        for fmt in data["formats"]:
            add(fmt["name"], fmt.get("name_ru"))
            for section in fmt.get("sections", []):
                add(section["name"], section.get("name_ru"))
        values = data["game"].get("labels", {}).get("values", {})
        for table in values.values():
            for entry in table.values():
                add(entry.get("en"), entry.get("ru"))
    return words


def _norm(text: str) -> str:
    return " ".join(text.split())


class _Visible(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self._skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIP:
            self._skipping += 1
        values = dict(attrs)
        for name in _ATTRIBUTES:
            if values.get(name):
                self.texts.append(str(values[name]))
        if tag == "input" and values.get("type") in {"submit", "button"} and values.get("value"):
            self.texts.append(str(values["value"]))

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP and self._skipping:
            self._skipping -= 1

    def handle_data(self, data: str) -> None:
        if not self._skipping and data.strip():
            self.texts.append(data)


@cache
def _catalogue_words() -> frozenset[str]:
    """One-word English UI strings ("Extra", "Save"): found inside a text with no Russian in it, they are
    a leftover glued to data ("Extra (1)")."""
    return frozenset(
        english for english, _pattern in _catalogue_patterns() if re.fullmatch(r"[A-Za-z][a-z]{2,}", english)
    )


def english_leftovers(html: str, data: tuple[str, ...] = ()) -> list[str]:
    """The page's visible texts that are an English UI string or rule-set name (see the module's note);
    ``data`` are the users' own words on the page (card, deck and player names), never counted."""
    main = html[html.find("<body") :]
    parser = _Visible()
    parser.feed(main)
    found = []
    words = _rule_set_words()
    for raw in parser.texts:
        text = _norm(raw)
        if text in _OWN_NAMES:
            continue
        rest = text
        for name in sorted(data, key=len, reverse=True):
            rest = rest.replace(name, " ")
        glued = set(re.findall(r"[A-Za-z]+", rest)) & _catalogue_words()
        if glued and not re.search("[А-Яа-яЁё]", rest):
            found.append(f"{text!r} (catalogue words: {sorted(glued)})")
            continue
        for english, pattern in _catalogue_patterns():
            if pattern.match(text):
                found.append(f"{text!r} (catalogue: {english!r})")
                break
        else:
            for english in words:
                # A one-word label ("Spell") only as a whole text: inside a longer one it is usually a name.
                whole = " " not in english
                if (
                    (text == english)
                    if whole
                    else re.search(rf"(?<![\w-]){re.escape(english)}(?![\w-])", text)
                ):
                    found.append(f"{text!r} (rule set: {english!r} → {words[english]!r})")
                    break
    return found


def test_the_checker_finds_an_english_leftover_and_passes_russian_text() -> None:
    assert english_leftovers("<body><p>Мои колоды</p><p>Сайд-колода</p></body>") == []
    assert english_leftovers("<body><button>Save</button></body>")
    assert english_leftovers('<body><input placeholder="Search cards"></body>') or not any(
        english == "Search cards" for english, _ in _catalogue_patterns()
    )
    assert english_leftovers("<body><td>Main deck</td></body>")  # a rule-set name with a Russian word
    assert english_leftovers("<body><p>Round 3</p></body>")  # a catalogue entry with a placeholder
    assert english_leftovers("<body><h3>Extra (1)</h3></body>")  # a catalogue word glued to data
    assert not english_leftovers("<body><li>2 × Side Spell 0</li></body>", data=("Side Spell 0",))
    assert not english_leftovers("<body><script>var x = 'Save';</script></body>")


@pytest.fixture
def event_day(games, organizer, user, other_user, make_user):  # type: ignore[no-untyped-def]
    """A Yu-Gi-Oh! event in round 1: the user's match was reported, disputed and resolved."""
    game = games["yugioh"]
    cards = ygo_cards(game)
    deck = make_deck(user, game, ygo_payload(cards), name="Колода Алисы")
    event = make_event(organizer, game, name="Кубок клуба", rounds=3)
    me = services.player_register(tournament=event, by=user, deck=deck)
    for player in (other_user, make_user("petr"), make_user("anna")):
        services.player_register(
            tournament=event, by=player, deck=make_deck(player, game, ygo_payload(cards))
        )
    round_ = services.round_pair_next(tournament=event, by=organizer)
    match = round_.matches.get(seats__player=me)
    opponent = match.seats.exclude(player=me).get().player
    my_seat = match.seats.get(player=me).seat
    services.match_report_result(match=match, by=user, wins=[0, 2] if my_seat == 0 else [2, 0])
    services.match_dispute(match=match, by=opponent.user, reason="мы сыграли три партии")
    services.match_resolve_dispute(match=match, by=organizer, reason="проверили бланк")
    return {"event": event, "deck": deck, "match": match, "cards": cards}


def _data(event_day) -> tuple[str, ...]:  # type: ignore[no-untyped-def]
    """The users' own words on the pages: card, deck, player and event names."""
    cards = [card.name for group in event_day["cards"].values() for card in group]
    players = [p.name for p in event_day["event"].players.all()] + ["olga", "alice", "bob", "petr", "anna"]
    return (*cards, *players, event_day["deck"].name, event_day["event"].name)


def _pages(event_day) -> list[tuple[str, str, str]]:  # type: ignore[no-untyped-def]
    """(who, name, url) for every page the test visits."""
    event, deck, match = event_day["event"], event_day["deck"], event_day["match"]
    return [
        ("anyone", "home", "/"),
        ("anyone", "card search", reverse("cards:browser") + "?game=yugioh&q=Test"),
        ("anyone", "card page", reverse("cards:detail", args=[event_day["cards"]["extra"][0].pk])),
        ("anyone", "ban lists", "/rules/banlists/"),
        ("player", "deck list", reverse("decks:list")),
        ("player", "deck import", reverse("decks:import")),
        ("player", "new deck", reverse("decks:new") + "?game=yugioh"),
        ("staff", "card import", reverse("cards:import")),
        ("player", "deck builder", reverse("decks:builder", args=[deck.pk])),
        ("player", "deck page", reverse("decks:detail", args=[deck.pk])),
        ("anyone", "tournament list", reverse("tournaments:list")),
        ("organizer", "new-tournament form", reverse("tournaments:create")),
        ("organizer", "tournament detail", reverse("tournaments:detail", args=[event.pk])),
        ("organizer", "round", reverse("tournaments:round", args=[event.pk, 1])),
        ("organizer", "match", reverse("tournaments:match", args=[match.pk])),
        ("anyone", "standings", reverse("tournaments:standings", args=[event.pk])),
        ("player", "My event", reverse("tournaments:my_event", args=[event.pk])),
        ("organizer", "printable pairings", reverse("tournaments:print", args=[event.pk, "pairings"])),
        ("organizer", "printable standings", reverse("tournaments:print", args=[event.pk, "standings"])),
    ]


@pytest.mark.django_db
def test_the_main_pages_in_russian_have_no_english_left(
    event_day, client, user, organizer, make_user
) -> None:
    staff = make_user("stas")
    staff.is_staff = True
    staff.save(update_fields=["is_staff"])
    leftovers = {}
    for who, name, url in _pages(event_day):
        client.logout()
        if who != "anyone":
            client.force_login({"player": user, "organizer": organizer, "staff": staff}[who])
        client.cookies["django_language"] = "ru"
        response = client.get(url)
        assert response.status_code == 200, (name, url, response.status_code)
        page = response.content.decode()
        assert 'lang="ru"' in page, name
        found = english_leftovers(page, _data(event_day))
        if found:
            leftovers[name] = found
    if leftovers:
        pytest.fail(
            "English on Russian pages:\n"
            + "\n".join(f"{k}: {v}" for k, hits in leftovers.items() for v in hits)
        )


@pytest.mark.django_db
def test_import_problems_are_russian_too(event_day, client, user) -> None:
    client.force_login(user)
    client.cookies["django_language"] = "ru"
    data = "Main\n2 No Such Card\nAbyss:\n#main\n"
    page = client.post(
        reverse("decks:import"), {"game": "yugioh", "data": data, "name": "x"}
    ).content.decode()
    assert "No Such Card" in page
    assert not english_leftovers(page), english_leftovers(page)


def test_the_pages_it_covers_are_listed_in_the_module_note() -> None:
    note = (__doc__ or "").replace("\n", " ")
    for name in ("card search", "deck builder", "deck page", "new-tournament form", "standings", "My event"):
        assert name in note
