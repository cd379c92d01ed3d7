"""/api/tournaments/... and /api/matches/... (paths relative to /api/)."""

from django.urls import path
from rest_framework.routers import SimpleRouter

from . import api
from .api.mending import ClockView, MendView
from .api.penalties import PenaltyView

router = SimpleRouter()
router.register("tournaments", api.TournamentViewSet, basename="api-tournament")
router.register("matches", api.MatchViewSet, basename="api-match")

urlpatterns = [
    path("tournaments/<str:pk>/penalties/", PenaltyView.as_view(), name="api-tournament-penalties"),
    path("tournaments/<str:pk>/rounds/<str:number>/mend/", MendView.as_view(), name="api-round-mend"),
    path("tournaments/<str:pk>/rounds/<str:number>/clock/", ClockView.as_view(), name="api-round-clock"),
    *router.urls,
]
