"""The freshness round's statements by hand-written SQL (cardroom/tables/presence.py,
cardroom/storage/versions.py): only the seats held by the pairs given are renewed (not a seat
left, not another player's, not the player's seat at another table), on both databases; and the
versions read are the tables'."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.services import user_create
from cardroom.models import Seat, Table
from cardroom.storage.versions import table_versions
from cardroom.tables.presence import seat_leases_renew
from cardroom.tables.runtime import table_create


@pytest.mark.django_db
def test_only_the_seats_held_by_the_pairs_given_are_renewed() -> None:
    first, second = (
        table_create(game="guts", preset="survivor", options={"ante": 100}, name=name)
        for name in ("One", "Two")
    )
    for name in ("dee", "eve", "fay", "gus"):  # so that no user's id is a table's
        user_create(username=name)
    ann, ben, cat = (user_create(username=name) for name in ("ann", "ben", "cat"))
    assert {ann.pk, ben.pk, cat.pk}.isdisjoint({first.pk, second.pk})
    before = timezone.now() - timedelta(minutes=5)
    seats = {
        "ann at one": Seat(table=first, number=0, user=ann),
        "ben at one": Seat(table=first, number=1, user=ben),
        "ann at two": Seat(table=second, number=0, user=ann),
        "cat left one": Seat(table=first, number=2, user=cat, left=before),
        "cat at two": Seat(table=second, number=1, user=cat),
    }
    for seat in seats.values():
        seat.lease_until = before
        seat.save()
    until = timezone.now() + timedelta(seconds=30)
    # (ben's id, table one's id) is no seat, but would be "ben at one" with the two swapped.
    given = {(first.pk, ann.pk), (first.pk, cat.pk), (second.pk, ben.pk), (ben.pk, first.pk)}
    seat_leases_renew(given, until)
    renewed = {
        name for name, seat in seats.items() if Seat.objects.get(pk=seat.pk).lease_until == until
    }
    assert renewed == {"ann at one"}
    seat_leases_renew(set(), until)  # nothing to renew: no statement, no error


@pytest.mark.django_db
def test_the_versions_are_the_tables() -> None:
    tables = [
        table_create(game="guts", preset="survivor", options={"ante": 100}, name=name)
        for name in ("One", "Two")
    ]
    Table.objects.filter(pk=tables[1].pk).update(version=7)
    ids = [table.pk for table in tables]
    assert table_versions([*ids, max(ids) + 1]) == {ids[0]: tables[0].version, ids[1]: 7}
    assert table_versions([]) == {}
