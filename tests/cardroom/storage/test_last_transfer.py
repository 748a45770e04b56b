"""A table's last transfer, which the table row keeps at every point between hands (where a
void stops), is found through the index on (table_id, id), whatever the ledger holds: with
table_id alone indexed, PostgreSQL walked back through every later transfer of the room to find
a quiet table's last one."""

from __future__ import annotations

import pytest
from django.db import connection

from accounts.models import Account, Transfer
from cardroom.models import Table
from cardroom.tables.deferred import rest_transfer_statement
from cardroom.tables.runtime import table_create


def indexes_of_transfers() -> dict[str, list[str]]:
    with connection.cursor() as cursor:
        found = connection.introspection.get_constraints(cursor, Transfer._meta.db_table)
    return {name: spec["columns"] for name, spec in found.items() if spec["index"]}


@pytest.mark.django_db
def test_the_transfers_are_indexed_by_table_then_id_and_not_by_table_alone() -> None:
    columns = indexes_of_transfers()
    assert columns.get("transfer_table_last") == ["table_id", "id"]
    assert ["table_id"] not in columns.values()  # the composite's prefix serves those reads


@pytest.mark.django_db
def test_a_quiet_tables_last_transfer_is_read_through_the_index() -> None:
    quiet = table_create(game="guts", preset="survivor", options={"ante": 100}, name="Quiet")
    busy = quiet.pk + 1  # a transfer's table id is a plain integer: no table row needed
    source = Account.objects.create(code="t-source", kind="cashier")
    target = Account.objects.create(code="t-target", kind="cashier")
    # The quiet table's transfers are the oldest; the busy table's came after, many more.
    with connection.cursor() as cursor:
        for table_id, count, offset in ((quiet.pk, 20, 0), (busy, 5000, 20)):
            cursor.execute(
                "WITH RECURSIVE series(g) AS (SELECT 1 UNION ALL SELECT g + 1 FROM series"
                f" WHERE g < %s) INSERT INTO {Transfer._meta.db_table} (amount, kind, table_id,"
                " memo, created, idempotency_key, source_id, target_id) SELECT 100, 'ante', %s,"
                " '', CURRENT_TIMESTAMP, 'k' || (g + %s), %s, %s FROM series",
                [count, table_id, offset, source.pk, target.pk],
            )
        cursor.execute(f"ANALYZE {Transfer._meta.db_table}")
        sql, params = rest_transfer_statement(quiet.pk)
        cursor.execute(sql, params)
    last_quiet = Transfer.objects.filter(table_id=quiet.pk).order_by("-id").first()
    assert last_quiet is not None
    assert Table.objects.get(pk=quiet.pk).rest_transfer == last_quiet.pk
    explain = "EXPLAIN" if connection.vendor == "postgresql" else "EXPLAIN QUERY PLAN"
    with connection.cursor() as cursor:
        cursor.execute(f"{explain} {sql}", params)
        plan = " ".join(str(part) for row in cursor.fetchall() for part in row)
    assert "transfer_table_last" in plan, plan


@pytest.mark.django_db
def test_a_table_without_transfers_rests_at_zero() -> None:
    table = table_create(game="guts", preset="survivor", options={"ante": 100}, name="New")
    Table.objects.filter(pk=table.pk).update(rest_transfer=99)
    with connection.cursor() as cursor:
        cursor.execute(*rest_transfer_statement(table.pk))
    assert Table.objects.get(pk=table.pk).rest_transfer == 0
