from django.urls import path

from . import views

app_name = "seasons"

urlpatterns = [
    path("", views.series_list, name="series_list"),
    path("series/<int:pk>/", views.series_detail, name="series"),
    path("players/<str:username>/", views.player_history, name="player"),
    path("players/<str:username>/ratings/", views.rating_audit, name="rating_audit"),
]
