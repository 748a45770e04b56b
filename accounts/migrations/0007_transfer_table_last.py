"""The transfers indexed by table then id, in place of the index on table_id alone.

SQLite drops (or adds) a field's index by rebuilding its table, which drops the table's
triggers with it: the trigger of 0002 that refuses to change a transfer is put back, both ways.
"""

from importlib import import_module

from django.db import migrations, models

IMMUTABLE = import_module("accounts.migrations.0002_transfers_immutable")


def keep_transfers_immutable(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        schema_editor.execute(
            IMMUTABLE.SQLITE_FORWARD.replace("CREATE TRIGGER", "CREATE TRIGGER IF NOT EXISTS")
        )


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0006_tournament_accounts"),
    ]

    operations = [
        # The index on (table_id, id) first, then the one on table_id alone goes.
        migrations.AddIndex(
            model_name="transfer",
            index=models.Index(fields=["table_id", "id"], name="transfer_table_last"),
        ),
        # Backwards, the table is rebuilt again by the step below: its trigger, put back after.
        migrations.RunPython(migrations.RunPython.noop, keep_transfers_immutable),
        migrations.AlterField(
            model_name="transfer",
            name="table_id",
            field=models.BigIntegerField(blank=True, null=True),
        ),
        migrations.RunPython(keep_transfers_immutable, migrations.RunPython.noop),
    ]
