from django.urls import path

from . import views

app_name = "decks"

urlpatterns = [
    path("", views.deck_list, name="list"),
    path("new/", views.deck_new, name="new"),
    path("import/", views.deck_import_page, name="import"),
    path("compare/", views.deck_compare_page, name="compare"),
    path("<int:pk>/", views.deck_detail, name="detail"),
    path("<int:pk>/edit/", views.deck_builder, name="builder"),
    path("<int:pk>/export/<str:fmt>/", views.deck_export_download, name="export"),
    path("<int:pk>/copy/", views.deck_copy_view, name="copy"),
    path("<int:pk>/delete/", views.deck_delete_view, name="delete"),
    path("<int:pk>/odds/", views.deck_odds, name="odds"),
    path("<int:pk>/versions/<int:number>/", views.deck_version, name="version"),
    path("<int:pk>/versions/<int:number>/restore/", views.deck_restore, name="restore"),
]
