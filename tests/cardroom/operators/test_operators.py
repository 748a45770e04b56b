"""The operator console: every page and action for every persona, and what each action does."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse

from accounts.models import Transfer
from cardroom.clock.bots import bots_sweep
from cardroom.models import HandEvent, OperatorAction, Seat, Table
from cardroom.operators import table_timers_change
from cardroom.tables.runtime import table_act, table_create, table_timeout
from games.engine import ConfigError, IllegalAction
from games.three_card_poker import exact_odds
from games.three_card_poker.odds import decimal_text
from tests.cardroom.personas import *  # noqa: F403  (the personas' fixtures)

pytestmark = pytest.mark.django_db

NEW = reverse("operators-table-new")


def advance(table: Table) -> None:
    table.refresh_from_db()
    assert table_timeout(table_id=table.pk, now=table.deadline + timedelta(seconds=0.01))


def pages(table: Table) -> list[str]:
    return [
        reverse("operators"),
        NEW,
        NEW + "?game=guts&preset=survivor",
        reverse("operators-table", args=[table.pk]),
    ]


def actions(table: Table) -> list[tuple[str, dict]]:
    """Every operator action, each with a valid form (so only the permission can refuse it)."""
    return [
        (
            NEW + "?game=guts&preset=survivor",
            {"name": "New", "ante": "1", "bots": "0", "reason": "more tables"},
        ),
        (
            reverse("operators-timers", args=[table.pk]),
            {**timers_data(table), "ante_seconds": "20", "reason": "slow players"},
        ),
        (
            reverse("operators-seat", args=[table.pk]),
            {"seat": "0", "action": "sit_out", "reason": "asked to"},
        ),
        (reverse("operators-bots", args=[table.pk]), {"bots": "2", "reason": "empty table"}),
    ]


def timers_data(table: Table) -> dict[str, str]:
    config = table.state["config"]
    return {name: str(value) for name, value in config.items() if name.endswith("_seconds")}


def test_a_visitor_is_sent_to_log_in_from_every_page_and_action(as_user, survivor_table, seated):
    client = as_user(None)
    for url in [*pages(survivor_table), reverse("operators-log")]:
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))
    for url, data in actions(survivor_table):
        response = client.post(url, data)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))
    assert not OperatorAction.objects.exists()
    assert Table.objects.count() == 1


@pytest.mark.parametrize("persona", ["player", "auditor", "staff_only"])
def test_only_operators_open_the_console_and_act(request, persona, as_user, survivor_table, seated):
    client = as_user(request.getfixturevalue(persona))
    version = Table.objects.get(pk=survivor_table.pk).version
    for url in pages(survivor_table):
        assert client.get(url).status_code == 403, url
    for url, data in actions(survivor_table):
        assert client.post(url, data).status_code == 403, url
    assert not OperatorAction.objects.exists()
    table = Table.objects.get(pk=survivor_table.pk)
    assert (table.version, table.bots, Table.objects.count()) == (version, 0, 1)


def test_an_operator_opens_every_page_and_takes_every_action(
    as_user, operator, survivor_table, seated
):
    client = as_user(operator)
    for url in [*pages(survivor_table), reverse("operators-log")]:
        assert client.get(url).status_code == 200, url
    for url, data in actions(survivor_table):
        response = client.post(url, data)
        assert response.status_code == 302, (url, response.content.decode()[:3000])
    kinds = list(OperatorAction.objects.order_by("id").values_list("kind", flat=True))
    assert kinds == ["table_create", "timers_change", "seat_sit_out", "bots_change"]
    assert {action.actor_id for action in OperatorAction.objects.all()} == {operator.pk}


def test_the_log_is_for_operators_and_auditors(as_user, operator, auditor, player, survivor_table):
    OperatorAction.objects.create(
        actor=operator, kind="bots_change", table=survivor_table, reason="a quiet night"
    )
    assert "a quiet night" in as_user(auditor).get(reverse("operators-log")).content.decode()
    assert "a quiet night" in as_user(operator).get(reverse("operators-log")).content.decode()
    assert as_user(player).get(reverse("operators-log")).status_code == 403


def test_the_nav_links_the_console_for_operators_only(as_user, operator, player):
    link = f'href="{reverse("operators")}"'
    assert link in as_user(operator).get(reverse("lobby")).content.decode()
    assert link not in as_user(player).get(reverse("lobby")).content.decode()


# Creating tables


def test_the_chooser_lists_every_preset_of_every_game(as_user, operator):
    page = as_user(operator).get(NEW).content.decode()
    for game, preset in [
        ("guts", "survivor"),
        ("guts", "monte_carlo"),
        ("classic_guts", "kitty"),
        ("chinese_poker", "unit-25c"),
        ("three_card_poker", "solo"),
    ]:
        assert f"?game={game}&amp;preset={preset}" in page
    # People read the rooms' names, not identifiers.
    for name in ("Monte Carlo", "3-5-7", "Hi-Lo", "$0.25 a unit", "Standard limits"):
        assert f">{name}</a>" in page
    assert ">three_five_seven</a>" not in page


def test_guts_offers_both_match_cap_families(as_user, operator):
    page = as_user(operator).get(NEW + "?game=guts&preset=monte_carlo").content.decode()
    assert "English Harbour ladder (cap of 20 antes): $0.50 ante, match cap $10.00" in page
    assert "ActionPoker ladder (fixed caps): $0.50 ante, match cap $15.00" in page
    assert "ActionPoker ladder (fixed caps): $2.00 ante, match cap $50.00" in page
    assert "ActionPoker ladder (fixed caps): $1.00 ante" not in page  # four stakes only


def test_chinese_poker_offers_the_unit_ladder(as_user, operator):
    page = as_user(operator).get(NEW + "?game=chinese_poker&preset=unit-1").content.decode()
    assert "$0.25 unit, buy-in $5.00, fee $0.05" in page
    assert "$10.00 unit, buy-in $200.00, fee $2.00" in page


def test_classic_guts_takes_the_ante_ladder_and_its_house_rules(as_user, operator):
    client = as_user(operator)
    url = NEW + "?game=classic_guts&preset=two_card"
    page = client.get(url).content.decode()
    assert '<option value="ante-50">$0.50 ante</option>' in page
    assert "match cap" not in page
    data = {"name": "Home game", "stakes": "ante-50", "bots": "0", "reason": "r"}
    page = client.post(url, {**data, "pass_left": "yes"}).content.decode()
    assert field_errors(page, "pass_left") == ["“Pass left” needs three cards (cards=3)"]
    assert client.post(url, {**data, "pass_left": "yes", "cards": "3"}).status_code == 302
    table = Table.objects.get()
    assert table.config == {"ante": 50, "pass_left": True, "cards": 3}


def test_a_stakes_preset_creates_the_table_and_logs_why(as_user, operator):
    response = as_user(operator).post(
        NEW + "?game=guts&preset=survivor",
        {
            "name": "Seed 4",
            "stakes": "seed_004-50",
            "seats": "5",
            "bots": "1",
            "reason": "the room asked for 50c",
        },
    )
    table = Table.objects.get(name="Seed 4")
    assert response["Location"] == reverse("operators-table", args=[table.pk])
    assert table.config == {"ante": 50, "match_cap_family": "seed_004", "seats": 5}
    assert table.state["config"]["match_cap"] == 1500
    assert (table.stakes, table.bots) == (50, 1)
    action = OperatorAction.objects.get()
    assert (action.actor, action.kind, action.table, action.reason) == (
        operator,
        "table_create",
        table,
        "the room asked for 50c",
    )
    assert action.details["options"] == table.config


def field_errors(page: str, name: str) -> list[str]:
    block = re.search(rf'id="field-id_{name}".*?</div>', page, re.S)
    assert block, name
    return re.findall(r'class="errors field-error">([^<]*)<', block.group(0))


def test_bad_options_are_shown_next_to_their_field_and_nothing_is_created(as_user, operator):
    client = as_user(operator)
    url = NEW + "?game=guts&preset=survivor"
    page = client.post(url, {"name": "X", "bots": "0", "reason": "r"}).content.decode()
    assert field_errors(page, "ante") == ["ante is required: the table&#x27;s stake, such as $1.00"]
    response = client.post(
        url,
        {
            "name": "X",
            "ante": "1",
            "min_buy_in": "100",
            "max_buy_in": "5",
            "bots": "0",
            "reason": "r",
        },
    )
    assert response.status_code == 400
    assert field_errors(response.content.decode(), "max_buy_in") == [
        "“Max buy in” ($5.00) must be at least “Min buy in” ($100.00)"
    ]
    page = client.post(url, {"name": "X", "ante": "1", "bots": "0"}).content.decode()
    assert field_errors(page, "reason") == [
        "Give a reason: every operator action is logged with one."
    ]
    page = client.post(
        url, {"name": "X", "ante": "1", "seats": "3", "bots": "3", "reason": "r"}
    ).content.decode()
    assert field_errors(page, "bots") == ["at most 2 bots: one seat is kept for a person"]
    page = client.post(
        url, {"name": "X", "ante": "1", "seats": "2", "bots": "2", "reason": "r"}
    ).content.decode()
    assert field_errors(page, "bots") == ["at most 1 bot: one seat is kept for a person"]
    page = client.post(
        NEW + "?game=chinese_poker&preset=unit-1",
        {"name": "X", "timeout": "fold", "bots": "0", "reason": "r"},
    ).content.decode()
    assert field_errors(page, "timeout")  # a choice the rules do not name
    assert not Table.objects.exists()
    assert not OperatorAction.objects.exists()


def test_three_card_poker_shows_the_exact_house_edge_before_saving(as_user, operator):
    client = as_user(operator)
    url = NEW + "?game=three_card_poker&preset=standard"
    page = client.get(url).content.decode()
    assert "3.3730 %" in page  # the seed's tables: 0.0337298094
    assert "2.3167 %" in page
    data = {"name": "Low PP", "pair_plus": "1,3,6,30,40", "bots": "0", "reason": "a promotion"}
    page = client.post(url, data).content.decode()
    odds = exact_odds(pair_plus=(1, 3, 6, 30, 40))
    shown = decimal_text(odds.pair_plus_house_edge * 100, 4) + " %"
    assert shown in page
    assert "2.3167 %" not in page
    assert not Table.objects.exists()  # shown first, not saved
    changed = {**data, "pair_plus": "1,4,6,30,40", "confirmed_edge": "1,4,5/1,3,6,30,40"}
    client.post(url, changed)
    assert not Table.objects.exists()  # other tables than the ones shown: shown again
    response = client.post(url, {**data, "confirmed_edge": "1,4,5/1,3,6,30,40"})
    assert response.status_code == 302
    table = Table.objects.get(name="Low PP")
    assert table.state["config"]["pair_plus"] == [1, 3, 6, 30, 40]


# The live tables


def test_live_tables_show_players_stacks_pot_phase_and_no_hidden_card(
    as_user, operator, survivor_table, seated
):
    advance(survivor_table)
    for person in seated:
        table_act(table_id=survivor_table.pk, user=person, action={"kind": "ante"})
    survivor_table.refresh_from_db()
    assert survivor_table.state["phase"] == "declare"
    page = as_user(operator).get(reverse("operators")).content.decode()
    row = re.search(rf'<tr id="live-table-{survivor_table.pk}">.*?</tr>', page, re.S).group(0)
    assert "ann $199.00" in row and "ben $199.00" in row and "cat $199.00" in row
    assert "<td>In or Out?</td>" in row  # the phase in the table page's words
    assert "$3.00" in row  # the pot: three antes
    assert f'<td class="num">{survivor_table.version}</td>' in row
    console = as_user(operator).get(reverse("operators-table", args=[survivor_table.pk]))
    shown = [main_part(page), main_part(console.content.decode())]
    dealt = HandEvent.objects.filter(table=survivor_table, type="cards_dealt")
    assert len(dealt) == 3
    for event in dealt:
        for card in event.data["cards"]:
            assert not any(re.search(rf"\b{card}\b", part) for part in shown)


def main_part(page: str) -> str:
    return page[page.index("<main>") : page.index("</main>")]


# Timers


def test_timers_change_between_hands_in_the_config_and_the_state(
    as_user, operator, survivor_table, seated
):
    survivor_table.refresh_from_db()
    assert survivor_table.state["phase"] == "pause"
    data = {
        **timers_data(survivor_table),
        "ante_seconds": "25",
        "reconnect_grace_seconds": "90",
        "reason": "players on phones",
    }
    response = as_user(operator).post(reverse("operators-timers", args=[survivor_table.pk]), data)
    assert response.status_code == 302
    table = Table.objects.get(pk=survivor_table.pk)
    assert table.config == {
        "ante": 100,
        "seats": 6,
        "ante_seconds": 25.0,
        "reconnect_grace_seconds": 90.0,
    }
    assert table.state["config"]["ante_seconds"] == 25.0
    assert table.version == survivor_table.version + 1
    action = OperatorAction.objects.get()
    assert action.details == {
        "before": {"ante_seconds": 10.0, "reconnect_grace_seconds": 60.0},
        "after": {"ante_seconds": 25.0, "reconnect_grace_seconds": 90.0},
    }
    pause_ends = table.deadline
    advance(table)
    table.refresh_from_db()
    assert table.state["phase"] == "ante"
    assert (table.deadline - pause_ends).total_seconds() == pytest.approx(25.0, abs=0.02)


def test_timers_are_refused_while_a_hand_is_in_play(as_user, operator, survivor_table, seated):
    advance(survivor_table)
    for person in seated:
        table_act(table_id=survivor_table.pk, user=person, action={"kind": "ante"})
    before = Table.objects.get(pk=survivor_table.pk)
    data = {**timers_data(before), "decision_seconds": "30", "reason": "slow"}
    response = as_user(operator).post(reverse("operators-timers", args=[before.pk]), data)
    assert response.status_code == 400
    assert "hand 1 is in play: change the timers between hands" in response.content.decode()
    after = Table.objects.get(pk=before.pk)
    assert (after.state, after.config, after.version) == (
        before.state,
        before.config,
        before.version,
    )
    assert not OperatorAction.objects.exists()


def test_only_timers_can_be_changed_and_within_the_rules(operator, survivor_table):
    with pytest.raises(ConfigError, match="ante is not a timer; timers: "):
        table_timers_change(
            actor=operator, table_id=survivor_table.pk, timers={"ante": 5}, reason="r"
        )
    with pytest.raises(ConfigError, match="decision_seconds must be a number of seconds"):
        table_timers_change(
            actor=operator,
            table_id=survivor_table.pk,
            timers={"decision_seconds": 4000},
            reason="r",
        )
    assert not OperatorAction.objects.exists()


@pytest.mark.parametrize(
    ("game", "preset", "timers"),
    [
        ("chinese_poker", "unit-1", {"set_seconds": 120, "pause_seconds": 2}),
        ("three_card_poker", "standard", {"bet_seconds": 30, "decision_seconds": 20}),
        ("classic_guts", "kitty", {"decision_seconds": 20.0}),
    ],
)
def test_every_engine_takes_new_timers_in_its_state(operator, game, preset, timers):
    options = {"ante": 100} if game.endswith("guts") else {}
    table = table_create(game=game, preset=preset, options=options, name="T")
    table_timers_change(actor=operator, table_id=table.pk, timers=timers, reason="r")
    table.refresh_from_db()
    for name, value in timers.items():
        assert table.state["config"][name] == value
        assert table.config[name] == value


# Seats and bots


def test_an_operator_sits_a_player_out_and_removes_another(
    as_user, operator, survivor_table, seated
):
    client = as_user(operator)
    url = reverse("operators-seat", args=[survivor_table.pk])
    assert client.post(url, {"seat": "1", "action": "sit_out", "reason": "away"}).status_code == 302
    table = Table.objects.get(pk=survivor_table.pk)
    assert table.state["seats"][1]["sitting_out"] is True
    assert client.post(url, {"seat": "2", "action": "leave", "reason": "abuse"}).status_code == 302
    assert not Seat.objects.filter(table=survivor_table, number=2, left__isnull=True).exists()
    assert Transfer.objects.get(kind="cash_out", source__user=seated[2]).amount == 20_000
    logged = list(OperatorAction.objects.order_by("id").values_list("kind", "reason", "details"))
    assert [(kind, reason, details["player"]) for kind, reason, details in logged] == [
        ("seat_sit_out", "away", "ben"),
        ("seat_remove", "abuse", "cat"),
    ]


def test_an_empty_seat_is_refused_in_words(as_user, operator, survivor_table, seated):
    url = reverse("operators-seat", args=[survivor_table.pk])
    response = as_user(operator).post(url, {"seat": "5", "action": "leave", "reason": "r"})
    assert response.status_code == 400
    assert "nobody sits in seat 5" in response.content.decode()
    assert not OperatorAction.objects.exists()


def test_bots_are_added_and_removed_through_the_runtime(as_user, operator, survivor_table):
    client = as_user(operator)
    url = reverse("operators-bots", args=[survivor_table.pk])
    assert client.post(url, {"bots": "3", "reason": "seed the table"}).status_code == 302
    bots_sweep()
    assert Seat.objects.filter(table=survivor_table, left__isnull=True).count() == 3
    assert client.post(url, {"bots": "1", "reason": "players came"}).status_code == 302
    table = Table.objects.get(pk=survivor_table.pk)
    assert table.bots == 1
    seated = Seat.objects.filter(table=survivor_table, left__isnull=True, user__is_bot=True)
    assert list(seated.values_list("user__username", flat=True)) == ["house-bot-1"]
    last = OperatorAction.objects.order_by("id").last()
    assert last.details == {"before": 3, "after": 1, "leaving": ["house-bot-3", "house-bot-2"]}


def test_too_many_bots_is_refused_next_to_the_field(as_user, operator, survivor_table):
    url = reverse("operators-bots", args=[survivor_table.pk])
    response = as_user(operator).post(url, {"bots": "6", "reason": "r"})
    assert response.status_code == 400
    assert "bots must be a whole number from 0 to 5, not 6" in response.content.decode()
    assert Table.objects.get(pk=survivor_table.pk).bots == 0


def test_a_refused_seat_change_leaves_no_log(operator, survivor_table):
    from cardroom.operators import seat_remove

    with pytest.raises(IllegalAction, match="nobody sits in seat 0"):
        seat_remove(actor=operator, table_id=survivor_table.pk, seat=0, reason="r")
    assert not OperatorAction.objects.exists()


def test_operators_type_money_in_dollars(as_user, operator):
    client = as_user(operator)
    url = NEW + "?game=guts&preset=survivor"
    page = client.get(url).content.decode()
    assert "Ante ($)" in page and "(cents)" not in page
    assert "Preset: $3.00." in page  # the rake cap, in dollars
    bad = client.post(url, {"name": "X", "ante": "2.505", "bots": "0", "reason": "r"})
    assert field_errors(bad.content.decode(), "ante") == [
        "an amount has at most two decimals: &#x27;2.505&#x27; (type dollars, such as 2.50)"
    ]
    client.post(url, {"name": "Dollars", "ante": "2.50", "bots": "0", "reason": "r"})
    assert Table.objects.get(name="Dollars").config["ante"] == 250
