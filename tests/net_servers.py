"""Real servers for the network tests: a ``TableServer`` on a free loopback port, in the test's loop."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Coroutine
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

from game.net.server import TableServer, bound_port, start_server

T = TypeVar("T")


@asynccontextmanager
async def running_server(data_dir: Path | None = None, **options: object) -> AsyncIterator[tuple[TableServer, str]]:
    """A server on 127.0.0.1 (a port the system picks) and its ``ws://`` address. Bots play
    faster than people: the rate limit is raised unless a test sets it."""
    options = {"rate_per_second": 10_000.0, "rate_burst": 10_000, **options}
    table_server = TableServer(data_dir, **options)  # type: ignore[arg-type]  # the tests pass TableServer's own keywords
    server = await start_server(table_server, "127.0.0.1", 0)
    try:
        yield table_server, f"ws://127.0.0.1:{bound_port(server)}/"
    finally:
        server.close()
        await asyncio.wait_for(server.wait_closed(), 5)
        table_server.close()


def run(coroutine: Coroutine[Any, Any, T], timeout: float = 60.0) -> T:
    """Run ``coroutine`` to its end, failing after ``timeout`` seconds."""
    return asyncio.run(asyncio.wait_for(coroutine, timeout))
