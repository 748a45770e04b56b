"""A socket's token login stamps the token's ``last_used`` without holding up the handshake."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async

from accounts.services import user_create
from cardroom.models import ApiToken
from cardroom.tables.auth import token_create
from cardroom.tables.runtime import table_create
from tests.cardroom.test_api_consumer import Client

pytestmark = [pytest.mark.django_db(transaction=True)]


async def test_a_token_login_over_a_socket_stamps_last_used():
    table = await sync_to_async(table_create)(
        game="guts", preset="survivor", options={"ante": 100, "seats": 6}, name="Stamp"
    )
    ann = await sync_to_async(user_create)(username="ann")
    client = Client(table.pk, await sync_to_async(token_create)(user=ann))
    assert (await client.connect())["type"] == "state"
    for _ in range(100):  # the stamp is written beside the handshake, not before it
        stamped = (await ApiToken.objects.aget(user=ann)).last_used
        if stamped is not None:
            break
        await asyncio.sleep(0.02)
    assert stamped is not None
    await client.close()
