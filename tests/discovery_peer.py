"""One end of a discovery test on a host of its own (a network namespace), driven over stdio.

``advertise NAME PORT [--tls]`` or ``browse``: prints one JSON line per event (with the seconds
each call took); ``close`` on stdin (or its end) closes and exits. Every run ends within
``--limit`` seconds even if nobody tells it to stop.
"""

from __future__ import annotations

import argparse
import json
import select
import sys
import time
from dataclasses import asdict

from game.net.discovery import advertise, browse


def _say(**event: object) -> None:
    print(json.dumps(event), flush=True)


def _close_asked(deadline: float, wait: float) -> bool:
    """Whether stdin said "close" (or ended), waiting at most ``wait`` seconds; True past ``deadline``."""
    if time.monotonic() >= deadline:
        return True
    ready, _, _ = select.select([sys.stdin], [], [], wait)
    return bool(ready) and sys.stdin.readline().strip() in ("close", "")


def _advertise(name: str, port: int, tls: bool, deadline: float) -> None:
    started = time.monotonic()
    advertiser = advertise(port, name, tls=tls)
    _say(event="started", seconds=time.monotonic() - started, active=advertiser.active)
    registered = advertiser.wait_registered(max(0.0, deadline - time.monotonic()))
    _say(event="registered", ok=registered, name=advertiser.name, active=advertiser.active)
    while not _close_asked(deadline, 0.5):
        pass
    started = time.monotonic()
    advertiser.close()
    _say(event="closed", seconds=time.monotonic() - started)


def _browse(deadline: float) -> None:
    started = time.monotonic()
    browser = browse()
    _say(event="started", seconds=time.monotonic() - started, active=browser.active, servers=[])
    last: list[dict[str, object]] = []
    while not _close_asked(deadline, 0.05):
        servers = [asdict(server) | {"compatible": server.compatible} for server in browser.servers()]
        if servers != last:
            _say(event="servers", servers=servers)
            last = servers
    started = time.monotonic()
    browser.close()
    _say(event="closed", seconds=time.monotonic() - started)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--limit", type=float, default=8.0)
    commands = parser.add_subparsers(dest="command", required=True)
    advertise_command = commands.add_parser("advertise")
    advertise_command.add_argument("name")
    advertise_command.add_argument("port", type=int)
    advertise_command.add_argument("--tls", action="store_true")
    commands.add_parser("browse")
    arguments = parser.parse_args()
    deadline = time.monotonic() + arguments.limit
    if arguments.command == "advertise":
        _advertise(arguments.name, arguments.port, arguments.tls, deadline)
    else:
        _browse(deadline)


if __name__ == "__main__":
    main()
