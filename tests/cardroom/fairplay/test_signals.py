"""The fair play report's two searches: found in constructed cases, not in near misses; the
attribution's exact cents; idempotent reruns; bounded queries."""

from __future__ import annotations

from datetime import timedelta

import pytest

from accounts.models import LoginSession
from cardroom.fairplay.flows import FlowRules, flows, one_way_flows
from cardroom.fairplay.report import fair_play_report
from cardroom.fairplay.shared import shared_pairs
from cardroom.models import FairPlayKind, FairPlaySignal
from tests.cardroom.fairplay.builders import DAY, at, fund, hand, login, seat
from tests.cardroom.queries import queries

pytestmark = pytest.mark.django_db

HOME, OFFICE = "203.0.113.7", "198.51.100.20"
FIREFOX, CHROME = "Mozilla/5.0 Firefox/140.0", "Mozilla/5.0 Chrome/141.0"
RULES = FlowRules(net_cents=10_000, one_way_percent=80, min_hands=5)


def pairs(found) -> set[tuple[str, str]]:
    return {(x.a, x.b) for x in found}


def ids(*users) -> tuple[int, ...]:
    return tuple(sorted(user.pk for user in users))


# Shared addresses and browsers ---------------------------------------------------------


def test_a_shared_address_and_browser_at_one_table_is_found(tables, people):
    ann, ben = people["ann"], people["ben"]
    seat(tables[0], ann, 1, at(10), at(12))
    seat(tables[0], ben, 2, at(11), None)
    login(ann, HOME, FIREFOX, at(10))
    login(ben, HOME, FIREFOX, at(11))

    [pair] = shared_pairs(DAY)

    assert (pair.a, pair.b) == ids(ann, ben)
    assert pair.strength == "address_and_agent"
    assert pair.addresses == [HOME]
    assert pair.both == [[HOME, FIREFOX]]
    assert pair.tables == {tables[0].pk: 3600}  # 11:00 to 12:00


def test_an_address_alone_and_a_browser_alone_are_weaker(tables, people):
    ann, ben, cat = people["ann"], people["ben"], people["cat"]
    for number, user in enumerate((ann, ben, cat), start=1):
        seat(tables[0], user, number, at(9), None)
    login(ann, HOME, FIREFOX, at(10))
    login(ben, HOME, CHROME, at(10))
    login(cat, OFFICE, FIREFOX, at(10))

    strengths = {(x.a, x.b): x.strength for x in shared_pairs(DAY)}

    assert strengths == {ids(ann, ben): "address", ids(ann, cat): "agent"}


def test_different_tables_are_not_a_pair(tables, people):
    ann, ben = people["ann"], people["ben"]
    seat(tables[0], ann, 1, at(10), None)
    seat(tables[1], ben, 1, at(10), None)
    login(ann, HOME, FIREFOX, at(10))
    login(ben, HOME, FIREFOX, at(10))

    assert shared_pairs(DAY) == []


def test_one_table_at_different_times_is_not_a_pair(tables, people):
    ann, ben = people["ann"], people["ben"]
    seat(tables[0], ann, 1, at(10), at(11))
    seat(tables[0], ben, 1, at(11), at(12))
    login(ann, HOME, FIREFOX, at(10))
    login(ben, HOME, FIREFOX, at(11))

    assert shared_pairs(DAY) == []


def test_different_addresses_and_browsers_are_not_a_pair(tables, people):
    ann, ben = people["ann"], people["ben"]
    seat(tables[0], ann, 1, at(10), None)
    seat(tables[0], ben, 2, at(10), None)
    login(ann, HOME, FIREFOX, at(10))
    login(ben, OFFICE, CHROME, at(10))

    assert shared_pairs(DAY) == []


def test_seats_and_logins_of_another_day_do_not_count(tables, people):
    ann, ben, cat = people["ann"], people["ben"], people["cat"]
    # Ann and Ben sat together the day before only.
    seat(tables[0], ann, 1, at(10) - timedelta(days=1), at(12) - timedelta(days=1))
    seat(tables[0], ben, 2, at(10) - timedelta(days=1), at(12) - timedelta(days=1))
    # Cat sat with Dan on the day, but shared an address with him only the day before.
    seat(tables[1], cat, 1, at(10), None)
    seat(tables[1], people["dan"], 2, at(10), None)
    for user in (ann, ben, cat, people["dan"]):
        login(user, HOME, FIREFOX, at(10) - timedelta(days=1))

    assert shared_pairs(DAY) == []


# One-way flows ----------------------------------------------------------------------------


def test_the_attribution_splits_each_loss_by_the_winners_gains(tables, people):
    ann, ben, cat = people["ann"], people["ben"], people["cat"]
    fund(tables[0], ann, ben, cat)
    # Ann puts in $10, Cat $5, Ben $5; Ben takes $19 back, $1 rake: Ben +$14, Ann -$10, Cat -$5.
    hand(tables[0], at(12), paid={ann: 1000, cat: 500, ben: 500}, won={ben: 1900}, rake=100)

    found = {(x.a, x.b): x for x in flows(DAY, 1)}

    ann_ben = found[ids(ann, ben)]
    ann_to_ben = ann_ben.a_to_b if ann.pk < ben.pk else ann_ben.b_to_a
    cat_ben = found[ids(cat, ben)]
    cat_to_ben = cat_ben.a_to_b if cat.pk < ben.pk else cat_ben.b_to_a
    assert (ann_to_ben, ann_ben.gross) == (1400 * 1000 // 1500, 933)
    assert (cat_to_ben, cat_ben.gross) == (1400 * 500 // 1500, 466)
    assert found[ids(ann, cat)].gross == 0  # two losers paid each other nothing
    assert all(x.hands == 1 for x in found.values())


def one_way(table, loser, winner, hands: int, cents: int, start: int = 10) -> None:
    for number in range(hands):
        hand(table, at(start, number), paid={loser: cents, winner: 100}, won={winner: cents + 100})


def test_money_running_one_way_over_enough_hands_is_flagged(tables, people):
    ann, ben = people["ann"], people["ben"]
    fund(tables[0], ann, ben)
    one_way(tables[0], ann, ben, hands=5, cents=3_000)  # $150.00 over five hands
    hand(tables[0], at(11), paid={ben: 1_000, ann: 1_000}, won={ann: 2_000})  # $10 back

    [flow] = one_way_flows(DAY, 7, RULES)

    assert (flow.payer, flow.receiver) == (ann.pk, ben.pk)
    # Ann lost $150 to Ben (the $1 Ben put in each hand came back to him), Ben $10 to Ann.
    assert (flow.net, flow.gross, flow.hands) == (14_000, 16_000, 6)
    assert flow.tables == {tables[0].pk}


def test_flows_are_flagged_only_past_every_rule(tables, people):
    ann, ben, cat, dan, eve = (people[name] for name in ("ann", "ben", "cat", "dan", "eve"))
    fund(tables[0], ann, ben, cat, dan)
    fund(tables[1], ann, eve)
    one_way(tables[0], ann, ben, hands=5, cents=2_000)  # $100 one way in 5 hands: flagged
    one_way(tables[0], cat, dan, hands=4, cents=5_000)  # $200 but in 4 hands: too few
    for number in range(6):  # $300 each way, balanced: net 0
        loser, winner = (ann, eve) if number % 2 else (eve, ann)
        hand(tables[1], at(13, number), paid={loser: 10_000}, won={winner: 10_000})

    flagged = one_way_flows(DAY, 7, RULES)

    assert [(x.payer, x.receiver, x.net) for x in flagged] == [(ann.pk, ben.pk, 10_000)]
    assert not one_way_flows(DAY, 7, FlowRules(net_cents=10_001, one_way_percent=80, min_hands=5))


def test_a_mostly_but_not_enough_one_way_flow_is_not_flagged(tables, people):
    ann, ben = people["ann"], people["ben"]
    fund(tables[0], ann, ben)
    one_way(tables[0], ann, ben, hands=5, cents=6_000)  # $300 Ann to Ben
    one_way(tables[0], ben, ann, hands=5, cents=10_000, start=11)  # $500 Ben to Ann
    # Net $200 Ben to Ann, but only 62% of the $800 ran that way.
    [flow] = flows(DAY, 7)
    assert (flow.net, flow.gross) == (20_000, 80_000)
    assert one_way_flows(DAY, 7, RULES) == []
    assert one_way_flows(DAY, 7, FlowRules(net_cents=10_000, one_way_percent=62, min_hands=5))


def test_hands_outside_the_window_do_not_count(tables, people):
    ann, ben = people["ann"], people["ben"]
    fund(tables[0], ann, ben)
    for number in range(5):
        ended = at(10, number) - timedelta(days=7)  # the day before the 7-day window
        hand(tables[0], ended, paid={ann: 5_000}, won={ben: 5_000})
    assert flows(DAY, 7) == []
    assert one_way_flows(DAY, 8, RULES)


# The report ------------------------------------------------------------------------------


def flagged_case(tables, people):
    ann, ben, cat, dan = (people[name] for name in ("ann", "ben", "cat", "dan"))
    fund(tables[0], ann, ben)
    one_way(tables[0], ann, ben, hands=5, cents=2_000)
    seat(tables[1], cat, 1, at(10), None)
    seat(tables[1], dan, 2, at(10), None)
    login(cat, HOME, FIREFOX, at(10))
    login(dan, HOME, FIREFOX, at(10))


def test_the_report_keeps_each_signal_once_however_often_it_runs(tables, people, make_player):
    flagged_case(tables, people)
    operator = make_player("olga")

    first = fair_play_report(DAY, 7, RULES)
    signal = FairPlaySignal.objects.get(kind=FairPlayKind.ONE_WAY_FLOW)
    signal.reviewed_by, signal.note = operator, "friends, checked"
    signal.reviewed_at = signal.created
    signal.save()
    again = fair_play_report(DAY, 7, RULES)

    assert (first["created"], again["created"], again["updated"]) == (2, 0, 2)
    assert FairPlaySignal.objects.count() == 2
    signal.refresh_from_db()
    assert (signal.note, signal.net, signal.hands) == ("friends, checked", 10_000, 5)
    assert (signal.player_a, signal.player_b) == (people["ann"], people["ben"])
    shared = FairPlaySignal.objects.get(kind=FairPlayKind.SHARED_ADDRESS)
    assert shared.details["strength"] == "address_and_agent"
    assert shared.tables == [tables[1].pk]


def test_a_rerun_drops_unreviewed_signals_no_longer_found_and_keeps_reviewed_ones(
    tables, people, make_player
):
    flagged_case(tables, people)
    fair_play_report(DAY, 7, RULES)
    FairPlaySignal.objects.filter(kind=FairPlayKind.ONE_WAY_FLOW).update(
        reviewed_by=make_player("olga"), reviewed_at=at(20), note="seen"
    )
    LoginSession.objects.filter(user=people["cat"]).delete()  # the shared login is gone

    report = fair_play_report(DAY, 7, FlowRules(net_cents=50_000))  # nor is the flow found

    assert (report["signals"], report["dropped"]) == ([], 1)
    assert list(FairPlaySignal.objects.values_list("kind", "note")) == [
        (FairPlayKind.ONE_WAY_FLOW, "seen")
    ]
    fair_play_report(DAY + timedelta(days=1), 1, RULES)  # another day leaves this one be
    assert FairPlaySignal.objects.filter(day=DAY).count() == 1


def test_the_report_costs_the_same_queries_for_more_players(tables, people, make_player):
    flagged_case(tables, people)
    few = queries(lambda: fair_play_report(DAY, 7, RULES))
    FairPlaySignal.objects.all().delete()
    more = [make_player(f"p{n}") for n in range(6)]
    fund(tables[1], *more)
    for number, user in enumerate(more, start=3):
        seat(tables[1], user, number, at(10), None)
        login(user, HOME, FIREFOX, at(10))
    for loser, winner in zip(more[::2], more[1::2], strict=True):
        one_way(tables[1], loser, winner, hands=5, cents=3_000, start=14)

    many = queries(lambda: fair_play_report(DAY, 7, RULES))

    assert FairPlaySignal.objects.count() > 10
    assert many == few
