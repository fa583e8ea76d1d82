"""The Redis side of a lobby of servers: its key names, its atomic scripts and the client.

Imported only by ``serve --redis``: the ``redis`` package is loaded here, lazily,
so the desktop program and its build never need it. ``StoreHealth`` says whether
Redis answers, and logs an outage once when it starts and once when it ends.
"""

from __future__ import annotations

# Keys (all under ``tricktable:``):
#   server:<id>   the server's advertised URL; its TTL is the server's lease (its heartbeat)
#   servers       set of the ids of every server that registered (dead ones are cleaned up)
#   held:<id>     set of the tables server <id> holds
#   tables        set of every unfinished table of the lobby
#   table:<id>    hash: owner, epoch, and the directory's fields (name, game, rules, ...)
#   journal:<id>  list of the table's log lines (table_log's lines, as JSON text)
#   invite:<code> the table an invite code opens
# A finished table leaves ``tables`` and its owner's ``held``; its hash, journal and invite
# expire a day later.

import logging
from typing import Any

log = logging.getLogger("tricktable.server")

PREFIX = "tricktable:"
FINISHED_KEPT_SECONDS = 86_400


def server_key(server_id: str) -> str:
    return f"{PREFIX}server:{server_id}"


def held_key(server_id: str) -> str:
    return f"{PREFIX}held:{server_id}"


def table_key(table_id: str) -> str:
    return f"{PREFIX}table:{table_id}"


def journal_key(table_id: str) -> str:
    return f"{PREFIX}journal:{table_id}"


def invite_key(code: str) -> str:
    return f"{PREFIX}invite:{code}"


SERVERS = f"{PREFIX}servers"
TABLES = f"{PREFIX}tables"

# A new table: its hash (owner, epoch 1, directory fields), its first journal line, its
# place in the directory, its owner's set and its invite. 0 if the id is taken already (1 if
# it was this server's, made by a batch whose answer was lost and that is written again).
# KEYS: table hash, journal, tables, owner's held set, invite. ARGV: table id, owner, header, fields...
CREATE_SCRIPT = """
if redis.call('EXISTS', KEYS[1]) == 1 then
  if redis.call('HGET', KEYS[1], 'owner') == ARGV[2] and redis.call('LLEN', KEYS[2]) >= 1 then return 1 end
  return 0
end
redis.call('HSET', KEYS[1], 'owner', ARGV[2], 'epoch', 1, unpack(ARGV, 4))
redis.call('RPUSH', KEYS[2], ARGV[3])
redis.call('SADD', KEYS[3], ARGV[1])
redis.call('SADD', KEYS[4], ARGV[1])
redis.call('SET', KEYS[5], ARGV[1])
return 1
"""

# Lines appended only while the table's epoch is still the writer's (fencing): a server that
# lost the table can never write into it again. The journal's length before them is given
# too: a batch written again after its answer was lost is not appended twice. A finished
# table leaves the directory.
# KEYS: table hash, journal, tables, owner's held set, invite.
# ARGV: epoch, table id, finished (0/1), journal length before, line count n, n lines, fields...
APPEND_SCRIPT = """
if redis.call('HGET', KEYS[1], 'epoch') ~= ARGV[1] then return 0 end
local n = tonumber(ARGV[5])
local length = redis.call('LLEN', KEYS[2])
if length == tonumber(ARGV[4]) then
  for i = 6, 5 + n do redis.call('RPUSH', KEYS[2], ARGV[i]) end
elseif length ~= tonumber(ARGV[4]) + n then
  return 0
end
if #ARGV > 5 + n then redis.call('HSET', KEYS[1], unpack(ARGV, 6 + n)) end
if ARGV[3] == '1' then
  redis.call('SREM', KEYS[3], ARGV[2])
  redis.call('SREM', KEYS[4], ARGV[2])
  for _, key in ipairs({KEYS[1], KEYS[2], KEYS[5]}) do redis.call('EXPIRE', key, KEPT) end
end
return 1
""".replace("KEPT", str(FINISHED_KEPT_SECONDS))

# A dead server's table taken over: only while its owner is still the dead server and the
# dead server's lease is gone; the epoch goes up, so the old owner's writes are refused.
# KEYS: table hash, old owner's lease, old owner's held set, new owner's held set.
# ARGV: table id, old owner, new owner. Returns the new epoch, or 0.
CLAIM_SCRIPT = """
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[2] then return 0 end
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
local epoch = redis.call('HINCRBY', KEYS[1], 'epoch', 1)
redis.call('HSET', KEYS[1], 'owner', ARGV[3])
redis.call('SREM', KEYS[3], ARGV[1])
redis.call('SADD', KEYS[4], ARGV[1])
return epoch
"""


def connect(url: str, timeout: float) -> Any:
    """A ``redis.asyncio`` client for ``url`` that fails fast (``timeout`` seconds, and one retry
    only, for a pooled connection that Redis closed when it restarted: the callers keep what they
    could not write and try again themselves)."""
    import redis.asyncio
    from redis.backoff import NoBackoff
    from redis.asyncio.retry import Retry

    return redis.asyncio.Redis.from_url(
        url,
        socket_timeout=timeout,
        socket_connect_timeout=timeout,
        retry=Retry(NoBackoff(), 1),
        health_check_interval=0,
    )


def store_errors() -> tuple[type[BaseException], ...]:
    """The exceptions that mean Redis did not answer (or answered with an error)."""
    import redis.exceptions

    return (redis.exceptions.RedisError, OSError, TimeoutError)


class StoreUnreachable(OSError):
    """Redis did not answer when the server joined the lobby."""


class StoreHealth:
    """Whether Redis answers: an outage is logged once when it begins and once when it ends."""

    def __init__(self) -> None:
        self.up = True

    def failed(self, error: BaseException) -> None:
        if self.up:
            self.up = False
            log.warning("Redis cannot be reached (%s): tables go on in memory, new tables are refused", error)

    def answered(self) -> None:
        if not self.up:
            self.up = True
            log.warning("Redis answers again: the lines kept meanwhile are written")
