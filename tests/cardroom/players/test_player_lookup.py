"""The console's player look-up: the search, the player page's sections, its actions (an
exclusion, a lift, a note: each logged), who may read and act, and its query budget."""

from __future__ import annotations

import html
from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.urls import reverse
from django.utils import timezone

from accounts.models import LoginSession
from accounts.money import format_cents
from accounts.selectors import bankroll_balance
from cardroom.models import (
    Exclusion,
    OperatorAction,
    OperatorActionKind,
    PlayerLimits,
    PlayerNote,
    Seat,
)
from cardroom.models.responsible import ExclusionKind
from cardroom.operators.chat import chat_ban
from cardroom.operators.log_words import action_words
from cardroom.players import player_note_add
from tests.cardroom.history.hands import survivor_hand
from tests.cardroom.personas import *  # noqa: F403  (the personas' fixtures)

pytestmark = pytest.mark.django_db

SEARCH = reverse("operators-players")


def page_of(user_id: int) -> str:
    return reverse("operators-player", args=[user_id])


def found(response) -> list[str]:
    """The names in the results, in order."""
    body = response.content.decode()
    rows = body.split('<tr class="player-row">')[1:]
    return [html.unescape(row.split("<bdi>")[1].split("</bdi>")[0]) for row in rows]


@pytest.fixture
def people(make_player):
    def made(username: str, email: str, display_name: str = ""):
        user = make_player(username)
        user.email, user.display_name = email, display_name
        user.save(update_fields=["email", "display_name"])
        return user

    ann = made("ann", "ann@example.org")
    ben = made("ben", "BEN.Big@Example.com", "Big Ben")
    made("cat", "cat@elsewhere.net")
    return {"ann": ann, "ben": ben}


def test_search_by_name_email_and_part_in_any_case(as_user, operator, people):
    client = as_user(operator)
    assert found(client.get(SEARCH, {"q": "ann"})) == ["ann"]
    assert found(client.get(SEARCH, {"q": "big ben"})) == ["Big Ben"]  # display name
    assert found(client.get(SEARCH, {"q": "BEN"})) == ["Big Ben"]  # username, any case
    assert found(client.get(SEARCH, {"q": "example"})) == ["ann", "Big Ben"]  # e-mail, part
    assert found(client.get(SEARCH, {"q": "ELSEWHERE.NET"})) == ["cat"]
    nobody = client.get(SEARCH, {"q": "zebra"})
    assert found(nobody) == []
    assert "No player found." in nobody.content.decode()
    # Every user when nothing is asked, the operator among them.
    assert {"ann", "Big Ben", "cat", "olga"} <= set(found(client.get(SEARCH)))


def test_search_rows_say_bankroll_and_seat_and_link_the_page(
    as_user, operator, seated, survivor_table
):
    ann = seated[0]
    body = as_user(operator).get(SEARCH, {"q": "ann"}).content.decode()
    row = body.split('<tr class="player-row">')[1].split("</tr>")[0]
    assert f'href="{page_of(ann.pk)}"' in row
    assert "<td>yes</td>" in row
    assert format_cents(bankroll_balance(user=ann)) in row


def test_search_pages(as_user, operator, make_player):
    for number in range(55):
        make_player(f"p{number:02d}")
    client = as_user(operator)
    first = client.get(SEARCH, {"q": "p"})
    assert len(found(first)) == 50
    assert "Page 1 of 2" in first.content.decode()
    assert found(client.get(SEARCH, {"q": "p", "page": 2})) == [f"p{n}" for n in range(50, 55)]


def test_the_console_nav_links_the_search(as_user, operator):
    assert f'href="{SEARCH}"' in as_user(operator).get(reverse("operators")).content.decode()


@pytest.fixture
def history(monkeypatch, survivor_table, seated, operator):
    """Ann played a hand and sits at the table, with a limit, an ended self-exclusion, a
    session, a locked account, a room-wide chat mute and a note."""
    ann = seated[0]
    hand = survivor_hand(monkeypatch, survivor_table, seated)
    now = timezone.now()
    PlayerLimits.objects.update_or_create(user=ann, defaults={"loss_day": 5_000})
    Exclusion.objects.create(
        user=ann,
        kind=ExclusionKind.SELF_EXCLUSION,
        start=now - timedelta(days=400),
        end=now - timedelta(days=35),
        reason="asked by e-mail",
        recorded_by=operator,
    )
    LoginSession.objects.create(
        user=ann,
        session_key="k" * 32,
        last_seen=now,
        ip_address="203.0.113.9",
        user_agent="Mozilla/5.0 (X11; Linux x86_64) Firefox/120",
    )
    AccessAttempt.objects.create(
        username="ann",
        ip_address="198.51.100.4",
        user_agent="curl",
        attempt_time=now,
        failures_since_start=5,
        get_data="",
        post_data="",
        http_accept="",
        path_info="/accounts/login/",
    )
    chat_ban(actor=operator, user=ann, hours=24, reason="rude", now=now)
    player_note_add(actor=operator, user=ann, text="Called about a lost pot.")
    return {"ann": ann, "hand": hand}


def test_the_player_page_shows_every_section(as_user, operator, history, survivor_table):
    ann = history["ann"]
    response = as_user(operator).get(page_of(ann.pk))
    assert response.status_code == 200
    body = html.unescape(response.content.decode())
    assert format_cents(bankroll_balance(user=ann)) in body.split('id="player-bankroll">')[1]
    ledger = body.split('class="ledger statement"')[1].split("</table>")[0]
    assert "Buy-in · Survivor $1" in ledger and "Play-money grant" in ledger
    assert format_cents(-20_000) in ledger and "_" not in ledger.split("<tbody>")[1]
    hand = history["hand"]
    assert reverse("hand", args=[survivor_table.pk, hand.number]) in body
    seat = Seat.objects.get(user=ann, left__isnull=True)
    seats = body.split('class="player-seats"')[1].split("</ul>")[0]
    assert reverse("operators-table", args=[survivor_table.pk]) in seats
    assert f"seat {seat.number}" in seats
    assert "Limits in force: Daily loss limit $50.00" in body
    exclusions = body.split('class="player-exclusions"')[1].split("</ul>")[0]
    assert "Self-exclusion from" in exclusions and "asked by e-mail" in exclusions
    assert "Lift this self-exclusion" in exclusions  # its period is over
    assert "203.0.113.9" in body and "Firefox/120" in body
    assert "Logins to this account are locked until" in body
    assert "5 failed logins" in body and "198.51.100.4" in body
    assert "Muted at every table until" in body and "rude" in body
    assert reverse("operators-chat") + "?player=ann" in body
    notes = body.split('class="player-notes"')[1]
    assert "Called about a lost pot." in notes and "olga" in notes
    actions = body.split('class="player-actions"')[1]
    assert "Note added about a player" in actions and "Chat muted room-wide" in actions


def test_the_player_page_costs_a_bounded_number_of_queries(
    as_user, operator, history, django_assert_max_num_queries
):
    ann = history["ann"]
    client = as_user(operator)
    client.get(page_of(ann.pk))  # warm the session
    with django_assert_max_num_queries(26):
        assert client.get(page_of(ann.pk)).status_code == 200
    for number in range(30):
        player_note_add(actor=operator, user=ann, text=f"note {number}")
        LoginSession.objects.create(user=ann, session_key=f"s{number}", last_seen=timezone.now())
    with django_assert_max_num_queries(26):
        body = client.get(page_of(ann.pk)).content.decode()
    assert body.count('class="player-note"') == 20  # the newest twenty
    assert "note 29" in body and "note 9<" not in body


def test_a_note_is_added_from_the_page_and_logged(as_user, operator, people):
    ann = people["ann"]
    client = as_user(operator)
    response = client.post(
        reverse("operators-player-note", args=[ann.pk]), {"text": "  Wants a call back.  "}
    )
    assert response.status_code == 302
    note = PlayerNote.objects.get(user=ann)
    assert (note.text, note.by) == ("Wants a call back.", operator)
    logged = OperatorAction.objects.get(kind=OperatorActionKind.PLAYER_NOTE)
    assert logged.actor == operator and logged.reason == "Wants a call back."
    assert action_words(logged) == "Note about ann"
    assert "Wants a call back." in client.get(page_of(ann.pk)).content.decode()
    blank = client.post(reverse("operators-player-note", args=[ann.pk]), {"text": "   "})
    assert blank.status_code == 400
    assert PlayerNote.objects.count() == 1


def test_an_exclusion_is_recorded_from_the_page_and_logged(
    as_user, operator, seated, survivor_table
):
    ann = seated[0]
    client = as_user(operator)
    url = reverse("operators-player-exclude", args=[ann.pk])
    response = client.post(url, {"days": "7", "reason": "asked on the phone, ID checked"})
    assert response.status_code == 302
    exclusion = Exclusion.objects.get(user=ann)
    assert exclusion.kind == ExclusionKind.TIME_OUT
    assert exclusion.recorded_by == operator
    assert exclusion.end - exclusion.start == timedelta(days=7)
    logged = OperatorAction.objects.get(kind=OperatorActionKind.EXCLUSION_RECORD)
    assert logged.details["player"] == "ann" and logged.details["days"] == 7
    # Stood up at once: no hand in play at the table.
    assert not Seat.objects.filter(user=ann, left__isnull=True).exists()
    # A length the form does not offer changes nothing.
    bad = client.post(url, {"days": "100", "reason": "x"})
    assert bad.status_code == 400
    assert Exclusion.objects.filter(user=ann).count() == 1


def test_a_self_exclusion_is_lifted_from_the_page_only_after_its_end(as_user, operator, people):
    ann = people["ann"]
    now = timezone.now()
    running, over = (
        Exclusion.objects.create(
            user=ann, kind=ExclusionKind.SELF_EXCLUSION, start=now - timedelta(days=days),
            end=now + timedelta(days=ends), reason="asked", recorded_by=operator,
        )
        for days, ends in ((10, 173), (400, -35))
    )  # fmt: skip
    client = as_user(operator)
    early = client.post(
        reverse("operators-player-lift", args=[ann.pk, running.pk]), {"reason": "asked again"}
    )
    assert early.status_code == 302
    running.refresh_from_db()
    assert running.lifted is None
    client.post(reverse("operators-player-lift", args=[ann.pk, over.pk]), {"reason": "asked"})
    over.refresh_from_db()
    assert over.lifted is not None and over.lifted_by == operator
    assert OperatorAction.objects.filter(kind=OperatorActionKind.EXCLUSION_LIFT).count() == 1
    # Another player's exclusion is not reached through this player's page.
    other = client.post(
        reverse("operators-player-lift", args=[operator.pk, running.pk]), {"reason": "x"}
    )
    assert other.status_code == 404


def test_only_operators_act_and_auditors_only_read(
    as_user, operator, auditor, player, staff_only, people
):
    ann = people["ann"]
    assert as_user(None).get(SEARCH).status_code == 302
    assert as_user(None).get(page_of(ann.pk)).status_code == 302
    for refused in (player, staff_only):
        assert as_user(refused).get(SEARCH).status_code == 403
        assert as_user(refused).get(page_of(ann.pk)).status_code == 403
    reader = as_user(auditor)
    assert reader.get(SEARCH).status_code == 200
    body = reader.get(page_of(ann.pk)).content.decode()
    assert "Read-only: only operators act on a player." in body
    assert "Add the note" not in body and "Record the exclusion" not in body
    for client in (reader, as_user(player)):
        note = client.post(reverse("operators-player-note", args=[ann.pk]), {"text": "x"})
        exclude = client.post(
            reverse("operators-player-exclude", args=[ann.pk]), {"days": "7", "reason": "x"}
        )
        assert (note.status_code, exclude.status_code) == (403, 403)
    assert not PlayerNote.objects.exists() and not Exclusion.objects.exists()
    assert not OperatorAction.objects.exists()
    assert as_user(operator).get(page_of(ann.pk)).status_code == 200
    assert as_user(operator).get(page_of(99_999)).status_code == 404


def test_the_staff_limits_page_points_to_the_player_page(as_user, operator):
    body = as_user(operator).get(reverse("operators-responsible")).content.decode()
    assert f'href="{SEARCH}"' in body
    assert "manage.py exclude" not in body


def test_the_admin_is_branded_as_the_cardroom(as_user, superuser):
    body = as_user(superuser).get(reverse("admin:index")).content.decode()
    assert "Cardroom administration" in body
    assert "Django administration" not in body
