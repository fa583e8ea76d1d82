"""``LobbyMember``: one server's part in a Redis lobby (``serve --redis URL``).

It keeps the server's lease alive, looks every lease period for tables whose
server died and takes them over (rebuilt from their journal), answers the lobby's
whole table list, and sends players to the server that holds their table
(``moved``). Without ``--redis`` none of this is loaded.
"""

from __future__ import annotations

# A server that cannot renew its lease (Redis away) keeps its tables: it lets one go
# only when a fenced append is refused, which means another server took it.

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

from game.net import redis_store
from game.net.held_frames import HeldConnection
from game.net.protocol import normalize_invite_code
from game.net.redis_journal import RedisJournal
from game.net.redis_lobby import RedisLobby
from game.net.redis_store import StoreHealth, StoreUnreachable
from game.net.table_host import TableRefusal
from game.net.table_log import TableLogError, table_from_lines

if TYPE_CHECKING:
    from game.net.server import Connection, TableServer

log = logging.getLogger("tricktable.server")

LISTED_AT_MOST = 500


class LobbyMember:
    def __init__(
        self,
        server: TableServer,
        redis_url: str,
        public_url: str | None,
        lease_seconds: float = 3.0,
        heartbeat_seconds: float = 1.0,
    ) -> None:
        """``lease_seconds``: how long this server's heartbeat key lives (after that long without
        a renewal, the others take its tables); it is renewed every ``heartbeat_seconds``."""
        self.server = server
        self.redis_url = redis_url
        self.public_url = public_url
        self.lease_seconds, self.heartbeat_seconds = lease_seconds, heartbeat_seconds
        self.server_id = secrets.token_hex(6)
        self.health = StoreHealth()
        self.client = redis_store.connect(redis_url, timeout=max(0.2, min(1.0, lease_seconds / 2)))
        self.journal = RedisJournal(self.client, self.server_id, self.health, self._lost)
        self.lobby = RedisLobby(self.client, self.server_id, public_url or "", lease_seconds)
        self.live_urls: list[str] = []  # every live server of the lobby (the welcome's list)
        self._tasks: set[asyncio.Task[Any]] = set()
        self._claiming: asyncio.Lock | None = None

    @property
    def available(self) -> bool:
        return self.health.up

    def connection(self, socket: Any, private: bool, **fields: Any) -> HeldConnection:
        return HeldConnection(socket, private, frame_hold=self.journal.frames, **fields)

    # ------------------------------------------------------------------ running
    async def start(self, default_url: str) -> None:
        """Join the lobby (``OSError`` when Redis cannot be reached) and start the heartbeat
        and the scan for dead servers' tables."""
        if not self.public_url:
            self.public_url = self.lobby.url = default_url
        self._claiming = asyncio.Lock()
        try:
            await self.lobby.heartbeat()
            await self.scan()
        except redis_store.store_errors() as error:
            raise StoreUnreachable(f"Redis at {self.redis_url} cannot be reached: {error}") from None
        self._spawn(self._heartbeat_forever())
        self._spawn(self._scan_forever())

    async def stop(self) -> None:
        """Leave the lobby: the lines not yet written are written (if Redis answers soon), and the
        lease goes at once, so the other servers take the tables over."""
        for task in list(self._tasks):
            task.cancel()
        if not await self.journal.drain(2.0):
            log.warning("the server stopped with lines Redis did not take: %d tables", len(self.journal.pending))
        with contextlib.suppress(TimeoutError, *redis_store.store_errors()):
            await asyncio.wait_for(self.lobby.leave(), 1.0)
        await self.client.aclose()

    def _spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _heartbeat_forever(self) -> None:
        while True:
            await asyncio.sleep(self.heartbeat_seconds)
            try:
                await self.lobby.heartbeat()
                servers = await self.lobby.servers()
            except redis_store.store_errors() as error:
                self.health.failed(error)
            else:
                self.health.answered()
                self.live_urls = sorted(url for url in servers.values() if url)

    async def _scan_forever(self) -> None:
        while True:
            await asyncio.sleep(self.lease_seconds)
            try:
                await self.scan()
            except redis_store.store_errors() as error:
                self.health.failed(error)
            except Exception:  # a fault in one scan must not end the next ones
                log.exception("the scan for tables to take over failed")

    async def scan(self) -> None:
        """Take over the tables of every server whose lease ran out."""
        servers = await self.lobby.servers()
        self.live_urls = sorted(url for url in servers.values() if url)
        for server_id, url in servers.items():
            if url is not None or server_id == self.server_id:
                continue
            tables = await self.lobby.tables_of(server_id)
            if not tables:
                await self.lobby.forget_server(server_id)
            for table_id in tables:
                await self.take_over(table_id, server_id)

    async def take_over(self, table_id: str, dead_owner: str) -> bool:
        """Claim ``table_id`` from ``dead_owner``, rebuild it from its journal and hold it."""
        assert self._claiming is not None
        async with self._claiming:
            if table_id in self.server.tables:
                return True
            claimed = await self.lobby.claim(table_id, dead_owner)
            if claimed is None:
                return False
            try:
                table = table_from_lines(claimed.lines)
            except TableLogError as error:
                log.warning("table %s taken over but its journal cannot be read: %s", table_id, error)
                return False
            if table is None:
                return False  # its game had ended
            table.epoch = claimed.epoch
            self.journal.adopted(table, len(claimed.lines))
            self.server.adopt(table)
            log.info("table %s taken over from server %s (epoch %d)", table_id, dead_owner, claimed.epoch)
            return True

    def _lost(self, table_id: str) -> None:
        """Another server took ``table_id``: let it go and send its players there."""
        connections = self.server.let_go(table_id)
        self.journal.forget(table_id)
        if connections:
            self._spawn(self._send_moved(table_id, connections))

    async def _send_moved(self, table_id: str, connections: set[Connection]) -> None:
        try:
            _, url, _ = await self.lobby.owner(table_id)
        except redis_store.store_errors():
            url = None
        frame = TableRefusal("moved", "another server holds this table now", table=table_id, url=url).frame()
        for conn in connections:
            conn.send(frame)

    # ------------------------------------------------------------------ the lobby's messages
    def list_tables(self, conn: Connection, re: int | None) -> None:
        self._spawn(self._list_tables(conn, re))

    async def _list_tables(self, conn: Connection, re: int | None) -> None:
        try:
            entries = await self.lobby.directory(LISTED_AT_MOST)
            servers = await self.lobby.servers()
        except redis_store.store_errors() as error:
            self.health.failed(error)
            self.server.list_own_tables(conn, re)  # Redis away: this server's own, at least
            return
        listing = []
        for entry in entries:
            owner = entry.get("owner")
            url = servers.get(owner) if owner is not None and owner != self.server_id else None
            listing.append(
                {
                    "table": entry["table"],
                    "name": entry.get("name", ""),
                    "game": entry.get("game", ""),
                    "players": int(entry.get("players", "0")),
                    "free_seats": int(entry.get("free_seats", "0")),
                    "started": entry.get("started") == "1",
                    "spectators": entry.get("spectators") == "1",
                    "invite": entry.get("invite") if conn.private and entry.get("listed") == "1" else None,
                    "url": url,  # None: this server holds it (or will take it over when asked)
                }
            )
        conn.send({"type": "tables", "re": re, "tables": listing})

    def look_elsewhere(self, conn: Connection, kind: str, data: dict[str, Any], re: int | None) -> None:
        """A ``resume``, ``take_seat`` or ``spectate`` for a table this server does not hold:
        send the player to its server (``moved``), or take it over when its server is dead."""
        self._spawn(self._look_elsewhere(conn, kind, data, re))

    async def _look_elsewhere(self, conn: Connection, kind: str, data: dict[str, Any], re: int | None) -> None:
        try:
            table_id = await self._table_asked_for(kind, data)
            owner, url = await self._holder(table_id) if table_id is not None else (None, None)
        except redis_store.store_errors() as error:
            self.health.failed(error)
            conn.send(TableRefusal("store_unavailable", "the servers' shared store is not reachable").frame(re=re))
            return
        if owner is not None and owner != self.server_id and url is not None:
            conn.send(TableRefusal("moved", "another server holds this table", table=table_id, url=url).frame(re=re))
            return
        self.server.dispatch(conn, kind, data, re, elsewhere=False)

    async def _table_asked_for(self, kind: str, data: dict[str, Any]) -> str | None:
        if kind == "resume":
            table_id = data.get("table")
            return table_id if isinstance(table_id, str) and len(table_id) <= 64 else None
        code = normalize_invite_code(data.get("invite"))  # type: ignore[arg-type]  # checked inside
        return await self.lobby.table_of_invite(code) if code is not None else None

    async def _holder(self, table_id: str) -> tuple[str | None, str | None]:
        """Who holds ``table_id`` (its id and address) once this server took it over if its
        server is dead: no need to wait for the scan. Asked again when another server was quicker."""
        for _ in range(2):
            owner, url, unfinished = await self.lobby.owner(table_id)
            if owner is None or owner == self.server_id or url is not None or not unfinished:
                return owner, url
            if await self.take_over(table_id, owner):
                return self.server_id, None
        return owner, url
