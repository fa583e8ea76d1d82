"""``BotClient``: a headless player on the wire, for tests, the fuzz test and the load benchmark.

It speaks the protocol over a real WebSocket, holds one or more seats, plays a
legal action picked from its seed and the position (``bot_choice``: the same game
again from the same seeds) whenever a seat of its is to act, says ``ready`` after
each hand, and with ``follow`` finds its table again on another server of a lobby.
"""

from __future__ import annotations

import asyncio
import json
import random
import ssl
import time
from collections.abc import Callable
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from game.net import protocol
from game.net.step_book import StepBook


FAILOVER_SECONDS = 30.0  # how long a following bot looks for its table's server


def bot_choice(seed: int, seat: int, at: int, legal: list[str], can_claim: bool) -> str | None:
    """What a bot of ``seed`` does for ``seat`` at ``at`` actions: one of the ``legal`` action
    strings, or None for a claim (half the time it may). A function of the position alone, so a
    game played again from the same seeds (or resumed after a failover) makes the same moves."""
    rng = random.Random(f"{seed}:{seat}:{at}")
    if can_claim and rng.random() < 0.5:
        return None
    return rng.choice(legal)


class BotClient:
    def __init__(
        self,
        url: str,
        *,
        seed: int = 0,
        record: bool = False,
        tls: ssl.SSLContext | None = None,
        pace: float = 0.0,
        follow: bool = False,
    ) -> None:
        """``pace``: seconds the bot waits before each action (0: at once). ``follow``: when the
        connection drops, or the server says the table ``moved``, reconnect by itself (to the
        other servers of the lobby in turn) and resume its seats."""
        self.url = url
        self.pace = pace
        self.seed = seed
        self.follow = follow
        self.servers: list[str] = []  # the lobby's servers, from the last welcome
        self.record = record
        self.tls = tls
        self.frames: list[dict[str, Any]] = []  # everything received, when recording
        self.socket: ClientConnection | None = None
        self.table = ""
        self.tokens: dict[int, str] = {}  # seat -> token
        self.host_token = ""
        self.last: dict[int, int] = {}  # seat -> last event number seen
        self.steps: dict[int, dict[str, Any]] = {}  # seat -> latest step (whole)
        self.step_book = StepBook()
        self.history: dict[str, Any] | None = None
        self.refusals: list[dict[str, Any]] = []
        self.on_step: Callable[[BotClient, dict[str, Any]], None] | None = None
        self._next_id = 0
        self._sent: dict[int, dict[str, Any]] = {}
        self._replies: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._reader: asyncio.Task[None] | None = None
        self._over = asyncio.Event()
        self._acted: set[tuple[int, int]] = set()  # (seat, position) already answered
        self.playing = True  # False: the bot holds its cards (a test stops it mid-hand)
        self.hold: Callable[[dict[str, Any]], bool] | None = None  # a step at which to stop playing
        self._closing = False
        self._reconnecting = False
        self._following: asyncio.Task[None] | None = None
        self.reconnections = 0
        self.latencies: list[float] = []  # seconds from each act or claim sent to the step that shows it
        self._waiting_since: tuple[int, float] | None = None  # (at, when) of the last act or claim sent

    # ------------------------------------------------------------------ the link
    async def connect(self) -> dict[str, Any]:
        self.socket = await connect(
            self.url, ssl=self.tls, max_size=protocol.SERVER_FRAME_LIMIT, compression=None, open_timeout=10
        )
        self._reader = asyncio.create_task(self._read())
        welcome = await self.request({"type": "hello", "protocol": protocol.PROTOCOL_VERSION, "app": "bot"})
        if isinstance(welcome.get("servers"), list) and welcome["servers"]:
            self.servers = [url for url in welcome["servers"] if isinstance(url, str)]
        return welcome

    async def reconnect(self, timeout: float = FAILOVER_SECONDS) -> None:
        """A new connection (after a drop, a server restart or a ``moved``): hello, then ``resume``
        for every seat held, from the last event number seen; play goes on from the catch-up
        steps. A server that cannot be reached twice running gives way to the next one the
        lobby named; ``moved`` sends the bot where it says."""
        self._reconnecting = True
        try:
            await self._reconnect(timeout)
        finally:
            self._reconnecting = False

    async def _reconnect(self, timeout: float) -> None:
        deadline = asyncio.get_running_loop().time() + timeout
        failures, reason = 0, ""
        if self._over.is_set() and self.history is None:
            self._over = asyncio.Event()  # set when the last connection ended
        while True:
            if self._reader is not None:
                self._reader.cancel()
            if self.socket is not None:
                await self.socket.close()
            self._acted.clear()  # answer the catch-up steps again (the same moves: ``bot_choice``)
            try:
                await self.connect()
                moved = await self._resume_seats()
            except (OSError, TimeoutError, ConnectionClosed, InvalidHandshake) as error:
                failures, reason = failures + 1, repr(error)  # ConnectionError: a resume refused
                if failures >= 2:
                    self._next_server()
                    failures = 0
            else:
                if moved is None:
                    self.reconnections += 1
                    for seat, step in list(self.steps.items()):
                        await self._answer(seat, step)  # a seat to act whose step brought nothing new
                    return
                self.url, failures = moved, 0
            if asyncio.get_running_loop().time() > deadline:
                raise ConnectionError(f"table {self.table} not found again: {reason}")
            await asyncio.sleep(0.1)

    def _next_server(self) -> None:
        others = [url for url in self.servers if url != self.url]
        if others:
            later = [url for url in others if url > self.url]
            self.url = (later or others)[0]

    async def _resume_seats(self) -> str | None:
        """Resume every seat held: None when they all are, else where the table moved to (the next
        server of the lobby when the server did not say)."""
        for seat, token in self.tokens.items():
            reply = await self.request(
                {
                    "type": "resume",
                    "table": self.table,
                    "seat": seat,
                    "token": token,
                    "after": self.last.get(seat, 0),
                    "epoch": 0,
                }
            )
            if reply["type"] == "error" and reply.get("code") == "moved":
                url = reply["params"].get("url")
                if not isinstance(url, str):
                    self._next_server()
                    return self.url
                return url
            if reply["type"] != "seated":
                raise ConnectionError(f"seat {seat} not resumed: {reply}")
        return None

    async def play_on(self) -> None:
        """Start playing again (after ``playing`` was False): answer the latest steps. On a link
        that just dropped nothing is sent: a ``follow`` bot answers them once it is back."""
        self.playing, self.hold = True, None
        try:
            for seat, step in list(self.steps.items()):
                await self._answer(seat, step)
        except ConnectionClosed:
            pass

    async def close(self) -> None:
        self._closing = True
        if self._following is not None:
            self._following.cancel()
        if self.socket is not None:
            await self.socket.close()
        if self._reader is not None:
            self._reader.cancel()

    async def send(self, message: dict[str, Any]) -> int:
        self._next_id += 1
        message = {**message, "id": self._next_id}
        self._sent[self._next_id] = message
        self._sent.pop(self._next_id - 50, None)  # only the latest few are ever sent again
        assert self.socket is not None
        await self.socket.send(json.dumps(message))
        return self._next_id

    async def _resend(self, number: object) -> None:
        """A message the server turned away for coming too fast: send it again a little later."""
        message = self._sent.get(number) if isinstance(number, int) else None
        if message is not None:
            await asyncio.sleep(0.2)
            await self.send({key: value for key, value in message.items() if key != "id"})

    async def request(self, message: dict[str, Any], timeout: float = 10.0) -> dict[str, Any]:
        """Send ``message`` and wait for the frame that answers it (``re``)."""
        number = await self.send(message)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._replies[number] = future
        return await asyncio.wait_for(future, timeout)

    async def _read(self) -> None:
        assert self.socket is not None
        over = self._over
        try:
            async for text in self.socket:
                frame = json.loads(text)
                if frame.get("type") == "step":
                    frame = self.step_book.whole(frame)
                if self.record:
                    self.frames.append(frame)
                await self._take(frame)
        except Exception:
            pass
        finally:
            if self.follow and not self._closing and self.history is None:
                self._find_table_again()
            else:
                over.set()

    def _find_table_again(self, url: str | None = None) -> None:
        """``follow``: reconnect in the background (to ``url`` when a server named it)."""
        if self._reconnecting:
            return
        if url is not None:
            self.url = url

        self._reconnecting = True

        async def follow() -> None:
            try:
                await self.reconnect()
            except Exception:
                self._over.set()  # ``finish`` says the game was not seen to its end

        self._following = asyncio.get_running_loop().create_task(follow())

    async def _take(self, frame: dict[str, Any]) -> None:
        re = frame.get("re")
        future = self._replies.pop(re, None) if isinstance(re, int) else None
        if future is not None and not future.done():
            future.set_result(frame)
        kind = frame.get("type")
        if kind == "table_created":
            self.table, self.host_token = frame["table"], frame["host_token"]
            self.tokens.update({entry["seat"]: entry["token"] for entry in frame["seats"]})
        elif kind == "seated":
            self.table = frame["table"]
            if frame.get("token"):
                self.tokens[frame["seat"]] = frame["token"]
        elif kind == "step":
            seat = frame["viewer"]
            waiting = self._waiting_since
            if waiting is not None and frame["state"]["position"][0] > waiting[0]:
                self.latencies.append(time.perf_counter() - waiting[1])
                self._waiting_since = None
            if frame["events"]:
                self.last[seat] = frame["events"][-1]["n"]
            self.steps[seat] = frame
            if self.on_step is not None:
                self.on_step(self, frame)
            await self._answer(seat, frame)
        elif kind == "refused":
            self.refusals.append(frame)
        elif kind == "error" and frame.get("code") == "rate_limited":
            await self._resend(frame.get("re"))
        elif kind == "error" and frame.get("code") == "moved" and frame.get("re") is None and self.follow:
            url = frame["params"].get("url")
            self._find_table_again(url if isinstance(url, str) else None)
        elif kind == "game_over":
            self.history = frame["history"]
            self._over.set()

    # ------------------------------------------------------------------ playing
    async def _answer(self, seat: int, step: dict[str, Any]) -> None:
        """Act for ``seat`` when the step says it is to: a random legal action, ``ready``
        after a hand, sometimes a claim when one is allowed."""
        state = step["state"]
        at = state["position"][0]
        if self.playing and self.hold is not None and self.hold(step):
            self.playing = False
        if not self.playing or state["over"] or (seat, at) in self._acted or seat not in self.tokens:
            return
        if state["phase"] == "hand_over":
            self._acted.add((seat, at))
            await self.send({"type": "ready", "table": self.table, "seat": seat, "at": at})
            return
        if state["current"] != seat:
            return
        self._acted.add((seat, at))
        if self.pace:
            await asyncio.sleep(self.pace)
        action = bot_choice(self.seed, seat, at, step["view"]["legal_actions"], step["can_claim"])
        self._waiting_since = (at, time.perf_counter())
        if action is None:
            await self.send({"type": "claim", "table": self.table, "seat": seat, "at": at})
            return
        await self.send({"type": "act", "table": self.table, "seat": seat, "action": action, "at": at})

    async def finish(self, timeout: float) -> dict[str, Any]:
        """Wait for the end of the game (its history record)."""
        await asyncio.wait_for(self._over.wait(), timeout)
        if self.history is None:
            raise ConnectionError("the connection closed before the game ended")
        return self.history


def carried_out(reply: dict[str, Any]) -> bool:
    """Whether ``reply`` to a message says it was carried out: its ``ok``, or the first step it
    caused for this connection, which answers it in the ``ok``'s place (protocol 2)."""
    return reply.get("type") in ("ok", "step")


async def create_table(
    bot: BotClient, game: str, seats: list[dict[str, Any]], values: dict[str, Any] | None = None, **options: Any
) -> dict[str, Any]:
    """``bot`` makes a table (it becomes its host) and returns the ``table_created`` answer."""
    reply = await bot.request(
        {
            "type": "create_table",
            "rules": {"game": game, "values": values or {}},
            "seats": seats,
            "name": "bot",
            **options,
        }
    )
    if reply["type"] != "table_created":
        raise RuntimeError(f"table not made: {reply}")
    return reply


async def take_seat(bot: BotClient, invite: str, name: str) -> int:
    reply = await bot.request({"type": "take_seat", "invite": invite, "name": name})
    if reply["type"] != "seated":
        raise RuntimeError(f"no seat: {reply}")
    return int(reply["seat"])
