"""/api/decks/...: explicit paths first so import/ is never read as a deck id (ids are digits only);
/api/decks/validate/ belongs to rules/api_urls.py, which config/api_urls.py includes before this file."""

from django.urls import path
from rest_framework.routers import SimpleRouter

from . import api, api_compare, fit

router = SimpleRouter()
router.register("decks", api.DeckViewSet, basename="api-deck")

urlpatterns = [
    path("decks/import/", api.DeckImportView.as_view(), name="api-deck-import"),
    path("decks/banlist-status/", api.BanListStatusView.as_view(), name="api-deck-banlist-status"),
    path("decks/card-fit/", fit.CardFitView.as_view(), name="api-deck-card-fit"),
    path("decks/compare/", api_compare.DeckCompareView.as_view(), name="api-deck-compare"),
    *router.urls,
]
