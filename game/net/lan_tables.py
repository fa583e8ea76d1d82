"""The tables open on the local network: each server discovery finds, asked for its tables.

``LanTables`` keeps one ``NetClient`` per compatible server a ``Browser`` finds and asks
it ``list_tables`` when it connects and every ``REFRESH_SECONDS`` after, in a thread of
its own that wakes the window only when the list changed; ``poll`` never waits.
"""

from __future__ import annotations

# A server on this network hands out each listed table's invite code, so a row joins
# with a click. A server of another protocol version is listed, never connected to: the
# screen shows it greyed with the reason. Everything a server says is untrusted: names
# are cleaned and cut, counts checked, and a malformed table is left out of the list.

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from game.net.client import CONNECTED, NetClient
from game.net.discovery import Browser, FoundServer
from game.net.protocol import MAX_NAME, MAX_SEATS, normalize_invite_code
from game.session.names import clean_name

REFRESH_SECONDS = 4.0  # how often an open screen asks a server again (seats fill, tables start)
BROWSE_SECONDS = 0.5  # how often the browser's list and the servers' answers are looked at
MOST_ROWS = 50  # tables listed per server


@dataclass(frozen=True)
class ListedTable:
    """One table a server on this network offers: its name, game, seats and invite code."""

    table: str
    name: str
    game: str
    players: int
    free_seats: int
    started: bool
    invite: str
    spectators: bool = False  # people may watch it
    elsewhere: bool = False  # another server of the answering server's lobby holds it (``url``)


@dataclass(frozen=True)
class ListedServer:
    """A server found on this network and the tables it offers (none until it answers)."""

    server: FoundServer
    tables: tuple[ListedTable, ...] = ()
    answered: bool = False

    @property
    def url(self) -> str:
        return server_url(self.server)


def server_url(server: FoundServer) -> str:
    """Where to connect to a found server: ``ws://`` or, when it advertises TLS, ``wss://``."""
    return host_url(server.host, server.port, server.tls)


def host_url(host: str, port: int, tls: bool = False) -> str:
    """``ws://host:port/`` (``wss://`` with ``tls``); an IPv6 address goes in brackets."""
    shown = f"[{host}]" if ":" in host else host
    return f"{'wss' if tls else 'ws'}://{shown}:{port}/"


def read_tables(message: dict[str, Any]) -> tuple[ListedTable, ...]:
    """The joinable entries of a ``tables`` message (those with an invite code), checked."""
    raw = message.get("tables")
    found: list[ListedTable] = []
    for entry in raw if isinstance(raw, list) else []:
        if not isinstance(entry, dict):
            continue
        players, free, invite = entry.get("players"), entry.get("free_seats"), entry.get("invite")
        code = normalize_invite_code(invite) if isinstance(invite, str) else None
        table, game = entry.get("table"), entry.get("game")
        if code is None or not isinstance(table, str) or not 0 < len(table) <= 64:
            continue
        if (
            not isinstance(players, int)
            or not isinstance(free, int)
            or isinstance(players, bool)
            or isinstance(free, bool)
        ):
            continue
        if not 0 <= free <= players <= MAX_SEATS:
            continue
        found.append(
            ListedTable(
                table=table,
                name=clean_name(entry.get("name"))[:MAX_NAME],
                game=game if isinstance(game, str) and len(game) <= 40 else "",
                players=players,
                free_seats=free,
                started=entry.get("started") is True,
                invite=code,
                spectators=entry.get("spectators") is True,
                elsewhere=entry.get("url") is not None,
            )
        )
        if len(found) >= MOST_ROWS:
            break
    return tuple(found)


def one_row_per_table(servers: list[ListedServer]) -> list[ListedServer]:
    """Each table once: the servers of one lobby (``serve --redis``) all list every table of it,
    so a table stays under the server that holds it (or the first that told of it); joining it
    through any of them works (a server sends the player on to the table's own)."""
    held = {table.table for listed in servers for table in listed.tables if not table.elsewhere}
    seen: set[str] = set()
    kept = []
    for listed in servers:
        tables = []
        for table in listed.tables:
            if table.table in seen or (table.elsewhere and table.table in held):
                continue
            seen.add(table.table)
            tables.append(table)
        kept.append(ListedServer(listed.server, tuple(tables), listed.answered))
    return kept


class LanTables:
    """The servers ``browser`` finds and their tables (see the module docstring)."""

    def __init__(
        self,
        browser: Browser,
        app_name: str,
        on_change: Callable[[], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``on_change`` is called from the watching thread when ``listing`` changed (to wake the
        window); it must return at once."""
        self.browser = browser
        self.app_name = app_name
        self.on_change = on_change
        self._clock = clock
        self._lock = threading.Lock()  # guards everything below, shared with the watching thread
        self._servers: list[FoundServer] = []
        self._clients: dict[str, NetClient] = {}  # by the server's mDNS name
        self._tables: dict[str, tuple[ListedTable, ...]] = {}
        self._asked: dict[str, float] = {}  # when each server was last asked
        self._version = 0  # grows with every change of the listing
        self._seen_version = 0  # the version ``poll`` last reported
        self._stop = threading.Event()
        self._watcher = threading.Thread(target=self._watch, name="lan-tables", daemon=True)
        self._watcher.start()

    @property
    def searching(self) -> bool:
        """Discovery is on (False where this machine has no multicast: nothing will be found)."""
        return self.browser.active

    def listing(self) -> list[ListedServer]:
        """Every server found (compatible ones first), with the tables each has told of."""
        with self._lock:
            return one_row_per_table(
                [
                    ListedServer(server, self._tables.get(server.service, ()), server.service in self._tables)
                    for server in self._servers
                ]
            )

    def poll(self) -> bool:
        """Whether ``listing`` changed since the last call (never waits)."""
        with self._lock:
            changed = self._version != self._seen_version
            self._seen_version = self._version
        return changed

    # ------------------------------------------------------------------ the watching thread
    def _watch(self) -> None:
        while True:
            if self._look():
                callback = self.on_change
                if callback is not None:
                    callback()
            if self._stop.wait(BROWSE_SECONDS):
                return

    def _look(self) -> bool:
        """One look round: the browser's list, the servers' answers, the questions due; True when
        ``listing`` changed."""
        servers = self.browser.servers()
        now = self._clock()
        with self._lock:
            if self._stop.is_set():
                return False
            changed = servers != self._servers and self._follow(servers)
            due = []
            for service, client in self._clients.items():
                for message in client.messages():
                    tables = read_tables(message) if message.get("type") == "tables" else None
                    if tables is not None and (service not in self._tables or self._tables[service] != tables):
                        self._tables[service] = tables
                        changed = True
                last = self._asked.get(service)
                if client.status.state == CONNECTED and (last is None or now - last >= REFRESH_SECONDS):
                    self._asked[service] = now
                    due.append(client)
            if changed:
                self._version += 1
        for client in due:
            client.send({"type": "list_tables"})
        return changed

    def _follow(self, servers: list[FoundServer]) -> bool:
        """A connection to each compatible server found, none to the others (under the lock)."""
        self._servers = servers
        wanted = {server.service: server for server in servers if server.compatible}
        for service in list(self._clients):
            old = self._clients[service]
            if service not in wanted or old.url != server_url(wanted[service]):
                old.close()  # gone, or moved to another address or port
                del self._clients[service]
                self._tables.pop(service, None)
                self._asked.pop(service, None)
        for service, server in wanted.items():
            if service not in self._clients:
                # Its answers are read on this thread's next look: they wake nobody.
                client = NetClient(server_url(server), self.app_name)
                client.start()
                self._clients[service] = client
        return True

    def close(self) -> None:
        """Stop listening and close every connection; returns at once (the browser within a second)."""
        with self._lock:
            if self._stop.is_set():
                return
            self._stop.set()
            for client in self._clients.values():
                client.close()
            self._clients.clear()
        # zeroconf's goodbye takes a moment: a screen being left does not wait for it.
        threading.Thread(target=self.browser.close, name="lan-browser-close", daemon=True).start()
