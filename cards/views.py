"""HTML pages: card browser, card detail, import upload and import progress."""

from __future__ import annotations

import re
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.files.storage import default_storage
from django.db.models import QuerySet
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from . import search, selectors, services, updates
from .facts import card_facts
from .forms import ImportForm
from .images import card_images
from .importers import import_issue_text
from .labels import card_preview, field_label, value_label, with_value_labels
from .models import Card, CardUpdate, Game, ImportJob
from .permissions import card_databases_editable_by

PAGE_SIZE = 50
# The generic inputs the page shows for a built-in field when the game's rule set does not configure it.
GENERIC_FIELDS = ("type", "subtype", "level")


def _lang() -> str:
    return get_language() or "en"


def _filters_with_current(facets: list[dict[str, Any]], params: Any) -> list[dict[str, Any]]:
    """The game's configured filters plus what this request has chosen in each (to redisplay the form)."""
    shown = []
    for facet in facets:
        item = dict(facet)
        names = facet["params"]
        if facet["kind"] == "choice":
            item["current"] = (params.get(names["value"]) or "").strip()
            # A value no card has any more still shows as chosen, so the page says what it filtered on.
            if item["current"] and item["current"] not in facet["values"]:
                item["values"] = [*facet["values"], item["current"]]
        else:
            item["current_min"] = (params.get(names["min"]) or "").strip()
            item["current_max"] = (params.get(names["max"]) or "").strip()
        shown.append(item)
    return shown


def _page_numbers(total: int, number: int) -> dict[str, Any]:
    pages = max(1, -(-total // PAGE_SIZE))
    number = min(max(number, 1), pages)
    return {
        "count": total,
        "number": number,
        "num_pages": pages,
        "previous": number - 1 if number > 1 else None,
        "next": number + 1 if number < pages else None,
    }


def browser(request: HttpRequest) -> HttpResponse:
    games = list(Game.objects.all())
    lang = _lang()
    error = ""
    page = None
    rows: list[dict[str, Any]] = []
    filters = selectors.CardFilters()
    try:
        filters = selectors.card_filters_from_params(request.GET)
        filters.default_q = selectors.default_query(
            user=request.user, game_slug=filters.game, params=request.GET
        )
        # The form offers one attribute as a key/value pair (the API takes attr.<key>=value).
        key, value = request.GET.get("attr_key", "").strip(), request.GET.get("attr_value", "").strip()
        if key and value:
            selectors.card_filters_from_params({f"attr.{key}": value})  # validates the key
            filters.attrs[key] = value
        raw_page = request.GET.get("page", "1")
        number = int(raw_page) if raw_page.isdecimal() else 1
        # One row per card identity: alternate artworks and reprints are printings of that row.
        total, groups = selectors.card_search_grouped(
            filters, offset=(number - 1) * PAGE_SIZE, limit=PAGE_SIZE
        )
        page = _page_numbers(total, number)
        if page["number"] != number:  # past the last page: show the last one
            total, groups = selectors.card_search_grouped(
                filters, offset=(page["number"] - 1) * PAGE_SIZE, limit=PAGE_SIZE
            )
        card_images([group.card for group in groups])  # one query for every row's picture
        rows = [
            {"card": group.card, "printings": group.printings, "preview": card_preview(group.card, lang)}
            for group in groups
        ]
    except (selectors.FilterError, search.SearchError) as exc:
        error = str(exc)
    game = next((g for g in games if g.slug == filters.game), None)
    query = request.GET.copy()
    query.pop("page", None)
    search_filters = (
        _filters_with_current(selectors.card_facets(game=game, lang=lang), request.GET) if game else []
    )
    if game is not None:
        search_filters = with_value_labels(game.slug, search_filters, lang)
    configured = {f["field"] for f in search_filters}
    context = {
        "games": games,
        "game": game,
        "filters": filters,
        "search_filters": search_filters,
        "generic": {name: name not in configured for name in GENERIC_FIELDS},
        "attr_key": request.GET.get("attr_key", "").strip(),
        "attr_value": request.GET.get("attr_value", "").strip(),
        "types": (
            [(t, value_label(game.slug, "type", t, lang)) for t in selectors.card_type_choices(game=game)]
            if game and "type" not in configured
            else []
        ),
        "page": page,
        "rows": rows,
        "error": error,
        "querystring": query.urlencode(),
        # Staff, or a card editor of at least one game: the import, update and export links.
        "edits_card_databases": request.user.is_authenticated
        and card_databases_editable_by(request.user).exists(),
        "saved": list(selectors.saved_searches(user=request.user, game=game)) if game else [],
        "default_off": (request.GET.get("default") or "") == "0",
    }
    return render(request, "cards/browser.html", context)


@login_required
def saved_searches(request: HttpRequest) -> HttpResponse:
    """A player's saved searches: save the one on screen (name, default part or not), run, delete."""
    error = ""
    if request.method == "POST":
        action = request.POST.get("action", "save")
        if action == "delete":
            raw = request.POST.get("pk", "")
            services.saved_search_delete(user=request.user, pk=int(raw) if raw.isdecimal() else 0)
            return redirect("cards:searches")
        game = Game.objects.filter(slug=request.POST.get("game", "")).first()
        if game is None:
            error = _("Choose a game.")
        else:
            try:
                services.saved_search_save(
                    user=request.user,
                    game=game,
                    name=request.POST.get("name", ""),
                    query=request.POST.get("q", ""),
                    is_default=request.POST.get("is_default") == "on",
                )
                messages.success(request, _("Search saved."))
                return redirect("cards:searches")
            except (ValueError, search.SearchError) as exc:
                error = str(exc)
    return render(
        request,
        "cards/searches.html",
        {
            "saved": selectors.saved_searches(user=request.user),
            "error": error,
            "games": Game.objects.all(),
            "form": request.POST if request.method == "POST" else request.GET,
        },
        status=400 if error else 200,
    )


# The kinds of field as the help page words them, with what ":" does for each.
KIND_WORDS = {
    "name": gettext_lazy("name words: contains each word, any order; = the whole name"),
    "text": gettext_lazy('text: contains each word; "quoted" a phrase; /regex/'),
    "typeline": gettext_lazy("type line: each word is a word of the card type, subtypes or type"),
    "choice": gettext_lazy("value: equals (a list attribute: holds it)"),
    "number": gettext_lazy("number: = != < <= > >="),
    "colors": gettext_lazy("colours by letter: holds these (>=), exactly (=), within (<=)"),
    "printing": gettext_lazy("a printing: set code, collector number or rarity equals"),
    "legality": gettext_lazy("ban list in force: a format or region, or nothing for the first format"),
    "bool": gettext_lazy("yes or no"),
}


@require_safe
def search_help(request: HttpRequest, slug: str) -> HttpResponse:
    """Every search field of a game, from the same field table the parser reads, with examples."""
    game = get_object_or_404(Game, slug=slug)
    lang = _lang()[:2]
    data = search.search_fields(game.slug, lang)
    fields = [{**f, "kind_words": KIND_WORDS.get(f["kind"], f["kind"])} for f in data["fields"]]
    examples = []
    for example in data["examples"]:
        try:
            words = search.card_query_explain(game=game, text=example, lang=lang)
        except search.SearchError as exc:
            words = str(exc)
        examples.append({"q": example, "explain": words})
    return render(
        request,
        "cards/search_help.html",
        {"game": game, "fields": fields, "examples": examples, "games": Game.objects.all()},
    )


def detail(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        card = selectors.card_get(pk=pk)
    except Card.DoesNotExist as exc:
        raise Http404(_("No such card.")) from exc
    lang = _lang()
    printings = sorted(
        [card, *selectors.card_alternates(card=card).prefetch_related("printings__card_set")],
        key=selectors.canonical_order,
    )
    context = {
        "card": card,
        "preview": card_preview(card, lang),
        "external_label": field_label(card.game.slug, "external_id", lang),
        "printings": printings,
        # The ban-list statuses (rules) and a hero's restrictions (decks), handed in from above.
        **card_facts(card, lang),
    }
    return render(request, "cards/detail.html", context)


def _editable_games_or_403(request: HttpRequest) -> QuerySet[Game]:
    games = card_databases_editable_by(request.user)
    if not games.exists():
        raise PermissionDenied(_("Only a game's card editors and staff may import its card database."))
    return games


@login_required
def import_cards(request: HttpRequest) -> HttpResponse:
    games = _editable_games_or_403(request)
    if request.method == "POST":
        form = ImportForm(request.POST, request.FILES)
        form.fields["game"].queryset = games  # another game's database is not this user's to replace
        if form.is_valid():
            upload, pictures = form.cleaned_data["file"], form.cleaned_data["pictures"]
            job = services.import_job_start(
                game=form.cleaned_data["game"],
                created_by=request.user,
                filename=(upload or pictures).name or "upload",
                data=upload.read() if upload else b"",
                fmt=form.cleaned_data["file_format"] or None,
                pictures=pictures.read() if pictures else b"",
            )
            messages.info(request, _("Import started."))
            return redirect("cards:import_job", pk=job.pk)
    else:
        form = ImportForm(initial={"game": request.GET.get("game")})
        form.fields["game"].queryset = games
    return render(request, "cards/import.html", {"form": form})


# Only what cards.picture_store writes: a game's folder and a content hash (no other storage file is served).
PICTURE_NAME = re.compile(r"card-pictures/[-a-z0-9_]+/[0-9a-f]{40}\.jpg")


@require_safe
def picture(request: HttpRequest, name: str) -> HttpResponse:
    """An uploaded card picture, from the default storage. Its name is its content hash, so it never
    changes: browsers (and a venue's phones) keep it for a year without asking again."""
    if not PICTURE_NAME.fullmatch(name):
        raise Http404(_("No such picture."))
    try:
        handle = default_storage.open(name, "rb")
    except (FileNotFoundError, OSError) as exc:
        raise Http404(_("No such picture.")) from exc
    response = FileResponse(handle, content_type="image/jpeg")
    response["Cache-Control"] = "public, max-age=31536000, immutable"
    return response


@login_required
def import_job(request: HttpRequest, pk: int) -> HttpResponse:
    job = get_object_or_404(ImportJob.objects.select_related("game"), pk=pk)
    if not selectors.import_job_visible(job=job, user=request.user):
        raise Http404(_("No such import job."))
    job = services.import_job_reap(job=job)
    # Problems are stored as codes + parameters: show them in this reader's language.
    errors = [{**issue, "text": import_issue_text(issue)} for issue in job.errors]
    update = CardUpdate.objects.filter(job=job).first()
    return render(request, "cards/import_job.html", {"job": job, "errors": errors, "update": update})


@login_required
def update_cards(request: HttpRequest) -> HttpResponse:
    """Card editors update a game from the community's current files: a dry run, an update, an undo."""
    games = _editable_games_or_403(request)
    if request.method == "POST":
        game = games.filter(slug=request.POST.get("game", "")).first()
        action = request.POST.get("action", "")
        if game is None or action not in {"check", "apply", "rollback"}:
            messages.error(request, _("Choose a game you edit and an action."))
            return redirect("cards:update")
        try:
            if action == "rollback":
                updates.card_update_rollback(game=game)
                messages.success(
                    request, _("The latest update was undone: the cards are as they were before it.")
                )
                return redirect("cards:update")
            update = updates.card_update_start(game=game, created_by=request.user, dry_run=action == "check")
        except updates.UpdateRefused as exc:
            messages.error(request, import_issue_text(exc.issue.as_dict()))
            return redirect("cards:update")
        return redirect("cards:import_job", pk=update.job_id)
    rows = [
        {
            "game": game,
            "urls": updates.update_urls(game),
            "latest": updates.card_update_latest_applied(game=game),
        }
        for game in games
    ]
    recent = CardUpdate.objects.filter(game__in=games).select_related("game", "job")[:10]
    return render(request, "cards/update.html", {"rows": rows, "recent": recent})
