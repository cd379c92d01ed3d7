"""Site-wide pages: the home page and the health check."""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache

from cards.models import Game

log = logging.getLogger(__name__)


def home(request: HttpRequest) -> HttpResponse:
    games = Game.objects.prefetch_related("formats").order_by("name")
    return render(request, "home.html", {"games": games})


def _database_ok() -> tuple[bool, str]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any driver error means "unhealthy", reported, never raised
        log.warning("healthz: database check failed: %s", exc)
        return False, type(exc).__name__
    return True, connection.vendor


def _broker_ok() -> tuple[bool, str]:
    if not settings.CELERY_BROKER_URL:
        return True, "eager"
    from config.celery import app

    try:
        with app.connection_for_write(url=settings.CELERY_BROKER_URL) as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
    except Exception as exc:
        log.warning("healthz: broker check failed: %s", exc)
        return False, type(exc).__name__
    return True, "redis"


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    db_ok, db_detail = _database_ok()
    broker_ok, broker_detail = _broker_ok()
    healthy = db_ok and broker_ok
    body = {
        "status": "ok" if healthy else "unhealthy",
        "database": {"ok": db_ok, "detail": db_detail},
        "broker": {"ok": broker_ok, "detail": broker_detail},
    }
    return JsonResponse(body, status=200 if healthy else 503)
