"""Redis capacity: the table actions a second one Redis takes through the servers' journal.

Run ``python -m benchmarks.redis_capacity [--tables 1000] [--writers 2] [--seconds 10]
[--appendfsync always]``. It prints the journal lines written a second, Redis's CPU per line,
and so how many tables at a human pace (one action a second) one Redis carries.
"""

from __future__ import annotations

# Method: a real redis-server (tests/redis_server.py: append-only file on); ``--writers``
# processes, each standing for one `serve --redis` with its own share of the tables, each
# writing through the server's own journal (``RedisJournal``: one pipelined batch a loop turn,
# every table's append fenced by the Lua script). Each round, every table gets one action's
# line (as a server writes it when a move is made) and the round waits until Redis has them
# all. The writers start together; Redis's CPU (utime + stime, /proc/PID/stat) is read over
# the same window. The writers are Python and share the machine's cores with Redis, so the
# figure to plan with is Redis's CPU per line: one Redis core takes 1 / (that) lines a second.

import argparse
import asyncio
import multiprocessing
import os
import statistics
import sys
import time
from dataclasses import dataclass

from benchmarks.own_redis import own_redis_server, process_cpu_seconds

ACT_LINE = {"act": [0, "5H"]}  # one move's line in a table's journal


@dataclass
class WriterResult:
    lines: int
    seconds: float
    batch_ms_p50: float


def _writer(
    url: str, tables: int, start_at: float, seconds: float, name: str, out: multiprocessing.Queue[WriterResult]
) -> None:
    out.put(asyncio.run(_write(url, tables, start_at, seconds, name)))


async def _write(url: str, tables: int, start_at: float, seconds: float, name: str) -> WriterResult:
    from game.net import redis_store
    from game.net.redis_journal import RedisJournal
    from game.net.table_host import HostedTable, TableOptions
    from game.rules import make_rules

    client = redis_store.connect(url, 10.0)
    journal = RedisJournal(client, name, redis_store.StoreHealth(), on_lost=lambda table_id: None)
    rules = make_rules("wizard", players=4)
    seats = [{"kind": "host", "name": f"P{seat}"} for seat in range(4)]
    made = [HostedTable.create(rules, seats, TableOptions("bench"))[0] for _ in range(tables)]
    for table in made:
        journal.create(table)
    if not await journal.drain(60):
        raise RuntimeError("the tables were not made in Redis")
    journal.write_seconds.clear()
    await asyncio.sleep(max(0.0, start_at - time.time()))
    began = time.perf_counter()
    lines = 0
    while time.perf_counter() - began < seconds:
        for table in made:
            journal.append(table, ACT_LINE)
        if not await journal.drain(30):
            raise RuntimeError("Redis stopped taking the lines")
        lines += len(made)
    elapsed = time.perf_counter() - began
    batches = journal.write_seconds or [float("nan")]
    journal.release()
    await client.aclose()
    return WriterResult(lines, elapsed, statistics.median(batches) * 1000)


def run(tables: int, writers: int, seconds: float, appendfsync: str, lead_seconds: float = 2.0) -> str:
    """The measurement (see the module's notes), as the lines it prints. ``lead_seconds``: how long
    the writers have to start and make their tables before they write together."""
    with own_redis_server(appendfsync) as redis:
        assert redis.process is not None
        context = multiprocessing.get_context("spawn")
        out: multiprocessing.Queue[WriterResult] = context.Queue()
        start_at = time.time() + lead_seconds + 0.002 * tables  # every writer's tables made by then
        share = [tables // writers + (1 if index < tables % writers else 0) for index in range(writers)]
        processes = [
            context.Process(target=_writer, args=(redis.url, count, start_at, seconds, f"bench{index}", out))
            for index, count in enumerate(share)
        ]
        for process in processes:
            process.start()
        time.sleep(max(0.0, start_at - time.time()))
        cpu_before, wall_before = process_cpu_seconds(redis.process.pid), time.perf_counter()
        results = [out.get(timeout=seconds + 120) for _ in processes]
        cpu = process_cpu_seconds(redis.process.pid) - cpu_before
        wall = time.perf_counter() - wall_before
        for process in processes:
            process.join(10)
    lines = sum(result.lines for result in results)
    rate = lines / wall
    cpu_per_line = cpu / max(1, lines)
    batches = ", ".join(f"{result.batch_ms_p50:.2f}" for result in results)
    report = [
        f"{os.cpu_count()} CPUs; redis-server with appendonly yes, appendfsync {appendfsync}",
        f"{tables} tables over {writers} writer(s) (one a server), one line a table a round, {seconds:g} s",
        f"lines written: {lines} in {wall:.1f} s = {rate:,.0f} a second (batch p50 ms per writer: {batches})",
    ]
    if cpu <= 0:  # the kernel counts CPU in ticks (10 ms): a short, light run may show none
        return "\n".join([*report, "Redis CPU: too little to read over this window (run longer)"])
    per_core = 1 / cpu_per_line
    return "\n".join(
        [
            *report,
            f"Redis CPU: {cpu:.2f} s = {100 * cpu / wall:.0f}% of one core; {cpu_per_line * 1e6:.1f} us a line",
            f"one Redis core takes about {per_core:,.0f} lines a second: {per_core:,.0f} tables at a human pace "
            f"(one action a second), {per_core / 2:,.0f} at half its core",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--writers", type=int, default=2, help="writer processes, each as one server (default 2)")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--appendfsync", choices=("always", "everysec", "no"), default="always")
    args = parser.parse_args(argv)
    if args.tables < args.writers or args.writers < 1 or args.seconds <= 0:
        print("error: at least one table a writer, one writer, and some seconds", file=sys.stderr)
        return 2
    print(run(args.tables, args.writers, args.seconds, args.appendfsync))
    return 0


if __name__ == "__main__":
    sys.exit(main())
