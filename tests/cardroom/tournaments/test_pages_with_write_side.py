"""The pages that call the write side (registration.py, templates.py, cancel.py), with that
side stood in for by fakes of the same signatures (the contract of the shared plan): the
pages' part only, what they pass and what they show. The one module of such stand-ins: once
the write side is merged, these run against fakes still (each test puts its fake in
``sys.modules``), and its own tests cover the services themselves."""

from __future__ import annotations

import sys
from types import ModuleType, SimpleNamespace

import pytest
from django.urls import reverse

from cardroom.models.tournaments import Entry, EntryStatus, Tournament, TournamentStatus
from games.words import Money, words
from tests.cardroom.personas import *  # noqa: F403  (the personas' fixtures)
from tests.cardroom.tournaments.builders import enter, tournament

pytestmark = pytest.mark.django_db


class Refused(ValueError):
    """The write side's RegistrationRefused: a ValueError carrying a sentence in words."""


def fake(monkeypatch, name: str, **functions) -> list[dict]:
    """A stand-in module ``cardroom.tournaments.<name>`` with ``functions``; returns the list
    of the keyword arguments of every call."""
    calls: list[dict] = []
    module = ModuleType(f"cardroom.tournaments.{name}")
    for function_name, answer in functions.items():

        def call(answer=answer, **kwargs):
            calls.append(kwargs)
            return answer(**kwargs)

        setattr(module, function_name, call)
    monkeypatch.setitem(sys.modules, f"cardroom.tournaments.{name}", module)
    return calls


def test_registering_from_the_lobby_answers_in_place_htmx(client, monkeypatch, make_player):
    ann = make_player("ann")
    sng = tournament("Lobby one")

    def register(*, tournament_id, user, now=None):
        return enter(Tournament.objects.get(pk=tournament_id), user)

    calls = fake(monkeypatch, "registration", register=register, unregister=None)
    client.force_login(ann)
    answer = client.post(
        reverse("tournament-register", args=[sng.pk]),
        {"next": reverse("lobby")},
        headers={"HX-Request": "true"},
    ).content.decode()
    assert calls == [{"tournament_id": sng.pk, "user": ann}]
    assert "You are registered for Lobby one." in answer
    assert 'id="lobby-tournament-rows" hx-swap-oob="true"' in answer
    assert reverse("tournament-unregister", args=[sng.pk]) in answer  # the row changed
    assert 'hx-swap="innerHTML"' in answer  # not the rows' poll's outerHTML, inherited
    assert 'id="bankroll"' in answer and "$1,000.00" in answer  # the header's, redrawn
    assert "<html" not in answer


def test_a_refusal_is_said_in_words_inline_and_as_a_message(client, monkeypatch, make_player):
    ann = make_player("ann")
    sng = tournament("Refusing one")

    def register(*, tournament_id, user, now=None):
        raise Refused(
            words(
                "the buy-in and fee are {cost} and your bankroll holds {balance}",
                cost=Money(1_100),
                balance=Money(500),
            )
        )

    fake(monkeypatch, "registration", register=register, unregister=None)
    client.force_login(ann)
    url = reverse("tournament-register", args=[sng.pk])
    inline = client.post(url, {"next": "/lobby/"}, headers={"HX-Request": "true"})
    assert "errors" in inline.content.decode()
    assert "$11.00" in inline.content.decode() and "$5.00" in inline.content.decode()

    plain = client.post(url, {"next": "/lobby/"}, follow=True)
    assert plain.redirect_chain[-1][0] == "/lobby/"
    assert "$11.00" in plain.content.decode()
    assert not Entry.objects.exists()

    # Elsewhere than this site: back to the tournament's page instead.
    away = client.post(url, {"next": "https://elsewhere.example/"})
    assert away["Location"] == reverse("tournament", args=[sng.pk])


def test_unregistering_from_the_tournaments_page(client, monkeypatch, make_player):
    ann = make_player("ann")
    sng = tournament("Leaving one")
    entry = enter(sng, ann)

    def unregister(*, tournament_id, user, now=None):
        Entry.objects.filter(pk=entry.pk).update(status=EntryStatus.UNREGISTERED)
        return entry

    calls = fake(monkeypatch, "registration", register=None, unregister=unregister)
    client.force_login(ann)
    page = reverse("tournament", args=[sng.pk])
    assert reverse("tournament-unregister", args=[sng.pk]) in client.get(page).content.decode()
    answer = client.post(
        reverse("tournament-unregister", args=[sng.pk]), {"next": page}, follow=True
    )
    assert calls == [{"tournament_id": sng.pk, "user": ann}]
    assert "no longer registered for Leaving one" in answer.content.decode()
    assert reverse("tournament-register", args=[sng.pk]) in answer.content.decode()


def test_registering_needs_a_login_and_a_post(client, make_player):
    sng = tournament("Guarded one")
    url = reverse("tournament-register", args=[sng.pk])
    assert client.post(url).status_code == 302  # to the login page
    client.force_login(make_player("ann"))
    assert client.get(url).status_code == 405


def test_the_console_creates_a_tournament_in_cents(as_user, operator, monkeypatch):
    def create_tournament(**kwargs):
        return SimpleNamespace(pk=7, name=kwargs["name"])

    calls = fake(monkeypatch, "templates", create_tournament=create_tournament)
    form = {
        "name": "Friday Survivor", "game": "guts", "preset": "survivor", "seats": "6",
        "buy_in": "10.50", "fee": "1", "chips": "1500", "levels": "10 5\n20 5\n40 10",
        "payouts": "65 35", "bots": "1", "repeat": "on",
    }  # fmt: skip
    answer = as_user(operator).post(reverse("operators-tournament-new"), form, follow=True)
    assert calls == [
        {
            "name": "Friday Survivor", "game": "guts", "preset": "survivor", "seats": 6,
            "buy_in": 1_050, "fee": 100, "chips": 1_500,
            "levels": [{"ante": 10, "minutes": 5}, {"ante": 20, "minutes": 5},
                       {"ante": 40, "minutes": 10}],
            "payouts": [6_500, 3_500], "bots": 1, "repeat": True, "actor": operator,
        }
    ]  # fmt: skip
    assert "Tournament Friday Survivor is open for registration." in answer.content.decode()


def test_the_console_shows_the_write_sides_refusal(as_user, operator, monkeypatch):
    def create_tournament(**kwargs):
        raise ValueError(words("the payouts pay {places} places but there are {seats} seats",
                               places=3, seats=2))  # fmt: skip

    fake(monkeypatch, "templates", create_tournament=create_tournament)
    form = {
        "name": "Too many places", "game": "chinese_poker", "preset": "unit-1", "seats": "2",
        "buy_in": "5", "fee": "0.50", "chips": "1000", "bots": "0", "payouts": "50 30 20",
    }  # fmt: skip
    answer = as_user(operator).post(reverse("operators-tournament-new"), form)
    assert answer.status_code == 400
    assert "the payouts pay 3 places but there are 2 seats" in answer.content.decode()


def test_a_cancel_is_confirmed_with_its_refunds_first(as_user, operator, monkeypatch, make_player):
    sng = tournament("Cancelled one")
    for name in ("ann", "ben"):
        enter(sng, make_player(name))

    def cancel_tournament(*, tournament_id, reason, actor=None):
        Tournament.objects.filter(pk=tournament_id).update(
            status=TournamentStatus.CANCELLED, cancel_reason=reason
        )

    calls = fake(monkeypatch, "cancel", cancel_tournament=cancel_tournament)
    client = as_user(operator)
    url = reverse("operators-tournament-cancel", args=[sng.pk])

    preview = client.post(url, {"reason": "The server moves tonight"}).content.decode()
    assert calls == []
    assert "2 entrants get their buy-in and fee back, $11.00 each: $22.00 in all." in preview
    assert "ann" in preview and 'name="confirmed" value="yes"' in preview

    done = client.post(url, {"reason": "The server moves tonight", "confirmed": "yes"}, follow=True)
    assert calls == [
        {"tournament_id": sng.pk, "reason": "The server moves tonight", "actor": operator}
    ]
    assert "Cancelled one is cancelled" in done.content.decode()
    page = client.get(reverse("tournament", args=[sng.pk])).content.decode()
    assert "Cancelled: The server moves tonight." in page
