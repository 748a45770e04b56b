"""The time bank: each player's reserve of seconds for a turn that is their own.

Where a decision is a player's own (classic Guts's declares in turn, Chinese Poker's setting,
Three Card Poker's Play or Fold), a player whose decision timer runs out with seconds left in
their reserve is not timed out: the ``timeout`` starts their bank (:class:`TimeBankStarted`),
and their own deadline moves on by the whole reserve. If they act during it, the time they used
(``now`` less the passed deadline) is taken from the reserve and the rest is kept; if the bank
runs out too, the usual timeout applies to them and their reserve is 0. The reserve is full
again at the start of every hand, or of every round (``time_bank_refill``).

Several players may be deciding at once (Chinese Poker, Three Card Poker): each has a bank of
their own. Every one of them shares the phase's deadline ``D`` until it passes; the timeout at
``D`` starts the bank of each one with a reserve (``since = D``) and times out the others. From
then on each one's own deadline is ``since + left``, the phase's deadline is the earliest of
them, and a timeout applies only to the players whose own time has passed. So while a phase
runs, either nobody is on the bank (every own deadline is the state's deadline) or every player
still deciding is on it.

Everything is computed from the action's ``now`` and the state: the journal replays it exactly.

>>> banks = Banks.full(3, 30.0)
>>> out = expire(banks, [1], deadline=100.0, now=100.2)
>>> out.started, out.expired, out.deadline
(((1, 30.0),), (), 130.0)
>>> banks = out.banks.charged(1, now=112.5, deadline=130.0)
>>> banks.left[1], banks.running(1)
(17.5, False)
>>> expire(banks, [1], deadline=200.0, now=200.0).started
((1, 17.5),)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from games.engine import ConfigError
from games.events import BaseEvent
from games.words import words

__all__ = [
    "MAX_TIME_BANK",
    "NO_BANKS",
    "REFILLS",
    "Banks",
    "Expiry",
    "TimeBankStarted",
    "check_time_bank",
    "expire",
    "next_deadline",
    "seat_view",
]

#: When a reserve is full again: at every hand's start, or at every round's (a game of Guts).
REFILLS = ("hand", "round")
#: The largest reserve a table may give, in seconds.
MAX_TIME_BANK = 600


def check_time_bank(seconds: Any, refill: Any, *, rounds: bool) -> tuple[float, str]:
    """The checked ``time_bank`` (seconds, 0: none) and ``time_bank_refill``; ``rounds``: the
    game has rounds, so ``round`` is a valid refill too.

    >>> check_time_bank(30, "hand", rounds=False)
    (30.0, 'hand')
    >>> check_time_bank(30, "round", rounds=False)
    Traceback (most recent call last):
    ...
    games.engine.ConfigError: time_bank_refill must be hand (this game has no rounds), not 'round'
    """
    if (
        isinstance(seconds, bool)
        or not isinstance(seconds, (int, float))
        or not 0 <= seconds <= MAX_TIME_BANK
    ):
        raise ConfigError(
            words(
                "time_bank must be a number of seconds from 0 (no time bank) to {most},"
                " not {value}",
                most=MAX_TIME_BANK,
                value=repr(seconds),
            )
        )
    valid = REFILLS if rounds else REFILLS[:1]
    if refill not in valid:
        if rounds:
            raise ConfigError(
                words(
                    "time_bank_refill must be hand or round, not {value}",
                    value=repr(refill),
                )
            )
        raise ConfigError(
            words(
                "time_bank_refill must be hand (this game has no rounds), not {value}",
                value=repr(refill),
            )
        )
    return float(seconds), str(refill)


@dataclass(frozen=True, slots=True)
class TimeBankStarted(BaseEvent):
    """``seat``'s decision timer ran out and their bank of ``seconds`` started."""

    type: ClassVar[str] = "time_bank"
    seat: int
    seconds: float


@dataclass(frozen=True, slots=True)
class Banks:
    """Each seat's reserve (``left``, seconds) and, while their bank runs, the deadline it
    started at (``since``; ``None``: not on the bank). Tuples indexed by seat number."""

    left: tuple[float, ...]
    since: tuple[float | None, ...]

    @classmethod
    def full(cls, seats: int, seconds: float) -> Banks:
        """Every seat's reserve full, nobody on the bank."""
        return cls((float(seconds),) * seats, (None,) * seats)

    def refilled(self, seconds: float) -> Banks:
        """Every reserve full again (a new hand, or a new round)."""
        return Banks.full(len(self.left), seconds)

    def refill_seat(self, seat: int, seconds: float) -> Banks:
        """A full reserve for a player who sits down in ``seat``."""
        return self._with(seat, float(seconds), None)

    def running(self, seat: int) -> bool:
        """Whether ``seat`` is on their bank now."""
        return self.since[seat] is not None

    def own_deadline(self, seat: int, deadline: float) -> float:
        """``seat``'s own deadline: the end of their bank, else the phase's ``deadline``."""
        since = self.since[seat]
        return deadline if since is None else since + self.left[seat]

    def charged(self, seat: int, now: float, deadline: float | None) -> Banks:
        """After ``seat`` acted at ``now``: the time used past their decision deadline (the
        bank's start, else the phase's ``deadline``) comes off the reserve, never below 0."""
        since = self.since[seat]
        start = since if since is not None else deadline
        if start is None or now <= start:
            return self._with(seat, self.left[seat], None) if since is not None else self
        return self._with(seat, max(0.0, self.left[seat] - (now - start)), None)

    def emptied(self, seat: int) -> Banks:
        """``seat``'s bank ran out (or there was none): the reserve is 0."""
        return self._with(seat, 0.0, None)

    def stopped(self) -> Banks:
        """Nobody on the bank (the phase ended): the reserves stay as they are."""
        return Banks(self.left, (None,) * len(self.left))

    def _with(self, seat: int, left: float, since: float | None) -> Banks:
        lefts, sinces = list(self.left), list(self.since)
        lefts[seat], sinces[seat] = left, since
        return Banks(tuple(lefts), tuple(sinces))

    def to_json(self) -> dict[str, Any]:
        """As JSON: ``{"left": [...], "since": [...]}``."""
        return {"left": list(self.left), "since": list(self.since)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None, seats: int, seconds: float) -> Banks:
        """Read back :meth:`to_json`; a state stored before time banks (``None``) gives
        every seat a full reserve of the table's ``seconds``."""
        if data is None:
            return cls.full(seats, seconds)
        left = tuple(float(value) for value in data["left"])
        since = tuple(None if value is None else float(value) for value in data["since"])
        return cls(left, since)


#: The banks of a state built without them: the state's ``__post_init__`` fills them full.
NO_BANKS = Banks((), ())


@dataclass(frozen=True, slots=True)
class Expiry:
    """What a timeout does to the players still deciding: the banks after it, the seats whose
    bank starts (with its seconds), the seats whose own time has passed (the usual timeout
    applies to each), and the next deadline among those still deciding (``None``: nobody)."""

    banks: Banks
    started: tuple[tuple[int, float], ...]
    expired: tuple[int, ...]
    deadline: float | None

    def events(self) -> list[TimeBankStarted]:
        """A :class:`TimeBankStarted` for each bank that starts."""
        return [TimeBankStarted(seat, seconds) for seat, seconds in self.started]


def expire(banks: Banks, pending: Iterable[int], deadline: float, now: float) -> Expiry:
    """A ``timeout`` at ``now`` (at or after the phase's ``deadline``) for the seats still
    deciding (``pending``). A seat whose own deadline has not passed keeps deciding; one whose
    decision timer passed with a reserve starts the bank at ``deadline`` (unless that too has
    passed by ``now``: after a long stop of the clock); any other is out of time."""
    started: list[tuple[int, float]] = []
    expired: list[int] = []
    waiting: list[int] = []
    for seat in pending:
        if banks.own_deadline(seat, deadline) > now:
            waiting.append(seat)
        elif not banks.running(seat) and banks.left[seat] > 0 and deadline + banks.left[seat] > now:
            banks = banks._with(seat, banks.left[seat], deadline)
            started.append((seat, banks.left[seat]))
            waiting.append(seat)
        else:
            banks = banks.emptied(seat)
            expired.append(seat)
    return Expiry(banks, tuple(started), tuple(expired), next_deadline(banks, waiting, deadline))


def next_deadline(banks: Banks, pending: Sequence[int], deadline: float | None) -> float | None:
    """The phase's deadline: the earliest own deadline of the seats still deciding (the
    phase's ``deadline`` for those not on the bank); ``None`` when nobody is."""
    if not pending or deadline is None:
        return None
    return min(banks.own_deadline(seat, deadline) for seat in pending)


def seat_view(banks: Banks, seat: int) -> dict[str, Any]:
    """What everyone may see of ``seat``'s bank: the reserve left (seconds), whether they are
    on it, and when it ends (``time_bank_ends``, only while it runs)."""
    since = banks.since[seat]
    data: dict[str, Any] = {"time_bank": banks.left[seat], "on_time_bank": since is not None}
    if since is not None:
        data["time_bank_ends"] = since + banks.left[seat]
    return data
