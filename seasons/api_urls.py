"""/api/series/… and /api/players/{username}/history/ (paths relative to /api/)."""

from django.urls import path

from . import api

urlpatterns = [
    path("series/", api.SeriesListView.as_view(), name="api-series"),
    path("series/<str:pk>/", api.SeriesDetailView.as_view(), name="api-series-detail"),
    path("series/<str:pk>/events/", api.SeriesEventsView.as_view(), name="api-series-events"),
    path(
        "series/<str:pk>/events/<str:tournament_id>/",
        api.SeriesEventDetailView.as_view(),
        name="api-series-event-detail",
    ),
    path("series/<str:pk>/standings/", api.SeriesStandingsView.as_view(), name="api-series-standings"),
    path("players/<str:username>/history/", api.PlayerHistoryView.as_view(), name="api-player-history"),
]
