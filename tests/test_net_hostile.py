"""Hostile clients get coded errors or a close, never a crash, a stall of another table or a changed game."""

from __future__ import annotations

import asyncio
import json
import random
import shutil
import ssl
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed
from websockets.frames import Frame, Opcode

from game.net import protocol
from game.net.bot_client import BotClient, create_table, take_seat
from game.persistence.history_replay import check_game
from net_servers import run, running_server

REPO = Path(__file__).resolve().parent.parent
THREE = [{"kind": "host", "name": "Ann"}, {"kind": "open"}, {"kind": "computer", "level": "random"}]


async def _hello(url: str, **options: Any) -> ClientConnection:
    socket = await connect(url, **options)
    await socket.send(json.dumps({"type": "hello", "protocol": protocol.PROTOCOL_VERSION, "id": 0}))
    assert json.loads(await socket.recv())["type"] == "welcome"
    return socket


async def _answer(socket: ClientConnection, message: str | bytes) -> dict[str, Any]:
    await socket.send(message)
    return json.loads(await asyncio.wait_for(socket.recv(), 5))


async def _table(url: str, rounds: int = 2, pace: float = 0.0) -> tuple[BotClient, BotClient, dict[str, Any]]:
    host, guest = BotClient(url, seed=1, pace=pace), BotClient(url, seed=2, pace=pace)
    await host.connect()
    await guest.connect()
    created = await create_table(host, "wizard", THREE, {"rounds": rounds})
    await take_seat(guest, created["invite"], "Bob")
    return host, guest, created


def test_each_malformed_message_gets_its_own_code() -> None:
    async def scenario() -> dict[str, str]:
        async with running_server() as (_, url):
            host, guest, created = await _table(url)
            host.playing = guest.playing = False
            await host.request({"type": "start", "table": created["table"], "host_token": created["host_token"]})
            table = created["table"]
            socket = await _hello(url)
            codes = {}
            cases: dict[str, str | bytes] = {
                "bad_json": "{not json",
                "not_text": b"\x00\x01binary",
                "no_type": json.dumps({"kind": "act"}),
                "unknown": json.dumps({"type": "give_me_the_deck"}),
                "no_table": json.dumps({"type": "act", "table": "nope", "seat": 0, "action": "AS", "at": 0}),
                "bad_invite": json.dumps({"type": "take_seat", "invite": "ZZZZ-ZZZZ", "name": "Eve"}),
                "garbled_invite": json.dumps({"type": "take_seat", "invite": ["x"], "name": "Eve"}),
                "stolen_token": json.dumps(
                    {"type": "resume", "table": table, "seat": 1, "token": "guessed", "after": 0, "epoch": 0}
                ),
                "another_seat": json.dumps({"type": "act", "table": table, "seat": 0, "action": "AS", "at": 0}),
                "not_host": json.dumps({"type": "start", "table": table, "host_token": "x"}),
                "started": json.dumps({"type": "take_seat", "invite": created["invite"], "name": "Eve"}),
            }
            for name, message in cases.items():
                codes[name] = (await _answer(socket, message))["code"]
            # The guest's own seat: an action in the wrong form, and one for an old position.
            step = guest.steps[1]
            at = step["state"]["position"][0]
            bad = await guest.request({"type": "act", "table": table, "seat": 1, "action": "9Z", "at": at})
            stale = await guest.request({"type": "act", "table": table, "seat": 1, "action": "0", "at": at - 1})
            codes["bad_action"], codes["stale"] = bad["code"], stale["code"]
            before = host.steps[0]["state"]
            await socket.close()
            for bot in (host, guest):
                await bot.close()
            assert before["position"][0] == at  # nothing was applied
            return codes

    codes = run(scenario())
    assert codes == {
        "bad_json": "bad_json",
        "not_text": "not_text",
        "no_type": "bad_message",
        "unknown": "unknown_type",
        "no_table": "no_table",
        "bad_invite": "bad_invite",
        "garbled_invite": "bad_invite",
        "stolen_token": "bad_token",
        "another_seat": "not_seated",
        "not_host": "not_host",
        "started": "started",
        "bad_action": "bad_message",
        "stale": "stale",
    }


def test_a_frame_over_the_size_cap_closes_the_connection() -> None:
    async def scenario() -> int | None:
        async with running_server() as (_, url):
            socket = await _hello(url, max_size=None)
            await socket.send(json.dumps({"type": "hello", "app": "x" * (protocol.CLIENT_FRAME_LIMIT + 10)}))
            with pytest.raises(ConnectionClosed):
                await asyncio.wait_for(socket.recv(), 5)
            return socket.close_code

    assert run(scenario()) == 1009


def test_a_message_in_fragments_is_answered_as_one() -> None:
    """The server reads whole messages itself (``DirectServerConnection``): one sent in
    several frames is put together and answered once."""

    async def scenario() -> dict[str, Any]:
        async with running_server() as (_, url):
            socket = await _hello(url)
            text = json.dumps({"type": "list_tables", "id": 5})
            await socket.send([text[:7], text[7:15], text[15:]])  # three frames, one message
            return json.loads(await asyncio.wait_for(socket.recv(), 5))

    answer = run(scenario())
    assert answer["type"] == "tables" and answer["re"] == 5


def test_invalid_utf8_in_a_text_frame_closes_the_connection() -> None:
    async def scenario() -> int | None:
        async with running_server() as (_, url):
            socket = await _hello(url)
            # A text frame whose payload is not UTF-8, written past the client library's checks.
            socket.protocol.send_frame(Frame(Opcode.TEXT, b'{"type":"\xff\xfe"}'))
            socket.send_data()
            with pytest.raises(ConnectionClosed):
                await asyncio.wait_for(socket.recv(), 5)
            return socket.close_code

    assert run(scenario()) == 1007


def test_messages_sent_before_the_welcome_are_answered_in_order() -> None:
    async def scenario() -> list[tuple[str, Any]]:
        async with running_server() as (_, url):
            socket = await connect(url)
            hello = {"type": "hello", "protocol": protocol.PROTOCOL_VERSION, "id": 0}
            for message in (hello, {"type": "list_tables", "id": 1}, {"type": "list_tables", "id": 2}):
                await socket.send(json.dumps(message))
            answers = [json.loads(await asyncio.wait_for(socket.recv(), 5)) for _ in range(3)]
            return [(answer["type"], answer["re"]) for answer in answers]

    assert run(scenario()) == [("welcome", 0), ("tables", 1), ("tables", 2)]


def test_a_connection_that_never_says_hello_is_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(protocol, "HELLO_SECONDS", 0.2)

    async def scenario() -> tuple[int | None, str | None, float]:
        async with running_server() as (_, url):
            socket = await connect(url)
            opened = time.monotonic()
            with pytest.raises(ConnectionClosed):
                await asyncio.wait_for(socket.recv(), 5)
            return socket.close_code, socket.close_reason, time.monotonic() - opened

    code, reason, waited = run(scenario())
    assert (code, reason) == (1008, "hello expected") and waited < 3


def test_a_first_message_that_is_not_hello_gets_an_error_then_a_close() -> None:
    async def scenario() -> tuple[str, int | None]:
        async with running_server() as (_, url):
            socket = await connect(url)
            await socket.send(json.dumps({"type": "list_tables", "id": 1}))
            error = json.loads(await asyncio.wait_for(socket.recv(), 5))
            with pytest.raises(ConnectionClosed):
                await asyncio.wait_for(socket.recv(), 5)
            return error["code"], socket.close_code

    assert run(scenario()) == ("hello_first", 1008)


def test_garbage_and_floods_are_closed_while_another_table_plays_on() -> None:
    """With the protocol's own rate limit: a flood is slowed with ``rate_limited``, then closed,
    and so is a stream of garbage; a real game on the same server finishes meanwhile."""

    async def scenario() -> tuple[list[str], str, list[str], str, dict[str, Any]]:
        async with running_server(
            rate_per_second=protocol.RATE_PER_SECOND * 50, rate_burst=protocol.RATE_BURST * 50
        ) as (table_server, url):
            host, guest, created = await _table(url)
            await host.request({"type": "start", "table": created["table"], "host_token": created["host_token"]})
            table_server.rate_per_second, table_server.rate_burst = protocol.RATE_PER_SECOND, protocol.RATE_BURST
            # Both read what they are sent (max_queue None), so each close completes at once.
            flooder, spammer = await _hello(url, max_queue=None), await _hello(url, max_queue=None)
            # A burst past the allowance is answered rate_limited, message by message...
            slowed = [
                (await _answer(flooder, json.dumps({"type": "list_tables"}))).get("code", "tables")
                for _ in range(protocol.RATE_BURST + 10)
            ]
            # ... and a connection that keeps on is closed.
            flood_codes: list[str] = []
            for _ in range(protocol.FLOOD_CLOSE_AFTER + 20):
                try:
                    await flooder.send(json.dumps({"type": "list_tables"}))
                except ConnectionClosed:
                    break
            with pytest.raises(ConnectionClosed):
                while True:
                    frame = json.loads(await asyncio.wait_for(flooder.recv(), 5))
                    flood_codes.append(frame.get("code", frame["type"]))
            spam_codes: list[str] = []
            with pytest.raises(ConnectionClosed):
                for _ in range(protocol.BAD_FRAMES_CLOSE_AFTER + 5):
                    spam_codes.append((await _answer(spammer, "][")).get("code", ""))
            history = await host.finish(30)
            await guest.finish(30)
            for bot in (host, guest):
                await bot.close()
            return slowed + flood_codes, flooder.close_reason or "", spam_codes, spammer.close_reason or "", history

    flood_codes, flood_reason, spam_codes, spam_reason, history = run(scenario())
    assert flood_codes.count("tables") <= protocol.RATE_BURST + 2 and "rate_limited" in flood_codes[:60]
    assert flood_reason == "too many messages"
    assert set(spam_codes) == {"bad_json"} and spam_reason == "too many malformed frames"
    assert history["complete"] and check_game(history) == []


def _fuzz_frame(rng: random.Random, known: dict[str, Any]) -> str | bytes:
    """One hostile frame: random bytes or JSON, or a real message with its fields bent."""
    roll = rng.random()
    if roll < 0.1:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 60)))
    if roll < 0.2:
        return "".join(chr(rng.randrange(32, 0x2FF)) for _ in range(rng.randrange(0, 80)))
    values: list[Any] = [
        None, True, -1, 0, 1, 2**70, 3.5, "", "x" * 300, [], {}, [1, [2]], {"a": {"b": None}},
        known["table"], known["invite"], known["token"], "AS", "pass", "4up", "-2C", "trump:H", "next",
    ]  # fmt: skip
    kinds = [
        "hello", "list_tables", "create_table", "take_seat", "spectate", "resume", "set_seat", "move_seat",
        "start", "act", "claim", "ready", "leave", "nonsense", rng.choice(values),
    ]  # fmt: skip
    fields = ["table", "seat", "token", "invite", "action", "at", "after", "rules", "seats", "host_token", "to", "kind"]
    message: dict[str, Any] = {"type": rng.choice(kinds)}
    for field in rng.sample(fields, rng.randrange(0, 6)):
        message[field] = rng.choice(values)
    if rng.random() < 0.1:
        message["rules"] = {
            "game": rng.choice(["wizard", "bidwhist", "chess"]),
            "values": {"rounds": rng.choice(values)},
        }
        message["seats"] = [{"kind": rng.choice(["open", "host", "computer", 3])} for _ in range(rng.randrange(0, 8))]
    return json.dumps(message)


def test_a_fuzzed_server_finishes_its_games_and_they_replay_clean() -> None:
    """Thousands of random and malformed frames, from strangers and from a seated player, while
    two real games run: both games finish, their records replay clean, the server still answers."""

    async def fuzz(url: str, known: dict[str, Any], seed: int, count: int) -> int:
        """Send ``count`` frames, each answered (or the connection closed for it) before the next."""
        rng = random.Random(seed)
        answered, closes = 0, 0
        socket = await _hello(url)
        for number in range(1, count + 1):
            frame = _fuzz_frame(rng, known)
            if isinstance(frame, str) and frame.startswith("{"):
                frame = json.dumps({**json.loads(frame), "id": number})
            try:
                await socket.send(frame)
                while True:  # its answer, past any lobby or step frames it caused
                    reply = json.loads(await asyncio.wait_for(socket.recv(), 5))
                    if reply.get("re") in (number, None) and reply["type"] not in ("lobby", "step", "presence"):
                        break
                answered += 1
            except ConnectionClosed:
                closes += 1  # closed for its garbage: come back for more
                socket = await _hello(url)
        await socket.close()
        assert closes >= 1 and answered >= count * 0.9, (answered, closes)
        return answered + closes

    async def scenario() -> tuple[list[dict[str, Any]], int, dict[str, Any]]:
        async with running_server() as (table_server, url):
            games = [await _table(url, rounds=4, pace=0.01) for _ in range(2)]
            moves: list[float] = []  # when the players' steps arrived
            for host, guest, _ in games:
                host.on_step = guest.on_step = lambda bot, step: moves.append(time.monotonic())
            for host, _, created in games:
                await host.request({"type": "start", "table": created["table"], "host_token": created["host_token"]})
            # The fuzzers know the table and its invite (a stranger who was told it), not a seat's token.
            known = {"table": games[0][2]["table"], "invite": games[0][2]["invite"], "token": "not-their-token"}
            fuzz_start = time.monotonic()
            sent = sum(await asyncio.gather(*(fuzz(url, known, seed, 1000) for seed in range(3))))
            fuzz_end = time.monotonic()
            assert sum(fuzz_start < moment < fuzz_end for moment in moves) > 20  # the games went on meanwhile
            histories = [await bot.finish(60) for host, guest, _ in games for bot in (host, guest)]
            still = await _hello(url)
            listing = await _answer(still, json.dumps({"type": "list_tables", "id": 9}))
            await still.close()
            for host, guest, _ in games:
                await host.close()
                await guest.close()
            return histories, sent, listing

    histories, sent, listing = run(scenario(), 120)
    assert sent == 3000  # every frame answered, or its connection closed for it
    assert listing["type"] == "tables"
    for history in histories:
        assert history["complete"] and check_game(history) == []
    assert histories[0] == histories[1] and histories[2] == histories[3]


@pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl command to make a certificate")
def test_tls_with_cert_and_key(tmp_path: Path) -> None:
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=localhost"]
        + ["-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
        check=True,
        capture_output=True,
    )
    from game.net.server import TableServer, bound_port, start_server, tls_context

    async def scenario() -> tuple[str, bool]:
        table_server = TableServer(None)
        server = await start_server(table_server, "127.0.0.1", 0, tls_context(cert, key))
        port = bound_port(server)
        trusting = ssl.create_default_context(cafile=str(cert))
        try:
            bot = BotClient(f"wss://127.0.0.1:{port}/", tls=trusting)
            welcome = await bot.connect()
            await bot.close()
            # A burst over TLS: many records come in one read, and every message is answered.
            burst = await _hello(f"wss://127.0.0.1:{port}/", ssl=trusting)
            for number in range(1, 201):
                await burst.send(json.dumps({"type": "list_tables", "id": number}))
            answered = {json.loads(await asyncio.wait_for(burst.recv(), 5))["re"] for _ in range(200)}
            await burst.close()
            assert answered == set(range(1, 201))
            refused = False
            try:
                await connect(f"ws://127.0.0.1:{port}/", open_timeout=3)  # plain text is not spoken
            except Exception:
                refused = True
            return welcome["type"], refused
        finally:
            server.close()
            await server.wait_closed()
            table_server.close()

    assert run(scenario()) == ("welcome", True)
    # The serve command refuses a key without a certificate, and files it cannot read.
    for extra in (["--key", str(key)], ["--cert", str(tmp_path / "missing.pem"), "--key", str(key)]):
        result = subprocess.run(
            [sys.executable, "main.py", "serve", "--port", "0", "--no-lan", "--data-dir", str(tmp_path / "d"), *extra],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert result.returncode == 2 and result.stderr.startswith("error:") and "Traceback" not in result.stderr


def test_behind_a_proxy_only_a_forwarded_private_address_is_offered_invite_codes() -> None:
    """Behind a reverse proxy on the server's machine every connection comes from loopback: the
    player's own address is the proxy's ``X-Forwarded-For``. A player from the internet (or with
    no forwarded address) must not be handed the invite codes of the listed tables."""

    async def listed_to(url: str, forwarded: str | None) -> tuple[bool, list[Any]]:
        headers = {"X-Forwarded-For": forwarded} if forwarded is not None else None
        socket = await connect(url, additional_headers=headers)
        await socket.send(json.dumps({"type": "hello", "protocol": protocol.PROTOCOL_VERSION, "id": 0}))
        welcome = json.loads(await socket.recv())
        tables = await _answer(socket, json.dumps({"type": "list_tables", "id": 1}))
        await socket.close()
        return welcome["listed"], [entry["invite"] for entry in tables["tables"]]

    async def scenario() -> None:
        for behind_proxy in (True, False):
            async with running_server(behind_proxy=behind_proxy) as (_, url):
                host = BotClient(url)
                await host.connect()
                created = await create_table(host, "wizard", THREE, {"rounds": 2})
                invite = created["invite"]
                from_internet = await listed_to(url, "8.8.4.4, 1.1.1.1")
                from_home = await listed_to(url, "1.1.1.1, 192.168.1.20")
                unsaid = await listed_to(url, None)
                if behind_proxy:
                    assert from_internet == (False, [None])
                    assert from_home == (True, [invite])
                    assert unsaid == (False, [None])
                else:  # a server reached directly trusts no header: loopback is this machine
                    assert from_internet == from_home == unsaid == (True, [invite])
                await host.close()

    run(scenario())
