"""/api/tournaments/... and /api/matches/... (paths relative to /api/)."""

from rest_framework.routers import SimpleRouter

from . import api

router = SimpleRouter()
router.register("tournaments", api.TournamentViewSet, basename="api-tournament")
router.register("matches", api.MatchViewSet, basename="api-match")

urlpatterns = router.urls

# Phases and pairing reports: plain views beside the router's (their own module, tournaments/api/phases.py).
from django.urls import path  # noqa: E402

from .api import phases, teams  # noqa: E402

urlpatterns += [
    path("tournaments/<str:pk>/phases/", phases.PhasesView.as_view(), name="api-tournament-phases"),
    path(
        "tournaments/<str:pk>/phases/<str:number>/",
        phases.PhaseDetailView.as_view(),
        name="api-tournament-phase",
    ),
    path(
        "tournaments/<str:pk>/rounds/<str:number>/report/",
        phases.PairingReportView.as_view(),
        name="api-tournament-round-report",
    ),
    path("tournaments/<str:pk>/teams/", teams.TeamsView.as_view(), name="api-tournament-teams"),
]
