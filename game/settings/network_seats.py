"""The seat tokens this program holds at network tables, kept to take a seat back later.

``network_seats.json`` in the user's data folder, written atomically. A missing file is
no table; a damaged one is named in the log and read as none (never deleted: it is copied
aside before the next write). A disk that cannot be written costs the convenience only.
"""

from __future__ import annotations

# A seat token is a secret (it takes the seat), so the file is made readable by its
# owner alone where the system allows. Each entry is one table: the server's address,
# the table's id, the seats held there with their tokens, the table's name and game (for
# the Join screen's "Rejoin Ann's table (Wizard)"), and when it was last written, so the
# newest comes first and the oldest go once more than ``MOST_TABLES`` are kept.
#
# Every entry is checked on its own when read: one that is not what this module writes
# is skipped (and logged) while the others are kept.

import contextlib
import json
import logging
import os
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game.session.names import clean_name
from game.settings.app_settings import back_up_file
from game.settings.paths import UserPaths, atomic_write_text, open_regular_file

log = logging.getLogger("tricktable.config")

SEATS_FILE = "network_seats.json"
FILE_VERSION = 1
MOST_TABLES = 20  # tables remembered at once; the oldest go first
_MOST_BYTES = 256 * 1024  # a bigger file is not one this module wrote
_MOST_TEXT = 200  # characters of an address, a table id or a token
_MOST_SEATS = 16


@dataclass(frozen=True)
class RememberedTable:
    """A table this program holds seats at: where it is and the tokens that take the seats back."""

    server_url: str
    table: str
    seats: Mapping[int, str] = field(default_factory=dict)
    table_name: str = ""
    game: str = ""
    saved_at: float = 0.0  # seconds since the epoch: newest first


def seats_file(paths: UserPaths) -> Path:
    return paths.data_dir / SEATS_FILE


def remembered(paths: UserPaths) -> list[RememberedTable]:
    """Every table remembered, newest first (none when the file is missing or damaged)."""
    tables, _ = _read(seats_file(paths))
    return sorted(tables, key=lambda entry: entry.saved_at, reverse=True)


def remember(
    paths: UserPaths,
    server_url: str,
    table: str,
    seats: Mapping[int, str],
    table_name: str,
    game: str,
) -> bool:
    """Keep ``seats`` (every seat this program holds at ``table``, with its token: they replace
    what was kept for it); False (logged) when the file could not be written."""
    entry = _checked_entry(
        {
            "server_url": server_url,
            "table": table,
            "seats": {str(seat): token for seat, token in seats.items()},
            "table_name": table_name,
            "game": game,
            "saved_at": time.time(),
        }
    )
    if entry is None:
        log.warning("not remembering the seats at table %.40r: they are not what a server hands out", table)
        return False
    return _update(paths, lambda tables: [entry] + [old for old in tables if old.table != table])


def forget(paths: UserPaths, table: str) -> bool:
    """Drop what was kept for ``table`` (nothing happens when nothing was); False (logged) when
    the file could not be written."""
    if not any(entry.table == table for entry in remembered(paths)):
        return True
    return _update(paths, lambda tables: [old for old in tables if old.table != table])


def _update(paths: UserPaths, change: Any) -> bool:
    path = seats_file(paths)
    tables, damaged = _read(path)
    kept = sorted(change(tables), key=lambda entry: entry.saved_at, reverse=True)[:MOST_TABLES]
    try:
        if damaged:
            back_up_file(path)  # what could not be read may be worth keeping: never lost
        atomic_write_text(path, _encode(kept))
        with contextlib.suppress(OSError, NotImplementedError):
            os.chmod(path, 0o600)  # the tokens are secrets
    except OSError as exc:
        log.warning("could not write the network seats file %s: %s", path, exc)
        return False
    return True


def _encode(tables: list[RememberedTable]) -> str:
    entries = [
        {
            "server_url": entry.server_url,
            "table": entry.table,
            "seats": {str(seat): token for seat, token in sorted(entry.seats.items())},
            "table_name": entry.table_name,
            "game": entry.game,
            "saved_at": entry.saved_at,
        }
        for entry in tables
    ]
    return json.dumps({"version": FILE_VERSION, "tables": entries}, ensure_ascii=False, indent=1) + "\n"


def _read(path: Path) -> tuple[list[RememberedTable], bool]:
    """The tables in ``path`` and whether anything in it could not be read (logged)."""
    try:
        with open_regular_file(path) as handle:
            raw = handle.read(_MOST_BYTES + 1)
    except FileNotFoundError:
        return [], False
    except OSError as exc:
        log.warning("could not read the network seats file %s (no table is offered to rejoin): %s", path, exc)
        return [], True
    try:
        if len(raw) > _MOST_BYTES:
            raise ValueError(f"larger than {_MOST_BYTES // 1024} KB")
        document = json.loads(raw.decode("utf-8"))
        if not isinstance(document, dict) or not isinstance(document.get("tables"), list):
            raise ValueError("not a mapping with a list of tables")
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        log.warning("the network seats file %s is damaged (no table is offered to rejoin): %s", path, exc)
        return [], True
    tables: list[RememberedTable] = []
    damaged = False
    for raw_entry in document["tables"][: MOST_TABLES * 2]:
        entry = _checked_entry(raw_entry)
        if entry is None or any(old.table == entry.table for old in tables):
            log.warning("skipped an entry of the network seats file %s that cannot be used", path)
            damaged = True
            continue
        tables.append(entry)
    return tables, damaged


def _text(value: object, longest: int = _MOST_TEXT) -> str | None:
    return value if isinstance(value, str) and 0 < len(value) <= longest and value.isprintable() else None


def _checked_entry(data: object) -> RememberedTable | None:
    """``data`` as a remembered table, or None when it is not one this module writes."""
    if not isinstance(data, dict):
        return None
    url, table = _text(data.get("server_url")), _text(data.get("table"))
    seats = data.get("seats")
    saved_at = data.get("saved_at")
    if url is None or not url.startswith(("ws://", "wss://")) or table is None:
        return None
    if not isinstance(seats, dict) or not 0 < len(seats) <= _MOST_SEATS:
        return None
    held: dict[int, str] = {}
    for seat, token in seats.items():
        if not (isinstance(seat, str) and seat.isdigit() and len(seat) <= 2) or _text(token) is None:
            return None
        held[int(seat)] = token
    if not isinstance(saved_at, (int, float)) or isinstance(saved_at, bool) or saved_at != saved_at:
        return None
    game = data.get("game")
    return RememberedTable(
        server_url=url,
        table=table,
        seats=held,
        table_name=clean_name(data.get("table_name"))[:40],
        game=game if isinstance(game, str) and len(game) <= 40 else "",
        saved_at=float(saved_at),
    )
