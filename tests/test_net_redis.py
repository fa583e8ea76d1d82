"""A lobby of servers in a real Redis: the directory, the journal, fencing, takeover and outages."""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
import redis

from game.net import protocol, redis_store
from game.net.bot_client import BotClient, carried_out, create_table, take_seat
from game.net import client as client_module
from game.net.client import LINK, NetClient
from game.net.discovery import FoundServer
from game.net.lan_tables import ListedServer, one_row_per_table, read_tables
from game.net.server import TableServer, bound_port, start_server
from game.net.table_host import HostedTable, TableOptions
from game.net.table_log import header_line, replayed, table_from_lines
from game.net.lobby_link import LinkError
from game.net.redis_journal import RedisJournal
from game.net.redis_store import StoreHealth
from game.net.remote_session import RemoteSession
from game.settings.network_seats import remember, remembered
from game.settings.paths import UserPaths
from game.persistence.history_replay import check_game
from game.rules.house_rules import make_rules
from game.ui.scenes.lobby_scene import link_error_words
from game.ui.text import t
from net_servers import run, running_server

if TYPE_CHECKING:
    from redis_server import RedisServer

pytest_plugins = ("redis_server",)  # its fixtures: the module's Redis (redis_server) and redis_url

WIZARD_SEATS = [
    {"kind": "host", "name": "Ann"},
    {"kind": "host", "name": "Bob"},
    {"kind": "computer", "level": "random"},
]


@asynccontextmanager
async def lobby_server(url: str, data_dir: Path | None = None) -> AsyncIterator[tuple[TableServer, str, Any]]:
    """A server of the lobby in ``url``'s Redis, with short leases: the server, its address and
    its listener (closing the listener without leaving the lobby is how a test kills it)."""
    table_server = TableServer(
        data_dir,
        rate_per_second=10_000.0,
        rate_burst=10_000,
        redis_url=url,
        lease_seconds=0.5,
        heartbeat_seconds=0.15,
    )
    assert table_server.lobby is not None
    table_server.lobby.journal.retry_seconds = 0.1  # write through soon after Redis is back
    listener = await start_server(table_server, "127.0.0.1", 0)
    try:
        yield table_server, f"ws://127.0.0.1:{bound_port(listener)}/", listener
    finally:
        listener.close()
        await asyncio.wait_for(listener.wait_closed(), 5)
        assert table_server.lobby is not None
        await table_server.lobby.stop()
        table_server.close()


def kill(table_server: TableServer, listener: Any) -> None:
    """The server stops answering and stops renewing its lease, as if it died."""
    assert table_server.lobby is not None
    for task in list(table_server.lobby._tasks):
        task.cancel()
    listener.close()


def journal(url: str, table_id: str) -> list[bytes]:
    with redis.Redis.from_url(url) as client:
        return list(client.lrange(f"tricktable:journal:{table_id}", 0, -1))


def journal_actions(lines: list[bytes]) -> list[Any]:
    """The moves a journal records: its act, claim and next lines, in order."""
    records = [json.loads(line) for line in lines]
    return [record for record in records if {"act", "claim", "next"} & set(record)]


def last_table(lines: list[bytes]) -> Any:
    """The table as the journal's last line before its end left it."""
    table = None
    for state in replayed([json.loads(line) for line in lines]):
        if state is not None:
            table = state
    return table


async def until(condition: Callable[[], bool], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError("the condition did not come true in time")
        await asyncio.sleep(0.02)


async def hosted_game(
    url: str, seed: int = 1, rounds: int = 2, follow: bool = False
) -> tuple[BotClient, dict[str, Any]]:
    bot = BotClient(url, seed=seed, follow=follow)
    await bot.connect()
    created = await create_table(bot, "wizard", WIZARD_SEATS, {"rounds": rounds})
    return bot, created


async def start(bot: BotClient, created: dict[str, Any]) -> None:
    reply = await bot.request({"type": "start", "table": created["table"], "host_token": created["host_token"]})
    assert carried_out(reply), reply


async def game_held_at_second_deal(url: str) -> tuple[BotClient, dict[str, Any]]:
    """A three-round Wizard game started at ``url``, its bot holding its cards once the second
    deal is dealt (so a test can do something to Redis mid-game)."""
    bot, created = await hosted_game(url, rounds=3)
    bot.hold = lambda step: step["state"]["deal"] == 2
    await start(bot, created)
    await until(lambda: not bot.playing, 20)
    await asyncio.sleep(0.1)
    return bot, created


def test_every_server_lists_every_table_of_the_lobby_with_the_address_of_its_server(redis_url: str) -> None:
    async def scenario() -> None:
        async with lobby_server(redis_url) as (a, url_a, _), lobby_server(redis_url) as (b, url_b, _):
            bot = BotClient(url_a, seed=1)
            await bot.connect()
            seats = [{"kind": "host", "name": "Ann"}, {"kind": "open"}, {"kind": "computer", "level": "random"}]
            created = await create_table(bot, "wizard", seats, {"rounds": 2})
            assert b.lobby is not None
            await b.lobby.scan()  # B learns of A (the scan runs every lease period anyway)
            guest = BotClient(url_b, seed=2)
            welcome = await guest.connect()
            assert sorted(welcome["servers"]) == sorted([url_a, url_b])
            at_b = (await guest.request({"type": "list_tables"}))["tables"]
            at_a = (await bot.request({"type": "list_tables"}))["tables"]
            assert [(entry["table"], entry["url"]) for entry in at_b] == [(created["table"], url_a)]
            assert [(entry["table"], entry["url"]) for entry in at_a] == [(created["table"], None)]
            assert at_b[0]["free_seats"] == 1 and at_b[0]["game"] == "wizard" and at_b[0]["invite"] == created["invite"]
            # The program's Join list, finding both servers on the network, shows the table once: under A.
            found = [FoundServer(name, ("127.0.0.1",), 1, 1, False, name) for name in ("b", "a")]
            rows = one_row_per_table(
                [
                    ListedServer(found[0], read_tables({"tables": at_b}), True),
                    ListedServer(found[1], read_tables({"tables": at_a}), True),
                ]
            )
            assert [[table.table for table in row.tables] for row in rows] == [[], [created["table"]]]
            # A take_seat or resume at the other server is sent to the table's server.
            refused = await guest.request({"type": "take_seat", "invite": created["invite"], "name": "Cy"})
            assert refused["code"] == "moved" and refused["params"]["url"] == url_a
            resume = {"type": "resume", "table": created["table"], "seat": 0, "token": bot.tokens[0], "after": 0}
            assert (await guest.request(resume))["params"]["url"] == url_a
            player = BotClient(url_a, seed=2)  # where the moved said
            await player.connect()
            await take_seat(player, created["invite"], "Cy")
            await start(bot, created)
            await until(lambda: bool(bot.steps), 5)
            listed = (await guest.request({"type": "list_tables"}))["tables"]
            assert listed[0]["started"] is True and listed[0]["free_seats"] == 0  # the directory follows the table
            await asyncio.gather(bot.finish(20), player.finish(20))
            await player.close()
            assert (await guest.request({"type": "list_tables"}))["tables"] == []  # a finished table leaves it
            await bot.close()
            await guest.close()

    run(scenario(), 40)


def test_the_journal_is_the_table_log_and_each_step_goes_out_after_its_line_is_in_redis(
    redis_url: str, tmp_path: Path
) -> None:
    seen: list[tuple[int, int]] = []  # (events the step tells of, events the journal held when it came)

    async def scenario() -> tuple[str, dict[str, Any], TableServer]:
        async with lobby_server(redis_url, tmp_path) as (a, url_a, _):
            bot, created = await hosted_game(url_a)

            def check(client: BotClient, step: dict[str, Any]) -> None:
                table = last_table(journal(redis_url, created["table"]))
                held = table.last_number if table is not None and table.started else 0
                seen.append((step["state"]["last"], held))
                assert step["epoch"] == 1

            bot.on_step = check
            await start(bot, created)
            history = await bot.finish(20)
            await bot.close()
            return created["table"], history, a

    table_id, history, server = run(scenario(), 40)
    lines = journal(redis_url, table_id)
    records = [json.loads(line) for line in lines]
    assert records[0]["format"] == "trick-table-table" and records[0]["table"] == table_id
    assert records[-1] == {"over": True}
    assert table_from_lines(lines) is None  # the game ended: nothing to resume
    table = last_table(lines)
    assert table.match.history()["deals"] == history["deals"]  # the journal replays to the same game
    assert header_line(table).keys() == records[0].keys()
    assert seen and all(told <= held for told, held in seen), seen
    assert not (tmp_path / "tables").exists()  # with --redis, no file logs
    assert server.logs.write_seconds  # what each batch cost was measured


def test_a_server_that_lost_its_table_to_another_never_writes_it_again_and_sends_its_players_there(
    redis_url: str,
) -> None:
    async def scenario() -> None:
        async with lobby_server(redis_url) as (a, url_a, listener_a), lobby_server(redis_url) as (b, url_b, _):
            assert a.lobby is not None and b.lobby is not None
            bot, created = await hosted_game(url_a, follow=True)
            table_id = created["table"]
            bot.hold = lambda step: step["state"]["deal"] == 2 and step["state"]["phase"] == "play"
            await start(bot, created)
            await until(lambda: not bot.playing, 20)
            await asyncio.sleep(0.1)  # the computer may still play its card
            before = len(journal(redis_url, table_id))
            # A stops renewing its lease (a pause, a partition) but still holds the table and its player.
            for task in list(a.lobby._tasks):
                task.cancel()
            await a.lobby.lobby.leave()
            await b.lobby.scan()
            assert table_id in b.tables and b.tables[table_id].epoch == 2
            taken = b.tables[table_id]
            assert all(taken.presence_of(seat).away_since is not None for seat in (0, 1))  # away since the takeover
            await bot.play_on()  # A applies the move, its append is refused, A lets the table go
            await until(lambda: table_id not in a.tables, 5)
            history = await bot.finish(20)
            assert bot.reconnections == 1 and bot.url == url_b
            assert bot.steps[0]["epoch"] == 2
            lines = journal(redis_url, table_id)
            assert last_table(lines).match.history()["deals"] == history["deals"]
            assert check_game(history) == []
            assert len(lines) > before
            await bot.close()
            listener_a.close()

    run(scenario(), 40)


def test_with_redis_away_tables_play_on_new_ones_wait_and_the_lines_are_written_when_it_returns(
    redis_server: RedisServer, redis_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    async def scenario() -> tuple[str, dict[str, Any]]:
        async with lobby_server(redis_url) as (a, url_a, _):
            bot, created = await game_held_at_second_deal(url_a)
            redis_server.stop()
            await bot.play_on()
            history = await bot.finish(20)  # the game went on with Redis away
            other = BotClient(url_a, seed=5)
            await other.connect()
            refused = await other.request(
                {"type": "create_table", "rules": {"game": "wizard", "values": {}}, "seats": WIZARD_SEATS}
            )
            assert refused["type"] == "error" and refused["code"] == "store_unavailable"
            assert "store_unavailable" in protocol.ERROR_CODES
            # The host's program words it for the player (the lobby screen shows it).
            refusal = LinkError(refused["code"], refused["params"], refused["message"], "create_table")
            assert link_error_words(refusal) == t("net.error.store_unavailable") != refused["message"]
            redis_server.start()
            await until(lambda: not a.logs.pending, 10)
            await other.close()
            await bot.close()
            return created["table"], history

    with caplog.at_level(logging.WARNING, logger="tricktable.server"):
        table_id, history = run(scenario(), 60)
    lines = journal(redis_url, table_id)
    assert json.loads(lines[-1]) == {"over": True}
    assert last_table(lines).match.history()["deals"] == history["deals"]
    outages = [record.message for record in caplog.records if "cannot be reached" in record.message]
    returns = [record.message for record in caplog.records if "answers again" in record.message]
    assert len(outages) == 1 and len(returns) == 1, caplog.text


def test_redis_restarted_with_its_data_loses_nothing(redis_server: RedisServer, redis_url: str) -> None:
    async def scenario() -> tuple[str, dict[str, Any], list[Any]]:
        async with lobby_server(redis_url) as (a, url_a, _):
            bot, created = await game_held_at_second_deal(url_a)
            written = journal_actions(journal(redis_url, created["table"]))
            redis_server.restart()
            await bot.play_on()
            history = await bot.finish(20)
            await until(lambda: not a.logs.pending, 10)
            await bot.close()
            return created["table"], history, written

    table_id, history, written = run(scenario(), 60)
    lines = journal(redis_url, table_id)
    assert journal_actions(lines)[: len(written)] == written  # what was there before the restart still is
    assert last_table(lines).match.history()["deals"] == history["deals"]
    assert check_game(history) == []


def test_the_program_s_client_follows_its_table_to_the_server_that_took_it_over(
    redis_url: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(client_module, "FIRST_DELAY", 0.1)  # reconnect sooner than after a real drop
    paths = UserPaths.from_data_dir(tmp_path / "data")

    async def scenario() -> None:
        async with lobby_server(redis_url) as (a, url_a, listener_a), lobby_server(redis_url) as (b, url_b, _):
            assert a.lobby is not None and b.lobby is not None
            await a.lobby.scan()
            host, created = await hosted_game(url_a)
            await start(host, created)
            await until(lambda: bool(host.steps), 5)
            host.playing = False
            # The program's client, sent to the wrong server first: it is moved there quietly.
            client = NetClient(url_b, "test")
            client.hold_seat(created["table"], 1, host.tokens[1])
            client.start()
            arrived: list[dict[str, Any]] = []
            loop = asyncio.get_running_loop()

            def step_at(epoch: int) -> bool:
                arrived.extend(client.messages())
                return any(m["type"] == "step" and m["epoch"] == epoch for m in arrived)

            try:
                await until(lambda: step_at(1), 10)
                assert client.url == url_a
                assert [m["status"] for m in arrived if m["type"] == LINK] == ["connected"]
                # The program kept the seat to rejoin it (as the Join screen does) and plays at the table.
                lobby = next(m for m in arrived if m["type"] == "lobby")
                remember(paths, url_a, created["table"], {1: host.tokens[1]}, lobby["name"], "wizard")
                session = RemoteSession(client, created["table"], {1: host.tokens[1]}, lobby, user_paths=paths)
                await host.close()
                kill(a, listener_a)  # A dies: B takes the table over once A's lease runs out
                await until(lambda: step_at(2), 10)
                assert client.url == url_b and created["table"] in b.tables
                assert [m["status"] for m in arrived if m["type"] == LINK] == ["connected", "lost", "connected"]
                session.poll()  # the seat kept for rejoining follows the table to B
                kept = remembered(paths)
                assert [(entry.table, entry.server_url, dict(entry.seats)) for entry in kept] == [
                    (created["table"], url_b, {1: host.tokens[1]})
                ]
            finally:
                await loop.run_in_executor(None, client.close)

    run(scenario(), 40)


def test_a_server_alone_names_no_other_server_and_loads_no_redis() -> None:
    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        async with running_server() as (_, url):
            bot = BotClient(url)
            welcome = await bot.connect()
            await create_table(bot, "wizard", WIZARD_SEATS)
            tables = await bot.request({"type": "list_tables"})
            await bot.close()
            return welcome, tables

    welcome, tables = run(scenario(), 20)
    assert welcome["servers"] == [] and tables["tables"][0]["url"] is None
    # The redis package is imported only inside the Redis modules' functions, never at the top of
    # a module: the program and its build run without it.
    top_level_import = re.compile(r"^(import|from) redis\b", re.MULTILINE)  # unindented: run as the module loads
    for path in Path("game").rglob("*.py"):
        assert not top_level_import.search(path.read_text(encoding="utf-8")), path
    assert top_level_import.search("import os\nimport redis.asyncio\n")  # (what it looks for)


def test_the_lines_of_every_table_changed_in_one_loop_turn_go_to_redis_in_one_round_trip(redis_url: str) -> None:
    async def scenario() -> list[float]:
        client = redis_store.connect(redis_url, 1.0)
        journal = RedisJournal(client, "server-1", StoreHealth(), on_lost=lambda table_id: None)
        rules = make_rules("wizard", None, 3)
        tables = [HostedTable.create(rules, WIZARD_SEATS, TableOptions(name=f"t{n}"))[0] for n in range(3)]
        for table in tables:  # one loop turn: three new tables
            journal.create(table)
        assert await journal.drain(5)
        for table in tables:  # another: a line for each
            table.start()
            journal.append(table, {"start": True})
        assert await journal.drain(5)
        await client.aclose()
        return journal.write_seconds

    assert len(run(scenario(), 20)) == 2  # two turns, two round trips, whatever the number of tables
    with redis.Redis.from_url(redis_url) as client:
        ids = sorted(member.decode() for member in client.smembers("tricktable:tables"))
        assert len(ids) == 3 and all(client.llen(f"tricktable:journal:{table_id}") == 2 for table_id in ids)
        entry = client.hgetall(f"tricktable:table:{ids[0]}")  # the directory's entry of a table
        assert entry[b"owner"] == b"server-1" and entry[b"epoch"] == b"1" and entry[b"started"] == b"1"
        assert json.loads(entry[b"rules"])["values"]["rounds"] == make_rules("wizard", None, 3).to_dict()["rounds"]
