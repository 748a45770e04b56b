"""The hand-written writes of accounts/sql/writes.py (``Writes``) leave the rows the ORM
would."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from accounts.sql.writes import Writes, json_text
from cardroom.models import HandEvent, Table, TableAction
from cardroom.tables.runtime import table_create

pytestmark = pytest.mark.django_db


def insert_rows(model, instances) -> None:
    """Rows written at once, as an action's writes are at its flush."""
    writes = Writes()
    writes.insert(model, instances)
    writes.flush()


def update_row(instance, names) -> None:
    writes = Writes()
    writes.update(instance, names)
    writes.flush()


def values(instance, *skip: str) -> dict:
    return {
        field.attname: getattr(instance, field.attname)
        for field in instance._meta.concrete_fields
        if field.attname not in ("id", *skip)
    }


@pytest.fixture
def table():
    table = table_create(
        game="guts", preset="survivor", options={"ante": 100, "seats": 6}, name="Writes"
    )
    state = table.state
    yield table
    # The rows written here are not a game: taken out again, so the table's journal replays.
    TableAction.objects.filter(table=table, version__gt=0).delete()
    HandEvent.objects.filter(table=table).delete()
    Table.objects.filter(pk=table.pk).update(state=state, version=0)


def test_inserted_rows_read_back_as_the_orms(table, make_player):
    ann = make_player("ann")
    action = {"kind": "sit", "seat": 2, "stack": 20_000, "player": "ann", "now": 1.5}
    insert_rows(
        TableAction,
        [
            TableAction(table=table, version=7, seq=0, action=action, actor=ann, client_id="x"),
            TableAction(table=table, version=7, seq=1, action={"kind": "deal", "deck": []}),
        ],
    )
    TableAction.objects.create(table=table, version=8, seq=0, action=action, actor=ann)
    raw, second, orm = TableAction.objects.filter(table=table, version__gte=7).order_by(
        "version", "seq"
    )
    assert values(raw, "created", "version", "client_id") == values(
        orm, "created", "version", "client_id"
    )
    assert (raw.client_id, second.actor_id, second.action["kind"]) == ("x", None, "deal")
    assert abs(raw.created - timezone.now()) < timedelta(seconds=5)
    events = [
        HandEvent(
            table=table, version=7, seq=1, type="pot_won", data={"type": "pot_won", "a": [1]}
        ),
        HandEvent(
            table=table,
            version=7,
            seq=2,
            type="cards_dealt",
            data={"type": "cards_dealt", "cards": ["As"]},
            private_to=-1,
            audience=[0, 2],
            readers=[ann.pk],
        ),
    ]
    insert_rows(HandEvent, events)
    public, private = HandEvent.objects.filter(table=table).order_by("seq")
    assert (public.data, public.private_to, public.audience, public.readers) == (
        {"type": "pot_won", "a": [1]},
        None,
        None,
        None,
    )
    assert (private.private_to, private.audience, private.readers) == (-1, [0, 2], [ann.pk])


def test_rows_given_by_their_values_read_back_as_instances_inserted(table, make_player):
    """``insert_values`` (no model instance made) writes what ``insert`` writes of instances
    made with the same values: defaults for the fields not given, ``created`` stamped now."""
    ann = make_player("ann")
    given = [
        {"table_id": table.pk, "version": 7, "seq": 1, "type": "pot_won",
         "data": {"type": "pot_won", "a": [1], "n": None}},
        {"table_id": table.pk, "hand_id": None, "version": 7, "seq": 2, "type": "cards_dealt",
         "data": {"type": "cards_dealt", "cards": ["As"]}, "private_to": -1,
         "audience": [0, 2], "readers": [ann.pk]},
    ]  # fmt: skip
    writes = Writes()
    writes.insert_values(HandEvent, given)
    writes.flush()
    insert_rows(HandEvent, [HandEvent(**{**row, "seq": row["seq"] + 10}) for row in given])
    rows = list(HandEvent.objects.filter(table=table).order_by("seq"))
    assert [row.seq for row in rows] == [1, 2, 11, 12]
    by_values, by_instances = rows[:2], rows[2:]
    for mine, theirs in zip(by_values, by_instances, strict=True):
        assert values(mine, "created", "seq") == values(theirs, "created", "seq")
        assert abs(mine.created - timezone.now()) < timedelta(seconds=5)
    with pytest.raises(AssertionError):  # a name that is no field's is refused, not dropped
        Writes().insert_values(HandEvent, [{**given[0], "tabel_id": table.pk}])


def test_a_duplicate_journal_receipt_is_refused_as_by_the_orm(table, make_player):
    ann = make_player("ann")
    row = {"table": table, "version": 9, "seq": 0, "action": {"kind": "ante"}, "actor": ann}
    insert_rows(TableAction, [TableAction(**row, client_id="same")])
    with pytest.raises(IntegrityError), transaction.atomic():
        insert_rows(TableAction, [TableAction(**{**row, "version": 10}, client_id="same")])


def test_an_updated_table_reads_back_as_saved(table):
    before = Table.objects.get(pk=table.pk).updated
    table.state = {**table.state, "note": "é ✓"}
    table.version = 41
    table.deadline = timezone.now() + timedelta(seconds=4)
    table.open_hand = None
    update_row(table, ["state", "version", "deadline", "open_hand", "updated"])
    read = Table.objects.get(pk=table.pk)
    assert (read.state, read.version, read.deadline) == (table.state, 41, table.deadline)
    assert read.updated > before
    assert values(read, "updated") == values(table, "updated")


def test_insert_returning_reads_back_its_key_as_the_orms_create(table, make_player):
    from accounts.sql.writes import insert_returning
    from cardroom.models import Seat

    ann, ben = make_player("ann"), make_player("ben")
    raw = Seat(table=table, number=1, user=ann, connections=1, last_seen=timezone.now())
    insert_returning(raw)
    orm = Seat.objects.create(table=table, number=2, user=ben)
    assert raw.pk is not None and raw.pk != orm.pk and not raw._state.adding
    stored = Seat.objects.get(pk=raw.pk)
    assert values(stored, "number", "user_id", "joined", "connections", "last_seen") == values(
        Seat.objects.get(pk=orm.pk), "number", "user_id", "joined", "connections", "last_seen"
    )
    assert (stored.user_id, stored.connections, stored.joined) == (ann.pk, 1, raw.joined)
    Seat.objects.filter(pk__in=[raw.pk, orm.pk]).delete()  # not a game's seats


AWKWARD = 'it\'s 100% \\ %s %(x)s; DROP TABLE x; -- "quoted" é ✓'


def test_writes_sent_together_read_back_as_written_in_order(table, make_player):
    """Statements gathered by Writes run in the order added, in one pipeline on PostgreSQL; values
    with quotes, percent signs, backslashes and semicolons arrive as they were."""
    from accounts.sql.writes import PARAMETERS_AT_ONCE

    ann = make_player("ann")
    writes = Writes()
    events = [
        HandEvent(table=table, version=3, seq=seq, type="note", data={"n": seq, "text": AWKWARD})
        for seq in range(1, 13)
    ]
    writes.insert(HandEvent, events)
    writes.insert(
        TableAction,
        [
            TableAction(
                table=table,
                version=3,
                seq=0,
                action={"t": AWKWARD},
                actor=ann,
                client_id=AWKWARD[:40],
            )
        ],
    )
    table.state = {**table.state, "note": AWKWARD}
    table.version = 3
    writes.update(table, ["state", "version"])
    # Added last, run last: it sees the update above.
    writes.add(
        f"UPDATE {Table._meta.db_table} SET version = version + %s WHERE id = %s", [1, table.pk]
    )
    if connection.vendor == "postgresql":
        width = len([f for f in HandEvent._meta.concrete_fields if not f.primary_key])
        # Twelve events of `width` values: more than one statement, none over the limit.
        assert len(writes.statements) == -(-12 // (PARAMETERS_AT_ONCE // width)) + 3
        assert all(len(params) <= PARAMETERS_AT_ONCE for _, params in writes.statements)
    assert HandEvent.objects.filter(table=table).count() == 0  # nothing before the flush
    writes.flush()
    assert writes.statements == []
    stored = list(HandEvent.objects.filter(table=table).order_by("seq"))
    assert [(e.seq, e.data) for e in stored] == [
        (s, {"n": s, "text": AWKWARD}) for s in range(1, 13)
    ]
    journal = TableAction.objects.get(table=table, version=3)
    assert (journal.action, journal.client_id) == ({"t": AWKWARD}, AWKWARD[:40])
    read = Table.objects.get(pk=table.pk)
    assert (read.state["note"], read.version) == (AWKWARD, 4)


def test_a_refusal_among_writes_sent_together_is_djangos_integrity_error(table, make_player):
    """The journal's receipt refused at the flush is the IntegrityError the runtime catches,
    and the savepoint takes back every statement of the flush, not only the refused one."""
    ann = make_player("ann")
    row = {"table": table, "seq": 0, "action": {"kind": "ante"}, "actor": ann, "client_id": "same"}
    insert_rows(TableAction, [TableAction(**row, version=11)])
    writes = Writes()
    writes.insert(HandEvent, [HandEvent(table=table, version=12, seq=1, type="x", data={})])
    writes.insert(TableAction, [TableAction(**row, version=12)])
    with pytest.raises(IntegrityError), transaction.atomic():
        writes.flush()
    assert not HandEvent.objects.filter(table=table, version=12).exists()
    assert TableAction.objects.filter(table=table, client_id="same").count() == 1


def test_a_value_postgresql_cannot_hold_is_djangos_error(table):
    """A NUL in text: PostgreSQL takes none, and the refusal is Django's DataError, as a
    statement sent alone would raise it (the runtime answers it as the database's failure)."""
    from django.db import DataError

    writes = Writes()
    if connection.vendor != "postgresql":
        writes.insert(HandEvent, [HandEvent(table=table, version=5, seq=1, type="a\x00", data={})])
        writes.flush()  # SQLite stores it
        assert HandEvent.objects.filter(table=table, version=5).count() == 1
        return
    writes.insert(HandEvent, [HandEvent(table=table, version=5, seq=0, type="a", data={})])
    writes.insert(HandEvent, [HandEvent(table=table, version=5, seq=1, type="a\x00", data={})])
    with pytest.raises(DataError), transaction.atomic():
        writes.flush()
    assert writes.statements == []
    assert not HandEvent.objects.filter(table=table, version=5).exists()


#: JSON values an action may write, and the edges where orjson and the standard library part.
AWKWARD_JSON = [
    {"kind": "declare", "choice": "in", "now": 1733480000.123456, "cards": ["Ah", "Kd"]},
    {"player": "Åse Nordmann 🂡", "quote": 'say "hi"\n\t\\', "empty": {}, "none": None},
    {1: "an int key", 2.5: "a float key", 1e-7: "spelled 1e-07", False: "a bool key"},
    {"beyond 64 bits": 2**70, "negative": -(2**63)},
    [0.1, 1e16, -0.0, 3, [], [[]], {"a": [1, {"b": None}]}],
]


@pytest.mark.parametrize("data", AWKWARD_JSON)
def test_json_written_by_the_runtime_reads_back_as_the_orms(table, data):
    """The runtime writes JSON by orjson (``json_text``): the value stored is the one the ORM
    stores, whatever orjson writes differently (spacing, escapes, keys that are not text)."""
    insert_rows(HandEvent, [HandEvent(table=table, version=5, seq=0, type="a", data=data)])
    HandEvent.objects.create(table=table, version=5, seq=1, type="b", data=data)
    mine, orms = (
        row.data for row in HandEvent.objects.filter(table=table, version=5).order_by("seq")
    )
    assert mine == orms


def test_json_the_standard_library_refuses_is_refused_as_by_the_orm(table):
    """A date in a JSON value: the ORM's encoder refuses it, and so does the runtime's, though
    orjson alone would write it."""
    moment = timezone.now()
    with pytest.raises(TypeError), transaction.atomic():
        HandEvent.objects.create(table=table, version=5, seq=1, type="b", data={"at": moment})
    with pytest.raises(TypeError), transaction.atomic():
        insert_rows(
            HandEvent, [HandEvent(table=table, version=5, seq=0, type="a", data={"at": moment})]
        )
    assert not HandEvent.objects.filter(table=table, version=5).exists()


def test_the_runtime_s_json_text_is_orjsons_on_postgresql(table):
    """Where the ORM would write a JSON value with the standard library (PostgreSQL), the
    runtime's writes carry orjson's text; on SQLite the ORM's own (the column is text)."""
    writes = Writes()
    writes.insert(HandEvent, [HandEvent(table=table, version=5, seq=0, type="a", data={"a": 1})])
    ((_, params),) = writes.statements
    columns = [field.name for field in HandEvent._meta.concrete_fields if not field.primary_key]
    data = params[columns.index("data")]
    if connection.vendor == "postgresql":
        assert data.obj == {"a": 1}
        assert data.dumps is json_text and json_text(data.obj) == b'{"a":1}'
    else:
        assert data == '{"a": 1}'  # the ORM's own text


def test_plain_values_are_prepared_as_their_fields_prepare_them():
    """A value taken as given (an int, text, a bool or None, for Django's fields that keep
    them unchanged) is what the field's own preparing gives; any other value (a bool for an
    integer, a number for text) still goes through the field, as the ORM would send it."""
    from django.core.exceptions import ValidationError

    from accounts.models import Account, Transfer
    from accounts.sql.writes import _given_type, _prepared

    samples = [0, -7, 2**62, "", "it's %s", True, False, None, 1.5]
    checked = 0
    for model in (HandEvent, TableAction, Table, Account, Transfer):
        for field in model._meta.concrete_fields:
            if _given_type(field) is None:
                continue
            for value in samples:
                try:
                    expected = field.get_db_prep_save(value, connection)
                except (TypeError, ValueError, ValidationError):
                    continue  # the field refuses it either way
                prepared = _prepared(field, value, connection)
                assert prepared == expected, (field, value)
                # The same type, or PostgreSQL's sized int (psycopg's Int2, Int4, Int8).
                assert type(prepared) is type(expected) or (
                    type(prepared) is int and isinstance(expected, int)
                ), (field, value)
                checked += 1
    assert checked > 100
    seq = HandEvent._meta.get_field("seq")
    prepared = _prepared(seq, True, connection)  # a bool for an integer: the field's own way
    assert prepared == 1 and type(prepared) is not bool
