"""HTML pages for decks. Views parse input and call services/selectors; the builder talks to the API."""

from __future__ import annotations

import re
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.html import format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from cards import search as card_search
from cards.images import card_images
from cards.labels import (
    card_preview,
    field_label,
    game_label_table,
    game_title,
    value_label,
    with_value_labels,
)
from cards.models import Card, Game, Printing
from cards.selectors import card_facets, game_search_filters

from . import ownership, selectors, services, stats, svg
from .api import deck_json, export_response
from .compare import lists_compare, parse_ref
from .deckhash import deck_hash_of
from .exporting import ydke_link
from .forms import DeckImportForm, DeckNewForm
from .gamerules import (
    FormatInfo,
    describe_restriction,
    filter_labels,
    format_info,
    game_formats,
    opening_hand,
    playtest_rules,
)
from .maybe import MAYBE
from .models import Deck
from .tags import deck_line_tags


def _lang() -> str:
    return get_language() or "en"


MY_DECKS_PAGE = 50


def deck_list(request: HttpRequest) -> HttpResponse:
    # The list shows no card totals: no per-deck count of lines (with 200 decks, a join and a group of every
    # line before the first page could be cut).
    decks = Deck.objects.select_related("owner", "game", "hero").order_by("-updated_at", "-id")
    game = request.GET.get("game", "")
    if game:
        decks = decks.filter(game__slug=game)
    own = decks.filter(owner_id=request.user.pk) if request.user.is_authenticated else decks.none()
    # The player's own folders: a name on each deck; the list shows one folder at a time when asked.
    folders = sorted(set(own.exclude(folder="").values_list("folder", flat=True)), key=str.casefold)
    folder = request.GET.get("folder", "")
    if folder == "-":
        own = own.filter(folder="")
    elif folder:
        own = own.filter(folder=folder)
    # A page of the player's own decks at a time: a collector's 200 decks with their "missing N" badges are
    # a page too long to read on a phone and the costliest part of the page to render.
    mine = Paginator(own, MY_DECKS_PAGE).get_page(request.GET.get("mine_page"))
    missing = ownership.decks_missing(user=request.user, decks=mine)
    for deck in mine:
        deck.missing_copies = missing.get(deck.pk)
    public = Paginator(
        decks.filter(visibility=Deck.Visibility.PUBLIC).exclude(owner_id=request.user.pk or 0), 30
    ).get_page(request.GET.get("page"))
    return render(
        request,
        "decks/list.html",
        {
            "mine": mine,
            "public": public,
            "games": Game.objects.filter(has_decks=True),
            "game": game,
            "folders": folders,
            "folder": folder,
        },
    )


def _compare_choices(user: Any) -> list[Deck]:
    """The decks offered in the compare page's pickers: the player's own, then the newest public ones."""
    # Two light queries (no card counts): the pickers show a name, an owner and a game.
    decks = Deck.objects.select_related("owner", "game").only(
        "pk", "name", "owner__username", "game__slug", "game__name", "game__name_ru", "updated_at"
    )
    own = list(decks.filter(owner_id=user.pk).order_by("-updated_at")[:200]) if user.is_authenticated else []
    public = decks.filter(visibility=Deck.Visibility.PUBLIC).exclude(owner_id=user.pk or 0)
    return own + list(public.order_by("-updated_at")[:200])


def _compare_options(choices: list[Deck], selected: str) -> str:
    """The pickers' <option>s, escaped, built once in Python: 400 decks in two pickers were most of the
    page's time as template loops."""
    lang = _lang()
    titles: dict[int, str] = {}
    return format_html_join(
        "",
        '<option value="{}"{}>{} · {} · {}</option>',
        (
            (d.pk, mark_safe(" selected") if str(d.pk) == selected else "", d.name, d.owner.username,
             titles.setdefault(d.game_id, game_title(d.game, lang)))
            for d in choices
        ),
    )  # fmt: skip


@require_GET
def deck_compare_page(request: HttpRequest) -> HttpResponse:
    """Two lists side by side: decks (own, public, or unlisted by link) and tournaments' registered lists
    the event shows the visitor (``player:<id>``); one the visitor may not read is a 404."""
    raw_a, raw_b = request.GET.get("a", "").strip(), request.GET.get("b", "").strip()
    a, b = parse_ref(raw_a), parse_ref(raw_b)
    choices = _compare_choices(request.user)
    context: dict[str, Any] = {
        "options_a": _compare_options(choices, raw_a),
        "options_b": _compare_options(choices, raw_b),
        "choice_refs": {str(d.pk) for d in choices},
        "a": raw_a if a else "",
        "b": raw_b if b else "",
        "sections": None,
    }
    if a and b:
        first, second, sections = lists_compare(a=a, b=b, user=request.user)
        lang = _lang()
        try:
            fmt = format_info(first.game_slug, first.format_slug)
        except KeyError:
            fmt = format_info(first.game_slug, None)
        titles = {s.slug: s.title(lang) for s in fmt.sections}
        titles[MAYBE] = _("Maybeboard")
        titles["hero"] = fmt.hero_title(lang) if fmt.has_hero else _("Hero")
        context.update(
            {
                "first": first,
                "second": second,
                "sections": [
                    {
                        "slug": slug,
                        "title": titles.get(slug, slug),
                        **parts,
                        "total_a": sum(x["count"] for x in parts["only_a"] + parts["both"]),
                        "total_b": sum(x["count"] for x in parts["only_b"] + parts["both"]),
                    }
                    for slug, parts in sections.items()
                ],
            }
        )
    return render(request, "decks/compare.html", context)


@login_required
def deck_new(request: HttpRequest) -> HttpResponse:
    form = DeckNewForm(request.POST or None, initial={"game": request.GET.get("game")})
    if request.method == "POST" and form.is_valid():
        try:
            deck = services.deck_create(
                owner=request.user,  # type: ignore[arg-type]
                game=form.cleaned_data["game"],
                name=form.cleaned_data["name"],
                format_slug=form.cleaned_data["format_slug"],
                visibility=form.cleaned_data["visibility"],
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            return redirect("decks:builder", pk=deck.pk)
    return render(request, "decks/new.html", {"form": form})


@login_required
def deck_import_page(request: HttpRequest) -> HttpResponse:
    form = DeckImportForm(
        request.POST or None, request.FILES or None, initial={"game": request.GET.get("game")}
    )
    problems: list[Any] = []
    errors: list[str] = []
    skipped: list[Any] = []
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data.get("file")
        data = upload.read() if upload is not None else form.cleaned_data["data"]
        try:
            result = services.deck_import(
                owner=request.user,  # type: ignore[arg-type]
                game=form.cleaned_data["game"],
                data=data,
                fmt=form.cleaned_data["fmt"] or None,
                filename=upload.name if upload is not None else None,
                format_slug=form.cleaned_data["format_slug"] or None,
                name=form.cleaned_data["name"] or None,
                allow_unknown=form.cleaned_data["allow_unknown"],
            )
        except services.DeckImportError as error:
            problems, errors, skipped = error.result.unknown, error.result.errors, error.result.skipped
            if upload is not None and not form.cleaned_data["data"]:
                # Keep the uploaded list in the text box so "import without them" needs no re-upload.
                text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
                form = DeckImportForm(
                    {**request.POST.dict(), "data": text, "fmt": form.cleaned_data["fmt"] or ""}, None
                )
                form.is_valid()
        else:
            assert result.deck is not None
            if result.unknown:
                messages.warning(
                    request, _("Imported without %(n)d unknown card line(s).") % {"n": len(result.unknown)}
                )
            else:
                messages.success(request, _("Deck imported."))
            groups = [line.text for line in result.skipped if line.reason == "group"]
            if groups:
                messages.info(
                    request,
                    _("Read as group headings, not cards: %(lines)s.") % {"lines": ", ".join(groups[:8])},
                )
            return redirect("decks:builder", pk=result.deck.pk)
    context = {"form": form, "problems": problems, "errors": errors, "skipped": skipped}
    return render(request, "decks/import.html", context)


def _first_attribute_filter(game_slug: str) -> Any | None:
    """The game's first configured "choice" search filter on a card attribute (not a built-in column):
    what a section is charted by when none of its cards has a cost or a level (Everseal: size)."""
    for search_filter in game_search_filters(game_slug=game_slug):
        if search_filter.kind == "choice" and not search_filter.builtin:
            return search_filter
    return None


def _field_word(game_slug: str, field: str, lang: str) -> str:
    """The rule set's word for cost/level ("Mana value"), else the site's translated one."""
    word = field_label(game_slug, field, lang)
    if word == field.capitalize():
        return {"cost": _("Cost"), "level": _("Level")}.get(field, word)
    return word


def _first_chart(
    game_slug: str, lines: list[tuple[Any, int]], title: str, lang: str
) -> tuple[str, str] | None:
    """(metric label, SVG) for a section's first chart: its cost curve, else its level curve, else a
    breakdown by the game's first attribute filter; None when the game offers nothing to chart."""
    # Types the game's curve leaves out (Magic's lands have mana value 0 but are no 0-drops).
    skip = set(playtest_rules(game_slug)["curve_skip_types"])
    curved = [(card, count) for card, count in lines if card.card_type not in skip]
    for field in ("cost", "level"):
        if any(getattr(card, field) is not None for card, _count in curved):
            label = _field_word(game_slug, field, lang)
            points = [(getattr(card, field), count) for card, count in curved]
            return label, svg.bar_chart(stats.curve(points), title=f"{title}: {label}")
    search_filter = _first_attribute_filter(game_slug)
    if search_filter is None:
        return None
    label = search_filter.title(lang)
    bars = stats.value_breakdown(
        ((card.attributes or {}).get(search_filter.field), count) for card, count in lines
    )
    return label, svg.bar_chart(bars, title=f"{title}: {label}")


def _section_stats(
    fmt: FormatInfo, sections: selectors.Sections, hands: dict[str, int]
) -> list[dict[str, Any]]:
    lang = _lang()
    # What each seat sees by its first turn: Yu-Gi-Oh!'s 5 going first, 6 going second.
    play = playtest_rules(fmt.game_slug)
    types_label = _("Card types")
    blocks = []
    for section in fmt.sections:
        lines = sections.get(section.slug, [])
        if not lines:
            continue
        title = section.title(lang)
        hand = hands.get(section.slug)
        size = sum(count for _card, count in lines)
        first_draws = section.slug == next(iter(hands), None)
        hand_first = (hand or 0) + (play["draw_first"] if first_draws else 0)
        hand_second = (hand or 0) + (play["draw_second"] if first_draws else 0)
        odds = (
            [
                {
                    "card": card,
                    "count": count,
                    "percent": round(100 * stats.prob_at_least(1, count, hand_first, size), 1),
                    "percent_second": round(100 * stats.prob_at_least(1, count, hand_second, size), 1),
                }
                for card, count in lines
            ]
            if hand
            else []
        )
        first = _first_chart(fmt.game_slug, lines, title, lang)
        blocks.append(
            {
                "slug": section.slug,
                "title": title,
                "total": size,
                "hand": hand,
                "hand_first": hand_first,
                "hand_second": hand_second,
                "seats_differ": hand_first != hand_second,
                "odds": odds,
                "chart_label": first[0] if first else "",
                # Built by decks.svg, which escapes every text node: safe to embed.
                "curve_svg": mark_safe(first[1]) if first else "",  # noqa: S308
                "types_svg": mark_safe(  # noqa: S308
                    svg.hbar_chart(
                        # Type names in the rule set's words for the page's language ("Монстр").
                        stats.breakdown(
                            (
                                value_label(fmt.game_slug, "type", card.card_type, lang)
                                if card.card_type
                                else "",
                                n,
                            )
                            for card, n in lines
                        ),
                        title=f"{title}: {types_label}",
                    )
                ),
            }
        )
    return blocks


def _type_order(game_slug: str) -> dict[str, int]:
    # The rule set's type labels list the game's types in its own order (monster, spell, trap).
    values = game_label_table(game_slug).get("values", {}).get("type", {})
    return {card_type: index for index, card_type in enumerate(values)}


def _with_ownership(
    listing: list[dict[str, Any]], owned: ownership.DeckOwnership | None
) -> list[dict[str, Any]]:
    """Each line of the listing gets ``have`` (owned / missing of the reader's collection), when known."""
    if owned is not None:
        for section in listing:
            for group in section["groups"]:
                for line in group["lines"]:
                    line["have"] = owned.lines.get((section["slug"], line["card"].pk))
    return listing


def _deck_listing(
    fmt: FormatInfo,
    sections: selectors.Sections,
    printings: dict[int, str],
    lang: str,
    tags: dict[str, dict[str, list[str]]] | None = None,
) -> list[dict[str, Any]]:
    """Every section of the format in the game's order, its cards grouped by the game's card types with
    counts, each card with its preview: the deck as the page lists it."""
    order = _type_order(fmt.game_slug)
    listing = []
    extra = [slug for slug in sections if slug not in fmt.section_slugs]
    titles = {s.slug: s.title(lang) for s in fmt.sections}
    titles[MAYBE] = _("Maybeboard")
    for slug in [*fmt.section_slugs, *extra]:
        lines = sections.get(slug, [])
        groups: dict[str, list[dict[str, Any]]] = {}
        for card, count in lines:
            groups.setdefault(card.card_type, []).append(
                {
                    "card": card,
                    "count": count,
                    "printing": printings.get(card.pk, ""),
                    "preview": card_preview(card, lang),
                    "tags": (tags or {}).get(slug, {}).get(str(card.pk), []),
                }
            )
        listing.append(
            {
                "slug": slug,
                "title": titles.get(slug, slug),
                "total": sum(count for _card, count in lines),
                "groups": [
                    {
                        "type": card_type,
                        "label": value_label(fmt.game_slug, "type", card_type, lang) if card_type else "—",
                        "total": sum(line["count"] for line in rows),
                        "lines": rows,
                    }
                    for card_type, rows in sorted(
                        groups.items(), key=lambda item: (order.get(item[0], len(order)), item[0])
                    )
                ],
            }
        )
    return listing


def deck_detail(request: HttpRequest, pk: int) -> HttpResponse:
    deck = selectors.deck_readable(pk=pk, user=request.user)
    lang = _lang()
    sections = selectors.deck_sections(deck)
    fmt = format_info(deck.game.slug, deck.format_slug)
    hands = opening_hand(deck.game.slug)
    # The report is worded by the catalogues: any language the site has, not only en / ru.
    report = selectors.deck_report(deck=deck, sections=sections, lang=get_language() or "en")
    versions = _with_messages(list(selectors.deck_versions(deck)[:30]))
    cards = [card for lines in sections.values() for card, _count in lines]
    printings = _printing_labels(cards)
    card_images([*cards, deck.hero, *(deck.co_heroes.all() if deck.hero else [])])
    # The card search language inside the deck: the lines it matches are marked (README "Searching cards").
    query = (request.GET.get("q") or "").strip()[:1000]
    matched: set[int] | None = None
    query_words = query_error = ""
    if query:
        try:
            matched, query_words = card_search.cards_matching(
                game=deck.game, text=query, cards=cards, lang=lang[:2]
            )
        except card_search.SearchError as exc:
            query_error = str(exc)
    owned = ownership.deck_ownership(deck=deck, user=request.user, sections=sections)
    return render(
        request,
        "decks/detail.html",
        {
            "deck": deck,
            "fmt": fmt,
            "fmt_title": fmt.title(lang),
            "game_title": game_title(deck.game, lang),
            "listing": _with_ownership(
                _deck_listing(fmt, sections, printings, lang, deck_line_tags(deck)), owned
            ),
            "hero_preview": card_preview(deck.hero, lang) if deck.hero else None,
            "co_hero_previews": [
                {"card": co, "preview": card_preview(co, lang)}
                for co in (deck.co_heroes.all() if deck.hero else [])
            ],
            "blocks": _section_stats(fmt, sections, hands),
            "report": report,
            "versions": versions,
            "can_edit": deck.editable_by(request.user),
            "ydke": ydke_link(deck, sections),
            "deck_hash": deck_hash_of(game_slug=deck.game.slug, sections=sections),
            "ownership": owned,
            "export_formats": [
                (key, label)
                for key, label in (
                    ("ydk", ".ydk"),
                    ("ydke", "ydke://"),
                    ("text", _("Text")),
                    ("csv", "CSV"),
                    ("json", "JSON"),
                    ("cod", "Cockatrice .cod"),
                    ("forge", "Forge .dck"),
                    ("xmage", "XMage .dck"),
                    ("pdf", _("Registration sheet (PDF)")),
                    ("cards", _("Cards to print and play (PDF)")),
                )
                if (deck.game.slug == "yugioh" or key not in {"ydk", "ydke"})
                and (deck.game.slug == "mtg" or key not in {"forge", "xmage"})
            ],
            "hands": hands,
            "query": query,
            "matched": matched,
            "matched_count": sum(n for lines in sections.values() for card, n in lines if card.pk in matched)
            if matched is not None
            else 0,
            "query_words": query_words,
            "query_error": query_error,
            "playtest": _playtest_config(deck, fmt, sections, hands, lang),
            "copied_from": deck.copied_from
            if deck.copied_from and deck.copied_from.readable_by(request.user)
            else None,
            "hero_title": fmt.hero_title(lang) if fmt.has_hero else _("Hero"),
        },
    )


def _playtest_config(
    deck: Deck, fmt: FormatInfo, sections: selectors.Sections, hands: dict[str, int], lang: str
) -> dict[str, Any]:
    """What the deck page's playtester shuffles: each drawn section's cards (name, copies, preview) and
    the game's rule for the opening hand, mulligan and first-turn draws (rule-set data)."""
    titles = {s.slug: s.title(lang) for s in fmt.sections}
    return {
        **playtest_rules(deck.game.slug),
        "hands": hands,
        "sections": [
            {
                "slug": slug,
                "title": titles.get(slug, slug),
                "size": size,
                "cards": [
                    {"name": str(card), "count": count, "preview": card_preview(card, lang)}
                    for card, count in sections.get(slug, [])
                ],
            }
            for slug, size in hands.items()
        ],
    }


def _hero_restrictions(game: Game, formats: list[FormatInfo], lang: str) -> dict[str, list[str]]:
    if not any(f.has_hero for f in formats):
        return {}
    titles = {s.slug: s.title(lang) for f in formats for s in f.sections}
    labels = filter_labels(game.slug, lang)
    rows = Card.objects.filter(game=game, attributes__has_key="restrictions").values_list("pk", "attributes")
    return {
        str(pk): [
            describe_restriction(item, lang, titles, labels=labels) for item in attributes["restrictions"]
        ]
        for pk, attributes in rows
        if isinstance(attributes.get("restrictions"), list)
    }


def _printing_labels(cards: list[Card]) -> dict[int, str]:
    """card id → the printing it is, for cards whose identity has several printings (alternate artworks):
    its set code(s) and id, the same words the builder's printing picker uses. Two queries."""
    identities = {card.identity for card in cards}
    if not identities:
        return {}
    game_ids = {card.game_id for card in cards}
    several = set(
        Card.objects.filter(game_id__in=game_ids, identity__in=identities)
        .values("identity")
        .annotate(n=Count("pk"))
        .filter(n__gt=1)
        .values_list("identity", flat=True)
    )
    chosen = [card for card in cards if card.identity in several]
    sets: dict[int, list[str]] = {}
    for card_id, set_code, code in (
        Printing.objects.filter(card__in=chosen)
        .order_by("card_id", "card_set__code", "code")
        .values_list("card_id", "card_set__code", "code")
    ):
        sets.setdefault(card_id, []).append(
            f"{set_code} {code}".strip() if code and code != set_code else set_code
        )
    return {
        card.pk: (", ".join(sets[card.pk]) + " · " if card.pk in sets else "") + f"#{card.external_id}"
        for card in chosen
    }


def _line_extras(cards: list[Card], lang: str) -> dict[str, dict[str, Any]]:
    """What the builder's deck rows need beyond the API's deck lines: identity (adding any printing of a
    card increments its row), the chosen printing's label and the card's preview."""
    printings = _printing_labels(cards)
    card_images(cards)  # one query for every row's picture
    return {
        str(card.pk): {
            "identity": card.identity,
            "printing": printings.get(card.pk, ""),
            "preview": card_preview(card, lang),
            "subtypes": card.subtypes or [],
            "attributes": {"manacost": (card.attributes or {}).get("manacost", "")},
        }
        for card in cards
    }


@login_required
def deck_builder(request: HttpRequest, pk: int) -> HttpResponse:
    deck = selectors.deck_readable(pk=pk, user=request.user)
    if not deck.editable_by(request.user):
        raise PermissionDenied
    lang = _lang()
    sections = selectors.deck_sections(deck)
    fmt = format_info(deck.game.slug, deck.format_slug)
    formats = game_formats(deck.game.slug)
    search_filters = with_value_labels(deck.game.slug, card_facets(game=deck.game, lang=lang), lang)
    type_configured = any(f["field"] == "type" for f in search_filters)
    config = {
        "deck": deck_json(deck, sections=sections, user=request.user),
        "cards": _line_extras([card for lines in sections.values() for card, _n in lines], lang),
        "lang": lang,
        # Words the rows and results show in the game's own terms: "Mana value 3", "Creature", not "¤3".
        "labels": {
            "cost": _field_word(deck.game.slug, "cost", lang),
            "level": _field_word(deck.game.slug, "level", lang),
            "maybe": _("Maybeboard"),
        },
        "type_labels": {
            t: value_label(deck.game.slug, "type", t, lang) for t in selectors.card_types(deck.game)
        },
        "playtest": playtest_rules(deck.game.slug),
        "tags": deck_line_tags(deck),
        "formats": [
            {
                "slug": f.slug,
                "name": f.title(lang),
                "has_hero": f.has_hero,
                "hero_label": f.hero_title(lang),
                "uses_banlist": f.uses_banlist,
                "sections": [
                    {"slug": s.slug, "name": s.title(lang), "counted": s.counted} for s in f.sections
                ],
            }
            for f in formats
        ],
        "banlists": selectors.banlists_for(deck.game),
        # Each hero's restrictions in words, in the page's language (the picker shows them on choosing).
        "hero_restrictions": _hero_restrictions(deck.game, formats, lang),
        "hands": opening_hand(deck.game.slug),
        "urls": {
            "search": "/api/cards/",
            "grouped": reverse("api-card-grouped"),
            "validate": "/api/decks/validate/",
            # A team event's deck rule against the teammates' decks (tournaments/api/teams.py).
            "team_check": "/api/tournaments/team-check/",
            "partners": reverse("api-deck-partners"),
            "save": reverse("api-deck-detail", args=[deck.pk]),
            "status": reverse("decks:detail", args=[deck.pk]),
            "banlist_status": reverse("api-deck-banlist-status"),
            "card_fit": reverse("api-deck-card-fit"),
        },
    }
    return render(
        request,
        "decks/builder.html",
        {
            "deck": deck,
            "fmt": fmt,
            "config": config,
            "sections": sections,
            # The game's own search filters (its rule set's search_filters), rendered beside the search box;
            # when they include the card type, the generic type select is not shown twice.
            "search_filters": search_filters,
            "card_types": []
            if type_configured
            else [(t, value_label(deck.game.slug, "type", t, lang)) for t in selectors.card_types(deck.game)],
            "type_configured": type_configured,
            "folders": sorted(
                set(
                    Deck.objects.filter(owner=request.user)
                    .exclude(folder="")
                    .values_list("folder", flat=True)
                ),
                key=str.casefold,
            ),
        },
    )


@require_GET
def deck_export_download(request: HttpRequest, pk: int, fmt: str) -> HttpResponse:
    deck = selectors.deck_readable(pk=pk, user=request.user)
    try:
        exported = services.deck_export(
            deck=deck,
            fmt=fmt,
            player_name=request.GET.get("player", "")[:100],
            event=request.GET.get("event", "")[:100],
            player_id=request.GET.get("player_id", "")[:120],
            paper=request.GET.get("paper", "a4"),
        )
    except ValidationError as error:
        raise Http404(" ".join(error.messages)) from None
    return export_response(exported, download=request.GET.get("download") != "0")


@login_required
@require_POST
def deck_copy_view(request: HttpRequest, pk: int) -> HttpResponse:
    deck = selectors.deck_readable(pk=pk, user=request.user)
    copy = services.deck_copy(deck=deck, by=request.user)  # type: ignore[arg-type]
    messages.success(request, _("Deck copied. This copy is private and yours."))
    return redirect("decks:builder", pk=copy.pk)


@login_required
@require_POST
def deck_delete_view(request: HttpRequest, pk: int) -> HttpResponse:
    deck = selectors.deck_readable(pk=pk, user=request.user)
    if not deck.editable_by(request.user):
        raise PermissionDenied
    services.deck_delete(deck=deck, by=request.user)  # type: ignore[arg-type]
    messages.success(request, _("Deck deleted."))
    return redirect("decks:list")


@require_GET
def deck_odds(request: HttpRequest, pk: int) -> HttpResponse:
    """P(at least k of the chosen cards, counted together as a group) in the opening hand."""
    deck = selectors.deck_readable(pk=pk, user=request.user)
    hands = opening_hand(deck.game.slug)
    section = request.GET.get("section") or next(iter(hands))
    lines = selectors.deck_sections(deck).get(section, [])
    chosen = set(request.GET.getlist("card"))
    try:
        k = max(1, min(int(request.GET.get("k", "1")), 60))
    except ValueError:
        k = 1
    copies = sum(count for card, count in lines if str(card.pk) in chosen)
    size = sum(count for _card, count in lines)
    hand = hands.get(section, 5)
    if section == next(iter(hands), None):
        play = playtest_rules(deck.game.slug)
        hand += play["draw_second"] if request.GET.get("seat") == "second" else play["draw_first"]
    percent = round(100 * stats.prob_at_least(k, copies, hand, size), 2)
    return render(
        request,
        "decks/_odds.html",
        {"percent": percent, "k": k, "copies": copies, "hand": hand, "size": size, "section": section},
    )


_VERSION_MESSAGES = (
    # "deck created", not "created": a bare "created" is already translated (neuter) in another catalogue.
    (re.compile(r"^created$"), lambda m: _("deck created")),
    (re.compile(r"^saved$"), lambda m: _("saved")),
    (re.compile(r"^restored version (\d+)$"), lambda m: _("restored version %(n)s") % {"n": m[1]}),
    (
        re.compile(r"^copied from deck (\d+) v(\d+)$"),
        lambda m: _("copied from deck %(deck)s, version %(n)s") % {"deck": m[1], "n": m[2]},
    ),
    (re.compile(r"^imported from (\w+)$"), lambda m: _("imported from %(fmt)s") % {"fmt": m[1]}),
)


def version_message(message: str) -> str:
    """The services store their own version messages in English; show those in the page's language
    (a message the user typed is shown as typed)."""
    for pattern, translate in _VERSION_MESSAGES:
        match = pattern.match(message)
        if match:
            return translate(match)
    return message


def _with_messages(versions: list[Any]) -> list[Any]:
    for version in versions:
        version.display_message = version_message(version.message)
    return versions


def deck_version(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    deck = selectors.deck_readable(pk=pk, user=request.user)
    against_raw = request.GET.get("against", "")
    against = int(against_raw) if against_raw.isdecimal() else number - 1
    diff = selectors.deck_version_diff(deck=deck, old=against, new=number) if against >= 1 else None
    version = selectors.deck_versions(deck).filter(number=number).first()
    if version is None:
        raise Http404
    version.display_message = version_message(version.message)
    # Section headings by the format's own names (the snapshot keeps slugs).
    try:
        titles = {
            s.slug: s.title(_lang())
            for s in format_info(deck.game.slug, version.format_slug or deck.format_slug).sections
        }
    except KeyError:
        titles = {}
    diff_sections = [
        (titles.get(slug, slug), change) for slug, change in (diff or {}).get("sections", {}).items()
    ]
    version_sections = [
        (titles.get(slug, slug), rows) for slug, rows in (version.snapshot or {}).get("sections", {}).items()
    ]
    return render(
        request,
        "decks/version.html",
        {
            "deck": deck,
            "version": version,
            "diff": diff,
            "diff_sections": diff_sections,
            "version_sections": version_sections,
            "against": against,
            "can_edit": deck.editable_by(request.user),
        },
    )


@login_required
@require_POST
def deck_restore(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    deck = selectors.deck_readable(pk=pk, user=request.user)
    if not deck.editable_by(request.user):
        raise PermissionDenied
    try:
        services.deck_restore_version(deck=deck, number=number, by=request.user)  # type: ignore[arg-type]
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _("Version %(n)d restored as a new version.") % {"n": number})
    return redirect("decks:detail", pk=pk)
