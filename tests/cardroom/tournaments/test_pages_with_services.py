"""The pages that call the write side (registration.py, templates.py, cancel.py): what they
pass to the services and what they show of the answer, refusals in words included."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.models import Transfer
from accounts.selectors import bankroll_balance
from cardroom.models import OperatorAction
from cardroom.models.tournaments import Entry, EntryStatus, Tournament, TournamentStatus
from cardroom.tournaments.registration import fill_with_bots, register
from tests.cardroom.personas import *  # noqa: F403  (the personas' fixtures)
from tests.cardroom.tournaments.builders import tournament

pytestmark = pytest.mark.django_db


def test_registering_from_the_lobby_answers_in_place_htmx(client, make_player):
    ann = make_player("ann")
    before = bankroll_balance(user=ann)
    sng = tournament("Lobby one")
    client.force_login(ann)
    answer = client.post(
        reverse("tournament-register", args=[sng.pk]),
        {"next": reverse("lobby")},
        headers={"HX-Request": "true"},
    ).content.decode()
    entry = Entry.objects.get(tournament=sng, user=ann)
    assert entry.status == EntryStatus.REGISTERED
    assert bankroll_balance(user=ann) == before - 1_100  # the $10 buy-in and the $1 fee
    assert "You are registered for Lobby one." in answer
    assert 'id="lobby-tournament-rows" hx-swap-oob="true"' in answer
    assert reverse("tournament-unregister", args=[sng.pk]) in answer  # the row changed
    assert 'hx-swap="innerHTML"' in answer  # not the rows' poll's outerHTML, inherited
    assert 'id="bankroll"' in answer and "$989.00" in answer  # the header's, redrawn
    assert "<html" not in answer


def test_a_refusal_is_said_in_words_inline_and_as_a_message(client, make_player):
    ann = make_player("ann")
    sng = tournament("Refusing one", buy_in=200_000, fee=100)  # more than her bankroll
    client.force_login(ann)
    url = reverse("tournament-register", args=[sng.pk])
    inline = client.post(url, {"next": "/lobby/"}, headers={"HX-Request": "true"})
    text = inline.content.decode()
    assert "errors" in text
    assert "$2,001.00" in text and "$1,000.00" in text

    plain = client.post(url, {"next": "/lobby/"}, follow=True)
    assert plain.redirect_chain[-1][0] == "/lobby/"
    assert "$2,001.00" in plain.content.decode()
    assert not Entry.objects.exists()
    assert not Transfer.objects.filter(kind__startswith="tourney").exists()

    # Elsewhere than this site: back to the tournament's page instead.
    away = client.post(url, {"next": "https://elsewhere.example/"})
    assert away["Location"] == reverse("tournament", args=[sng.pk])


def test_unregistering_from_the_tournaments_page(client, make_player):
    ann = make_player("ann")
    before = bankroll_balance(user=ann)
    sng = tournament("Leaving one")
    client.force_login(ann)
    page = reverse("tournament", args=[sng.pk])
    client.post(reverse("tournament-register", args=[sng.pk]), {"next": page})
    assert reverse("tournament-unregister", args=[sng.pk]) in client.get(page).content.decode()
    answer = client.post(
        reverse("tournament-unregister", args=[sng.pk]), {"next": page}, follow=True
    )
    assert "no longer registered for Leaving one" in answer.content.decode()
    assert reverse("tournament-register", args=[sng.pk]) in answer.content.decode()
    assert Entry.objects.get(tournament=sng, user=ann).status == EntryStatus.UNREGISTERED
    assert bankroll_balance(user=ann) == before


def test_registering_needs_a_login_and_a_post(client, make_player):
    sng = tournament("Guarded one")
    url = reverse("tournament-register", args=[sng.pk])
    assert client.post(url).status_code == 302  # to the login page
    client.force_login(make_player("ann"))
    assert client.get(url).status_code == 405


def test_the_console_creates_a_tournament_in_cents(as_user, operator):
    form = {
        "name": "Friday Survivor", "game": "guts", "preset": "survivor", "seats": "6",
        "buy_in": "10.50", "fee": "1", "chips": "1500", "levels": "10 5\n15 5\n20 10",
        "payouts": "65 35", "bots": "1", "repeat": "on",
    }  # fmt: skip
    answer = as_user(operator).post(reverse("operators-tournament-new"), form, follow=True)
    assert "Tournament Friday Survivor is open for registration." in answer.content.decode()
    made = Tournament.objects.get(name="Friday Survivor")
    assert (made.buy_in, made.fee, made.chips, made.seats) == (1_050, 100, 1_500, 6)
    assert made.levels == [
        {"ante": 10, "minutes": 5}, {"ante": 15, "minutes": 5}, {"ante": 20, "minutes": 10},
    ]  # fmt: skip
    assert (made.payouts, made.bots_allowed, made.repeat) == ([6_500, 3_500], 1, True)
    assert made.status == TournamentStatus.REGISTERING
    assert OperatorAction.objects.filter(actor=operator).exists()


def test_the_console_shows_the_write_sides_refusal(as_user, operator):
    form = {
        "name": "Too many places", "game": "chinese_poker", "preset": "unit-1", "seats": "2",
        "buy_in": "5", "fee": "0.50", "chips": "1000", "bots": "0", "payouts": "50 30 20",
    }  # fmt: skip
    answer = as_user(operator).post(reverse("operators-tournament-new"), form)
    assert answer.status_code == 400
    assert "3" in answer.content.decode() and "places" in answer.content.decode()
    assert not Tournament.objects.exists()


def test_the_console_seats_the_house_bots_the_template_allows(as_user, operator, make_player):
    sng = tournament("Bots one", seats=3, bots_allowed=1)
    client = as_user(operator)
    page = client.get(reverse("operators-tournaments")).content.decode()
    assert reverse("operators-tournament-bots", args=[sng.pk]) in page
    answer = client.post(reverse("operators-tournament-bots", args=[sng.pk]), follow=True)
    assert "1 house bot registered for Bots one." in answer.content.decode()
    assert [entry.user.is_bot for entry in sng.entries.all()] == [True]
    # Its one bot is in: no second, and the button is gone.
    again = client.post(reverse("operators-tournament-bots", args=[sng.pk]), follow=True)
    assert "Bots one has no seat left for a house bot." in again.content.decode()
    assert sng.entries.count() == 1
    assert reverse("operators-tournament-bots", args=[sng.pk]) not in again.content.decode()


def test_a_cancel_is_confirmed_with_its_refunds_first(as_user, operator, make_player, client):
    sng = tournament("Cancelled one")
    players = [make_player(name) for name in ("ann", "ben")]
    before = [bankroll_balance(user=player) for player in players]
    for player in players:
        client.force_login(player)
        client.post(reverse("tournament-register", args=[sng.pk]))
    url = reverse("operators-tournament-cancel", args=[sng.pk])
    console = as_user(operator)

    preview = console.post(url, {"reason": "The server moves tonight"}).content.decode()
    assert Tournament.objects.get(pk=sng.pk).status == TournamentStatus.REGISTERING
    assert "2 entrants get back what they paid: $22.00 in all." in preview
    assert "ann</bdi>: $11.00" in preview and 'name="confirmed" value="yes"' in preview

    confirmed = {"reason": "The server moves tonight", "confirmed": "yes"}
    done = console.post(url, confirmed, follow=True)
    assert "Cancelled one is cancelled" in done.content.decode()
    assert Tournament.objects.get(pk=sng.pk).status == TournamentStatus.CANCELLED
    assert [bankroll_balance(user=player) for player in players] == before
    page = console.get(reverse("tournament", args=[sng.pk])).content.decode()
    assert "Cancelled: The server moves tonight." in page


def test_a_cancels_confirmation_counts_no_fee_for_a_house_bot(as_user, operator, make_player):
    sng = tournament("Bot and one", seats=3, bots_allowed=1)
    fill_with_bots(tournament_id=sng.pk, count=1)
    register(tournament_id=sng.pk, user=make_player("ann"))
    url = reverse("operators-tournament-cancel", args=[sng.pk])
    console = as_user(operator)

    preview = console.post(url, {"reason": "Not enough people"}).content.decode()
    # The bot paid its $10.00 buy-in and no fee; ann paid $11.00: $21.00 comes back.
    assert "2 entrants get back what they paid: $21.00 in all." in preview
    refunds = preview[preview.index('id="cancel-refunds"') :]
    assert "ann</bdi>: $11.00" in refunds and "sng-bot-1</bdi>: $10.00" in refunds

    console.post(url, {"reason": "Not enough people", "confirmed": "yes"})
    refunded = Transfer.objects.filter(kind="tourney_refund")
    assert sum(refunded.values_list("amount", flat=True)) == 2_100
    assert OperatorAction.objects.get(kind="tournament_cancel").details["cents"] == 2_100
