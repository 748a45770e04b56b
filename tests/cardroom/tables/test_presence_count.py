"""A seat's count of sockets (cardroom/tables/presence.py, ``seat_connections_count``): changed
under the seat's lock in one round trip, never below none; a socket that counts renews the
lease and ends the presence sweep's steps; only the player's seat held (and, asked, taken by a
moment) is counted."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from accounts.services import user_create
from cardroom.models import Seat
from cardroom.tables.presence import LEASE, seat_connections_count
from cardroom.tables.runtime import table_act, table_create
from tests.cardroom.queries import queries

pytestmark = pytest.mark.django_db


@pytest.fixture
def seated():
    table = table_create(game="guts", preset="survivor", options={"ante": 100, "seats": 4},
                         name="Counted")  # fmt: skip
    user = user_create(username="cy")
    table_act(table_id=table.pk, user=user, action={"kind": "sit", "buy_in": 20_000, "seat": 2})
    return table, user


def test_counts_go_up_and_down_never_below_none(seated):
    table, user = seated
    now = timezone.now()
    Seat.objects.filter(table=table).update(presence_step=1)  # the sweep had begun
    assert seat_connections_count(table_id=table.pk, user_id=user.pk, change=1, now=now) == (
        2,
        0,
        1,
    )
    seat = Seat.objects.get(table=table, user=user)
    assert seat.connections == 1 and seat.presence_step == 0
    assert seat.last_seen == now and seat.lease_until == now + LEASE
    later = now + timedelta(seconds=5)
    assert seat_connections_count(table_id=table.pk, user_id=user.pk, change=-1, now=later) == (
        2, 1, 0,
    )  # fmt: skip
    seat.refresh_from_db()
    assert seat.connections == 0 and seat.last_seen == later
    assert seat.lease_until == now + LEASE  # a socket gone renews nothing
    assert seat_connections_count(table_id=table.pk, user_id=user.pk, change=-1, now=later) == (
        2, 0, 0,
    )  # fmt: skip
    assert Seat.objects.get(table=table, user=user).connections == 0


def test_only_the_players_seat_held_and_taken_by_then_is_counted(seated):
    table, user = seated
    now = timezone.now()
    other = user_create(username="dee")
    assert seat_connections_count(table_id=table.pk, user_id=other.pk, change=1, now=now) is None
    joined = Seat.objects.get(table=table, user=user).joined
    before = joined - timedelta(seconds=1)
    assert seat_connections_count(
        table_id=table.pk, user_id=user.pk, change=1, now=now, taken_by=before
    ) is None  # fmt: skip
    assert seat_connections_count(
        table_id=table.pk, user_id=user.pk, change=1, now=now, taken_by=joined
    ) == (2, 0, 1)  # fmt: skip
    Seat.objects.filter(table=table, user=user).update(left=now)
    assert seat_connections_count(table_id=table.pk, user_id=user.pk, change=1, now=now) is None


def test_a_count_is_one_round_trip(seated):
    table, user = seated
    count = queries(
        lambda: seat_connections_count(
            table_id=table.pk, user_id=user.pk, change=1, now=timezone.now()
        )
    )
    # The test's transaction stands in for the count's own, whose COMMIT is a second trip.
    assert count == (1 if connection.vendor == "postgresql" else 2), count
