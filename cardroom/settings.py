"""Settings, from the environment, with an embedded default that needs nothing.

Embedded default: SQLite, Channels' in-memory layer, the clock inside the server process.
``DATABASE_URL`` (postgres://...) switches to PostgreSQL, ``REDIS_URL`` to channels-redis.
The secret key comes from ``DJANGO_SECRET_KEY`` or the git-ignored ``.local/secret_key`` that
``make play`` writes; without either, a random key for this process only.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

import dj_database_url

from cardroom.env import envbool, envint, envstr

BASE_DIR = Path(__file__).resolve().parent.parent
TESTING = "PYTEST_VERSION" in os.environ or "PYTEST_XDIST_WORKER" in os.environ


def _secret_key() -> str:
    if key := os.environ.get("DJANGO_SECRET_KEY"):
        return key
    path = BASE_DIR / ".local" / "secret_key"
    if path.exists():
        return path.read_text().strip()
    return secrets.token_urlsafe(50)


SECRET_KEY = _secret_key()
DEBUG = envbool("DEBUG", False)
ALLOWED_HOSTS = envstr("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver").split(",")
CSRF_TRUSTED_ORIGINS = [
    origin for origin in envstr("CSRF_TRUSTED_ORIGINS", "").split(",") if origin
]

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "accounts",
    "cardroom",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "cardroom.urls"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "accounts.context_processors.bankroll",
            ],
        },
    },
]
WSGI_APPLICATION = None
ASGI_APPLICATION = "cardroom.asgi.application"

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}", conn_max_age=0
    )
}
# One test database per test run, so two runs at once never share one (xdist's workers add
# their own suffix to their parent's name).
_run = os.getppid() if os.environ.get("PYTEST_XDIST_WORKER") else os.getpid()
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # IMMEDIATE makes every transaction take the write lock at BEGIN, so two writers queue
    # instead of failing with "database is locked" when one upgrades a read lock.
    DATABASES["default"]["OPTIONS"] = {"timeout": 30, "transaction_mode": "IMMEDIATE"}
    # Tests use a file, not shared-cache memory, whose table locks fail at once instead of
    # waiting: the concurrency tests and the in-process server need real waiting.
    (BASE_DIR / ".local").mkdir(exist_ok=True)
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / ".local" / f"test-db-{_run}.sqlite3")}
else:
    DATABASES["default"]["TEST"] = {"NAME": f"test_{DATABASES['default']['NAME']}_{_run}"}

REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                "hosts": [REDIS_URL],
                # Parallel test workers share one Redis: keep their groups apart.
                "prefix": "cardroom" + os.environ.get("PYTEST_XDIST_WORKER", ""),
            },
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

AUTH_USER_MODEL = "accounts.User"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
if TESTING:
    # Hashing is the slowest part of creating test users; the tests are not about it.
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [
    BASE_DIR / "static",
    # npm packages, served as static files: htmx 2 and its WebSocket extension.
    ("vendor/htmx", BASE_DIR / "node_modules" / "htmx.org" / "dist"),
    ("vendor/htmx-ext-ws", BASE_DIR / "node_modules" / "htmx-ext-ws" / "dist"),
]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Play money (integer cents): a new player's grant, and the cashier's reload rule.
CARDROOM_GRANT_CENTS = envint("CARDROOM_GRANT_CENTS", 100_000)
CARDROOM_RELOAD_BELOW_FRACTION = 10  # reload offered below a tenth of the grant
CARDROOM_RELOAD_INTERVAL_SECONDS = envint("CARDROOM_RELOAD_INTERVAL_SECONDS", 3600)
# The largest single amount the ledger accepts: $10 million, far beyond any table.
CARDROOM_MAX_TRANSFER_CENTS = 1_000_000_000
# Each WebSocket connection's token bucket: a burst of messages, refilled at a rate a second.
CARDROOM_WS_RATE_BURST = envint("CARDROOM_WS_RATE_BURST", 20)
CARDROOM_WS_RATE_PER_SECOND = envint("CARDROOM_WS_RATE_PER_SECOND", 10)
# The clock: in the server process on the embedded default; `runclock` runs it alone.
CARDROOM_CLOCK_IN_PROCESS = envbool("CARDROOM_CLOCK_IN_PROCESS", not TESTING)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": envstr("LOG_LEVEL", "INFO")},
}
