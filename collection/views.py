"""Collection pages: the collection of a game (edit by hand), import, export, a deck against the collection
(owned / missing per line, built, wants list) and where a card's copies are."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from cards.models import Card, Game
from decks.deckhash import deck_hash_of
from decks.gamerules import format_info
from decks.selectors import deck_readable, deck_sections

from . import exporting, selectors, services
from .models import CollectionEntry


def _games() -> list[Game]:
    return list(Game.objects.filter(has_decks=True).order_by("name"))


def _game_from(request: HttpRequest, games: list[Game]) -> Game | None:
    slug = request.POST.get("game") or request.GET.get("game") or ""
    return next((g for g in games if g.slug == slug), None)


def section_titles(*, game_slug: str, format_slug: str, lang: str) -> dict[str, str]:
    try:
        return {s.slug: s.title(lang) for s in format_info(game_slug, format_slug).sections}
    except KeyError:
        return {}


def held_words(held_by: Any, count: int) -> list[str]:
    """ "2 of 3 are in Blue-Eyes": each built deck holding copies a line lacks, of all ``count`` copies the
    player owns of the card."""
    return [
        ngettext("%(held)s of %(count)s is in %(deck)s", "%(held)s of %(count)s are in %(deck)s", held)
        % {"held": held, "count": count, "deck": name}
        for _deck_id, name, held in held_by
    ]


@login_required
def collection_page(request: HttpRequest) -> HttpResponse:
    games = _games()
    game = _game_from(request, games)
    if game is None:
        if request.GET.get("game"):
            messages.error(request, _("Unknown game “%(game)s”.") % {"game": request.GET["game"][:40]})
        return render(request, "collection/collection.html", {"games": games, "game": None})
    if request.method == "POST":
        _collection_edit(request, game)
        return redirect(f"{reverse('collection:page')}?game={game.slug}&q={request.POST.get('q', '')}")
    query = request.GET.get("q", "").strip()[:100]
    # 50 rows a page: each row is a small edit form, and a phone reads 50 rows before it needs the next page.
    have = selectors.holdings(user=request.user, game_id=game.pk)
    page = Paginator(selectors.collection_entry_ids(have=have, query=query), 50).get_page(
        request.GET.get("page")
    )
    rows = [
        {"entry": entry, "held_by": have.held.get(entry.card_id if have.track else entry.card.identity, [])}
        for entry in selectors.collection_entries_by_id(page.object_list)
    ]
    return render(
        request,
        "collection/collection.html",
        {
            "games": games,
            "game": game,
            "query": query,
            "page": page,
            "rows": rows,
            "track": have.track,
            "totals": selectors.collection_totals(user=request.user, game=game, have=have),
            "built": selectors.built_decks(user=request.user, game=game),
        },
    )


def _collection_edit(request: HttpRequest, game: Game) -> None:
    action = request.POST.get("action")
    try:
        if action == "track":
            services.collection_settings_set(
                owner=request.user, game=game, track_printings=request.POST.get("track_printings") == "on"
            )
            return
        count = int(request.POST.get("count", ""))
        if action == "set":
            entry = CollectionEntry.objects.filter(
                owner=request.user, game=game, pk=request.POST.get("entry")
            ).first()
            if entry is None:
                raise ValidationError(_("That row is no longer in your collection."))
            services.collection_card_set(
                owner=request.user, card=entry.card, count=count, set_code=entry.set_code, number=entry.number,
                foil=entry.foil,
            )  # fmt: skip
        elif action == "add":
            name = request.POST.get("name", "").strip()[:200]
            card = (
                Card.objects.filter(game=game, search_name=name.casefold()).order_by("external_id").first()
                or Card.objects.filter(game=game, external_id=name).first()
            )
            if card is None:
                raise ValidationError(
                    _("No card of %(game)s is named “%(name)s”.") % {"game": game.name, "name": name}
                )
            current = sum(
                CollectionEntry.objects.filter(
                    owner=request.user, card=card, set_code="", number="", foil=False
                ).values_list("count", flat=True)
            )
            services.collection_card_set(owner=request.user, card=card, count=current + count)
            messages.success(request, _("%(count)s × %(name)s added.") % {"count": count, "name": card})
    except ValueError:
        messages.error(request, _("Copies are a whole number."))
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))


@login_required
def collection_import_page(request: HttpRequest) -> HttpResponse:
    games = _games()
    game = _game_from(request, games)
    result = None
    if request.method == "POST":
        upload = request.FILES.get("file")
        if game is None:
            messages.error(request, _("Choose a game."))
        elif upload is None:
            messages.error(request, _("Choose a CSV file."))
        elif upload.size > services.MAX_BYTES:
            messages.error(
                request, _("The file is larger than %(limit)s bytes.") % {"limit": services.MAX_BYTES}
            )
        else:
            try:
                result = services.collection_import(
                    owner=request.user,
                    game=game,
                    data=upload.read(),
                    mode=request.POST.get("mode", "replace"),
                )
            except ValidationError as error:
                messages.error(request, " ".join(error.messages))
    return render(request, "collection/import.html", {"games": games, "game": game, "result": result})


@login_required
def collection_export(request: HttpRequest) -> HttpResponse:
    game = _game_from(request, _games())
    if game is None:
        raise Http404("no such game")
    return exporting.collection_response(request.user, game)


@login_required
def card_where_page(request: HttpRequest, card_id: int) -> HttpResponse:
    card = get_object_or_404(Card, pk=card_id)
    return render(
        request, "collection/where.html", {"where": selectors.card_where(user=request.user, card=card)}
    )


@login_required
def deck_collection_page(request: HttpRequest, pk: int) -> HttpResponse:
    deck = deck_readable(pk=pk, user=request.user)
    sections = deck_sections(deck)
    ownership = selectors.deck_ownership_for(deck, request.user, sections)
    titles = section_titles(
        game_slug=deck.game.slug, format_slug=deck.format_slug, lang=get_language() or "en"
    )
    lines = []
    for slug, cards in sections.items():
        for card, count in cards:
            line = ownership.lines[(slug, card.pk)]
            lines.append(
                {"section": titles.get(slug, slug), "card": card, "count": count, "owned": line.owned, "missing": line.missing,
                 "held": held_words(line.held_by, line.copies)}
            )  # fmt: skip
    wants = selectors.deck_wants(deck=deck, user=request.user, sections=sections)
    return render(
        request,
        "collection/deck.html",
        {
            "deck": deck,
            "lines": lines,
            "ownership": ownership,
            "can_edit": deck.editable_by(request.user),
            "wants_text": exporting.wants_text(wants),
            "deck_hash": deck_hash_of(game_slug=deck.game.slug, sections=sections),
        },
    )


def copies_words(held_by: Any) -> list[str]:
    """ "2 copies are in Blue-Eyes": where the copies a deck lacks are."""
    return [
        ngettext("%(n)s copy is in %(deck)s", "%(n)s copies are in %(deck)s", held)
        % {"n": held, "deck": name}
        for _deck_id, name, held in held_by
    ]


@login_required
@require_POST
def deck_built_toggle(request: HttpRequest, pk: int) -> HttpResponse:
    deck = deck_readable(pk=pk, user=request.user)
    built = request.POST.get("built") == "1"
    try:
        services.deck_built_set(deck=deck, by=request.user, built=built)
    except services.DeckNotBuildable as refused:
        details = [
            f"{name}: {missing}" + (f" ({'; '.join(copies_words(held))})" if held else "")
            for name, missing, held in refused.lines[:10]
        ]
        messages.error(request, f"{refused.messages[0]}: {', '.join(details)}")
    except PermissionDenied as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Marked built: its cards are held in your collection.") if built
                         else _("Taken apart: its cards are free again."))  # fmt: skip
    return redirect(request.POST.get("next") or reverse("collection:deck", args=[deck.pk]))


@login_required
def deck_wants_download(request: HttpRequest, pk: int, fmt: str) -> HttpResponse:
    deck = deck_readable(pk=pk, user=request.user)
    fmt = {"txt": "text", "csv": "csv"}.get(fmt, "")
    if not fmt:
        raise Http404("wants lists are .txt or .csv")
    wants = selectors.deck_wants(deck=deck, user=request.user, sections=deck_sections(deck))
    return exporting.wants_response(deck, wants, fmt)
