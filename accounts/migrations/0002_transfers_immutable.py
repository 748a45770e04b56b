"""The database itself refuses to change a transfer.

PostgreSQL: a trigger rejects UPDATE and DELETE on transfers (TRUNCATE, which only test
teardown uses, is a statement of its own and not caught). SQLite: a trigger rejects UPDATE;
DELETE stays possible there because Django's test flush empties tables with DELETE.
"""

from django.db import migrations

PG_FORWARD = """
CREATE FUNCTION accounts_transfer_immutable() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'transfers are immutable: post a reversing transfer instead';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER accounts_transfer_no_change
    BEFORE UPDATE OR DELETE ON accounts_transfer
    FOR EACH ROW EXECUTE FUNCTION accounts_transfer_immutable();
"""
PG_BACKWARD = """
DROP TRIGGER IF EXISTS accounts_transfer_no_change ON accounts_transfer;
DROP FUNCTION IF EXISTS accounts_transfer_immutable();
"""
SQLITE_FORWARD = """
CREATE TRIGGER accounts_transfer_no_update BEFORE UPDATE ON accounts_transfer
BEGIN
    SELECT RAISE(ABORT, 'transfers are immutable: post a reversing transfer instead');
END;
"""
SQLITE_BACKWARD = "DROP TRIGGER IF EXISTS accounts_transfer_no_update;"


def forward(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(PG_FORWARD)
    elif vendor == "sqlite":
        schema_editor.execute(SQLITE_FORWARD)


def backward(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(PG_BACKWARD)
    elif vendor == "sqlite":
        schema_editor.execute(SQLITE_BACKWARD)


class Migration(migrations.Migration):
    dependencies = [("accounts", "0001_initial")]
    operations = [migrations.RunPython(forward, backward)]
