"""A ``serve`` process killed with SIGKILL mid-hand and started again loses nothing."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from game.net.bot_client import BotClient, create_table, take_seat
from game.persistence.history_replay import check_game
from net_servers import run

REPO = Path(__file__).resolve().parent.parent


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _start_serve(port: int, data_dir: Path) -> subprocess.Popen[str]:
    process = subprocess.Popen(
        [sys.executable, "main.py", "serve", "--host", "127.0.0.1", "--port", str(port), "--no-lan"]
        + ["--data-dir", str(data_dir)],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"},
    )
    assert process.stdout is not None
    line = process.stdout.readline()  # the server says where it listens once it does
    assert "Trick Table server on ws://" in line, line
    return process


async def _until(condition: Any, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError("the condition did not come true in time")
        await asyncio.sleep(0.02)


async def _scenario(port: int, data_dir: Path) -> tuple[dict[str, Any], dict[str, Any], list[int], list[int]]:
    url = f"ws://127.0.0.1:{port}/"
    server = _start_serve(port, data_dir)
    try:
        host, guest = BotClient(url, seed=3), BotClient(url, seed=4)
        await host.connect()
        await guest.connect()
        created = await create_table(
            host,
            "wizard",
            [{"kind": "host", "name": "Ann"}, {"kind": "open"}, {"kind": "computer", "level": "random"}],
            {"rounds": 3},
        )
        await take_seat(guest, created["invite"], "Bob")
        await host.request({"type": "start", "table": created["table"], "host_token": created["host_token"]})

        # Play into the third round, then hold the cards and kill the server mid-hand.
        def mid_hand(step: dict[str, Any]) -> bool:
            return step["state"]["deal"] == 3 and step["state"]["phase"] == "play"

        host.hold = guest.hold = mid_hand
        await _until(lambda: not host.playing and not guest.playing, 20)
        await asyncio.sleep(0.2)  # the computer may still play its card
        hand_before = host.steps[0]["view"]["hand"], guest.steps[1]["view"]["hand"]
        server.send_signal(signal.SIGKILL)
        server.wait(10)
        await host.close()
        await guest.close()

        server = _start_serve(port, data_dir)
        await host.reconnect()
        await guest.reconnect()
        await _until(lambda: host.steps[0]["state"]["last"] >= host.last[0] and 1 in guest.steps, 5)
        hand_after = host.steps[0]["view"]["hand"], guest.steps[1]["view"]["hand"]
        await host.play_on()
        await guest.play_on()
        first, second = await asyncio.gather(host.finish(30), guest.finish(30))
        await host.close()
        await guest.close()
        return first, second, list(hand_before), list(hand_after)
    finally:
        server.kill()
        server.wait(10)


def test_a_killed_server_resumes_every_table_and_the_players_play_on(tmp_path: Path) -> None:
    first, second, before, after = run(_scenario(_free_port(), tmp_path), 90)
    assert before == after  # the same cards in each hand after the restart
    assert first == second and first["complete"]
    assert len(first["deals"]) == 3
    assert check_game(first) == []
    logs = list((tmp_path / "server" / "tables").glob("*.jsonl"))
    assert len(logs) == 1 and logs[0].read_text().rstrip().endswith('{"over":true}')
