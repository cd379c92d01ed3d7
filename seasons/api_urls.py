"""/api/series/… and /api/players/{username}/history/ (paths relative to /api/)."""

from django.urls import path

import config.converters  # noqa: F401  (registers the <id:…> path converter)

from . import api

urlpatterns = [
    path("series/", api.SeriesListView.as_view(), name="api-series"),
    path("series/<id:pk>/", api.SeriesDetailView.as_view(), name="api-series-detail"),
    path("series/<id:pk>/events/", api.SeriesEventsView.as_view(), name="api-series-events"),
    path(
        "series/<id:pk>/events/<id:tournament_id>/",
        api.SeriesEventDetailView.as_view(),
        name="api-series-event-detail",
    ),
    path("series/<id:pk>/standings/", api.SeriesStandingsView.as_view(), name="api-series-standings"),
    path("players/<str:username>/history/", api.PlayerHistoryView.as_view(), name="api-player-history"),
]
