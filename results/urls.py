from django.urls import path

from . import views

app_name = "results"

urlpatterns = [
    path("published/<int:pk>/", views.published, name="published"),
    path("webhooks/", views.webhooks, name="webhooks"),
    path("<int:pk>/metagame/", views.metagame, name="metagame"),
    path("<int:pk>/archetypes/review/", views.review, name="review"),
    path("<int:pk>/standings.csv", views.standings_csv, name="standings_csv"),
]
