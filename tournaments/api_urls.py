"""/api/tournaments/... and /api/matches/... (paths relative to /api/)."""

from rest_framework.routers import SimpleRouter

from . import api

router = SimpleRouter()
router.register("tournaments", api.TournamentViewSet, basename="api-tournament")
router.register("matches", api.MatchViewSet, basename="api-match")

urlpatterns = router.urls
