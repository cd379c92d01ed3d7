from django.urls import path

import config.converters  # noqa: F401  (registers the <id:…> path converter)

from . import api

urlpatterns = [
    path("metagame/", api.MetagameRangeView.as_view(), name="api-metagame-range"),
    path("published-events/", api.PublishedEventsView.as_view(), name="api-published-events"),
    path("webhooks/", api.WebhooksView.as_view(), name="api-webhooks"),
    path("tournaments/<id:pk>/decklists/", api.DecklistsView.as_view(), name="api-tournament-decklists"),
    path("tournaments/<id:pk>/metagame/", api.MetagameView.as_view(), name="api-tournament-metagame"),
    path(
        "tournaments/<id:pk>/results.json", api.ResultsDocumentView.as_view(), name="api-tournament-results"
    ),
]
