"""Shared fixtures: personas in the spirit of healthchecks' alice / bob / charlie."""

from __future__ import annotations

import functools
import os

import pytest

#: On CI, a service the run was told to use must be there: its tests fail rather than skip.
CI = os.environ.get("CI", "").lower() == "true"


@pytest.fixture(autouse=True)
def fresh_channel_layer():
    """A channel layer of each test's own (each async test runs its own event loop).

    channels_redis keeps per-channel asyncio locks on the layer; one left behind by an earlier
    test's loop (a receive cancelled at a disconnect) refuses the next loop. Nothing is shared
    between tests through the layer, so a new one is safe on both backends.
    """
    from channels.layers import channel_layers

    channel_layers.backends.pop("default", None)
    yield
    channel_layers.backends.pop("default", None)


@pytest.fixture(autouse=True)
def english_after_each_test():
    """Each test starts in the site's default language. A request in another language leaves
    it active in the test's thread (LocaleMiddleware activates it; a server's next request
    activates its own, but a test calls code directly), so it is reset after every test."""
    from django.utils import translation

    yield
    translation.deactivate()


@pytest.fixture
def make_player(db):
    """A factory of players with the usual grant: ``make_player("dave")``."""
    from accounts.services import user_create

    def make(username: str, **kwargs):
        return user_create(username=username, password="pw-" + username, **kwargs)

    return make


@pytest.fixture
def alice(make_player):
    return make_player("alice")


@pytest.fixture
def bob(make_player):
    return make_player("bob")


def login_with_two_factor(client, user):
    """Log ``client`` in as ``user`` with the second factor given, as the verify step leaves a
    session: the user gets a confirmed authenticator app (unless they have one) and the session
    names it (django-otp's ``otp_device_id``). Staff need this for /operators/ and /admin/."""
    from django_otp import DEVICE_ID_SESSION_KEY
    from django_otp.plugins.otp_totp.models import TOTPDevice

    device = TOTPDevice.objects.filter(user=user, confirmed=True).first()
    if device is None:
        device = TOTPDevice.objects.create(user=user, name="Test app", confirmed=True)
    client.force_login(user)
    session = client.session
    session[DEVICE_ID_SESSION_KEY] = device.persistent_id
    session.save()
    return device


def totp_code(device) -> str:
    """The code ``device``'s authenticator app shows now."""
    from django_otp.oath import totp

    value = totp(device.bin_key, device.step, device.t0, device.digits, device.drift)
    return f"{value:0{device.digits}d}"


@pytest.fixture
def two_factor_login(db):
    """``two_factor_login(client, user)``: :func:`login_with_two_factor` as a fixture."""
    return login_with_two_factor


#: Tables the flush after a transactional test leaves as they are: the rows Django's
#: post_migrate makes (content types, permissions), which no test changes. Emptied, they were
#: made again after every such test.
KEPT_BY_THE_FLUSH = frozenset({"django_content_type", "auth_permission"})


@pytest.fixture(scope="session", autouse=True)
def quick_flush():
    """The flush after each transactional test, by DELETE rather than PostgreSQL's TRUNCATE,
    and without the content types and permissions.

    TRUNCATE makes new files for every table and index, which costs PostgreSQL far more than
    deleting the few rows a test leaves, and a few hundred tests flush. The tables are locked
    first, as TRUNCATE locks them, so that a write still in flight from the test's threads ends
    before the rows go, not after. The DELETEs run with the session's triggers off
    (``session_replication_role``, which a superuser may set, as the tests' PostgreSQL user is):
    TRUNCATE fires no row trigger either, so the ledger's refusal to delete a transfer and the
    foreign keys' checks stay out of the flush as before. Sequences are not restarted, as
    TRUNCATE without RESTART IDENTITY leaves them; a test asking for that, or a user who may not
    turn the triggers off, gets Django's own statements."""
    from django.db import connection

    operations = type(connection.ops)
    django_sql_flush = operations.sql_flush

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if reset_sequences or allow_cascade:
            return django_sql_flush(
                self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        emptied = [table for table in tables if table not in KEPT_BY_THE_FLUSH]
        if self.connection.vendor != "postgresql" or not _superuser(self.connection.alias):
            return django_sql_flush(self, style, emptied)
        if not emptied:
            return []
        names = [self.quote_name(table) for table in emptied]
        return [
            "SET LOCAL session_replication_role = replica;",
            f"LOCK TABLE {', '.join(names)} IN ACCESS EXCLUSIVE MODE;",
            *(f"DELETE FROM {name};" for name in names),
        ]

    operations.sql_flush = sql_flush
    yield
    operations.sql_flush = django_sql_flush


@functools.cache
def _superuser(alias: str) -> bool:
    from django.db import connections

    with connections[alias].cursor() as cursor:
        cursor.execute("SELECT current_setting('is_superuser') = 'on'")
        return bool(cursor.fetchone()[0])


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's test database, and before it is dropped, the end of every other session
    on it (PostgreSQL). A pool or clock thread of this run may still hold a connection, and
    PostgreSQL refuses to drop a database in use: the run ended with "database ... is being
    accessed by other users" and left its test database behind."""
    yield
    from django.db import connection

    with django_db_blocker.unblock():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )


def pytest_sessionstart(session):
    """The translations compiled from their .po files when those changed since (``make install``
    does it too; a direct pytest run after editing a .po would otherwise read stale .mo files).
    Once, in the run's main process: the workers start after it."""
    if hasattr(session.config, "workerinput"):
        return
    from django.core.management import call_command

    call_command("compilemessages", verbosity=0)


def pytest_collection_modifyitems(config, items):
    """Tests that need Redis run only where REDIS_URL names one (CI's second pass)."""
    if os.environ.get("REDIS_URL"):
        return
    kept = [item for item in items if item.get_closest_marker("redis") is None]
    left_out = len(items) - len(kept)
    if left_out:
        config.hook.pytest_deselected(items=[i for i in items if i not in kept])
        items[:] = kept
        print(f"\n{left_out} test(s) need Redis and PostgreSQL: set REDIS_URL and DATABASE_URL")
