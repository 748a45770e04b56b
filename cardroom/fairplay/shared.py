"""Pairs of players who shared an address or a browser while seated at one table.

The cardroom records, for each login (``accounts.models.LoginSession``), the client's IP
address and its browser's user agent; it records no other device signal, so "the same device"
here means the same user agent text. Many browsers send the same one, so a pair that shares
only an agent is the weakest lead, a shared address stronger, and a login from the same
address with the same agent (``address_and_agent``) the strongest.

Two players count as seated together when they held seats at one table at overlapping times
within the day (``Seat.joined``/``Seat.left``). Their logins count when the session was in use
that day: created before the day's end, seen since its start.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime
from itertools import combinations

from django.db.models import Q

from accounts.models import LoginSession
from cardroom.fairplay.days import day_span
from cardroom.models import Seat

__all__ = ["SharedPair", "shared_pairs"]

#: The strengths of a shared-login lead, strongest first.
STRENGTHS = ("address_and_agent", "address", "agent")


@dataclass
class SharedPair:
    """Two players (``a`` < ``b``, user ids), the tables where they sat together and the
    seconds of overlap at each, and what their logins shared."""

    a: int
    b: int
    tables: dict[int, int] = field(default_factory=dict)
    addresses: list[str] = field(default_factory=list)
    agents: list[str] = field(default_factory=list)
    both: list[list[str]] = field(default_factory=list)

    @property
    def strength(self) -> str:
        """``address_and_agent``, ``address`` or ``agent`` (module docstring)."""
        if self.both:
            return "address_and_agent"
        return "address" if self.addresses else "agent"


def _seated_together(start: datetime, end: datetime) -> dict[tuple[int, int], dict[int, int]]:
    """Pairs of users seated at one table at overlapping times in [start, end): the seconds
    of overlap at each table. One query."""
    seats = Seat.objects.filter(user__isnull=False, joined__lt=end).filter(
        Q(left__isnull=True) | Q(left__gte=start)
    )
    by_table: defaultdict[int, list[tuple[int, datetime, datetime]]] = defaultdict(list)
    for table_id, user_id, joined, left in seats.values_list(
        "table_id", "user_id", "joined", "left"
    ):
        by_table[table_id].append((user_id, max(joined, start), min(left or end, end)))
    pairs: defaultdict[tuple[int, int], dict[int, int]] = defaultdict(dict)
    for table_id, spans in by_table.items():
        for (u1, s1, e1), (u2, s2, e2) in combinations(spans, 2):
            if u1 == u2:
                continue
            overlap = (min(e1, e2) - max(s1, s2)).total_seconds()
            if overlap > 0:
                key = (min(u1, u2), max(u1, u2))
                pairs[key][table_id] = pairs[key].get(table_id, 0) + int(overlap)
    return pairs


def shared_pairs(day: date) -> list[SharedPair]:
    """The pairs seated together on ``day`` whose logins that day shared an address or an
    agent, ordered by the pair. Two queries, whatever the number of seats."""
    start, end = day_span(day)
    together = _seated_together(start, end)
    if not together:
        return []
    users = {user for pair in together for user in pair}
    logins: defaultdict[int, set[tuple[str, str]]] = defaultdict(set)
    rows = LoginSession.objects.filter(
        user_id__in=users, created__lt=end, last_seen__gte=start
    ).values_list("user_id", "ip_address", "user_agent")
    for user_id, address, agent in rows:
        logins[user_id].add((address or "", agent or ""))
    found = []
    for (a, b), tables in sorted(together.items()):
        mine, theirs = logins.get(a, set()), logins.get(b, set())
        addresses = {ip for ip, _ in mine if ip} & {ip for ip, _ in theirs if ip}
        agents = {ua for _, ua in mine if ua} & {ua for _, ua in theirs if ua}
        both = {(ip, ua) for ip, ua in mine if ip and ua} & theirs
        if addresses or agents:
            found.append(
                SharedPair(
                    a,
                    b,
                    dict(sorted(tables.items())),
                    sorted(addresses),
                    sorted(agents),
                    [list(pair) for pair in sorted(both)],
                )
            )
    return found
