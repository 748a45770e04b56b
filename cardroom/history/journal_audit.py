"""Replaying a table's journal through the games package (docs/architecture.md, "Hand history").

Every action the runtime applied is journaled in order, deals with their decks. Replaying the
journal from the table's first state must give, action by action, the same events: so every
hand ends with its recorded result, and the last state is the table's state. A difference
means the stored history and the rules disagree, which an auditor must hear about.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from cardroom.models import Hand, Table, TableAction
from cardroom.tables.engines import engine_for
from games.words import sentence_of, words

__all__ = ["ReplayResult", "table_replay"]


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value, sort_keys=True))


@dataclass(frozen=True, slots=True)
class ReplayResult:
    """What a replay found: ``ok``, and if not, the first difference in words."""

    table_id: int
    actions: int
    hands: int
    ok: bool
    #: The first difference in words (a sentence of the rules, games.words), or "".
    problem: str = ""


def table_replay(*, table: Table) -> ReplayResult:
    """Replay ``table``'s journal and compare it with the stored hands and state."""
    game = engine_for(table.game).game
    results = {
        hand.number: hand.result
        for hand in Hand.objects.filter(table=table, ended__isnull=False, void_reason="")
        if hand.result and hand.result.get("type") == "hand_ended"
    }
    state: Any = None
    ended: list[dict[str, Any]] = []
    count = 0
    for entry in TableAction.objects.filter(table=table).order_by("version", "seq").iterator():
        count += 1
        action = entry.action
        if action.get("kind") == "restore":
            state = game.load(action["state"])
            continue
        if state is None:
            return ReplayResult(table.pk, count, 0, False, words("the journal has no first state"))
        try:
            state, events = game.apply(state, action)
        except ValueError as error:
            problem = words(
                # Translators: {kind} is the action's kind; {error} the rules' refusal
                "version {version}: the rules refused {kind}: {error}",
                version=entry.version,
                kind=repr(action.get("kind")),
                error=sentence_of(error),
            )
            return ReplayResult(table.pk, count, len(ended), False, problem)
        ended.extend(e.to_json() for e in events if e.to_json()["type"] == "hand_ended")
    recorded = [results[number] for number in sorted(results)]
    if ended != recorded:
        problem = words(
            "{replayed} hands replayed, {recorded} recorded, and their results differ",
            replayed=len(ended),
            recorded=len(recorded),
        )
        return ReplayResult(table.pk, count, len(ended), False, problem)
    # Both through JSON, as the database stores them (tuples become lists, keys text).
    if state is None or _json(game.dump(state)) != _json(table.state):
        return ReplayResult(table.pk, count, len(ended), False, words("the final state differs"))
    return ReplayResult(table.pk, count, len(ended), True)
