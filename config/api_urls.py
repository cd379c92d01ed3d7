"""The /api/ tree: the lead's root, auth and game endpoints plus each app's api_urls."""

from typing import Any

from django.http import HttpResponse
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from . import api_views


class SwaggerDocsView(SpectacularSwaggerSplitView):
    """Swagger UI. OPTIONS is answered plainly: DRF's metadata answer went through the page's HTML template
    renderer, which has no template for it (500)."""

    def options(self, request: Any, *args: Any, **kwargs: Any) -> HttpResponse:
        return HttpResponse(status=204, headers={"Allow": "GET, HEAD, OPTIONS"})


urlpatterns = [
    path("", api_views.api_root, name="api-root"),
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves Swagger UI's start-up script as its own URL: no inline script (config.csp).
    path("docs/", SwaggerDocsView.as_view(url_name="api-schema"), name="api-docs"),
    path("auth/token/", api_views.ObtainTokenView.as_view(), name="api-token"),
    path("games/", api_views.GameListView.as_view(), name="api-games"),
    path("games/<slug:slug>/", api_views.GameDetailView.as_view(), name="api-game-detail"),
    path("", include("cards.api_urls")),
    path("", include("rules.api_urls")),
    path("", include("decks.api_urls")),
    path("", include("results.api_urls")),
    path("", include("collection.api_urls")),
    # Before the tournaments API: limited events answer POST /api/tournaments/ with a "limited" object.
    path("", include("limited.api_urls")),
    path("", include("tournaments.api_urls")),
    path("", include("seasons.api_urls")),
]
