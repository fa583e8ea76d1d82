"""``python main.py serve`` options: ``--rate-limit`` sets each connection's allowance; the lobby's are checked."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import sys
import socket
from pathlib import Path
from typing import Any

import pytest

from game.net import protocol
from game.program import serve_command
from game.program.cli import main


def _server_options(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, *options: str) -> dict[str, Any]:
    """The keywords ``serve`` would make its ``TableServer`` with (it stops right there)."""
    made: dict[str, Any] = {}

    def table_server(*args: Any, **keywords: Any) -> None:
        made.update(keywords)
        raise OSError("stop here")  # run_serve reports it and returns 1

    monkeypatch.setattr(serve_command, "TableServer", table_server)
    assert main(["serve", "--port", "0", "--no-lan", "--data-dir", str(tmp_path), *options]) == 1
    return made


def test_rate_limit_is_each_connections_allowance(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    default = _server_options(monkeypatch, tmp_path)
    assert (default["rate_per_second"], default["rate_burst"]) == (protocol.RATE_PER_SECOND, protocol.RATE_BURST)
    raised = _server_options(monkeypatch, tmp_path, "--rate-limit", "500")
    assert (raised["rate_per_second"], raised["rate_burst"]) == (500.0, 1000)


@pytest.mark.parametrize("rate", ["0", "-3", "1e9", "nan"])
def test_a_rate_limit_that_is_no_rate_is_refused(rate: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--port", "0", "--no-lan", "--rate-limit", rate]) == 2
    assert "--rate-limit" in capsys.readouterr().err


def test_the_server_collects_nothing_by_itself_and_everything_a_quarter_hour_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    collections: list[int] = []

    def collect(generation: int = 2) -> int:
        collections.append(generation)
        return 0

    monkeypatch.setattr(gc, "collect", collect)  # the module serve_command calls
    policy = serve_command.CollectorPolicy(collect_every=900.0)
    policy.step(100.0)
    policy.step(500.0)
    assert collections == []
    policy.step(1000.0)  # a quarter of an hour on: everything collected once
    assert collections == [2]
    policy.step(1010.0)
    assert collections == [2]


def test_automatic_collection_is_off_while_the_policy_runs_and_back_after() -> None:
    async def run() -> tuple[bool, bool]:
        policy = serve_command.CollectorPolicy(look_every=0.01)
        task = asyncio.create_task(serve_command.keep_collections_short(policy))
        await asyncio.sleep(0.05)
        during = gc.isenabled()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        return during, gc.isenabled()

    assert gc.isenabled()
    assert asyncio.run(run()) == (False, True)


@pytest.mark.parametrize(
    ("options", "complaint"),
    [
        (["--public-url", "ws://a.example:1/"], "--public-url goes with --redis"),
        (["--redis", "redis://127.0.0.1:1/0", "--public-url", "http://a.example/"], "is not a ws:// or wss://"),
        (["--redis", "redis://127.0.0.1:1/0", "--lease", "0"], "is not a lease"),
    ],
)
def test_the_lobby_options_are_checked(options: list[str], complaint: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--port", "0", "--no-lan", *options]) == 2
    assert complaint in capsys.readouterr().err


def test_a_server_whose_redis_cannot_be_reached_says_so_and_does_not_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as probe:  # a loopback port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    options = ["--redis", f"redis://127.0.0.1:{port}/0", "--data-dir", str(tmp_path)]
    assert main(["serve", "--host", "127.0.0.1", "--port", "0", "--no-lan", *options]) == 1
    assert f"error: Redis at redis://127.0.0.1:{port}/0 cannot be reached" in capsys.readouterr().err


async def _loop_kind() -> str:
    import asyncio

    return type(asyncio.get_running_loop()).__module__.split(".")[0]


@pytest.mark.skipif(sys.platform == "win32", reason="uvloop has no Windows build")
def test_serve_runs_on_uvloop_where_it_is_installed() -> None:
    assert serve_command.event_loop_name() == "uvloop"  # requirements.txt installs it here
    assert serve_command.run_event_loop(_loop_kind()) == "uvloop"


def test_without_uvloop_serve_runs_on_asyncio(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "uvloop", None)  # importing it fails, as where it is not installed
    assert serve_command.run_event_loop(_loop_kind()) == "asyncio"
