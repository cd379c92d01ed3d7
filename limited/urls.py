"""/tournaments/<id>/draft/… and /tournaments/<id>/limited/… pages (included before tournaments.urls)."""

from django.urls import path

from . import views

app_name = "limited"

urlpatterns = [
    path("<int:pk>/draft/", views.my_draft, name="my_draft"),
    path("<int:pk>/draft/pick/", views.draft_pick, name="pick"),
    path("<int:pk>/draft/build/", views.build, name="build"),
    path("<int:pk>/draft/pool/", views.enter_pool, name="enter_pool"),
    path("<int:pk>/draft/projector/", views.projector, name="projector"),
    path("<int:pk>/limited/", views.organizer, name="organizer"),
    path("<int:pk>/limited/print/", views.printables, name="printables"),
]
