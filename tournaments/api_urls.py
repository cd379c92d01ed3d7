"""/api/tournaments/... and /api/matches/... (paths relative to /api/)."""

from django.urls import path
from rest_framework.routers import SimpleRouter

import config.converters  # noqa: F401  (registers the <id:…> path converter)

from . import api
from .api import entry_requests, phases, teams
from .api.mending import ClockView, MendView
from .api.penalties import PenaltyView

router = SimpleRouter()
router.register("tournaments", api.TournamentViewSet, basename="api-tournament")
router.register("matches", api.MatchViewSet, basename="api-match")

urlpatterns = [
    path("tournaments/<id:pk>/penalties/", PenaltyView.as_view(), name="api-tournament-penalties"),
    path("tournaments/<id:pk>/rounds/<id:number>/mend/", MendView.as_view(), name="api-round-mend"),
    path("tournaments/<id:pk>/rounds/<id:number>/clock/", ClockView.as_view(), name="api-round-clock"),
    # Phases, pairing reports and teams: plain views beside the router's (tournaments/api/phases.py, teams.py).
    path("tournaments/<id:pk>/phases/", phases.PhasesView.as_view(), name="api-tournament-phases"),
    path(
        "tournaments/<id:pk>/phases/<id:number>/",
        phases.PhaseDetailView.as_view(),
        name="api-tournament-phase",
    ),
    path(
        "tournaments/<id:pk>/rounds/<id:number>/report/",
        phases.PairingReportView.as_view(),
        name="api-tournament-round-report",
    ),
    path("tournaments/requests/", entry_requests.EntryRequestsView.as_view(), name="api-tournament-requests"),
    path(
        "tournaments/requests/<id:request_id>/",
        entry_requests.EntryRequestAnswerView.as_view(),
        name="api-tournament-request-answer",
    ),
    path("tournaments/team-check/", teams.TeamDeckCheckView.as_view(), name="api-tournament-team-check"),
    path("tournaments/<id:pk>/teams/", teams.TeamsView.as_view(), name="api-tournament-teams"),
    *router.urls,
]
