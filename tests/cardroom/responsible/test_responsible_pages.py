"""The player's side (docs/responsible-gaming.md): the limits page, the confirmation before a
break, the reality check at the table and "leave my tables"; refusals over both sockets."""

from __future__ import annotations

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse
from django.utils import timezone

from accounts.services import user_create
from cardroom.models import Seat
from cardroom.models.responsible import Exclusion, LimitChange, PlayerLimits
from cardroom.realtime.auth import token_create
from cardroom.responsible.services import exclusion_record
from cardroom.responsible.terms import moment_words
from tests.cardroom.responsible.play import limit, past_loss, sit, survivor, three_card, to_declare

LIMITS = reverse("limits")
EMPTY = {
    "loss_day": "", "loss_week": "", "loss_month": "", "buy_in_day": "", "buy_in_week": "",
    "buy_in_month": "", "session_minutes": "", "reality_minutes": "60",
}  # fmt: skip


@pytest.mark.django_db
def test_the_limits_page_sets_a_limit_at_once_and_shows_an_increase_waiting(client, alice):
    client.force_login(alice)
    page = client.get(LIMITS).content.decode()
    assert "a day is the last 24 hours, a week the last 7 days, a month the last" in page
    answer = client.post(LIMITS, {**EMPTY, "loss_day": "50", "session_minutes": "120"})
    assert answer.status_code == 302
    row = PlayerLimits.objects.get(user=alice)
    assert (row.loss_day, row.session_minutes) == (5_000, 120)
    page = client.get(LIMITS).content.decode()
    assert "Daily loss limit: $50.00, from now." in page
    assert "Session limit: 2 hours, from now." in page

    answer = client.post(LIMITS, {**EMPTY, "loss_day": "75.50", "session_minutes": "120"})
    change = LimitChange.objects.get(user=alice, limit="loss_day", applied__isnull=True)
    assert change.after == 7_550
    page = client.get(LIMITS).content.decode()
    when = moment_words(change.effective)
    assert f"$75.50 from {when} (a higher limit, or none, waits 24 hours)" in page
    assert PlayerLimits.objects.get(user=alice).loss_day == 5_000  # not yet
    # Sending the page again as it is asks for nothing: the increase still waits.
    client.post(LIMITS, {**EMPTY, "loss_day": "75.5", "session_minutes": "120"})
    change.refresh_from_db()
    assert change.cancelled is None
    assert "Nothing changed." in client.get(LIMITS).content.decode()
    # Typing the limit in force again cancels the increase waiting.
    client.post(LIMITS, {**EMPTY, "loss_day": "50", "session_minutes": "120"})
    change.refresh_from_db()
    assert change.cancelled is not None
    assert (
        "Daily loss limit: the change waiting is cancelled." in client.get(LIMITS).content.decode()
    )

    bad = client.post(LIMITS, {**EMPTY, "loss_day": "ten", "reality_minutes": "5"})
    assert bad.status_code == 400
    text = bad.content.decode()
    assert "not an amount in dollars" in text and "greater than or equal to 10" in text


@pytest.mark.django_db
def test_a_break_is_recorded_only_after_the_page_said_what_it_does(client, alice):
    client.force_login(alice)
    first = client.post(reverse("limits-exclude"), {"kind": "self_exclusion", "days": "365"})
    text = first.content.decode()
    assert first.status_code == 200 and not Exclusion.objects.exists()
    assert "Please confirm your self-exclusion of 1 year" in text
    assert "you are stood up at the end of the hand in play" in text
    assert "stays in force until the house lifts it, at your request" in text
    assert "nothing can shorten it from your side" in text
    done = client.post(
        reverse("limits-exclude"), {"kind": "self_exclusion", "days": "365", "confirmed": "True"}
    )
    assert done.status_code == 302
    exclusion = Exclusion.objects.get(user=alice)
    assert (exclusion.kind, exclusion.end - exclusion.start) == ("self_exclusion", timedelta(365))
    # A length the form does not offer for that kind is refused.
    client.post(reverse("limits-exclude"), {"kind": "time_out", "days": "365", "confirmed": "True"})
    assert Exclusion.objects.count() == 1


@pytest.mark.django_db
def test_the_reality_check_is_due_every_interval_of_the_session(client, make_player):
    ann, ben, cat = make_player("ann"), make_player("ben"), make_player("cat")
    client.force_login(ann)
    assert client.get(reverse("reality")).json() == {
        "in_session": False, "due": False, "interval_minutes": 60,
    }  # fmt: skip
    table = survivor()
    for player in (ann, ben, cat):
        sit(player, table, 20_000)
    to_declare(table, [ann, ben, cat])  # Ann's ante: $1.00 at stake
    status = client.get(reverse("reality")).json()
    assert status["in_session"] and not status["due"]
    assert 3590 <= status["next_check_in_seconds"] <= 3600
    Seat.objects.filter(user=ann).update(joined=timezone.now() - timedelta(minutes=61))
    status = client.get(reverse("reality")).json()
    assert status["due"] and status["played"] == "1 hour 1 minute"
    assert (status["net_cents"], status["net"]) == (-100, "\u2212$1.00")

    keep = client.post(reverse("reality-keep"), HTTP_ACCEPT="application/json")
    assert keep.json() == {"ok": True}
    status = client.get(reverse("reality")).json()
    assert not status["due"] and status["next_check_in_seconds"] >= 3590


@pytest.mark.django_db
def test_leave_my_tables_stands_the_player_up_where_no_hand_is_in_play(client, make_player):
    ann, ben, cat = make_player("ann"), make_player("ben"), make_player("cat")
    quiet, busy = three_card(), survivor()
    sit(ann, quiet, 10_000)
    for player in (ann, ben, cat):
        sit(player, busy, 20_000)
    to_declare(busy, [ann, ben, cat])
    client.force_login(ann)
    answer = client.post(reverse("leave-tables"), HTTP_ACCEPT="application/json").json()
    assert answer == {
        "left_now": 1, "leaving": 1,
        "message": "You left 1 table now and leave 1 more at the end of the hand in play.",
    }  # fmt: skip
    assert Seat.objects.get(user=ann, table=quiet).left is not None
    held = Seat.objects.get(user=ann, table=busy)
    assert held.left is None and held.leave_at_rest
    # A form without the script comes back to the page it was sent from.
    page = client.post(reverse("leave-tables"), {"next": f"/tables/{busy.pk}/"})
    assert page.status_code == 302 and page.url == f"/tables/{busy.pk}/"
    evil = client.post(reverse("leave-tables"), {"next": "https://evil.example/"})
    assert evil.url == LIMITS


@pytest.mark.django_db
def test_the_table_page_carries_the_reality_check(client, alice):
    table = survivor()
    client.force_login(alice)
    page = client.get(reverse("table", args=[table.pk])).content.decode()
    assert 'id="reality-check"' in page and "js/reality" in page
    assert f'data-status-url="{reverse("reality")}"' in page
    assert "Keep playing" in page and "Leave my tables" in page


@pytest.mark.django_db
def test_a_limit_lowered_to_what_is_already_lost_stands_the_player_up(make_player):
    from cardroom.responsible.sweep import responsible_sweep

    ann = make_player("ann")
    past_loss(ann, 3_000, ago=timedelta(hours=3))
    table = three_card()
    sit(ann, table, 10_000)
    limit(ann, "loss_day", 3_000)
    assert Seat.objects.get(user=ann, table=table).leave_at_rest
    responsible_sweep()
    assert Seat.objects.get(user=ann, table=table).left is not None


@pytest.mark.django_db(transaction=True)
async def test_refusals_say_which_limit_over_both_sockets():
    from tests.cardroom.sockets import Client, Page

    table = await sync_to_async(three_card)()
    ann = await sync_to_async(user_create)(username="ann")
    done = await sync_to_async(exclusion_record)(
        user=ann, days=2, kind="time_out", reason="", by=ann, now=timezone.now()
    )
    refusal = f"You are excluded from play until {moment_words(done.exclusion.end)} (a time-out)"
    api = Client(table.pk, await sync_to_async(token_create)(user=ann))
    await api.connect()
    answer = await api.act(kind="sit", buy_in=10_000)
    assert answer == {"type": "error", "id": api.next_id, "code": "refused", "message": refusal}
    await api.close()

    page = Page(table.pk, await sync_to_async(token_create)(user=ann))
    await page.open()
    await page.submit(kind="sit", buy_in="100")
    assert refusal in page.frames[-1]  # the page's notice, in words and dates
    await page.communicator.disconnect()
    assert not await Seat.objects.filter(user=ann).aexists()
