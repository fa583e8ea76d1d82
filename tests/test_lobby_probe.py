"""``tools/lobby_probe``: what a server holds, asked over the wire (the deployment guide uses it)."""

from __future__ import annotations

import asyncio
import socket

import pytest

from game.net.protocol import PROTOCOL_VERSION
from net_servers import running_server
from tools import lobby_probe


def test_the_probe_makes_a_table_and_lists_it(capsys: pytest.CaptureFixture[str]) -> None:
    async def scenario() -> list[str]:
        async with running_server() as (table_server, url):
            lines = await lobby_probe.probe(url, create="Club night")
            assert len(table_server.tables) == 1
            return lines

    lines = asyncio.run(scenario())
    assert lines[0] == f"server: Trick Table (protocol {PROTOCOL_VERSION})" and lines[1] == "lobby: this server alone"
    assert lines[2].startswith("made table ") and "(Club night), invite " in lines[2]
    assert lines[3].endswith("'Club night': bidwhist, 3 seat(s) free, held by this server")


def test_a_server_that_does_not_answer_is_said_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    assert lobby_probe.main([f"ws://127.0.0.1:{port}/"]) == 1
    error = capsys.readouterr().err
    assert error.startswith(f"ws://127.0.0.1:{port}/: ") and "Traceback" not in error and error.count("\n") == 1
