"""Hostile and unlucky input on both table sockets (docs/protocol.md, "Messages").

The contract checked here: every frame gets an answer (on ``/ws/api/tables/<id>/`` an ``error``
frame with a ``code`` and a sentence a person can read; on ``/ws/tables/<id>/`` a ``#notice``
fragment), the socket stays open (a following ``sync`` is answered with the state), and nothing
changes: the table's version, its journal, its open seats and the ledger (every account's
balance, the number of transfers) are as they were. A refused handshake is accepted,
then closed with 4401 (not logged in) or 4404 (no such table).

The cases are data. Each test opens its connections once and runs its cases through them, one
after another; a case that breaks the contract is named in the failure, with what happened,
and a socket it killed is reopened so the cases after it still run.
``test_the_cases_are_many_and_distinct`` counts them.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from datetime import timedelta
from types import SimpleNamespace
from typing import Any
from unittest import mock

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone

import cardroom.tables.runtime
from accounts.models import Account, Transfer, User
from accounts.services import user_create
from cardroom.asgi import application
from cardroom.models import HandEvent, Seat, Table, TableAction
from cardroom.realtime.auth import token_create
from cardroom.tables.runtime import table_act, table_create
from games.cards import DECK, parse_cards
from tests.cardroom.chinese_poker_deals import ANN as CP_ANN
from tests.cardroom.chinese_poker_deals import BEN as CP_BEN
from tests.cardroom.chinese_poker_deals import cp_deck, hand_of
from tests.cardroom.sockets import ORIGIN, Client, Page, advance, make_clients
from tests.cardroom.three_card_poker_deals import ANN as TCP_ANN
from tests.cardroom.three_card_poker_deals import BEN as TCP_BEN
from tests.cardroom.three_card_poker_deals import DEALER as TCP_DEALER
from tests.games.three_card_poker.helpers import deck_for

pytestmark = [pytest.mark.django_db(transaction=True)]

#: How much of this process's processor time an answer may take. "1e999997" once froze the
#: whole process for 29 s. Processor time, not time on the wall: a machine loaded by other
#: processes slows every answer, but makes none of them cost more.
ANSWER_CPU_SECONDS = 2.0
#: How long to wait for a frame before calling the socket dead: generous, as it costs nothing
#: unless a frame never comes, and a loaded machine may take seconds to send one.
WAIT_SECONDS = 30.0
#: What a message to a person must never hold.
INTERNALS = ("Traceback", "object at 0x", 'File "', "<class '", "<built-in")
#: A forged amount and name a client adds to an action, to be found in no journal.
FORGED = {"stack": 1_000_000_000, "player": "someone", "now": 0, "deck": [str(c) for c in DECK]}
NINES_5000 = "9" * 5000  # past Python's 4,300-digit limit: json.loads refuses it
NINES_4000 = "9" * 4000  # under it: a legal, absurd integer


# --- cases ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """One hostile frame: its name, the frame (text, or bytes for a binary frame), who sends
    it, and the answer it must get: one of ``codes`` (any code but ``internal`` and
    ``unavailable`` when empty), with ``says`` in its message. ``late``: sent after its
    decision's deadline (the runtime's clock is moved on an hour while it is answered)."""

    name: str
    frame: str | bytes
    codes: tuple[str, ...] = ()
    says: str = ""
    who: str = "ann"
    late: bool = False


def raw(name: str, text: str | bytes, *codes: str, says: str = "", who: str = "ann") -> Case:
    return Case(name, text, codes, says, who)


def message(name: str, value: Any, *codes: str, says: str = "", who: str = "ann") -> Case:
    return Case(name, json.dumps(value), codes, says, who)


def act(name: str, action: Any, *codes: str, says: str = "", who: str = "ann") -> Case:
    """An action frame whose id is the case's name (so every id is new on its connection)."""
    frame = json.dumps({"type": "action", "id": name, "action": action})
    return Case(name, frame, codes or ("refused",), says, who)


def refused(name: str, kind: Any, says: str = "", who: str = "ann", **fields: Any) -> Case:
    return act(name, {"kind": kind, **fields}, "refused", says=says, who=who)


def late(name: str, kind: str, says: str = "deadline", who: str = "ann", **fields: Any) -> Case:
    frame = json.dumps({"type": "action", "id": name, "action": {"kind": kind, **fields}})
    return Case(name, frame, ("refused",), says, who, late=True)


def action_text(name: str, body: str, ident: str | None = None) -> str:
    """An action frame written by hand: for what json.dumps will not write."""
    ident = ident if ident is not None else json.dumps(name)
    return f'{{"type": "action", "id": {ident}, "action": {body}}}'


def form(name: str, says: str = "", who: str = "ann", **fields: Any) -> Case:
    """A page form as htmx's ws extension sends it: its fields, and the request headers."""
    frame = json.dumps({**fields, "HEADERS": {"HX-Request": "true", "HX-Trigger": name[:20]}})
    return Case(name, frame, (), says, who)


def page_raw(name: str, text: str | bytes, says: str = "", who: str = "ann") -> Case:
    return Case(name, text, (), says, who)


MALFORMED = [
    raw("not-json", "not json", "bad_json"),
    raw("empty-text", "", "bad_json"),
    raw("whitespace-only", " \n\t ", "bad_json"),
    raw("lone-brace", "{", "bad_json"),
    raw("truncated-action", '{"type": "action", "id": "t1", "action": {"kind": "ante"', "bad_json"),
    raw("truncated-sync", '{"type": "sync"', "bad_json"),
    raw("truncated-string", '{"type": "sy', "bad_json"),
    raw("single-quotes", "{'type': 'sync'}", "bad_json"),
    raw("trailing-comma", '{"type": "sync",}', "bad_json"),
    raw("trailing-comment", '{"type": "sync"} // and more', "bad_json"),
    raw("two-objects", '{"type": "sync"}{"type": "sync"}', "bad_json"),
    raw("byte-order-mark", '\ufeff{"type": "sync"}', "bad_json"),
    raw("json-null", "null", "bad_message"),
    raw("json-true", "true", "bad_message"),
    raw("json-number", "42", "bad_message"),
    raw("json-string", '"sync"', "bad_message"),
    raw("json-empty-array", "[]", "bad_message"),
    raw("json-array-of-messages", '[{"type": "sync"}]', "bad_message"),
    raw("nan-literal-alone", "NaN", "bad_message", "bad_json"),
    raw("minus-infinity-literal-alone", "-Infinity", "bad_message", "bad_json"),
    raw("binary-json", b'{"type": "sync"}', "bad_frame"),
    raw("binary-garbage", bytes(range(256)), "bad_frame"),
    raw("binary-empty", b"", "bad_frame"),
    # A lone surrogate cannot be UTF-8: the text is not JSON a client could have sent.
    raw("raw-lone-surrogate", "\ud800", "bad_json", "bad_frame"),
    raw(
        "raw-lone-surrogate-in-json",
        '{"type": "action", "id": "sur-raw", "action": {"kind": "\udfff"}}',
        "bad_json",
        "bad_frame",
        "refused",
    ),
    # Escapes can make what UTF-8 text cannot (a lone surrogate), or what no column takes (NUL).
    raw("escaped-lone-surrogate-kind", action_text("esc-kind", '{"kind": "\\ud800"}'),
        "bad_json", "refused"),
    raw("escaped-lone-surrogate-id", action_text("", '{"kind": "ante"}', '"\\udfff"'),
        "bad_json", "refused"),
    raw("nul-in-kind", action_text("nul-kind", '{"kind": "ante\\u0000"}'), "bad_json", "refused"),
    raw("nul-in-choice", action_text("nul-choice", '{"kind": "declare", "choice": "in\\u0000"}'),
        "bad_json", "refused"),
    raw("raw-nul-in-string", action_text("raw-nul", '{"kind": "ante\x00"}'), "bad_json"),
    raw("nested-arrays-3000", "[" * 3000 + "]" * 3000, "bad_json", says="nested too deeply"),
    raw("nested-objects-3000", '{"a":' * 3000 + "1" + "}" * 3000, "too_large"),
    raw("nested-objects-1500", '{"":' * 1500 + "1" + "}" * 1500, "bad_json"),
    raw(
        "nested-amount-3000",
        action_text("deep-amount", '{"kind": "top_up", "amount": ' + "[" * 3000 + "]" * 3000 + "}"),
        "bad_json",
    ),
    raw(
        "nested-action-1200",
        action_text("deep-action", '{"kind": "top_up", "x": ' + '{"a":' * 1200 + "1" + "}" * 1201),
        "bad_json",
    ),
    raw("nan-literal-amount", action_text("nan-amt", '{"kind": "top_up", "amount": NaN}'),
        "refused", "bad_json", "bad_amount"),
    raw("infinity-literal-amount", action_text("inf-amt", '{"kind": "top_up", "amount": Infinity}'),
        "refused", "bad_json", "bad_amount"),
    raw("minus-infinity-literal-buy-in",
        action_text("minf-buy", '{"kind": "sit", "buy_in": -Infinity}'),
        "refused", "bad_json", "bad_amount", who="dan"),
    raw("nan-literal-id", action_text("", '{"kind": "ante"}', "NaN"), "bad_id", "bad_json"),
    raw("nan-literal-seat",
        action_text("nan-seat", '{"kind": "top_up", "amount": 100, "seat": NaN}'),
        "refused", "bad_json"),
    raw("duplicate-type", '{"type": "sync", "type": "shout"}', "bad_type"),
    raw("duplicate-amount",
        action_text("dup-amt", '{"kind": "top_up", "amount": 100, "amount": -5}'), "bad_amount"),
    raw("duplicate-kind",
        action_text("dup-kind", '{"kind": "top_up", "kind": "deal", "amount": 1}'),
        "refused", says="unknown action"),
    raw("duplicate-action",
        action_text("dup-act", '{"kind": "top_up", "amount": 1}, "action": {"kind": "fly"}'),
        "refused"),
    raw("duplicate-id",
        '{"type": "action", "id": "dup-id", "id": true, "action": {"kind": "ante"}}', "bad_id"),
]  # fmt: skip

HUGE = [
    message("sync-padded-over-8kb", {"type": "sync", "pad": "x" * 9000}, "too_large"),
    raw("text-8193-chars", "x" * 8193, "too_large"),
    raw("text-one-megabyte", "[" * 1_000_000, "too_large"),
    raw("multibyte-over-8kb", json.dumps({"type": "sync", "pad": "€" * 3000}, ensure_ascii=False),
        "too_large"),
    raw("binary-100kb", b"\xff" * 100_000, "bad_frame", "too_large"),
    raw("id-5000-digits", action_text("", '{"kind": "ante"}', NINES_5000), "bad_json"),
    raw("amount-5000-digits", action_text("amt5k", f'{{"kind": "top_up", "amount": {NINES_5000}}}'),
        "bad_json"),
    raw("negative-amount-5000-digits",
        action_text("namt5k", f'{{"kind": "top_up", "amount": -{NINES_5000}}}'), "bad_json"),
    raw("seat-5000-digits",
        action_text("seat5k", f'{{"kind": "top_up", "amount": 100, "seat": {NINES_5000}}}'),
        "bad_json"),
    raw("buy-in-5000-digits", action_text("buy5k", f'{{"kind": "sit", "buy_in": {NINES_5000}}}'),
        "bad_json", who="dan"),
    raw("pair-plus-5000-digits",
        action_text("pp5k", f'{{"kind": "bet", "ante": 100, "pair_plus": {NINES_5000}}}'),
        "bad_json"),
    raw("id-4000-digits", action_text("", '{"kind": "ante"}', NINES_4000), "bad_id"),
    raw("amount-4000-digits", action_text("amt4k", f'{{"kind": "top_up", "amount": {NINES_4000}}}'),
        "bad_amount"),
    raw("ante-4000-digits", action_text("ante4k", f'{{"kind": "ante", "ante": {NINES_4000}}}'),
        "bad_amount"),
    raw("seat-4000-digits",
        action_text("seat4k", f'{{"kind": "top_up", "amount": 100, "seat": {NINES_4000}}}'),
        "refused", says="own seat"),
    raw("amount-1e999997-literal", action_text("amt-e", '{"kind": "top_up", "amount": 1e999997}'),
        "refused", "bad_amount"),
    act("amount-10-to-the-13", {"kind": "top_up", "amount": 10**13}, "bad_amount"),
    act("amount-just-over-range", {"kind": "top_up", "amount": 10**12 + 1}, "bad_amount"),
    act("buy-in-minus-10-to-the-20", {"kind": "sit", "buy_in": -(10**20)}, "bad_amount", who="dan"),
    message("id-10-to-the-70", {"type": "action", "id": 10**70, "action": {"kind": "ante"}},
            "bad_id"),
    message("id-5000-chars", {"type": "action", "id": "i" * 5000, "action": {"kind": "ante"}},
            "bad_id"),
    message("id-65-chars", {"type": "action", "id": "i" * 65, "action": {"kind": "ante"}},
            "bad_id"),
    message("id-list-of-1000", {"type": "action", "id": list(range(1000)),
                                "action": {"kind": "ante"}}, "bad_id"),
    act("kind-5000-chars", {"kind": "k" * 5000}, "bad_action"),
    act("kind-41-chars", {"kind": "k" * 41}, "bad_action"),
    message("type-5000-chars", {"type": "t" * 5000}, "bad_type"),
    refused("card-5000-chars", "pass", card="A" * 5000),
    refused("choice-5000-chars", "declare", choice="i" * 5000),
    refused("amount-5000-char-string", "top_up", amount=NINES_5000),
    act("keys-500-in-action", {"kind": "fly", **{f"k{i}": i for i in range(500)}}, "refused"),
    message("keys-500-in-message", {"type": "action", "id": "keys-msg",
                                    "action": {"kind": "top_up", "amount": "x"},
                                    **{f"k{i}": i for i in range(500)}}, "refused"),
    refused("deck-of-1000-cards", "deal", deck=["As"] * 1000, says="unknown action"),
]  # fmt: skip

UNKNOWN = [
    message("type-missing", {"id": "no-type", "action": {"kind": "ante"}}, "bad_type"),
    message("type-shout", {"type": "shout"}, "bad_type", says="shout"),
    message("type-upper-sync", {"type": "SYNC"}, "bad_type"),
    message("type-sync-trailing-space", {"type": "sync "}, "bad_type"),
    message(
        "type-action-leading-space",
        {"type": " action", "id": 1, "action": {"kind": "ante"}},
        "bad_type",
    ),
    message("type-ack", {"type": "ack", "id": 1}, "bad_type"),
    message("type-state", {"type": "state", "version": 10**6, "table": {}}, "bad_type"),
    message("type-error", {"type": "error", "code": "internal"}, "bad_type"),
    message("type-empty", {"type": ""}, "bad_type"),
    message("type-null", {"type": None}, "bad_type"),
    message("type-number", {"type": 7}, "bad_type"),
    message("type-list", {"type": ["sync"]}, "bad_type"),
    message("type-object", {"type": {"type": "sync"}}, "bad_type"),
    message("type-bool", {"type": True}, "bad_type"),
    refused("kind-fly", "fly", says="unknown action"),
    refused("kind-empty", "", says="unknown action"),
    refused("kind-upper-ante", "ANTE", says="unknown action"),
    refused("kind-leading-space", " ante", says="unknown action"),
    refused("kind-trailing-newline", "ante\n", says="unknown action"),
    refused("kind-fullwidth", "ａｎｔｅ", says="unknown action"),
    # System kinds: only the runtime, the clock and the presence tracker send these.
    refused("kind-deal", "deal", says="unknown action", deck=[str(c) for c in DECK]),
    refused("kind-timeout", "timeout", says="unknown action"),
    refused("kind-connect", "connect", says="unknown action", seat=0),
    refused("kind-disconnect", "disconnect", says="unknown action", seat=1),
    refused("kind-restore", "restore", says="unknown action", state={"phase": "waiting"}),
    refused("kind-void", "void", says="unknown action"),
    refused("kind-kick", "kick", says="unknown action", seat=1),
    refused("kind-pause", "pause", says="unknown action"),
    refused("kind-close", "close", says="unknown action"),
    refused("kind-settle", "settle", says="unknown action"),
    refused("kind-dunder-class", "__class__", says="unknown action"),
    refused("kind-check", "check", says="unknown action"),
    refused("kind-raise", "raise", says="unknown action", amount=100),
    refused("kind-suggest-at-guts", "suggest", says="Chinese Poker"),
    refused("kind-sync-as-action", "sync", says="unknown action"),
]

WRONG_TYPES = [
    message("id-object", {"type": "action", "id": {}, "action": {"kind": "ante"}}, "bad_id"),
    message("id-list", {"type": "action", "id": [1], "action": {"kind": "ante"}}, "bad_id"),
    message("id-true", {"type": "action", "id": True, "action": {"kind": "ante"}}, "bad_id"),
    message("id-false", {"type": "action", "id": False, "action": {"kind": "ante"}}, "bad_id"),
    message("id-null", {"type": "action", "id": None, "action": {"kind": "ante"}}, "bad_id"),
    message("id-float", {"type": "action", "id": 1.5, "action": {"kind": "ante"}}, "bad_id"),
    message("id-missing", {"type": "action", "action": {"kind": "ante"}}, "bad_id"),
    message("action-string", {"type": "action", "id": "a-s", "action": "ante"}, "bad_action"),
    message("action-list", {"type": "action", "id": "a-l", "action": ["ante"]}, "bad_action"),
    message("action-null", {"type": "action", "id": "a-n", "action": None}, "bad_action"),
    message("action-missing", {"type": "action", "id": "a-m"}, "bad_action"),
    message("action-number", {"type": "action", "id": "a-7", "action": 7}, "bad_action"),
    act("action-empty-object", {}, "bad_action"),
    act("action-capital-kind-key", {"Kind": "ante"}, "bad_action"),
    act("kind-number", {"kind": 7}, "bad_action"),
    act("kind-null", {"kind": None}, "bad_action"),
    act("kind-list", {"kind": ["ante"]}, "bad_action"),
    act("kind-object", {"kind": {"kind": "ante"}}, "bad_action"),
    act("kind-bool", {"kind": True}, "bad_action"),
    act("kind-float", {"kind": 1.5}, "bad_action"),
    # Amounts in cents are whole numbers: the JSON socket takes no text, fraction or flag.
    refused("top-up-amount-text", "top_up", amount="12.50"),
    refused("top-up-amount-digits-text", "top_up", amount="100"),
    refused("top-up-amount-float", "top_up", amount=12.5),
    refused("top-up-amount-whole-float", "top_up", amount=100.0),
    refused("top-up-amount-true", "top_up", amount=True),
    refused("top-up-amount-false", "top_up", amount=False),
    refused("top-up-amount-null", "top_up", amount=None),
    refused("top-up-amount-list", "top_up", amount=[100]),
    refused("top-up-amount-object", "top_up", amount={"cents": 100}),
    act("top-up-amount-negative", {"kind": "top_up", "amount": -5}, "bad_amount"),
    refused("top-up-amount-zero", "top_up", amount=0),
    refused("top-up-amount-missing", "top_up"),
    refused("top-up-amount-nan-text", "top_up", amount="NaN"),
    refused("top-up-amount-snan-text", "top_up", amount="sNaN"),
    refused("top-up-amount-1e999997-text", "top_up", amount="1e999997"),
    refused("top-up-amount-1e1000000-text", "top_up", amount="1e1000000"),
    refused("top-up-amount-minus-5-text", "top_up", amount="-5"),
    refused("top-up-amount-three-decimals", "top_up", amount="12.345"),
    refused("top-up-amount-commas", "top_up", amount="$1,2,3"),
    refused("top-up-amount-arabic-digits", "top_up", amount="١٢٣"),
    refused("top-up-amount-empty-text", "top_up", amount=""),
    act("top-up-amount-huge", {"kind": "top_up", "amount": 10**15}, "bad_amount"),
    refused("sit-buy-in-text", "sit", who="dan", buy_in="20000"),
    refused("sit-buy-in-dollars-text", "sit", who="dan", buy_in="200.00"),
    refused("sit-buy-in-whole-float", "sit", who="dan", buy_in=20000.0),
    refused("sit-buy-in-true", "sit", who="dan", buy_in=True),
    refused("sit-buy-in-null", "sit", who="dan", buy_in=None),
    refused("sit-buy-in-list", "sit", who="dan", buy_in=[20000]),
    refused("sit-buy-in-object", "sit", who="dan", buy_in={"cents": 20000}),
    act("sit-buy-in-negative", {"kind": "sit", "buy_in": -1}, "bad_amount", who="dan"),
    refused("sit-buy-in-zero", "sit", who="dan", buy_in=0),
    refused("sit-buy-in-missing", "sit", who="dan"),
    refused("sit-buy-in-nan-text", "sit", who="dan", buy_in="NaN"),
    refused("sit-buy-in-1e999997-text", "sit", who="dan", buy_in="1e999997"),
    refused("sit-buy-in-arabic-digits", "sit", who="dan", buy_in="١٢٣"),
    act("sit-buy-in-huge", {"kind": "sit", "buy_in": 10**13}, "bad_amount", who="dan"),
    act("ante-field-negative", {"kind": "ante", "ante": -100}, "bad_amount"),
    act("pair-plus-field-huge", {"kind": "bet", "ante": 100, "pair_plus": 10**13}, "bad_amount"),
    refused("seat-as-text", "top_up", amount=100, seat="0"),
    refused("seat-as-list", "top_up", amount=100, seat=[0]),
    refused("seat-as-object", "top_up", amount=100, seat={"seat": 0}),
    refused("seat-as-true", "top_up", amount=100, seat=True),
    refused("seat-as-fraction", "top_up", amount=100, seat=0.5),
]

AMOUNTS = [
    refused("buy-in-below-minimum", "sit", who="dan", says="least", buy_in=9_999),
    refused("buy-in-one-cent", "sit", who="dan", says="least", buy_in=1),
    refused("buy-in-above-maximum", "sit", who="dan", says="most", buy_in=200_001),
    refused("buy-in-above-bankroll", "sit", who="dan", buy_in=150_000),
    refused("buy-in-at-range-limit", "sit", who="dan", buy_in=10**12),
    refused("top-up-above-maximum", "top_up", says="exceed", amount=180_001),
    refused("top-up-above-bankroll", "top_up", amount=90_000),
    refused("top-up-at-range-limit", "top_up", amount=10**12),
    refused("top-up-not-seated", "top_up", who="dan", says="not seated", amount=100),
    refused("ante-not-seated", "ante", who="dan", says="not seated"),
    refused("leave-not-seated", "leave", who="dan", says="not seated"),
    refused("sit-out-not-seated", "sit_out", who="dan", says="not seated"),
    refused("sit-in-while-playing", "sit_in", says="not sitting out"),
    refused("sit-twice", "sit", says="already in seat", buy_in=20_000),
]

FORGED_REFUSED = [
    refused("top-up-for-another-seat", "top_up", says="own seat", amount=100, seat=1),
    refused("top-up-for-negative-seat", "top_up", says="own seat", amount=100, seat=-1),
    refused("top-up-for-seat-beyond-table", "top_up", says="own seat", amount=100, seat=99),
    refused("top-up-for-seat-count", "top_up", says="own seat", amount=100, seat=6),
    refused("top-up-for-another-seat-as-float", "top_up", says="own seat", amount=100, seat=1.0),
    refused("sit-out-for-another-seat", "sit_out", says="own seat", seat=1),
    refused("leave-for-another-seat", "leave", says="own seat", seat=1),
    refused("leave-another-seat-with-user", "leave", says="own seat", seat=1, user="ben"),
    refused("top-up-naming-another-table", "top_up", says="this connection is for table",
            amount=100, table="$OTHER"),
    refused("top-up-naming-no-table", "top_up", says="this connection is for table",
            amount=100, table=999_999),
    refused("top-up-naming-table-as-text", "top_up", amount=100, table="$TABLE_TEXT"),
    refused("top-up-naming-table-null", "top_up", amount=100, table=None),
    refused("sit-naming-another-table", "sit", who="dan", buy_in=20_000, table="$OTHER"),
    refused("top-up-for-seat-while-standing", "top_up", who="dan", says="not seated",
            amount=100, seat=0),
    refused("sit-out-for-seat-while-standing", "sit_out", who="dan", says="not seated", seat=0),
    refused("leave-for-seat-while-standing", "leave", who="dan", says="not seated", seat=1),
    refused("ante-with-forged-extras", "ante", **FORGED),
    refused("top-up-bad-amount-forged-extras", "top_up", amount="12.50", **FORGED),
    refused("sit-forged-stack-no-buy-in", "sit", who="dan", stack=20_000, player="dan"),
]  # fmt: skip

#: The quiet table's cases, by kind: each kind runs on its own connections.
QUIET_TABLE_CASES = {
    "malformed": MALFORMED,
    "huge": HUGE,
    "unknown": UNKNOWN,
    "wrong-types": WRONG_TYPES,
    "rule-amounts": AMOUNTS,
    "forged": FORGED_REFUSED,
}

# Online Guts, a hand: ann, ben and cat are seated; dan watches.
GUTS_ANTE_CALL = [
    refused("declare-before-the-deal", "declare", says="no hand", choice="in"),
    refused("play-at-guts", "play", says="unknown action"),
    refused("fold-at-guts", "fold", says="unknown action"),
    refused("bet-at-guts", "bet", says="unknown action", ante=100),
    refused("set-at-guts", "set", says="unknown action", front="As Ah 2h"),
    refused("submit-at-guts", "submit", says="unknown action"),
    refused("surrender-at-guts", "surrender", says="unknown action"),
    refused("declare-natural-at-guts", "declare_natural", says="unknown action", natural="dragon"),
    refused("pass-at-guts", "pass", says="unknown action", card="As"),
    refused("choose-at-guts", "choose", says="unknown action", choice="in"),
    refused("ante-for-another-seat", "ante", says="own seat", seat=1),
    refused("ante-watching", "ante", who="dan", says="not seated"),
]
GUTS_ANTED = [
    refused("ante-twice", "ante", says="not asked to ante"),
    refused("decline-after-ante", "decline", says="nothing to decline"),
    refused("top-up-in-the-ante-call", "top_up", amount="500"),
]
GUTS_ANTE_LATE = [
    late("ante-after-its-deadline", "ante", who="cat"),
    late("decline-after-its-deadline", "decline", who="cat"),
]
GUTS_DECLARE = [
    refused("choice-number", "declare", says="choose 'in' or 'out'", choice=1),
    refused("choice-list", "declare", says="choose 'in' or 'out'", choice=["in"]),
    refused("choice-object", "declare", says="choose 'in' or 'out'", choice={"in": True}),
    refused("choice-null", "declare", says="choose 'in' or 'out'", choice=None),
    refused("choice-true", "declare", says="choose 'in' or 'out'", choice=True),
    refused("choice-missing", "declare", says="choose 'in' or 'out'"),
    refused("choice-upper", "declare", says="choose 'in' or 'out'", choice="IN"),
    refused("choice-padded", "declare", says="choose 'in' or 'out'", choice=" in "),
    refused("choice-empty", "declare", says="choose 'in' or 'out'", choice=""),
    refused("choice-high-at-online-guts", "declare", says="choose 'in' or 'out'", choice="high"),
    refused("declare-for-another-seat", "declare", says="own seat", choice="in", seat=1),
    refused("declare-for-negative-seat", "declare", says="own seat", choice="in", seat=-1),
    refused("declare-for-seat-beyond", "declare", says="own seat", choice="in", seat=99),
    refused("declare-naming-another-table", "declare", choice="in", table="$OTHER"),
    refused("declare-not-dealt-in", "declare", who="cat", says="no hand", choice="in"),
    refused("declare-watching", "declare", who="dan", says="not seated", choice="in"),
    refused("top-up-in-a-hand", "top_up", says="in a hand", amount=100),
    refused("ante-in-the-declare", "ante", says="not asked to ante"),
    refused("deal-with-a-chosen-deck", "deal", says="unknown action",
            deck=[str(c) for c in DECK]),
    refused("timeout-in-the-declare", "timeout", says="unknown action"),
]  # fmt: skip
GUTS_DECIDED = [refused("declare-twice", "declare", says="final", choice="out")]
GUTS_DECLARE_LATE = [
    late("declare-after-its-deadline", "declare", who="ben", choice="in"),
    late("declare-out-after-its-deadline", "declare", who="ben", choice="out"),
]

# Three Card Poker: ann and ben seated with $100, dan watches.
TCP_BETTING = [
    refused("ante-below-minimum", "bet", says="from $1.00 to $100.00", ante=50),
    refused("ante-above-maximum", "bet", says="from $1.00 to $100.00", ante=20_000),
    refused("ante-stack-cannot-cover", "bet", says="cannot cover", ante=5_000, pair_plus=1),
    refused("pair-plus-alone", "bet", says="Pair Plus alone", ante=0, pair_plus=100),
    refused("pair-plus-above-maximum", "bet", says="at most", ante=100, pair_plus=10_001),
    refused("ante-text", "bet", says="whole number of cents", ante="100"),
    refused("ante-float", "bet", says="whole number of cents", ante=100.5),
    refused("ante-whole-float", "bet", says="whole number of cents", ante=100.0),
    refused("ante-true", "bet", says="whole number of cents", ante=True),
    refused("ante-null", "bet", says="whole number of cents", ante=None),
    refused("ante-list", "bet", says="whole number of cents", ante=[100]),
    refused("ante-nan-text", "bet", says="whole number of cents", ante="NaN"),
    refused("ante-1e999997-text", "bet", says="whole number of cents", ante="1e999997"),
    refused("ante-arabic-digits", "bet", says="whole number of cents", ante="١٢٣"),
    refused("ante-missing", "bet", says="Ante is needed"),
    act("ante-negative", {"kind": "bet", "ante": -100}, "bad_amount"),
    act("ante-huge", {"kind": "bet", "ante": 10**13}, "bad_amount"),
    refused("pair-plus-text", "bet", says="whole number of cents", ante=100, pair_plus="50"),
    refused("pair-plus-float", "bet", says="whole number of cents", ante=100, pair_plus=50.5),
    refused("pair-plus-true", "bet", says="whole number of cents", ante=100, pair_plus=True),
    act("pair-plus-negative", {"kind": "bet", "ante": 100, "pair_plus": -1}, "bad_amount"),
    refused("play-before-the-deal", "play", says="no hand to play"),
    refused("fold-before-the-deal", "fold", says="no hand to fold"),
    refused("declare-at-three-card-poker", "declare", says="unknown action", choice="in"),
    refused("ante-kind-at-three-card-poker", "ante", says="unknown action"),
    refused("bet-watching", "bet", who="dan", says="not seated", ante=100),
    refused("bet-for-another-seat", "bet", says="own seat", ante=100, seat=1),
]
TCP_BET_PLACED = [
    refused("bet-twice", "bet", says="already bet", ante=100),
    refused("top-up-after-betting", "top_up", says="between rounds", amount=100),
]
TCP_BET_LATE = [late("bet-after-its-deadline", "bet", who="ben", ante=100)]
TCP_DECIDING = [
    refused("play-amount-too-small", "play", says="exactly the Ante", amount=50),
    refused("play-amount-text", "play", says="exactly the Ante", amount="100"),
    refused("play-amount-true", "play", says="exactly the Ante", amount=True),
    refused("play-without-a-hand", "play", who="ben", says="no hand to play"),
    refused("bet-after-the-deal", "bet", says="bets are closed", ante=100),
]
TCP_DECIDING_LATE = [
    late("play-after-its-deadline", "play"),
    late("fold-after-its-deadline", "fold"),
]

# Chinese Poker: ann (seat 0) and ben (seat 1) dealt their fixed hands; dan watches.
CP_SETTING = [
    refused("set-someone-elses-cards", "set", says="exactly your 13 cards", **CP_BEN),
    refused("set-half-someone-elses", "set", says="exactly your 13 cards",
            front=CP_ANN["front"], middle=CP_BEN["middle"], back=CP_BEN["back"]),
    refused("set-a-card-twice", "set", says="twice",
            **{**CP_ANN, "front": "As As 2h"}),
    refused("set-rows-of-numbers", "set", **{**CP_ANN, "front": [1, 2, 3]}),
    refused("set-rows-of-lists", "set", **{**CP_ANN, "front": [["As"], ["Ah"], ["2h"]]}),
    refused("set-rows-of-nulls", "set", **{**CP_ANN, "front": [None, None, None]}),
    refused("set-row-number", "set", says="missing", **{**CP_ANN, "back": 5}),
    refused("set-row-object", "set", says="missing", **{**CP_ANN, "middle": {"a": 1}}),
    refused("set-row-5000-chars", "set", **{**CP_ANN, "front": "As " * 1666}),
    refused("set-no-rows", "set", says="missing"),
    refused("set-for-another-seat", "set", says="own seat", seat=1, **CP_BEN),
    refused("set-watching", "set", who="dan", says="not seated", **CP_ANN),
    refused("submit-before-set", "submit", says="before submitting"),
    refused("natural-unknown", "declare_natural", says="unknown natural", natural="rainbow"),
    refused("natural-list", "declare_natural", says="unknown natural", natural=["dragon"]),
    refused("natural-null", "declare_natural", says="unknown natural", natural=None),
    refused("suggest-watching", "suggest", who="dan", says="no hand being set"),
    refused("declare-at-chinese-poker", "declare", choice="in"),
    refused("play-at-chinese-poker", "play"),
    refused("pass-at-chinese-poker", "pass", card="As"),
    refused("top-up-mid-hand", "top_up", says="between hands", amount=500),
]  # fmt: skip
CP_SETTING_LATE = [
    late("set-after-its-deadline", "set", who="ben", **CP_BEN),
    late("submit-after-its-deadline", "submit", who="ben"),
    late("surrender-after-its-deadline", "surrender", who="ben"),
    late("natural-after-its-deadline", "declare_natural", who="ben", natural="dragon"),
]

# Classic Guts, sequential declare (Kitty): the seat whose turn it is, and the others.
CLASSIC_DECLARE = [
    refused("declare-out-of-turn", "declare", who="early", says="turn", choice="in"),
    refused("declare-out-out-of-turn", "declare", who="later", says="turn", choice="out"),
    refused("declare-for-the-seat-whose-turn", "declare", who="early", says="own seat",
            choice="in", seat="$TURN"),
    refused("declare-high-at-classic", "declare", who="turn", says="choose", choice="high"),
    refused("declare-choice-number-classic", "declare", who="turn", says="choose", choice=0),
    refused("declare-watching-classic", "declare", who="dan", says="not seated", choice="in"),
]  # fmt: skip
CLASSIC_DECLARE_LATE = [late("classic-declare-after-its-deadline", "declare", who="turn",
                             choice="in")]  # fmt: skip

# Classic Guts with pass-left: ann and ben each hold three cards.
CLASSIC_PASS = [
    refused("pass-a-card-nobody-holds", "pass", says="pass one of your cards", card="$NOBODYS"),
    refused("pass-someone-elses-card", "pass", says="pass one of your cards", card="$BENS"),
    refused("pass-empty-card", "pass", says="pass one of your cards", card=""),
    refused("pass-card-number", "pass", says="pass one of your cards", card=5),
    refused("pass-card-null", "pass", says="pass one of your cards", card=None),
    refused("pass-card-list", "pass", says="pass one of your cards", card=["$ANNS"]),
    refused("pass-two-cards", "pass", says="pass one of your cards", card="$ANNS_TWO"),
    refused("pass-for-another-seat", "pass", says="own seat", card="$BENS", seat=1),
    refused("declare-during-the-pass", "declare", says="no hand", choice="in"),
    refused("pass-watching", "pass", who="dan", says="not seated", card="$ANNS"),
]
CLASSIC_PASSED = [refused("pass-twice", "pass", says="already passed", card="$ANNS")]
CLASSIC_PASS_LATE = [late("pass-after-its-deadline", "pass", who="ben", card="$BENS")]

# The page socket: forms of text, amounts in dollars; ann is seated with $200, dan watches.
PAGE = [
    form("page-top-up-1e999997", "not an amount in dollars", kind="top_up", amount="1e999997"),
    form("page-top-up-1e1000000", "not an amount in dollars", kind="top_up", amount="1e1000000"),
    form("page-top-up-snan", "not an amount in dollars", kind="top_up", amount="sNaN"),
    form("page-top-up-nan", "not an amount in dollars", kind="top_up", amount="NaN"),
    form("page-top-up-infinity", "not an amount in dollars", kind="top_up", amount="Infinity"),
    form("page-top-up-minus-5", "not an amount in dollars", kind="top_up", amount="-5"),
    form("page-top-up-three-decimals", "at most two decimals", kind="top_up", amount="12.345"),
    form("page-top-up-odd-commas", "not an amount in dollars", kind="top_up", amount="$1,2,3"),
    form("page-top-up-5000-digits", "not an amount in dollars", kind="top_up", amount=NINES_5000),
    form("page-top-up-arabic-digits", "not an amount in dollars", kind="top_up", amount="١٢٣"),
    form("page-top-up-fullwidth-digits", "not an amount in dollars", kind="top_up",
         amount="１２"),
    form("page-top-up-empty", "not an amount in dollars", kind="top_up", amount=""),
    form("page-top-up-spaces", "not an amount in dollars", kind="top_up", amount="   "),
    form("page-top-up-hex", "not an amount in dollars", kind="top_up", amount="0x10"),
    form("page-top-up-underscores", "not an amount in dollars", kind="top_up", amount="1_000"),
    form("page-top-up-two-points", "not an amount in dollars", kind="top_up", amount="12.50.1"),
    form("page-top-up-exponent", "not an amount in dollars", kind="top_up", amount="1e3"),
    form("page-top-up-roman", "not an amount in dollars", kind="top_up", amount="Ⅻ"),
    form("page-top-up-nul", "", kind="top_up", amount="12\u0000"),
    form("page-top-up-lone-surrogate", "", kind="top_up", amount="\ud800"),
    form("page-top-up-words", "not an amount in dollars", kind="top_up", amount="two dollars"),
    form("page-top-up-float", "number of dollars", kind="top_up", amount=12.5),
    form("page-top-up-true", "number of dollars", kind="top_up", amount=True),
    form("page-top-up-null", "number of dollars", kind="top_up", amount=None),
    form("page-top-up-list", "number of dollars", kind="top_up", amount=["12"]),
    form("page-top-up-object", "number of dollars", kind="top_up", amount={"dollars": 12}),
    form("page-top-up-negative-number", "not an amount in dollars", kind="top_up", amount=-5),
    form("page-top-up-out-of-range", "out of range", kind="top_up", amount="10000000000.01"),
    page_raw("page-top-up-5000-digit-number",
             '{"kind": "top_up", "amount": ' + NINES_5000 + "}", "not JSON"),
    form("page-top-up-zero", "positive", kind="top_up", amount="0"),
    form("page-top-up-zero-cents", "positive", kind="top_up", amount="0.00"),
    form("page-top-up-above-maximum", "exceed", kind="top_up", amount="1800.01"),
    form("page-top-up-above-bankroll", "", kind="top_up", amount="900"),
    form("page-top-up-not-seated", "not seated", who="dan", kind="top_up", amount="12.50"),
    form("page-sit-below-minimum", "least", who="dan", kind="sit", buy_in="99.99"),
    form("page-sit-above-maximum", "most", who="dan", kind="sit", buy_in="2000.01"),
    form("page-sit-above-bankroll", "", who="dan", kind="sit", buy_in="1500"),
    form("page-sit-words", "not an amount in dollars", who="dan", kind="sit", buy_in="lots"),
    form("page-sit-1e999997", "not an amount in dollars", who="dan", kind="sit",
         buy_in="1e999997"),
    form("page-sit-without-buy-in", "buy-in", who="dan", kind="sit"),
    form("page-sit-twice", "already in seat", kind="sit", buy_in="200"),
    form("page-kind-unknown", "unknown action", kind="fly"),
    form("page-kind-empty", "unknown action", kind=""),
    form("page-kind-deal", "unknown action", kind="deal", deck=" ".join(str(c) for c in DECK)),
    form("page-kind-timeout", "unknown action", kind="timeout"),
    form("page-kind-connect", "unknown action", kind="connect"),
    form("page-kind-disconnect", "unknown action", kind="disconnect"),
    form("page-kind-restore", "unknown action", kind="restore", state="{}"),
    form("page-kind-number", "'kind'", kind=7),
    form("page-kind-null", "'kind'", kind=None),
    form("page-kind-list", "'kind'", kind=["top_up"]),
    form("page-kind-41-chars", "'kind'", kind="k" * 41),
    form("page-kind-suggest-at-guts", "Chinese Poker", kind="suggest"),
    form("page-no-kind", "unknown type", amount="12.50"),
    page_raw("page-empty-object", "{}", "unknown type"),
    page_raw("page-headers-only", '{"HEADERS": {"HX-Request": "true"}}', "unknown type"),
    form("page-type-action-without-kind", "'id'", type="action"),
    form("page-action-id-object", "'id'", kind="top_up", amount="1.00", action_id={"a": 1}),
    form("page-action-id-65-chars", "'id'", kind="top_up", amount="1.00", action_id="i" * 65),
    form("page-action-id-true", "'id'", kind="top_up", amount="1.00", action_id=True),
    form("page-ante-out-of-phase", "", kind="ante"),
    form("page-declare-out-of-phase", "no hand", kind="declare", choice="in"),
    form("page-top-up-another-seat", "own seat", kind="top_up", amount="1.00", seat="1"),
    form("page-top-up-another-table", "this connection is for table", kind="top_up",
         amount="1.00", table="$OTHER"),
    form("page-sit-out-another-seat", "own seat", kind="sit_out", seat=1),
    page_raw("page-not-json", "not json", "not JSON"),
    page_raw("page-empty-text", "", "not JSON"),
    page_raw("page-truncated-form", '{"kind": "top_up", "amount": "1', "not JSON"),
    page_raw("page-json-array", '[{"kind": "top_up"}]', "JSON object"),
    page_raw("page-json-null", "null", "JSON object"),
    page_raw("page-json-string", '"top_up"', "JSON object"),
    page_raw("page-binary-frame", b'{"kind": "top_up", "amount": "1.00"}', "binary"),
    page_raw("page-nested-3000", '{"kind": ' + "[" * 3000 + "]" * 3000 + "}", "nested too deeply"),
    page_raw("page-raw-lone-surrogate", '{"kind": "top_up", "amount": "\udfff"}', ""),
    page_raw("page-duplicate-amount", '{"kind": "top_up", "amount": "1.00", "amount": "x"}',
             "not an amount in dollars"),
    form("page-oversized-form", "at most 8192 bytes", kind="top_up", amount="1.00",
         note="x" * 9000),
    page_raw("page-oversized-multibyte",
             json.dumps({"kind": "top_up", "amount": "1.00", "note": "€" * 3000},
                        ensure_ascii=False),
             "at most 8192 bytes"),
]  # fmt: skip

#: Refused handshakes, checked on both sockets: the close code, or None when the Origin
#: validator refuses the handshake itself.
HANDSHAKES = [
    ("no-credentials", 4401),
    ("bad-token", 4401),
    ("empty-bearer", 4401),
    ("token-10kb", 4401),
    ("token-not-latin1-bytes", 4401),
    ("valid-token-wrong-scheme", 4401),
    ("deactivated-user-token", 4401),
    ("garbage-session-cookie", 4401),
    ("garbage-session-cookie-5kb", 4401),
    ("deactivated-user-session", 4401),
    ("no-such-table-no-credentials", 4401),
    ("no-such-table", 4404),
    ("table-zero", 4404),
    ("table-id-2-to-the-63", 4404),
    ("table-id-beyond-bigint", 4404),
    ("bad-origin", None),
    ("no-origin", None),
]

#: Floods beyond the rate limit (burst 3, 2 a second): the frame, and the answer it gets
#: while tokens last.
FLOODS = {
    "flood-syncs": ("sync", "state"),
    "flood-garbage": ("garbage", "bad_json"),
    "flood-binary": ("binary", "bad_frame"),
    "flood-oversized": ("oversized", "too_large"),
    "flood-refused-actions": ("refused", "refused"),
    "flood-one-id-replayed": ("replayed", "refused"),
    "flood-page-forms": ("page_form", "amount"),
    "flood-applied-top-ups": ("top_up", "ack"),
}
#: The burst and the refill (the rate limit's clock stands still while a flood is sent, and is
#: moved on by hand: the answers do not depend on how fast this machine is).
FLOOD_BURST, FLOOD_RATE, FLOOD_FRAMES = 3, 0.5, 10

#: Actions applied with fields a client made up: they must be ignored, and never journaled.
JOURNAL_CASES = [
    "sit-with-forged-extras",
    "sit-naming-a-taken-seat",
    "top-up-with-forged-extras",
    "sit-out-with-forged-extras",
    "sit-in-with-forged-extras",
    "leave-with-forged-extras",
    "declare-with-forged-extras",
    "chinese-set-with-junk-submit",
]

SCENARIO_CASES = [
    *GUTS_ANTE_CALL, *GUTS_ANTED, *GUTS_ANTE_LATE, *GUTS_DECLARE, *GUTS_DECIDED,
    *GUTS_DECLARE_LATE, *TCP_BETTING, *TCP_BET_PLACED, *TCP_BET_LATE, *TCP_DECIDING,
    *TCP_DECIDING_LATE, *CP_SETTING, *CP_SETTING_LATE, *CLASSIC_DECLARE, *CLASSIC_DECLARE_LATE,
    *CLASSIC_PASS, *CLASSIC_PASSED, *CLASSIC_PASS_LATE,
]  # fmt: skip


def all_case_names() -> list[str]:
    names = [case.name for cases in QUIET_TABLE_CASES.values() for case in cases]
    names += [case.name for case in SCENARIO_CASES]
    names += [case.name for case in PAGE]
    names += [f"{name}@{socket}" for name, _ in HANDSHAKES for socket in ("api", "page")]
    names += [*FLOODS, *JOURNAL_CASES]
    return names


def test_the_cases_are_many_and_distinct():
    names = all_case_names()
    repeated = sorted({name for name in names if names.count(name) > 1})
    assert not repeated, repeated
    assert len(names) >= 133, len(names)
    assert all(len(case.name) <= 64 for case in [*SCENARIO_CASES, *PAGE])  # usable as ids


# --- running cases -------------------------------------------------------------------------


class Gone(Exception):
    """The socket closed, the consumer failed, or no frame came in time."""


async def receive_text(communicator: WebsocketCommunicator, timeout: float = WAIT_SECONDS) -> str:
    try:
        output = await communicator.receive_output(timeout)
    except TimeoutError as error:  # the communicator cancels the consumer
        raise Gone(f"no frame within {timeout:.0f} s") from error
    except Exception as error:
        raise Gone(f"the consumer failed: {error!r}"[:300]) from error
    if output["type"] == "websocket.close":
        raise Gone(f"the socket was closed (code {output.get('code')})")
    if output.get("text") is None:
        raise Gone(f"a binary frame came back: {output!r:.120}")
    text: str = output["text"]
    return text


async def send_frame(communicator: WebsocketCommunicator, frame: str | bytes) -> None:
    # Straight to the consumer: send_to will not send an empty frame.
    key = "bytes" if isinstance(frame, bytes) else "text"
    await communicator.send_input({"type": "websocket.receive", key: frame})


@contextmanager
def late_clock(seconds: float = 3600) -> Iterator[None]:
    """The runtime's clock an hour on: every deadline has passed (the clock has not run)."""
    real = timezone.now
    moved = SimpleNamespace(now=lambda: real() + timedelta(seconds=seconds))
    with mock.patch.object(cardroom.tables.runtime, "timezone", moved):
        yield


async def snapshot(table_id: int) -> dict[str, Any]:
    """What no refused frame may change."""
    return {
        "version": await Table.objects.values_list("version", flat=True).aget(pk=table_id),
        "open seats": await Seat.objects.filter(table_id=table_id, left__isnull=True).acount(),
        # The journal: an applied action's row is also the receipt of its id.
        "journal": await TableAction.objects.filter(table_id=table_id).acount(),
        "transfers": await Transfer.objects.acount(),
        "balances": [a async for a in Account.objects.order_by("pk").values_list("pk", "balance")],
    }


def changed(before: dict[str, Any], after: dict[str, Any]) -> str:
    moved = [
        f"{key} {before[key]!r:.80} -> {after[key]!r:.80}"
        for key in before
        if before[key] != after[key]
    ]
    return "CHANGED " + "; ".join(moved)


def message_problems(text: Any, says: str) -> list[str]:
    if not isinstance(text, str) or not text.strip():
        return [f"no message for a person: {text!r:.80}"]
    problems = [f"the message shows internals ({marker!r}): {text:.200}" for marker in INTERNALS
                if marker in text]  # fmt: skip
    if says and says not in text:
        problems.append(f"the message does not say {says!r}: {text:.200}")
    return problems


def sendable(text: str) -> list[str]:
    """A frame a real server could send: its text must encode as UTF-8."""
    try:
        text.encode()
    except UnicodeEncodeError as error:
        return [f"the answer cannot be sent as UTF-8 ({error.reason} at {error.start})"]
    return []


def fill(frame: str | bytes, values: dict[str, str]) -> str | bytes:
    """Put run-time values (another table's id, a card held) in for their placeholders."""
    if isinstance(frame, bytes):
        return frame
    for placeholder, value in values.items():
        frame = frame.replace(placeholder, value)
    return frame


class Sockets:
    """The connections a test's cases are sent on, by who sends them; a socket a case killed
    is reopened for the cases after it."""

    def __init__(self, table: Table, connections: dict[str, Any], *, page: bool = False) -> None:
        self.table = table
        self.connections = connections
        self.page = page
        self.values: dict[str, str] = {}
        self.users: dict[str, str] = {}

    async def reopen(self, who: str) -> None:
        # It is dead, which is why it is reopened: its disconnect may fail too.
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await self.connections[who].communicator.disconnect()
        user = await User.objects.aget(username=self.users.get(who, who))
        token = await sync_to_async(token_create)(user=user)
        if self.page:
            page = Page(self.table.pk, token)
            await page.open()
            self.connections[who] = page
        else:
            client = Client(self.table.pk, token)
            await client.connect()
            self.connections[who] = client

    async def run(self, cases: list[Case]) -> list[str]:
        """Send each case, check its answer, that the socket still answers a sync, and that
        nothing changed; the failures, each naming its case."""
        failures = []
        for case in cases:
            before = await snapshot(self.table.pk)
            connection = self.connections[case.who]
            problems: list[str] = []
            try:
                with late_clock() if case.late else nullcontext():
                    started = time.process_time()
                    await send_frame(connection.communicator, fill(case.frame, self.values))
                    if self.page:
                        problems += await self.page_answer(connection, case)
                    else:
                        problems += await self.api_answer(connection, case)
                    took = time.process_time() - started
                if took > ANSWER_CPU_SECONDS:
                    problems.append(f"the answer took {took:.1f} s of processor time")
                problems += await self.still_open(connection)
            except Gone as gone:
                problems.append(str(gone))
                await self.reopen(case.who)
            after = await snapshot(self.table.pk)
            if after != before:
                problems.append(changed(before, after))
            if problems:
                failures.append(f"{case.name} [{case.who}]: " + " | ".join(problems))
        return failures

    async def api_answer(self, client: Client, case: Case) -> list[str]:
        while True:
            text = await receive_text(client.communicator)
            try:
                frame = json.loads(text)
            except ValueError:
                return [f"answered with text that is not JSON: {text[:120]!r}"]
            client.frames.append(frame)
            if frame.get("type") != "state":
                break
        if frame.get("type") != "error":
            return [f"answered {frame!r:.200}, not with an error"]
        problems = message_problems(frame.get("message"), case.says)
        code = frame.get("code")
        if case.codes and code not in case.codes:
            wanted = " or ".join(case.codes)
            problems.append(f"code {code!r}, not {wanted}: {frame['message']:.200}")
        elif code in ("internal", "unavailable") and code not in case.codes:
            problems.append(f"code {code!r}: {frame['message']:.200}")
        if code == "refused" and frame.get("id") != sent_id(case.frame):
            problems.append(f"the refusal names id {frame.get('id')!r:.40}, not the action's")
        return problems

    async def page_answer(self, page: Page, case: Case) -> list[str]:
        while True:
            text = await receive_text(page.communicator)
            page.frames.append(text)
            notice = NOTICE.search(text)
            if notice is not None:
                break
        said = html.unescape(notice["message"]).strip()
        return sendable(text) + message_problems(said, case.says)

    async def still_open(self, connection: Any) -> list[str]:
        """A sync after the answer gets the state: the socket stays open."""
        await connection.communicator.send_to(text_data=json.dumps({"type": "sync"}))
        text = await receive_text(connection.communicator)
        if self.page:
            connection.frames.append(text)
            if "data-version" not in text:
                return [f"a sync after it was answered with {text[:120]!r}"]
            return []
        frame = json.loads(text)
        connection.frames.append(frame)
        if frame.get("type") != "state":
            return [f"a sync after it was answered with {frame!r:.120}"]
        return []


def sent_id(frame: str | bytes) -> Any:
    """The id an action frame was sent with (None if it had none, or was not JSON)."""
    try:
        sent = json.loads(frame)
    except ValueError:
        return None
    return sent.get("id") if isinstance(sent, dict) else None


NOTICE = re.compile(r'<div id="notice"[^>]*>(?P<message>.*?)</div>', re.S)


def report(failures: list[str]) -> str:
    return f"{len(failures)} case(s) broke the contract:\n" + "\n".join(failures)


# --- tables and players --------------------------------------------------------------------


@pytest.fixture(autouse=True)
def no_rate_limit(settings):
    """Each case is two frames sent at once (the case and a sync): the rate limit has tests
    of its own (the floods below set theirs)."""
    settings.CARDROOM_WS_RATE_BURST = 100_000
    settings.CARDROOM_WS_RATE_PER_SECOND = 100_000


@pytest.fixture
def guts(db):
    """Online Guts with $100 to $2,000 buy-ins and clocks slow enough never to run out while
    the cases are sent (the clock is moved on by hand): the pauses too, or a case sent in one
    is answered "too late" rather than for what it is."""
    options = {"ante": 100, "seats": 6, "max_buy_in": 200_000}
    timers = {"ante_seconds": 600, "decision_seconds": 600, "showdown_seconds": 600,
              "top_up_seconds": 600}  # fmt: skip
    return table_create(
        game="guts", preset="survivor", options={**options, **timers}, name="Hostile"
    )


@pytest.fixture
def other_table(db):
    """Another open table: the one a forged ``table`` field names."""
    return table_create(
        game="guts", preset="survivor", options={"ante": 100, "seats": 6}, name="Elsewhere"
    )


async def caught_up(table: Table, *clients: Client) -> None:
    """Each client has the table's latest version, and nothing more is on its way."""
    await table.arefresh_from_db()
    for client in clients:
        while max((f["version"] for f in client.frames if f["type"] == "state"), default=-1) < (
            table.version
        ):
            await client.receive(timeout=10)
        while not await client.communicator.receive_nothing(timeout=0.02):
            await client.receive()


def values_for(table: Table, other: Table) -> dict[str, str]:
    return {'"$OTHER"': str(other.pk), "$TABLE_TEXT": str(table.pk)}


async def quiet_table(table: Table) -> dict[str, Client]:
    """Ann (seat 0) and Ben (seat 1) seated with $200 each, Dan watching: between hands."""
    ann, ben, dan = await make_clients(table, ["ann", "ben", "dan"])
    assert (await ann.act(kind="sit", buy_in=20_000, seat=0))["type"] == "ack"
    assert (await ben.act(kind="sit", buy_in=20_000, seat=1))["type"] == "ack"
    await caught_up(table, ann, ben, dan)
    return {"ann": ann, "ben": ben, "dan": dan}


async def close_all(connections: dict[str, Any]) -> None:
    """Disconnect them all at once: each may wait a moment for its consumer to stop."""
    await disconnect_all([connection.communicator for connection in connections.values()])


async def disconnect_all(communicators: list[WebsocketCommunicator]) -> None:
    await asyncio.gather(*(c.disconnect() for c in communicators), return_exceptions=True)


# --- the JSON socket: a quiet table --------------------------------------------------------


@pytest.mark.parametrize("kind", list(QUIET_TABLE_CASES))
async def test_bad_frames_at_a_quiet_table_are_answered_and_change_nothing(kind, guts, other_table):
    sockets = Sockets(guts, await quiet_table(guts))
    sockets.values = values_for(guts, other_table)
    await guts.arefresh_from_db()
    assert guts.state["phase"] in ("waiting", "pause")
    failures = await sockets.run(QUIET_TABLE_CASES[kind])
    # After all of it, the players can still play: a top-up is applied.
    ann = sockets.connections["ann"]
    assert (await ann.act(kind="top_up", amount=100))["type"] == "ack"
    await close_all(sockets.connections)
    assert not failures, report(failures)


# --- the JSON socket: a hand of online Guts ------------------------------------------------


async def test_out_of_turn_wrong_phase_and_late_actions_in_a_guts_hand(guts, other_table):
    names = ["ann", "ben", "cat", "dan"]
    clients = dict(zip(names, await make_clients(guts, names), strict=True))
    for seat, name in enumerate(("ann", "ben", "cat")):
        assert (await clients[name].act(kind="sit", buy_in=20_000, seat=seat))["type"] == "ack"
    sockets = Sockets(guts, clients)
    sockets.values = values_for(guts, other_table)
    await advance(guts)  # the pause before the first hand: the ante call
    await guts.arefresh_from_db()
    assert guts.state["phase"] == "ante"
    await caught_up(guts, *clients.values())
    failures = await sockets.run(GUTS_ANTE_CALL)
    assert (await sockets.connections["ann"].act(kind="ante"))["type"] == "ack"
    failures += await sockets.run(GUTS_ANTED)
    assert (await sockets.connections["ben"].act(kind="ante"))["type"] == "ack"
    await caught_up(guts, *sockets.connections.values())
    failures += await sockets.run(GUTS_ANTE_LATE)
    await advance(guts)  # the clock's timeout instead: Cat's ante call closes without her
    await guts.arefresh_from_db()
    assert guts.state["phase"] == "declare"
    declined = HandEvent.objects.filter(table=guts, type="ante_declined", data__seat=2)
    assert await declined.aexists(), [e.type async for e in HandEvent.objects.filter(table=guts)]
    await caught_up(guts, *sockets.connections.values())
    failures += await sockets.run(GUTS_DECLARE)

    # Fields Ann adds to her declare are not applied, and not journaled.
    ann = sockets.connections["ann"]
    assert (await ann.act(kind="declare", choice="in", **FORGED))["type"] == "ack"
    declared = await last_journaled(guts, "declare")
    keys = {"kind", "seat", "choice", "now"}
    failures += journal_problems("declare-with-forged-extras", declared, keys)
    await caught_up(guts, *sockets.connections.values())
    failures += await sockets.run(GUTS_DECIDED)
    failures += await sockets.run(GUTS_DECLARE_LATE)
    await advance(guts)  # the declare's deadline: Ben's hand is mucked, the hand ends
    await guts.arefresh_from_db()
    assert guts.state["phase"] != "declare"
    assert await HandEvent.objects.filter(table=guts, type="hand_ended").aexists()
    await close_all(sockets.connections)
    assert not failures, report(failures)


async def last_journaled(table: Table, kind: str) -> dict[str, Any]:
    """The journal's latest entry of ``kind`` (a presence change may have followed it)."""
    entries = TableAction.objects.filter(table=table, action__kind=kind)
    entry = await entries.order_by("-version", "-seq").afirst()
    assert entry is not None, kind
    return entry.action


def journal_problems(
    name: str, entry: dict[str, Any], keys: set[str], may: frozenset[str] = frozenset()
) -> list[str]:
    """A journal entry holds the fields the rules read (``keys``, and perhaps ``may``) and
    the runtime's own, nothing a client made up."""
    problems = []
    if not keys <= set(entry) <= keys | may:
        problems.append(f"journaled keys {sorted(entry)}, not {sorted(keys)}")
    text = json.dumps(entry)
    if "1000000000" in text or '"someone"' in text or "\\u0000" in text:
        problems.append(f"the journal holds what the client made up: {text[:200]}")
    if not isinstance(entry.get("now"), float) or abs(entry["now"] - time.time()) > 3600:
        problems.append(f"journaled 'now' {entry.get('now')!r} is not the server's time")
    return [f"{name}: " + " | ".join(problems)] if problems else []


# --- the JSON socket: forged fields on actions that apply ----------------------------------


async def test_fields_a_client_makes_up_are_ignored_and_never_journaled(guts):
    from accounts.ledger import account_for
    from accounts.models import AccountKind

    ann, dan = await make_clients(guts, ["ann", "dan"])
    users = {u.username: u async for u in User.objects.filter(username__in=["ann", "dan"])}
    failures: list[str] = []

    async def bankroll(name: str) -> int:
        account = await sync_to_async(account_for)(kind=AccountKind.BANKROLL, user=users[name])
        return account.balance

    async def journaled(kind: str) -> dict[str, Any]:
        await guts.arefresh_from_db()
        return await last_journaled(guts, kind)

    # A sit may name the seat wanted; the stack is the buy-in, the player the user's name.
    answer = await ann.act(kind="sit", buy_in=20_000, seat=3, table=guts.pk, version=99,
                           user="root", **FORGED)  # fmt: skip
    assert answer["type"] == "ack", answer
    entry = await journaled("sit")
    failures += journal_problems("sit-with-forged-extras", entry,
                                 {"kind", "seat", "stack", "player", "now"})  # fmt: skip
    assert (entry["stack"], entry["player"], entry["seat"]) == (20_000, "ann", 3), entry
    assert await bankroll("ann") == 100_000 - 20_000
    assert guts.state["seats"][3]["stack"] == 20_000

    # A sit naming a taken seat is refused; without a seat the first free one is taken.
    refused = await dan.act(kind="sit", buy_in=10_000, seat=3, **FORGED)
    assert (refused["type"], refused["code"]) == ("error", "refused"), refused
    assert (await dan.act(kind="sit", buy_in=10_000, **FORGED))["type"] == "ack"
    entry = await journaled("sit")
    failures += journal_problems("sit-naming-a-taken-seat", entry,
                                 {"kind", "seat", "stack", "player", "now"})  # fmt: skip
    assert entry["seat"] != 3 and entry["player"] == "dan" and entry["stack"] == 10_000, entry
    dan_seat = entry["seat"]

    for name, action, keys in [
        ("top-up-with-forged-extras", {"kind": "top_up", "amount": 500, "seat": 3,
                                       "table": guts.pk, **FORGED},
         {"kind", "seat", "amount", "now"}),
        ("sit-out-with-forged-extras", {"kind": "sit_out", "seat": 3, **FORGED},
         {"kind", "seat", "now"}),
        ("sit-in-with-forged-extras", {"kind": "sit_in", **FORGED}, {"kind", "seat", "now"}),
    ]:  # fmt: skip
        answer = await ann.act(**action)
        assert answer["type"] == "ack", (name, answer)
        failures += journal_problems(name, await journaled(action["kind"]), keys)
    assert await bankroll("ann") == 100_000 - 20_000 - 500
    await guts.arefresh_from_db()
    assert guts.state["seats"][3]["stack"] == 20_500

    answer = await dan.act(kind="leave", seat=dan_seat, **FORGED)
    assert answer["type"] == "ack", answer
    failures += journal_problems("leave-with-forged-extras", await journaled("leave"),
                                 {"kind", "seat", "now"})  # fmt: skip
    assert await bankroll("dan") == 100_000  # the stack came back: no more, no less
    state_text = json.dumps(guts.state)
    assert "1000000000" not in state_text and '"someone"' not in state_text
    await close_all({"ann": ann, "dan": dan})
    assert not failures, report(failures)


# --- the JSON socket: Three Card Poker -----------------------------------------------------


async def test_bad_bets_and_late_decisions_at_three_card_poker(monkeypatch):
    deck = parse_cards(deck_for([TCP_ANN, TCP_BEN], TCP_DEALER))
    monkeypatch.setattr("cardroom.tables.runtime.shuffled_deck", lambda: deck)
    # Clocks that never run out while the cases are sent (the clock is moved on by hand).
    table = await sync_to_async(table_create)(
        game="three_card_poker", preset="standard", name="TCP",
        options={"bet_seconds": 600, "decision_seconds": 600, "time_bank": 0},
    )  # fmt: skip
    ann, ben, dan = await make_clients(table, ["ann", "ben", "dan"])
    for client in (ann, ben):
        assert (await client.act(kind="sit", buy_in=10_000))["type"] == "ack"
    await caught_up(table, ann, ben, dan)
    sockets = Sockets(table, {"ann": ann, "ben": ben, "dan": dan})
    failures = await sockets.run(TCP_BETTING)
    assert (await sockets.connections["ann"].act(kind="bet", ante=100))["type"] == "ack"
    await caught_up(table, *sockets.connections.values())
    failures += await sockets.run(TCP_BET_PLACED)
    failures += await sockets.run(TCP_BET_LATE)
    await advance(table)  # the clock closes the bets instead: Ann alone is dealt
    await table.arefresh_from_db()
    assert table.state["phase"] == "deciding"
    assert table.state["seats"][1]["ante"] == 0  # Ben's late bet was never taken
    await caught_up(table, *sockets.connections.values())
    failures += await sockets.run(TCP_DECIDING)
    failures += await sockets.run(TCP_DECIDING_LATE)
    await advance(table)  # the clock folds Ann's undecided hand
    await table.arefresh_from_db()
    folded = HandEvent.objects.filter(table=table, type="folded", data__seat=0)
    assert await folded.aexists()
    await close_all(sockets.connections)
    assert not failures, report(failures)


# --- the JSON socket: Chinese Poker --------------------------------------------------------


async def test_someone_elses_cards_and_late_rows_at_chinese_poker(monkeypatch):
    deck = cp_deck([1, 0], {0: hand_of(CP_ANN), 1: hand_of(CP_BEN)})
    monkeypatch.setattr("cardroom.tables.runtime.shuffled_deck", lambda: deck)
    # A set clock that never runs out while the cases are sent (the clock is moved on by hand).
    table = await sync_to_async(table_create)(
        game="chinese_poker", preset="unit-1",
        options={"pause_seconds": 1, "set_seconds": 600, "time_bank": 0},
        name="CP",
    )  # fmt: skip
    ann, ben, dan = await make_clients(table, ["ann", "ben", "dan"])
    for client in (ann, ben):
        assert (await client.act(kind="sit", buy_in=10_000))["type"] == "ack"
    await advance(table)  # the pause before the first hand: the deal
    await table.arefresh_from_db()
    assert table.state["phase"] == "setting"
    await caught_up(table, ann, ben, dan)
    sockets = Sockets(table, {"ann": ann, "ben": ben, "dan": dan})
    failures = await sockets.run(CP_SETTING)

    # Ann's rows apply; the journal keeps what the rules read, not a client's junk.
    ann = sockets.connections["ann"]
    junk = {"stack": FORGED["stack"], "player": "someone"}
    answer = await ann.act(kind="set", submit=junk, **CP_ANN, **FORGED)
    if answer["type"] == "ack":
        entry = await last_journaled(table, "set")
        # "submit" is read (is it true?), but what a client put in it is no flag.
        failures += journal_problems("chinese-set-with-junk-submit", entry,
                                     {"kind", "seat", "front", "middle", "back", "now"},
                                     may=frozenset({"submit"}))  # fmt: skip
    else:
        failures.append(f"chinese-set-with-junk-submit: valid rows with a junk 'submit' were "
                        f"answered {answer!r:.300}")  # fmt: skip
        assert (await ann.act(kind="set", **CP_ANN))["type"] == "ack"
    await caught_up(table, *sockets.connections.values())
    failures += await sockets.run(CP_SETTING_LATE)
    await advance(table)  # the clock sets Ben's hand with the solver instead
    await table.arefresh_from_db()
    assert table.state["result"] is not None
    ben_entry = next(e for e in table.state["entries"] if e["seat"] == 1)
    assert ben_entry["auto"] is True
    await close_all(sockets.connections)
    assert not failures, report(failures)


# --- the JSON socket: classic Guts ---------------------------------------------------------


async def deal_classic(table: Table, names: list[str]) -> dict[str, Client]:
    clients = dict(zip(names, await make_clients(table, names), strict=True))
    for seat, name in enumerate(names):
        assert (await clients[name].act(kind="sit", buy_in=20_000, seat=seat))["type"] == "ack"
    for _ in range(4):
        await table.arefresh_from_db()
        if table.state["phase"] in ("pass", "declare"):
            break
        await advance(table)
    await caught_up(table, *clients.values())
    return clients


async def test_declaring_out_of_turn_at_classic_guts(db):
    table = await sync_to_async(table_create)(
        game="classic_guts", preset="kitty",
        options={"ante": 100, "seats": 4, "decision_seconds": 600, "time_bank": 0},
        name="Kitty",
    )  # fmt: skip
    clients = await deal_classic(table, ["ann", "ben", "cat"])
    (dan,) = await make_clients(table, ["dan"])
    await table.arefresh_from_db()
    assert table.state["phase"] == "declare"
    turn = table.state["turn"]
    order = [seat for seat in table.state["dealt"] if seat != turn]
    names = ["ann", "ben", "cat"]
    sockets = Sockets(table, {"turn": clients[names[turn]], "early": clients[names[order[0]]],
                              "later": clients[names[order[-1]]], "dan": dan})  # fmt: skip
    sockets.users = {"turn": names[turn], "early": names[order[0]], "later": names[order[-1]]}
    sockets.values = {'"$TURN"': str(turn)}
    failures = await sockets.run(CLASSIC_DECLARE)
    failures += await sockets.run(CLASSIC_DECLARE_LATE)
    await advance(table)  # the turn's deadline: a missing declare is Out
    declared = HandEvent.objects.filter(table=table, type="declared", data__seat=turn)
    assert [e.data["choice"] async for e in declared] == ["out"]
    await close_all(sockets.connections)
    assert not failures, report(failures)


async def test_passing_a_card_you_do_not_hold_at_classic_guts(db):
    table = await sync_to_async(table_create)(
        game="classic_guts", preset="three_card",
        options={"ante": 100, "seats": 4, "pass_left": True, "decision_seconds": 600},
        name="Pass left",
    )  # fmt: skip
    clients = await deal_classic(table, ["ann", "ben"])
    (dan,) = await make_clients(table, ["dan"])
    await table.arefresh_from_db()
    assert table.state["phase"] == "pass"
    held = {
        name: [f for f in client.frames if f["type"] == "state"][-1]["you"]["cards"]
        for name, client in clients.items()
    }
    nobodys = next(str(c) for c in DECK if str(c) not in held["ann"] + held["ben"])
    sockets = Sockets(table, {**clients, "dan": dan})
    sockets.values = {"$NOBODYS": nobodys, "$BENS": held["ben"][0], "$ANNS_TWO":
                      " ".join(held["ann"][:2]), "$ANNS": held["ann"][0]}  # fmt: skip
    failures = await sockets.run(CLASSIC_PASS)
    answer = await sockets.connections["ann"].act(kind="pass", card=held["ann"][0])
    assert answer["type"] == "ack", answer
    failures += await sockets.run(CLASSIC_PASSED)
    failures += await sockets.run(CLASSIC_PASS_LATE)
    await advance(table)  # the pass's deadline: the clock passes for Ben, or mucks him
    await table.arefresh_from_db()
    assert table.state["phase"] != "pass"
    await close_all(sockets.connections)
    assert not failures, report(failures)


# --- floods --------------------------------------------------------------------------------


def flood_frame(kind: str, number: int) -> str | bytes:
    frames: dict[str, str | bytes] = {
        "sync": json.dumps({"type": "sync"}),
        "garbage": "{not json",
        "binary": b"\x00\x01",
        "oversized": "x" * 9000,
        "refused": json.dumps({"type": "action", "id": f"f{number}", "action": {"kind": "ante"}}),
        "replayed": json.dumps({"type": "action", "id": "same", "action": {"kind": "ante"}}),
        "top_up": json.dumps(
            {"type": "action", "id": f"t{number}", "action": {"kind": "top_up", "amount": 1}}
        ),
        "page_form": json.dumps({"kind": "top_up", "amount": "lots", "HEADERS": {}}),
    }
    return frames[kind]


async def flood_answers(connection: Any, *, page: bool, normal: str) -> list[str]:
    """The answers to a flood, in order: each an error's code (a notice's words on the page),
    or "state"/"ack"; states pushed after an applied top-up are not answers."""
    answers: list[str] = []
    while len(answers) < FLOOD_FRAMES:
        text = await receive_text(connection.communicator)
        if page:
            found = NOTICE.search(text)
            if found:
                said = html.unescape(found["message"])
                answers.append("rate_limited" if "too many" in said else said)
                assert not message_problems(said, ""), said
            continue
        frame = json.loads(text)
        if frame["type"] == "state" and normal != "state":
            continue  # the push after an applied top-up
        if frame["type"] == "error":
            assert not message_problems(frame["message"], ""), frame
        answers.append(frame.get("code") or frame["type"])
    return answers


async def test_floods_are_answered_rate_limited_and_the_sockets_stay_open(
    guts, settings, monkeypatch
):
    """Each flood on a connection of its own (the limit is per connection): the burst is
    answered as usual, every frame after it ``rate_limited`` (a notice on the page); once a
    token comes back, each socket answers a sync."""
    settings.CARDROOM_WS_RATE_BURST = FLOOD_BURST
    settings.CARDROOM_WS_RATE_PER_SECOND = FLOOD_RATE
    rate_clock = [0.0]
    monkeypatch.setattr("cardroom.realtime.consumers.rate_clock", lambda: rate_clock[0])
    user = await sync_to_async(user_create)(username="ann")
    await sync_to_async(table_act)(
        table_id=guts.pk, user=user, action={"kind": "sit", "buy_in": 20_000}
    )
    connections: dict[str, Any] = {}
    for name, (kind, _) in FLOODS.items():
        token = await sync_to_async(token_create)(user=user)
        if kind == "page_form":
            connections[name] = Page(guts.pk, token)
            await connections[name].open()
        else:
            connections[name] = Client(guts.pk, token)
            await connections[name].connect()
    await caught_up(guts, *(c for c in connections.values() if isinstance(c, Client)))
    before = await snapshot(guts.pk)
    failures = []
    for name, (kind, normal) in FLOODS.items():  # the top-ups last: their pushes come after
        connection = connections[name]
        for number in range(FLOOD_FRAMES):
            await send_frame(connection.communicator, flood_frame(kind, number))
        got = await flood_answers(connection, page=kind == "page_form", normal=normal)
        expected = [normal] * FLOOD_BURST + ["rate_limited"] * (FLOOD_FRAMES - FLOOD_BURST)
        if kind == "page_form":
            got = ["amount" if "not an amount" in g else g for g in got]
        if got != expected:
            failures.append(f"{name}: answered {got}, not {expected}")
    rate_clock[0] += 1.05 / FLOOD_RATE  # a token comes back on every connection
    for name, connection in connections.items():
        try:
            page = isinstance(connection, Page)
            problems = await Sockets(guts, {}, page=page).still_open(connection)
        except Gone as gone:
            problems = [str(gone)]
        failures += [f"{name}: {problem}" for problem in problems]
    after = await snapshot(guts.pk)
    await close_all(connections)
    # Only the top-ups of the burst were applied, each once: one cent each from the bankroll.
    assert after["version"] == before["version"] + FLOOD_BURST, changed(before, after)
    assert after["transfers"] == before["transfers"] + FLOOD_BURST, changed(before, after)
    moved = {pk: b - dict(before["balances"])[pk] for pk, b in after["balances"] if
             b != dict(before["balances"])[pk]}  # fmt: skip
    assert sorted(moved.values()) == [-FLOOD_BURST, FLOOD_BURST], moved
    assert not failures, report(failures)


# --- handshakes ----------------------------------------------------------------------------


async def session_cookie(user: User) -> str:
    from django.conf import settings
    from django.test import Client as HttpClient

    def login() -> str:
        http = HttpClient()
        http.force_login(user)
        return f"{settings.SESSION_COOKIE_NAME}={http.cookies[settings.SESSION_COOKIE_NAME].value}"

    return await sync_to_async(login)()


@pytest.mark.parametrize("socket", ["api", "page"])
async def test_refused_handshakes_are_closed_with_their_code(socket, guts):
    active = await sync_to_async(user_create)(username="ann")
    gone = await sync_to_async(user_create)(username="olga")
    token = await sync_to_async(token_create)(user=active)
    gone_token = await sync_to_async(token_create)(user=gone)
    gone_cookie = await session_cookie(gone)
    await User.objects.filter(pk=gone.pk).aupdate(is_active=False)
    prefix = "/ws/api/tables/" if socket == "api" else "/ws/tables/"
    raw_token = token.encode()

    def bearer(value: str | bytes) -> tuple[bytes, bytes]:
        text = value if isinstance(value, bytes) else value.encode()
        return (b"authorization", b"Bearer " + text)

    setups: dict[str, tuple[Any, list[tuple[bytes, bytes]]]] = {
        "no-credentials": (guts.pk, [ORIGIN]),
        "bad-token": (guts.pk, [ORIGIN, bearer("not-a-token")]),
        "empty-bearer": (guts.pk, [ORIGIN, (b"authorization", b"Bearer ")]),
        "token-10kb": (guts.pk, [ORIGIN, bearer("t" * 10_000)]),
        "token-not-latin1-bytes": (guts.pk, [ORIGIN, bearer(b"\xff\xfe\x00" + token.encode())]),
        "valid-token-wrong-scheme": (guts.pk, [ORIGIN, (b"authorization", b"Token " + raw_token)]),
        "deactivated-user-token": (guts.pk, [ORIGIN, bearer(gone_token)]),
        "garbage-session-cookie": (guts.pk, [ORIGIN, (b"cookie", b"sessionid=garbage")]),
        "garbage-session-cookie-5kb": (guts.pk, [ORIGIN, (b"cookie", b"sessionid=" + b"z" * 5000)]),
        "deactivated-user-session": (guts.pk, [ORIGIN, (b"cookie", gone_cookie.encode())]),
        "no-such-table-no-credentials": (guts.pk + 1000, [ORIGIN]),
        "no-such-table": (guts.pk + 1000, [ORIGIN, bearer(token)]),
        "table-zero": (0, [ORIGIN, bearer(token)]),
        "table-id-2-to-the-63": (2**63, [ORIGIN, bearer(token)]),
        "table-id-beyond-bigint": ("99999999999999999999999", [ORIGIN, bearer(token)]),
        "bad-origin": (guts.pk, [(b"origin", b"http://evil.example"), bearer(token)]),
        "no-origin": (guts.pk, [bearer(token)]),
    }  # fmt: skip
    assert set(setups) == {name for name, _ in HANDSHAKES}
    before = await snapshot(guts.pk)
    failures = []
    opened = []
    for name, code in HANDSHAKES:
        table_id, headers = setups[name]
        communicator = WebsocketCommunicator(application, f"{prefix}{table_id}/", headers=headers)
        opened.append(communicator)
        try:
            connected, _ = await communicator.connect()
            if code is None:
                if connected:
                    failures.append(f"{name}@{socket}: the handshake was accepted")
                continue
            if not connected:
                failures.append(f"{name}@{socket}: refused at the handshake, not closed {code}")
                continue
            output = await communicator.receive_output(WAIT_SECONDS)
            if output != {"type": "websocket.close", "code": code}:
                failures.append(f"{name}@{socket}: {output!r:.200}, not a close with {code}")
        except Exception as error:
            failures.append(f"{name}@{socket}: the handshake failed: {error!r:.200}")
    await disconnect_all(opened)
    # The same credentials, done right, are let in: the refusals were for what was wrong.
    cookie = (await session_cookie(active)).encode()
    for headers in ([ORIGIN, bearer(token)], [ORIGIN, (b"cookie", cookie)]):
        communicator = WebsocketCommunicator(application, f"{prefix}{guts.pk}/", headers=headers)
        connected, _ = await communicator.connect()
        assert connected
        assert "state" in await communicator.receive_from() or socket == "page"
        opened.append(communicator)
    await disconnect_all(opened)
    assert await snapshot(guts.pk) == before
    assert not failures, report(failures)


# --- the page socket -----------------------------------------------------------------------


async def test_bad_forms_on_the_page_get_a_notice_and_change_nothing(guts, other_table):
    pages: dict[str, Page] = {}
    for name in ("ann", "dan"):
        user = await sync_to_async(user_create)(username=name)
        pages[name] = Page(guts.pk, await sync_to_async(token_create)(user=user))
        await pages[name].open()
    ben = await sync_to_async(user_create)(username="ben")
    await pages["ann"].submit(kind="sit", buy_in="200", seat="0")  # dollars, as the form has it
    await sync_to_async(table_act)(
        table_id=guts.pk, user=ben, action={"kind": "sit", "buy_in": 20_000, "seat": 1}
    )
    for page in pages.values():
        await page.settle(guts)
    assert await Seat.objects.filter(table=guts, user__username="ann", number=0).aexists()
    sockets = Sockets(guts, dict(pages), page=True)
    sockets.values = values_for(guts, other_table)
    failures = await sockets.run(PAGE)
    # A valid form still works: $1.00 more on Ann's stack.
    ann = sockets.connections["ann"]
    await guts.arefresh_from_db()
    version, stack = guts.version, guts.state["seats"][0]["stack"]
    await ann.submit(kind="top_up", amount="1.00")
    await ann.settle(guts)
    await guts.arefresh_from_db()
    assert guts.version == version + 1, report(failures)
    assert guts.state["seats"][0]["stack"] == stack + 100, report(failures)
    await close_all(sockets.connections)
    assert not failures, report(failures)
