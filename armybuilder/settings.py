"""Muster settings: one module, every deploy-specific value read from the environment."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def envbool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    if value.lower() in {"1", "true", "yes", "on"}:
        return True
    if value.lower() in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (1/0, true/false), not {value!r}")


def envlist(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if not value:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


DEBUG = envbool("DEBUG", True)

# A development key is only acceptable while DEBUG is on; production must provide its own.
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set in the environment when DEBUG is off")
    SECRET_KEY = "muster-development-only-key-not-for-production-use-0123456789abcdef"

ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    # Before django_tasks_db: its `db_worker` command is Muster's, which waits out a database outage.
    "armybuilder.worker",
    "django_tasks_db",
    "armybuilder.reference",
    "armybuilder.catalogue",
    "armybuilder.importers",
    "armybuilder.lists",
    "armybuilder.accounts",
    "armybuilder.resolver",
    "armybuilder.playsheets",
    "armybuilder.games",
    "armybuilder.events",
    "armybuilder.leagues",
    "armybuilder.security",
    "armybuilder.site",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "armybuilder.security.headers.PermissionsPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Before the session middleware: it reads the session cookie that middleware sets.
    "armybuilder.security.headers.OfflineUserMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # After authentication (staff may send larger bodies), before any view reads a body.
    "armybuilder.security.middleware.EdgeMiddleware",
    "armybuilder.security.middleware.RateLimitMiddleware",
]

ROOT_URLCONF = "armybuilder.urls"
WSGI_APPLICATION = "armybuilder.wsgi.application"

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

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
        # A persistent connection that died (database restarted) is replaced, not used for a 500.
        conn_health_checks=True,
    )
}
# Behind a transaction-pooling PgBouncer a session's server connection changes between
# transactions: Django's setting for it, which also keeps the reference's version query unprepared.
DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = envbool("DB_TRANSACTION_POOLING", False)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Writers take the lock when their transaction starts, so two requests writing at once wait
    # for each other instead of failing with "database is locked".
    DATABASES["default"].setdefault("OPTIONS", {}).update({"transaction_mode": "IMMEDIATE", "timeout": 20})
    # Tests use a database file, not memory: the browser tests' live server then gives each
    # request its own connection, as a real server does (an in-memory database would be one
    # connection shared by concurrent requests).
    DATABASES["default"]["TEST"] = {"NAME": str(Path(tempfile.gettempdir()) / f"muster-test-{os.getpid()}.sqlite3")}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "ab-list-index"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("fr", _("French")),
    ("de", _("German")),
    ("pl", _("Polish")),
    ("es", _("Spanish")),
    ("it", _("Italian")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# Django 6.1 configures outgoing mail through MAILERS; development prints mail to the console.
MAILERS = {
    "default": {
        "BACKEND": os.environ.get(
            "EMAIL_BACKEND",
            "django.core.mail.backends.console.EmailBackend"
            if DEBUG
            else "django.core.mail.backends.smtp.EmailBackend",
        ),
    }
}
if MAILERS["default"]["BACKEND"].endswith("smtp.EmailBackend"):
    MAILERS["default"]["OPTIONS"] = {
        "host": os.environ.get("EMAIL_HOST", "localhost"),
        "port": int(os.environ.get("EMAIL_PORT", "587")),
        "username": os.environ.get("EMAIL_HOST_USER", ""),
        "password": os.environ.get("EMAIL_HOST_PASSWORD", ""),
        "use_tls": envbool("EMAIL_USE_TLS", True),
    }
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "muster@localhost")

# Uploads (list imports, catalogue files) are bounded; the importers check their own 20 MB limit too.
# `import_catalogue --github OWNER/REPO[@REF]` downloads this archive ({owner}, {repo}, {ref} filled in);
# HTTPS only (tests point it at a local server, see below).
CATALOGUE_GITHUB_ARCHIVE_URL = os.environ.get(
    "CATALOGUE_GITHUB_ARCHIVE_URL", "https://codeload.github.com/{owner}/{repo}/zip/{ref}"
)
# Plain HTTP to 127.0.0.1 (the tests' archive server), for the address and its redirects: never
# from the environment, only tests turn it on.
CATALOGUE_GITHUB_ALLOW_LOOPBACK_HTTP = False
DATA_UPLOAD_MAX_MEMORY_SIZE = 2 * 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 2 * 1024 * 1024
# Whole request bodies, refused from their Content-Length before anything is read or spooled to
# disk (armybuilder/security/middleware.py; nginx's client_max_body_size matches): anyone's,
# and staff's on the catalogue upload page.
REQUEST_BODY_MAX_BYTES = 2 * 1024 * 1024
STAFF_REQUEST_BODY_MAX_BYTES = 100 * 1024 * 1024

# REDIS_URL shares the default cache, and so the rate limits' counters, between every worker and
# machine; without it each process counts alone (fine for one developer, see `check --deploy`).
REDIS_URL = os.environ.get("REDIS_URL", "")
# Redis down or full degrades to no cache (armybuilder/security/cache.py), and a Redis that does
# not answer is given up on within a second rather than holding the worker.
CACHES = {
    "default": {
        "BACKEND": "armybuilder.security.cache.ResilientRedisCache",
        "LOCATION": REDIS_URL,
        "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
    }
    if REDIS_URL
    else {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "muster",
    },
}

# Rate-limit counters may live in a Redis of their own (RATELIMIT_REDIS_URL): the cache's Redis
# evicts when full, and a flood of cached pages must not evict the counters (docs/deploy.md).
# Without it (or without REDIS_URL) they share the default cache's configuration.
RATELIMIT_REDIS_URL = os.environ.get("RATELIMIT_REDIS_URL", "")
# With Redis down or full the counters are kept per process (armybuilder/security/cache.py's
# RateLimitCache): the limits hold, looser, rather than letting every failed login through.
CACHES["ratelimit"] = (
    {
        **CACHES["default"],
        "BACKEND": "armybuilder.security.cache.RateLimitCache",
        "LOCATION": RATELIMIT_REDIS_URL or REDIS_URL,
    }
    if REDIS_URL
    else CACHES["default"]
)
RATELIMIT_USE_CACHE = "ratelimit"

# Rate limits (armybuilder/security/middleware.py): RATELIMIT_ENABLE=0 turns them off, for a load
# test from one address. A Redis outage moves the counters into each process (RateLimitCache);
# fail-open is left only for a store that cannot count at all.
RATELIMIT_ENABLE = envbool("RATELIMIT_ENABLE", True)
RATELIMIT_FAIL_OPEN = True
# Behind the proxy REMOTE_ADDR is the proxy's (gunicorn does not rewrite it): the limits count per
# visitor from the X-Forwarded-For that Muster's nginx sets, believed only from these proxies
# (addresses or networks, e.g. 127.0.0.1,::1); see armybuilder/security/client.py.
TRUSTED_PROXIES = envlist("TRUSTED_PROXIES", [])
RATELIMIT_IP_META_KEY = "armybuilder.security.client.client_ip"

# Only what Muster serves itself: its static files and htmx (django-htmx serves it from static).
# No inline script or style, no eval, no other origin; forms post only to Muster.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "font-src": [CSP.SELF],
    "connect-src": [CSP.SELF],
    "frame-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.SELF],  # the print preview frames its own document
}
PERMISSIONS_POLICY = "camera=(), microphone=(), geolocation=(), payment=(), usb=()"

SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False  # htmx reads the token from the body's hx-headers, not the cookie
CSRF_FAILURE_VIEW = "armybuilder.site.views.csrf_failure"  # Muster's own 403 page, in the visitor's language
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
if not DEBUG:
    SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    # Preload is off unless asked (SECURE_HSTS_PRELOAD=1): submitting a domain to the browsers'
    # preload list binds it and every subdomain to HTTPS for months, and leaving the list is slow,
    # so it is the operator's choice, made once HTTPS works everywhere (docs/deploy.md).
    SECURE_HSTS_PRELOAD = envbool("SECURE_HSTS_PRELOAD", False)
    if not SECURE_HSTS_PRELOAD:
        # check --deploy's "no preload" warning: a deliberate default, not an oversight.
        SILENCED_SYSTEM_CHECKS = ["security.W021"]
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}

# Work that takes seconds runs outside the request, in Django's Tasks framework: the ORM backend
# (django-tasks-db) keeps the queue in the database Muster already has, and `manage.py db_worker`
# (started by `make run`, deploy/stack.sh and deploy/systemd/muster-worker.service) runs it.
# TASKS_BACKEND=django.tasks.backends.immediate.ImmediateBackend runs each task inside the request
# that asks for it (the tests do, except those of the worker's own path).
TASKS = {"default": {"BACKEND": os.environ.get("TASKS_BACKEND", "django_tasks_db.DatabaseBackend")}}
# Every PDF not already kept is made by the worker (armybuilder/playsheets/jobs.py): the request
# answers at once with a page that follows the job and then offers the file.

# Muster's own error pages (templates/500.html, 503.html) and handlers live in armybuilder/site/views.py.
