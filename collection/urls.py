from django.urls import path

from . import views

app_name = "collection"

urlpatterns = [
    path("", views.collection_page, name="page"),
    path("import/", views.collection_import_page, name="import"),
    path("export/", views.collection_export, name="export"),
    path("where/<int:card_id>/", views.card_where_page, name="where"),
    path("decks/<int:pk>/", views.deck_collection_page, name="deck"),
    path("decks/<int:pk>/built/", views.deck_built_toggle, name="built"),
    path("decks/<int:pk>/wants.<str:fmt>", views.deck_wants_download, name="wants"),
]
