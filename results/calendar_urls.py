"""Under /seasons/: calendar feeds and a series' metagame. Calendar feeds under /seasons/ (a series' feed beside its page; the site-wide feed beside the list)."""

from django.urls import path

from . import views

app_name = "calendars"

urlpatterns = [
    path("<int:pk>/calendar.ics", views.series_calendar, name="series"),
    path("calendar.ics", views.store_calendar, name="store"),
    path("<int:pk>/metagame/", views.series_metagame, name="series_metagame"),
]
