"""Site-wide pages: the home page and the health check."""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.cache import cache
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


WORKERS_CACHE_KEY = "healthz:celery-workers"


def _workers_ok() -> tuple[bool, str]:
    """Whether at least one Celery worker answers a ping. The answer is cached for a few seconds (in the
    shared cache when there is one): load balancers probe every node often, and a ping is a broadcast."""
    from config.celery import app

    if not settings.CELERY_BROKER_URL or app.conf.task_always_eager:
        return True, "eager"
    try:
        answered = cache.get(WORKERS_CACHE_KEY)
    except Exception:  # the cache being down is not the workers' problem; ask them directly
        answered = None
    if answered is None:
        try:
            # limit=1: return as soon as one worker answers instead of waiting out the timeout.
            answered = len(app.control.ping(timeout=1.0, limit=1) or [])
        except Exception as exc:
            log.warning("healthz: worker ping failed: %s", exc)
            answered = 0
        try:
            cache.set(WORKERS_CACHE_KEY, answered, settings.HEALTHZ_WORKERS_CACHE_SECONDS)
        except Exception:
            log.warning("healthz: cannot cache the worker ping")
    if answered:
        return True, "a worker answered"
    return False, "no worker answered"


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    db_ok, db_detail = _database_ok()
    broker_ok, broker_detail = _broker_ok()
    # With the broker down, pinging workers through it would only repeat that.
    workers_ok, workers_detail = _workers_ok() if broker_ok else (False, "broker unreachable")
    healthy = db_ok and broker_ok and workers_ok
    body = {
        "status": "ok" if healthy else "unhealthy",
        "database": {"ok": db_ok, "detail": db_detail},
        "broker": {"ok": broker_ok, "detail": broker_detail},
        "workers": {"ok": workers_ok, "detail": workers_detail},
    }
    return JsonResponse(body, status=200 if healthy else 503)
