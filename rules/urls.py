from __future__ import annotations

from django.urls import path

from . import views

app_name = "rules"

urlpatterns = [
    path("banlists/", views.banlists, name="banlists"),
    path("banlists/<int:pk>/", views.banlist_detail, name="banlist_detail"),
]
