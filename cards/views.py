"""HTML pages: card browser, card detail, import upload and import progress."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from . import selectors, services
from .forms import ImportForm
from .importers import import_issue_text
from .models import Card, Game, ImportJob

PAGE_SIZE = 50
# The generic inputs the page shows for a built-in field when the game's rule set does not configure it.
GENERIC_FIELDS = ("type", "subtype", "level")


def _lang() -> str:
    return "ru" if (get_language() or "en").startswith("ru") else "en"


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


def browser(request: HttpRequest) -> HttpResponse:
    games = list(Game.objects.all())
    error = ""
    page = None
    filters = selectors.CardFilters()
    try:
        filters = selectors.card_filters_from_params(request.GET)
        # The form offers one attribute as a key/value pair (the API takes attr.<key>=value).
        key, value = request.GET.get("attr_key", "").strip(), request.GET.get("attr_value", "").strip()
        if key and value:
            selectors.card_filters_from_params({f"attr.{key}": value})  # validates the key
            filters.attrs[key] = value
        results = selectors.card_search(filters)
        page = Paginator(results, PAGE_SIZE).get_page(request.GET.get("page"))
    except selectors.FilterError as exc:
        error = str(exc)
    game = next((g for g in games if g.slug == filters.game), None)
    query = request.GET.copy()
    query.pop("page", None)
    search_filters = (
        _filters_with_current(selectors.card_facets(game=game, lang=_lang()), request.GET) if game else []
    )
    configured = {f["field"] for f in search_filters}
    context = {
        "games": games,
        "game": game,
        "filters": filters,
        "search_filters": search_filters,
        "generic": {name: name not in configured for name in GENERIC_FIELDS},
        "attr_key": request.GET.get("attr_key", "").strip(),
        "attr_value": request.GET.get("attr_value", "").strip(),
        "types": selectors.card_type_choices(game=game) if game and "type" not in configured else [],
        "page": page,
        "error": error,
        "querystring": query.urlencode(),
    }
    return render(request, "cards/browser.html", context)


def detail(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        card = selectors.card_get(pk=pk)
    except Card.DoesNotExist as exc:
        raise Http404(_("No such card.")) from exc
    context = {
        "card": card,
        "alternates": selectors.card_alternates(card=card),
        "attributes": [(key, _attribute_text(value)) for key, value in sorted(card.attributes.items())],
    }
    return render(request, "cards/detail.html", context)


def _attribute_text(value: Any) -> str | None:
    """How an attribute reads on the page: lists as "a, b", structures (hero restrictions) as JSON,
    never Python's repr (['Стая'], True)."""
    if value is None:
        return None
    if isinstance(value, list) and all(isinstance(v, str | int | float) for v in value):
        return ", ".join(str(v) for v in value)
    if isinstance(value, list | dict | bool):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def _require_organizer(request: HttpRequest) -> None:
    if not request.user.can_organize:  # type: ignore[union-attr]
        raise PermissionDenied(_("Only organizers and staff may import card databases."))


@login_required
def import_cards(request: HttpRequest) -> HttpResponse:
    _require_organizer(request)
    if request.method == "POST":
        form = ImportForm(request.POST, request.FILES)
        if form.is_valid():
            upload = form.cleaned_data["file"]
            job = services.import_job_start(
                game=form.cleaned_data["game"],
                created_by=request.user,
                filename=upload.name or "upload",
                data=upload.read(),
                fmt=form.cleaned_data["file_format"] or None,
            )
            messages.info(request, _("Import started."))
            return redirect("cards:import_job", pk=job.pk)
    else:
        form = ImportForm(initial={"game": request.GET.get("game")})
    return render(request, "cards/import.html", {"form": form})


@login_required
def import_job(request: HttpRequest, pk: int) -> HttpResponse:
    job = get_object_or_404(ImportJob.objects.select_related("game"), pk=pk)
    if not selectors.import_job_visible(job=job, user=request.user):
        raise Http404(_("No such import job."))
    job = services.import_job_reap(job=job)
    # Problems are stored as codes + parameters: show them in this reader's language.
    errors = [{**issue, "text": import_issue_text(issue)} for issue in job.errors]
    return render(request, "cards/import_job.html", {"job": job, "errors": errors})
