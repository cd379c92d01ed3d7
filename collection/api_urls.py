from django.urls import path

from . import api

urlpatterns = [
    path("collection/", api.CollectionView.as_view(), name="api-collection"),
    path("collection/import/", api.CollectionImportView.as_view(), name="api-collection-import"),
    path("collection/export/", api.CollectionExportView.as_view(), name="api-collection-export"),
    path("collection/where/", api.CardWhereView.as_view(), name="api-collection-where"),
    path("collection/decks/<int:pk>/wants/", api.DeckWantsView.as_view(), name="api-collection-wants"),
    path("decks/<int:pk>/built/", api.DeckBuiltView.as_view(), name="api-deck-built"),
]
