"""The load script runs, bounded, and reports what it measured."""

from __future__ import annotations

import argparse
import importlib
import json
import os
import subprocess
import sys
import time

import pytest
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from cardroom import routing
from tests.live import ROOT, database_url
from tests.load import bare, load
from tests.load.load import (
    cost_vs_bare,
    database_cpu_seconds,
    handshake_cpu_ms,
    main,
    parse,
    percentiles,
    sit_delays,
)

pytestmark = pytest.mark.django_db(transaction=True)
#: The short game every run here plays: timers that keep it within seconds.
#: Each bare broadcast's bound in the tests' runs (the script's default is bare.SECONDS).
BARE_SECONDS = 1.0
SHORT = ["--decision-seconds", "1", "--ante-seconds", "1", "--showdown-seconds", "0.2",
         "--bare-seconds", str(BARE_SECONDS)]  # fmt: skip


def test_percentiles_are_in_milliseconds():
    assert percentiles([0.001, 0.002, 0.003]) == {
        "count": 3, "p50_ms": 2.0, "p95_ms": 3.0, "p99_ms": 3.0, "max_ms": 3.0,
    }  # fmt: skip


def test_cost_vs_bare_is_the_cpu_per_hand_over_the_frames_floor():
    result = {
        "hands": 10,
        "state_frames": 500,
        "server_cpu_ms_per_hand": 60.0,
        "bare_broadcast": {"server_cpu_ms_per_delivery": 0.2},
    }
    # 50 frames a hand at 0.2 ms each is a 10 ms floor; 60 ms a hand is 6 times it.
    assert cost_vs_bare(result) == {
        "state_frames_per_hand": 50.0, "bare_cpu_ms_per_delivery": 0.2, "cost_vs_bare": 6.0,
        "cost_vs_bare_seated": None,  # no window of the room seated
        "bare_paced_cpu_ms_per_delivery": None, "cost_vs_bare_paced": None,  # no paced run
        "bare_lean_cpu_ms_per_delivery": None, "cost_vs_bare_lean": None,  # no lean run
    }  # fmt: skip
    missing = {**result, "bare_broadcast": {"server_cpu_ms_per_delivery": None}}
    assert cost_vs_bare(missing)["cost_vs_bare"] is None
    assert cost_vs_bare({**result, "hands": 0})["cost_vs_bare"] is None
    # Once seated: 4 hands of 40 frames (a 8 ms floor) at 32 ms a hand, against the same floor.
    seated = {**result, "seated_window": {"cpu_seconds": 0.128, "hands": 4, "state_frames": 160},
              "server_cpu_ms_per_hand_seated": 32.0}  # fmt: skip
    assert cost_vs_bare(seated)["cost_vs_bare_seated"] == 4.0
    assert cost_vs_bare(seated)["cost_vs_bare"] == 6.0  # the whole run's, unchanged
    no_hand = {**seated, "seated_window": {"cpu_seconds": 0.1, "hands": 0, "state_frames": 9}}
    assert cost_vs_bare(no_hand)["cost_vs_bare_seated"] is None
    # Against the paced run's floor: 50 frames at 0.4 ms is 20 ms; 60 ms a hand is 3 times it.
    paced = cost_vs_bare({**result, "bare_paced": {"server_cpu_ms_per_delivery": 0.4}})
    assert paced["bare_paced_cpu_ms_per_delivery"] == 0.4
    assert paced["cost_vs_bare_paced"] == 3.0
    assert paced["cost_vs_bare"] == 6.0  # the saturated run's, unchanged
    # Against the floor without Channels' hop a message: 50 frames at 0.1 ms is 5 ms; 12 times.
    lean = cost_vs_bare({**result, "bare_lean": {"server_cpu_ms_per_delivery": 0.1}})
    assert lean["bare_lean_cpu_ms_per_delivery"] == 0.1
    assert lean["cost_vs_bare_lean"] == 12.0
    assert lean["cost_vs_bare"] == 6.0  # the stock floor's, unchanged
    assert cost_vs_bare({**result, "bare_lean": {"error": "x"}})["cost_vs_bare_lean"] is None


async def test_a_bare_broadcast_that_cannot_run_is_reported_as_its_error():
    """Either run of the bare broadcast (saturated or paced) that fails leaves its error in
    the result, and the game's figures are reported all the same."""
    from tests.live import free_port

    nobody = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    args = argparse.Namespace(players=2, by_table=True, bare_seconds=BARE_SECONDS)
    for pace in (None, 10.0):
        failed = await load.bare_or_error([nobody], 1, args, pace=pace)
        assert failed["per_s"] == 0.0 and failed["dropped"] == 0
        assert failed["error"].startswith(("ConnectionRefusedError", "OSError"))


async def test_a_paced_bare_broadcast_asks_one_message_at_a_time_round_the_groups():
    asked: list[tuple[str, int]] = []

    class Asked:
        def __init__(self, name: str) -> None:
            self.name = name

        async def ask(self, count: int) -> None:
            asked.append((self.name, count))

    groups = [Asked("a"), Asked("b"), Asked("c")]
    started = time.monotonic()
    # A fast pace and a far deadline: it stops once each group has had its two.
    await bare.ask_paced(groups, 1000.0, 2, started, started + 30)  # type: ignore[arg-type]
    assert asked == [("a", 1), ("b", 1), ("c", 1)] * 2
    # A slow pace: by the deadline, only the messages that came due.
    asked.clear()
    started = time.monotonic()
    await bare.ask_paced(groups, 1.0, 100, started, started + 0.05)  # type: ignore[arg-type]
    assert asked == [("a", 1)]


def bench_paths() -> list[str]:
    paths = [str(pattern.pattern) for pattern in routing.websocket_urlpatterns]
    return [path for path in paths if "bench" in path]


def test_the_bench_route_is_absent_unless_cardroom_bench(settings):
    assert settings.CARDROOM_BENCH is False
    assert bench_paths() == []
    settings.CARDROOM_BENCH = True
    try:
        importlib.reload(routing)
        assert bench_paths() == ["ws/bench/broadcast/", "ws/bench/lean/"]
    finally:
        settings.CARDROOM_BENCH = False
        importlib.reload(routing)
    assert bench_paths() == []


async def test_without_the_setting_no_socket_reaches_a_bench_consumer():
    communicator = WebsocketCommunicator(
        URLRouter(routing.websocket_urlpatterns), "/ws/bench/broadcast/?group=bench-1"
    )
    with pytest.raises(ValueError, match="No route found"):
        await communicator.connect()


async def test_the_bench_consumer_sends_a_burst_to_its_group():
    from cardroom.realtime.bench import BroadcastConsumer

    app = BroadcastConsumer.as_asgi()
    members = [WebsocketCommunicator(app, "/?group=bench-t") for _ in range(2)]
    for member in members:
        assert (await member.connect())[0]
    await members[0].send_json_to({"burst": 3, "group": "bench-t"})
    for member in members:
        assert [await member.receive_from() for _ in range(3)] == ["0", "1", "2"]
    outsider = WebsocketCommunicator(app, "/?group=table-1")  # never a table's group
    assert not (await outsider.connect())[0]
    for member in members:
        await member.disconnect()


@pytest.mark.parametrize("hops", [True, False], ids=["stock", "lean"])
async def test_the_stock_yardstick_takes_channels_hop_a_message_and_the_lean_one_does_not(
    monkeypatch, hops
):
    """The stock consumer runs ``close_old_connections`` in a thread before each message, as
    Channels does; the lean one, like the table sockets, never does."""
    import channels.consumer

    from cardroom.realtime.bench import BroadcastConsumer, LeanBroadcastConsumer

    hopped: list[int] = []

    async def hop() -> None:
        hopped.append(1)

    monkeypatch.setattr(channels.consumer, "aclose_old_connections", hop)
    app = (BroadcastConsumer if hops else LeanBroadcastConsumer).as_asgi()
    member = WebsocketCommunicator(app, "/?group=bench-hop")
    assert (await member.connect())[0]
    await member.send_json_to({"burst": 3})
    assert [await member.receive_from() for _ in range(3)] == ["0", "1", "2"]
    await member.disconnect()
    if hops:  # the handshake, the burst's request and its three messages, at least
        assert len(hopped) >= 5
    else:
        assert hopped == []


def test_the_table_sockets_dispatch_without_the_hop():
    from cardroom.realtime.consumers import TableApiConsumer, TablePageConsumer
    from cardroom.realtime.dispatch import DispatchWithoutHop

    for consumer in (TableApiConsumer, TablePageConsumer):
        assert consumer.dispatch is DispatchWithoutHop.dispatch


def test_the_handshakes_cost_is_per_socket_and_only_in_step():
    assert handshake_cpu_ms(10.0, 10.5, 100, 0.0) == 5.0
    assert handshake_cpu_ms(10.0, 10.5, 100, 5.0) is None
    assert handshake_cpu_ms(None, 10.5, 100, 0.0) is None
    assert handshake_cpu_ms(10.0, None, 100, 0.0) is None
    assert handshake_cpu_ms(10.0, 10.5, 0, 0.0) is None  # no socket opened


def test_tables_sit_at_once_or_spread_over_the_stagger():
    assert sit_delays(3, 0.0) == [0.0, 0.0, 0.0]
    assert sit_delays(4, 2.0) == [0.0, 0.5, 1.0, 1.5]
    with pytest.raises(SystemExit):
        parse(["--stagger", "30", "--seconds", "20"])  # not longer than the game


def test_a_tables_players_share_a_server_unless_spread():
    assert parse([])[1].by_table is True  # as the deployment's nginx routes them
    assert parse(["--by-table"])[1].by_table is True
    assert parse(["--spread"])[1].by_table is False
    with pytest.raises(SystemExit):
        parse(["--spread", "--by-table"])


def test_several_processes_are_refused_on_the_embedded_default():
    env = {name: value for name, value in os.environ.items()
           if name not in ("DATABASE_URL", "REDIS_URL")}  # fmt: skip
    run = subprocess.run(
        [sys.executable, "-m", "tests.load.load", "--processes", "2"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert run.returncode == 2
    assert "--processes 2: several processes need a database and a channel layer" in run.stderr
    assert "DATABASE_URL (PostgreSQL) and REDIS_URL" in run.stderr


def assert_sane(result: dict, *, processes: int) -> None:
    assert result["processes"] == processes
    assert result["hands_per_table"] >= 2
    assert result["round_trip"]["count"] > 0
    assert 0 < result["round_trip"]["p50_ms"] <= result["round_trip"]["p99_ms"]
    # Once every player sat: the actions after the opening, fewer than all and no sit.
    seated = result["round_trip_seated"]
    assert 0 < seated["count"] <= result["round_trip"]["count"] - result["clients"]
    assert result["timeout_delay"]["count"] >= 1
    assert "p99_ms" in result["timeout_delay"]
    assert result["state_frames_per_s"] > 0
    assert result["bare_broadcast_per_s"] > 0
    assert result["ratio"] == pytest.approx(
        result["state_frames_per_s"] / result["bare_broadcast_per_s"], rel=1e-3
    )
    assert result["dropped_sockets"] == 0
    assert isinstance(result["errors"], dict)
    # The servers it started are its children: their CPU in the game, and per hand dealt.
    assert result["hands"] >= result["tables"] * result["hands_per_table"]
    assert result["server_cpu_seconds"] > 0
    assert result["server_cpu_ms_per_hand"] == pytest.approx(
        1000 * result["server_cpu_seconds"] / result["hands"], abs=0.1
    )
    # Against the transport's floor, from the same run's figures.
    assert result["state_frames_per_hand"] == pytest.approx(
        result["state_frames"] / result["hands"], abs=0.1
    )
    floor = result["bare_cpu_ms_per_delivery"]
    assert floor == result["bare_broadcast"]["server_cpu_ms_per_delivery"]
    assert floor > 0
    assert result["cost_vs_bare"] == pytest.approx(
        result["server_cpu_ms_per_hand"] / (result["state_frames_per_hand"] * floor), rel=0.02
    )
    # The same fan-out paced at the game's rate of frames (group messages a second: a
    # table's share of them), over as many sockets, with its own floor.
    paced = result["bare_paced"]
    assert paced["pace"] == pytest.approx(result["state_frames_per_s"] / (result["clients"]
                                          / result["tables"]), rel=1e-3)  # fmt: skip
    # And the saturated fan-out again, dispatched as the table sockets are.
    assert result["bare_lean"]["pace"] is None
    for name in ("paced", "lean"):
        run = result[f"bare_{name}"]
        assert run["dropped"] == 0
        assert 0 < run["deliveries"] <= run["expected"]
        floor = result[f"bare_{name}_cpu_ms_per_delivery"]
        assert floor == run["server_cpu_ms_per_delivery"] > 0
        assert result[f"cost_vs_bare_{name}"] == pytest.approx(
            result["server_cpu_ms_per_hand"] / (result["state_frames_per_hand"] * floor), rel=0.02
        )
    # Each run within --bare-seconds (the paced one reads for its drain after), and every
    # socket's close answered by its server, none left to wait out its close timeout.
    for name in ("broadcast", "paced", "lean"):
        assert result[f"bare_{name}"]["seconds"] <= BARE_SECONDS + bare.PACE_DRAIN_SECONDS
        assert result[f"bare_{name}"]["unanswered_closes"] == 0
    # PostgreSQL's share where it runs here (the tests' own is on loopback); none for SQLite.
    if database_cpu_seconds() is None:
        assert result["database_cpu_seconds"] is result["database_cpu_ms_per_hand"] is None
    else:
        assert result["database_cpu_seconds"] > 0
        assert result["database_cpu_ms_per_hand"] == pytest.approx(
            1000 * result["database_cpu_seconds"] / result["hands"], abs=0.1
        )


def test_the_databases_cpu_is_read_where_postgresql_runs_here():
    """PostgreSQL on loopback: its CPU so far, which a query adds to; the embedded SQLite
    runs inside the servers, whose CPU already counts it."""
    from django.db import connection

    before = database_cpu_seconds()
    if connection.vendor != "postgresql":
        assert before is None
        return
    assert before is not None and before > 0
    with connection.cursor() as cursor:  # about a second of the server's CPU
        cursor.execute("SELECT COUNT(*) FROM generate_series(1, 10000000)")
    after = database_cpu_seconds()
    assert after is not None and after - before >= 0.1


def test_a_short_load_run_plays_hands_and_times_the_clock(capsys):
    result = main(["--tables", "1", "--players", "3", "--hands", "3", "--seconds", "40", *SHORT])
    assert result["tables"] == 1
    assert result["clients"] == 3
    assert result["sits_spread_seconds"] == 0.0  # one table: nothing to spread
    assert result["by_table"] is True  # each table's players on one server, by default
    assert result["hands_per_table"] >= 3
    assert_sane(result, processes=1)
    # In step (no stagger): each phase's clearing time per table, positive and bounded (one
    # table: its first send to its last answer, within a few of the run's slowest round trips).
    phases = result["phase_ms_per_table"]
    assert set(phases) == {"ante", "declare"}
    # In step the room's sockets open before anything is sent: the handshakes' cost apart.
    assert 0 < result["sockets_open_seconds"] < result["seconds"]
    # Three handshakes may fall within one tick of the CPU's count (10 ms): zero or more.
    assert result["server_cpu_ms_per_handshake"] >= 0
    assert all(0 < ms <= result["round_trip"]["max_ms"] * 5 for ms in phases.values())
    assert "state frames/s" in capsys.readouterr().out.splitlines()[-1]
    # Second by second from the first sit, every answered action counted once.
    seconds = result["round_trip_by_second"]
    assert seconds[0]["second"] == 0 and seconds[0]["sits"] >= 1
    assert sum(row["count"] for row in seconds) == result["round_trip"]["count"]
    assert sum(row["sits"] for row in seconds) == result["round_trip_by_kind"]["sit"]["count"]
    # Seated, until the first table finished: its hands, their frames and CPU, a part of
    # the whole run's.
    window = result["seated_window"]
    assert 1 <= window["hands"] <= result["hands"]
    assert 0 < window["state_frames"] < result["state_frames"]
    assert 0 < window["cpu_seconds"] <= result["server_cpu_seconds"]
    assert result["server_cpu_ms_per_hand_seated"] == pytest.approx(
        1000 * window["cpu_seconds"] / window["hands"], abs=0.1
    )
    assert result["cost_vs_bare_seated"] > 0


def test_it_runs_where_the_settings_refuse_to_start_without_a_key():
    """Outside the tests and DEBUG there is no key here: the script makes one for its servers."""
    env = {name: value for name, value in os.environ.items() if not name.startswith("PYTEST")}
    env.pop("DJANGO_SECRET_KEY", None)
    env.pop("DEBUG", None)
    env["CARDROOM_SECRET_KEY_FILE"] = str(ROOT / ".local" / "no-such-key-file")
    env["DATABASE_URL"] = database_url()  # the test database, not the configured one
    argv = ["--tables", "1", "--players", "2", "--hands", "1", "--seconds", "20", "--json"]
    run = subprocess.run(
        [sys.executable, "-m", "tests.load.load", *argv, *SHORT],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=90,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    result = json.loads(run.stdout)
    assert result["hands_per_table"] >= 1
    assert result["dropped_sockets"] == 0
    assert result["bare_broadcast_per_s"] > 0


@pytest.mark.redis
def test_two_processes_share_the_tables(capsys):
    argv = ["--processes", "2", "--tables", "2", "--players", "3", "--hands", "2"]
    # Spread: each table has players on both processes, so actions are forwarded to owners.
    result = main([*argv, "--seconds", "20", "--stagger", "2", "--spread", "--json", *SHORT])
    assert result["clients"] == 6
    assert result["by_table"] is False
    assert result["stagger_seconds"] == 2.0
    # The second table sat a second after the start; the first as soon as its socket opened,
    # which a loaded machine may take half a second to do (in step, both would sit at once).
    assert 0.5 <= result["sits_spread_seconds"] < 2.0
    assert result["server_cpu_ms_per_handshake"] is None  # the sits overlap the handshakes
    assert_sane(result, processes=2)
