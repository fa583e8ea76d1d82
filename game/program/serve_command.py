"""``python main.py serve``: a headless Trick Table server for any number of tables.

It keeps its table logs under the data folder (``server/tables``), so a server
stopped or killed and started again holds every unfinished table as it was.
"""

from __future__ import annotations

# SIGINT and SIGTERM stop it cleanly (the logs need no closing: every line is
# whole once written). With ``--cert`` and ``--key`` it speaks TLS (``wss://``).

import argparse
import asyncio
import contextlib
import gc
import importlib.util
import logging
import signal
import ssl
import sys
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

from game.net import protocol
from game.net.discovery import Advertiser, advertise
from game.net.redis_store import StoreUnreachable
from game.net.server import TableServer, bound_port, start_server, tls_context
from game.settings.paths import UserPaths

log = logging.getLogger("tricktable.server")
T = TypeVar("T")

EXIT_USAGE = 2


def add_serve_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    serve = commands.add_parser("serve", help="run a server that holds tables for players on other computers")
    serve.add_argument("--host", default="0.0.0.0", help="the address to listen on (default: every address)")
    serve.add_argument("--data-dir", metavar="DIR", dest="sub_data_dir", help=argparse.SUPPRESS)
    serve.add_argument(
        "--port", type=int, default=protocol.DEFAULT_PORT, help=f"the port (default {protocol.DEFAULT_PORT})"
    )
    serve.add_argument("--name", default="Trick Table", help="the server's name, as players see it")
    serve.add_argument("--cert", metavar="FILE.pem", help="TLS certificate chain (with --key: speak wss://)")
    serve.add_argument("--key", metavar="FILE.pem", help="TLS private key")
    serve.add_argument(
        "--max-tables",
        type=int,
        default=protocol.MAX_TABLES,
        help=f"tables held at once (default {protocol.MAX_TABLES})",
    )
    serve.add_argument(
        "--rate-limit",
        type=float,
        default=protocol.RATE_PER_SECOND,
        metavar="N",
        help=f"messages a second each connection may send (default {protocol.RATE_PER_SECOND:g}; "
        "bursts of twice as many)",
    )
    serve.add_argument("--no-lan", action="store_true", help="do not announce the server on the local network")
    serve.add_argument(
        "--redis",
        metavar="URL",
        help="share one lobby with the other servers using this Redis (redis://host:port/0): "
        "they list each other's tables and take over the tables of a server that dies",
    )
    serve.add_argument(
        "--public-url",
        metavar="URL",
        help="with --redis: where players reach this server (default: ws://HOST:PORT/ as it listens)",
    )
    serve.add_argument(
        "--behind-proxy",
        action="store_true",
        help="players come through a reverse proxy on this machine (which ends TLS): a player's address "
        "is the last one in the proxy's X-Forwarded-For header",
    )
    serve.add_argument(
        "--lease",
        type=float,
        default=3.0,
        metavar="SECONDS",
        help="with --redis: how long a server may stop answering before the others take its tables (default 3)",
    )


def run_serve(args: argparse.Namespace, data_dir: str | None) -> int:
    if (args.cert is None) != (args.key is None):
        print("error: --cert and --key go together", file=sys.stderr)
        return EXIT_USAGE
    if not 0 <= args.port < 65536:
        print(f"error: --port {args.port} is not a port (0 to 65535)", file=sys.stderr)
        return EXIT_USAGE
    if not 0 < args.rate_limit <= 100_000:
        print(f"error: --rate-limit {args.rate_limit:g} is not a rate (more than 0, at most 100000)", file=sys.stderr)
        return EXIT_USAGE
    if not 0.2 <= args.lease <= 600:
        print(f"error: --lease {args.lease:g} is not a lease (0.2 to 600 seconds)", file=sys.stderr)
        return EXIT_USAGE
    if args.public_url is not None and args.redis is None:
        print("error: --public-url goes with --redis", file=sys.stderr)
        return EXIT_USAGE
    if args.public_url is not None and not args.public_url.startswith(("ws://", "wss://")):
        print(f"error: --public-url {args.public_url} is not a ws:// or wss:// address", file=sys.stderr)
        return EXIT_USAGE
    tls = None
    if args.cert is not None:
        try:
            tls = tls_context(Path(args.cert), Path(args.key))
        except (OSError, ssl.SSLError) as error:
            print(f"error: the TLS certificate or key cannot be used: {error}", file=sys.stderr)
            return EXIT_USAGE
    try:
        paths = UserPaths.from_data_dir(data_dir)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_USAGE
    _raise_open_file_limit()
    try:
        table_server = TableServer(
            paths.data_dir / "server",
            args.name,
            max_tables=args.max_tables,
            rate_per_second=args.rate_limit,
            rate_burst=_burst(args.rate_limit),
            redis_url=args.redis,
            public_url=args.public_url,
            lease_seconds=args.lease,
            heartbeat_seconds=args.lease / 3,
            behind_proxy=args.behind_proxy,
        )
    except ImportError:
        print("error: --redis needs the redis package (pip install -r requirements.txt)", file=sys.stderr)
        return 1
    except ValueError as error:  # a Redis URL that cannot be one
        print(f"error: --redis {args.redis}: {error}", file=sys.stderr)
        return EXIT_USAGE
    except OSError as error:
        print(f"error: the server's folder cannot be used: {error}", file=sys.stderr)
        return 1
    try:
        return run_event_loop(_serve(table_server, args, tls))
    except StoreUnreachable as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"error: cannot listen on {args.host}:{args.port}: {error.strerror or error}", file=sys.stderr)
        return 1


def run_event_loop(main: Coroutine[Any, Any, T]) -> T:
    """Run ``main`` (the server's coroutine) on uvloop where it is installed (its event loop and
    transports are written in C: about 12% less server CPU an action at 750 tables,
    ``benchmarks.server``), else on asyncio's own loop."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    log.info("event loop: uvloop %s", uvloop.__version__)
    return uvloop.run(main)


def event_loop_name() -> str:
    """The event loop ``serve`` runs on here: ``uvloop`` or ``asyncio``."""
    return "uvloop" if importlib.util.find_spec("uvloop") is not None else "asyncio"


async def _serve(table_server: TableServer, args: argparse.Namespace, tls: ssl.SSLContext | None) -> int:
    server = await start_server(table_server, args.host, args.port, tls)
    port = bound_port(server)
    scheme = "wss" if tls is not None else "ws"
    resumed = len(table_server.tables)
    lobby = table_server.lobby
    held = f"in the lobby of {args.redis}, as {lobby.public_url}" if lobby is not None else f"{resumed} tables resumed"
    print(f"Trick Table server on {scheme}://{args.host}:{port}/ ({held})", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signal_number in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):  # not on every platform
            loop.add_signal_handler(signal_number, stop.set)
    collector = loop.create_task(keep_collections_short(CollectorPolicy()))
    advertiser = None
    if not args.no_lan:
        advertiser = _advertise(port, args.name, tls is not None)
    try:
        await stop.wait()
    finally:
        if advertiser is not None:
            advertiser.close()
        collector.cancel()
        if lobby is not None:
            await lobby.stop()
        server.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(server.wait_closed(), 3)
        table_server.close()
    if lobby is not None:
        print(lobby.journal.summary(), flush=True)
    print("Trick Table server stopped", flush=True)
    return 0


class CollectorPolicy:
    """How the ``serve`` process collects its garbage: no automatic collections while it
    serves, and one full collection every ``collect_every`` seconds.

    Almost nothing a server makes is cyclic garbage; reference counting frees the rest (at
    1,000 tables, a full collection after 30 s found 1,492 unreachable objects among 771,272).
    Yet Python's automatic collections keep walking the young objects, a table's new views,
    steps and texts, each holding many older ones: measured at 1,000 tables, 11% of the
    server's CPU and a 30 to 40 ms pause of the middle generation every second or so, which
    every player waited through (``benchmarks.server``: p99 210 and 692 ms with them, 31 and
    81 ms without). The cycles (a closed connection's) are freed by the full collection, a
    pause of about a second at 1,000 tables once a quarter of an hour.
    """

    def __init__(self, collect_every: float = 900.0, look_every: float = 1.0) -> None:
        self.collect_every, self.look_every = collect_every, look_every
        self.collected_at: float | None = None

    def step(self, now: float) -> None:
        """Called every ``look_every`` seconds (``now``: a monotonic clock)."""
        if self.collected_at is None:
            self.collected_at = now
        elif now - self.collected_at >= self.collect_every:
            gc.collect()
            self.collected_at = now


async def keep_collections_short(policy: CollectorPolicy) -> None:
    """Apply ``policy`` for as long as the loop runs (the server's, and the load benchmark's
    bots'): automatic collection is off meanwhile, and as it was again after."""
    loop = asyncio.get_running_loop()
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        while True:
            await asyncio.sleep(policy.look_every)
            policy.step(loop.time())
    finally:
        if was_enabled:
            gc.enable()


def _burst(rate: float) -> int:
    """The burst a rate allows: the protocol's for its own rate, else twice the rate a second."""
    if rate == protocol.RATE_PER_SECOND:
        return protocol.RATE_BURST
    return max(1, round(2 * rate))


def _advertise(port: int, name: str, tls: bool) -> Advertiser:
    """Announce the server on the local network (it stays quiet where multicast is blocked)."""
    return advertise(port, name, tls=tls)


def _raise_open_file_limit() -> None:
    """Each player is an open socket: allow as many as the system lets this process have."""
    try:
        import resource  # not on Windows, where the limit is not a problem
    except ImportError:
        return
    with contextlib.suppress(ValueError, OSError):
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft < hard:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
