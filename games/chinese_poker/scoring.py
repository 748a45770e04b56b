"""Scoring and settling a hand (docs/rules/chinese-poker.md, "Scoring between two players",
"Clean sweeps", "Surrender and fouls", "Paying out").

:func:`score_hand` stands on its own: the players' final hands (in seat order), their
declarations and stacks, the unit and the button in; each pair's units, every player's net
units, the ordered payments and the final stacks out. Each pair is scored on its own and the
nets are summed, so before the caps the units always sum to zero.

Where the rules are silent:

- A fouled hand against a regular hand pays 3 units plus the bonus of each of the opponent's
  bonus rows (the bonus in place of nothing, since no row was compared).
- A false natural claim is dropped, not a foul, only if an opponent had surrendered *before*
  the claim (``claimed_after_surrender``); the hand then plays as set and may still foul.
- Table stakes: a player's *net* gain over the hand is at most their stack after the fee, so a
  player who lost to an earlier pair may win that much more from a later one.

>>> from games.cards import parse_cards as cards
>>> a = PlayerHand(cards("Ah Kd 2c"), cards("3s 3d 5h 7c 9d"), cards("Ts Th Tc 4d 6h"))
>>> b = PlayerHand(cards("Qs Jd 4c"), cards("8s 8d 5c 7d 9c"), cards("Ks Kh 2d 4h 6c"))
>>> result = score_hand([a, b], [5000, 5000], unit=100, button=0)
>>> result.pairs[0].rows, result.units, result.payments, result.stacks
((1, -1, 1), (1, -1), (Payment(payer=1, winner=0, amount=100),), (5100, 4900))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.cards import Card
from games.chinese_poker.naturals import NATURAL_VALUES, check_name, makes_natural, natural_rank
from games.evaluators import rank_hand, rows_in_order

__all__ = [
    "ROW_BONUSES",
    "HandScore",
    "PairScore",
    "Payment",
    "PlayerHand",
    "Status",
    "bonus",
    "resolve",
    "row_bonus",
    "score_hand",
    "settle",
    "settlement_order",
]

ROWS = ("front", "middle", "back")
#: Bonus units a winning row is paid in place of 1 (``royal_flush``: an ace-high straight flush).
ROW_BONUSES: dict[str, dict[str, int]] = {
    "front": {"three_of_a_kind": 3},
    "middle": {"full_house": 2, "four_of_a_kind": 8, "straight_flush": 10, "royal_flush": 14},
    "back": {"four_of_a_kind": 4, "straight_flush": 5, "royal_flush": 7},
}
SURRENDER_UNITS = 3
FOUL_UNITS = 3


@dataclass(frozen=True, slots=True)
class PlayerHand:
    """One player's final hand: rows (empty for a surrender) and declarations."""

    front: tuple[Card, ...] = ()
    middle: tuple[Card, ...] = ()
    back: tuple[Card, ...] = ()
    natural: str | None = None
    surrender: bool = False
    claimed_after_surrender: bool = False

    @property
    def cards(self) -> tuple[Card, ...]:
        """All the cards in the rows."""
        return self.front + self.middle + self.back


@dataclass(frozen=True, slots=True)
class Status:
    """How a hand plays: ``kind`` is surrender, natural, foul or regular; ``why`` explains."""

    kind: str
    natural: str | None = None
    why: str = ""


@dataclass(frozen=True, slots=True)
class PairScore:
    """The units ``first`` wins from ``second`` (negative: ``first`` pays).

    ``rows`` holds the units of each row (front, middle, back) when the rows were compared.
    ``reason``: rows, natural, natural_tie, foul, both_fouled, surrender, both_surrendered.
    """

    first: int
    second: int
    rows: tuple[int, int, int] | None
    total: int
    reason: str


@dataclass(frozen=True, slots=True)
class Payment:
    """``amount`` cents from the ``payer``'s stack to the ``winner``'s (player indices)."""

    payer: int
    winner: int
    amount: int


@dataclass(frozen=True, slots=True)
class HandScore:
    """A scored and settled hand; every tuple is indexed by player except pairs and payments."""

    statuses: tuple[Status, ...]
    pairs: tuple[PairScore, ...]
    units: tuple[int, ...]
    payments: tuple[Payment, ...]
    stacks: tuple[int, ...]


def bonus(row: str, category: str, royal: bool = False) -> int:
    """The bonus a winning row of this category is paid, or 0 when it is paid 1 unit.

    >>> bonus("middle", "straight_flush", royal=True), bonus("back", "full_house")
    (14, 0)
    """
    table = ROW_BONUSES[row]
    if royal and category == "straight_flush":
        return table.get("royal_flush", 0)
    return table.get(category, 0)


def row_bonus(row: str, cards: Sequence[Card]) -> int:
    """The bonus of a row's cards (see :func:`bonus`)."""
    value = rank_hand("chinese_front" if row == "front" else "five_card", cards)
    ranks = {card.rank for card in cards}
    return bonus(row, value.category, royal=13 in ranks and 14 in ranks)


def _check_rows(index: int, hand: PlayerHand) -> None:
    if hand.natural is not None:
        check_name(hand.natural)
    if hand.surrender and not hand.cards:
        return
    for name, row, size in zip(ROWS, (hand.front, hand.middle, hand.back), (3, 5, 5), strict=True):
        if len(row) != size:
            raise ValueError(f"player {index}: the {name} row needs {size} cards, not {len(row)}")


def resolve(hand: PlayerHand, opponent_surrendered: bool = False) -> Status:
    """How a hand plays: its surrender, its natural, or its rows (in order or fouled).

    A false claim is dropped when ``opponent_surrendered`` and the hand says the claim came
    after that surrender; otherwise it is a foul.
    """
    if hand.surrender:
        return Status("surrender")
    if hand.natural is not None:
        if makes_natural(hand.natural, hand.cards):
            return Status("natural", hand.natural)
        if not (hand.claimed_after_surrender and opponent_surrendered):
            return Status("foul", why=f"false claim of {hand.natural.replace('_', ' ')}")
    if rows_in_order(hand.front, hand.middle, hand.back):
        return Status("regular")
    return Status("foul", why="rows out of order")


def _compare_rows(one: PlayerHand, two: PlayerHand) -> tuple[int, int, int]:
    units = []
    for name in ROWS:
        row_one, row_two = getattr(one, name), getattr(two, name)
        kind = "chinese_front" if name == "front" else "five_card"
        value_one, value_two = rank_hand(kind, row_one), rank_hand(kind, row_two)
        if value_one > value_two:
            units.append(row_bonus(name, row_one) or 1)
        elif value_two > value_one:
            units.append(-(row_bonus(name, row_two) or 1))
        else:
            units.append(0)
    return units[0], units[1], units[2]


def _bonuses(hand: PlayerHand) -> int:
    return sum(row_bonus(name, getattr(hand, name)) for name in ROWS)


def score_pair(
    first: int, second: int, hands: Sequence[PlayerHand], statuses: Sequence[Status]
) -> PairScore:
    """The units ``first`` wins from ``second`` under the rules page's cases."""
    one, two = statuses[first], statuses[second]
    kinds = (one.kind, two.kind)
    if kinds == ("surrender", "surrender"):
        return PairScore(first, second, None, 0, "both_surrendered")
    if "surrender" in kinds:
        sign = -1 if one.kind == "surrender" else 1
        return PairScore(first, second, None, sign * SURRENDER_UNITS, "surrender")
    if kinds == ("natural", "natural"):
        assert one.natural is not None and two.natural is not None
        rank_one, rank_two = natural_rank(one.natural), natural_rank(two.natural)
        if rank_one == rank_two:
            return PairScore(first, second, None, 0, "natural_tie")
        if rank_one < rank_two:
            return PairScore(first, second, None, NATURAL_VALUES[one.natural], "natural")
        return PairScore(first, second, None, -NATURAL_VALUES[two.natural], "natural")
    if one.kind == "natural":
        assert one.natural is not None
        return PairScore(first, second, None, NATURAL_VALUES[one.natural], "natural")
    if two.kind == "natural":
        assert two.natural is not None
        return PairScore(first, second, None, -NATURAL_VALUES[two.natural], "natural")
    if kinds == ("foul", "foul"):
        return PairScore(first, second, None, 0, "both_fouled")
    if one.kind == "foul":
        return PairScore(first, second, None, -FOUL_UNITS - _bonuses(hands[second]), "foul")
    if two.kind == "foul":
        return PairScore(first, second, None, FOUL_UNITS + _bonuses(hands[first]), "foul")
    rows = _compare_rows(hands[first], hands[second])
    return PairScore(first, second, rows, sum(rows), "rows")


def settlement_order(count: int, button: int) -> list[tuple[int, int]]:
    """The order pairs are settled in: the button against each other player from its left,
    clockwise; then the next player against each player after them; and so on.

    >>> settlement_order(4, button=2)
    [(2, 3), (2, 0), (2, 1), (3, 0), (3, 1), (0, 1)]
    """
    order = [(button + step) % count for step in range(count)]
    return [(a, b) for i, a in enumerate(order) for b in order[i + 1 :]]


def settle(
    pairs: Sequence[PairScore], stacks: Sequence[int], *, unit: int
) -> tuple[tuple[Payment, ...], tuple[int, ...]]:
    """Pay each pair in the given order, each payment cut to what the payer still has and to
    what the winner may still win (a net gain of at most their starting stack).

    >>> pairs = [PairScore(0, 1, None, 5, "natural"), PairScore(0, 2, None, 9, "natural")]
    >>> settle(pairs, [300, 200, 1000], unit=100)
    ((Payment(payer=1, winner=0, amount=200), Payment(payer=2, winner=0, amount=100)), \
(600, 0, 900))
    """
    start = list(stacks)
    now = list(stacks)
    payments = []
    for pair in pairs:
        if pair.total == 0:
            continue
        winner, payer = (pair.first, pair.second) if pair.total > 0 else (pair.second, pair.first)
        room = 2 * start[winner] - now[winner]
        amount = min(abs(pair.total) * unit, now[payer], room)
        if amount > 0:
            now[payer] -= amount
            now[winner] += amount
            payments.append(Payment(payer, winner, amount))
    return tuple(payments), tuple(now)


def score_hand(
    hands: Sequence[PlayerHand], stacks: Sequence[int], *, unit: int, button: int
) -> HandScore:
    """Score and settle a hand; ``hands`` and ``stacks`` (after the fee) are in seat order and
    ``button`` is an index into them. Bad input raises ValueError saying what is wrong.
    """
    count = len(hands)
    if count < 2 or len(stacks) != count:
        raise ValueError("a hand needs at least two players, each with a stack")
    if not 0 <= button < count:
        raise ValueError(f"button must be a player index from 0 to {count - 1}, not {button}")
    if unit <= 0 or any(amount < 0 for amount in stacks):
        raise ValueError("the unit must be positive and no stack negative")
    seen: set[Card] = set()
    for index, hand in enumerate(hands):
        _check_rows(index, hand)
        for card in hand.cards:
            if card in seen:
                raise ValueError(f"card {card} appears twice")
            seen.add(card)
    surrendered = [index for index, hand in enumerate(hands) if hand.surrender]
    statuses = tuple(
        resolve(hand, any(other != index for other in surrendered))
        for index, hand in enumerate(hands)
    )
    pairs = tuple(score_pair(a, b, hands, statuses) for a, b in settlement_order(count, button))
    units = [0] * count
    for pair in pairs:
        units[pair.first] += pair.total
        units[pair.second] -= pair.total
    payments, final = settle(pairs, stacks, unit=unit)
    return HandScore(statuses, pairs, tuple(units), payments, final)
