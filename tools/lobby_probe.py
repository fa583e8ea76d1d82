"""Ask a Trick Table server what it holds: its name, the servers of its lobby, the tables.

Run ``python -m tools.lobby_probe wss://host:8443/a/ [--cafile cert.pem] [--create NAME]``.
For whoever runs servers: is this one up, through its proxy and TLS, and what does its lobby
see? ``--create`` opens a table there first (one computer seat and three open ones).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import ssl
import sys
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import WebSocketException

from game.net.protocol import PROTOCOL_VERSION, SERVER_FRAME_LIMIT


async def probe(url: str, cafile: str | None = None, create: str | None = None) -> list[str]:
    """The lines the probe prints (``OSError`` and the like when the server cannot be reached)."""
    tls = ssl.create_default_context(cafile=cafile) if url.startswith("wss:") else None
    async with connect(url, ssl=tls, open_timeout=10, max_size=SERVER_FRAME_LIMIT, proxy=None) as socket:

        async def ask(message: dict[str, Any], answer: str) -> dict[str, Any]:
            await socket.send(json.dumps(message))
            while True:
                reply = json.loads(await asyncio.wait_for(socket.recv(), 10))
                if reply.get("type") == "error":
                    raise RuntimeError(f"the server refused {message['type']}: {reply.get('message')}")
                if reply.get("type") == answer:
                    return reply

        welcome = await ask({"type": "hello", "protocol": PROTOCOL_VERSION, "app": "lobby_probe", "id": 1}, "welcome")
        lines = [f"server: {welcome.get('server')} (protocol {welcome.get('protocol')})"]
        lines.append("lobby: " + (", ".join(welcome.get("servers") or []) or "this server alone"))
        if create is not None:
            seats = [{"kind": "computer", "level": "easy"}] + [{"kind": "open"}] * 3
            rules = {"game": "bidwhist", "values": {}}
            made = await ask(
                {"type": "create_table", "id": 2, "rules": rules, "seats": seats, "name": create}, "table_created"
            )
            lines.append(f"made table {made['table']} ({create}), invite {made['invite']}")
        tables = (await ask({"type": "list_tables", "id": 3}, "tables"))["tables"]
        for table in tables:
            where = table.get("url") or "this server"
            state = "playing" if table.get("started") else f"{table.get('free_seats')} seat(s) free"
            lines.append(f"table {table['table']} {table['name']!r}: {table['game']}, {state}, held by {where}")
        if not tables:
            lines.append("no tables")
        return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("url", help="the server's ws:// or wss:// address")
    parser.add_argument("--cafile", help="the certificate to trust for wss:// (a self-signed one)")
    parser.add_argument("--create", metavar="NAME", help="open a table named NAME there first")
    args = parser.parse_args(argv)
    try:
        lines = asyncio.run(probe(args.url, args.cafile, args.create))
    except (OSError, TimeoutError, RuntimeError, ValueError, WebSocketException) as error:
        print(f"{args.url}: {error or type(error).__name__}", file=sys.stderr)
        return 1
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
