"""The console in words: phases and statuses named, seats removed by a button, and close and
void previewed exactly as the ledger then moves."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from accounts.models import Transfer
from cardroom.models import OperatorAction, Seat, Table, TableStatus
from cardroom.operators.previews import play_preview
from cardroom.tables.runtime import table_act, table_create
from tests.cardroom.driving import play_to_declare, run_clock
from tests.cardroom.personas import *  # noqa: F403  (the personas' fixtures)

pytestmark = pytest.mark.django_db

#: Codes the games use for phases and seat statuses: never on a console page.
CODES = ("in_hand", "sitting_out", "phase declare", "version ")


def main_part(page: str) -> str:
    return page[page.index("<main>") : page.index("</main>")]


def text_of(page: str) -> str:
    """What a person reads: the main part without its tags and attributes."""
    return re.sub(r"<[^>]+>", " ", main_part(page))


def test_the_console_says_phases_and_statuses_in_words(as_user, operator, survivor_table, seated):
    play_to_declare(survivor_table, seated)
    client = as_user(operator)
    home = text_of(client.get(reverse("operators")).content.decode())
    rows = client.get(reverse("operators-rows")).content.decode()
    console = text_of(
        client.get(reverse("operators-table", args=[survivor_table.pk])).content.decode()
    )
    assert "In or Out?" in home and "In or Out?" in rows and "In or Out?" in console
    assert "in the hand" in console
    survivor_table.refresh_from_db()
    assert f"actions applied: {survivor_table.version}" in console
    assert "Actions applied" in home
    for page in (home, console, re.sub(r"<[^>]+>", " ", rows)):
        for code in CODES:
            assert code not in page, code
        assert not re.search(r"\bdeclare\s", page)  # the phase's code, as it was shown


def test_the_home_page_polls_its_rows(as_user, operator, survivor_table):
    page = as_user(operator).get(reverse("operators")).content.decode()
    assert f'hx-get="{reverse("operators-rows")}"' in page
    assert 'hx-trigger="every 5000ms"' in page
    assert f'id="live-link-{survivor_table.pk}"' in page  # htmx gives focus back by this id
    player_client = as_user(None)
    assert player_client.get(reverse("operators-rows")).status_code == 302


def test_a_seat_is_removed_by_its_own_button(as_user, operator, survivor_table, seated):
    client = as_user(operator)
    page = client.get(reverse("operators-table", args=[survivor_table.pk])).content.decode()
    assert "Remove cat from seat 2" in page and "Sit ben out" in page
    assert 'name="seat" value="2"' in page
    url = reverse("operators-seat", args=[survivor_table.pk])
    refused = client.post(url, {"seat": "2", "action": "leave", "reason": ""})
    assert refused.status_code == 400
    assert "Give a reason" in refused.content.decode()
    done = client.post(url, {"seat": "2", "action": "leave", "reason": "abuse"})
    assert done.status_code == 302
    assert not Seat.objects.filter(table=survivor_table, number=2, left__isnull=True).exists()


def ledger_since(last: int) -> list[tuple[str, str, int, str]]:
    return [
        (t.source.code, t.target.code, t.amount, t.kind)
        for t in Transfer.objects.filter(id__gt=last)
        .select_related("source", "target")
        .order_by("id")
    ]


def last_transfer() -> int:
    return Transfer.objects.order_by("-id").values_list("id", flat=True).first() or 0


def confirm(client, table: Table, what: str) -> tuple[str, list[tuple[str, str, int, str]]]:
    """Ask for ``what``, read the preview page, confirm it; the page and the ledger's moves."""
    url = reverse("operators-play", args=[table.pk])
    asked = client.post(url, {"action": what, "reason": "test"})
    assert asked.status_code == 200
    page = asked.content.decode()
    assert not Transfer.objects.filter(table_id=table.pk, kind__in=("void", "cash_out")).exists()
    key = re.search(r'name="confirmed_preview" value="([0-9a-f]+)"', page).group(1)
    last = last_transfer()
    done = client.post(url, {"action": what, "reason": "test", "confirmed_preview": key})
    assert done.status_code == 302
    return page, ledger_since(last)


def test_a_void_of_a_guts_hand_with_a_pot_moves_what_the_preview_said(
    as_user, operator, survivor_table, seated
):
    play_to_declare(survivor_table, seated)  # three antes in the pot
    preview = play_preview(table_id=survivor_table.pk, what="void", reason="test")
    assert sum(move.amount for move in preview.moves) == 300
    assert [(t["player"], t["amount"]) for t in preview.totals] == [
        ("ann", 100), ("ben", 100), ("cat", 100)
    ]  # fmt: skip
    page, moved = confirm(as_user(operator), survivor_table, "void")
    assert moved == [move.entry for move in preview.moves]
    assert "ann: $1.00" in page and "the table&#x27;s pot" in page
    assert OperatorAction.objects.get().kind == "hand_void"


def test_a_close_of_a_guts_table_with_a_carried_pot_moves_what_the_preview_said(
    as_user, operator, survivor_table, seated
):
    play_to_declare(survivor_table, seated)
    for player in seated:
        table_act(
            table_id=survivor_table.pk, user=player, action={"kind": "declare", "choice": "out"}
        )
    run_clock(survivor_table)  # nobody In: the pot carries to the next ante call
    survivor_table.refresh_from_db()
    preview = play_preview(table_id=survivor_table.pk, what="close", reason="test")
    kinds = {move.kind for move in preview.moves}
    assert "cash_out" in kinds
    page, moved = confirm(as_user(operator), survivor_table, "close")
    assert moved == [move.entry for move in preview.moves]
    assert "ann&#x27;s bankroll" in page
    survivor_table.refresh_from_db()
    assert survivor_table.status == TableStatus.CLOSED


def test_a_three_card_poker_close_and_void_move_what_the_preview_said(
    as_user, operator, make_player
):
    client = as_user(operator)
    for what in ("void", "close"):
        table = table_create(game="three_card_poker", preset="standard", options={}, name=what)
        ann, ben = make_player(f"ann{what}"), make_player(f"ben{what}")
        for player in (ann, ben):
            table_act(table_id=table.pk, user=player, action={"kind": "sit", "buy_in": 20_000})
        table_act(
            table_id=table.pk, user=ann, action={"kind": "bet", "ante": 500, "pair_plus": 100}
        )
        preview = play_preview(table_id=table.pk, what=what, reason="test")
        assert preview.moves, what
        _page, moved = confirm(client, table, what)
        assert moved == [move.entry for move in preview.moves], what


def test_a_preview_that_no_longer_holds_is_shown_again(as_user, operator, survivor_table, seated):
    play_to_declare(survivor_table, seated)
    url = reverse("operators-play", args=[survivor_table.pk])
    client = as_user(operator)
    again = client.post(url, {"action": "void", "reason": "r", "confirmed_preview": "stale"})
    assert again.status_code == 200
    assert "The table changed since the preview" in again.content.decode()
    assert not OperatorAction.objects.exists()


# The new-table form


NEW = reverse("operators-table-new")


def options_of(page: str, name: str) -> list[tuple[str, str]]:
    select = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', page, re.S)
    assert select, name
    return re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)</option>', select.group(1))


def test_enumerated_options_are_selects_in_words(as_user, operator):
    client = as_user(operator)
    page = client.get(NEW + "?game=guts&preset=custom").content.decode()
    assert options_of(page, "payer")[1:] == [
        ("all_losers", "Every loser pays (Monte Carlo)"),
        ("lowest_loser", "Lowest loser pays (Survivor)"),
    ]
    assert options_of(page, "match_cap_family")[1:] == [
        ("seed_000", "English Harbour ladder (cap of 20 antes)"),
        ("seed_004", "ActionPoker ladder (fixed caps)"),
    ]
    assert [label for _value, label in options_of(page, "round_end")[1:]] == [
        "When a hand leaves nobody owing",
        "Only when one player alone is In",
    ]
    classic = client.get(NEW + "?game=classic_guts&preset=two_card").content.decode()
    assert ("henry", "The best hand matches the pot (the Henry rule)") in options_of(
        classic, "all_out"
    )
    chinese = client.get(NEW + "?game=chinese_poker&preset=unit-1").content.decode()
    assert ("surrender", "The hand is surrendered") in options_of(chinese, "timeout")
    for shown in (page, classic, chinese):
        labels = [label for name in re.findall(r'<select name="(\w+)"', shown)
                  for _value, label in options_of(shown, name)]  # fmt: skip
        assert not [label for label in labels if re.fullmatch(r"\w+_\w+", label)], labels


def test_only_the_overrides_a_preset_allows_are_offered(as_user, operator):
    client = as_user(operator)
    for preset in ("monte_carlo", "survivor"):
        page = client.get(NEW + f"?game=guts&preset={preset}").content.decode()
        assert 'name="payer"' not in page, preset  # the preset fixes who pays
        assert 'name="round_end"' in page
    assert 'name="payer"' in client.get(NEW + "?game=guts&preset=custom").content.decode()
    one_deal = client.get(NEW + "?game=classic_guts&preset=two_card").content.decode()
    assert 'name="to_win"' not in one_deal and 'name="flow"' not in one_deal
    assert 'name="pass_left"' in one_deal
    napalm = client.get(NEW + "?game=classic_guts&preset=napalm").content.decode()
    assert 'name="declare"' not in napalm and 'name="pass_left"' not in napalm
    assert 'name="to_win"' in napalm
    # Every preset of the game is offered, in words; the form follows the one chosen.
    assert ("survivor", "Survivor") in options_of(page, "preset")
    assert 'hx-select="#table-new-body"' in page


def test_a_bad_override_is_refused_in_words_beside_its_field(as_user, operator):
    client = as_user(operator)
    url = NEW + "?game=guts&preset=custom"
    data = {"name": "X", "ante": "1", "bots": "0", "reason": "r", "payer": "everyone"}
    page = client.post(url, data).content.decode()
    block = re.search(r'id="field-id_payer".*?</div>', page, re.S).group(0)
    assert "Select a valid choice" in block
    data["payer"] = "lowest_loser"
    data["max_buy_in"] = "5"
    page = client.post(url, data).content.decode()
    block = re.search(r'id="field-id_max_buy_in".*?</div>', page, re.S).group(0)
    assert "“Max buy in” ($5.00) must be at least “Min buy in” ($100.00)" in block
    # A value the rules refuse for its stakes is named in words, never by its code.
    data = {"name": "X", "ante": "1", "bots": "0", "reason": "r", "match_cap_family": "seed_004"}
    page = client.post(url, data).content.decode()
    block = re.search(r'id="field-id_match_cap_family".*?</div>', page, re.S).group(0)
    assert "ActionPoker ladder (fixed caps) has no cap for an ante" in block
    assert "seed_004 has" not in block
    assert not Table.objects.exists()


def test_a_table_is_created_with_an_override(as_user, operator):
    client = as_user(operator)
    url = NEW + "?game=guts&preset=custom"
    data = {"name": "Lowest", "ante": "1", "bots": "0", "reason": "r", "payer": "lowest_loser"}
    data["round_end"] = "single_in"
    assert client.post(url, data).status_code == 302
    table = Table.objects.get(name="Lowest")
    assert table.config == {"ante": 100, "payer": "lowest_loser", "round_end": "single_in"}
    assert table.state["config"]["payer"] == "lowest_loser"
    classic = NEW + "?game=classic_guts&preset=two_card"
    data = {"name": "Three", "ante": "1", "bots": "0", "reason": "r", "cards": "3"}
    assert client.post(classic, {**data, "low_wild": "1"}).status_code == 302
    assert Table.objects.get(name="Three").config == {"ante": 100, "cards": 3, "low_wild": 1}


def test_a_preview_changes_nothing(survivor_table, seated):
    play_to_declare(survivor_table, seated)
    survivor_table.refresh_from_db()
    before = (survivor_table.version, survivor_table.status, survivor_table.state)
    transfers = Transfer.objects.count()
    void = play_preview(table_id=survivor_table.pk, what="void", reason="r")
    assert sum(move.amount for move in void.moves) == 300
    # A close lets the hand in play finish: nothing moves now, and the three stacks go later.
    close = play_preview(table_id=survivor_table.pk, what="close", reason="r")
    assert close.moves == ()
    assert [(seat["player"], seat["stack"]) for seat in close.later] == [
        ("ann", 19_900), ("ben", 19_900), ("cat", 19_900)
    ]  # fmt: skip
    survivor_table.refresh_from_db()
    assert (survivor_table.version, survivor_table.status, survivor_table.state) == before
    assert Transfer.objects.count() == transfers
    assert Seat.objects.filter(table=survivor_table, left__isnull=True).count() == 3
