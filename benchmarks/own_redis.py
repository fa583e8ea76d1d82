"""A redis-server of a benchmark's own: the tests' ``RedisServer``, in a temporary folder.

``own_redis_server(appendfsync)`` starts it (append-only file on) and stops it at the
end; ``process_cpu_seconds(pid)`` reads a process's CPU from /proc, as the benchmarks
measure their servers and Redis from outside.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent


@contextlib.contextmanager
def own_redis_server(appendfsync: str = "always") -> Iterator[Any]:
    """A started ``RedisServer`` (tests/redis_server.py) with ``appendfsync``; stopped at the end."""
    sys.path.insert(0, str(REPO_ROOT / "tests"))
    from redis_server import RedisServer  # tests/ is on the path just above

    with tempfile.TemporaryDirectory(prefix="tricktable-bench-redis-") as folder:
        redis = RedisServer(Path(folder), appendfsync)
        redis.start()
        try:
            yield redis
        finally:
            redis.stop()


def process_cpu_seconds(pid: int) -> float:
    """User plus system time process ``pid`` has used so far (/proc/PID/stat)."""
    text = Path(f"/proc/{pid}/stat").read_text()
    fields = text[text.rindex(")") + 2 :].split()  # after the command name, which may hold spaces
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime and stime, fields 14 and 15
