"""The suite runs where it was told to: the embedded default, or PostgreSQL and Redis.

When ``DATABASE_URL`` or ``REDIS_URL`` is set (CI's second pass), these fail, never skip, if the
service is missing, so a run that silently fell back to SQLite cannot pass as a PostgreSQL run.
"""

from __future__ import annotations

import os

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection


@pytest.mark.django_db
def test_database_is_the_one_configured():
    expected = "postgresql" if os.environ.get("DATABASE_URL") else "sqlite"
    assert connection.vendor == expected
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)


def test_channel_layer_is_the_one_configured_and_delivers():
    layer = get_channel_layer()
    # The embedded default: Channels' in-memory layer, made cheaper (cardroom/realtime/layer.py).
    redis = {"pubsub": "RedisPubSubLayer", "lists": "RedisChannelLayer"}
    expected = (
        redis[os.environ.get("CARDROOM_REDIS_LAYER", "pubsub")]
        if os.environ.get("REDIS_URL")
        else "ProcessChannelLayer"
    )
    assert type(layer).__name__ == expected

    async def round_trip() -> dict:
        channel = await layer.new_channel()
        await layer.send(channel, {"type": "ping", "n": 7})
        return await layer.receive(channel)

    assert async_to_sync(round_trip)() == {"type": "ping", "n": 7}


def test_no_secret_key_is_committed():
    assert settings.SECRET_KEY
    tracked = os.popen("git ls-files").read().split()
    assert ".local/secret_key" not in tracked


@pytest.mark.django_db(transaction=True)
def test_the_flush_between_tests_empties_the_ledger_and_keeps_the_content_types():
    """The flush after a transactional test (tests/conftest.py's ``quick_flush``): as Django's
    TransactionTestCase calls it, it empties every table, the immutable ledger's included,
    and leaves the content types and permissions, so that nothing has to make them again."""
    from django.contrib.auth.models import Permission
    from django.contrib.contenttypes.models import ContentType
    from django.core.management import call_command

    from accounts.models import Transfer
    from accounts.services import user_create

    def keys() -> list[list[tuple[int]]]:
        return [list(m.objects.order_by("pk").values_list("pk")) for m in (ContentType, Permission)]

    user_create(username="flushed")
    assert Transfer.objects.exists()
    kept = keys()
    call_command(
        "flush", verbosity=0, interactive=False, reset_sequences=False, allow_cascade=False,
        inhibit_post_migrate=False,
    )  # fmt: skip
    assert not Transfer.objects.exists()
    assert not get_user_model().objects.exists()
    # The same rows, not made again (new ones would have new keys).
    assert keys() == kept
    assert all(kept)
