"""A whole sit-and-go, from registration to payout, played by the clock and the bots: places,
prizes and fees to the cent, the prize account at zero, the ledger and the journal clean."""

from __future__ import annotations

import itertools

import pytest
from django.core.management import call_command
from django.utils import timezone

from accounts.audit import ledger_audit
from accounts.models import Transfer, TransferKind
from cardroom.history.journal_audit import table_replay
from cardroom.models import (
    Entry,
    EntryStatus,
    HandEvent,
    Seat,
    TableStatus,
    TournamentStatus,
)
from cardroom.tournaments.registration import fill_with_bots, register
from tests.cardroom.tournaments.driving import play_out
from tests.cardroom.tournaments.money import balance, bankroll

pytestmark = pytest.mark.django_db

GRANT = 100_000


@pytest.mark.parametrize(
    ("game", "preset", "seats", "chips", "levels"),
    [
        ("guts", "monte_carlo", 6, 1000, None),
        ("guts", "survivor", 3, 1000, [{"ante": 10, "minutes": 1}, {"ante": 50, "minutes": 1},
                                       {"ante": 200, "minutes": 1}]),
        ("chinese_poker", "unit-1", 4, 200, [{"ante": 5, "minutes": 1},
                                             {"ante": 20, "minutes": 1},
                                             {"ante": 50, "minutes": 1}]),
    ],
)  # fmt: skip
def test_players_and_a_bot_play_it_to_the_end_by_themselves(
    seeded, make_tournament, make_player, game, preset, seats, chips, levels
):
    people = [make_player(f"p{n}") for n in range(seats - 1)]
    settings = {"levels": levels} if levels else {}
    tournament = make_tournament(
        game=game, preset=preset, seats=seats, chips=chips, bots=1, **settings
    )
    fill_with_bots(tournament_id=tournament.pk, count=1)
    for person in people:
        register(tournament_id=tournament.pk, user=person)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.RUNNING
    start = timezone.now()
    end = play_out(tournament, start)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED
    assert tournament.level > 0  # the antes rose on the clock on the way
    assert end > tournament.started
    table = tournament.table
    table.refresh_from_db()
    assert table.status == TableStatus.CLOSED
    assert not Seat.objects.filter(table=table, left__isnull=True).exists()
    entries = list(Entry.objects.filter(tournament=tournament).select_related("user"))
    assert len(entries) == seats
    winners = [entry for entry in entries if entry.status == EntryStatus.WON]
    assert len(winners) == 1 and winners[0].place == 1
    assert all(entry.status == EntryStatus.ELIMINATED for entry in entries if entry.place != 1)
    assert all(entry.place is not None for entry in entries)
    # Every place from 1 to the field is taken (ties share the best of theirs).
    assert min(entry.place for entry in entries) == 1
    assert max(entry.place for entry in entries) <= seats
    # The pool is every buy-in, paid out to the cent; the house has the fees.
    pool = 1000 * seats
    assert sum(entry.prize for entry in entries) == pool
    assert balance(f"prize:n{tournament.pk}") == 0
    assert balance("fees") == 100 * len(people)  # house bots pay no fee
    prizes = Transfer.objects.filter(kind=TransferKind.PRIZE)
    assert sum(prizes.values_list("amount", flat=True)) == pool
    for entry in entries:
        if entry.user.is_bot:
            continue
        assert bankroll(entry.user) == GRANT - 1100 + entry.prize
    first = [entry for entry in entries if entry.place == 1]
    if len(first) == 1:
        assert first[0].prize >= 6500 * pool // 10_000
    # Points: a better place never scores fewer.
    by_place = sorted(entries, key=lambda entry: entry.place)
    assert all(a.points >= b.points for a, b in itertools.pairwise(by_place))
    # Chips never touched the ledger: nothing of the table's moves is a transfer.
    assert not Transfer.objects.filter(table_id=table.pk).exists()
    # The hands are recorded as at any table, with the levels raised.
    assert HandEvent.objects.filter(table=table, type="hand_ended").exists()
    assert HandEvent.objects.filter(table=table, type="level_raised").exists()
    eliminated = [entry for entry in entries if entry.status == EntryStatus.ELIMINATED]
    assert all(entry.eliminated is not None for entry in eliminated)
    # Out in a hand: the entry names it (the hand that ended when they were placed).
    assert any(entry.eliminated_in_id is not None for entry in eliminated)
    assert ledger_audit().ok
    call_command("audit_ledger")
    assert table_replay(table=table).ok
    call_command("replay_tables")
