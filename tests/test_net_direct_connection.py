"""The server's own framing of a text message is the websockets library's, byte for byte; its
keepalive pings only a peer that went quiet, and closes one that answers no ping."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import os
from typing import Any

import pytest
from websockets.asyncio.server import ServerConnection, serve
from websockets.frames import CloseCode, Frame, Opcode

from game.net.direct_connection import DirectServerConnection, text_frame_header


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 1000, 65535, 65536, 70000])
def test_a_text_frame_is_written_as_the_library_writes_it(size: int) -> None:
    payload = b"x" * size
    assert text_frame_header(size) + payload == Frame(Opcode.TEXT, payload).serialize(mask=False, extensions=[])


# --- keepalive: a real server on a loopback port, a client on a raw socket that sees every frame

_INTERVAL = 0.4  # the test server's ping interval (its timeout too)


async def _ping_test_server() -> Any:
    async def handler(connection: ServerConnection) -> None:
        assert isinstance(connection, DirectServerConnection)
        connection.deliver_to(lambda message: None)
        await connection.wait_closed()

    return await serve(
        handler,
        "127.0.0.1",
        0,
        create_connection=DirectServerConnection,
        ping_interval=_INTERVAL,
        ping_timeout=_INTERVAL,
        compression=None,
    )


async def _raw_client(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A WebSocket client by hand: the opening handshake, then frames as bytes."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write(
        (
            f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    assert b" 101 " in await reader.readuntil(b"\r\n\r\n")
    return reader, writer


def _masked_text(payload: bytes) -> bytes:
    """A client's text frame (clients mask theirs)."""
    return Frame(Opcode.TEXT, payload).serialize(mask=True, extensions=[])


async def _frames_until(reader: asyncio.StreamReader, seconds: float) -> list[tuple[int, bytes]]:
    """Every frame the server sends within ``seconds`` (opcode, payload); stops early at EOF."""
    frames: list[tuple[int, bytes]] = []
    deadline = asyncio.get_running_loop().time() + seconds
    while (left := deadline - asyncio.get_running_loop().time()) > 0:
        try:
            head = await asyncio.wait_for(reader.readexactly(2), left)
        except (TimeoutError, asyncio.IncompleteReadError):
            break
        size = head[1] & 0x7F  # the server's frames are unmasked and short here
        frames.append((head[0] & 0x0F, await reader.readexactly(size)))
    return frames


def _event_loops() -> list[Any]:
    """How the tests run a coroutine: asyncio's loop, and uvloop's (the server's) where installed."""
    runners: list[Any] = [asyncio.run]
    with contextlib.suppress(ImportError):
        import uvloop

        runners.append(uvloop.run)
    return runners


@pytest.mark.parametrize("run", _event_loops())
def test_a_peer_that_keeps_talking_is_not_pinged_and_a_quiet_one_is(run: Any) -> None:
    async def scenario() -> None:
        server = await _ping_test_server()
        port = server.sockets[0].getsockname()[1]
        talker_reader, talker = await _raw_client(port)
        quiet_reader, quiet = await _raw_client(port)
        for _ in range(int(4 * _INTERVAL / 0.1)):  # 1.6 s: four ping intervals
            talker.write(_masked_text(b"{}"))
            await asyncio.sleep(0.1)
        talked_to = await _frames_until(talker_reader, 0.05)
        quiet_got = await _frames_until(quiet_reader, 0.05)
        server.close()
        talker.close()
        quiet.close()
        assert [opcode for opcode, _ in talked_to if opcode == Opcode.PING.value] == []
        assert [opcode for opcode, _ in quiet_got if opcode == Opcode.PING.value]  # pinged at least once

    run(scenario())


@pytest.mark.parametrize("run", _event_loops())
def test_a_peer_that_answers_no_ping_is_closed_in_time(run: Any) -> None:
    async def scenario() -> tuple[list[tuple[int, bytes]], float]:
        server = await _ping_test_server()
        port = server.sockets[0].getsockname()[1]
        reader, writer = await _raw_client(port)
        started = asyncio.get_running_loop().time()
        frames = await _frames_until(reader, 10 * _INTERVAL)  # reads the pings, answers none
        took = asyncio.get_running_loop().time() - started
        server.close()
        writer.close()
        return frames, took

    frames, took = run(scenario())
    opcodes = [opcode for opcode, _ in frames]
    assert Opcode.PING.value in opcodes and opcodes[-1] == Opcode.CLOSE.value
    assert int.from_bytes(frames[-1][1][:2], "big") == CloseCode.INTERNAL_ERROR  # "keepalive ping timeout"
    assert took < 10 * _INTERVAL  # closed before the reading gave up
