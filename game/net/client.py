"""``NetClient``: one connection to a Trick Table server, run off the frame loop.

Its asyncio loop runs in a daemon thread; the window only calls ``send``,
``messages`` (drains what arrived, never waits) and ``close`` (returns at
once). It says ``hello`` first, reconnects by itself after a drop and then
takes back every seat it holds with ``resume`` (``docs/PROTOCOL.md``).
"""

from __future__ import annotations

# Threads: the window's thread calls the public methods; everything shared with
# the network thread is behind one lock (the inbox, the outbox, the seats held,
# the status). The network thread never calls into the window except through
# ``on_arrival``, which the app uses to post an event that wakes a sleeping frame
# loop; it must return at once.
#
# Links: the inbox also carries the client's own news about the connection,
# ``{"type": LINK, "status": "connected" | "lost"}`` in the order it happened
# among the server's messages, so a session knows that an answer it waits for may
# have been lost with the link. A frame the server sends with that type is
# dropped. Messages sent before the first connection wait for it; messages sent
# while the link is down are dropped (a game message would be stale by then: the
# session learns of the drop from the link news and asks again).
#
# Backoff: 0.5 s after a drop, doubling to 5 s, forever until closed. A server
# speaking another protocol version ends the connection for good (status
# "closed", reason "version"): trying again cannot help.
#
# Several servers (a Redis lobby): the welcome names every server of the lobby; a
# server that cannot be reached twice running gives way to the next one named. A
# ``moved`` error sends the client to the server it names (or the next one): an
# answer to a resume, take_seat or spectate moves quietly (no link news; that
# take_seat or spectate is sent again there), a ``moved`` out of the blue (the
# server lost the table) is told as a drop, as an action may have been lost with it.

import asyncio
import collections
import json
import logging
import ssl as ssl_module
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from game.net.protocol import PROTOCOL_VERSION, SERVER_FRAME_LIMIT
from game.net.step_book import StepBook, StepOutOfStep

log = logging.getLogger("tricktable.net")

LINK = "_link"  # the type of the client's own news about its connection, in the inbox
FIRST_DELAY = 0.5  # seconds before the first reconnection attempt
LONGEST_DELAY = 5.0
MOVE_DELAY = 0.2  # seconds before connecting to the server a ``moved`` named
FAILURES_BEFORE_NEXT_SERVER = 2
_SENT_AGAIN_AFTER_MOVE = ("take_seat", "spectate")
OPEN_TIMEOUT = 10.0  # seconds a connection attempt may take
MAX_APP_NAME = 40

CONNECTING = "connecting"
CONNECTED = "connected"
LOST = "lost"
CLOSED = "closed"


@dataclass(frozen=True)
class LinkStatus:
    """Where the connection stands: ``state`` (connecting, connected, lost, closed) and why
    (the last failure or close reason; empty when there is none)."""

    state: str
    reason: str = ""

    @property
    def up(self) -> bool:
        return self.state == CONNECTED


@dataclass
class _HeldSeat:
    token: str
    after: int  # the last event number the session above saw for this seat


class NetClient:
    """The connection to one server (see the module docstring)."""

    def __init__(
        self,
        url: str,
        app_name: str,
        on_arrival: Callable[[], None] | None = None,
        ssl: ssl_module.SSLContext | None = None,
    ) -> None:
        """``url``: ``ws://host:port/`` (or ``wss://``, with ``ssl`` the context to check the
        server by; None uses the system's). ``on_arrival`` is called from the network thread
        after each message arrives."""
        self.url = url
        self.app_name = app_name[:MAX_APP_NAME]
        self.on_arrival = on_arrival
        self._ssl = ssl
        self._lock = threading.Lock()
        self._inbox: list[dict[str, Any]] = []
        self._outbox: collections.deque[str] = collections.deque()
        self._seats: dict[tuple[str, int], _HeldSeat] = {}
        self._status = LinkStatus(CONNECTING)
        self._next_id = 1
        self._steps = StepBook()  # whole steps from the frames that carry only what changed
        self._ever_connected = False
        self._closing = False
        self._servers: list[str] = []  # the lobby's servers, from the last welcome
        self._recent: dict[int, str] = {}  # id -> text of the latest take_seat and spectate messages
        self._moved_to: tuple[str, bool, str | None] | None = None  # url, quietly, message to send again
        self._told_connected = False  # the last link news said "connected"
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wake_sender: asyncio.Event | None = None
        self._main: asyncio.Task[None] | None = None
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------------ the window's side
    def start(self) -> None:
        """Open the connection (in the network thread); returns at once."""
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._run_thread, name="tricktable-net", daemon=True)
        self._thread.start()

    @property
    def status(self) -> LinkStatus:
        with self._lock:
            return self._status

    def send(self, message: dict[str, Any]) -> int:
        """Send ``message`` (a dict with its ``type``) with a fresh ``id``, which is returned; the
        server's answer names it as ``re``. Never waits. Dropped (and logged) while the link is
        down after having been up: see the module's notes."""
        with self._lock:
            number, text = self._numbered(message)
            if message.get("type") in _SENT_AGAIN_AFTER_MOVE:
                self._recent[number] = text
                self._recent.pop(number - 20, None)
            if self._closing or (self._ever_connected and self._status.state != CONNECTED):
                log.info("not sent while the link is down: %s", message.get("type"))
                return number
            self._outbox.append(text)
        self._poke_sender()
        return number

    def messages(self) -> list[dict[str, Any]]:
        """Every message that arrived since the last call, oldest first (never waits)."""
        with self._lock:
            arrived, self._inbox = self._inbox, []
        return arrived

    def hold_seat(self, table: str, seat: int, token: str, after: int = 0) -> None:
        """This connection holds ``seat`` at ``table``: resume it after every reconnection."""
        with self._lock:
            self._seats[(table, seat)] = _HeldSeat(token, after)

    def seen(self, table: str, seat: int, number: int) -> None:
        """The session has seen ``seat``'s events up to ``number``: a resume asks for those after it."""
        with self._lock:
            held = self._seats.get((table, seat))
            if held is not None and number > held.after:
                held.after = number

    def release_seat(self, table: str, seat: int) -> None:
        with self._lock:
            self._seats.pop((table, seat), None)

    def close(self) -> None:
        """Stop: close the connection and end the thread, without waiting for either."""
        with self._lock:
            if self._closing:
                return
            self._closing = True
            self._status = LinkStatus(CLOSED, self._status.reason)
            self._outbox.clear()
        loop, main = self._loop, self._main
        if loop is not None and main is not None:
            try:
                loop.call_soon_threadsafe(main.cancel)
            except RuntimeError:
                pass  # the loop has ended already

    # ------------------------------------------------------------------ the network thread
    def _run_thread(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        try:
            loop.run_until_complete(self._connect_forever())
        except asyncio.CancelledError:
            pass
        except Exception:
            log.exception("the network thread failed")
            self._set_status(LinkStatus(CLOSED, "failed"))
        finally:
            loop.close()

    def _poke_sender(self) -> None:
        loop, wake = self._loop, self._wake_sender
        if loop is not None and wake is not None:
            try:
                loop.call_soon_threadsafe(wake.set)
            except RuntimeError:
                pass

    def _set_status(self, status: LinkStatus, link_news: str | None = None) -> None:
        with self._lock:
            if self._closing and status.state != CLOSED:
                return
            self._status = status
            if link_news is not None:
                self._told_connected = link_news == CONNECTED
                self._inbox.append({"type": LINK, "status": link_news, "reason": status.reason})
        if link_news is not None:
            self._arrived()

    def _arrived(self) -> None:
        callback = self.on_arrival
        if callback is not None:
            try:
                callback()
            except Exception:
                log.exception("the arrival callback failed")

    async def _connect_forever(self) -> None:
        self._main = asyncio.current_task()
        self._wake_sender = asyncio.Event()
        if self._closing:
            return
        delay = FIRST_DELAY
        failures = 0
        while not self._closing:
            self._set_status(LinkStatus(CONNECTING, self.status.reason))
            reason, final = await self._one_connection()
            if self._closing:
                break
            if final:
                self._set_status(LinkStatus(CLOSED, reason), LOST)
                break
            was_up = self.status.state == CONNECTED
            with self._lock:
                if self._ever_connected:
                    self._outbox.clear()  # written for a link that is gone: see the module's notes
                moved, self._moved_to = self._moved_to, None
            if moved is not None:
                await self._move(*moved)
                # A server named by a moved that cannot be reached is given up at once.
                failures, delay = FAILURES_BEFORE_NEXT_SERVER - 1, FIRST_DELAY
                continue
            self._set_status(LinkStatus(LOST, reason), LOST if was_up else None)
            failures = 0 if was_up else failures + 1
            if was_up:
                delay = FIRST_DELAY
            if failures >= FAILURES_BEFORE_NEXT_SERVER and self._next_server():
                failures, delay = 0, FIRST_DELAY
            await asyncio.sleep(delay)
            delay = min(LONGEST_DELAY, delay * 2)

    async def _move(self, url: str, quietly: bool, again: str | None) -> None:
        """Go to the server a ``moved`` named (see the module's notes)."""
        with self._lock:
            self.url = url
            if again is not None:
                self._outbox.append(again)
        if quietly:
            self._set_status(LinkStatus(CONNECTING))
        else:
            self._set_status(LinkStatus(LOST, "moved"), LOST if self._told_connected else None)
        await asyncio.sleep(MOVE_DELAY)

    def _next_server(self) -> bool:
        """The current server cannot be reached: try the next one the lobby named (False: none)."""
        with self._lock:
            others = [url for url in self._servers if url != self.url]
            if others:
                later = [url for url in others if url > self.url]
                self.url = (later or others)[0]
            return bool(others)

    def _moved(self, message: dict[str, Any]) -> None:
        """A ``moved`` error: where to go, whether quietly, and the message to send there again."""
        params = message.get("params")
        url = params.get("url") if isinstance(params, dict) else None
        re = message.get("re")
        with self._lock:
            if not _is_server_url(url):
                others = [other for other in self._servers if other != self.url]
                url = others[0] if others else self.url
            again = self._recent.pop(re, None) if isinstance(re, int) else None
            self._moved_to = (str(url), re is not None, again)

    async def _one_connection(self) -> tuple[str, bool]:
        """Connect, greet, resume the seats held and carry messages until the link ends; the
        reason it ended, and whether it is final (never try again)."""
        try:
            async with connect(
                self.url,
                ssl=self._ssl if self.url.startswith("wss:") else None,
                open_timeout=OPEN_TIMEOUT,
                max_size=SERVER_FRAME_LIMIT,
                proxy=None,  # a table on this network is reached directly, never through a proxy
                compression=None,
            ) as connection:
                await connection.send(
                    self._frame({"type": "hello", "protocol": PROTOCOL_VERSION, "app": self.app_name})
                )
                for table, seat, held in self._held():
                    resume = {"type": "resume", "table": table, "seat": seat, "token": held.token}
                    await connection.send(self._frame({**resume, "after": held.after, "epoch": 0}))
                sender = asyncio.create_task(self._send_loop(connection))
                try:
                    ending = await self._receive_loop(connection)
                finally:
                    sender.cancel()
                if ending:
                    return ending, ending == "version"
                return _close_reason(connection), False
        except asyncio.CancelledError:
            raise
        except (OSError, InvalidHandshake, InvalidURI, TimeoutError, ConnectionClosed) as error:
            return str(error) or type(error).__name__, isinstance(error, InvalidURI)
        except Exception as error:  # whatever else a bad link raises: logged, and tried again
            log.warning("the connection to %s failed: %r", self.url, error)
            return type(error).__name__, False

    def _frame(self, message: dict[str, Any]) -> str:
        with self._lock:
            return self._numbered(message)[1]

    def _numbered(self, message: dict[str, Any]) -> tuple[int, str]:
        """``message`` with the next ``id``, as the frame's text (the lock is held)."""
        number = self._next_id
        self._next_id += 1
        return number, json.dumps({**message, "id": number}, separators=(",", ":"))

    def _held(self) -> list[tuple[str, int, _HeldSeat]]:
        with self._lock:
            return [(table, seat, _HeldSeat(held.token, held.after)) for (table, seat), held in self._seats.items()]

    async def _send_loop(self, connection: ClientConnection) -> None:
        wake = self._wake_sender
        assert wake is not None
        while True:
            with self._lock:
                batch = list(self._outbox)
                self._outbox.clear()
            for text in batch:
                await connection.send(text)
            if not batch:
                wake.clear()
                with self._lock:
                    empty = not self._outbox
                if empty:
                    await wake.wait()

    async def _receive_loop(self, connection: ClientConnection) -> str:
        """Put what arrives in the inbox until the link closes; why it ended early: "version"
        (the server speaks another protocol version: the connection ends for good), "moved"
        (the table is on another server), or "" (the link closed)."""
        try:
            async for frame in connection:
                message = _read_frame(frame)
                if message is None:
                    continue
                if message["type"] == "step":
                    try:
                        message = self._steps.whole(message)
                    except StepOutOfStep as error:
                        # A frame lost in between: the seats are resumed afresh on a new link.
                        log.warning("%s: connecting again", error)
                        await connection.close()
                        return ""
                    except ValueError as error:
                        log.warning("a step from the server was dropped: %s", error)
                        continue
                if message["type"] == "welcome":
                    servers = message.get("servers")
                    with self._lock:
                        self._ever_connected = True
                        if isinstance(servers, list) and servers:
                            self._servers = [url for url in servers[:50] if _is_server_url(url)]
                        told = self._told_connected
                    self._set_status(LinkStatus(CONNECTED), None if told else CONNECTED)
                    self._poke_sender()
                if message["type"] == "error" and message.get("code") == "moved":
                    self._moved(message)
                    return "moved"
                if message["type"] == "error" and message.get("code") == "version":
                    with self._lock:
                        self._inbox.append(message)
                    self._arrived()
                    return "version"
                with self._lock:
                    self._inbox.append(message)
                self._arrived()
        except ConnectionClosed:
            pass
        return ""


def _read_frame(frame: str | bytes) -> dict[str, Any] | None:
    """A server frame as a message, or None (logged) when it is not a JSON object with a type."""
    if not isinstance(frame, str):
        log.warning("a binary frame from the server was dropped")
        return None
    try:
        message = json.loads(frame)
    except (ValueError, RecursionError):  # not JSON, or nested deeper than any message is
        log.warning("a frame from the server that is not JSON was dropped: %.80r", frame)
        return None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str) or message["type"] == LINK:
        log.warning("a frame from the server that is no message was dropped: %.80r", frame)
        return None
    return message


def _is_server_url(url: object) -> bool:
    return isinstance(url, str) and url.startswith(("ws://", "wss://")) and len(url) < 300


def _close_reason(connection: ClientConnection) -> str:
    """Why the server closed the connection, in its own words (or its close code)."""
    code, reason = connection.close_code, connection.close_reason
    if code is None:
        return "closed"
    return reason or f"closed ({code})"
