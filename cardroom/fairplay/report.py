"""The daily report: both searches for a day, kept as signals once per kind, day and pair.

Running it again for a day updates that day's signals in place (their reviews are kept), adds
what is new and drops the unreviewed ones no longer found; a reviewed signal is never dropped.
Its queries are bounded whatever the number of seats, hands or signals.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from django.db import transaction

from cardroom.fairplay.flows import Flow, FlowRules, one_way_flows
from cardroom.fairplay.shared import SharedPair, shared_pairs
from cardroom.models import FairPlayKind, FairPlaySignal

__all__ = ["fair_play_report"]

_FIELDS = ["tables", "net", "gross", "hands", "details"]


def _shared_signal(day: date, pair: SharedPair) -> FairPlaySignal:
    return FairPlaySignal(
        kind=FairPlayKind.SHARED_ADDRESS,
        day=day,
        player_a_id=pair.a,
        player_b_id=pair.b,
        tables=list(pair.tables),
        details={
            "strength": pair.strength,
            "addresses": pair.addresses,
            "agents": pair.agents,
            "address_and_agent": pair.both,
            "seconds_together": {str(table): seconds for table, seconds in pair.tables.items()},
        },
    )


def _flow_signal(day: date, days: int, flow: Flow, rules: FlowRules) -> FairPlaySignal:
    payer_paid = flow.a_to_b if flow.payer == flow.a else flow.b_to_a
    return FairPlaySignal(
        kind=FairPlayKind.ONE_WAY_FLOW,
        day=day,
        player_a_id=flow.payer,
        player_b_id=flow.receiver,
        tables=sorted(flow.tables),
        net=flow.net,
        gross=flow.gross,
        hands=flow.hands,
        details={
            "days": days,
            "a_to_b": payer_paid,
            "b_to_a": flow.gross - payer_paid,
            "one_way_percent": payer_paid * 100 // flow.gross if flow.gross else 0,
            "rules": {
                "net_cents": rules.net_cents,
                "one_way_percent": rules.one_way_percent,
                "min_hands": rules.min_hands,
            },
        },
    )


def _signal_json(signal: FairPlaySignal) -> dict[str, Any]:
    return {
        "kind": signal.kind,
        "day": signal.day.isoformat(),
        "players": [signal.player_a_id, signal.player_b_id],
        "tables": signal.tables,
        "net": signal.net,
        "gross": signal.gross,
        "hands": signal.hands,
        "details": signal.details,
    }


def fair_play_report(day: date, days: int = 7, rules: FlowRules | None = None) -> dict[str, Any]:
    """Find and keep ``day``'s signals (shared logins that day; one-way flows over the
    ``days`` days ending on it). Returns the report as JSON: ``day``, ``days``, ``rules``,
    ``signals`` (each: ``kind``, ``day``, ``players`` [A, B], ``tables``, ``net``, ``gross``,
    ``hands``, ``details``; money in cents), ``created``, ``updated`` and ``dropped``."""
    if days < 1:
        raise ValueError("a report covers at least one day")
    rules = rules or FlowRules.from_settings()
    found = [_shared_signal(day, pair) for pair in shared_pairs(day)]
    found += [_flow_signal(day, days, flow, rules) for flow in one_way_flows(day, days, rules)]
    with transaction.atomic():
        existing = {
            (signal.kind, signal.player_a_id, signal.player_b_id): signal
            for signal in FairPlaySignal.objects.select_for_update().filter(day=day)
        }
        new, changed = [], []
        for signal in found:
            old = existing.pop((signal.kind, signal.player_a_id, signal.player_b_id), None)
            if old is None:
                new.append(signal)
                continue
            for name in _FIELDS:
                setattr(old, name, getattr(signal, name))
            changed.append(old)
        FairPlaySignal.objects.bulk_create(new)
        FairPlaySignal.objects.bulk_update(changed, _FIELDS)
        stale = [signal.pk for signal in existing.values() if signal.reviewed_at is None]
        FairPlaySignal.objects.filter(pk__in=stale).delete()
    return {
        "day": day.isoformat(),
        "days": days,
        "rules": {
            "net_cents": rules.net_cents,
            "one_way_percent": rules.one_way_percent,
            "min_hands": rules.min_hands,
        },
        "signals": [_signal_json(signal) for signal in found],
        "created": len(new),
        "updated": len(changed),
        "dropped": len(stale),
    }
