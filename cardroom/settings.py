"""Settings, from the environment, with an embedded default that needs nothing.

Embedded default: SQLite, Channels' in-memory layer, the clock inside the server process.
``DATABASE_URL`` (postgres://...) switches to PostgreSQL, ``REDIS_URL`` to channels-redis.
The secret key comes from ``DJANGO_SECRET_KEY`` or the git-ignored ``.local/secret_key`` that
``make play`` writes (``CARDROOM_SECRET_KEY_FILE`` names another file); without either, only
the tests and ``DEBUG=1`` start, on a random key for the process. ``CARDROOM_PRODUCTION=1``
turns on the settings for serving over HTTPS behind a proxy (``check --deploy`` passes).
"""

from __future__ import annotations

import os
import secrets
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from cardroom.env import envbool, envint, envstr

BASE_DIR = Path(__file__).resolve().parent.parent
TESTING = "PYTEST_VERSION" in os.environ or "PYTEST_XDIST_WORKER" in os.environ
DEBUG = envbool("DEBUG", False)
CARDROOM_PRODUCTION = envbool("CARDROOM_PRODUCTION", False)

# Where `make play` writes the key; another path for a deploy that keeps its key elsewhere.
CARDROOM_SECRET_KEY_FILE = Path(
    envstr("CARDROOM_SECRET_KEY_FILE", str(BASE_DIR / ".local" / "secret_key"))
)


def _secret_key() -> str:
    if key := os.environ.get("DJANGO_SECRET_KEY"):
        return key
    path = CARDROOM_SECRET_KEY_FILE
    if path.exists() and (key := path.read_text().strip()):
        return key
    if (TESTING or DEBUG) and not CARDROOM_PRODUCTION:
        # A key for this process only, which is fine for a test run or a developer's single
        # server and nowhere else: each process signs its own sessions, so a login made on one
        # server is unknown to another, and every restart logs everyone out.
        return secrets.token_urlsafe(50)
    # Refuse to start rather than fall back to that silently: sessions and CSRF tokens are
    # signed with the key, so every process must share one and keep it across restarts.
    raise ImproperlyConfigured(
        f"No secret key. Set DJANGO_SECRET_KEY, or write a key to {path} (`make play` writes "
        "one), for example: "
        "DJANGO_SECRET_KEY=\"$(python -c 'import secrets; print(secrets.token_urlsafe(50))')\". "
        "Every server process must use the same key, kept across restarts. Only the tests and "
        "DEBUG=1 run without one."
    )


SECRET_KEY = _secret_key()
# The names the site answers to; by default a developer's machine. Never "testserver", the
# test client's name, in a deployment: Django's test environment adds it for the tests. But
# Channels' WebSocket origin check (cardroom/asgi.py) copies the list when cardroom.asgi is
# imported, and the consumer tests import it while pytest collects them, before Django adds
# the name: so under the tests it is in the list from the start.
ALLOWED_HOSTS = [
    host.strip()
    for host in envstr("ALLOWED_HOSTS", "127.0.0.1,localhost").split(",")
    if host.strip()
] + (["testserver"] if TESTING else [])
CSRF_TRUSTED_ORIGINS = [
    origin for origin in envstr("CSRF_TRUSTED_ORIGINS", "").split(",") if origin
]

if CARDROOM_PRODUCTION:
    # CARDROOM_PRODUCTION=1: served to the public over HTTPS, with nginx in front terminating
    # TLS. `python manage.py check --deploy --fail-level WARNING` passes with these.
    if DEBUG:
        raise ImproperlyConfigured(
            "CARDROOM_PRODUCTION=1 refuses DEBUG=1: DEBUG's error pages show settings, code and "
            "SQL to anyone. Unset DEBUG (or set DEBUG=0)."
        )
    if not [host for host in os.environ.get("ALLOWED_HOSTS", "").split(",") if host.strip()]:
        raise ImproperlyConfigured(
            "CARDROOM_PRODUCTION=1 needs ALLOWED_HOSTS: the names the site is served under, "
            "comma-separated, for example ALLOWED_HOSTS=cardroom.example (the default, "
            "127.0.0.1 and localhost, is for a developer's machine)."
        )
    # nginx terminates TLS and passes the scheme in X-Forwarded-Proto; without this Django
    # sees plain HTTP from nginx and would redirect every HTTPS request forever. Safe only
    # because nginx sets the header itself (proxy_set_header X-Forwarded-Proto $scheme),
    # replacing whatever a client sent.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    # Plain HTTP requests are redirected to HTTPS: no page, login or form travels in clear.
    SECURE_SSL_REDIRECT = True
    # Except the monitoring's paths, which Prometheus and the probes ask each daphne process
    # for directly, in plain HTTP on its own port (docs/monitoring.md).
    SECURE_REDIRECT_EXEMPT = [r"^metrics$", r"^healthz$", r"^readyz$"]
    # Browsers remember to use HTTPS only for a year, on every subdomain, and the domain may
    # go on the browsers' preload list: no first request in clear to strip TLS from.
    SECURE_HSTS_SECONDS = 365 * 24 * 60 * 60
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    # The session and CSRF cookies go over HTTPS only: a login cannot leak over plain HTTP.
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    # Scripts cannot read the session cookie, so a script injected into a page cannot steal
    # a login (Django's default, stated so that nobody turns it off here by accident).
    SESSION_COOKIE_HTTPONLY = True
    # Browsers take a response's Content-Type as given rather than sniffing, so an uploaded
    # or echoed text is never run as a script (Django's default, stated).
    SECURE_CONTENT_TYPE_NOSNIFF = True
    # Links to other sites do not carry our URLs (table and hand ids) in the Referer.
    SECURE_REFERRER_POLICY = "same-origin"
    # A page another site opens in a window gets no handle on ours (Django's default, stated).
    SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
    # No page may be framed, by anyone: no clickjacking a bet or a cash-out button.
    X_FRAME_OPTIONS = "DENY"

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
    # Login lockouts (accounts/lockouts.py) and two-factor codes (accounts/two_factor.py).
    "axes",
    "django_otp",
    "django_otp.plugins.otp_totp",
    "django_otp.plugins.otp_static",
    "accounts",
    "cardroom",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Marks a session that gave its second factor, then sends one that owes it to do so.
    "django_otp.middleware.OTPMiddleware",
    "accounts.two_factor.TwoFactorMiddleware",
    "accounts.login_sessions.LoginSessionMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as axes asks: turns a login refused for a lockout into the page that says so.
    "axes.middleware.AxesMiddleware",
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
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        # Each worker thread keeps its connection for a minute instead of opening one per
        # action (that was a seventh of a busy server's time). The live path checks one that
        # sat idle before reusing it, so a database restarted meanwhile costs a failed check,
        # not a failed action (cardroom/realtime/threads.py, IDLE_CHECK_SECONDS). The tests close
        # theirs at once: a connection left open in a thread would block dropping the test
        # database.
        conn_max_age=envint("CARDROOM_CONN_MAX_AGE", 0 if TESTING else 60),
        conn_health_checks=True,
    )
}
# One test database per test run, so two runs at once never share one (xdist's workers add
# their own suffix to their parent's name).
_run = os.getppid() if os.environ.get("PYTEST_XDIST_WORKER") else os.getpid()
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # IMMEDIATE makes every transaction take the write lock at BEGIN, so two writers queue
    # instead of failing with "database is locked" when one upgrades a read lock.
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 30,
        "transaction_mode": "IMMEDIATE",
        # Write-ahead logging: readers never wait for the writer, and a commit appends to
        # the log with one sync instead of rewriting pages through a rollback journal (three
        # syncs). NORMAL syncs at checkpoints: a commit survives any crash of the server
        # process; only an operating-system crash or power cut may lose the last commits.
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous="
        + envstr("CARDROOM_SQLITE_SYNCHRONOUS", "NORMAL"),
    }
    # Tests use a file, not shared-cache memory, whose table locks fail at once instead of
    # waiting: the concurrency tests and the in-process server need real waiting.
    (BASE_DIR / ".local").mkdir(exist_ok=True)
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / ".local" / f"test-db-{_run}.sqlite3")}
else:
    DATABASES["default"]["TEST"] = {"NAME": f"test_{DATABASES['default']['NAME']}_{_run}"}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # psycopg prepares each statement of the runtime's server-binding cursors the first time a
    # connection runs it (accounts/sql/bound.py); Django's own cursors bind on the client and
    # never prepare. Each connection keeps them for its life: a pooler must run in session
    # mode (docs/deploy.md).
    DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = 0

REDIS_URL = os.environ.get("REDIS_URL", "")
_REDIS_LAYERS = {
    "pubsub": "cardroom.realtime.pubsub_layer.RedisPubSubLayer",
    "lists": "channels_redis.core.RedisChannelLayer",
}
_redis_layer = envstr("CARDROOM_REDIS_LAYER", "pubsub")
if _redis_layer not in _REDIS_LAYERS:
    raise ImproperlyConfigured(
        f"CARDROOM_REDIS_LAYER must be one of {', '.join(_REDIS_LAYERS)}, not {_redis_layer!r}"
    )

#: A process's own channels carry what all its sockets of every table do: its hub's, every
#: table's messages (cardroom/realtime/fanout.py); its route's, the actions forwarded to it
#: and the answers to those it forwarded (cardroom/realtime/owners.py). Each holds this many
#: before its oldest are dropped, where a socket's own holds the layer's ``capacity``.
PROCESS_CHANNELS_CAPACITY = {"*hub.*": 5000, "*route.*": 5000}

if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            # Pub/sub (the default) publishes a version once and each process hands it to
            # its own sockets; no publish or subscription of a process waits in one queue
            # (the module's docstring). The lists layer (CARDROOM_REDIS_LAYER=lists,
            # channels_redis.core) sends one message per socket and takes each process's
            # messages off its list one at a time, four Redis commands each: at 100 tables on
            # two processes it fell seconds behind and the clients synced thousands of times
            # a run (docs/performance.md, "Where the time goes").
            "BACKEND": _REDIS_LAYERS[_redis_layer],
            "CONFIG": {
                # channels_redis waits for messages with a 5-second blocking pop; redis-py 8
                # times a silent socket out after 5 s too, so a quiet WebSocket was closed
                # with 1011 every few seconds. Reads may take longer than the pop; a dead
                # Redis is still noticed, by the connect timeout and the health checks.
                "hosts": [
                    {
                        "address": REDIS_URL,
                        "socket_timeout": 30,
                        "socket_connect_timeout": 5,
                        "health_check_interval": 15,
                        # redis-py 8 caps a pool at 100 connections by default; the sends
                        # are bounded (cardroom/realtime/broadcast.py) and the sockets' own
                        # group changes come on top, so a busy process gets headroom.
                        "max_connections": 400,
                    }
                ],
                # The lists layer: a process's sockets share one Redis list, which the default
                # capacity (100) fills at a busy moment of a few dozen tables: pushes were
                # dropped ("over capacity") and clients had to sync. Messages still expire.
                # The pub/sub layer keeps a queue per socket in the process, each of this
                # many messages, the oldest dropped for a new one (cardroom/realtime/overflow.py):
                # a socket 100 versions behind needs only the newest, and each may hold a
                # snapshot, so its bound is what a socket that stopped reading may cost.
                "capacity": 5000 if _redis_layer == "lists" else 100,
                "channel_capacity": PROCESS_CHANNELS_CAPACITY,
                # Parallel test workers share one Redis: keep their groups apart.
                "prefix": "cardroom" + os.environ.get("PYTEST_XDIST_WORKER", ""),
            },
        }
    }
else:
    # Channels' in-memory layer, less its per-message deep copy and scans (its docstring).
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "cardroom.realtime.layer.ProcessChannelLayer",
            "CONFIG": {"channel_capacity": PROCESS_CHANNELS_CAPACITY},
        }
    }

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

# Login lockouts (accounts/lockouts.py): this many failed logins within the cool-off lock the
# account, and separately the address, until the cool-off has passed since the failure that
# reached the limit. Counted in the database, so every server process sees the same count.
LOGIN_FAILURE_LIMIT = 5
LOGIN_COOL_OFF = timedelta(minutes=15)
AUTHENTICATION_BACKENDS = [
    # axes' check first: a locked-out login is refused before its password is tried.
    "accounts.lockouts.LockoutBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_HANDLER = "axes.handlers.database.AxesDatabaseHandler"
AXES_FAILURE_LIMIT = LOGIN_FAILURE_LIMIT
AXES_COOLOFF_TIME = LOGIN_COOL_OFF
AXES_LOCKOUT_PARAMETERS = "accounts.lockouts.lockout_parameters"
AXES_CLIENT_IP_CALLABLE = "accounts.lockouts.client_address"
AXES_LOCKOUT_CALLABLE = "accounts.lockouts.lockout_response"
# A try during a lockout does not push its end back: the time the page names holds.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
# Failures stay listed in the admin after their lockout ends; successful logins are recorded
# as login sessions (accounts/login_sessions.py) instead of in axes' access log.
AXES_ENABLE_ACCESS_FAILURE_LOG = True
AXES_DISABLE_ACCESS_LOG = True
AXES_VERBOSE = False

# Two-factor (accounts/two_factor.py): the name authenticator apps show beside the code.
OTP_TOTP_ISSUER = "Cardroom"
# The account page's API tokens, kept by the table sockets (accounts/api_tokens.py).
ACCOUNTS_API_TOKENS = "cardroom.realtime.auth.API_TOKENS"

# E-mail (password resets): printed on the console, unless EMAIL_HOST names an SMTP server.
EMAIL_HOST = envstr("EMAIL_HOST", "")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = envint("EMAIL_PORT", 587)
    EMAIL_HOST_USER = envstr("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = envstr("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = envbool("EMAIL_USE_TLS", True)
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = envstr("DEFAULT_FROM_EMAIL", "Cardroom <cardroom@localhost>")

# English, Spanish and Norwegian Bokmål (docs/languages.md): the browser's choice, or the
# header's switcher, remembered in a cookie. The currency stays the dollar in every language.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("es", "Español"), ("nb", "Norsk bokmål")]
LOCALE_PATHS = [BASE_DIR / "locale"]
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
# The load script's bare broadcast route (cardroom/realtime/bench.py), for the servers it
# starts only.
CARDROOM_BENCH = envbool("CARDROOM_BENCH", False)

# LOG_FORMAT=json: one JSON object a line (time, level, logger, message, exception), for a log
# shipper; python-json-logger, not a formatter of our own, since it already gets the escaping,
# the exceptions and the extra fields right. Anything else: Python's plain lines.
LOG_FORMAT = envstr("LOG_FORMAT", "text").strip().lower()
if LOG_FORMAT not in {"text", "json"}:
    raise ImproperlyConfigured(f"LOG_FORMAT must be text or json, not {LOG_FORMAT!r}")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "format": "%(asctime)s %(levelname)s %(name)s %(process)d %(message)s",
            "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
        },
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler"}
        | ({"formatter": "json"} if LOG_FORMAT == "json" else {}),
    },
    "root": {"handlers": ["console"], "level": envstr("LOG_LEVEL", "INFO")},
}

# Monitoring (docs/monitoring.md). Who may read /metrics: these addresses or networks
# (comma-separated; loopback by default), or anyone sending "Authorization: Bearer" with
# METRICS_TOKEN (unset: no token opens it).
METRICS_ALLOWED_ADDRESSES = [
    address.strip()
    for address in envstr("METRICS_ALLOWED_ADDRESSES", "127.0.0.1,::1").split(",")
    if address.strip()
]
METRICS_TOKEN = envstr("METRICS_TOKEN", "")
