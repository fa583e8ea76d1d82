"""A server connection that hands each whole message to the server as it arrives.

Unlike the library's ``ServerConnection`` (a queue, a future and a task wake-up per message
for a handler waiting in ``recv()``), each message goes to a callback from ``data_received``.
"""

from __future__ import annotations

# A table server does nothing slow with a message (it answers at once, on the loop), so
# nothing is lost by skipping the queue. Everything else (the handshake, pings, the closing
# handshake, size limits) stays the library's; a text frame out is written with its header
# by hand, the same bytes the library writes (a test compares them).

import asyncio
import logging
import random
from collections.abc import Callable

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed
from websockets.frames import CloseCode
from websockets.frames import Frame, Opcode
from websockets.protocol import Event, State

log = logging.getLogger("tricktable.server")

Message = str | bytes
_DATA = (Opcode.TEXT, Opcode.BINARY)
EARLY_MESSAGES = 32  # messages kept for the receiver from before it is set
_READ_BUFFER = bytearray(65536)  # what every connection reads into (a longer frame takes more reads)
_READ_VIEW = memoryview(_READ_BUFFER)


def text_frame_header(size: int) -> bytes:
    """The header of an unmasked, final text frame of ``size`` bytes (RFC 6455, 5.2)."""
    if size < 126:
        return bytes((0x81, size))
    if size < 65536:
        return bytes((0x81, 126)) + size.to_bytes(2, "big")
    return bytes((0x81, 127)) + size.to_bytes(8, "big")


class DirectServerConnection(ServerConnection, asyncio.BufferedProtocol):
    """``ServerConnection`` whose messages go to ``deliver_to``'s callback, not to ``recv()``.

    It reads into one buffer shared by every connection (a read is handed on before the
    next one starts: one loop, one thread), not into the fresh 256 KiB ``bytes`` asyncio
    gives a plain protocol for each read."""

    _receiver: Callable[[Message], None] | None = None
    _early: list[Message] | None = None  # whole messages that came before a receiver was set
    _stopped = False  # the connection is being closed: what still comes is dropped
    _parts: list[bytes] | None = None  # a fragmented message's frames so far
    _text = False  # whether that fragmented message is text
    _reads = 0  # reads of the peer's bytes so far: see ``keepalive``

    def get_buffer(self, sizehint: int) -> memoryview:
        # A view, not the bytearray: asyncio's TLS reads the rest of a burst into
        # ``buf[offset:]``, which must be the same memory (a bytearray's slice is a copy).
        return _READ_VIEW

    def buffer_updated(self, nbytes: int) -> None:
        self.data_received(bytes(_READ_VIEW[:nbytes]))  # one copy, of what was read

    def data_received(self, data: bytes) -> None:
        # Counted here, not in ``buffer_updated``: uvloop hands a read to ``data_received``.
        self._reads += 1
        super().data_received(data)

    async def keepalive(self) -> None:
        """Ping the peer only when it has been quiet: anything it sent shows it is there.

        The library pings every connection every ``ping_interval``; a server of thousands of
        players, who send an action every few seconds, then spends more on pings than on
        some of the game. Here the connection looks every half interval and pings only when
        nothing came in since it last looked, so a peer that went away is still found out
        within ``ping_interval`` and ``ping_timeout`` of its last bytes, as before. Each
        connection starts looking at a random moment of its first half interval: connections
        opened together (a server restarted, its players back at once) would otherwise all be
        looked at, and pinged, in the same instant, a pause every player feels."""
        assert self.ping_interval is not None
        half = self.ping_interval / 2
        reads = -1
        await asyncio.sleep(half * random.random())
        while True:
            await asyncio.sleep(half)
            if self._reads != reads:
                reads = self._reads
                continue
            try:
                pong = await self.ping()
                async with asyncio.timeout(self.ping_timeout):
                    await pong
            except ConnectionClosed:
                return
            except TimeoutError:
                async with self.send_context():
                    self.protocol.fail(CloseCode.INTERNAL_ERROR, "keepalive ping timeout")
                return

    def deliver_to(self, receiver: Callable[[Message], None]) -> None:
        """From now on every whole message goes to ``receiver`` (a text message as ``str``,
        a binary one as ``bytes``), those that came already first."""
        self._receiver = receiver
        early, self._early = self._early, None
        for message in early or ():
            if self._receiver is None:
                break
            self._deliver(message)

    def stop_delivering(self) -> None:
        """No more messages to the receiver (the connection is being closed)."""
        self._receiver, self._early, self._stopped = None, None, True

    def send_text_now(self, data: bytes) -> bool:
        """Write ``data`` (UTF-8 text) as one text frame at once; False when the connection is
        no longer open (the frame is dropped, as ``broadcast`` drops it)."""
        protocol = self.protocol
        if protocol.state is not State.OPEN or self.send_in_progress is not None:
            return False
        if protocol.extensions or protocol.writes or protocol.expect_continuation_frame:
            protocol.send_text(data)  # (never with compression off) the library frames it
            self.send_data()
        else:
            # A server's frame is not masked: the header and the payload, as the library
            # writes them (``text_frame_header``), without its frame object per message.
            self.transport.write(text_frame_header(len(data)) + data)
        return True

    def process_event(self, event: Event) -> None:
        if self.request is None or not isinstance(event, Frame) or event.opcode not in (*_DATA, Opcode.CONT):
            super().process_event(event)  # the handshake, pings and pongs: the library's
            return
        if event.opcode is not Opcode.CONT:
            self._parts, self._text = [], event.opcode is Opcode.TEXT
        if self._parts is None:
            return  # a continuation with no message begun: the protocol has failed the connection
        self._parts.append(event.data)
        if not event.fin:
            return
        data = b"".join(self._parts) if len(self._parts) > 1 else self._parts[0]
        self._parts = None
        if self._text:
            try:
                message: Message = data.decode()
            except UnicodeDecodeError:
                self.stop_delivering()
                self.protocol.fail(1007, "invalid UTF-8")  # as the library does for such a frame
                self.send_data()
                return
        else:
            message = bytes(data)
        if self._receiver is not None:
            self._deliver(message)
        elif not self._stopped:
            # Only the moment between the handshake and ``deliver_to``: a client that sends
            # more than a few messages before its hello is answered loses the rest.
            if self._early is None:
                self._early = []
            if len(self._early) < EARLY_MESSAGES:
                self._early.append(message)

    def _deliver(self, message: Message) -> None:
        receiver = self._receiver
        if receiver is None:
            return
        try:
            receiver(message)
        except Exception:  # a fault answering one message never ends the connection's reading
            log.exception("a message could not be handled")
