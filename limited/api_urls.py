"""/api/… paths of limited events (included before the tournaments API: it answers /api/tournaments/ too)."""

from django.urls import path

from . import api

urlpatterns = [
    path(
        "tournaments/",
        api.TournamentWithLimitedViewSet.as_view({"get": "list", "post": "create"}),
        name="api-tournament-list-limited",
    ),
    path("tournaments/<str:pk>/limited/", api.LimitedView.as_view(), name="api-limited"),
    path("tournaments/<str:pk>/limited/deal/", api.DealView.as_view(), name="api-limited-deal"),
    path("tournaments/<str:pk>/pools/<str:player_id>/", api.PoolView.as_view(), name="api-limited-pool"),
    path(
        "tournaments/<str:pk>/pools/<str:player_id>/deck/",
        api.PoolDeckView.as_view(),
        name="api-limited-deck",
    ),
    path("tournaments/<str:pk>/draft/start/", api.DraftStartView.as_view(), name="api-draft-start"),
    path("tournaments/<str:pk>/draft/me/", api.DraftMeView.as_view(), name="api-draft-me"),
    path("tournaments/<str:pk>/draft/pick/", api.DraftPickView.as_view(), name="api-draft-pick"),
    path("tournaments/<str:pk>/draft/tick/", api.DraftTickView.as_view(), name="api-draft-tick"),
    path("tournaments/<str:pk>/draft/pods/", api.PodsView.as_view(), name="api-draft-pods"),
    path(
        "tournaments/<str:pk>/draft/pods/<str:number>/pause/",
        api.PodPauseView.as_view(),
        name="api-draft-pause",
    ),
]
