"""What a seasoned player found wrong at the table (issue 37), in words: the sat-out note names
the button the player sees, the Leave button says a leave mid-hand waits for the hand's end
(and what becomes of the hand), a voided hand is said, the top-up form says its most, and every
table's house rules have something to say."""

from __future__ import annotations

import re

import pytest
from django.template.loader import render_to_string

from cardroom.models import Hand, Table
from cardroom.presentation import describe_table
from cardroom.presentation.house_rules import house_rules
from cardroom.presentation.pages import page_context, table_page_context
from cardroom.tables.control import hand_void
from cardroom.tables.engines import PACKAGES, engine_for
from cardroom.tables.runtime import table_act, table_create
from cardroom.tables.snapshots import snapshot_from_db, state_frame
from tests.cardroom.driving import play_to_declare, run_clock

pytestmark = pytest.mark.django_db

GAMES = ("guts", "classic_guts", "chinese_poker", "three_card_poker")
#: Cards in hand (Chinese Poker's board needs its thirteen; the other games draw any).
CARDS = ["As", "Ks", "Qs", "Js", "Ts", "9h", "8h", "7h", "6h", "5h", "4d", "3d", "2d"]


def state(game: str, phase: str, status: str, legal: list, **you: object) -> dict:
    seat = {"seat": 0, "player": "ann", "stack": 10_000, "status": status, "card_count": 0}
    if game == "three_card_poker":
        seat.update(ante=0, pair_plus=0, play=0)
    view = {"table": {"game": game}, "seats": [seat], "phase": phase}
    return {"type": "state", "version": 3, "table": view,
            "you": {"seat": 0, "cards": [], "legal_actions": legal, **you}}  # fmt: skip


def page(context: dict) -> str:
    return render_to_string("cardroom/partials/_you.html", context) + render_to_string(
        "cardroom/partials/_actions.html", context
    )


def button_labels(html: str) -> list[str]:
    return [
        re.sub(r"<kbd>.*?</kbd>|\s+", " ", label).strip()
        for label in re.findall(r"<button[^>]*>(.*?)</button>", html, re.S)
    ]


@pytest.mark.parametrize("game", GAMES)
def test_the_sat_out_note_names_the_button_the_player_sees(game):
    context = describe_table(state(game, "pause", "sitting_out", [{"kind": "sit_in"}]))
    html = page(context)
    (label,) = button_labels(html)
    assert label == "Deal me in again"
    assert f"Press “{label}” to play the next hand." in html
    assert "Sit in" not in html


#: A hand in play in each game: its phase, the question before leaving it (what the game does).
MID_HAND = {
    "guts": ("declare", "You are Out of this hand at once"),
    "classic_guts": ("declare", "You are Out of this hand at once"),
    "chinese_poker": ("setting", "Your hand stays in play and is scored"),
    "three_card_poker": ("deciding", "Your bets stay in this hand and are settled"),
}


@pytest.mark.parametrize("game", GAMES)
def test_leaving_mid_hand_says_the_player_leaves_after_it(game):
    phase, question = MID_HAND[game]
    holding = state(game, phase, "in_hand", [{"kind": "leave"}], cards=CARDS)
    (leave,) = describe_table(holding)["seat_controls"]
    assert leave.label == "Leave after this hand"
    assert question in leave.confirm and "you leave with your stack when it ends" in leave.confirm
    # Between hands a leave is at once: the button says so, and asks nothing.
    (leave,) = describe_table(state(game, "pause", "waiting", [{"kind": "leave"}]))["seat_controls"]
    assert (leave.label, leave.confirm) == ("Leave table", "")


def test_a_guts_seat_that_declared_is_told_its_choice_stands():
    declared = state("guts", "declare", "in_hand", [{"kind": "leave"}], cards=CARDS, choice="in")
    (leave,) = describe_table(declared)["seat_controls"]
    assert leave.confirm.startswith("Leave the table? Your choice stands and you play this hand")


@pytest.mark.parametrize("game", GAMES)
def test_a_seat_leaving_after_the_hand_is_told_so(game):
    leaving = state(game, MID_HAND[game][0], "leaving", [{"kind": "sit_out"}], cards=CARDS)
    if game == "chinese_poker":  # its seats say it in a flag of their own
        leaving["table"]["seats"][0].update(status="playing", leaving=True)
    html = page(describe_table(leaving))
    assert '<p class="leaving-note" role="status">You will leave after this hand.</p>' in html
    assert "You will leave" not in page(describe_table(state(game, "pause", "waiting", [])))


def test_leaving_mid_hand_at_a_real_table(survivor_table, seated):
    ann, ben, cat = seated
    play_to_declare(survivor_table, seated)
    (leave,) = [b for b in table_page_context(table=survivor_table, user=ann)["seat_controls"]
                if b.kind == "leave"]  # fmt: skip
    assert leave.label == "Leave after this hand"
    table_act(table_id=survivor_table.pk, user=ann, action={"kind": "leave"})
    survivor_table.refresh_from_db()
    context = table_page_context(table=survivor_table, user=ann)
    assert context["leaving_note"] == "You will leave after this hand."
    for player in (ben, cat):
        table_act(
            table_id=survivor_table.pk, user=player, action={"kind": "declare", "choice": "in"}
        )
    survivor_table.refresh_from_db()
    assert table_page_context(table=survivor_table, user=ann)["leaving_note"] == ""


def test_a_voided_hand_is_said_with_what_came_back(survivor_table, seated):
    ann, ben, cat = seated
    run_clock(survivor_table)
    for player in (ann, ben):
        table_act(table_id=survivor_table.pk, user=player, action={"kind": "ante"})
    hand_void(table_id=survivor_table.pk, reason="misdeal")
    survivor_table.refresh_from_db()
    said = table_page_context(table=survivor_table, user=ann)["result_banner"]
    assert said == {
        "kind": "void",
        "text": "The house voided hand #1 and returned every stake: $1.00 back to you.",
        "hand": 1,
        "stage": None,
    }
    told = table_page_context(table=survivor_table, user=cat)["result_banner"]
    assert told["text"] == "The house voided hand #1 and returned every stake."
    html = render_to_string(
        "cardroom/partials/_status.html", table_page_context(table=survivor_table, user=ann)
    )
    assert 'class="result-banner void"' in html and "$1.00 back to you" in html
    # Said through the next ante call; once the next hand opens, the void is the log's alone.
    run_clock(survivor_table)
    assert table_page_context(table=survivor_table, user=ann)["result_banner"] == said
    table_act(table_id=survivor_table.pk, user=ann, action={"kind": "ante"})
    survivor_table.refresh_from_db()
    assert Hand.objects.filter(table=survivor_table, number=2).exists()
    assert table_page_context(table=survivor_table, user=ann)["result_banner"] is None


def test_the_top_up_form_says_its_most(make_player):
    table = table_create(
        game="guts", preset="survivor", name="Capped",
        options={"ante": 100, "seats": 6, "max_buy_in": 30_000},
    )  # fmt: skip
    ann = make_player("ann")
    table_act(table_id=table.pk, user=ann, action={"kind": "sit", "buy_in": 20_000})
    table.refresh_from_db()
    (top_up,) = [b for b in table_page_context(table=table, user=ann)["seat_controls"]
                 if b.kind == "top_up"]  # fmt: skip
    assert top_up.amount_input["max"] == 10_000  # the table's most, less the stack
    html = render_to_string("cardroom/partials/_action.html", {"button": top_up})
    assert "min $0.01, max $100.00" in html


def test_the_top_up_form_is_capped_by_the_bankroll(make_player):
    table = table_create(game="chinese_poker", preset="unit-1", options={}, name="CP")
    ann = make_player("ann")
    table_act(table_id=table.pk, user=ann, action={"kind": "sit", "buy_in": 20_000})
    table.refresh_from_db()
    context = table_page_context(table=table, user=ann)
    (top_up,) = [b for b in context["seat_controls"] if b.kind == "top_up"]
    assert top_up.amount_input["max"] == context["bankroll_cents"] > 0
    html = render_to_string("cardroom/partials/_action.html", {"button": top_up})
    most = top_up.amount_input["max_text"]
    assert f"min $0.01, max {most}" in html and most.startswith("$")
    # Nothing left to add from: no form that could only be refused.
    snapshot = snapshot_from_db(table)
    frame = state_frame(snapshot, ann.pk)
    context = page_context(snapshot=snapshot, state=frame, bankroll_cents=0, oob=False)
    assert "top_up" not in [b.kind for b in context["seat_controls"] + context["buttons"]]


def _tables() -> list[tuple[str, str]]:
    return [(game, preset) for game in PACKAGES for preset in engine_for(game).presets]


@pytest.mark.parametrize(("game", "preset"), _tables())
def test_every_table_has_house_rules_in_words(game, preset):
    options = {"ante": 100} if game in ("guts", "classic_guts") else {}
    rules = house_rules(Table(game=game, preset=preset, config=options))
    assert rules and all(rule.strip() for rule in rules)


def test_three_card_poker_says_its_own_pay_tables_dealer_and_clock():
    config = {"pair_plus": "1,3,6,30,40", "ante_bonus": "1,4,5", "decision_seconds": 20}
    rules = " ".join(house_rules(Table(game="three_card_poker", preset="low", config=config)))
    assert "Ante $0.10 to $10.00." in rules
    assert "The dealer qualifies with Queen high or better." in rules
    assert "When the dealer does not qualify, the Ante is paid 1 to 1 and the Play bet is" in rules
    assert "Straight 1 to 1, Three of a kind 4 to 1, Straight flush 5 to 1" in rules
    assert "Pair 1 to 1, Flush 3 to 1, Straight 6 to 1" in rules
    assert "15 seconds to bet when a round opens; 20 seconds to Play or Fold" in rules
    solo = " ".join(house_rules(Table(game="three_card_poker", preset="solo",
                                      config={"max_pair_plus": 0})))  # fmt: skip
    assert "No Pair Plus bet at this table." in solo and "Pair Plus pays" not in solo
