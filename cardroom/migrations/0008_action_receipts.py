"""The journal keeps each player's action id (its receipt: an id is applied once), and the
table row keeps its open hand and its latest event number, so an action reads neither again.

Existing tables get both filled in from their hands and events.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models
from django.db.models import Max


def fill_table_pointers(apps, schema_editor):
    Table = apps.get_model("cardroom", "Table")
    Hand = apps.get_model("cardroom", "Hand")
    HandEvent = apps.get_model("cardroom", "HandEvent")
    for table in Table.objects.all().iterator():
        table.last_event_seq = (
            HandEvent.objects.filter(table=table).aggregate(n=Max("seq"))["n"] or 0
        )
        table.open_hand = (
            Hand.objects.filter(table=table, ended__isnull=True).order_by("-number").first()
        )
        table.open_hand_dealt = bool(table.open_hand and table.open_hand.dealt)
        table.save(update_fields=["last_event_seq", "open_hand", "open_hand_dealt"])


class Migration(migrations.Migration):
    dependencies = [
        ("cardroom", "0007_table_journal"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="tableaction",
            name="actor",
            field=models.ForeignKey(
                blank=True,
                help_text="The player whose action this was (none: the clock, a bot, an operator).",
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddField(
            model_name="tableaction",
            name="client_id",
            field=models.CharField(
                blank=True,
                help_text="The id the player's client gave the action (JSON text): applied once.",
                max_length=400,
                null=True,
            ),
        ),
        migrations.AddConstraint(
            model_name="tableaction",
            constraint=models.UniqueConstraint(
                condition=models.Q(("client_id__isnull", False)),
                fields=("table", "actor", "client_id"),
                name="journal_client_id_once",
            ),
        ),
        migrations.AddField(
            model_name="table",
            name="open_hand",
            field=models.ForeignKey(
                blank=True,
                help_text="The hand in play (opened, not ended), if any.",
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="cardroom.hand",
            ),
        ),
        migrations.AddField(
            model_name="table",
            name="open_hand_dealt",
            field=models.BooleanField(
                default=False,
                help_text="The hand in play has been dealt (its Hand row says so once it ends).",
            ),
        ),
        migrations.AddField(
            model_name="table",
            name="last_event_seq",
            field=models.PositiveIntegerField(
                default=0, help_text="The seq of the table's latest hand event."
            ),
        ),
        migrations.RunPython(fill_table_pointers, migrations.RunPython.noop),
    ]
