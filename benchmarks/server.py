"""Server load: one ``serve`` process and N tables of four bot clients over loopback.

Run ``python -m benchmarks.server [--tables 100,200,300,500,1000] [--window 20]
[--full-tables 25,100] [--clients 2] [--max-minutes 20]``. It prints latency, server CPU and
memory per table, and the most tables held at a human pace with p99 under 100 ms.
"""

from __future__ import annotations

# Each step of the ramp starts a fresh ``python main.py serve`` (127.0.0.1, a free port, a
# temporary data folder, so the table logs are written as in real use) and measures it from
# outside: CPU from /proc/PID/stat, memory (VmRSS) from /proc/PID/status, the idle server's
# before any connection. Every seat is a remote human: a bot on its own WebSocket connection.
# One bot creates the table with its own seat and three open ones that the other three take.
#
# The bots run in client processes (``--clients``, each its own asyncio loop and a share of
# the tables) and are kept light, as they share the cores with the server they measure. Each
# bot's connection is real WebSocket (RFC 6455 over TCP) but a ``LightConnection``: the websockets
# library's sans-I/O client driven by an asyncio protocol, each message handed to its table's
# logic as it arrives, with no task, future or queue per message (only the setup waits on
# replies). A step frame is read by its leading fields (the server writes ``state`` as
# ``{"position":[a,d],"phase":...,"current":...,"deal":...,"over":...``), and only the legal
# actions of the bot's own view are parsed (kept from the last view that carried them), when it
# is to act. Latency: from an ``act`` sent to the step of that position (``state.position[0]``)
# received by every seat of the table, the slowest of the four. Client CPU is reported too: the
# clients share the two cores with the server, so a reader can see when they, not the server,
# limit a figure.

import argparse
import asyncio
import contextlib
import functools
import json
import multiprocessing
import os
import random
import re
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection as Pipe
from pathlib import Path
from typing import Any

from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.protocol import State
from websockets.uri import parse_uri

from benchmarks.own_redis import own_redis_server, process_cpu_seconds
from game.net.protocol import PROTOCOL_VERSION
from game.program.serve_command import CollectorPolicy, event_loop_name, keep_collections_short, run_event_loop

REPO_ROOT = Path(__file__).resolve().parent.parent
HUMAN_PACE = "human"
FULL_SPEED = "full"
P99_GOAL_MS = 100.0
DEFAULT_RAMP = (100, 200, 300, 400, 500, 750, 1000, 1500, 2000)
FULL_SPEED_RATE = 2000.0  # messages a second per connection the server allows at full speed
CONNECT_AT_ONCE = 16  # tables each client process sets up at the same time
_STATE = re.compile(r'"state":\{"position":\[(\d+),\d+\],"phase":"(\w+)","current":(-?\d+),"deal":\d+,"over":(\w+)')
_LEGAL = '"legal_actions":'
CLOSED = "closed"  # what a bot's reply queue is given when its connection closes
READ_BUFFER = 65536  # bytes a connection reads at most at once (a longer frame takes more reads)
CLOSE_TIMEOUT = 10.0  # seconds a connection waits for the server to end TCP after the closing handshake


# ---------------------------------------------------------------- the server, from outside
class ServeProcess:
    """``python main.py serve`` on 127.0.0.1 (a free port), with its own temporary data folder."""

    def __init__(
        self, rate_limit: float | None, max_tables: int, start_timeout: float = 30.0, redis_url: str | None = None
    ) -> None:
        """``redis_url``: the server joins that Redis's lobby (its table logs go there, not to files)."""
        self._folder = tempfile.TemporaryDirectory(prefix="tricktable-bench-")
        command = [sys.executable, "main.py", "serve", "--host", "127.0.0.1", "--port", "0"]
        command += ["--data-dir", self._folder.name, "--no-lan", "--max-tables", str(max_tables)]
        if rate_limit is not None:
            command += ["--rate-limit", f"{rate_limit:g}"]
        if redis_url is not None:
            command += ["--redis", redis_url]
        self.process = subprocess.Popen(
            command, cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
        )
        self.url = self._address(start_timeout)

    def _address(self, timeout: float) -> str:
        lines: list[str] = []
        reader = threading.Thread(target=lambda: lines.append(self.process.stdout.readline()), daemon=True)  # type: ignore[union-attr]  # piped above
        reader.start()
        reader.join(timeout)
        found = re.search(r"ws://127\.0\.0\.1:(\d+)/", lines[0]) if lines else None
        if found is None:
            self.stop()
            raise RuntimeError(f"the server did not start: {lines[:1]}")
        return f"ws://127.0.0.1:{found.group(1)}/"

    def cpu_seconds(self) -> float:
        """User plus system time the server has used so far."""
        return process_cpu_seconds(self.process.pid)

    def rss_bytes(self) -> int:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
        raise RuntimeError("no VmRSS")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        self._folder.cleanup()


# ---------------------------------------------------------------- the bots (in client processes)
class LightConnection(asyncio.BufferedProtocol):
    """A bot's WebSocket connection, kept light: the websockets library's sans-I/O client (the
    RFC 6455 handshake, framing, masking, pongs, the closing handshake) driven by asyncio's
    transport callbacks, each whole text message handed at once to ``on_text``: no task,
    future or queue per message. It reads into a buffer of its own: asyncio's plain protocol
    receives each read in a fresh 256 KiB ``bytes``, which costs more than a small frame."""

    def __init__(self, url: str, on_text: Callable[[str], None], on_close: Callable[[str], None]) -> None:
        self.protocol = ClientProtocol(parse_uri(url), max_size=2**20)
        self.on_text, self.on_close = on_text, on_close
        self.opened: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.transport: asyncio.Transport | None = None
        self._fragments: list[bytes] | None = None  # a text message that came in parts, so far
        self._close_timer: asyncio.TimerHandle | None = None
        self._buffer = bytearray(READ_BUFFER)

    @classmethod
    async def open(
        cls, url: str, on_text: Callable[[str], None], on_close: Callable[[str], None], timeout: float = 60.0
    ) -> LightConnection:
        """Connect over TCP and complete the opening handshake, within ``timeout`` seconds."""
        connection = cls(url, on_text, on_close)
        uri = connection.protocol.uri
        try:
            async with asyncio.timeout(timeout):
                await asyncio.get_running_loop().create_connection(lambda: connection, uri.host, uri.port)
                await connection.opened
        except BaseException:
            if connection.transport is not None:
                connection.transport.abort()
            raise
        return connection

    def send(self, text: str) -> None:
        """One text message (nothing is sent once the connection is closing: its close is counted)."""
        if self.protocol.state is State.OPEN:
            self.protocol.send_text(text.encode())
            self._write()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]  # create_connection makes a TCP transport
        self.protocol.send_request(self.protocol.connect())
        self._write()

    def get_buffer(self, sizehint: int) -> bytearray:
        return self._buffer

    def buffer_updated(self, nbytes: int) -> None:
        self.protocol.receive_data(self._buffer[:nbytes])
        events = self.protocol.events_received()
        self._write()  # the pongs, the close frame that answers the server's
        for event in events:
            if not isinstance(event, Frame):
                continue  # the handshake's response: ``opened`` follows the state below
            if event.opcode is Opcode.TEXT and event.fin:
                self.on_text(str(event.data, "utf-8"))
            elif event.opcode is Opcode.TEXT:
                self._fragments = [event.data]
            elif event.opcode is Opcode.CONT and self._fragments is not None:
                self._fragments.append(event.data)
                if event.fin:
                    text, self._fragments = str(b"".join(self._fragments), "utf-8"), None
                    self.on_text(text)
        if not self.opened.done():
            if self.protocol.handshake_exc is not None:
                self.opened.set_exception(self.protocol.handshake_exc)
            elif self.protocol.state is State.OPEN:
                self.opened.set_result(None)
        if self.protocol.close_expected():
            self._expect_close()

    def eof_received(self) -> None:
        self.protocol.receive_eof()
        self._write()  # returning None closes the transport: connection_lost follows

    def connection_lost(self, exc: Exception | None) -> None:
        self.protocol.receive_eof()  # (once more changes nothing) the protocol's state becomes CLOSED
        if self._close_timer is not None:
            self._close_timer.cancel()
        if not self.opened.done():
            self.opened.set_exception(ConnectionError("the connection closed during the opening handshake"))
            return
        closed = self.protocol.close_exc if self.protocol.state is State.CLOSED else None
        self.on_close(type(closed).__name__ if closed is not None else "ConnectionClosedError")

    def _expect_close(self) -> None:
        """The server ends the TCP connection after the closing handshake; if it does not, we do."""
        if self._close_timer is None and self.transport is not None:
            self._close_timer = asyncio.get_running_loop().call_later(CLOSE_TIMEOUT, self.transport.abort)

    def _write(self) -> None:
        for data in self.protocol.data_to_send():
            if self.transport is None or self.transport.is_closing():
                return
            if data:
                self.transport.write(data)
            elif self.transport.can_write_eof():
                self.transport.write_eof()  # (the end of the stream: the protocol's TCP half-close)


@dataclass
class ClientJob:
    url: str
    tables: int
    first_table: int  # this process's tables are numbered from here (the game and seed follow)
    pace: str
    games: tuple[str, ...]
    setup_seconds: float
    interval: float = 1.0  # human pace: a table's mean seconds between answers


@dataclass
class ClientReport:
    tables_ready: int = 0
    latencies: list[float] = field(default_factory=list)  # seconds, of acts sent in the window
    slow: list[float] = field(default_factory=list)  # when acts slower than the goal were sent (in the window)
    sent: int = 0  # acts sent in the window
    unfinished: int = 0  # of those, not seen by every seat by the end of the drain
    games_finished: int = 0
    problems: dict[str, int] = field(default_factory=dict)  # refusals and errors by code
    cpu_seconds: float = 0.0  # this client process, over the window
    setup_error: str = ""


class BenchTable:
    """Four bots at one table, on four connections, and the acts they are waiting to see arrive."""

    def __init__(self, index: int, job: ClientJob, report: ClientReport, window: list[float]) -> None:
        self.index, self.job, self.report, self.window = index, job, report, window
        self.game = job.games[index % len(job.games)]
        self.rng = random.Random(index)
        self.connections: list[LightConnection] = []
        self.table = ""
        self.seat_of: dict[int, int] = {}  # connection index -> seat
        self.waiting: dict[int, list[float]] = {}  # position -> [sent at, seats that got it]
        self.answered: set[tuple[int, int]] = set()  # (seat, position) already answered
        self.legal: dict[int, str] = {}  # bot number -> its view's last legal actions, as JSON text
        self.next_slot = time.monotonic() + job.interval * self.rng.random()  # tables out of step
        self.slots: dict[int, float] = {}  # position -> when it is answered (human pace)
        self.restarting = False
        self.setting_up = True  # every frame but the steps goes to ``replies`` (``_reply`` reads them)
        self.replies: list[asyncio.Queue[dict[str, Any]]] = [asyncio.Queue() for _ in range(4)]

    async def setup(self) -> None:
        for number in range(4):
            connection = await LightConnection.open(
                self.job.url, functools.partial(self._received, number), functools.partial(self._closed, number)
            )
            self.connections.append(connection)
            connection.send(json.dumps({"type": "hello", "protocol": PROTOCOL_VERSION, "app": "bench"}))
            await self._reply(number, "welcome")
        await self._new_game()
        self.setting_up = False

    async def _reply(self, number: int, kind: str, timeout: float = 60.0) -> dict[str, Any]:
        """The next frame of type ``kind`` to connection ``number`` (lobby frames and the like pass by)."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no {kind}")
            frame = await asyncio.wait_for(self.replies[number].get(), left)
            if frame.get("type") == kind:
                return frame
            if frame.get("type") in ("error", "refused", CLOSED):
                raise RuntimeError(f"{kind} expected: {frame}")

    async def _new_game(self) -> None:
        """Create a table (the host's own seat and three open ones), seat the others, start."""
        seats = [{"kind": "host", "name": "bot0"}] + [{"kind": "open"}] * 3
        create = {"type": "create_table", "rules": {"game": self.game}, "seats": seats, "name": "b"}
        self.connections[0].send(json.dumps(create))
        created = await self._reply(0, "table_created")
        self.table = created["table"]
        self.seat_of = {0: created["seats"][0]["seat"]}
        for number in (1, 2, 3):
            take = {"type": "take_seat", "invite": created["invite"], "name": f"bot{number}"}
            self.connections[number].send(json.dumps(take))
            self.seat_of[number] = (await self._reply(number, "seated"))["seat"]
        self.answered.clear()
        self.waiting.clear()
        self.connections[0].send(
            json.dumps({"type": "start", "table": self.table, "host_token": created["host_token"]})
        )

    async def _restart(self) -> None:
        """The game ended: the same four play another (``_other`` passes the setup replies on)."""
        self.report.games_finished += 1
        for queue in self.replies:
            while not queue.empty():
                queue.get_nowait()
        self.restarting = True
        try:
            await self._new_game()
        except Exception as error:  # counted: the table stops playing
            self._count(f"restart: {type(error).__name__}")
        finally:
            self.restarting = False

    def _received(self, number: int, text: str) -> None:
        """A whole text message to connection ``number``, handed over at once by its connection."""
        if text.startswith('{"type":"step"'):
            self._step(number, text)
        elif not text.startswith('{"type":"ok"'):
            self._other(number, json.loads(text))

    def _closed(self, number: int, reason: str) -> None:
        """Connection ``number`` closed: counted (the server never closes a bot's during a run),
        and a setup waiting for one of its replies learns it at once."""
        self._count(f"closed: {reason}")
        self.replies[number].put_nowait({"type": CLOSED, "reason": reason})

    def _other(self, number: int, frame: dict[str, Any]) -> None:
        kind = frame.get("type")
        if self.setting_up or (self.restarting and kind in ("table_created", "seated", "lobby")):
            self.replies[number].put_nowait(frame)
        elif kind == "game_over" and number == 0:
            asyncio.get_running_loop().create_task(self._restart())
        elif kind in ("refused", "error"):
            self._count(str(frame.get("code")))

    def _count(self, code: str) -> None:
        self.report.problems[code] = self.report.problems.get(code, 0) + 1

    def _step(self, number: int, text: str) -> None:
        now = time.monotonic()
        found = _STATE.search(text)
        if found is None:
            self._count("unreadable step")
            return
        position, phase, current = int(found.group(1)), found.group(2), int(found.group(3))
        waiting = self.waiting.get(position)
        if waiting is not None:
            waiting[1] += 1
            if waiting[1] == 4:
                del self.waiting[position]
                if self.window[0] <= waiting[0] < self.window[1]:
                    self.report.latencies.append(now - waiting[0])
                    if now - waiting[0] > P99_GOAL_MS / 1000:
                        self.report.slow.append(waiting[0] - self.window[0])
        # A step's view carries the legal actions only when they changed (a whole step always).
        start = text.find(_LEGAL, text.index('"view":'))
        if start >= 0:
            start += len(_LEGAL)
            self.legal[number] = text[start : text.index("]", start) + 1]
        seat = self.seat_of.get(number, -1)
        if found.group(4) == "true" or (seat, position) in self.answered or now >= self.window[1]:
            return  # (after the window the bots stop: only the steps of acts sent in it are awaited)
        if phase == "hand_over":
            message = {"type": "ready", "table": self.table, "seat": seat, "at": position}
        elif current == seat:
            legal = json.loads(self.legal[number])
            message = {"type": "act", "table": self.table, "seat": seat, "action": self.rng.choice(legal)}
            message["at"] = position
        else:
            return
        self.answered.add((seat, position))
        delay = self._slot(position) - now
        if delay > 0:
            asyncio.get_running_loop().call_later(delay, self._send, number, message, position)
        else:
            self._send(number, message, position)

    def _slot(self, position: int) -> float:
        """When the answer at ``position`` goes out: at once at full speed; at a human pace
        about a second after the table's previous one (0.5 to 1.5 s; ``interval`` scales it)."""
        if self.job.pace == FULL_SPEED:
            return 0.0
        slot = self.slots.get(position)
        if slot is None:
            slot = self.next_slot = max(
                time.monotonic(), self.next_slot + self.job.interval * (0.5 + self.rng.random())
            )
            self.slots = {position: slot}
        return slot

    def _send(self, number: int, message: dict[str, Any], position: int) -> None:
        if message["type"] == "act":
            sent = time.monotonic()
            self.waiting[position + 1] = [sent, 0]
            if self.window[0] <= sent < self.window[1]:
                self.report.sent += 1
        self.connections[number].send(json.dumps(message))

    def unfinished(self) -> int:
        return sum(1 for sent, _ in self.waiting.values() if self.window[0] <= sent < self.window[1])


def machine_busy_seconds() -> float:
    """CPU time every process of the machine has used so far (all cores, /proc/stat)."""
    fields = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(value) for value in fields[:8])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def _raise_open_file_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def client_process(job: ClientJob, pipe: Pipe) -> None:
    """One client process: set up its tables, say so, play through the window it is sent, report."""
    _raise_open_file_limit()
    report = run_event_loop(_client(job, pipe))  # uvloop where installed, as the server's
    pipe.send(report)
    pipe.close()


async def _client(job: ClientJob, pipe: Pipe) -> ClientReport:
    report = ClientReport()
    window = [float("inf"), float("inf")]
    tables = [BenchTable(job.first_table + index, job, report, window) for index in range(job.tables)]
    gate = asyncio.Semaphore(CONNECT_AT_ONCE)

    async def set_up(table: BenchTable) -> None:
        async with gate:
            await table.setup()

    try:
        results = await asyncio.wait_for(
            asyncio.gather(*(set_up(table) for table in tables), return_exceptions=True), job.setup_seconds
        )
        failures = [result for result in results if isinstance(result, BaseException)]
        report.tables_ready = len(tables) - len(failures)
        report.setup_error = repr(failures[0])[:200] if failures else ""
    except TimeoutError:
        report.tables_ready = sum(1 for table in tables if table.table)
        report.setup_error = f"setup took more than {job.setup_seconds:g} s"
    loop = asyncio.get_running_loop()
    # The bots' own collections would show up as server latency: like the server, they make
    # almost no cyclic garbage and collect none while they play (``CollectorPolicy``).
    collector = loop.create_task(keep_collections_short(CollectorPolicy()))
    pipe.send(("ready", report.tables_ready, report.setup_error))
    start, end, drain = await loop.run_in_executor(None, pipe.recv)
    window[0], window[1] = start, end
    await asyncio.sleep(max(0.0, start - time.monotonic()))
    cpu_start = time.process_time()
    await asyncio.sleep(max(0.0, end - time.monotonic()))
    report.cpu_seconds = time.process_time() - cpu_start
    await asyncio.sleep(drain)
    collector.cancel()
    report.unfinished = sum(table.unfinished() for table in tables)
    return report


# ---------------------------------------------------------------- one measured step
@dataclass
class StepResult:
    tables: int
    pace: str
    window: float
    tables_ready: int
    latencies: list[float]
    slow: list[float]
    sent: int
    unfinished: int
    server_cpu: float  # seconds over the window
    client_cpu: float
    idle_rss: int
    rss: int
    games_finished: int
    problems: dict[str, int]
    setup_error: str
    load_before: float
    machine_cpu: float = 0.0  # every process's CPU over the window (all cores)

    @property
    def others_cpu(self) -> float:
        """CPU that neither the server nor the clients used over the window: other work's."""
        return max(0.0, self.machine_cpu - self.server_cpu - self.client_cpu)

    def percentile(self, share: float) -> float:
        """The latency below which ``share`` of the measured ones fall, in ms (nan if none)."""
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        return 1000.0 * ordered[min(len(ordered) - 1, int(share * len(ordered)))]

    @property
    def actions_per_second(self) -> float:
        return len(self.latencies) / self.window

    @property
    def cpu_per_action(self) -> float:
        """The server's CPU per act measured, in ms (the reads, the readies and the pings with it)."""
        return 1000.0 * self.server_cpu / max(1, len(self.latencies))

    @property
    def memory_per_table(self) -> float:
        return (self.rss - self.idle_rss) / max(1, self.tables_ready)

    @property
    def held(self) -> bool:
        """Every table started and played, and p99 under the goal."""
        return (
            self.tables_ready == self.tables
            and bool(self.latencies)
            and self.percentile(0.99) < P99_GOAL_MS
            and self.unfinished == 0
        )


def run_step(
    tables: int,
    pace: str,
    *,
    window: float = 20.0,
    warmup: float = 5.0,
    clients: int = 2,
    games: tuple[str, ...] = ("bidwhist", "wizard"),
    setup_seconds: float | None = None,
    drain: float = 2.0,
    interval: float = 1.0,
    redis: Any = None,
) -> StepResult:
    """Start a server, seat ``tables`` tables of four bots in ``clients`` processes, let them
    play ``warmup`` seconds, then measure ``window`` seconds (and wait ``drain`` seconds for
    the steps of the acts sent in it). ``interval``: the human pace's seconds per action.
    ``redis``: a ``RedisServer`` (``own_redis_server``) in whose lobby the server keeps its tables
    (``serve --redis``)."""
    load_before = os.getloadavg()[0]
    _raise_open_file_limit()
    if redis is not None:
        redis.flush()  # the last step's tables would be taken over by this step's server
    redis_url = redis.url if redis is not None else None
    server = ServeProcess(FULL_SPEED_RATE if pace == FULL_SPEED else None, tables + 16, redis_url=redis_url)
    processes: list[multiprocessing.process.BaseProcess] = []
    pipes: list[Pipe] = []
    try:
        time.sleep(0.3)
        idle_rss = server.rss_bytes()
        context = multiprocessing.get_context("spawn")
        clients = max(1, min(clients, tables))
        setup = setup_seconds if setup_seconds is not None else 30.0 + 0.1 * tables
        first = 0
        for number in range(clients):
            share = tables // clients + (1 if number < tables % clients else 0)
            job = ClientJob(server.url, share, first, pace, games, setup, interval)
            first += share
            ours, theirs = context.Pipe()
            process = context.Process(target=client_process, args=(job, theirs), daemon=True)
            process.start()
            processes.append(process)
            pipes.append(ours)
        ready, errors = 0, []
        for pipe in pipes:
            if not pipe.poll(setup + 30.0):
                raise RuntimeError("a client process did not finish its setup")
            try:
                _, count, error = pipe.recv()
            except EOFError:
                raise RuntimeError("a client process ended during its setup") from None
            ready += count
            if error:
                errors.append(error)
        start = time.monotonic() + warmup
        end = start + window
        for pipe in pipes:
            pipe.send((start, end, drain))
        time.sleep(max(0.0, start - time.monotonic()))
        cpu_start, busy_start = server.cpu_seconds(), machine_busy_seconds()
        time.sleep(max(0.0, end - time.monotonic()))
        server_cpu = server.cpu_seconds() - cpu_start
        machine_cpu = machine_busy_seconds() - busy_start
        rss = server.rss_bytes()
        reports: list[ClientReport] = []
        for pipe in pipes:
            if not pipe.poll(drain + 60.0):
                raise RuntimeError("a client process did not report")
            try:
                reports.append(pipe.recv())
            except EOFError:
                raise RuntimeError("a client process ended before its report") from None
    finally:
        server.stop()
        for client in processes:
            client.join(10)
            if client.is_alive():
                client.kill()
    problems: dict[str, int] = {}
    for report in reports:
        for code, count in report.problems.items():
            problems[code] = problems.get(code, 0) + count
    return StepResult(
        tables=tables,
        pace=pace,
        window=window,
        tables_ready=ready,
        latencies=[latency for report in reports for latency in report.latencies],
        slow=sorted(moment for report in reports for moment in report.slow),
        sent=sum(report.sent for report in reports),
        unfinished=sum(report.unfinished for report in reports),
        server_cpu=server_cpu,
        client_cpu=sum(report.cpu_seconds for report in reports),
        idle_rss=idle_rss,
        rss=rss,
        games_finished=sum(report.games_finished for report in reports),
        problems=problems,
        setup_error="; ".join(errors),
        load_before=load_before,
        machine_cpu=machine_cpu,
    )


# ---------------------------------------------------------------- the report
HEADER = (
    f"{'pace':<6}{'tables':>7}{'conns':>7}{'actions/s':>10}{'p50 ms':>8}{'p99 ms':>8}"
    f"{'server CPU':>11}{'per table':>10}{'ms/action':>10}{'MB/table':>9}{'client CPU':>11}{'others':>8}"
)


def describe(result: StepResult) -> str:
    server = 100.0 * result.server_cpu / result.window
    client = 100.0 * result.client_cpu / result.window
    line = (
        f"{result.pace:<6}{result.tables:>7}{4 * result.tables_ready:>7}{result.actions_per_second:>10,.0f}"
        f"{result.percentile(0.5):>8.1f}{result.percentile(0.99):>8.1f}{server:>10.1f}%"
        f"{server / max(1, result.tables_ready):>9.3f}%{result.cpu_per_action:>10.2f}"
        f"{result.memory_per_table / 1e6:>9.3f}{client:>10.1f}%{100.0 * result.others_cpu / result.window:>7.1f}%"
    )
    notes = []
    if result.tables_ready < result.tables:
        notes.append(f"only {result.tables_ready} tables started ({result.setup_error})")
    if result.slow:
        seconds = sorted({int(moment) for moment in result.slow})
        shown = ", ".join(map(str, seconds[:12])) + (" ..." if len(seconds) > 12 else "")
        notes.append(f"{len(result.slow)} acts over {P99_GOAL_MS:.0f} ms, sent in second(s) {shown} of the window")
    if result.unfinished:
        notes.append(f"{result.unfinished} acts not seen by every seat")
    if result.problems:
        notes.append(
            "refusals/errors: " + ", ".join(f"{code} {count}" for code, count in sorted(result.problems.items()))
        )
    if result.pace == HUMAN_PACE and result.actions_per_second < 0.85 * result.tables_ready:
        notes.append("the tables did not keep one action a second")
    if server + client > 180.0:
        notes.append("both cores busy: the clients compete with the server")
    if result.others_cpu / result.window > 0.2:
        notes.append(
            "other work used the cores too (others: % of one core; load average before the step "
            f"{result.load_before:.2f})"
        )
    return line + "".join(f"\n       {note}" for note in notes)


def _machine() -> str:
    model = "cpu"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return f"{os.cpu_count()} CPUs ({model}), Python {sys.version.split()[0]}"


def ramp(counts: Iterator[int] | list[int], deadline: float, **options: Any) -> Iterator[StepResult]:
    """Human-pace steps of more and more tables, until p99 passes the goal or time runs out."""
    for count in counts:
        if time.monotonic() > deadline:
            print(f"       stopped: the time cap was reached before {count} tables")
            return
        try:
            result = run_step(count, HUMAN_PACE, **options)
        except (RuntimeError, EOFError, OSError) as error:
            print(f"       stopped: the step of {count} tables failed: {error}")
            return
        yield result
        if not result.held:
            return


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", default=",".join(map(str, DEFAULT_RAMP)), help="the human-pace ramp of tables")
    parser.add_argument("--full-tables", default="25,100", help="tables at full speed (empty or 0: none)")
    parser.add_argument("--window", type=float, default=20.0, help="seconds measured per step (default 20)")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds of play before each window (default 5)")
    parser.add_argument("--clients", type=int, default=2, help="client processes (default 2)")
    parser.add_argument("--game", choices=("both", "bidwhist", "wizard"), default="both", help="the tables' game")
    parser.add_argument("--max-minutes", type=float, default=20.0, help="stop the ramp after this long (default 20)")
    parser.add_argument(
        "--redis",
        choices=("always", "everysec"),
        help="the server in a Redis lobby (serve --redis) of a redis-server started here, with this appendfsync",
    )
    args = parser.parse_args()
    games = ("bidwhist", "wizard") if args.game == "both" else (args.game,)
    options: dict[str, Any] = {"window": args.window, "warmup": args.warmup, "clients": args.clients, "games": games}
    with contextlib.ExitStack() as stack:
        if args.redis is not None:
            options["redis"] = stack.enter_context(own_redis_server(args.redis))
        _ramp_and_report(args, options)


def _ramp_and_report(args: argparse.Namespace, options: dict[str, Any]) -> None:
    games = options["games"]
    deadline = time.monotonic() + 60.0 * args.max_minutes
    lobby = f" in a Redis lobby (appendfsync {args.redis})" if args.redis else ""
    print(
        f"{_machine()}; one serve process{lobby}; event loop: {event_loop_name()} (server and bots); "
        f"{args.clients} client processes; games: {', '.join(games)}"
    )
    print(f"each step: a fresh server, {args.warmup:g} s of play, then {args.window:g} s measured")
    print("latency: an act sent to its step received by all four seats; memory: VmRSS over the idle server")
    print("CPU as % of one core over the window: the server, the client processes, and everything else (others)")
    print(HEADER)
    held = 0
    costs: list[float] = []
    for result in ramp([int(n) for n in args.tables.split(",") if n], deadline, **options):
        print(describe(result), flush=True)
        costs.append(result.cpu_per_action)
        if result.held:
            held = max(held, result.tables_ready)
    for count in [int(n) for n in args.full_tables.split(",") if n and int(n) > 0]:
        if time.monotonic() > deadline:
            break
        print(describe(run_step(count, FULL_SPEED, **options)), flush=True)
    print(f"most tables held at a human pace with p99 under {P99_GOAL_MS:.0f} ms: {held}")
    if costs:
        per_action = statistics.median(costs)
        print(
            f"server CPU per action (median of the human-pace steps): {per_action:.2f} ms, so one core "
            f"serves at most {1000 / per_action:,.0f} actions a second: as many tables at a human pace"
        )


if __name__ == "__main__":
    main()
