"""Registering and unregistering: the money through the ledger, each refusal in words with
nothing changed, and the start when the last seat fills."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import Transfer, TransferKind
from cardroom.models import (
    Entry,
    EntryStatus,
    Seat,
    Tournament,
    TournamentStatus,
)
from cardroom.models.responsible import ExclusionKind, PlayerLimits
from cardroom.tournaments.registration import (
    RegistrationRefused,
    fill_with_bots,
    register,
    unregister,
)
from tests.cardroom.tournaments.money import balance, bankroll

pytestmark = pytest.mark.django_db

GRANT = 100_000


def _unchanged(tournament, user, entries_before):
    """Nothing moved: the bankroll holds the grant, the pool and fees are empty, and no entry
    was written."""
    assert bankroll(user) == GRANT
    assert balance(f"prize:n{tournament.pk}") == 0
    assert balance("fees") == 0
    assert Entry.objects.filter(tournament=tournament).count() == entries_before


def test_registering_moves_the_buy_in_to_the_pool_and_the_fee_to_the_house(make_tournament, alice):
    tournament = make_tournament()
    entry = register(tournament_id=tournament.pk, user=alice)
    assert entry.status == EntryStatus.REGISTERED
    assert bankroll(alice) == GRANT - 1100
    assert balance(f"prize:n{tournament.pk}") == 1000
    assert balance("fees") == 100
    kinds = sorted(Transfer.objects.filter(source__code=f"bankroll:u{alice.pk}").values_list(
        "kind", flat=True))  # fmt: skip
    assert kinds == [TransferKind.TOURNAMENT_BUY_IN, TransferKind.TOURNAMENT_FEE]


def test_unregistering_refunds_both(make_tournament, alice):
    tournament = make_tournament()
    register(tournament_id=tournament.pk, user=alice)
    entry = unregister(tournament_id=tournament.pk, user=alice)
    assert entry.status == EntryStatus.UNREGISTERED
    assert bankroll(alice) == GRANT
    assert balance(f"prize:n{tournament.pk}") == 0
    assert balance("fees") == 0
    # Registered again after that: a new entry, paid again.
    register(tournament_id=tournament.pk, user=alice)
    assert bankroll(alice) == GRANT - 1100


def test_already_registered_is_refused(make_tournament, alice):
    tournament = make_tournament()
    register(tournament_id=tournament.pk, user=alice)
    with pytest.raises(RegistrationRefused, match="already registered"):
        register(tournament_id=tournament.pk, user=alice)
    assert bankroll(alice) == GRANT - 1100
    assert Entry.objects.filter(tournament=tournament).count() == 1


def test_short_of_money_is_refused(make_tournament, make_player):
    tournament = make_tournament(buy_in=GRANT, fee=100)
    poor = make_player("poor")
    with pytest.raises(RegistrationRefused, match=r"buy-in and fee are \$1,001.00"):
        register(tournament_id=tournament.pk, user=poor)
    _unchanged(tournament, poor, 0)


@pytest.mark.parametrize(
    ("kind", "days", "words"),
    [
        (ExclusionKind.SELF_EXCLUSION, 180, "self-exclusion"),
        (ExclusionKind.TIME_OUT, 1, "time-out"),
    ],
)
def test_excluded_players_are_refused(make_tournament, alice, kind, days, words):
    tournament = make_tournament()
    PlayerLimits.objects.create(
        user=alice, excluded_kind=kind, excluded_until=timezone.now() + timedelta(days=days)
    )
    with pytest.raises(RegistrationRefused, match=words):
        register(tournament_id=tournament.pk, user=alice)
    _unchanged(tournament, alice, 0)


def test_a_buy_in_limit_counts_the_entry(make_tournament, alice):
    tournament = make_tournament()
    PlayerLimits.objects.create(user=alice, buy_in_day=1000)
    with pytest.raises(RegistrationRefused, match=r"daily buy-in limit of \$10\.00"):
        register(tournament_id=tournament.pk, user=alice)
    _unchanged(tournament, alice, 0)


def test_a_loss_limit_counts_the_entry(make_tournament, alice):
    tournament = make_tournament()
    PlayerLimits.objects.create(user=alice, loss_day=500)
    with pytest.raises(RegistrationRefused, match="daily loss limit"):
        register(tournament_id=tournament.pk, user=alice)
    _unchanged(tournament, alice, 0)


def test_bots_do_not_register_themselves(make_tournament, make_player):
    tournament = make_tournament()
    bot = make_player("robot", is_bot=True)
    with pytest.raises(RegistrationRefused, match="bots do not register"):
        register(tournament_id=tournament.pk, user=bot)
    _unchanged(tournament, bot, 0)


def test_unregistering_without_an_entry_is_refused(make_tournament, alice):
    tournament = make_tournament()
    with pytest.raises(RegistrationRefused, match="not registered"):
        unregister(tournament_id=tournament.pk, user=alice)
    _unchanged(tournament, alice, 0)


def test_no_such_tournament(alice):
    with pytest.raises(RegistrationRefused, match="there is no tournament 999"):
        register(tournament_id=999, user=alice)


def test_the_last_seat_starts_it_and_nobody_else_gets_in(make_tournament, make_player):
    tournament = make_tournament(seats=3)
    players = [make_player(name) for name in ("ann", "ben", "cat")]
    for player in players:
        register(tournament_id=tournament.pk, user=player)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.RUNNING
    table = tournament.table
    assert table is not None and table.plays_for_chips and table.bots == 0
    assert tournament.level == 0
    assert tournament.level_deadline == tournament.started + timedelta(minutes=1)
    entries = Entry.objects.filter(tournament=tournament).order_by("seat")
    assert [(e.user.username, e.status, e.seat) for e in entries] == [
        ("ann", EntryStatus.PLAYING, 0),
        ("ben", EntryStatus.PLAYING, 1),
        ("cat", EntryStatus.PLAYING, 2),
    ]
    stacks = [seat["stack"] for seat in table.state["seats"] if seat]
    assert stacks == [1000, 1000, 1000]
    assert Seat.objects.filter(table=table, left__isnull=True).count() == 3
    # Chips are not money: the table's seating moved nothing in the ledger.
    assert not Transfer.objects.filter(table_id=table.pk).exists()
    assert [bankroll(player) for player in players] == [GRANT - 1100] * 3
    late = make_player("dan")
    with pytest.raises(RegistrationRefused, match="not taking registrations"):
        register(tournament_id=tournament.pk, user=late)
    assert bankroll(late) == GRANT
    with pytest.raises(RegistrationRefused, match="has started"):
        unregister(tournament_id=tournament.pk, user=players[0])
    assert bankroll(players[0]) == GRANT - 1100


def test_bots_fill_only_the_seats_they_are_allowed(make_tournament, alice):
    tournament = make_tournament(seats=4, bots=2)
    entries = fill_with_bots(tournament_id=tournament.pk, count=5)
    assert len(entries) == 2 and all(entry.user.is_bot for entry in entries)
    assert fill_with_bots(tournament_id=tournament.pk, count=1) == []
    register(tournament_id=tournament.pk, user=alice)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.REGISTERING
    assert balance(f"prize:n{tournament.pk}") == 3000


def test_a_repeating_tournament_opens_its_copy_when_it_starts(make_tournament, make_player):
    tournament = make_tournament(seats=2, repeat=True)
    for name in ("ann", "ben"):
        register(tournament_id=tournament.pk, user=make_player(name))
    copy = Tournament.objects.exclude(pk=tournament.pk).get()
    assert copy.status == TournamentStatus.REGISTERING
    assert (copy.name, copy.buy_in, copy.levels, copy.repeat) == (
        tournament.name, 1000, tournament.levels, True
    )  # fmt: skip


def test_an_entry_counts_as_bought_in_and_lost_until_it_comes_back(make_tournament, alice):
    from cardroom.responsible.usage import usage_of

    tournament = make_tournament()
    register(tournament_id=tournament.pk, user=alice)
    usage = usage_of(user_id=alice.pk, now=timezone.now())
    assert (usage.bought["day"], usage.lost["day"]) == (1100, 1100)
    unregister(tournament_id=tournament.pk, user=alice)
    usage = usage_of(user_id=alice.pk, now=timezone.now())
    assert (usage.bought["day"], usage.lost["day"]) == (1100, 0)
