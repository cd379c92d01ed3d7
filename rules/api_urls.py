from __future__ import annotations

from django.urls import path

from . import api, api_partners

urlpatterns = [
    path("decks/validate/", api.ValidateDeckView.as_view(), name="api-deck-validate"),
    path("decks/partners/", api_partners.PartnersView.as_view(), name="api-deck-partners"),
    path("decks/sideboard/", api.SideboardView.as_view(), name="api-deck-sideboard"),
    path("banlists/", api.BanListListView.as_view(), name="api-banlists"),
    path("banlists/import/", api.BanListImportView.as_view(), name="api-banlist-import"),
    path("banlists/<int:pk>/", api.BanListDetailView.as_view(), name="api-banlist-detail"),
    path("games/<slug:slug>/rules/", api.GameRulesView.as_view(), name="api-game-rules"),
]
