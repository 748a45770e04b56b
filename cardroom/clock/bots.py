"""House bots: seats kept filled so a newcomer can play at once.

Bots are users (``is_bot``) acting through the same runtime actions as people, and they decide
from their own seat's view only, so they never see a hidden card. The clock calls
:func:`bots_sweep`; a bot answers a decision only after a short, human-like pause, counted from
the table's last change.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Q
from django.utils import timezone

from accounts.ledger import LedgerError
from accounts.models import User
from accounts.services import bot_fund, user_create
from cardroom.models import Seat, Table, TableStatus
from cardroom.tables.runtime import table_act
from cardroom.tables.selectors import table_state
from games.cards import parse_cards
from games.chinese_poker import best_arrangement
from games.engine import IllegalAction
from games.evaluators import rank_hand
from games.guts import GAME
from games.guts.bots import classic_bot_action
from games.guts.classic.state import ClassicState
from games.three_card_poker import PayTables, should_play
from games.three_card_poker.config import ANTE_BONUS, PAIR_PLUS

__all__ = ["bot_decision", "bots_sweep", "think_seconds"]

log = logging.getLogger(__name__)

#: Chinese Poker's rows, in the order the solver gives them.
ROWS = ("front", "middle", "back")
#: A bot waits this long (seconds) before it acts, spread per table version and seat.
THINK_RANGE = (0.8, 2.6)


def think_seconds(table_id: int, version: int, seat: int) -> float:
    """A stable pseudo-random pause for this decision (no randomness: a hash of its identity)."""
    digest = hashlib.sha256(f"{table_id}:{version}:{seat}".encode()).digest()
    low, high = THINK_RANGE
    return low + (high - low) * digest[0] / 255


def _guts(view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    kinds = {action["kind"]: action for action in legal}
    if "declare" in kinds:
        cards = parse_cards(view["you"]["cards"])
        value = rank_hand("three_card", cards)
        # Survivor charges only the lowest loser, so a strong ace-high may go In there;
        # Monte Carlo charges every loser, so its bots want a pair.
        looser = view.get("variant") == "survivor"
        strong = value.category != "high_card" or (looser and max(c.rank for c in cards) == 14)
        return {"kind": "declare", "choice": "in" if strong else "out"}
    if "ante" in kinds:
        return {"kind": "ante"}
    if "decline" in kinds and kinds["decline"].get("owed"):
        return {"kind": "decline"}
    return None


def _chinese_poker(view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Set the hand as the best-arrangement solver does, declaring a natural it finds."""
    kinds = {action["kind"] for action in legal}
    if "set" in kinds:
        best = best_arrangement(parse_cards(view["you"]["cards"]))
        rows = {
            name: [str(card) for card in row] for name, row in zip(ROWS, best.rows, strict=True)
        }
        if best.natural is not None:
            return {"kind": "declare_natural", "natural": best.natural, **rows}
        return {"kind": "set", "submit": True, **rows}
    mine = _own_seat(view)
    if "leave" in kinds and mine.get("stack", 0) <= view.get("hand_fee", 0):
        return {"kind": "leave"}  # too short to be dealt in: make room for a fresh bot
    return None


def _three_card_poker(view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The exact best strategy (Play Q-6-4 or better under the seed's tables), least Ante.

    A bot bets only after someone else at the table has, so it keeps players company instead
    of playing the house alone all night.
    """
    kinds = {action["kind"]: action for action in legal}
    if "play" in kinds:
        tables = view.get("pay_tables") or {}
        pay = PayTables(
            ante_bonus=tuple(tables.get("ante_bonus", ANTE_BONUS)),
            pair_plus=tuple(tables.get("pair_plus", PAIR_PLUS)),
        )
        cards = parse_cards(view["you"]["cards"])
        return {"kind": "play"} if should_play(cards, pay) else {"kind": "fold"}
    if "bet" in kinds:
        others = [s for s in view.get("seats", []) if s.get("seat") != view["you"]["seat"]]
        if any(s.get("ante") for s in others):
            return {"kind": "bet", "ante": kinds["bet"]["min_ante"]}
        return None
    if "leave" in kinds and _own_seat(view).get("status") == "short":
        return {"kind": "leave"}  # cannot cover an Ante and its Play: make room for a fresh bot
    return None


def _own_seat(view: dict[str, Any]) -> dict[str, Any]:
    seat = (view.get("you") or {}).get("seat")
    return next((s for s in view.get("seats", []) if s.get("seat") == seat), {})


POLICIES: dict[str, Callable[[dict[str, Any], list[dict[str, Any]]], dict[str, Any] | None]] = {
    "guts": _guts,
    "chinese_poker": _chinese_poker,
    "three_card_poker": _three_card_poker,
}


def bot_decision(game: str, state: dict[str, Any]) -> dict[str, Any] | None:
    """What a bot does now from its ``state`` message (its own view), or None to wait."""
    view = state["table"]
    you = view.get("you") or {}
    legal = you.get("legal_actions", [])
    policy = POLICIES.get(game)
    if policy is None or not legal:
        return None
    return policy(view, legal)


def _classic_action(table: Table, seat: int) -> dict[str, Any] | None:
    """Classic Guts: the games package's bot, which reads only the seat's own cards and the
    public rules (games.guts.bots.classic_bot_action); antes there are automatic."""
    state = GAME.load(table.state)
    return classic_bot_action(state, seat) if isinstance(state, ClassicState) else None


def _bot_user(index: int) -> User:
    name = f"house-bot-{index}"
    user = User.objects.filter(username=name).first()
    return user or user_create(username=name, is_bot=True)


def _fill_seats(table: Table, view: dict[str, Any]) -> None:
    seated = Seat.objects.filter(table=table, left__isnull=True)
    bots_there = seated.filter(user__is_bot=True).count()
    free = [entry for entry in view.get("seats", []) if "player" not in entry]
    busy = set(
        Seat.objects.filter(left__isnull=True, user__is_bot=True).values_list("user_id", flat=True)
    )
    index = 1
    while bots_there < table.bots and len(free) > 1:  # always leave a seat for a person
        bot = _bot_user(index)
        index += 1
        if bot.pk in busy:
            continue
        sit = table_state(table=table, user_id=bot.pk)["you"]
        legal = {a["kind"]: a for a in (sit or {}).get("legal_actions", [])}
        if "sit" not in legal:
            return
        least = legal["sit"].get("min") or legal["sit"].get("min_stack") or 0
        buy_in = max(least, 1) * 2
        if legal["sit"].get("max"):
            buy_in = min(buy_in, legal["sit"]["max"])
        bot_fund(
            bot=bot,
            amount=buy_in,
            idempotency_key=f"bot-fund:u{bot.pk}:{timezone.now().timestamp()}",
        )
        table_act(table_id=table.pk, user=bot, action={"kind": "sit", "buy_in": buy_in})
        bots_there += 1
        free.pop()


#: What a bot never asks at a tournament's table: the tournament seats its bots and they play
#: until out of chips, as every player there (cardroom/tables/chips.py).
CHIPS_TABLE_SKIPS = frozenset({"sit", "leave", "top_up"})


def bots_sweep(*, now: datetime | None = None) -> int:
    """Fill bot seats and let every bot whose pause is over act; returns actions taken.

    At a tournament's table (``plays_for_chips``) the sweep seats and stands up no bot: it
    only plays the bot seats the tournament gave its house bots."""
    now = now or timezone.now()
    acted = 0
    tables = (
        Table.objects.filter(status=TableStatus.OPEN)
        .filter(Q(bots__gt=0) | Q(seats__user__is_bot=True, seats__left__isnull=True))
        .distinct()
    )
    for table in tables:
        try:
            if not table.plays_for_chips:
                view = table_state(table=table, user_id=None)["table"]
                _fill_seats(table, view)
                table.refresh_from_db()
            for seat in Seat.objects.filter(table=table, left__isnull=True, user__is_bot=True):
                pause = timedelta(seconds=think_seconds(table.pk, table.version, seat.number))
                if now - table.updated < pause:
                    continue
                if table.game == "classic_guts":
                    action = _classic_action(table, seat.number)
                else:
                    action = bot_decision(
                        table.game, table_state(table=table, user_id=seat.user_id)
                    )
                if action is None or (
                    table.plays_for_chips and action["kind"] in CHIPS_TABLE_SKIPS
                ):
                    continue
                table_act(table_id=table.pk, user=seat.user, action=action)
                table.refresh_from_db()
                acted += 1
        except (IllegalAction, LedgerError) as error:
            log.info("bot at table %s: %s", table.pk, error)
        except Exception:
            log.exception("bots at table %s failed", table.pk)
    return acted
