"""The Trick Table server: tables over WebSockets, the server the only holder of every deck.

``TableServer`` answers the messages of ``docs/PROTOCOL.md`` on an asyncio loop;
``run_server`` serves it on an address (``python main.py serve``), and
``ServerThread`` runs the same server inside the program for **Host a table**.
"""

from __future__ import annotations

# One connection, one ``Connection``: the seats it holds per table (with the last
# event number sent for each), the tables it watches and hosts, its rate allowance
# and its count of malformed frames. Each message is carried out as it arrives and the
# frames it causes are handed to the connections' transports at once
# (``DirectServerConnection``: no task, no waiting), so a slow reader never holds up a
# table or another player; one whose frames pile up past a limit is let go.
#
# After every change of a table, in this order: the change is written to the
# table log, then each viewer at the table is sent its step (its events since the
# last it got, its view), then a computer to act is set thinking on the thread
# pool; its answer is applied only if the table is still where it was asked.

import asyncio
import contextlib
import ipaddress
import json
import logging
import secrets
import ssl
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from socket import gethostname
from typing import TYPE_CHECKING, Any

from websockets.asyncio.server import Server, ServerConnection, serve

from game.net import protocol
from game.net.direct_connection import DirectServerConnection, Message
from game.net.protocol import normalize_invite_code
from game.net.table_host import HostedTable, SentStep, TableOptions, TableRefusal
from game.net.table_log import TableLogs
from game.net.wire import WireError, compact_json, decode_action
from game.rules import PUBLIC_SEAT, game_names
from game.rules.errors import RuleConfigError
from game.rules.house_rules import make_rules

if TYPE_CHECKING:
    from game.net.lobby_member import LobbyMember

log = logging.getLogger("tricktable.server")

# Messages with no answer of their own are answered ``ok`` once carried out (after the
# steps they caused), so a client knows its action is done, or ``refused``.
_ANSWERED_OK = frozenset({"spectate", "set_seat", "move_seat", "start", "act", "claim", "ready", "leave"})
# Messages for a table that another server of a Redis lobby may hold (answered ``moved``).
_FOUND_ELSEWHERE = {"resume": "no_table", "take_seat": "bad_invite", "spectate": "bad_invite"}
WRITE_BUFFER_LIMIT = 4 * 1024 * 1024  # bytes waiting for one slow reader before it is let go
# A finished table stays this long, so that a player who was away at the end still gets
# the game for their history when they come back.
FINISHED_KEPT_SECONDS = 600.0  # frames waiting for one slow reader before it is let go


@dataclass(eq=False)
class Connection:
    """One client's link and what it holds."""

    socket: DirectServerConnection
    private: bool  # from the server's own network (or this machine)
    held: dict[str, dict[int, int]] = field(default_factory=dict)  # table -> seat -> last event number sent
    watching: dict[str, int] = field(default_factory=dict)  # spectated table -> last event number sent
    # Hot seat: a connection holding two or more seats of a table also gets the public viewer's steps
    # (its screen shows the public view between turns): table -> last event number sent to it.
    public: dict[str, int] = field(default_factory=dict)
    greeted: bool = False
    allowance: float = protocol.RATE_BURST
    allowance_at: float = 0.0
    over_allowance: int = 0
    bad_frames: int = 0
    dropped: bool = False  # let go for not reading its frames
    # (table, viewer) -> the last step sent for that viewer, which the next one builds on.
    sent_steps: dict[tuple[str, int], SentStep] = field(default_factory=dict)
    answering: int | None = None  # the message being carried out, until a step answers it

    def send(self, frame: dict[str, Any]) -> None:
        self.send_text(compact_json(frame))

    def send_text(self, text: str) -> None:
        """A frame already written as JSON (a step: ``HostedTable.step_text``), handed to the
        connection's transport at once: no task and no waiting per frame. A reader that lets
        its frames pile up past ``WRITE_BUFFER_LIMIT`` is let go."""
        if self.dropped:
            return
        transport = self.socket.transport
        if transport is not None and transport.get_write_buffer_size() > WRITE_BUFFER_LIMIT:
            self.dropped = True
            self.close_soon("not reading")
            return
        self.socket.send_text_now(text.encode())

    def close_soon(self, reason: str) -> None:
        """Close the connection (policy violation, 1008) with ``reason``, after the frames
        already written; what the client still sends is no longer read."""
        self.socket.stop_delivering()
        asyncio.get_running_loop().create_task(self.socket.close(1008, reason))

    def tables(self) -> set[str]:
        return set(self.held) | set(self.watching)

    def forget_steps(self, table_id: str) -> None:
        """This connection is done with ``table_id``: the steps it was sent there are let go."""
        for key in [key for key in self.sent_steps if key[0] == table_id]:
            del self.sent_steps[key]


class TableServer:
    """Every table of one server and the messages that change them."""

    def __init__(
        self,
        data_dir: Path | None = None,
        name: str = "Trick Table",
        *,
        max_tables: int = protocol.MAX_TABLES,
        clock: Callable[[], float] = time.monotonic,
        ai_threads: int = 2,
        tick_seconds: float = 1.0,
        rate_per_second: float = protocol.RATE_PER_SECOND,
        rate_burst: int = protocol.RATE_BURST,
        resume_tables: bool = True,
        redis_url: str | None = None,
        public_url: str | None = None,
        lease_seconds: float = 3.0,
        heartbeat_seconds: float = 1.0,
        behind_proxy: bool = False,
    ) -> None:
        """``rate_per_second`` and ``rate_burst``: each connection's allowance (the protocol's
        unless a test or benchmark plays faster than people). ``resume_tables``: hold again the
        unfinished tables of the logs (``serve``); the program's own server starts afresh, as its
        players' tokens went with the program that ended. ``redis_url``: join the lobby of the
        servers sharing that Redis (``LobbyMember``): the tables' logs are kept there, not in
        files, and ``public_url`` is where players reach this server (default: where it
        listens); ``lease_seconds`` and ``heartbeat_seconds`` are its lease and renewal.
        ``behind_proxy``: players reach it through a reverse proxy on this machine (which ends
        TLS), so a player's address is the one the proxy forwards."""
        self.rate_per_second, self.rate_burst = rate_per_second, rate_burst
        self.behind_proxy = behind_proxy
        self.keeps_tables = resume_tables
        self.tick_seconds = tick_seconds  # how often away players are counted and stand-ins start
        self.name = name[:60]
        self.max_tables = max_tables
        self.clock = clock
        self.lobby: LobbyMember | None = None
        if redis_url is not None:
            from game.net.lobby_member import LobbyMember  # loads the redis package: only with --redis

            self.lobby = LobbyMember(self, redis_url, public_url, lease_seconds, heartbeat_seconds)
            data_dir = None  # the lobby's journal in Redis is the one record (no file logs)
        self.logs: Any = self.lobby.journal if self.lobby is not None else None
        if self.logs is None:
            self.logs = TableLogs(data_dir / "tables" if data_dir is not None else None)
        self.tables: dict[str, HostedTable] = {}
        self.by_invite: dict[str, str] = {}
        self.at_table: dict[str, set[Connection]] = {}
        self.thinking: set[str] = set()
        self.executor = ThreadPoolExecutor(max_workers=ai_threads, thread_name_prefix="tricktable-ai")
        for table in self.logs.load_unfinished() if resume_tables else ():
            self._add(table)
            now = clock()
            for seat, plan in enumerate(table.seats):
                if plan.human and table.started:
                    table.presence_of(seat).away_since = now  # until its player comes back
        self._handlers: dict[str, Callable[[Connection, dict[str, Any]], None]] = {
            "list_tables": self._list_tables,
            "create_table": self._create_table,
            "take_seat": self._take_seat,
            "spectate": self._spectate,
            "resume": self._resume,
            "set_seat": self._set_seat,
            "move_seat": self._move_seat,
            "start": self._start,
            "act": self._act,
            "claim": self._claim,
            "ready": self._ready,
            "leave": self._leave,
        }

    def announce_closing(self) -> None:
        """A server that will not hold its tables again (the program's own, when its host
        leaves) tells every player that their table is closed, so nobody waits for it to
        come back; a ``serve`` stopping says nothing: its tables resume when it starts again."""
        if self.keeps_tables:
            return
        for table_id, connections in self.at_table.items():
            for conn in connections:
                conn.send({"type": "table_closed", "table": table_id})

    def close(self) -> None:
        """The server stopped: drop what computers think and let the logs' folder go."""
        self.executor.shutdown(wait=False, cancel_futures=True)
        self.logs.release()

    def _add(self, table: HostedTable) -> None:
        self.tables[table.table_id] = table
        self.by_invite[table.invite] = table.table_id
        self.at_table.setdefault(table.table_id, set())

    def adopt(self, table: HostedTable) -> None:
        """Hold ``table``, taken over from a dead server of the lobby: its players count as away
        from now until they come back, and a computer to act starts thinking."""
        self._add(table)
        now = self.clock()
        for seat, plan in enumerate(table.seats):
            if plan.human and table.started:
                table.presence_of(seat).away_since = now
        if not table.over:
            self._advance(table)

    def let_go(self, table_id: str) -> set[Connection]:
        """Another server took ``table_id``: it leaves this one; the connections that were at it."""
        table = self.tables.get(table_id)
        if table is None:
            return set()
        connections = set(self.at_table.get(table_id, ()))
        self._forget(table)
        return connections

    def resume_computers(self) -> None:
        """After a restart: set thinking every computer that was to act."""
        for table in self.tables.values():
            self._advance(table)

    # ------------------------------------------------------------------ connections
    def _from_private_network(self, socket: DirectServerConnection) -> bool:
        """Whether the player is on the server's own network (or this machine): such a player is
        offered the invite codes of the tables listed. Behind a reverse proxy on this machine
        (``behind_proxy``) every connection comes from loopback, so the player's address is the
        last one the proxy put in ``X-Forwarded-For``; none there counts as the internet's."""
        private = _is_private(socket.remote_address)
        if not (self.behind_proxy and private) or socket.request is None:
            return private
        forwarded = socket.request.headers.get_all("X-Forwarded-For")
        last = forwarded[-1].split(",")[-1].strip() if forwarded else ""
        return bool(last) and _is_private((last,))

    async def handle(self, socket: ServerConnection) -> None:
        """One connection, from its hello to its close: each message is carried out as it
        arrives (``DirectServerConnection``), with no task or queue per message."""
        assert isinstance(socket, DirectServerConnection)  # start_server makes every connection one
        make = self.lobby.connection if self.lobby is not None else Connection
        conn = make(socket, self._from_private_network(socket), allowance=self.rate_burst, allowance_at=self.clock())

        def hello_too_late() -> None:
            if not conn.greeted:
                conn.close_soon("hello expected")

        timer = asyncio.get_running_loop().call_later(protocol.HELLO_SECONDS, hello_too_late)
        socket.deliver_to(lambda message: self._arrived(conn, message))
        try:
            await socket.wait_closed()
        finally:
            timer.cancel()
            socket.stop_delivering()
            self._gone(conn)

    def _arrived(self, conn: Connection, message: Message) -> None:
        """One whole message of ``conn``: carried out, and the connection closed when it has
        had its chances (no hello first, too many malformed frames, a flood)."""
        self._receive(conn, message)
        if not conn.greeted:
            conn.close_soon("hello expected")
        elif conn.bad_frames > protocol.BAD_FRAMES_CLOSE_AFTER:
            conn.close_soon("too many malformed frames")
        elif conn.over_allowance > protocol.FLOOD_CLOSE_AFTER:
            conn.close_soon("too many messages")

    def _receive(self, conn: Connection, message: str | bytes) -> None:
        now = self.clock()
        conn.allowance = min(float(self.rate_burst), conn.allowance + (now - conn.allowance_at) * self.rate_per_second)
        conn.allowance_at = now
        if conn.allowance < 1.0:
            conn.over_allowance += 1
            conn.send(TableRefusal("rate_limited", "too many messages: slow down").frame(re=_message_id(message)))
            return
        conn.allowance -= 1.0
        if not isinstance(message, str):
            conn.bad_frames += 1
            conn.send(TableRefusal("not_text", "frames are JSON text").frame())
            return
        try:
            data = json.loads(message)
        except ValueError:
            conn.bad_frames += 1
            conn.send(TableRefusal("bad_json", "not JSON").frame())
            return
        re = data.get("id") if isinstance(data, dict) else None
        re = re if isinstance(re, int) and not isinstance(re, bool) else None
        kind = data.get("type") if isinstance(data, dict) else None
        if not isinstance(kind, str):
            conn.bad_frames += 1
            conn.send(TableRefusal("bad_message", "a message is an object with a type", field="type").frame(re=re))
            return
        if not conn.greeted:
            self._hello(conn, data, re)
            return
        self.dispatch(conn, kind, data, re)

    def dispatch(
        self, conn: Connection, kind: str, data: dict[str, Any], re: int | None, elsewhere: bool = True
    ) -> None:
        """Carry out one message of a greeted connection and answer it. ``elsewhere``: a table
        this server does not hold is looked for in the lobby (with ``--redis``)."""
        handler = self._handlers.get(kind)
        if handler is None:
            conn.bad_frames += 1
            conn.send(TableRefusal("unknown_type", "unknown message type", type=kind[:40]).frame(re=re))
            return
        conn.answering = re if kind in _ANSWERED_OK else None
        try:
            handler(conn, data)
            if kind in _ANSWERED_OK and (re is None or conn.answering is not None):
                conn.send({"type": "ok", "re": re})  # no step of this connection answered it
        except TableRefusal as refusal:
            if elsewhere and self.lobby is not None and _FOUND_ELSEWHERE.get(kind) == refusal.code:
                self.lobby.look_elsewhere(conn, kind, data, re)
                return
            if refusal.code in ("bad_message", "bad_token"):
                conn.bad_frames += 1
            kind_sent = "refused" if kind in ("act", "claim", "ready") and refusal.code != "bad_message" else "error"
            conn.send(refusal.frame(kind_sent, re))
        except Exception:  # a server fault answers one message, never ends the server
            log.exception("message %s failed", kind)
            conn.send(TableRefusal("server_busy", "the server could not do that").frame(re=re))
        finally:
            conn.answering = None

    def _hello(self, conn: Connection, data: dict[str, Any], re: int | None) -> None:
        if data.get("type") != "hello":
            conn.send(TableRefusal("hello_first", "say hello first").frame(re=re))
            return
        if data.get("protocol") != protocol.PROTOCOL_VERSION:
            conn.send(
                TableRefusal("version", "another protocol version", server=protocol.PROTOCOL_VERSION).frame(re=re)
            )
            return
        conn.greeted = True
        conn.send(
            {
                "type": "welcome",
                "re": re,
                "protocol": protocol.PROTOCOL_VERSION,
                "server": self.name,
                "listed": conn.private,
                "servers": self.lobby.live_urls if self.lobby is not None else [],
            }
        )

    def _gone(self, conn: Connection) -> None:
        """A connection closed: its seats wait for their players."""
        now = self.clock()
        for table_id in conn.tables():
            table = self.tables.get(table_id)
            self.at_table.get(table_id, set()).discard(conn)
            if table is None:
                continue
            seats = list(conn.held.get(table_id, {}))
            if table.started:
                for seat in seats:
                    if not self._present(table, seat):
                        table.presence_of(seat).away_since = now
                self._presence(table)
            else:
                self._lobby(table)

    # ------------------------------------------------------------------ helpers
    def _table(self, data: dict[str, Any]) -> HostedTable:
        table_id = data.get("table")
        table = self.tables.get(table_id) if isinstance(table_id, str) else None
        if table is None:
            raise TableRefusal("no_table", "no such table")
        return table

    def _by_invite(self, data: dict[str, Any]) -> HostedTable:
        code = normalize_invite_code(data.get("invite"))  # type: ignore[arg-type]  # checked inside
        table_id = self.by_invite.get(code) if code is not None else None
        if table_id is None or table_id not in self.tables:
            raise TableRefusal("bad_invite", "no table has that invite code")
        return self.tables[table_id]

    def _hosted(self, conn: Connection, data: dict[str, Any]) -> HostedTable:
        table = self._table(data)
        if not table.is_host(data.get("host_token")):
            raise TableRefusal("not_host", "only the host may do that")
        return table

    def _held_seat(self, conn: Connection, table: HostedTable, data: dict[str, Any]) -> int:
        seat = data.get("seat")
        if not isinstance(seat, int) or seat not in conn.held.get(table.table_id, {}):
            raise TableRefusal("not_seated", "you do not hold that seat", seat=str(seat)[:8])
        return seat

    def _present(self, table: HostedTable, seat: int) -> bool:
        return any(seat in conn.held.get(table.table_id, {}) for conn in self.at_table.get(table.table_id, ()))

    def _connected(self, table: HostedTable) -> Callable[[int], bool]:
        return lambda seat: self._present(table, seat)

    def _lobby(self, table: HostedTable) -> None:
        frame = table.lobby_frame(self._connected(table))
        for conn in self.at_table.get(table.table_id, ()):
            conn.send(frame)

    def _presence(self, table: HostedTable) -> None:
        now = self.clock()
        seats = []
        for seat, plan in enumerate(table.seats):
            if not plan.human:
                continue
            presence = table.presence_of(seat)
            here = self._present(table, seat)
            away = None if here or presence.away_since is None else round(now - presence.away_since, 1)
            seats.append({"seat": seat, "connected": here, "away": away, "stand_in": presence.stand_in})
        frame = {"type": "presence", "table": table.table_id, "seats": seats}
        for conn in self.at_table.get(table.table_id, ()):
            conn.send(frame)

    def _hold(self, conn: Connection, table: HostedTable, seat: int, after: int = 0) -> None:
        """``conn`` holds ``seat`` now (any other connection holding it lets it go)."""
        for other in self.at_table.get(table.table_id, ()):
            if other is not conn and seat in other.held.get(table.table_id, {}):
                del other.held[table.table_id][seat]
                other.send({"type": "seat_lost", "table": table.table_id, "seat": seat})
        conn.held.setdefault(table.table_id, {})[seat] = after
        conn.sent_steps.pop((table.table_id, seat), None)  # its next step is whole
        self.at_table[table.table_id].add(conn)
        presence = table.presence_of(seat)
        presence.away_since, presence.stand_in = None, False

    def _steps(self, table: HostedTable) -> None:
        """Every viewer at ``table`` gets what happened since its last step."""
        if not table.started:
            return
        last = table.last_number
        due: list[tuple[Connection, int, dict[Any, int], Any]] = []  # (conn, viewer, its marks, key there)
        for conn in self.at_table.get(table.table_id, ()):
            seats = conn.held.get(table.table_id, {})
            due.extend((conn, seat, seats, seat) for seat, sent in seats.items() if sent < last)
            # The public viewer: a spectator's, and a hot-seat screen's between turns.
            for marks, wanted in ((conn.public, len(seats) >= 2), (conn.watching, table.table_id in conn.watching)):
                if wanted and marks.get(table.table_id, 0) < last:
                    due.append((conn, PUBLIC_SEAT, marks, table.table_id))
        if not due:
            return
        table.prepare_views({viewer for _, viewer, _, _ in due})  # the fields all viewers share read once
        for conn, viewer, marks, key in due:
            self._step(conn, table, viewer, marks.get(key, 0))
            marks[key] = last

    def _step(self, conn: Connection, table: HostedTable, viewer: int, after: int) -> None:
        """``viewer``'s step from event number ``after``, built on the last one ``conn`` was sent
        for it (when that is where the viewer is); the first step a message of ``conn`` caused
        answers it (``re``), in place of an ``ok``."""
        key = (table.table_id, viewer)
        text, conn.sent_steps[key] = table.step_text(viewer, after, conn.sent_steps.get(key), conn.answering)
        conn.answering = None
        conn.send_text(text)

    def _changed(self, table: HostedTable) -> None:
        """``table``'s game moved (already logged): tell everyone, deal on, let a computer think."""
        while table.deal_if_ready(self._connected(table)):
            self.logs.append(table, {"next": True})
        self._steps(table)
        if table.over:
            if table.finished_at is None:
                table.finished_at = self.clock()
                self.logs.append(table, {"over": True})
                for conn in self.at_table.get(table.table_id, ()):
                    self._tell_over(conn, table)
                table.game_over()  # kept a while for players who come back: without what it wrote
            return
        self._advance(table)

    def _tell_over(self, conn: Connection, table: HostedTable) -> None:
        """A seat holder gets the finished game's record (to add to its own history)."""
        if conn.held.get(table.table_id):
            conn.send({"type": "game_over", "table": table.table_id, "history": table.history_record()})

    def _forget(self, table: HostedTable) -> None:
        """A finished table leaves the server (its log stays on disk)."""
        self.tables.pop(table.table_id, None)
        self.by_invite.pop(table.invite, None)
        for conn in self.at_table.pop(table.table_id, set()):
            conn.held.pop(table.table_id, None)
            conn.watching.pop(table.table_id, None)
            conn.public.pop(table.table_id, None)
            conn.forget_steps(table.table_id)

    def _advance(self, table: HostedTable) -> None:
        """Set the computer to act (if any) thinking, off the loop."""
        seat = table.computer_to_act()
        if seat < 0 or table.table_id in self.thinking:
            return
        request = table.ai_request(seat)
        self.thinking.add(table.table_id)
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(self.executor, request.decide)

        def done(result: asyncio.Future[Any]) -> None:
            self.thinking.discard(table.table_id)
            if self.tables.get(table.table_id) is not table or table.match is None:
                return
            try:
                action = result.result()
            except Exception:
                log.exception("a computer at table %s could not decide", table.table_id)
                return
            match = table.match
            if match.position_key() == request.key and table.computer_to_act() == seat:
                match.apply(action, seat)
                self.logs.append(table, table.action_line(seat, action))
                table.ready.clear()
                self._changed(table)
            else:
                self._advance(table)  # the table moved on (its player came back): think again

        future.add_done_callback(done)

    def tick(self) -> None:
        """Once a second: stand in for players away longer than their table allows, tell the
        tables whose players are away how long they have been, and let finished tables go."""
        now = self.clock()
        for table in list(self.tables.values()):
            if table.finished_at is not None:
                if now - table.finished_at > FINISHED_KEPT_SECONDS:
                    self._forget(table)
                continue
            if not table.started:
                continue
            away = False
            for seat, presence in table.presence.items():
                if presence.away_since is None or self._present(table, seat):
                    continue
                away = True
                limit = table.options.stand_in_after
                if limit is not None and not presence.stand_in and now - presence.away_since >= limit:
                    presence.stand_in = True
                    self._presence(table)
                    self._changed(table)
            if away:
                self._presence(table)

    # ------------------------------------------------------------------ the messages
    def _list_tables(self, conn: Connection, data: dict[str, Any]) -> None:
        re = data.get("id")
        if self.lobby is not None:
            self.lobby.list_tables(conn, re if isinstance(re, int) else None)  # every server's tables
        else:
            self.list_own_tables(conn, re)

    def list_own_tables(self, conn: Connection, re: object) -> None:
        """The ``tables`` answer with this server's own tables."""
        listing = []
        for table in self.tables.values():
            if table.over:
                continue
            listing.append(
                {
                    "table": table.table_id,
                    "name": table.options.name,
                    "game": table.rules.game,
                    "players": len(table.seats),
                    "free_seats": len(table.free_seats()),
                    "started": table.started,
                    "spectators": table.options.spectators,
                    "invite": table.invite if conn.private and table.options.listed else None,
                    "url": None,  # this server holds it
                }
            )
        conn.send({"type": "tables", "re": re, "tables": listing[:500]})

    def _create_table(self, conn: Connection, data: dict[str, Any]) -> None:
        if sum(1 for table in self.tables.values() if table.finished_at is None) >= self.max_tables:
            raise TableRefusal("too_many_tables", "this server holds as many tables as it can")
        if self.lobby is not None and not self.lobby.available:
            raise TableRefusal("store_unavailable", "new tables wait until the servers' shared store is back")
        rules_data = data.get("rules")
        if not isinstance(rules_data, dict) or rules_data.get("game") not in game_names():
            raise TableRefusal("bad_rules", "rules name a game this server plays", field="rules")
        seats = data.get("seats")
        values = rules_data.get("values", {})
        try:
            rules = make_rules(
                rules_data["game"],
                values if isinstance(values, dict) else None,
                len(seats) if isinstance(seats, list) else None,
            )
        except (RuleConfigError, ValueError, TypeError) as error:
            raise TableRefusal("bad_rules", str(error)[:200]) from None
        stand_in = data.get("stand_in_after")
        if stand_in is not None and (
            not isinstance(stand_in, (int, float)) or isinstance(stand_in, bool) or not 0 <= stand_in <= 3600
        ):
            raise TableRefusal("bad_message", "stand_in_after is seconds or null", field="stand_in_after")
        name = data.get("name")
        options = TableOptions(
            name=(name if isinstance(name, str) else "")[: protocol.MAX_NAME] or "Trick Table",
            spectators=data.get("spectators") is True,
            stand_in_after=stand_in,
            listed=data.get("listed") is not False,
        )
        table, host_token, tokens = HostedTable.create(rules, seats if isinstance(seats, list) else [], options)
        if self.lobby is not None:
            table.table_id += secrets.token_hex(4)  # 64 bits: no two tables of a whole lobby meet
        self.logs.create(table)
        self._add(table)
        self.at_table[table.table_id].add(conn)
        conn.held.setdefault(table.table_id, {})
        for seat in tokens:
            self._hold(conn, table, seat)
        conn.send(
            {
                "type": "table_created",
                "re": data.get("id"),
                "table": table.table_id,
                "invite": table.invite,
                "host_token": host_token,
                "seats": [{"seat": seat, "token": token} for seat, token in tokens.items()],
            }
        )
        self._lobby(table)

    def _take_seat(self, conn: Connection, data: dict[str, Any]) -> None:
        table = self._by_invite(data)
        seat, token = table.take_seat(data.get("name"), data.get("seat"))
        self.logs.seats_changed(table)
        self._hold(conn, table, seat)
        conn.send({"type": "seated", "re": data.get("id"), "table": table.table_id, "seat": seat, "token": token})
        self._lobby(table)

    def _spectate(self, conn: Connection, data: dict[str, Any]) -> None:
        table = self._by_invite(data)
        if not table.options.spectators:
            raise TableRefusal("no_spectators", "this table has no spectators")
        watchers = sum(1 for other in self.at_table[table.table_id] if table.table_id in other.watching)
        if watchers >= protocol.MAX_SPECTATORS and table.table_id not in conn.watching:
            raise TableRefusal("no_spectators", "this table has as many spectators as it takes")
        conn.watching[table.table_id] = 0
        self.at_table[table.table_id].add(conn)
        conn.send(table.lobby_frame(self._connected(table)))
        self._steps(table)

    def _resume(self, conn: Connection, data: dict[str, Any]) -> None:
        table = self._table(data)
        seat = table.seat_of_token(data.get("seat"), data.get("token"))
        after = data.get("after")
        if not isinstance(after, int) or isinstance(after, bool) or not 0 <= after <= table.last_number:
            after = 0
        self._hold(conn, table, seat, after)
        conn.send({"type": "seated", "re": data.get("id"), "table": table.table_id, "seat": seat, "token": None})
        self._lobby(table)
        if table.over:
            self._steps(table)
            self._tell_over(conn, table)  # back after the end: the game for the player's history
        elif table.started:
            self._presence(table)
            self._steps(table)
            self._changed(table)  # a stand-in stops; a hand waiting for this player deals on

    def _set_seat(self, conn: Connection, data: dict[str, Any]) -> None:
        table = self._hosted(conn, data)
        seat = data.get("seat")
        token = table.set_seat(seat, data.get("kind"), data.get("level"), data.get("name"))
        assert isinstance(seat, int)
        for other in self.at_table[table.table_id]:
            if seat in other.held.get(table.table_id, {}):
                del other.held[table.table_id][seat]
                other.send({"type": "seat_lost", "table": table.table_id, "seat": seat})
        self.logs.seats_changed(table)
        if token is not None:
            self._hold(conn, table, seat)
            conn.send({"type": "seated", "re": data.get("id"), "table": table.table_id, "seat": seat, "token": token})
        self._lobby(table)

    def _move_seat(self, conn: Connection, data: dict[str, Any]) -> None:
        table = self._hosted(conn, data)
        seat, to = data.get("seat"), data.get("to")
        table.move_seat(seat, to)
        assert isinstance(seat, int) and isinstance(to, int)
        for other in self.at_table[table.table_id]:
            held = other.held.get(table.table_id, {})
            moved = {to if s == seat else seat if s == to else s: n for s, n in held.items()}
            if moved != held:
                other.held[table.table_id] = moved
                for old, new in ((seat, to), (to, seat)):
                    if old in held:
                        other.send({"type": "seat_moved", "table": table.table_id, "seat": old, "to": new})
        self.logs.seats_changed(table)
        self._lobby(table)

    def _start(self, conn: Connection, data: dict[str, Any]) -> None:
        table = self._hosted(conn, data)
        table.start()
        self.logs.append(table, {"start": True})
        self._lobby(table)
        self._changed(table)

    def _act(self, conn: Connection, data: dict[str, Any]) -> None:
        table = self._table(data)
        seat = self._held_seat(conn, table, data)
        try:
            action = decode_action(data.get("action"))
        except WireError as error:
            raise TableRefusal("bad_message", str(error)[:200], field="action") from None
        if action is None:
            raise TableRefusal("bad_message", "an action is needed", field="action")
        table.act(seat, action, data.get("at"))
        self.logs.append(table, table.action_line(seat, action))
        self._changed(table)

    def _claim(self, conn: Connection, data: dict[str, Any]) -> None:
        table = self._table(data)
        seat = self._held_seat(conn, table, data)
        table.claim(seat, data.get("at"))
        self.logs.append(table, {"claim": seat})
        self._changed(table)

    def _ready(self, conn: Connection, data: dict[str, Any]) -> None:
        table = self._table(data)
        seat = self._held_seat(conn, table, data)
        if table.mark_ready(seat, data.get("at"), self._connected(table)):
            self.logs.append(table, {"next": True})
        self._changed(table)

    def _leave(self, conn: Connection, data: dict[str, Any]) -> None:
        table = self._table(data)
        seats = list(conn.held.pop(table.table_id, {}))
        conn.watching.pop(table.table_id, None)
        conn.public.pop(table.table_id, None)
        conn.forget_steps(table.table_id)
        self.at_table[table.table_id].discard(conn)
        if not table.started:
            table.release_seats(seats)
            self.logs.seats_changed(table)
            self._lobby(table)
        else:
            now = self.clock()
            for seat in seats:
                if not self._present(table, seat):
                    table.presence_of(seat).away_since = now
            self._presence(table)


def _message_id(message: str | bytes) -> int | None:
    """The ``id`` of a message turned away unread (for its ``re``), when it is easy to see."""
    if isinstance(message, str) and len(message) < 1024:
        with contextlib.suppress(ValueError):
            data = json.loads(message)
            number = data.get("id") if isinstance(data, dict) else None
            return number if isinstance(number, int) and not isinstance(number, bool) else None
    return None


def _is_private(address: Any) -> bool:
    try:
        host = ipaddress.ip_address(address[0])
    except (ValueError, TypeError, IndexError):
        return False
    if isinstance(host, ipaddress.IPv6Address) and host.ipv4_mapped is not None:
        host = host.ipv4_mapped
    return host.is_private or host.is_loopback or host.is_link_local


def tls_context(cert: Path, key: Path) -> ssl.SSLContext:
    """The TLS settings for ``serve --cert --key``; ``OSError``/``ssl.SSLError`` if unusable."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(cert, key)
    return context


async def start_server(
    table_server: TableServer, host: str | None, port: int, tls: ssl.SSLContext | None = None
) -> Server:
    """``table_server`` listening on ``host``:``port`` (port 0: a free one), its tick running."""
    server = await serve(
        table_server.handle,
        host,
        port,
        ssl=tls,
        max_size=protocol.CLIENT_FRAME_LIMIT,
        create_connection=DirectServerConnection,  # each message handled as it arrives
        compression=None,  # frames are small; deflate would cost each connection memory
        ping_interval=15,
        ping_timeout=15,
        close_timeout=2,  # a client that will not read its frames is let go soon
        server_header=None,
    )
    if table_server.lobby is not None:
        scheme = "wss" if tls is not None else "ws"
        address = host if host not in (None, "", "0.0.0.0", "::") else gethostname()
        try:
            await table_server.lobby.start(f"{scheme}://{address}:{bound_port(server)}/")
        except OSError:
            server.close()  # Redis cannot be reached: the server does not start
            raise
    table_server.resume_computers()

    async def ticking() -> None:
        while True:
            await asyncio.sleep(table_server.tick_seconds)
            table_server.tick()

    tick_task = asyncio.get_running_loop().create_task(ticking())
    server.tricktable_tick = tick_task  # type: ignore[attr-defined]  # kept alive with the server
    return server


def bound_port(server: Server) -> int:
    return int(next(iter(server.sockets)).getsockname()[1])


class ServerThread:
    """The server inside the program (Host a table): its own loop on a daemon thread."""

    def __init__(self, table_server: TableServer, host: str | None = None, port: int = 0) -> None:
        self.table_server = table_server
        self.host, self.port = host, port
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="tricktable-server", daemon=True)

    def start(self, timeout: float = 10.0) -> int:
        """Start serving; the port it listens on. ``OSError`` when it cannot listen."""
        self._thread.start()
        if not self._ready.wait(timeout):
            raise OSError("the table server did not start")
        if self._error is not None:
            raise self._error
        return self.port

    def _run(self) -> None:
        asyncio.run(self._main())

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        try:
            server = await start_server(self.table_server, self.host, self.port)
        except OSError as error:
            self._error = error
            self._ready.set()
            return
        self.port = bound_port(server)
        self._ready.set()
        await self._stop.wait()
        self.table_server.announce_closing()
        await asyncio.sleep(0.05)  # the writers send it before the connections close
        server.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(server.wait_closed(), 2.0)

    def stop(self) -> None:
        """Stop serving (returns at once; the thread ends on its own)."""
        if self._loop is not None and self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        self.table_server.close()
