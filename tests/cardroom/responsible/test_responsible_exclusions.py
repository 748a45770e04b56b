"""Time-outs and self-exclusions (docs/responsible-gaming.md): stood up at once where the seat is
at rest and at the end of the hand in play elsewhere, on this process or another; no sit, top-up,
reload or bet until it ends; support's command and the operator log; the house's lift."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from datetime import timedelta
from unittest import mock

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import timezone

from accounts.ledger import LedgerError
from accounts.services import bankroll_reload
from cardroom.models import OperatorAction, OperatorActionKind, Seat, Table, TableAction
from cardroom.models.responsible import Exclusion, PlayerLimits
from cardroom.responsible.services import exclusion_lift, exclusion_record
from cardroom.responsible.sweep import responsible_sweep
from cardroom.responsible.terms import date_words, moment_words
from games.engine import IllegalAction
from tests.cardroom.personas import *  # noqa: F403  (the personas' fixtures)
from tests.cardroom.responsible.play import act, declare_all, sit, survivor, three_card, to_declare

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


def seat_of(user, table: Table) -> Seat:
    return Seat.objects.filter(user=user, table=table).order_by("-joined").first()


def time_out(user, days: int = 2, now=None):
    return exclusion_record(
        user=user, days=days, kind="time_out", reason="needs a break", by=user,
        now=now or timezone.now(),
    )  # fmt: skip


@pytest.mark.django_db
def test_a_time_out_stands_the_player_up_at_rest_now_and_in_a_hand_when_it_ends(make_player):
    ann, ben, cat = make_player("ann"), make_player("ben"), make_player("cat")
    quiet, guts = three_card("Quiet"), survivor("Busy")
    sit(ann, quiet, 10_000)
    for player in (ann, ben, cat):
        sit(player, guts, 20_000)
    to_declare(guts, [ann, ben, cat])

    done = time_out(ann)
    assert (done.stood_up, done.leaving, done.logged) == (1, 1, None)
    assert seat_of(ann, quiet).left is not None  # nothing in play there: at once
    busy = seat_of(ann, guts)
    assert busy.left is None and busy.leave_at_rest  # dealt in here: at the hand's end

    declare_all(guts, [ann, ben, cat])  # her decision in the hand is not refused
    assert seat_of(ann, guts).left is not None
    last = TableAction.objects.filter(table=guts).order_by("-version", "-seq").first()
    assert last.action["kind"] == "leave" and last.actor is None

    until = moment_words(done.exclusion.end)
    refusal = f"You are excluded from play until {until} (a time-out)"
    with pytest.raises(IllegalAction) as refused:
        sit(ann, survivor("Elsewhere"), 20_000)
    assert str(refused.value) == refusal
    with pytest.raises(LedgerError, match=f"^you are excluded from play until {until}"):
        bankroll_reload(user=ann, request_id="after-the-time-out")
    sit(ann, quiet, 10_000, now=done.exclusion.end + timedelta(seconds=1))  # over: by itself


@pytest.mark.django_db
def test_a_seat_still_held_when_the_exclusion_arrives_can_neither_top_up_nor_bet(make_player):
    ann, ben = make_player("ann"), make_player("ben")
    table = three_card()
    sit(ann, table, 10_000)
    sit(ben, table, 10_000)
    # Recorded by a process that stopped before telling the tables: only the flag is there.
    with mock.patch("cardroom.responsible.services.table_release", return_value=None):
        done = time_out(ann)
    refusal = f"You are excluded from play until {moment_words(done.exclusion.end)} (a time-out)"
    for action in ({"kind": "bet", "ante": 100}, {"kind": "top_up", "amount": 1_000}):
        with pytest.raises(IllegalAction) as refused:
            act(ann, table, **action)
        assert str(refused.value) == refusal
    act(ben, table, kind="bet", ante=100)  # the table's next action stands her up
    assert seat_of(ann, table).left is not None
    assert seat_of(ben, table).left is None


@pytest.mark.django_db
def test_nothing_shortens_an_exclusion_from_the_players_side(make_player):
    ann = make_player("ann")
    now = timezone.now()
    long = exclusion_record(
        user=ann, days=183, kind="self_exclusion", reason="", by=ann, now=now
    ).exclusion
    time_out(ann, days=1, now=now + timedelta(hours=1))  # a shorter break on top changes nothing
    row = PlayerLimits.objects.get(user=ann)
    assert (row.excluded_kind, row.excluded_until) == ("self_exclusion", long.end)
    with pytest.raises(ValueError, match=f"runs until {date_words(long.end)}"):
        exclusion_lift(exclusion_id=long.pk, by=ann, reason="I'm fine", now=now)
    with pytest.raises(IllegalAction, match=f"until {date_words(long.end)} \\(a self-exclusion"):
        sit(ann, survivor(), 20_000, now=now + timedelta(days=2))


@pytest.mark.django_db
def test_a_self_exclusion_stays_after_its_end_until_the_house_lifts_it(make_player, operator):
    ann = make_player("ann")
    start = timezone.now() - timedelta(days=184)
    exclusion = exclusion_record(
        user=ann, days=183, kind="self_exclusion", reason="", by=ann, now=start
    ).exclusion
    table = survivor()
    with pytest.raises(IllegalAction) as refused:
        sit(ann, table, 20_000)
    assert str(refused.value) == (
        f"You are excluded from play: your self-exclusion ended on {date_words(exclusion.end)}"
        " and stays in force until the house lifts it at your request"
    )
    time_out_row = time_out(ann).exclusion
    with pytest.raises(ValueError, match="only a self-exclusion is lifted"):
        exclusion_lift(exclusion_id=time_out_row.pk, by=operator, reason="x", now=timezone.now())
    Exclusion.objects.filter(pk=time_out_row.pk).update(end=timezone.now())  # let it run out

    exclusion_lift(
        exclusion_id=exclusion.pk, by=operator, reason="asked by email", now=timezone.now()
    )
    logged = OperatorAction.objects.get(kind=OperatorActionKind.EXCLUSION_LIFT)
    assert (logged.actor, logged.reason, logged.details["player"]) == (
        operator, "asked by email", "ann"
    )  # fmt: skip
    sit(ann, table, 20_000)
    with pytest.raises(ValueError, match="lifted already"):
        exclusion_lift(exclusion_id=exclusion.pk, by=operator, reason="x", now=timezone.now())


@pytest.mark.django_db
def test_the_exclude_command_records_logs_and_stands_the_player_up(make_player, operator):
    ann = make_player("ann")
    table = three_card()
    sit(ann, table, 10_000)
    out = io.StringIO()
    call_command(
        "exclude", "ann", "--days", "200", "--reason", "asked on the phone", "--by", "olga",
        stdout=out,
    )  # fmt: skip
    exclusion = Exclusion.objects.get(user=ann)
    assert (exclusion.kind, exclusion.recorded_by, exclusion.reason) == (
        "self_exclusion", operator, "asked on the phone"
    )  # fmt: skip
    assert (exclusion.end - exclusion.start) == timedelta(days=200)
    logged = OperatorAction.objects.get(kind=OperatorActionKind.EXCLUSION_RECORD)
    assert (logged.actor, logged.reason) == (operator, "asked on the phone")
    assert logged.details == {
        "player": "ann", "exclusion": "self-exclusion", "days": 200,
        "until": date_words(exclusion.end),
    }  # fmt: skip
    assert out.getvalue().splitlines() == [
        f"Recorded a self-exclusion of 200 days for ann until {date_words(exclusion.end)}.",
        "After that date it stays in force until the house lifts it.",
        "Stood up at once at 1 table(s); at 0 more at the end of the hand in play.",
        f"Logged as operator action {logged.pk}.",
    ]
    assert seat_of(ann, table).left is not None


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("words", "error"),
    [
        (["--days", "100"], "a time-out lasts 1 to 42 days and a self-exclusion 183 to 1826"),
        (["--days", "0"], "not 0"),
        (["--days", "1827"], "not 1827"),
        (["--days", "183", "--time-out"], "a time-out lasts 1 to 42 days, not 183"),
        (["--days", "7", "--by", "nobody"], "no user named 'nobody'"),
    ],
)
def test_the_exclude_command_refuses_lengths_out_of_range(make_player, words, error):
    make_player("ann")
    with pytest.raises(CommandError, match=error):
        call_command("exclude", "ann", "--reason", "asked", *words, stdout=io.StringIO())
    assert not Exclusion.objects.exists()
    assert not OperatorAction.objects.exists()


@pytest.mark.django_db
def test_the_clock_sweep_stands_up_a_seat_flagged_elsewhere_once_it_is_at_rest(make_player):
    ann, ben, cat = make_player("ann"), make_player("ben"), make_player("cat")
    quiet, guts = three_card("Quiet"), survivor("Busy")
    sit(ann, quiet, 10_000)
    for player in (ann, ben, cat):
        sit(player, guts, 20_000)
    to_declare(guts, [ann, ben, cat])
    # As another process leaves it: the flag in the database, and no table told.
    Seat.objects.filter(user=ann, left__isnull=True).update(leave_at_rest=True)
    assert responsible_sweep() == 1  # the quiet table; the hand in play goes on
    assert seat_of(ann, quiet).left is not None and seat_of(ann, guts).left is None
    declare_all(guts, [ann, ben, cat])
    assert seat_of(ann, guts).left is not None


def _exclude_in_another_process(username: str, days: int) -> str:
    from tests.live import database_url

    done = subprocess.run(
        [sys.executable, "manage.py", "exclude", username, "--days", str(days),
         "--reason", "asked by chat"],
        cwd=ROOT, env={**os.environ, "DATABASE_URL": database_url()},
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.django_db(transaction=True)
def test_an_exclusion_from_another_process_ends_play_at_the_end_of_the_hand(make_player):
    ann, ben, cat = make_player("ann"), make_player("ben"), make_player("cat")
    # Clocks that cannot run out while the other process starts (it took over 15 s under load).
    quiet, guts = three_card("Quiet"), survivor("Busy", ante_seconds=600, decision_seconds=600)
    sit(ann, quiet, 10_000)
    for player in (ann, ben, cat):
        sit(player, guts, 20_000)
    to_declare(guts, [ann, ben, cat])

    said = _exclude_in_another_process("ann", 3)
    assert "Stood up at once at 1 table(s); at 1 more at the end of the hand in play." in said
    assert seat_of(ann, quiet).left is not None  # the other process stood her up there
    # This process plays the hand on; its next action sees the flag and ends her play after it.
    declare_all(guts, [ann, ben, cat])
    assert seat_of(ann, guts).left is not None
    with pytest.raises(IllegalAction, match="You are excluded from play until"):
        sit(ann, guts, 20_000)


@pytest.mark.django_db
def test_operators_and_auditors_read_exclusions_and_limits_and_only_operators_lift(
    make_player, operator, auditor, player, two_factor_login
):
    from django.test import Client

    from cardroom.responsible.limits import limit_request

    def as_user(user) -> Client:
        client = Client()
        if user is player:
            client.force_login(user)
        else:  # staff pages want the second factor
            two_factor_login(client, user)
        return client

    ann = make_player("ann")
    start = timezone.now() - timedelta(days=200)
    exclusion = exclusion_record(
        user=ann, days=183, kind="self_exclusion", reason="", by=ann, now=start
    ).exclusion
    limit_request(user=player, limit="loss_week", value=5_000, now=timezone.now())
    page = reverse("operators-responsible")
    lift = reverse("operators-exclusion-lift", args=[exclusion.pk])

    assert as_user(player).get(page).status_code == 403
    assert as_user(player).post(lift, {"reason": "x"}).status_code == 403
    seen = as_user(auditor).get(page)
    text = seen.content.decode()
    assert seen.status_code == 200 and "ann" in text and "Weekly loss limit $50.00" in text
    assert "Lift this self-exclusion" not in text  # auditors read only
    assert as_user(auditor).post(lift, {"reason": "x"}).status_code == 403
    assert "Lift this self-exclusion" in as_user(operator).get(page).content.decode()

    answer = as_user(operator).post(lift, {"reason": "asked by email"})
    assert answer.status_code == 302
    exclusion.refresh_from_db()
    assert exclusion.lifted is not None and exclusion.lifted_by == operator

    for name in ("exclusion", "limitchange", "playerlimits"):
        listing = as_user(auditor).get(reverse(f"admin:cardroom_{name}_changelist"))
        assert listing.status_code == 200, name
        if name != "exclusion":
            assert "$50.00" in listing.content.decode(), name  # dollars, not cents
        assert as_user(auditor).get(reverse(f"admin:cardroom_{name}_add")).status_code == 403
    detail = reverse("admin:cardroom_exclusion_change", args=[exclusion.pk])
    assert as_user(auditor).post(detail, {"reason": "edited"}).status_code == 403
    exclusion.refresh_from_db()
    assert exclusion.reason == ""
