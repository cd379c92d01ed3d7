"""Deckhall settings: one module, driven by environment variables.

It runs with no environment at all (SQLite file, Celery eager, DEBUG on) so that a
fresh checkout works after `make run`. Every variable is listed in README.md.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    value = raw.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (true/false), got {raw!r}")


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer, got {raw!r}") from None


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in env_str(name, default).split(",") if item.strip()]


# Venue mode (`make venue`): one laptop serving an event to phones on the LAN (HTTP, or HTTPS below). It turns
# DEBUG off, keeps a generated SECRET_KEY in VENUE_DIR and answers to the machine's LAN names/addresses.
VENUE_MODE = env_bool("DECKHALL_VENUE", False)
VENUE_DIR = Path(env_str("DECKHALL_VENUE_DIR", str(BASE_DIR / "var")))

DEBUG = env_bool("DEBUG", not VENUE_MODE)
if VENUE_MODE:
    # Every file the venue writes (the database and its WAL, snapshots, the cache, var/) holds password
    # hashes or private lists: readable by the venue's user only (0600 files, 0700 folders).
    os.umask(0o077)

_DEV_SECRET = "insecure-development-key-only-for-debug-mode"
SECRET_KEY = env_str("SECRET_KEY", _DEV_SECRET if DEBUG else "")
if VENUE_MODE and not env_str("SECRET_KEY"):
    from venue.lan import secret_key_file

    SECRET_KEY = secret_key_file(VENUE_DIR / "secret_key")
if not DEBUG and (not SECRET_KEY or SECRET_KEY == _DEV_SECRET or len(SECRET_KEY) < 50):
    # Refuse to start rather than sign sessions with a guessable key.
    raise ImproperlyConfigured(
        "DEBUG is off but SECRET_KEY is missing or weak: set SECRET_KEY to a random string "
        "of at least 50 characters, e.g. python -c 'import secrets; print(secrets.token_urlsafe(64))'"
    )

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1]" + (",testserver" if DEBUG else ""))
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")
# Venue HTTPS (venue/tls.py): `manage.py venue --certfile/--keyfile/--self-signed/--host` checks the files and
# sets these for its gunicorn; VENUE_HOST is the certificate's name that links and QR codes use ("" = LAN address).
VENUE_TLS_CERT = env_str("VENUE_TLS_CERT", "") if VENUE_MODE else ""
VENUE_HOST = env_str("VENUE_HOST", "").lower() if VENUE_MODE else ""
if VENUE_MODE:
    from venue.lan import venue_hosts

    _venue_port = env_str("PORT", "8000")
    _venue_scheme = "https" if VENUE_TLS_CERT else "http"
    ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ",".join(venue_hosts() + ([VENUE_HOST] if VENUE_HOST else [])))
    CSRF_TRUSTED_ORIGINS = env_list(
        "CSRF_TRUSTED_ORIGINS", ",".join(f"{_venue_scheme}://{host}:{_venue_port}" for host in ALLOWED_HOSTS)
    )

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "accounts",
    "cards",
    "rules",
    "decks",
    "collection",
    "tournaments",
    "seasons",
    "results",
    "limited",
    "venue",
    "idempotency",
]

MIDDLEWARE = [
    "config.middleware.HealthCheckMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Below WhiteNoise (static files come pre-compressed from collectstatic), above everything that writes
    # a body: every other text answer goes out gzipped to a client that takes it (config/compression.py).
    "config.compression.TextGZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "config.errors.BadInputMiddleware",
    "config.busy.DatabaseBusyMiddleware",
    "config.csp.ContentSecurityPolicyMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# No DATABASE_URL: a SQLite file next to the code, so `make run` needs nothing installed.
DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=env_int("DB_CONN_MAX_AGE", 60),
        conn_health_checks=True,
    )
}
# The live polls' few statements are prepared on PostgreSQL (tournaments/pollsql.py): planning them cost
# more than running them, hundreds of times a second on an event day. Django's own queries stay unprepared.
# Off behind a connection pooler that cannot hold prepared statements (PgBouncer in transaction mode
# without max_prepared_statements).
DB_PREPARED_STATEMENTS = env_bool("DB_PREPARED_STATEMENTS", True)
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and DB_PREPARED_STATEMENTS:
    # 0: prepared on first use. Only server-binding cursors prepare, and only pollsql makes those.
    DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = 0
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Django's backend, with writers that wait in line rather than poll SQLite's lock (config/sqlite/base.py).
    DATABASES["default"]["ENGINE"] = "config.sqlite"
    # Tests keep Django's in-memory database (said outright: pytest-django's per-process names are made only
    # for engines it does not know as SQLite, from the file's name).
    DATABASES["default"].setdefault("TEST", {})["NAME"] = ":memory:"
    # WAL lets the eager-Celery import job and page requests read while one writes.
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
    }
    # Opening a SQLite connection (and its PRAGMAs) costs more than a live poll: the venue's gunicorn
    # workers keep theirs; runserver (`make run`, a new thread per request) closes each one.
    DATABASES["default"]["CONN_MAX_AGE"] = env_int("DB_CONN_MAX_AGE", 300 if VENUE_MODE else 0)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("ru", _("Russian"))]
# The site chrome's catalogue. `make messages-extract` sets DECKHALL_EXTRACTING_APP while it extracts an
# app's strings: makemessages would otherwise write them into this first locale path, not the app's own.
LOCALE_PATHS = [] if env_str("DECKHALL_EXTRACTING_APP") else [BASE_DIR / "locale"]
TIME_ZONE = env_str("TIME_ZONE", "UTC")
# One clock for every page: English on 24 hours like Russian (config/formats/en).
FORMAT_MODULE_PATH = ["config.formats"]
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG or "pytest" in sys.modules
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# Card pictures uploaded with a card import (cards/pictures.py) are kept in the default storage; the site
# serves them itself (cards.views.picture), so MEDIA_URL needs no web-server rule. Several machines need a
# shared MEDIA_ROOT (or another STORAGES["default"] backend), as a worker writes what web processes serve.
MEDIA_ROOT = Path(env_str("MEDIA_ROOT", str(BASE_DIR / "media")))
MEDIA_URL = "/media/"

# Uploaded card databases can be large (the full YGO .cdb is ~4 MB); cap them well above that.
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("UPLOAD_MAX_BYTES", 64 * 1024 * 1024)
FILE_UPLOAD_MAX_MEMORY_SIZE = DATA_UPLOAD_MAX_MEMORY_SIZE
DATA_UPLOAD_MAX_NUMBER_FIELDS = 10_000

# --- Celery -------------------------------------------------------------------------------
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", "")
CELERY_RESULT_BACKEND = env_str("CELERY_RESULT_BACKEND", CELERY_BROKER_URL)
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
# Tasks queued by a worker itself (a re-run of a dead import) go to the queue its peers consume.
CELERY_TASK_DEFAULT_QUEUE = env_str("CELERY_TASK_DEFAULT_QUEUE", "celery")
CELERY_TASK_ACKS_LATE = True
# A task whose worker process dies goes back to the queue instead of being acknowledged as failed.
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# No task may keep a worker forever (a hostile file, a stuck query): the soft limit lets the task end its
# job with a message, the hard limit kills the process after that.
CELERY_TASK_SOFT_TIME_LIMIT = env_int("CELERY_TASK_SOFT_TIME_LIMIT", 9 * 60)
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 10 * 60)
# An unacknowledged task is redelivered after this long if its worker vanished; it must exceed the hard
# time limit, or a slow task would be started twice.
# (CELERY_VISIBILITY_TIMEOUT: the crash tests run their workers with a few seconds, to see the redelivery.)
# A worker finds a dead worker's tasks by scanning the broker every restore interval × throttle seconds
# (kombu's 10 × 10: a lost task waits up to 100 s past its timeout); the first scan runs when a worker starts,
# when the lost task may still be younger than the timeout. The crash tests scan every second.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", CELERY_TASK_TIME_LIMIT + 5 * 60),
    "unacked_restore_interval": env_int("CELERY_UNACKED_RESTORE_INTERVAL", 10),
    "unacked_restore_throttle": env_int("CELERY_UNACKED_RESTORE_THROTTLE", 10),
}
# Import jobs (cards.services): a running job's heartbeat older than this means its worker died; the job is
# re-run up to IMPORT_JOB_MAX_ATTEMPTS times, then failed. A pending job no worker took is failed after
# IMPORT_JOB_PENDING_MINUTES.
IMPORT_JOB_STALE_SECONDS = env_int("IMPORT_JOB_STALE_SECONDS", 60)
IMPORT_JOB_MAX_ATTEMPTS = env_int("IMPORT_JOB_MAX_ATTEMPTS", 2)
IMPORT_JOB_PENDING_MINUTES = env_int("IMPORT_JOB_PENDING_MINUTES", 30)
# /healthz asks the Celery workers at most this often (a ping is a broadcast through the broker).
HEALTHZ_WORKERS_CACHE_SECONDS = env_int("HEALTHZ_WORKERS_CACHE_SECONDS", 5)

# --- Cache: Redis when configured so rate limits and cached reads are shared by all web nodes. The
# venue's gunicorn workers are separate processes on one laptop: they share a cache in files (one
# worker's render of the 2,000-name pairings page serves them all, and login lockouts and throttles
# count across workers, which a per-process memory cache would let a client dodge).
# CACHE_URL: redis://… | file:///a/folder | empty (per-process memory; venue mode: files in VENUE_DIR).
CACHE_URL = env_str("CACHE_URL", "")
if not CACHE_URL and VENUE_MODE:
    CACHE_URL = (VENUE_DIR / "cache").as_uri()
if CACHE_URL.startswith("file://"):
    _cache = {"BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
              "LOCATION": CACHE_URL.removeprefix("file://"), "OPTIONS": {"MAX_ENTRIES": 5000}}  # fmt: skip
elif CACHE_URL:
    _cache = {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": CACHE_URL}
else:
    _cache = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
CACHES = {"default": _cache}

# --- API ------------------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "accounts.tokens.HashedTokenAuthentication",  # DRF's header, tokens hashed at rest
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "config.api.DeckhallAutoSchema",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "config.pagination.StrictPageNumberPagination",
    "PAGE_SIZE": 50,
    "EXCEPTION_HANDLER": "config.api.exception_handler",
    # Only views that declare a throttle_scope are limited (the token endpoint: password guessing).
    "DEFAULT_THROTTLE_CLASSES": ["config.throttles.ClientScopedRateThrottle"],
    # Each operation reads only the encoding its schema documents (config.api): JSON, and multipart only
    # where a file is uploaded (those views name MultiPartParser). Anything else is 415, documented.
    "DEFAULT_PARSER_CLASSES": ["config.parsers.DepthLimitedJSONParser"],
    # The test client sends what the API reads (JSON) unless a test asks for multipart (an upload).
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    "DEFAULT_THROTTLE_RATES": {"auth": env_str("AUTH_THROTTLE_RATE", "20/min")},
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Deckhall API",
    "DESCRIPTION": "Card databases, deck validation and Swiss tournaments for several card games.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # Swagger UI is served from the drf-spectacular-sidecar-free static copy: no CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Match statuses appear in two shapes (a round's matches, one match): one named enum for both.
    # TournamentOutStatusEnum: the event answers of /api/tournaments/ (limited's create shares it) keep one name.
    "ENUM_NAME_OVERRIDES": {
        "MatchStatusEnum": "tournaments.models.Match.Status",
        "TournamentOutStatusEnum": "limited.serializers.TOURNAMENT_STATUSES",
    },
    # A game's slug is what Django's <slug:…> matches; anything else is no route (the API's JSON 404).
    "PATH_CONVERTER_OVERRIDES": {"slug": {"type": "string", "pattern": "^[-a-zA-Z0-9_]+$"}},
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "config.openapi.document_unsupported_media_type",
        "config.openapi.describe_accepted_values",
        "config.openapi.alternatives_by_choice",
    ],
}

# --- Security -------------------------------------------------------------------------------
# Log-in lockout (accounts.lockout), on every log-in path: failed attempts per account from one client
# address, and a much higher limit per address over all accounts, within LOGIN_LOCKOUT_SECONDS.
AUTHENTICATION_BACKENDS = ["accounts.backends.LockoutModelBackend"]
LOGIN_MAX_FAILURES = env_int("LOGIN_MAX_FAILURES", 10)
LOGIN_ADDRESS_MAX_FAILURES = env_int("LOGIN_ADDRESS_MAX_FAILURES", 100)
LOGIN_LOCKOUT_SECONDS = env_int("LOGIN_LOCKOUT_SECONDS", 15 * 60)
# Per client address, counted in the database (accounts.attempts): sign-ups (accounts created on the
# sign-up page or the join screen) and anonymous join-page / join-code look-ups. "N/s|min|hour|day".
SIGNUP_THROTTLE_RATE = env_str("SIGNUP_THROTTLE_RATE", "30/hour")
JOIN_THROTTLE_RATE = env_str("JOIN_THROTTLE_RATE", "60/min")
# Ratings (seasons.services): an event moves ratings only with this many rated players, and a match only
# between two players who each met this many different rated opponents there (no farming with a sock).
RATING_MIN_PLAYERS = env_int("RATING_MIN_PLAYERS", 4)
RATING_MIN_OPPONENTS = env_int("RATING_MIN_OPPONENTS", 2)
# The deck checks anyone may call (validate, sideboard, partners, team check), per address and per account.
DECK_CHECK_THROTTLE_RATE = env_str("DECK_CHECK_THROTTLE_RATE", "120/min")
# How many reverse proxies we run in front of the app (config.client): the client address for
# throttles and lockouts is read that many entries from the right of X-Forwarded-For; 0 ignores it.
# Only sound when the nodes cannot be reached except through those proxies; TRUSTED_PROXY_IPS (addresses
# or networks, comma-separated) additionally believes the header only from those peers.
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0)
TRUSTED_PROXY_IPS = env_list("TRUSTED_PROXY_IPS", "")
# Deeper JSON request bodies are refused with 400 (config.parsers).
API_JSON_MAX_DEPTH = env_int("API_JSON_MAX_DEPTH", 32)
# Hosts card pictures may come from (cards/images.py), e.g. "https://images.ygoprodeck.com
# https://cards.scryfall.io": the players' browsers load them, never the server. Empty (the default): no
# picture from elsewhere is shown (a venue laptop is offline anyway); config.csp adds them to img-src.
CARD_IMAGE_HOSTS = [host.rstrip("/") for host in env_str("CARD_IMAGE_HOSTS", "").split() if host]
# Sent on every response (config.csp): scripts only from our origin, never inline.
CONTENT_SECURITY_POLICY = env_str(
    "CONTENT_SECURITY_POLICY",
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; "
    "font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; "
    "frame-ancestors 'none'",
)
# Django's database sessions, read without the ORM's query building (config/sessions.py); the same table.
SESSION_ENGINE = "config.sessions"
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False  # the builder's fetch() reads the token from the cookie
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
# Venue mode serves plain HTTP on a LAN with no internet: there is no certificate a phone would trust, so no
# HTTPS redirect, no HSTS (it would lock phones out of http:// for a year) and no Secure-only cookies
# (phones would never send them back, and nobody could log in). The Wi-Fi password is the perimeter.
if not DEBUG and not VENUE_MODE:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31_536_000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    # Behind a load balancer that terminates TLS.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
elif VENUE_MODE and VENUE_TLS_CERT:
    # The venue serves HTTPS only (gunicorn's certfile): cookies may say so. Still no HSTS: a self-signed or
    # short-lived certificate must not lock phones out of the venue's address for a year.
    SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"quiet_refusals": {"()": "config.logfilters.QuietRefusals"}},
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        # A refusal (4xx) is logged as one line, without the exception's traceback (config.logfilters).
        "django.request": {"filters": ["quiet_refusals"]},
        "django.security": {"filters": ["quiet_refusals"]},
    },
}

# Venue snapshots (venue/snapshots.py): SQLite only; on by default in venue mode.
VENUE_SNAPSHOTS = env_bool("VENUE_SNAPSHOTS", VENUE_MODE)
VENUE_SNAPSHOT_DIR = Path(env_str("VENUE_SNAPSHOT_DIR", str(VENUE_DIR / "snapshots")))
VENUE_SNAPSHOT_KEEP = env_int("VENUE_SNAPSHOT_KEEP", 50)
VENUE_SNAPSHOT_INTERVAL = env_int("VENUE_SNAPSHOT_INTERVAL", 5)

# `update_cards <game>` and the "Update from the community's files" page (cards/updates.py): where each game's
# current files are fetched, as space-separated http(s) URLs (CARD_UPDATE_URLS_YUGIOH=…). A URL answering a
# JSON directory listing (GitHub's contents API: [{"name", "download_url"}]) stands for the files in it that
# the game reads (Yu-Gi-Oh!: cards.cdb, cards-unofficial.cdb, prerelease-*.cdb, EDOPro's BabelCDB layout).
CARD_UPDATE_DEFAULT_URLS = {
    "yugioh": "https://api.github.com/repos/ProjectIgnis/BabelCDB/contents/",
    "mtg": "https://mtgjson.com/api/v5/AllPrintings.json.gz "
    "https://raw.githubusercontent.com/Cockatrice/Magic-Spoiler/files/spoiler.xml",
}
CARD_UPDATE_URLS = {
    slug: env_str(f"CARD_UPDATE_URLS_{slug.upper()}", default).split()
    for slug, default in {**CARD_UPDATE_DEFAULT_URLS, "caster": "", "vale": ""}.items()
}
CARD_UPDATE_TIMEOUT_S = env_int("CARD_UPDATE_TIMEOUT_S", 30)
CARD_UPDATE_MAX_MB = env_int("CARD_UPDATE_MAX_MB", 2048)

# Where the read-only shared data (real card databases) lives; demo loading uses it when present.
SHARED_DATA_DIR = Path(env_str("DECKHALL_SHARED_DATA", str(BASE_DIR.parent / "shared" / "data")))
