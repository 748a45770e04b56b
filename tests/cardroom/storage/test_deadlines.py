"""The clock's next deadline by hand-written SQL finds what the ORM's query found, on both
databases: closed tables and tables without a deadline left out, the excluded tables left out,
and with an owner only the tables it holds, nobody holds, or whose lease lapsed."""

from __future__ import annotations

import itertools
from datetime import datetime, timedelta

import pytest
from django.db.models import Min, Q
from django.utils import timezone

from cardroom.models import Table, TableStatus
from cardroom.storage.deadlines import next_deadline
from cardroom.tables.runtime import table_create

ME, OTHER = "route.1.mine", "route.2.theirs"


def by_the_orm(now: datetime, excluding: frozenset[int], owner: str | None) -> datetime | None:
    """The query the clock made before (cardroom/clock/clock.py, ``pause``)."""
    pending = Table.objects.exclude(status=TableStatus.CLOSED).filter(deadline__isnull=False)
    if excluding:
        pending = pending.exclude(pk__in=excluding)
    if owner is not None:
        pending = pending.filter(
            Q(owner=owner) | Q(owner="") | Q(owned_until__isnull=True) | Q(owned_until__lt=now)
        )
    first: datetime | None = pending.aggregate(first=Min("deadline"))["first"]
    return first


@pytest.mark.django_db
def test_the_next_deadline_is_the_orms_for_every_exclusion_and_owner() -> None:
    now = timezone.now()
    later = now + timedelta(seconds=30)
    # Deadlines 1 s apart, the earliest first; what makes each table count or not.
    kinds: list[dict[str, object]] = [
        {"status": TableStatus.CLOSED},  # the earliest deadline, but closed
        {"owner": OTHER, "owned_until": later},  # another live owner's
        {"owner": OTHER, "owned_until": now - timedelta(seconds=1)},  # its lease lapsed
        {"owner": ME, "owned_until": later},
        {"owner": "", "owned_until": None},
        {"owner": OTHER, "owned_until": None},
        {"owner": OTHER, "owned_until": now},  # its lease ends this very moment: still held
        {"owner": "", "owned_until": later},  # nobody's, whatever the lease says
        {},
    ]
    ids = []
    for index, fields in enumerate(kinds):
        table = table_create(
            game="guts", preset="survivor", options={"ante": 100}, name=f"D{index}"
        )
        Table.objects.filter(pk=table.pk).update(
            **{"deadline": now + timedelta(seconds=index + 1), **fields}
        )
        ids.append(table.pk)
    undated = table_create(game="guts", preset="survivor", options={"ante": 100}, name="No clock")
    Table.objects.filter(pk=undated.pk).update(deadline=None, owner="", owned_until=None)

    seen = set()
    for size in range(len(ids) + 1):
        for excluded in itertools.combinations(ids, size):
            for owner in (None, ME):
                expected = by_the_orm(now, frozenset(excluded), owner)
                found = next_deadline(now, excluding=frozenset(excluded), owner=owner)
                assert found == expected, (excluded, owner)
                seen.add(found)
    assert None in seen  # every dated table excluded
    assert len(seen) > 4  # and most of the deadlines were the answer somewhere


@pytest.mark.django_db
def test_no_deadline_at_all_is_none() -> None:
    assert next_deadline(timezone.now()) is None
    assert next_deadline(timezone.now(), excluding={1, 2}, owner=ME) is None
