"""A real ``redis-server`` for the tests: on a free loopback port, in a temporary folder.

``RedisServer`` starts it (append-only file on, fsync always, so a restart keeps
every write), waits until it answers PING, stops it and starts it again on the
same port and folder. Tests skip with a reason only where ``redis-server`` is missing.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

REDIS_SERVER = shutil.which("redis-server")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _answers_ping(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as link:
            link.sendall(b"PING\r\n")
            return link.recv(64).startswith(b"+PONG")
    except OSError:
        return False


class RedisServer:
    """One ``redis-server`` process of a test (``start``, ``stop``, ``restart``, ``url``)."""

    def __init__(self, folder: Path, appendfsync: str = "always") -> None:
        """``appendfsync``: Redis's ``always`` (every write on disk before it answers: the tests'),
        ``everysec`` or ``no`` (the benchmark compares them)."""
        self.folder = folder
        self.appendfsync = appendfsync
        self.port = _free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 10.0) -> None:
        assert REDIS_SERVER is not None
        self.folder.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen(
            [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.folder)]
            + ["--save", "", "--appendonly", "yes", "--appendfsync", self.appendfsync, "--daemonize", "no"]
            + ["--protected-mode", "no", "--loglevel", "warning"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + timeout
        while not _answers_ping(self.port):
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"redis-server did not start on port {self.port}")
            time.sleep(0.02)

    def stop(self) -> None:
        """Stop it (SIGTERM: it finishes its append-only file first)."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        self.process = None

    def restart(self) -> None:
        """Stop it and start it again on the same port and folder (it reads its data back)."""
        self.stop()
        self.start()

    def flush(self) -> None:
        """Forget every key (between the tests that share this server)."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=2) as link:
            link.sendall(b"FLUSHALL\r\n")
            assert link.recv(64).startswith(b"+OK")


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """One ``redis-server`` for a whole test module (started once: the tests stay fast)."""
    if REDIS_SERVER is None:
        pytest.skip("redis-server is not installed (CI installs it)")
    server = RedisServer(tmp_path_factory.mktemp("redis"))
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def redis_url(redis_server: RedisServer) -> str:
    """The module's Redis, empty (and running: a test may have stopped it)."""
    if redis_server.process is None:
        redis_server.start()
    redis_server.flush()
    return redis_server.url
