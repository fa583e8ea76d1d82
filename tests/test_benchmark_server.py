"""The server load benchmark's machinery (benchmarks/server.py), on two tables for about a second:
a real ``serve`` process, eight bot connections in a client process, the figures it reports."""

from __future__ import annotations

import asyncio
import json
import math

import pytest

from benchmarks import server as bench
from game.net.protocol import PROTOCOL_VERSION
from game.net.server import TableServer, bound_port, start_server
from net_servers import run


def test_two_tables_of_bots_play_through_a_serve_process_and_the_figures_are_sane() -> None:
    # A quick pace (ten answers a second a table) keeps the test short and light.
    result = bench.run_step(2, bench.HUMAN_PACE, window=1.2, warmup=0.4, clients=1, drain=0.5, interval=0.1)
    assert result.tables_ready == 2 and result.setup_error == ""
    assert result.problems == {}  # no refusal, no error, no closed connection
    # Latencies are measured only for acts that were sent in the window and seen by all four seats.
    assert 4 <= len(result.latencies) <= result.sent
    assert result.unfinished == 0
    # Seen by every seat before the drain ended (no timing is asserted: the machine is shared).
    assert all(0.0 < latency < result.window + 0.5 for latency in result.latencies)
    assert 0.0 < result.percentile(0.5) <= result.percentile(0.99)
    assert result.memory_per_table > 0 and result.idle_rss > 0
    assert 0.0 < result.server_cpu < 2 * result.window and result.client_cpu > 0.0
    line = bench.describe(result)
    assert line.startswith("human       2      8") and "nan" not in line
    assert result.cpu_per_action > 0.0


def test_percentiles_and_the_goal() -> None:
    result = bench.StepResult(
        tables=3, pace=bench.HUMAN_PACE, window=2.0, tables_ready=3, latencies=[0.001 * n for n in range(1, 101)],
        slow=[],
        sent=100, unfinished=0, server_cpu=0.5, client_cpu=0.2, idle_rss=1000, rss=4000, games_finished=0,
        problems={}, setup_error="", load_before=0.1,
    )  # fmt: skip
    assert result.percentile(0.5) == pytest.approx(51.0) and result.percentile(0.99) == pytest.approx(100.0)
    assert result.memory_per_table == 1000 and result.actions_per_second == 50.0
    assert not result.held  # p99 must be under 100 ms
    result.latencies = result.latencies[:-1]
    assert result.held
    result.tables_ready = 2  # a table that did not start is not held
    assert not result.held
    assert math.isnan(bench.StepResult(**{**vars(result), "latencies": []}).percentile(0.99))


def test_the_bots_light_connection_speaks_websocket_to_a_real_table_server() -> None:
    async def scenario() -> None:
        table_server = TableServer(None, rate_per_second=10_000.0, rate_burst=10_000)
        server = await start_server(table_server, "127.0.0.1", 0)
        received: list[str] = []
        closes: list[str] = []
        arrived = asyncio.Event()

        def on_text(text: str) -> None:
            received.append(text)
            arrived.set()

        try:
            url = f"ws://127.0.0.1:{bound_port(server)}/"
            connection = await bench.LightConnection.open(url, on_text, closes.append, timeout=10)
            # The opening handshake was the library's: the server holds a WebSocket connection.
            (server_side,) = server.connections
            connection.send(json.dumps({"type": "hello", "protocol": PROTOCOL_VERSION, "app": "bench"}))
            await asyncio.wait_for(arrived.wait(), 10)
            assert json.loads(received[0])["type"] == "welcome"  # a masked text frame read, one answered
            # A ping from the server is answered: its pong arrives.
            await asyncio.wait_for(await server_side.ping(b"are you there"), 10)
            # The server's close is answered, and the connection reports it once the TCP connection ends.
            await asyncio.wait_for(server_side.close(1001, "going away"), 10)
            for _ in range(100):
                if closes:
                    break
                await asyncio.sleep(0.02)
            assert closes == ["ConnectionClosedOK"]
            assert server_side.close_code == 1001 and connection.transport is not None
            assert connection.transport.is_closing()
            connection.send("nothing goes out once closed")  # and nothing breaks
        finally:
            server.close()
            await asyncio.wait_for(server.wait_closed(), 5)
            table_server.close()

    run(scenario(), timeout=30)
