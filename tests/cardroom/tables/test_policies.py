"""The port through which the runtime applies responsible gaming's and the wait list's rules
(cardroom/tables/policies.py): plugged in by the app, and refusing to run unplugged."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from cardroom.responsible import checks
from cardroom.tables import policies
from cardroom.waitlist import services as wait_list


def test_the_app_plugs_in_the_limits_and_the_wait_list() -> None:
    limits = policies._plugged.limits
    assert limits is not None
    assert limits.guard_stake is checks.guard_stake
    assert limits.seats_to_release is checks.seats_to_release
    assert limits.stand_up_at_rest is checks.stand_up_at_rest
    assert policies._plugged.wait_list is wait_list.sit_refusal


def test_a_table_never_plays_without_the_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(policies, "_plugged", policies._Plugged())
    now = datetime(2026, 1, 1, tzinfo=UTC)
    with pytest.raises(RuntimeError, match="limits are not plugged in"):
        policies.guard_stake(action={"kind": "sit"}, events=[], seat=None, now=now)  # type: ignore[arg-type]
    with pytest.raises(RuntimeError, match="wait list is not plugged in"):
        policies.sit_refusal(None, None, [1], now)  # type: ignore[arg-type]
