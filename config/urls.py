from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

from . import pwa, views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("sw.js", pwa.service_worker, name="service-worker"),
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("accounts/", include("accounts.urls")),
    path("admin/", admin.site.urls),
    path("api/", include("config.api_urls")),
    path("cards/", include("cards.urls")),
    path("rules/", include("rules.urls")),
    path("decks/", include("decks.urls")),
    path("tournaments/", include("results.urls")),
    path("collection/", include("collection.urls")),
    path("tournaments/", include("limited.urls")),
    path("tournaments/", include("tournaments.urls")),
    path("seasons/", include("results.calendar_urls")),
    path("seasons/", include("seasons.urls")),
]

# JSON 404s under /api/ (config.errors), the usual page elsewhere.
handler404 = "config.errors.not_found"
# A busy SQLite database ("database is locked") answers 503 with Retry-After wherever it is raised.
handler500 = "config.busy.server_error"
