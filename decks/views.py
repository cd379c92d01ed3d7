"""HTML pages for decks. Views parse input and call services/selectors; the builder talks to the API."""

from __future__ import annotations

import re
import secrets
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from cards.images import card_images
from cards.labels import card_preview, game_label_table, game_title, value_label, with_value_labels
from cards.models import Card, Game, Printing
from cards.selectors import card_facets, game_search_filters

from . import selectors, services, stats, svg
from .api import deck_json, export_response
from .exporting import ydke_link
from .forms import DeckImportForm, DeckNewForm
from .gamerules import (
    FormatInfo,
    describe_restriction,
    filter_labels,
    format_info,
    game_formats,
    opening_hand,
)
from .models import Deck


def _lang() -> str:
    return get_language() or "en"


def deck_list(request: HttpRequest) -> HttpResponse:
    decks = selectors.decks_listed_for(request.user)
    game = request.GET.get("game", "")
    if game:
        decks = decks.filter(game__slug=game)
    mine = [d for d in decks if d.owner_id == request.user.pk] if request.user.is_authenticated else []
    public = Paginator(
        decks.filter(visibility=Deck.Visibility.PUBLIC).exclude(owner_id=request.user.pk or 0), 30
    ).get_page(request.GET.get("page"))
    return render(
        request,
        "decks/list.html",
        {"mine": mine, "public": public, "games": Game.objects.filter(has_decks=True), "game": game},
    )


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


def _first_chart(
    game_slug: str, lines: list[tuple[Any, int]], title: str, lang: str
) -> tuple[str, str] | None:
    """(metric label, SVG) for a section's first chart: its cost curve, else its level curve, else a
    breakdown by the game's first attribute filter; None when the game offers nothing to chart."""
    for field, label in (("cost", _("Cost")), ("level", _("Level"))):
        if any(getattr(card, field) is not None for card, _count in lines):
            points = [(getattr(card, field), count) for card, count in lines]
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
    types_label = _("Card types")
    blocks = []
    for section in fmt.sections:
        lines = sections.get(section.slug, [])
        if not lines:
            continue
        title = section.title(lang)
        hand = hands.get(section.slug)
        size = sum(count for _card, count in lines)
        odds = (
            [
                {
                    "card": card,
                    "count": count,
                    "percent": round(100 * stats.prob_at_least(1, count, hand, size), 1),
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


def _deck_listing(
    fmt: FormatInfo, sections: selectors.Sections, printings: dict[int, str], lang: str
) -> list[dict[str, Any]]:
    """Every section of the format in the game's order, its cards grouped by the game's card types with
    counts, each card with its preview: the deck as the page lists it."""
    order = _type_order(fmt.game_slug)
    listing = []
    extra = [slug for slug in sections if slug not in fmt.section_slugs]
    titles = {s.slug: s.title(lang) for s in fmt.sections}
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
    return render(
        request,
        "decks/detail.html",
        {
            "deck": deck,
            "fmt": fmt,
            "fmt_title": fmt.title(lang),
            "game_title": game_title(deck.game, lang),
            "listing": _deck_listing(fmt, sections, printings, lang),
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
                )
                if (deck.game.slug == "yugioh" or key not in {"ydk", "ydke"})
                and (deck.game.slug == "mtg" or key not in {"forge", "xmage"})
            ],
            "hands": hands,
        },
    )


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
        "deck": deck_json(deck, sections=sections),
        "cards": _line_extras([card for lines in sections.values() for card, _n in lines], lang),
        "lang": lang,
        "formats": [
            {
                "slug": f.slug,
                "name": f.title(lang),
                "has_hero": f.has_hero,
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


def _hand_cards(deck: Deck, section: str) -> list[tuple[str, int]]:
    return [(str(card), count) for card, count in selectors.deck_sections(deck).get(section, [])]


@require_GET
def deck_sample_hand(request: HttpRequest, pk: int) -> HttpResponse:
    deck = selectors.deck_readable(pk=pk, user=request.user)
    hands = opening_hand(deck.game.slug)
    seed_raw = request.GET.get("seed", "")
    seed = int(seed_raw) if seed_raw.isdigit() else secrets.randbelow(2**31)
    drawn = [
        {"section": section, "cards": stats.sample_hand(_hand_cards(deck, section), size, seed=seed)}
        for section, size in hands.items()
    ]
    return render(request, "decks/_sample_hand.html", {"hands": drawn, "seed": seed, "deck": deck})


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
    against = int(against_raw) if against_raw.isdigit() else number - 1
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
