"""The runtime's own quoting writes each value exactly as psycopg's ``mogrify`` does, and
PostgreSQL reads it back as the value; what it cannot quote is left to psycopg."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone
from decimal import Decimal

import pytest
from django.db import connection
from django.utils.safestring import mark_safe
from psycopg.types.json import Jsonb
from psycopg.types.numeric import Int2, Int4, Int8

from accounts.models import TransferKind
from accounts.sql.literals import literal, literals
from accounts.sql.prepared import Prepared

pytestmark = pytest.mark.django_db

POSTGRES = connection.vendor == "postgresql"
MINUS_FIVE_HOURS = timezone(timedelta(hours=-5))

#: Each value the runtime writes, and its literal (psycopg's spelling).
SPELLED = [
    (None, "NULL"),
    (True, "true"),
    (False, "false"),
    (0, "0"),
    (17, "17"),
    (-5, " -5"),
    (10**15, "1000000000000000"),
    (Int2(3), "3"),
    (Int4(-40), " -40"),
    (Int8(2**40), "1099511627776"),
    ("bankroll:u81", "'bankroll:u81'"),
    ("it's", "'it''s'"),
    ("a\\b's", " E'a\\\\b''s'"),
    ("x\ny\t", "'x\ny\t'"),
    ("é😀", "'é😀'"),
    ("", "''"),
    (TransferKind.BUY_IN, "'buy_in'"),
    (
        datetime(2026, 12, 2, 3, 22, 4, 16245, tzinfo=UTC),
        "'2026-12-02 03:22:04.016245+00:00'::timestamptz",
    ),
    (datetime(2026, 12, 2, 3, 22, 4, tzinfo=UTC), "'2026-12-02 03:22:04+00:00'::timestamptz"),
    (
        datetime(2026, 12, 2, 3, 22, 4, 5, tzinfo=MINUS_FIVE_HOURS),
        "'2026-12-02 03:22:04.000005-05:00'::timestamptz",
    ),
    (
        Jsonb({"kind": "sit", "player": "o'hara", "now": 1796181724.014254}, dumps=json.dumps),
        '\'{"kind": "sit", "player": "o\'\'hara", "now": 1796181724.014254}\'::jsonb',
    ),
    (
        Jsonb({"a": "back\\slash", "b": [1, 2.5, None, True]}, dumps=json.dumps),
        ' E\'{"a": "back\\\\\\\\slash", "b": [1, 2.5, null, true]}\'::jsonb',
    ),
    (Jsonb([], dumps=json.dumps), "'[]'::jsonb"),
]


def test_each_value_is_spelled_as_psycopg_spells_it():
    for value, spelled in SPELLED:
        assert literal(value) == spelled, value
    if POSTGRES:  # psycopg itself agrees, and PostgreSQL reads each back as the value
        with connection.cursor() as cursor:
            for value, spelled in SPELLED:
                assert cursor.cursor.mogrify("%s", [value]) == spelled, value
                cursor.execute(f"SELECT {spelled}")
                read = cursor.fetchone()[0]
                if isinstance(value, Jsonb):  # Django's connection reads JSON as its text
                    read, value = json.loads(read), value.obj
                assert read == value, spelled
    else:  # SQLite's driver binds its parameters itself: nothing is quoted here
        with connection.cursor() as cursor:
            assert Prepared(cursor).usable is False


def test_a_text_subclass_is_quoted_as_the_text_it_holds():
    class Loud(str):
        def replace(self, *args: object) -> str:  # type: ignore[override]
            return "SHOUTED"

    assert literal(Loud("it's")) == "'it''s'"
    assert literal(mark_safe("a'b")) == "'a''b'"


def test_what_it_cannot_quote_is_left_to_psycopg():
    assert literal("nul\x00") is None  # psycopg raises PostgreSQL's own error for it
    assert literal(Decimal("1.5")) is None
    assert literal(datetime(2026, 12, 2)) is None  # a naive time: psycopg's own rules
    assert literal(Jsonb({})) is None  # psycopg's default dumps, whatever it is set to
    assert literal(Jsonb({}, dumps=lambda obj: b"{}")) is None  # bytes: psycopg writes them
    assert literals([1, "a", Decimal("1")]) is None
    assert literals([1, None, "a"]) == ["1", "NULL", "'a'"]


def test_an_execute_is_the_same_text_either_way():
    values = [5, "o'hara", None, datetime(2026, 1, 1, tzinfo=UTC), -1, Decimal("2.5")]
    with connection.cursor() as cursor:
        prepared = Prepared(cursor)
        if not POSTGRES:
            assert not prepared.usable
            return
        quoted_here = prepared.execute("t", "SELECT %s, %s, %s, %s, %s", values[:5])
        prepared._literals = False
        assert quoted_here == prepared.execute("t", "SELECT %s, %s, %s, %s, %s", values[:5])
        assert quoted_here.startswith("EXECUTE cardroom_t_")
        # A value only psycopg quotes: the whole statement goes through psycopg.
        prepared._literals = True
        mixed = prepared.execute("u", "SELECT %s, %s, %s, %s, %s, %s", values)
        assert mixed.endswith(", 2.5)")
