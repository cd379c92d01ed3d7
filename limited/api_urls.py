"""/api/… paths of limited events (included before the tournaments API: it answers /api/tournaments/ too)."""

from django.urls import path

import config.converters  # noqa: F401  (registers the <id:…> path converter)

from . import api

urlpatterns = [
    path(
        "tournaments/",
        api.TournamentWithLimitedViewSet.as_view({"get": "list", "post": "create"}),
        name="api-tournament-list-limited",
    ),
    path("tournaments/<id:pk>/limited/", api.LimitedView.as_view(), name="api-limited"),
    path("tournaments/<id:pk>/limited/deal/", api.DealView.as_view(), name="api-limited-deal"),
    path("tournaments/<id:pk>/pools/<id:player_id>/", api.PoolView.as_view(), name="api-limited-pool"),
    path(
        "tournaments/<id:pk>/pools/<id:player_id>/deck/",
        api.PoolDeckView.as_view(),
        name="api-limited-deck",
    ),
    path("tournaments/<id:pk>/draft/start/", api.DraftStartView.as_view(), name="api-draft-start"),
    path("tournaments/<id:pk>/draft/me/", api.DraftMeView.as_view(), name="api-draft-me"),
    path("tournaments/<id:pk>/draft/pick/", api.DraftPickView.as_view(), name="api-draft-pick"),
    path("tournaments/<id:pk>/draft/tick/", api.DraftTickView.as_view(), name="api-draft-tick"),
    path("tournaments/<id:pk>/draft/pods/", api.PodsView.as_view(), name="api-draft-pods"),
    path(
        "tournaments/<id:pk>/draft/pods/<id:number>/pause/",
        api.PodPauseView.as_view(),
        name="api-draft-pause",
    ),
]
