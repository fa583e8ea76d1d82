"""Failover benchmark: two ``serve --redis`` processes, tables of bots, one server SIGKILLed mid-hand.

``python -m benchmarks.failover [--tables 50]`` prints the takeover time (p50, p99:
from the kill to the next event at each of the dead server's tables), the latency
Redis adds per action (the same tables played by one server without Redis), and
checks every game against its fault-free twin and with ``replay --check``.
"""

from __future__ import annotations

# The bots decide from their seed and the position alone (``bot_choice``) and the
# computers from the table's seed, so the game a table would have played without
# the kill is played again here, in this process (``fault_free_twin``), from the
# journal's first line: it must be the same game, action for action.

import argparse
import asyncio
import contextlib
import io
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.own_redis import own_redis_server
from game.net.bot_client import BotClient, bot_choice, carried_out, create_table
from game.net.table_log import replayed
from game.net.wire import decode_action, encode_value
from game.program import cli
from game.rules import Phase
from game.session.match import Match

REPO = Path(__file__).resolve().parent.parent
SEATS = [{"kind": "host", "name": "Ann"}, {"kind": "host", "name": "Bob"}, {"kind": "computer", "level": "random"}]
_LISTENING = re.compile(r"Trick Table server on (ws://\S+/)")


@dataclass
class FailoverResult:
    tables: int
    killed_tables: int  # tables the killed server held at the kill
    moved_tables: int  # of those, the tables that ended on the other server (epoch 2)
    takeover_seconds: list[float]  # kill -> the next event, at each table of the killed server
    latency_redis: list[float]  # per action, from the act sent to the step showing it
    latency_alone: list[float]  # the same, one server without Redis
    unfinished: list[str] = field(default_factory=list)
    different: list[str] = field(default_factory=list)  # tables whose game is not its fault-free twin's
    replay_check: int = -1  # ``replay --check``'s exit status on every history
    appendfsync: str = "always"
    journal: str = ""  # the --redis server's own account of its batch writes (its last line but one)
    seconds: float = 0.0

    @staticmethod
    def percentile(values: list[float], share: float) -> float:
        ordered = sorted(values)
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")

    def added_latency(self) -> float:
        """Median act-to-step latency with Redis, less the same without it (seconds; nan: not measured)."""
        if not self.latency_redis or not self.latency_alone:
            return float("nan")
        return statistics.median(self.latency_redis) - statistics.median(self.latency_alone)


def start_serves(data_dir: Path, *options: list[str]) -> list[tuple[subprocess.Popen[str], str]]:
    """One ``serve`` process for each list of ``options``, on free loopback ports, started together;
    each with its address. Each one's output goes to a log file in ``data_dir`` (a pipe nobody
    reads would fill up and stop it)."""
    processes = []
    for extra in options:
        index = len(list(data_dir.glob("server*.log")))
        log_path = data_dir / f"server{index}.log"
        with log_path.open("w") as log_file:
            process = subprocess.Popen(
                [sys.executable, "main.py", "serve", "--host", "127.0.0.1", "--port", "0", "--no-lan"]
                + ["--rate-limit", "100000", "--data-dir", str(data_dir / f"server{index}"), *extra],
                cwd=REPO,
                stdout=log_file,
                stderr=subprocess.STDOUT,
                text=True,
                env={**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"},
            )
        processes.append((process, log_path))
    started = []
    deadline = time.monotonic() + 30
    for process, log_path in processes:
        found = None
        while found is None:  # the server says where it listens once it does
            found = _LISTENING.search(log_path.read_text())
            if found is None and (process.poll() is not None or time.monotonic() > deadline):
                for other, _ in processes:
                    other.kill()
                raise RuntimeError(f"a server did not start: {log_path.read_text()[:500]!r}")
            time.sleep(0.02)
        started.append((process, found.group(1)))
    return started


def stop(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


def fault_free_twin(header: dict[str, Any], seed: int) -> Match:
    """The game the table of journal line ``header`` plays without any fault: its human seats
    held by one bot of ``seed`` (``bot_choice``), its computers deciding from the table's seed."""
    *_, table = replayed([header, {"start": True}])  # the table once its game has begun
    assert table is not None and table.match is not None
    match = table.match
    while not match.is_over:
        if match.phase == Phase.HAND_OVER:
            match.next_deal()
            continue
        seat = match.current_player
        if not table.seats[seat].human:
            match.apply(match.ai_request(seat).decide(), seat)
            continue
        legal = encode_value(match.view(seat))["legal_actions"]
        choice = bot_choice(seed, seat, len(match.actions), legal, match.can_claim(seat))
        if choice is None:
            match.claim(seat)
        else:
            action = decode_action(choice)
            assert action is not None
            match.apply(action, seat)
    return match


def journal_lines(url: str, table_id: str) -> list[bytes]:
    import redis

    with redis.Redis.from_url(url) as client:
        return list(client.lrange(f"tricktable:journal:{table_id}", 0, -1))


def _same_as_twin(lines: list[bytes], seed: int, history: dict[str, Any]) -> bool:
    records = [json.loads(line) for line in lines]
    played = None
    for state in replayed(records):
        played = state if state is not None else played
    twin = fault_free_twin(records[0], seed)
    return (
        played is not None
        and played.match is not None
        and played.match.actions == twin.actions
        and twin.history()["deals"] == history["deals"]
    )


async def _open_tables(
    urls: list[str], count: int, rounds: int, pace: float, hold_on_first: bool = False
) -> list[tuple[BotClient, str, int]]:
    """``count`` tables, dealt round the servers, each with one bot holding its two human seats.
    ``hold_on_first``: the bots of the first server's tables stop in the play of the second hand."""
    tables = []
    for index in range(count):
        url = urls[index % len(urls)]
        bot = BotClient(url, seed=1000 + index, pace=pace, follow=True)
        await bot.connect()
        created = await create_table(bot, "wizard", SEATS, {"rounds": rounds})
        tables.append((bot, created["table"], index % len(urls)))
        if hold_on_first and index % len(urls) == 0:
            bot.hold = _second_hand
        reply = await bot.request({"type": "start", "table": created["table"], "host_token": created["host_token"]})
        if not carried_out(reply):
            raise RuntimeError(f"table not started: {reply}")
    return tables


async def _lobby_knows(url: str, servers: int, seconds: float = 10.0) -> None:
    """Wait until a server of the lobby names ``servers`` servers in its welcome."""
    deadline = time.monotonic() + seconds
    while True:
        probe = BotClient(url)
        welcome = await probe.connect()
        await probe.close()
        if len(welcome.get("servers", [])) >= servers:
            return
        if time.monotonic() > deadline:
            raise RuntimeError("the servers did not find each other in the lobby")
        await asyncio.sleep(0.1)


async def _with_kill(
    urls: list[str], victim: subprocess.Popen[str], count: int, rounds: int, pace: float, timeout: float
) -> tuple[list[tuple[BotClient, str, int]], list[float], int]:
    await _lobby_knows(urls[0], len(urls))
    # The victim's bots stop in the play of the second hand; once all have, it is killed.
    tables = await _open_tables(urls, count, rounds, pace, hold_on_first=True)
    on_victim = [(bot, table_id) for bot, table_id, server in tables if server == 0]
    deadline = time.monotonic() + timeout
    while any(bot.playing for bot, _ in on_victim):
        if time.monotonic() > deadline:
            raise TimeoutError("the tables did not reach their second hand")
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.05)  # a computer's card may still be on its way
    seen = {table_id: max(bot.last.values(), default=0) for bot, table_id in on_victim}
    victim.send_signal(signal.SIGKILL)
    killed_at = time.perf_counter()
    mid_hand = sum(1 for bot, _ in on_victim if bot.history is None)
    takeover: dict[str, float] = {}

    def watch(table_id: str) -> Any:
        def on_step(client: BotClient, step: dict[str, Any]) -> None:
            if table_id not in takeover and step["events"] and step["events"][-1]["n"] > seen[table_id]:
                takeover[table_id] = time.perf_counter() - killed_at

        return on_step

    for bot, table_id in on_victim:
        if bot.history is None:
            bot.on_step = watch(table_id)
    # They play on once they found their table again (at once, a table another server took early).
    await asyncio.gather(*(bot.play_on() for bot, _ in on_victim))
    await asyncio.gather(*(bot.finish(timeout) for bot, _, _ in tables), return_exceptions=True)
    for bot, _, _ in tables:
        await bot.close()
    victim.wait(10)
    return tables, list(takeover.values()), mid_hand


def _second_hand(step: dict[str, Any]) -> bool:
    return bool(step["state"]["deal"] >= 2 and step["state"]["phase"] == "play")


async def _latencies(url: str, count: int, rounds: int, pace: float, timeout: float) -> list[float]:
    """Each action's latency (act sent to step seen) at ``count`` tables of the server at ``url``."""
    tables = await _open_tables([url], count, rounds, pace)
    await asyncio.gather(*(bot.finish(timeout) for bot, _, _ in tables), return_exceptions=True)
    latencies = [latency for bot, _, _ in tables for latency in bot.latencies]
    for bot, _, _ in tables:
        await bot.close()
    return latencies


def run_failover(
    tables: int = 50,
    rounds: int = 4,
    lease: float = 1.0,
    pace: float = 0.02,
    timeout: float = 120.0,
    latency_tables: int = 10,
    latency_pace: float = 0.05,
    appendfsync: str = "always",
) -> FailoverResult:
    """The whole benchmark (see the module docstring), in a temporary folder. The latency Redis
    adds is measured first, apart from the failover and on a lighter load: ``latency_tables``
    tables at ``latency_pace`` on one server with ``--redis``, then on one without."""
    started = time.perf_counter()
    with (
        tempfile.TemporaryDirectory(prefix="tricktable-failover-") as folder,
        own_redis_server(appendfsync) as redis_server,
    ):
        work = Path(folder)
        servers: list[tuple[subprocess.Popen[str], str]] = []
        try:
            # The servers, started together: for the latency (unless latency_tables is 0), one in a
            # lobby of its own (Redis's database 1) and one without Redis; then the failover's
            # lobby of two (database 0).
            lobby = ["--redis", redis_server.url, "--lease", str(lease)]
            apart = [["--redis", redis_server.url[:-1] + "1"], []] if latency_tables else []
            servers = start_serves(work, *apart, lobby, lobby)
            with_redis, alone = (
                (
                    asyncio.run(_latencies(url, latency_tables, rounds, latency_pace, timeout))
                    for _, url in servers[: len(apart)]
                )
                if apart
                else ([], [])
            )
            for process, _ in servers[: len(apart)]:
                stop(process)
            journal = _journal_summary(work)
            servers = servers[len(apart) :]
            urls = [url for _, url in servers]
            played, takeover, killed = asyncio.run(_with_kill(urls, servers[0][0], tables, rounds, pace, timeout))
            moved = sum(1 for bot, _, server in played if server == 0 and bot.steps and bot.steps[0]["epoch"] >= 2)
            result = FailoverResult(
                tables, killed, moved, takeover, with_redis, alone, appendfsync=appendfsync, journal=journal
            )
            histories = work / "histories.jsonl"
            with histories.open("w", encoding="utf-8") as out:
                for bot, table_id, _ in played:
                    if bot.history is None:
                        result.unfinished.append(table_id)
                        continue
                    out.write(json.dumps(bot.history) + "\n")
                    if not _same_as_twin(journal_lines(redis_server.url, table_id), bot.seed, bot.history):
                        result.different.append(table_id)
            with contextlib.redirect_stdout(io.StringIO()):  # the command's report, one line a file
                result.replay_check = cli.main(["replay", "--check", str(histories)])  # as `main.py replay --check`
        finally:
            for process, _ in servers:
                stop(process)
    result.seconds = time.perf_counter() - started
    return result


def _journal_summary(work: Path) -> str:
    """What the latency measurement's --redis server said of its journal writes as it stopped."""
    for log_path in sorted(work.glob("server*.log")):
        for line in log_path.read_text().splitlines():
            if line.startswith("Redis journal:"):
                return line
    return ""


def describe(result: FailoverResult) -> str:
    p50, p99 = (FailoverResult.percentile(result.takeover_seconds, share) for share in (0.5, 0.99))
    latency = "latency per action: not measured"
    if result.latency_redis and result.latency_alone:
        latency = (
            f"latency per action (act to step, median, {len(result.latency_redis)} and {len(result.latency_alone)} "
            f"actions): {statistics.median(result.latency_redis) * 1000:.2f} ms "
            f"with Redis, {statistics.median(result.latency_alone) * 1000:.2f} ms without: "
            f"Redis adds {result.added_latency() * 1000:.2f} ms"
        )
    return "\n".join(
        [
            f"Redis appendfsync {result.appendfsync}; tables {result.tables}, {result.killed_tables} "
            f"on the killed server mid-game at the kill, {result.moved_tables} of them finished on the other",
            f"takeover (kill to the next event): p50 {p50 * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms "
            f"over {len(result.takeover_seconds)} tables",
            latency,
            f"the server's own measure: {result.journal or 'none'}",
            f"unfinished {len(result.unfinished)}, different from the fault-free twin {len(result.different)}, "
            f"replay --check exit {result.replay_check}",
            f"ran {result.seconds:.1f} s",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=4, help="Wizard rounds a game")
    parser.add_argument("--lease", type=float, default=1.0, help="the servers' lease (seconds)")
    parser.add_argument("--pace", type=float, default=0.02, help="seconds a bot waits before each move")
    parser.add_argument("--latency-tables", type=int, default=10, help="tables of the latency measurement")
    parser.add_argument("--latency-pace", type=float, default=0.05, help="the bots' pace there")
    parser.add_argument(
        "--appendfsync",
        choices=("always", "everysec", "no"),
        default="always",
        help="Redis's append-only file: on disk before each answer (always), or once a second",
    )
    args = parser.parse_args(argv)
    result = run_failover(
        args.tables,
        args.rounds,
        args.lease,
        args.pace,
        latency_tables=args.latency_tables,
        latency_pace=args.latency_pace,
        appendfsync=args.appendfsync,
    )
    print(describe(result))
    ok = not result.unfinished and not result.different and result.replay_check == 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
