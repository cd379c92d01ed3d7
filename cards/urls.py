from django.urls import path

from . import views

app_name = "cards"

urlpatterns = [
    path("", views.browser, name="browser"),
    path("<int:pk>/", views.detail, name="detail"),
    path("searches/", views.saved_searches, name="searches"),
    path("search-help/<slug:slug>/", views.search_help, name="search_help"),
    path("import/", views.import_cards, name="import"),
    path("import/<int:pk>/", views.import_job, name="import_job"),
    path("update/", views.update_cards, name="update"),
    path("pictures/<path:name>", views.picture, name="picture"),
]
