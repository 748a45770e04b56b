"""A player's sessions: their continuous play, split where 30 minutes pass without a hand
(docs/statistics.md, "Sessions").

The database gives the player's hands in the order they were dealt, each with its first deal
and the player's net in it; one pass over them (streamed, never held) closes a session at each
gap, keeping the totals and the latest few sessions.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db.models import Min, OuterRef
from django.utils.translation import gettext

from accounts.models import User
from cardroom.stats.hands import player_deals
from cardroom.stats.money import hand_net
from cardroom.stats.period import Period

__all__ = ["GAP", "KEPT", "Session", "Sessions", "duration_text", "player_sessions"]

#: A pause this long or longer without a hand ends a session.
GAP = timedelta(minutes=30)
#: How many of the latest sessions are listed.
KEPT = 20


@dataclass(frozen=True, slots=True)
class Session:
    """From the first hand's deal to the last's; ``net`` is the player's net in its hands."""

    start: datetime
    end: datetime
    hands: int
    net: int
    tables: frozenset[int]

    @property
    def length(self) -> timedelta:
        return self.end - self.start

    @property
    def length_text(self) -> str:
        return duration_text(self.length)


@dataclass(frozen=True, slots=True)
class Sessions:
    """How many sessions there were, their hands and net, and the latest ones, newest first."""

    count: int = 0
    hands: int = 0
    net: int = 0
    longest: timedelta = timedelta(0)
    latest: list[Session] = field(default_factory=list)

    @property
    def longest_text(self) -> str:
        return duration_text(self.longest)


def duration_text(length: timedelta) -> str:
    """A length in hours and minutes (a session of one hand lasts under a minute).

    >>> duration_text(timedelta(minutes=95)), duration_text(timedelta(seconds=20))
    ('1 h 35 min', 'under a minute')
    """
    minutes = int(length.total_seconds() // 60)
    if minutes == 0:
        return gettext("under a minute")
    hours, minutes = divmod(minutes, 60)
    if hours:
        # Translators: a length of time in hours and minutes, "1 h 35 min".
        return gettext("%(hours)s h %(minutes)s min") % {"hours": hours, "minutes": minutes}
    # Translators: a length of time in minutes, "35 min".
    return gettext("%(minutes)s min") % {"minutes": minutes}


def player_sessions(
    *, user: User, period: Period, gap: timedelta = GAP, kept: int = KEPT
) -> Sessions:
    """The player's sessions among the hands dealt to them in the period (module docstring)."""
    hands = (
        player_deals(user=user, period=period)
        .values("hand", "table_id")
        .annotate(at=Min("created"), net=hand_net(user=user, hand=OuterRef("hand")))
        .values_list("at", "net", "table_id")
        .order_by("at", "hand")
    )
    closed = _Closed(deque(maxlen=kept))
    total_hands = total_net = 0
    current: _Open | None = None
    for at, net, table_id in hands.iterator(chunk_size=2_000):
        if current is not None and at - current.end >= gap:
            closed.add(current.closed())
            current = None
        current = current or _Open(at, at)
        current.add(at, int(net), table_id)
        total_hands += 1
        total_net += int(net)
    if current is not None:
        closed.add(current.closed())
    return Sessions(
        closed.count, total_hands, total_net, closed.longest, list(reversed(closed.latest))
    )


@dataclass(slots=True)
class _Closed:
    """The sessions read so far: how many, the longest, and the latest few."""

    latest: deque[Session]
    count: int = 0
    longest: timedelta = timedelta(0)

    def add(self, session: Session) -> None:
        self.latest.append(session)
        self.count += 1
        self.longest = max(self.longest, session.length)


@dataclass(slots=True)
class _Open:
    """The session being read."""

    start: datetime
    end: datetime
    hands: int = 0
    net: int = 0
    tables: set[int] = field(default_factory=set)

    def add(self, at: datetime, net: int, table_id: int) -> None:
        self.end = at
        self.hands += 1
        self.net += net
        self.tables.add(table_id)

    def closed(self) -> Session:
        return Session(self.start, self.end, self.hands, self.net, frozenset(self.tables))
