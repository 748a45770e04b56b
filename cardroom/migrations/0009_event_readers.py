"""HandEvent.readers: the users who may read a private event, recorded with it from now on.

Existing private events are filled in best-effort: each seat the event was for is read by the
player whose Seat row held that number when the event was created. A seat nobody held then (or
HIDDEN, -1) gives no reader: such an event is read by nobody.
"""

from django.db import migrations, models
from django.db.models import Q

BATCH = 500


def _holder(tenures, number, moment):
    """The user in seat ``number`` at ``moment``: the latest to sit down there, if several."""
    held = [
        user
        for seat, joined, left, user in tenures
        if seat == number and joined <= moment and (left is None or left >= moment)
    ]
    return held[-1] if held else None


def fill_readers(apps, schema_editor):
    HandEvent = apps.get_model("cardroom", "HandEvent")
    Seat = apps.get_model("cardroom", "Seat")
    private = HandEvent.objects.filter(
        Q(private_to__isnull=False) | Q(audience__isnull=False)
    ).order_by("pk")
    tenures = {}
    last = 0
    while True:
        batch = list(private.filter(pk__gt=last)[:BATCH])
        if not batch:
            return
        for event in batch:
            if event.table_id not in tenures:
                tenures[event.table_id] = list(
                    Seat.objects.filter(table_id=event.table_id)
                    .order_by("joined", "pk")
                    .values_list("number", "joined", "left", "user_id")
                )
            seats = event.audience if event.audience is not None else [event.private_to]
            users = {_holder(tenures[event.table_id], seat, event.created) for seat in seats}
            event.readers = sorted(user for user in users if user is not None)
        HandEvent.objects.bulk_update(batch, ["readers"])
        last = batch[-1].pk


class Migration(migrations.Migration):

    dependencies = [
        ("cardroom", "0008_action_receipts"),
    ]

    operations = [
        migrations.AddField(
            model_name="handevent",
            name="readers",
            field=models.JSONField(
                blank=True,
                help_text="The ids of the users who may read a private event; empty: nobody yet. Null for a public event.",
                null=True,
            ),
        ),
        migrations.RunPython(fill_readers, migrations.RunPython.noop),
    ]
