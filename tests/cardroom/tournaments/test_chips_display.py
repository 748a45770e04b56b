"""A sit-and-go's table shows its chips as chips ("1,500"), never as dollars, wherever it
shows an amount of the table: the page, its live regions, the hand page, the replayer and the
hand history's words; a cash table still shows dollars, and the real money around a chips
table (the bankroll, the tournament's prizes) stays money."""

from __future__ import annotations

import re
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.template import Context, Template
from django.urls import reverse
from django.utils import timezone, translation

from accounts.language import cash_text, chips_text, counting_chips, money_text, said
from cardroom.clock.bots import THINK_RANGE, bots_sweep
from cardroom.history.export import hand_records, hand_text
from cardroom.models import Hand, HandEvent, Tournament
from cardroom.presentation.event_words import event_words
from cardroom.presentation.house_rules import house_rules
from cardroom.realtime.consumers import TablePageConsumer
from cardroom.tables.runtime import table_timeout
from cardroom.tables.snapshots import snapshot_from_db, state_frame
from cardroom.tournaments.registration import fill_with_bots, register
from games.words import Money, say, words
from tests.cardroom.history.hands import survivor_hand
from tests.cardroom.personas import *  # noqa: F403  (the personas' fixtures)

pytestmark = pytest.mark.django_db

#: A dollar amount as the site writes money in English ("$15.00", "−$0.10").
DOLLARS = re.compile(r"\$\d")


def _hand_over(sng: Tournament) -> Hand:
    """Run the bots and the table's clock until a hand of ``sng``'s table has ended."""
    table = sng.table
    assert table is not None
    now = timezone.now()
    think = timedelta(seconds=THINK_RANGE[1] + 0.1)
    for _ in range(500):
        ended = HandEvent.objects.filter(table=table, type="hand_ended").first()
        if ended is not None:
            return ended.hand
        table.refresh_from_db()
        if bots_sweep(now=max(now, table.updated + think)):
            continue
        table.refresh_from_db()
        if table.deadline is not None:
            now = max(now, table.deadline) + timedelta(milliseconds=5)
            table_timeout(table_id=table.pk, now=now)
        else:
            now += timedelta(seconds=1)
    raise AssertionError("no hand ended")


@pytest.fixture
def sng(seeded, make_tournament, make_player):
    """A Monte Carlo sit-and-go in play, 1,500 chips each, with a hand played: ann, ben and a
    bot, ann's view first."""
    sng = make_tournament(chips=1500, bots=1)
    fill_with_bots(tournament_id=sng.pk, count=1)
    for name in ("ann", "ben"):
        register(tournament_id=sng.pk, user=make_player(name))
    sng.refresh_from_db()
    assert sng.table is not None and sng.table.plays_for_chips
    sng.hand = _hand_over(sng)
    sng.table.refresh_from_db()
    return sng


def _without(page: str, start: str, end: str) -> str:
    """``page`` without the part from ``start`` up to the first ``end`` after it."""
    at = page.index(start)
    return page[:at] + page[page.index(end, at) :]


def _stacks(table) -> list[int]:
    return [seat["stack"] for seat in table.state["seats"] if isinstance(seat, dict)]


def test_chips_are_numbers_grouped_by_the_language_without_a_currency():
    assert chips_text(1500) == "1,500" and chips_text(-10) == "\u221210"
    for language in ("es", "nb"):
        with translation.override(language):
            # Grouped as the language groups its money, with no currency.
            assert cash_text(150_000).startswith(chips_text(1500) + ",00")
            assert "$" not in chips_text(1500) and chips_text(1500) != "1500"
    with counting_chips(True):
        assert money_text(1500) == "1,500"
        assert cash_text(1500) == "$15.00"  # real money stays money, whatever is drawn
        assert said(words("antes {amount}", amount=Money(10))) == "antes 10"
        with counting_chips(False):
            assert money_text(1500) == "$15.00"
        assert money_text(1500) == "1,500"
    assert money_text(1500) == "$15.00"  # the block ends, the money is back


def test_the_template_tag_counts_chips_for_its_block_only():
    template = Template(
        "{% load money %}{{ v|cents }}|{% counting_chips chips %}{{ v|cents }} {{ v|cash }}"
        "{% endcounting_chips %}|{{ v|cents }}"
    )
    assert template.render(Context({"v": 1500, "chips": True})) == "$15.00|1,500 $15.00|$15.00"
    assert template.render(Context({"v": 1500, "chips": False})) == "$15.00|$15.00 $15.00|$15.00"


def test_the_table_page_shows_chips_and_the_money_around_it_stays_money(client, sng):
    ann = sng.entries.get(user__username="ann").user
    client.force_login(ann)
    page = client.get(reverse("table", args=[sng.table.pk])).content.decode()

    bankroll = re.search(r'id="bankroll"[^>]*>([^<]*)<', page)
    assert bankroll is not None and bankroll.group(1).startswith("$")
    panel = page[page.index('id="panel-places"') :]
    assert DOLLARS.search(panel[: panel.index("</dd>")])  # the prizes are money
    rest = _without(page, 'id="bankroll"', "</a>")
    rest = _without(rest, 'id="tournament-panel"', "</section>")
    assert "$" not in rest
    for stack in _stacks(sng.table):
        assert f"{stack:,}" in rest
    assert "Rake" not in rest and "Buy in" not in rest  # no rake, nobody buys in there
    # Nothing the runtime refuses there is offered (a top-up typed in dollars, leaving).
    assert 'name="kind" value="top_up"' not in rest and "Leave table" not in rest


def test_the_live_regions_show_chips(sng):
    ann = sng.entries.get(user__username="ann").user
    snapshot = snapshot_from_db(sng.table)
    assert snapshot["plays_for_chips"] is True
    consumer = SimpleNamespace(language="en")
    html = TablePageConsumer._regions(consumer, snapshot, state_frame(snapshot, ann.pk), 12_345)
    assert "$123.45" in html  # the bankroll, pushed with the regions, is money
    assert "$" not in _without(html, 'id="bankroll"', "</a>")
    for stack in _stacks(sng.table):
        assert f"{stack:,}" in html


def test_the_hand_page_replayer_and_history_show_chips(client, sng):
    ann = sng.entries.get(user__username="ann").user
    client.force_login(ann)
    number = sng.hand.number
    page = client.get(reverse("hand", args=[sng.table.pk, number])).content.decode()
    assert "antes 10" in page or "anted 10" in page
    assert not DOLLARS.search(_without(page, 'id="bankroll"', "</a>"))

    data = client.get(reverse("hand", args=[sng.table.pk, number]) + "?format=json").json()
    said_words = " ".join(event["words"] for event in data["events"])
    assert "10" in said_words and "$" not in said_words

    replay = client.get(reverse("hand-replay", args=[sng.table.pk, number])).content.decode()
    assert "antes 10" in replay
    assert not DOLLARS.search(_without(replay, 'id="bankroll"', "</a>"))

    (record,) = hand_records(Hand.objects.filter(pk=sng.hand.pk), viewer=ann.pk)
    assert "$" not in record["table"]["stakes_text"]
    assert all("$" not in action["text"] for action in record["actions"])
    text = hand_text(record)
    assert "$" not in text and "(1,500 in chips)" in text


def test_event_words_follow_the_render(sng):
    event = {"type": "pot_won", "seat": 1, "amount": 1500}
    assert event_words(event, {1: "ben"}) == "ben won $15.00"
    with counting_chips(sng.table.plays_for_chips):
        assert event_words(event, {1: "ben"}) == "ben won 1,500"


def test_the_consoles_live_rows_show_the_tournament_tables_stakes_in_chips(
    as_user, operator, sng, survivor_table
):
    # The players' lobby lists a tournament's table only under its tournament; the operators'
    # live rows list every table, each in its own unit.
    rows = as_user(operator).get(reverse("operators-rows")).content.decode()
    sng_row = rows[rows.index(f'id="live-table-{sng.table.pk}"') :]
    sng_row = sng_row[: sng_row.index("</tr>")]
    assert not DOLLARS.search(sng_row)
    cash_row = rows[rows.index(f'id="live-table-{survivor_table.pk}"') :]
    assert DOLLARS.search(cash_row[: cash_row.index("</tr>")])


def test_a_cash_table_and_its_hand_still_show_dollars(client, monkeypatch, survivor_table, seated):
    hand = survivor_hand(monkeypatch, survivor_table, seated)
    client.force_login(seated[0])
    page = client.get(reverse("table", args=[survivor_table.pk])).content.decode()
    assert DOLLARS.search(_without(page, 'id="bankroll"', "</a>"))
    page = client.get(reverse("hand", args=[survivor_table.pk, hand.number])).content.decode()
    assert DOLLARS.search(_without(page, 'id="bankroll"', "</a>"))
    replay = client.get(reverse("hand-replay", args=[survivor_table.pk, hand.number]))
    assert DOLLARS.search(replay.content.decode())


def test_the_tournaments_page_keeps_its_buy_in_in_dollars(client, sng):
    client.force_login(sng.entries.get(user__username="ann").user)
    page = client.get(reverse("tournament", args=[sng.pk])).content.decode()
    assert "$10.00 + $1.00" in page


def test_a_chinese_poker_tournaments_table_shows_its_units_in_chips(
    client, seeded, make_tournament, make_player
):
    levels = [{"ante": 5, "minutes": 1}, {"ante": 20, "minutes": 1}]
    sng = make_tournament(
        game="chinese_poker", preset="unit-1", seats=3, chips=200, bots=1, levels=levels
    )
    fill_with_bots(tournament_id=sng.pk, count=1)
    ann = make_player("ann")
    for player in (ann, make_player("ben")):
        register(tournament_id=sng.pk, user=player)
    sng.refresh_from_db()
    assert sng.table is not None and sng.table.plays_for_chips
    client.force_login(ann)
    page = client.get(reverse("table", args=[sng.table.pk])).content.decode()
    rest = _without(page, 'id="bankroll"', "</a>")
    rest = _without(rest, 'id="tournament-panel"', "</section>")
    assert "$" not in rest
    assert "200" in rest  # the stacks, in chips


def test_a_sentence_whose_translation_fails_keeps_its_chips():
    sentence = words("the ante is {amount}", amount=Money(10))
    broken = say(sentence, lambda template: "el ante es {missing}", chips_text)
    assert broken == "the ante is 10"


def test_the_ante_button_and_a_seat_that_owes_say_chips(sng):
    ann = sng.entries.get(user__username="ann").user
    snapshot = snapshot_from_db(sng.table)
    state = state_frame(snapshot, ann.pk)
    legal = [{"kind": "ante", "amount": 1000}, {"kind": "decline", "owed": 1500, "pays": 900}]
    state = {**state, "you": {**(state.get("you") or {}), "legal_actions": legal}}
    consumer = SimpleNamespace(language="en")
    html = TablePageConsumer._regions(consumer, snapshot, state, 0)
    assert "Ante 1,000" in html and "Pay 900 of 1,500 and sit out" in html
    with translation.override("nb"):
        nb = TablePageConsumer._regions(SimpleNamespace(language="nb"), snapshot, state, 0)
    assert "$" not in _without(nb, 'id="bankroll"', "</a>")


def test_a_tournaments_house_rules_say_no_buy_in_nor_a_first_levels_stake(sng, survivor_table):
    rules = " ".join(house_rules(sng.table))
    # Nobody buys in there, and the stake is the level's (the panel's), not the first one's.
    assert "Buy in" not in rules and "Ante" not in rules and "capped" not in rules
    assert "Rake" not in rules
    cash = " ".join(house_rules(survivor_table))
    assert "Buy in with at least" in cash and "Ante $" in cash


def test_a_chinese_poker_sit_and_go_names_no_money_preset(client, make_tournament):
    sng = make_tournament(game="chinese_poker", preset="unit-1", seats=3, chips=2_000)
    page = client.get(reverse("tournament", args=[sng.pk])).content.decode()
    lobby = client.get(reverse("tournament-rows")).content.decode()
    for text in (page, lobby):
        assert "Chinese Poker" in text
        assert "a unit" not in text


def test_your_hands_says_a_tournament_hand_was_for_chips_not_even(client, sng):
    client.force_login(sng.entries.get(user__username="ann").user)
    page = client.get(reverse("my-hands")).content.decode()
    row = page[page.index(reverse("hand", args=[sng.table.pk, sng.hand.number])) :]
    row = row[: row.index("</tr>")]
    assert "tournament chips" in row
    assert "even" not in row and not DOLLARS.search(row)
