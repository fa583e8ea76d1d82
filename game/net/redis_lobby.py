"""``RedisLobby``: the servers of a lobby and its table directory, as Redis holds them.

Each server renews a lease key (its heartbeat) holding its advertised URL; a
server whose key expired is dead. The directory is a hash per table and a set of
every unfinished table. Taking a dead server's table over is one atomic claim
that bumps the table's epoch, read together with the table's journal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from game.net import redis_store as keys


@dataclass(frozen=True)
class Claimed:
    """A table this server took over: its new epoch and its journal's lines."""

    table_id: str
    epoch: int
    lines: list[bytes]


def _text(value: Any) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


class RedisLobby:
    def __init__(self, client: Any, server_id: str, url: str, lease_seconds: float) -> None:
        self.client = client
        self.server_id = server_id
        self.url = url
        self.lease_seconds = lease_seconds

    async def heartbeat(self) -> None:
        """Renew this server's lease (and register it)."""
        pipe = self.client.pipeline(transaction=False)
        pipe.set(keys.server_key(self.server_id), self.url, px=max(1, round(self.lease_seconds * 1000)))
        pipe.sadd(keys.SERVERS, self.server_id)
        await pipe.execute()

    async def leave(self) -> None:
        """This server stops: its lease goes at once (its tables are taken over at once)."""
        await self.client.delete(keys.server_key(self.server_id))

    async def servers(self) -> dict[str, str | None]:
        """Every registered server: its URL, or None when its lease ran out (dead)."""
        ids = sorted(_text(member) for member in await self.client.smembers(keys.SERVERS))
        if not ids:
            return {}
        urls = await self.client.mget([keys.server_key(server) for server in ids])
        return {server: (_text(url) if url is not None else None) for server, url in zip(ids, urls)}

    async def tables_of(self, server_id: str) -> list[str]:
        return sorted(_text(member) for member in await self.client.smembers(keys.held_key(server_id)))

    async def forget_server(self, server_id: str) -> None:
        """A dead server that holds no table any more leaves the list."""
        await self.client.srem(keys.SERVERS, server_id)

    async def directory(self, limit: int) -> list[dict[str, str]]:
        """Every unfinished table of the lobby (at most ``limit``): its hash's fields, and ``table``."""
        table_ids = sorted(_text(member) for member in await self.client.smembers(keys.TABLES))[:limit]
        pipe = self.client.pipeline(transaction=False)
        for table_id in table_ids:
            pipe.hgetall(keys.table_key(table_id))
        entries = []
        for table_id, raw in zip(table_ids, await pipe.execute()):
            if raw:
                entry = {_text(key): _text(value) for key, value in raw.items()}
                entries.append({**entry, "table": table_id})
        return entries

    async def table_of_invite(self, code: str) -> str | None:
        table_id = await self.client.get(keys.invite_key(code))
        return _text(table_id) if table_id is not None else None

    async def owner(self, table_id: str) -> tuple[str | None, str | None, bool]:
        """Who holds ``table_id``: its owner's id, the owner's URL (None: its lease ran out),
        and whether the table is still in the directory (unfinished)."""
        pipe = self.client.pipeline(transaction=False)
        pipe.hget(keys.table_key(table_id), "owner")
        pipe.sismember(keys.TABLES, table_id)
        owner, listed = await pipe.execute()
        if owner is None:
            return None, None, False
        owner = _text(owner)
        url = await self.client.get(keys.server_key(owner))
        return owner, (_text(url) if url is not None else None), bool(listed)

    async def claim(self, table_id: str, dead_owner: str) -> Claimed | None:
        """Take ``table_id`` from ``dead_owner`` (only if its lease is gone and it still holds it):
        the table's new epoch and its journal; None when the claim failed."""
        pipe = self.client.pipeline(transaction=False)
        pipe.eval(
            keys.CLAIM_SCRIPT,
            4,
            keys.table_key(table_id),
            keys.server_key(dead_owner),
            keys.held_key(dead_owner),
            keys.held_key(self.server_id),
            table_id,
            dead_owner,
            self.server_id,
        )
        pipe.lrange(keys.journal_key(table_id), 0, -1)
        epoch, lines = await pipe.execute()
        if not epoch:
            return None
        return Claimed(table_id, int(epoch), list(lines))
