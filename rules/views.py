"""Browsable ban lists."""

from __future__ import annotations

from itertools import groupby

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from .models import BanListEntry
from .selectors import banlist_entries, banlist_list


def banlists(request: HttpRequest) -> HttpResponse:
    game = request.GET.get("game", "")
    lists = list(banlist_list(game=game or None))
    by_game = [(g, list(items)) for g, items in groupby(lists, key=lambda b: b.game)]
    return render(request, "rules/banlists.html", {"by_game": by_game, "game": game})


def banlist_detail(request: HttpRequest, pk: int) -> HttpResponse:
    banlist = get_object_or_404(banlist_list(), pk=pk)
    query = request.GET.get("q", "").strip()[:100]
    entries = list(banlist_entries(banlist=banlist, query=query))
    labels = dict(BanListEntry.Limit.choices)
    groups = [(labels[limit], list(items)) for limit, items in groupby(entries, key=lambda e: e.limit)]
    template = "rules/_entries.html" if request.headers.get("HX-Request") else "rules/banlist_detail.html"
    return render(
        request, template, {"banlist": banlist, "groups": groups, "query": query, "count": len(entries)}
    )
