"""A test-only table server: a real ``Match`` behind a real websocket server on 127.0.0.1.

It answers the few messages a seated client sends (``hello``, ``resume``, ``act``,
``claim``, ``ready``) with frames built exactly as ``docs/PROTOCOL.md`` says, by the
wire codec, so ``NetClient`` and ``RemoteSession`` are tested over a real network
before (and besides) the real server. Switches make it refuse, swallow or drop.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable
from typing import Any

from websockets.asyncio.server import ServerConnection, serve

from game.net.protocol import PROTOCOL_VERSION
from game.net.table_host import HostedTable, SeatPlan, TableOptions
from game.net.wire import decode_action
from game.rules import IllegalActionError, Phase, make_rules
from game.session.match import Match, Seat

TABLE = "T1"
TOKEN = "seat-zero-token"


def token_of(seat: int) -> str:
    return TOKEN if seat == 0 else f"seat-{seat}-token"


NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"]


class _Connection:
    def __init__(self, socket: ServerConnection) -> None:
        self.socket = socket
        self.sent: dict[int, int] = {}  # viewer -> the last event number sent to it here


class FixtureServer:
    """One table: the ``people`` seats are persons (this test's client), the others computers at random."""

    def __init__(
        self,
        game: str = "bidwhist",
        seed: int = 3,
        players: int = 4,
        people: tuple[int, ...] = (0,),
        values: dict[str, Any] | None = None,
    ) -> None:
        rules = make_rules(game, values or {}, players=players)
        seats = [Seat(NAMES[i], "human" if i in people else "ai:random") for i in range(players)]
        self.match = Match(rules, seats, seed)
        self.received: list[dict[str, Any]] = []
        self.refuse_next: str | None = None  # answer the next act with this code instead
        self.swallow_next = False  # take the next act without a word, then drop every connection
        self.hold_computers = False  # the computers never move (as people elsewhere who are away)
        self.step_gap = 0.0  # seconds between the steps of one change for one connection's viewers
        self.hold_ready = False  # "ready" waits for players elsewhere: the next hand is not dealt
        self._connections: set[_Connection] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ready = threading.Event()
        self._stop: asyncio.Event | None = None
        self.port = 0
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        if not self._ready.wait(5):
            raise RuntimeError("the fixture server did not start")

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"

    def lobby(self) -> dict[str, Any]:
        match = self.match
        return {
            "type": "lobby",
            "table": TABLE,
            "name": "Test table",
            "game": match.game,
            "rules": {"game": match.game, "values": match.rules.to_dict()},
            "seats": [
                {
                    "seat": index,
                    "kind": "computer" if seat.ai_level else "open",
                    "level": seat.ai_level,
                    "name": seat.name,
                    "taken": True,
                    "connected": True,
                }
                for index, seat in enumerate(match.seats)
            ],
            "started": True,
            "spectators": False,
            "stand_in_after": None,
        }

    # ------------------------------------------------------------------ from the test's thread
    def call(self, work: Callable[[], Any]) -> Any:
        """Run ``work`` (a coroutine function) on the server's loop and wait for it."""
        assert self._loop is not None
        return asyncio.run_coroutine_threadsafe(work(), self._loop).result(5)

    def drop_connections(self) -> None:
        async def drop() -> None:
            for connection in list(self._connections):
                await connection.socket.close(1001, "going away")

        self.call(drop)

    def send(self, frame: str | bytes | dict[str, Any]) -> None:
        """Send ``frame`` (a message, or raw text or bytes) to every connection."""

        async def send() -> None:
            data = json.dumps(frame) if isinstance(frame, dict) else frame
            for connection in list(self._connections):
                await connection.socket.send(data)

        self.call(send)

    def stop(self) -> None:
        if self._loop is not None and self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(5)

    # ------------------------------------------------------------------ the server's thread
    def _run(self) -> None:
        asyncio.run(self._serve())

    async def _serve(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        async with serve(self._handle, "127.0.0.1", 0) as server:
            self.port = next(iter(server.sockets)).getsockname()[1]
            self._ready.set()
            await self._stop.wait()

    async def _handle(self, socket: ServerConnection) -> None:
        connection = _Connection(socket)
        self._connections.add(connection)
        try:
            async for frame in socket:
                message = json.loads(frame)
                self.received.append(message)
                await self._answer(connection, message)
        except Exception:  # a dropped connection ends its handler
            pass
        finally:
            self._connections.discard(connection)

    async def _answer(self, connection: _Connection, message: dict[str, Any]) -> None:
        kind, number = message["type"], message.get("id")
        match = self.match
        if kind == "hello":
            await connection.socket.send(
                json.dumps({"type": "welcome", "protocol": PROTOCOL_VERSION, "server": "fixture", "listed": True})
            )
        elif kind == "list_tables":
            await connection.socket.send(json.dumps({"type": "tables", "re": number, "tables": []}))
        elif kind == "resume":
            seat = message["seat"]
            if message.get("token") != token_of(seat):
                await self._error(connection, number, "bad_token")
                return
            connection.sent[seat] = message["after"]
            await connection.socket.send(json.dumps({"type": "seated", "table": TABLE, "seat": seat, "token": None}))
            if message["after"] < len(match.events):  # as the real server: a step only with news
                await self._step(connection, seat)
            if len(connection.sent) == 2:  # hot seat: the public viewer's steps too
                connection.sent[-1] = 0
                await self._step(connection, -1)
            await self._computers()  # a game that begins with a computer to act starts with it
        elif kind in ("act", "claim", "ready"):
            if message["at"] != len(match.actions):
                await self._refused(connection, number, "stale", "That move was for an earlier position")
                return
            if kind == "ready" and self.hold_ready:
                await connection.socket.send(json.dumps({"type": "ok", "re": number}))
                return
            if kind == "act" and self.swallow_next:
                self.swallow_next = False
                await connection.socket.close(1001, "swallowed")
                return
            if kind == "act" and self.refuse_next is not None:
                code, self.refuse_next = self.refuse_next, None
                await self._refused(connection, number, code, "Refused by the fixture")
                return
            try:
                if kind == "act":
                    action = decode_action(message["action"])
                    assert action is not None
                    match.apply(action, message["seat"])
                elif kind == "claim":
                    match.claim(message["seat"])
                else:
                    match.next_deal()
            except IllegalActionError as error:
                await self._refused(connection, number, error.code, error.message, error.params)
                return
            await self._broadcast()
            await self._computers()

    async def _computers(self) -> None:
        match = self.match
        while (
            not self.hold_computers
            and not match.is_over
            and match.phase != Phase.HAND_OVER
            and not match.seats[match.current_player].is_human
        ):
            match.apply(match.choose_ai_action())
            await self._broadcast()
        if match.is_over:
            for connection in list(self._connections):
                await connection.socket.send(
                    json.dumps({"type": "game_over", "table": TABLE, "history": match.history()})
                )

    async def _broadcast(self) -> None:
        for connection in list(self._connections):
            for index, viewer in enumerate(list(connection.sent)):
                if index and self.step_gap:
                    await asyncio.sleep(self.step_gap)  # the change's steps arrive apart
                await self._step(connection, viewer)

    async def _step(self, connection: _Connection, viewer: int) -> None:
        await connection.socket.send(json.dumps(step_frame(self.match, viewer, connection.sent[viewer])))
        connection.sent[viewer] = len(self.match.events)

    async def _refused(self, connection: _Connection, number: Any, code: str, text: str, params: Any = None) -> None:
        frame = {"type": "refused", "re": number, "code": code, "params": params or {}, "message": text}
        await connection.socket.send(json.dumps(frame))

    async def _error(self, connection: _Connection, number: Any, code: str) -> None:
        frame = {"type": "error", "re": number, "code": code, "params": {}, "message": code}
        await connection.socket.send(json.dumps(frame))


def step_frame(match: Match, viewer: int, after: int) -> dict[str, Any]:
    """The ``step`` frame for ``viewer`` with the events after number ``after``, made as the
    real server makes it (``HostedTable.step_for``) around the fixture's match."""
    seats = [SeatPlan("host", name=seat.name) for seat in match.seats]
    table = HostedTable(TABLE, "FIXT-URE0", match.rules, seats, TableOptions("fixture"), "", match=match)
    return table.step_for(viewer, after)
