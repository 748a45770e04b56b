"""The owner's side of a hand, in-process: the runtime's benchmark, without sockets or servers.

``python -m tests.load.held [--tables 8] [--hands 20] [--json]``

Survivor tables of five players, created in the configured database, are played through
``held_act`` as a server's action queue plays them (cardroom/realtime/queue.py: a batch at a
time, what is held kept from batch to batch), and each version announced is turned into its
frames as a server's hub turns it: the snapshot packed and unpacked with msgpack, as it crosses
Redis, then one frame per seated player built (``state_frame``) and encoded. Each player antes
and declares from their own view as the load script's bots do (tests/load/load.py), one player
in three letting every other declare time out; the clock's timeouts are sent once due.

Reported: the CPU of this thread per hand dealt in the held batches (``held_ms_per_hand``) and
in the frames (``frames_ms_per_hand``, with the msgpack part apart: ``layer_ms_per_hand``), and
what was played. It leaves out what only a server does (the sockets, the channel layer's
transport, the clock's sweeps), so its figures move far less from run to run than the load
script's, and show a change to the runtime or the frames that the load script's noise hides
(docs/performance.md). Bounded in hands and in seconds; it stops by itself.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from dataclasses import dataclass, field
from typing import Any

import django

from tests.load.load import declare_choice, secret_key_env

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings")
#: The tables' timers: short, so that a run is quick; the clock's timeouts still come.
TIMERS = {"ante_seconds": 0.5, "decision_seconds": 0.5, "showdown_seconds": 0.2}
PLAYERS = 5
#: Between two passes over the tables: the run waits for deadlines, it does not spin.
PASS_SECONDS = 0.002


@dataclass
class Run:
    """What was played and what it cost (seconds of this thread's CPU)."""

    held: float = 0.0
    layer: float = 0.0
    frames: float = 0.0
    batches: int = 0
    versions: int = 0
    built: int = 0
    players: dict[int, list[Any]] = field(default_factory=dict)

    def hear(self, announcement: Any) -> None:
        """A committed version, as a server's hub gets it: across the layer, then a frame for
        each of the table's players."""
        import msgpack

        from cardroom.realtime.protocol import encode_frame
        from cardroom.tables.snapshots import state_frame

        started = time.thread_time()
        snapshot = msgpack.unpackb(msgpack.packb(announcement.snapshot))
        crossed = time.thread_time()
        for player in self.players.get(announcement.table_id, []):
            encode_frame(state_frame(snapshot, player.pk))
            self.built += 1
        self.layer += crossed - started
        self.frames += time.thread_time() - crossed
        self.versions += 1


def seated_tables(tables: int) -> dict[int, list[Any]]:
    """Tables with their players seated (through the locked path, as a sit goes)."""
    from accounts.services import user_create
    from cardroom.tables.runtime import table_act, table_create

    stamp = int(time.time() * 1000) % 10**9
    made = {}
    for number in range(tables):
        table = table_create(
            game="guts", preset="survivor", name=f"held {stamp}-{number}",
            options={"ante": 100, "seats": PLAYERS, **TIMERS},
        )  # fmt: skip
        players = [user_create(username=f"held{stamp}t{number}p{i}") for i in range(PLAYERS)]
        for player in players:
            table_act(table_id=table.pk, user=player, action={"kind": "sit", "buy_in": 30_000})
        made[table.pk] = players
    return made


def decision(view: dict[str, Any], seat: int, hand: int) -> dict[str, Any] | None:
    """What the load script's bot in ``seat`` sends from its ``view`` (None: nothing)."""
    you = view.get("you") or {}
    legal = {action["kind"] for action in you.get("legal_actions", [])}
    if "ante" in legal:
        return {"kind": "ante"}
    if "declare" in legal:
        if seat % 3 == 0 and hand % 2 == 0:
            return None  # the lazy player: the clock mucks this one
        return {"kind": "declare", "choice": declare_choice(you["cards"])}
    if "sit_in" in legal:
        return {"kind": "sit_in"}
    return None


def play(tables: int, hands: int, seconds: float) -> dict[str, Any]:
    """Play until every table has dealt ``hands`` hands, or ``seconds`` have passed."""
    from django.utils import timezone

    from cardroom.tables import announce
    from cardroom.tables.engines import engine_for
    from cardroom.tables.held import Held, held_act
    from cardroom.tables.runtime import Request

    game = engine_for("guts").game
    run = Run(players=seated_tables(tables))
    before = announce.plugged()
    announce.plug(run.hear)
    held: dict[int, Held | None] = dict.fromkeys(run.players)
    dealt = dict.fromkeys(run.players, 0)
    sent = 0
    stop_at = time.monotonic() + seconds

    def batch(table_id: int, request: Request) -> None:
        started = time.thread_time()
        _, held[table_id] = held_act(table_id=table_id, requests=[request], held=held[table_id])
        run.held += time.thread_time() - started
        run.batches += 1

    try:
        while min(dealt.values()) < hands and time.monotonic() < stop_at:
            for table_id, players in run.players.items():
                table = _table(table_id, held[table_id])
                state = game.load(table.state)
                for seat, player in enumerate(players):
                    action = decision(game.view(state, seat), seat, dealt[table_id])
                    if action is not None:
                        sent += 1
                        batch(table_id, Request(player, action, f"h{sent}", True))
                table = _table(table_id, held[table_id])
                if table.deadline is not None and table.deadline <= timezone.now():
                    batch(table_id, Request(None, {"kind": "timeout"}, None, True))
                after = game.load(_table(table_id, held[table_id]).state)
                dealt[table_id] = game.view(after, None)["hand"] or 0
            time.sleep(PASS_SECONDS)
    finally:
        if before is not None:
            announce.plug(before)
    count = sum(dealt.values())
    per_hand = (lambda seconds: round(1000 * seconds / count, 3)) if count else (lambda _: None)
    return {
        "tables": tables,
        "hands": count,
        "batches": run.batches,
        "versions": run.versions,
        "frames": run.built,
        "held_ms_per_hand": per_hand(run.held),
        "frames_ms_per_hand": per_hand(run.frames),
        "layer_ms_per_hand": per_hand(run.layer),
    }


def _table(table_id: int, held: Any) -> Any:
    """The table as the holder left it, or as the database has it when nothing is held."""
    from cardroom.models import Table

    return held.table if held is not None else Table.objects.get(pk=table_id)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=120.0, help="stop this soon")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if not 1 <= args.tables <= 200 or not 1 <= args.hands <= 1000:
        parser.error("--tables 1 to 200, --hands 1 to 1000")
    from django.conf import settings

    if not settings.configured:  # run as a script: this process loads the settings too
        os.environ.update(secret_key_env())
    django.setup()
    result = play(args.tables, args.hands, args.seconds)
    print(json.dumps(result) if args.json else json.dumps(result, indent=2))
    return result


if __name__ == "__main__":
    main()
