"""Chinese Poker hands for fixed decks: Ann fouls, Ben's four kings win every row, Cat's hand
is set by the solver; and the deck that deals them (for the table, hostile-input and
statistics tests)."""

from __future__ import annotations

from games.cards import DECK, Card, parse_cards

ROWS = ("front", "middle", "back")


# Ann fouls (a pair of aces in front of a nine-high middle); Ben holds four kings in the back
# and wins every row against Cat, whose hand the solver sets when her time runs out.
ANN = {"front": "As Ah 2h", "middle": "3d 4d 5c 7d 9s", "back": "Tc Ts Td 4h 6h"}


BEN = {"front": "Qd Qh 5d", "middle": "Ac Qc 9c 7c 3c", "back": "Kc Kd Kh Ks 2c"}


CAT = "2d 3h 4s 5h 6d 7h 8s 9d Th Js 6s 8d Jd"


def hand_of(rows: dict[str, str]) -> str:
    return " ".join(rows[name] for name in ROWS)


def cp_deck(order: list[int], hands: dict[int, str]) -> tuple[Card, ...]:
    """A deck dealing ``hands`` to the seats in ``order`` (from the button's left, one card at
    a time round the table), the unused cards after them."""
    parsed = {seat: parse_cards(text) for seat, text in hands.items()}
    dealt = [parsed[order[p % len(order)]][p // len(order)] for p in range(13 * len(order))]
    return tuple(dealt) + tuple(card for card in DECK if card not in dealt)
