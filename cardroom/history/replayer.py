"""A hand step by step, as one viewer may see it: the replayer's pictures of the table.

The steps are built from the viewer's redacted history (``hand_history`` in
cardroom/history/history.py) and nothing else that holds a card, so a replay shows no more than
the hand page. Each step is a whole picture of the table at one moment (every seat with its
player, stack, visible cards and what it declared or bet; the pot; the board), a caption in
words and dollars ("Seat 2 (alice) antes $1.00") and the money that step moved
(cardroom/history/replay_events.py says what each event does). The last step sums the hand up:
each seat's net and who paid whom, as the ledger recorded it.

Stacks at the start come from the ledger, which every stack on the table page shows anyway:
each account of the table just before the hand's first transfer (:class:`LedgerBook`). From
there money moves only as the events say, so the last step's nets are the hand's transfers.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Max, Min, Q, Sum
from django.utils.functional import Promise
from django.utils.translation import gettext, pgettext_lazy

from accounts.models import AccountKind, Transfer
from accounts.money import format_cents
from cardroom.history.history import hand_history, seat_names
from cardroom.history.replay_events import QUIET, SECTIONS, TablePicture, apply_event, event_moves
from cardroom.models import Hand, HandEvent, Seat, Table
from cardroom.presentation.payment_words import party_words
from cardroom.storage.payments import hand_payments
from cardroom.tables.engines import engine_for
from games.engine import ConfigError
from games.guts.classic.config import ClassicConfig

__all__ = [
    "ChipsBook",
    "LedgerBook",
    "Replay",
    "Start",
    "deal_size",
    "first_event",
    "first_transfer",
    "hand_replay",
    "hand_start",
    "replay_history",
    "section_name",
    "viewer_seats",
]

#: A part of the hand as the replayer labels it, per game where the games differ.
SECTION_NAMES: dict[str, dict[str, Promise]] = {
    "start": {"": pgettext_lazy("replay section", "Before the hand")},
    "antes": {
        "": pgettext_lazy("replay section", "Antes"),
        "three_card_poker": pgettext_lazy("replay section", "Bets"),
        "chinese_poker": pgettext_lazy("replay section", "Hand fees"),
    },
    "deal": {"": pgettext_lazy("replay section", "Deal")},
    "decisions": {
        "": pgettext_lazy("replay section", "Declare"),
        "three_card_poker": pgettext_lazy("replay section", "Play or fold"),
        "chinese_poker": pgettext_lazy("replay section", "Setting the hands"),
    },
    "showdown": {"": pgettext_lazy("replay section", "Showdown")},
    "payments": {"": pgettext_lazy("replay section", "Payments")},
    "summary": {"": pgettext_lazy("replay section", "Summary")},
}

#: Cards a seat is dealt face down in games that always deal the same number (Classic Guts
#: reads its table's config; games in stages say it in each ``stage_started``).
DEAL_SIZES = {"guts": 3, "chinese_poker": 13, "three_card_poker": 3}


@dataclass(frozen=True, slots=True)
class Start:
    """The table as the hand began: each taken seat's stack, the pot and the reserve (cents)."""

    stacks: Mapping[int, int]
    pot: int = 0
    reserve: int = 0


@dataclass(frozen=True, slots=True)
class Replay:
    """A hand's steps for one viewer, and the sums its last step shows."""

    table: int
    hand: int
    steps: list[dict[str, Any]]
    #: Each seat's money won (positive) or lost in play; sitting down and leaving excluded.
    net: dict[int, int]
    rake: int


def section_name(section: str, game: str) -> str:
    """ "decisions" at a Three Card Poker table → "Play or fold"."""
    names = SECTION_NAMES.get(section)
    if names is None:
        return section.capitalize()
    return str(names.get(game, names[""]))


def replay_history(
    history: Mapping[str, Any],
    *,
    game: str,
    names: Mapping[int, str],
    start: Start,
    you: Collection[int] = (),
    deal: int | None = None,
    payments: Sequence[Mapping[str, Any]] | None = None,
) -> Replay:
    """The steps of a redacted ``history`` (as ``hand_history`` gives it): the table before
    the hand, one picture after each event the viewer may read, and a summary.

    ``names``: who sat where; ``start``: the stacks, pot and reserve as the hand began; ``you``:
    the viewer's seats; ``deal``: how many cards a seat is dealt face down, when the game always
    deals the same number (the backs drawn for hands the viewer may not see); ``payments``: the
    hand's payments as the ledger recorded them (cardroom/storage/payments.py), which the
    summary lists, or ``None``: those the events made.
    """
    events = [event for event in history.get("events", []) if event["type"] not in QUIET]
    # A seat taken during the hand is drawn from its player's arrival, not before.
    arriving = {event["data"].get("seat") for event in events if event["type"] == "player_sat"}
    stacks = {seat: cents for seat, cents in start.stacks.items() if cents or seat not in arriving}
    table = TablePicture(
        game=game,
        names=names,
        stacks=stacks,
        pot=start.pot,
        reserve=start.reserve,
        you=you,
        deal=deal,
    )
    before = gettext("The table before hand %(hand)s") % {"hand": history.get("hand")}
    steps = [_step(table, "start", "start", None, before)]
    section = "antes"
    for event in events:
        data, kind = event["data"], event["type"]
        section = SECTIONS.get(kind, section)
        seat, words = apply_event(table, data)
        moves = table.void() if kind == "hand_voided" else table.move(event_moves(data))
        steps.append(_step(table, section, kind, seat, words, moves))
    steps.append(_summary(table, history, payments))
    for index, step in enumerate(steps):
        step["index"], step["count"] = index, len(steps)
        step["section_name"] = section_name(step["section"], game)
    return Replay(
        table=int(history.get("table") or 0),
        hand=int(history.get("hand") or 0),
        steps=steps,
        net={seat["seat"]: seat["net"] for seat in steps[-1]["seats"]},
        rake=table.places["rake"],
    )


def _step(
    table: TablePicture,
    section: str,
    kind: str,
    seat: int | None,
    words: str,
    moves: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """One step: its part of the hand, what happened in words, the money moved, the table."""
    if seat is not None:
        values = {"seat": seat, "player": table.name(seat), "words": words}
        # Translators: a step of a replayed hand: the seat, its player and what they did
        # ("Seat 2 (ann) antes $1.00"; {words} is said of the player).
        caption = gettext("Seat %(seat)s (%(player)s) %(words)s") % values
        # Translators: a line of a hand history: the player and what they did ("ann: antes
        # $1.00").
        line = gettext("%(player)s: %(words)s") % values
    else:
        caption = line = words
    return {
        "section": section,
        "type": kind,
        "seat": seat,
        "words": words,
        "caption": caption,
        "line": line,
        "moves": moves or [],
        "payments": [],
        **table.picture(seat),
    }


def _summary(
    table: TablePicture,
    history: Mapping[str, Any],
    payments: Sequence[Mapping[str, Any]] | None,
) -> dict[str, Any]:
    """The last step: each seat's result and the hand's payments, who paid whom (summed by
    payer and payee; from the ledger's ``payments`` when given)."""
    results = [
        (
            gettext("%(player)s wins %(amount)s")
            if seat.net > 0
            else gettext("%(player)s loses %(amount)s")
        )
        % {"player": seat.player, "amount": format_cents(abs(seat.net))}
        for _, seat in sorted(table.seats.items())
        if seat.net
    ]
    rake = table.places["rake"]
    outcome = "; ".join(results) if results else gettext("nobody won or lost")
    # A hand still in play is replayed as far as it has gone.
    if history.get("ended", True):
        # Translators: the hand's results, "ann wins $2.00; ben loses $2.00".
        words = gettext("In all: %(results)s") % {"results": outcome}
    else:
        words = gettext("So far: %(results)s") % {"results": outcome}
    if rake:
        # Translators: the hand's results, then its rake.
        words = gettext("%(results)s (rake %(amount)s)") % {
            "results": words,
            "amount": format_cents(rake),
        }
    step = _step(table, "summary", "summary", None, words)
    if payments is None:
        step["payments"] = [
            table.move_record(source, target, cents)
            for (source, target), cents in table.paid.items()
            if cents
        ]
    else:
        step["payments"] = _ledger_payments(payments)
    return step


def _ledger_payments(payments: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The ledger's payments summed by payer and payee, in the order each pair first paid,
    as the summary lists them (the step's money records: ``from``, ``to``, ``amount``,
    ``text``, ``source``, ``target``)."""
    summed: dict[tuple[str, str, str, str], int] = {}
    for pay in payments:
        key = (str(pay["source"]), str(pay["from"]), str(pay["target"]), str(pay["to"]))
        summed[key] = summed.get(key, 0) + int(pay["amount"])
    return [
        {
            "from": party_words(source, payer),
            "to": party_words(target, payee),
            "amount": cents,
            "text": format_cents(cents),
            "source": source,
            "target": target,
        }
        for (source, payer, target, payee), cents in summed.items()
        if cents
    ]


# ---------------------------------------------------------------------------------------------
# From the database: the history, the seats and the ledger's balances as the hand began.


class LedgerBook:
    """Running balances of one table's stacks (by player), pot and reserve, read from the
    ledger in transfer order: each call sums only the transfers since the last, so an export
    that walks a table's hands in order reads each transfer once."""

    def __init__(self, table_id: int) -> None:
        self.table_id = table_id
        self.upto = 0
        self.balances: Counter[tuple[str, int | None]] = Counter()

    def before(self, transfer_id: int | None) -> Counter[tuple[str, int | None]]:
        """The balances just before transfer ``transfer_id`` (``None``: after every one), as
        ``{("stack", user_id): cents, ("pot", None): cents, ("reserve", None): cents}``."""
        if transfer_id is not None and transfer_id < self.upto:
            self.upto, self.balances = 0, Counter()
        rows = Transfer.objects.filter(table_id=self.table_id, id__gte=self.upto)
        if transfer_id is not None:
            rows = rows.filter(id__lt=transfer_id)
        kinds = (AccountKind.STACK, AccountKind.POT, AccountKind.RESERVE)
        last = self.upto - 1
        for side, sign in (("source", -1), ("target", 1)):
            totals = (
                rows.filter(**{f"{side}__table_id": self.table_id, f"{side}__kind__in": kinds})
                .values(f"{side}__kind", f"{side}__user_id")
                .annotate(total=Sum("amount"), last=Max("id"))
                .order_by()
            )
            for row in totals:
                kind = row[f"{side}__kind"]
                user = row[f"{side}__user_id"] if kind == AccountKind.STACK else None
                self.balances[(kind, user)] += sign * int(row["total"])
                last = max(last, int(row["last"]))
        self.upto = transfer_id if transfer_id is not None else last + 1
        return self.balances


class ChipsBook:
    """Running chips of one tournament table's seats (``stack:N``), pot and reserve, summed
    from its events' moves in order (:func:`event_moves`): a table that plays for chips posts
    nothing to the ledger, so its stacks are read from the events that moved them. Each call
    reads only the events since the last, so an export walking a table's hands in order reads
    each event once."""

    def __init__(self, table_id: int) -> None:
        self.table_id = table_id
        self.upto = 0
        self.balances: Counter[str] = Counter()

    def before(self, seq: int | None) -> Counter[str]:
        """The balances just before the table's event ``seq`` (``None``: after every one)."""
        if seq is not None and seq < self.upto:
            self.upto, self.balances = 0, Counter()
        rows = HandEvent.objects.filter(table_id=self.table_id, seq__gte=self.upto)
        if seq is not None:
            rows = rows.filter(seq__lt=seq)
        last = self.upto - 1
        for number, data in rows.order_by("seq").values_list("seq", "data"):
            for source, target, amount in event_moves(data):
                self.balances[source] -= amount
                self.balances[target] += amount
            last = max(last, int(number))
        self.upto = seq if seq is not None else last + 1
        return self.balances


def first_event(hand: Hand) -> int | None:
    """The table's order (``seq``) of the hand's first event: where its chips start."""
    first: int | None = hand.events.aggregate(n=Min("seq"))["n"]
    return first


def first_transfer(hand: Hand) -> int | None:
    """Where the hand's money starts: its first transfer or, for a hand that moved nothing,
    the table's first transfer after it began (``None``: there is none yet)."""
    first: int | None = Transfer.objects.filter(hand_id=hand.pk).aggregate(n=Min("id"))["n"]
    if first is None:
        later = Transfer.objects.filter(table_id=hand.table_id, created__gte=hand.started)
        first = later.aggregate(n=Min("id"))["n"]
    return first


def hand_start(
    hand: Hand,
    *,
    book: LedgerBook | None = None,
    first: int | None = None,
    chips: ChipsBook | None = None,
) -> tuple[Start, dict[int, int]]:
    """The table as ``hand`` began (stacks by seat, pot, reserve), and who sat where then
    (seat → user id). ``book`` and ``first`` let an export walk a table's hands in order;
    ``chips`` does for a tournament's table, whose chips are read from its events."""
    seated = Seat.objects.filter(table_id=hand.table_id, joined__lte=hand.started).filter(
        Q(left__isnull=True) | Q(left__gt=hand.started)
    )
    users = dict(seated.values_list("number", "user_id"))
    if hand.table.plays_for_chips:
        counted = (chips or ChipsBook(hand.table_id)).before(first_event(hand))
        start = Start(
            stacks={seat: counted[f"stack:{seat}"] for seat in users},
            pot=counted["pot"],
            reserve=counted["reserve"],
        )
        return start, users
    book = book or LedgerBook(hand.table_id)
    balances = book.before(first if first is not None else first_transfer(hand))
    start = Start(
        stacks={seat: balances[(AccountKind.STACK, user)] for seat, user in users.items()},
        pot=balances[(AccountKind.POT, None)],
        reserve=balances[(AccountKind.RESERVE, None)],
    )
    return start, users


def viewer_seats(hand: Hand, user_id: int | None) -> set[int]:
    """The seats the user ``user_id`` held during ``hand``."""
    if user_id is None:
        return set()
    seats = Seat.objects.filter(
        table_id=hand.table_id, user_id=user_id, joined__lte=hand.ended or hand.started
    ).filter(Q(left__isnull=True) | Q(left__gte=hand.started))
    return set(seats.values_list("number", flat=True))


def deal_size(table: Table) -> int | None:
    """How many cards a seat at ``table`` is dealt face down, when its game always deals the
    same number (``None`` for Classic Guts games of several deals, which say it as they go)."""
    if table.game != "classic_guts":
        return DEAL_SIZES.get(table.game)
    try:
        config = engine_for(table.game).make_config(table.preset, dict(table.config))
    except (ConfigError, ValueError, TypeError):
        return None
    if not isinstance(config, ClassicConfig) or config.flow != "one_deal":
        return None
    return int(config.cards) - (1 if config.low_wild else 0)


def hand_replay(
    *,
    hand: Hand,
    user_id: int | None,
    history: Mapping[str, Any] | None = None,
    start: Start | None = None,
    payments: Sequence[Mapping[str, Any]] | None = None,
    names: dict[int, str] | None = None,
) -> Replay:
    """``hand`` step by step as the user ``user_id`` may see it (``None``: a spectator), from
    their ``hand_history`` (or ``history``, already redacted for them); its summary lists the
    hand's ``payments`` (read from the ledger unless given); ``names``: the hand's
    ``seat_names``, when the caller has them already."""
    if names is None:
        names = seat_names(hand=hand)
    if history is None:
        history = hand_history(hand=hand, user_id=user_id, names=names)
    if start is None:
        start, _ = hand_start(hand)
    if payments is None:
        payments = hand_payments(hand)
    return replay_history(
        history,
        game=hand.table.game,
        names=names,
        start=start,
        you=viewer_seats(hand, user_id),
        deal=deal_size(hand.table),
        payments=payments,
    )
