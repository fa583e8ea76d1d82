"""The self-test's network check: a server in this process and one player on loopback play a short game.

It proves a build carries what network play needs (websockets, zeroconf's compiled
parts, the server and the wire codec) by using them, never by importing alone.
"""

from __future__ import annotations

import json
from typing import Any

from game.net import protocol
from game.net.server import ServerThread, TableServer

SECONDS = 20.0  # the whole check's bound


class NetworkCheckError(RuntimeError):
    """The network check did not get through its game."""


def check_network_play() -> str:
    """Play one round of Wizard against two server computers over a loopback WebSocket; a summary."""
    from websockets.sync.client import connect

    import game.net.discovery  # noqa: F401  (zeroconf's compiled modules must load in the build)

    table_server = TableServer(None, "self-test")
    thread = ServerThread(table_server, "127.0.0.1", 0)
    port = thread.start()
    try:
        with connect(f"ws://127.0.0.1:{port}/", open_timeout=5, close_timeout=1) as socket:
            frames = _play(socket)
    finally:
        thread.stop()
    return f"a network game over loopback ({frames} frames)"


def _play(socket: Any) -> int:
    def send(message: dict[str, Any]) -> None:
        socket.send(json.dumps(message))

    send({"type": "hello", "protocol": protocol.PROTOCOL_VERSION, "app": "self-test"})
    seats = [{"kind": "host", "name": "Self-test"}] + [{"kind": "computer", "level": "easy"}] * 2
    send({"type": "create_table", "rules": {"game": "wizard", "values": {"rounds": 2}}, "seats": seats, "name": "t"})
    frames, table, acted = 0, "", set()
    while True:
        frame = json.loads(socket.recv(timeout=SECONDS))
        frames += 1
        kind = frame.get("type")
        if kind in ("error", "refused"):
            raise NetworkCheckError(f"the server refused: {frame.get('code')} {frame.get('message')}")
        if kind == "table_created":
            table = frame["table"]
            send({"type": "start", "table": table, "host_token": frame["host_token"]})
        elif kind == "game_over":
            if not frame["history"].get("complete"):
                raise NetworkCheckError("the game's record is not complete")
            return frames
        elif kind == "step" and frame["viewer"] == 0:
            state = frame["state"]
            at = state["position"][0]
            if at in acted:
                continue
            if state["phase"] == "hand_over":
                acted.add(at)
                send({"type": "ready", "table": table, "seat": 0, "at": at})
            elif state["current"] == 0:
                acted.add(at)
                action = frame["view"]["legal_actions"][0]
                send({"type": "act", "table": table, "seat": 0, "action": action, "at": at})
