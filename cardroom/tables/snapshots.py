"""A table as it stands at one version: everything any viewer's frame is built from.

The runtime builds a snapshot from what it already holds in the action's transaction and sends
it with the version after commit, so every connection builds its own viewer's frame in memory
(``state_frame``: the game's ``view`` is pure) with no database read on the push path. A
connection that opens, or asks for ``sync``, reads the same snapshot from the database.

A snapshot is plain JSON (it crosses Redis as msgpack), except the game's state, carried as
its JSON text (bytes) so that packing and unpacking copy it rather than walk it: a process
whose sockets watch the table builds their frames from the state its maker shares
(``share_loaded``) and never parses the text (``snapshot_state`` does, elsewhere). Besides the
state: the table's fields, who sits where and whether they are online, the deck commitment of
the hand in play, and, only in the versions that change them, the recent hands, the bankrolls
that moved and (at a tournament's table) the tournament's state (cardroom/tables/chips.py). A
connection keeps the last of each it was sent.

Contracts: a snapshot is never changed once made (every viewer of the process shares it, and
the state loaded from it); a frame is built from the snapshot alone, through the game's
``view``, the only source of cards, so nothing hidden reaches a viewer.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from datetime import UTC, datetime
from functools import lru_cache
from threading import Lock
from typing import Any

import orjson

from cardroom.models import Hand, Table
from cardroom.storage.rows import open_commitment, seats_online
from cardroom.tables.chips import CHIPS_REFUSED, tournament_of
from cardroom.tables.engines import TableState, engine_for
from cardroom.tables.hand_log import recent_hands
from games.engine import JSON, Game

__all__ = [
    "Frame",
    "Snapshot",
    "commitment_of",
    "share_loaded",
    "snapshot_from_db",
    "snapshot_state",
    "state_frame",
    "table_from",
    "table_snapshot",
]

#: A table at one version, as JSON: ``stamp``, ``id``, ``version``, ``state``, the
#: ``TABLE_FIELDS``, ``seats`` ([number, user id, online] each), ``commitment`` and, when the
#: version changed them, ``recent``, ``bankrolls`` ({user id as text: cents}) and, at a
#: tournament's table, ``tournament`` (its JSON: docs/tournaments.md, "The JSON").
Snapshot = JSON
#: One viewer's ``state`` message: ``{"type": "state", "version", "table": view, "you",
#: "tournament"}`` (``tournament``: null at a table that plays for money).
Frame = JSON

#: Table fields a snapshot carries (what the frames and the page's regions show);
#: ``plays_for_chips`` says whether its amounts are drawn as a tournament's chips.
TABLE_FIELDS = ("name", "game", "preset", "config", "stakes", "status", "plays_for_chips")
#: Loaded game states by the stamp of the snapshot that carried them, shared by every viewer of
#: the process: loading the JSON state is the costly part of a frame, and the same for all.
_LOADED: OrderedDict[str, TableState] = OrderedDict()
_LOADED_MAX = 1024
_LOADED_LOCK = Lock()


def table_snapshot(
    table: Table,
    seats: list[tuple[int, int, bool]],
    commitment: JSON | None,
    *,
    stamp: str | None = None,
    **extra: object,
) -> Snapshot:
    """A snapshot from values in hand. ``seats``: (number, user id, online) of each occupied
    seat. ``stamp``: unique to this snapshot, so that its loaded state may be shared (the
    runtime's; a snapshot read from the database has none). ``extra``: ``recent`` (the log of
    hands), ``bankrolls`` ({user id as text: cents}) and ``tournament`` when this version
    changed them."""
    snapshot: Snapshot = {
        "stamp": stamp,
        "id": table.pk,
        "version": table.version,
        "state": _state_text(table.state),
        **{name: getattr(table, name) for name in TABLE_FIELDS},
        "seats": [list(entry) for entry in seats],
        "commitment": commitment,
    }
    snapshot.update((name, value) for name, value in extra.items() if value is not None)
    return snapshot


def snapshot_from_db(table: Table) -> Snapshot:
    """The snapshot of ``table`` as the database holds it (a connection's first frame, sync);
    at a tournament's table, with the tournament's state."""
    return table_snapshot(
        table,
        seats_online(table.pk),
        open_commitment(table.pk),
        recent=recent_hands(table=table),
        tournament=tournament_of(table.pk) if table.plays_for_chips else None,
    )


def commitment_of(hand: Hand | None) -> JSON | None:
    """The published commitment of the hand in play, if one is open."""
    if hand is None or hand.ended is not None:
        return None
    return {"number": hand.number, "root": hand.commitment_root}


def table_from(snapshot: Snapshot) -> Table:
    """An unsaved Table carrying the snapshot's fields, for templates that draw a table."""
    # A snapshot made before a field was carried gives the model's default.
    fields = {name: snapshot[name] for name in TABLE_FIELDS if name in snapshot}
    state = snapshot_state(snapshot)
    return Table(pk=snapshot["id"], version=snapshot["version"], state=state, **fields)


def snapshot_state(snapshot: Snapshot) -> JSON:
    """The game's state a snapshot carries, as JSON (a snapshot made before the state was
    carried as text, by a process of the previous release, carries the JSON itself)."""
    state = snapshot["state"]
    if isinstance(state, bytes | str):
        loaded: JSON = orjson.loads(state)
        return loaded
    carried: JSON = state
    return carried


def _state_text(state: Any) -> bytes:
    """The state's JSON text, by orjson; what orjson refuses (an integer beyond 64 bits) by
    the standard library."""
    try:
        return orjson.dumps(state)
    except TypeError:  # orjson.JSONEncodeError
        return json.dumps(state).encode()


def share_loaded(stamp: str, state: TableState) -> None:
    """The state a snapshot stamped ``stamp`` carries, as its maker holds it loaded: the frames
    of this process's sockets are built from it rather than from the JSON loaded again."""
    with _LOADED_LOCK:
        _LOADED[stamp] = state
        while len(_LOADED) > _LOADED_MAX:
            _LOADED.popitem(last=False)


def _loaded(game: Game[TableState], snapshot: Snapshot) -> TableState:
    key = snapshot.get("stamp")
    if key is None:
        return game.load(snapshot_state(snapshot))
    with _LOADED_LOCK:
        state = _LOADED.get(key)
        if state is not None:
            _LOADED.move_to_end(key)
            return state
    state = game.load(snapshot_state(snapshot))
    with _LOADED_LOCK:
        _LOADED[key] = state
        while len(_LOADED) > _LOADED_MAX:
            _LOADED.popitem(last=False)
    return state


def state_frame(snapshot: Snapshot, user_id: int | None) -> Frame:
    """The ``state`` message for one viewer: the game's view of that viewer's seat, and the
    tournament's state at a tournament's table (the same for every viewer; null elsewhere).

    The game's view is the only source of cards, so nothing hidden can reach the viewer.
    """
    game: Game[TableState] = engine_for(snapshot["game"]).game
    state = _loaded(game, snapshot)
    seat = next((entry[0] for entry in snapshot["seats"] if entry[1] == user_id), None)
    view = game.view(state, seat)
    deadline = view.get("deadline")
    view["deadline"] = None if deadline is None else _moment_text(deadline)
    view.setdefault("pot", 0)
    view["table"] = {
        "id": snapshot["id"],
        "name": snapshot["name"],
        "game": snapshot["game"],
        "preset": snapshot["preset"],
        "status": snapshot["status"],
        "stakes": snapshot["stakes"],
        "plays_for_chips": bool(snapshot.get("plays_for_chips")),
    }
    online = {entry[0]: entry[2] for entry in snapshot["seats"]}
    for entry in view.get("seats", []):
        if entry.get("seat") in online:
            entry["online"] = online[entry["seat"]]
    if view.get("you") is None and user_id is not None:
        view["you"] = _spectator_you(game, state, snapshot["status"], view)
    if snapshot.get("plays_for_chips") and view.get("you"):
        # The tournament seats its players and keeps them until they are out of chips: the
        # buttons the runtime would refuse are not offered.
        you = view["you"]
        you["legal_actions"] = [
            action
            for action in you.get("legal_actions", [])
            if action.get("kind") not in CHIPS_REFUSED
        ]
    return {
        "type": "state",
        "version": snapshot["version"],
        "table": view,
        "you": view.get("you"),
        "tournament": snapshot.get("tournament"),
    }


@lru_cache(maxsize=4096)
def _moment_text(timestamp: float) -> str:
    """A deadline (seconds since the epoch) as ISO 8601 text in UTC: the same for every viewer
    of a version, so written once for all of them."""
    return datetime.fromtimestamp(timestamp, tz=UTC).isoformat()


def _spectator_you(game: Game[TableState], state: TableState, status: str, view: JSON) -> JSON:
    """A logged-in viewer without a seat: no cards, and ``sit`` while a seat is free."""
    free = [entry["seat"] for entry in view.get("seats", []) if "player" not in entry]
    if not free or status != "open":
        return {"seat": None, "cards": [], "legal_actions": []}
    legal = game.legal_actions(state, free[0])
    return {"seat": None, "cards": [], "legal_actions": [a for a in legal if a["kind"] == "sit"]}
