from django.urls import path

from . import views

app_name = "seasons"

urlpatterns = [
    path("", views.series_list, name="series_list"),
    path("new/", views.series_new, name="series_new"),
    path("series/<int:pk>/", views.series_detail, name="series"),
    path("series/<int:pk>/edit/", views.series_edit, name="series_edit"),
    path("series/<int:pk>/events/", views.series_event_add, name="series_event_add"),
    path(
        "series/<int:pk>/events/<int:tournament_id>/remove/",
        views.series_event_remove,
        name="series_event_remove",
    ),
    path("events/<int:tournament_id>/", views.event_series, name="event_series"),
    path("players/<str:username>/", views.player_history, name="player"),
    path("players/<str:username>/ratings/", views.rating_audit, name="rating_audit"),
]
