"""A snapshot carries the game's state as its JSON text (cardroom/tables/snapshots.py): every
viewer's frame is the same whether it is built from the state its maker shares, from the text
after the snapshot crossed the layer to another process, or from a snapshot of the previous
release, which carried the JSON itself."""

from __future__ import annotations

import msgpack
import orjson
import pytest

from cardroom.models import Table
from cardroom.tables.engines import engine_for
from cardroom.tables.runtime import table_act, table_create
from cardroom.tables.snapshots import (
    share_loaded,
    snapshot_from_db,
    snapshot_state,
    state_frame,
    table_from,
)
from tests.cardroom.driving import play_to_declare

pytestmark = pytest.mark.django_db


@pytest.fixture
def dealt(make_player):
    """A Survivor table in its declare, two players seated with their cards."""
    table = table_create(game="guts", preset="survivor", options={"ante": 100}, name="T")
    ann, bob = make_player("ann"), make_player("bob")
    for player in (ann, bob):
        table_act(table_id=table.pk, user=player, action={"kind": "sit", "buy_in": 20_000})
    play_to_declare(table, [ann, bob])
    return Table.objects.get(pk=table.pk), ann, bob


def test_the_state_travels_as_its_json_text(dealt):
    table, _, _ = dealt
    snapshot = snapshot_from_db(table)
    assert isinstance(snapshot["state"], bytes)
    assert orjson.loads(snapshot["state"]) == table.state == snapshot_state(snapshot)
    assert table_from(snapshot).state == table.state


def test_every_viewer_sees_the_same_frame_however_the_state_came(dealt):
    table, ann, bob = dealt
    snapshot = snapshot_from_db(table)
    crossed = msgpack.unpackb(msgpack.packb({**snapshot, "stamp": "crossed"}))
    older = {**snapshot, "state": table.state}  # the previous release's snapshot
    for viewer in (ann.pk, bob.pk, None):
        frames = [state_frame(made, viewer) for made in (snapshot, crossed, older)]
        assert frames[0] == frames[1] == frames[2]
        assert frames[0]["table"]["phase"] == "declare"
    # Each player's own cards only: what the state's text holds never reaches another viewer.
    mine = state_frame(crossed, ann.pk)["you"]["cards"]
    assert len(mine) == 3
    assert all("cards" not in entry for entry in state_frame(crossed, None)["table"]["seats"])


def test_a_shared_state_is_not_read_from_the_text(dealt, monkeypatch):
    table, ann, _ = dealt
    snapshot = {**snapshot_from_db(table), "stamp": "shared-here"}
    share_loaded("shared-here", engine_for("guts").game.load(table.state))

    def never(_text):
        raise AssertionError("the text was parsed although its state is shared")

    monkeypatch.setattr(orjson, "loads", never)
    assert state_frame(snapshot, ann.pk)["you"]["seat"] is not None
