"""``RedisJournal``: each table's log lines appended to a Redis list, fenced by its epoch.

It stands in for ``TableLogs`` (the same calls, the same lines), so any server of
the lobby rebuilds a table from Redis alone. Lines are written in batches, one
round trip for every table that changed in a loop turn; the frames they cause are
held (``held_frames``) until Redis has them, and kept in order while it is away.
"""

from __future__ import annotations

# While Redis is away the lines wait here in order and the frames go out at once
# (the write-before-announce guarantee holds only while Redis answers); they are
# written through when it answers again. A table whose append is refused (another
# server took it: its epoch moved on) is let go: ``on_lost`` is told, its lines and
# held frames are dropped.

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from game.net import redis_store as keys
from game.net.held_frames import FrameHold
from game.net.redis_store import StoreHealth
from game.net.table_host import HostedTable
from game.net.table_log import header_line, seats_line
from game.net.wire import compact_json

log = logging.getLogger("tricktable.server")


def directory_fields(table: HostedTable) -> dict[str, str]:
    """What the lobby's table directory says of ``table`` (Redis hash fields, as text)."""
    return {
        "name": table.options.name,
        "game": table.rules.game,
        "rules": compact_json({"game": table.rules.game, "values": table.rules.to_dict()}),
        "players": str(len(table.seats)),
        "free_seats": str(len(table.free_seats())),
        "started": "1" if table.started else "0",
        "spectators": "1" if table.options.spectators else "0",
        "listed": "1" if table.options.listed else "0",
        "invite": table.invite,
    }


@dataclass
class _Pending:
    table: HostedTable
    lines: list[str] = field(default_factory=list)
    header: str | None = None  # the table is new: its hash and first line are made first
    finished: bool = False
    listing_changed: bool = False  # the directory's fields are written too (seats, start, end)


class RedisJournal:
    """The lobby's journal of this server's tables (see the module docstring)."""

    def __init__(
        self,
        client: Any,
        server_id: str,
        health: StoreHealth,
        on_lost: Callable[[str], None],
        retry_seconds: float = 0.5,
    ) -> None:
        self.client = client
        self.server_id = server_id
        self.health = health
        self.on_lost = on_lost
        self.retry_seconds = retry_seconds
        self.frames = FrameHold()
        self.pending: dict[str, _Pending] = {}
        self.lengths: dict[str, int] = {}  # table -> lines its journal holds (as this server wrote them)
        self.write_seconds: list[float] = []  # how long each batch took to be written (measured)
        self._wake = asyncio.Event()
        self._writer: asyncio.Task[None] | None = None
        self._writing = False  # a batch is on its way to Redis

    # ------------------------------------------------------------------ TableLogs' calls
    def create(self, table: HostedTable) -> None:
        table.epoch = 1
        self._entry(table).header = compact_json(header_line(table))

    def append(self, table: HostedTable, line: dict[str, Any]) -> None:
        entry = self._entry(table)
        entry.lines.append(compact_json(line))
        if line.get("over"):
            entry.finished = True
        if "seats" in line or "start" in line or "over" in line:
            entry.listing_changed = True

    def seats_changed(self, table: HostedTable) -> None:
        self.append(table, seats_line(table))

    def load_unfinished(self) -> list[HostedTable]:
        return []  # a lobby's tables are taken over from Redis, not read from files

    def release(self) -> None:
        if self._writer is not None:
            self._writer.cancel()

    async def drain(self, seconds: float) -> bool:
        """Wait (at most ``seconds``) until every line is written; whether they all are."""
        deadline = asyncio.get_running_loop().time() + seconds
        while self.pending or self._writing:
            if asyncio.get_running_loop().time() > deadline:
                return False
            await asyncio.sleep(0.01)
        return True

    def summary(self) -> str:
        """How long the batches took to be written (what Redis adds to an action, on the server)."""
        times = sorted(self.write_seconds)
        if not times:
            return "Redis journal: nothing written"
        p50, p99 = (times[min(len(times) - 1, int(share * len(times)))] * 1000 for share in (0.5, 0.99))
        return f"Redis journal: {len(times)} batches written, p50 {p50:.2f} ms, p99 {p99:.2f} ms a batch"

    def _entry(self, table: HostedTable) -> _Pending:
        entry = self.pending.get(table.table_id)
        if entry is None or entry.table is not table:
            entry = self.pending[table.table_id] = _Pending(table)
        if self.health.up:
            self.frames.holding = True
        if self._writer is None:
            self._writer = asyncio.get_running_loop().create_task(self._write_forever())
        self._wake.set()
        return entry

    def adopted(self, table: HostedTable, length: int) -> None:
        """``table`` was taken over with a journal of ``length`` lines: appends go on from there."""
        self.lengths[table.table_id] = length

    def forget(self, table_id: str) -> None:
        """``table_id`` was let go: its unwritten lines go with it."""
        self.pending.pop(table_id, None)
        self.lengths.pop(table_id, None)

    # ------------------------------------------------------------------ writing
    async def _write_forever(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self.pending:
                batch, self.pending = self.pending, {}
                cut = len(self.frames.frames)  # the frames made before this batch was taken
                self._writing = True
                try:
                    lost = await self._write(batch)
                except asyncio.CancelledError:
                    raise
                except keys.store_errors() as error:
                    self._put_back(batch)
                    self.health.failed(error)
                    self.frames.holding = False
                    self.frames.release()  # Redis is away: the game goes on, unrecorded for now
                    await asyncio.sleep(self.retry_seconds)
                    continue
                finally:
                    self._writing = False
                self.health.answered()
                for table_id in lost:
                    self.pending.pop(table_id, None)
                self.frames.release(cut, frozenset(lost))
                for table_id in lost:
                    self.on_lost(table_id)
            if not self.pending:
                self.frames.holding = False
                self.frames.release()

    def _put_back(self, batch: dict[str, _Pending]) -> None:
        """Lines that could not be written go back before any made since, in order."""
        for table_id, entry in self.pending.items():
            earlier = batch.get(table_id)
            if earlier is not None and earlier.table is entry.table:
                earlier.lines.extend(entry.lines)
                earlier.finished = earlier.finished or entry.finished
                earlier.listing_changed = earlier.listing_changed or entry.listing_changed
            else:
                batch[table_id] = entry
        self.pending = batch

    async def _write(self, batch: dict[str, _Pending]) -> list[str]:
        """One round trip for the whole batch; the tables whose append was refused (lost)."""
        started = time.perf_counter()
        pipe = self.client.pipeline(transaction=False)
        order: list[tuple[str, str]] = []
        held = keys.held_key(self.server_id)
        for table_id, entry in batch.items():
            table = entry.table
            table_keys = [
                keys.table_key(table_id),
                keys.journal_key(table_id),
                keys.TABLES,
                held,
                keys.invite_key(table.invite),
            ]
            listing = directory_fields(table) if entry.header is not None or entry.listing_changed else {}
            fields = [text for pair in listing.items() for text in pair]
            if entry.header is not None:
                pipe.eval(keys.CREATE_SCRIPT, 5, *table_keys, table_id, self.server_id, entry.header, *fields)
                order.append((table_id, "create"))
            if entry.lines or entry.header is None:
                finished = "1" if entry.finished else "0"
                before = self.lengths.get(table_id, 0) + (1 if entry.header is not None else 0)
                args = [str(table.epoch), table_id, finished, str(before), str(len(entry.lines)), *entry.lines]
                pipe.eval(keys.APPEND_SCRIPT, 5, *table_keys, *args, *fields)
                order.append((table_id, "append"))
        results = await pipe.execute()
        self.write_seconds.append(time.perf_counter() - started)
        if len(self.write_seconds) > 10_000:
            del self.write_seconds[:5_000]
        for table_id, entry in batch.items():
            if entry.header is not None:
                entry.header = None
                self.lengths[table_id] = 1
            self.lengths[table_id] = self.lengths.get(table_id, 0) + len(entry.lines)
            if entry.finished:
                self.lengths.pop(table_id, None)
        lost = []
        for (table_id, kind), result in zip(order, results):
            if not result and table_id not in lost:
                log.warning("table %s: %s refused by Redis (another server holds it now)", table_id, kind)
                lost.append(table_id)
                self.lengths.pop(table_id, None)
        return lost
