"""``BotClient``: a headless player on the wire, for tests, the fuzz test and the load benchmark.

It speaks the protocol over a real WebSocket, holds one or more seats, and plays
a random legal action from its own view whenever one of its seats is to act,
says ``ready`` after each hand, and keeps every frame it got when asked to.
"""

from __future__ import annotations

import asyncio
import json
import random
import ssl
from collections.abc import Callable
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from game.net import protocol
from game.net.step_book import StepBook


class BotClient:
    def __init__(
        self, url: str, *, seed: int = 0, record: bool = False, tls: ssl.SSLContext | None = None, pace: float = 0.0
    ) -> None:
        """``pace``: seconds the bot waits before each action (0: at once)."""
        self.url = url
        self.pace = pace
        self.rng = random.Random(seed)
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

    # ------------------------------------------------------------------ the link
    async def connect(self) -> dict[str, Any]:
        self.socket = await connect(
            self.url, ssl=self.tls, max_size=protocol.SERVER_FRAME_LIMIT, compression=None, open_timeout=10
        )
        self._reader = asyncio.create_task(self._read())
        return await self.request({"type": "hello", "protocol": protocol.PROTOCOL_VERSION, "app": "bot"})

    async def reconnect(self) -> None:
        """A new connection (after a drop or a server restart): hello, then ``resume`` for every
        seat held, from the last event number seen; play goes on from the catch-up steps."""
        if self._reader is not None:
            self._reader.cancel()
        self._over = asyncio.Event()
        await self.connect()
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
            if reply["type"] != "seated":
                raise ConnectionError(f"seat {seat} not resumed: {reply}")

    async def play_on(self) -> None:
        """Start playing again (after ``playing`` was False): answer the latest steps."""
        self.playing, self.hold = True, None
        for seat, step in list(self.steps.items()):
            await self._answer(seat, step)

    async def close(self) -> None:
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
            self._over.set()

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
        if step["can_claim"] and self.rng.random() < 0.5:
            await self.send({"type": "claim", "table": self.table, "seat": seat, "at": at})
            return
        action = self.rng.choice(step["view"]["legal_actions"])
        await self.send({"type": "act", "table": self.table, "seat": seat, "action": action, "at": at})

    async def finish(self, timeout: float) -> dict[str, Any]:
        """Wait for the end of the game (its history record)."""
        await asyncio.wait_for(self._over.wait(), timeout)
        if self.history is None:
            raise ConnectionError("the connection closed before the game ended")
        return self.history


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
