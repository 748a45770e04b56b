"""A settlement's working ledger: stacks, pot and reserve moved only through events.

Settling a Guts hand takes many small payments; :class:`Books` makes each one an event and
keeps the running balances, so the result is always consistent with the events. It is a
scratch object inside one ``apply`` (the state itself stays immutable).

>>> books = Books([500, 40, None], pot=300, reserve=0, button=0)
>>> books.pay_into_pot(1, 100, owed=100)
40
>>> books.stacks, books.pot, [event.to_json()["type"] for event in books.events]
([500, 0, None], 340, ['pot_matched'])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.engine import split_amount
from games.guts import events as ev
from games.guts.showdown import pay_out

__all__ = ["Books"]


class Books:
    """Running stacks (``None``: empty seat), pot and reserve, and the events that moved them."""

    def __init__(
        self, stacks: Sequence[int | None], *, pot: int, reserve: int, button: int
    ) -> None:
        self.stacks = list(stacks)
        self.pot = pot
        self.reserve = reserve
        self.button = button
        self.events: list[Any] = []
        self.rake = 0
        self.paid: list[int] = []

    def _take(self, seat: int, amount: int) -> int:
        stack = self.stacks[seat]
        assert stack is not None
        paid = min(stack, amount)
        self.stacks[seat] = stack - paid
        return paid

    def ante(self, seat: int, amount: int) -> int:
        """``seat`` antes ``amount`` (all it has, if less); what was paid."""
        paid = self._take(seat, amount)
        if paid:
            self.events.append(ev.AntePosted(seat, paid))
            self.pot += paid
        return paid

    def pay_into_pot(self, seat: int, amount: int, *, owed: int) -> int:
        """``seat`` pays ``amount`` of what it ``owed`` into the pot (all it has, if less)."""
        paid = self._take(seat, amount)
        self.events.append(ev.PotMatched(seat, paid, owed))
        self.pot += paid
        self.paid.append(seat)
        return paid

    def pay_seats(self, payer: int, payees: Sequence[int], amount: int) -> int:
        """``payer`` pays ``amount`` (all it has, if less) split between ``payees`` directly."""
        paid = self._take(payer, amount)
        self.paid.append(payer)
        for payee, share in split_amount(paid, list(payees), self.button).items():
            if share:
                self.events.append(ev.SeatPaid(payer, payee, share))
                stack = self.stacks[payee]
                assert stack is not None
                self.stacks[payee] = stack + share
        return paid

    def award(
        self, amount: int, winners: Sequence[int], *, basis_points: int, cap: int
    ) -> list[tuple[int, int]]:
        """``amount`` of the pot goes to ``winners`` after the rake; their shares."""
        won = pay_out(amount, winners, button=self.button, basis_points=basis_points, cap=cap)
        self.events.extend(won)
        self.pot -= amount
        shares = []
        for event in won:
            if isinstance(event, ev.RakeTaken):
                self.rake += event.amount
            else:
                stack = self.stacks[event.seat]
                assert stack is not None
                self.stacks[event.seat] = stack + event.amount
                shares.append((event.seat, event.amount))
        return shares

    def balance(self, limit: int | None) -> None:
        """Keep the pot at most ``limit``: the excess to the reserve, or refill from it."""
        if limit is None:
            return
        target = min(limit, self.pot + self.reserve)
        if target > self.pot:
            self.events.append(ev.ReserveMoved(target - self.pot, False))
        elif target < self.pot:
            self.events.append(ev.ReserveMoved(self.pot - target, True))
        self.reserve += self.pot - target
        self.pot = target
