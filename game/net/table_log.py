"""The server's table logs: every table's lobby, seed and actions, written as they happen.

One JSON Lines file per table (``tables/<id>.jsonl``); each line is written
whole, in one ``write``, before the server announces what it records, so a
server killed at any moment is started again with every table as it stood.
"""

from __future__ import annotations

# Lines: the header (format, table, invite, rules, seed, seats, host token hash,
# options), then ``{"seats": [...]}`` for every lobby change, ``{"start": true}``,
# ``{"act": [seat, "AS"]}`` for each action, ``{"claim": seat}``, ``{"next": true}``
# for each new deal and ``{"over": true}`` at the end. A last line cut short by the
# kill is ignored; a log that cannot be read is named in the server's log and left
# where it is (never deleted or rewritten).
#
# Each line is one ``write`` on a file opened for appending, and the kernel has the line
# once ``write`` returns (what a killed process needs; a power cut may lose the last lines).
# The files of the tables written to last stay open (``OPEN_LOGS`` at most, the least
# recently written closed first): opening and closing a file for every action cost the
# server about 5% of its time at 600 tables (py-spy, ``benchmarks.server``), as the path
# is looked up in a folder of hundreds of files each time.

import json
import logging
import os
from collections import OrderedDict
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

from game.persistence import file_lock
from game.net.table_host import HostedTable, SeatPlan, TableOptions
from game.net.wire import compact_json, decode_action
from game.rules.house_rules import rules_from_dict

log = logging.getLogger("tricktable.server")

LOG_FORMAT = "trick-table-table"
LOCK_FILE_NAME = "server.lock"
LOG_VERSION = 1
OPEN_LOGS = 1024  # table logs kept open for appending (the serve command raises its file limit)


class TableLogError(ValueError):
    """A table log that cannot be read back."""


class FolderInUseError(OSError):
    """Another server (in this process or another) keeps its tables in this folder."""


class TableLogs:
    """The folder of table logs (None: a server that keeps nothing, for tests and benchmarks).

    A server holds the folder's lock while it runs: two servers on one folder would both
    resume its tables and write into the same logs."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        self._lock: BinaryIO | None = None
        self._open: OrderedDict[str, int] = OrderedDict()  # table -> descriptor, last written last
        if folder is not None:
            folder.mkdir(parents=True, exist_ok=True)
            handle = open(folder / LOCK_FILE_NAME, "a+b", buffering=0)
            if not file_lock.try_lock(handle):
                handle.close()
                raise FolderInUseError(f"another server keeps its tables in {folder}")
            self._lock = handle

    def release(self) -> None:
        """Let the folder go (the server stopped)."""
        while self._open:
            os.close(self._open.popitem()[1])
        if self._lock is not None and not self._lock.closed:
            file_lock.unlock(self._lock)
            self._lock.close()

    def create(self, table: HostedTable) -> None:
        self._write(table.table_id, header_line(table), exclusive=True)

    def append(self, table: HostedTable, line: dict[str, Any]) -> None:
        self._write(table.table_id, line)

    def seats_changed(self, table: HostedTable) -> None:
        self.append(table, seats_line(table))

    def _write(self, table_id: str, line: dict[str, Any], exclusive: bool = False) -> None:
        if self.folder is None:
            return
        data = (compact_json(line) + "\n").encode("utf-8")
        descriptor = None if exclusive else self._open.pop(table_id, None)
        if descriptor is None:
            flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | (os.O_EXCL if exclusive else 0)
            descriptor = os.open(self.folder / f"{table_id}.jsonl", flags, 0o600)
        try:
            written = os.write(descriptor, data)
            if written != len(data):
                raise OSError(f"table log {table_id}.jsonl: only {written} of {len(data)} bytes written")
        except BaseException:
            os.close(descriptor)  # opened again for the next line
            raise
        self._open[table_id] = descriptor
        if len(self._open) > OPEN_LOGS:
            os.close(self._open.popitem(last=False)[1])

    def load_unfinished(self) -> list[HostedTable]:
        """Every table whose game has not ended, as its log left it."""
        if self.folder is None:
            return []
        tables = []
        for path in sorted(self.folder.glob("*.jsonl")):
            try:
                table = read_table(path)
            except (OSError, TableLogError) as error:
                log.warning("table log %s not resumed: %s", path.name, error)
                continue
            if table is not None:
                tables.append(table)
        return tables


def header_line(table: HostedTable) -> dict[str, Any]:
    """A table log's first line: the table, its rules, seed, seats and options."""
    return {
        "format": LOG_FORMAT,
        "version": LOG_VERSION,
        "table": table.table_id,
        "invite": table.invite,
        "rules": {"game": table.rules.game, "values": table.rules.to_dict()},
        "seed": table.seed,
        "seats": [plan.to_dict() for plan in table.seats],
        "host": table.host_hash,
        "options": {
            "name": table.options.name,
            "spectators": table.options.spectators,
            "stand_in_after": table.options.stand_in_after,
            "listed": table.options.listed,
        },
    }


def seats_line(table: HostedTable) -> dict[str, Any]:
    """The line of a lobby change: every seat as it is now."""
    return {"seats": [plan.to_dict() for plan in table.seats]}


def read_table(path: Path) -> HostedTable | None:
    """The table ``path`` records (None when its game ended); ``TableLogError`` if unreadable."""
    return table_from_lines(path.read_bytes().split(b"\n"))


def table_from_lines(lines: list[bytes]) -> HostedTable | None:
    """The table a log's lines record (a file's, or a Redis journal's: the same lines), None when
    its game ended; ``TableLogError`` if they cannot be read."""
    records: list[dict[str, Any]] = []
    for number, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        try:
            record = json.loads(raw)
        except ValueError:
            if number >= len(lines) - 1:
                break  # the last line, cut short when the server was killed while writing it
            raise TableLogError(f"line {number} is not JSON") from None
        if not isinstance(record, dict):
            raise TableLogError(f"line {number} is not an object")
        records.append(record)
    if not records or records[0].get("format") != LOG_FORMAT or records[0].get("version") != LOG_VERSION:
        raise TableLogError("not a table log of this version")
    try:
        return _replay(records)
    except TableLogError:
        raise
    except Exception as error:  # a damaged log is reported, never a crash of the server
        raise TableLogError(f"{type(error).__name__}: {error}") from None


def _replay(records: list[dict[str, Any]]) -> HostedTable | None:
    *_, table = replayed(records)  # the table after its last line
    return table


def replayed(records: list[dict[str, Any]]) -> Iterator[HostedTable | None]:
    """The table after each line of its log, one line at a time (the same object, changing;
    None once the log says the game is over)."""
    header = records[0]
    rules = rules_from_dict(header["rules"]["game"], header["rules"]["values"])
    options = TableOptions(**header["options"])
    table = HostedTable(
        header["table"],
        header["invite"],
        rules,
        [SeatPlan.from_dict(seat) for seat in header["seats"]],
        options,
        header["host"],
        seed=int(header["seed"]),
    )
    yield table
    for record in records[1:]:
        if "seats" in record:
            table.seats = [SeatPlan.from_dict(seat) for seat in record["seats"]]
        elif record.get("start"):
            table.match = table._new_match()
        elif "act" in record:
            seat, text = record["act"]
            action = decode_action(text)
            assert action is not None and table.match is not None
            table.match.apply(action, seat)
        elif "claim" in record:
            assert table.match is not None
            table.match.claim(record["claim"])
        elif record.get("next"):
            assert table.match is not None
            table.match.next_deal()
        elif record.get("over"):
            yield None
            return
        yield table
