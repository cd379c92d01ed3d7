"""Card endpoints under /api/ (paths are relative to it)."""

from django.urls import path

from . import api

urlpatterns = [
    path("cards/", api.CardListView.as_view(), name="api-card-list"),
    # Fixed paths come before cards/<int:pk>/ so a detail route can never shadow them.
    path("cards/grouped/", api.CardGroupListView.as_view(), name="api-card-grouped"),
    path("cards/facets/", api.CardFacetsView.as_view(), name="api-card-facets"),
    path("cards/import/", api.CardImportView.as_view(), name="api-card-import"),
    path("cards/export/", api.CardExportView.as_view(), name="api-card-export"),
    path("cards/<int:pk>/", api.CardDetailView.as_view(), name="api-card-detail"),
    path("games/<slug:slug>/search-fields/", api.SearchFieldsView.as_view(), name="api-search-fields"),
    path("import-jobs/<int:pk>/", api.ImportJobDetailView.as_view(), name="api-import-job"),
]
