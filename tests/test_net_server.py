"""The server, for real: a server on a loopback port and real WebSocket clients (``BotClient``)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect

from game.net.bot_client import BotClient, create_table, take_seat
from game.net.protocol import PROTOCOL_VERSION
from game.persistence.history_replay import check_game
from net_servers import run, running_server


async def _two_players(
    game: str, players: int, data_dir: Path | None = None
) -> tuple[dict[str, Any], dict[str, Any], dict[str, BotClient]]:
    async with running_server(data_dir) as (_, url):
        host, guest = BotClient(url, seed=1, record=True), BotClient(url, seed=2, record=True)
        await host.connect()
        await guest.connect()
        seats = [{"kind": "host", "name": "Ann"}, {"kind": "open"}] + [
            {"kind": "computer", "level": "random"} for _ in range(players - 2)
        ]
        created = await create_table(host, game, seats, {"rounds": 6} if game == "wizard" else {})
        assert await take_seat(guest, created["invite"], "Bob") == 1
        started = await host.request({"type": "start", "table": created["table"], "host_token": created["host_token"]})
        assert started["type"] != "error", started
        first, second = await asyncio.gather(host.finish(30), guest.finish(30))
        await host.close()
        await guest.close()
        return first, second, {"host": host, "guest": guest}


@pytest.mark.parametrize(("game", "players"), [("bidwhist", 4), ("wizard", 3)])
def test_two_players_and_computers_play_a_whole_game_through_the_server(game: str, players: int) -> None:
    first, second, bots = run(_two_players(game, players))
    assert first == second and first["complete"]
    assert check_game(first) == []  # the record replays clean
    assert [player["name"] for player in first["players"]][:2] == ["Ann", "Bob"]
    for bot in bots.values():
        # Numbers run on with no gap, and the last step says the game is over.
        numbers = [event["n"] for frame in bot.frames if frame["type"] == "step" for event in frame["events"]]
        assert numbers == list(range(1, len(numbers) + 1))
        assert bot.steps[next(iter(bot.tokens))]["state"]["over"]


async def _hello_rules(url: str) -> list[dict[str, Any]]:
    answers = []
    async with connect(url) as socket:
        await socket.send(json.dumps({"type": "list_tables", "id": 1}))
        answers.append(json.loads(await socket.recv()))
    async with connect(url) as socket:
        await socket.send(json.dumps({"type": "hello", "protocol": PROTOCOL_VERSION + 1, "id": 2}))
        answers.append(json.loads(await socket.recv()))
    return answers


def test_hello_comes_first_and_names_the_version() -> None:
    async def scenario() -> list[dict[str, Any]]:
        async with running_server() as (_, url):
            return await _hello_rules(url)

    not_hello, wrong_version = run(scenario())
    assert not_hello["code"] == "hello_first"
    assert wrong_version["code"] == "version" and wrong_version["params"]["server"] == PROTOCOL_VERSION


async def _away_and_back(stand_in_after: float | None) -> tuple[list[dict[str, Any]], dict[str, Any], bool]:
    async with running_server(tick_seconds=0.2) as (_, url):
        # Ann takes her time, so the game is still on when Bob comes back.
        host, guest = BotClient(url, seed=1, record=True, pace=0.2), BotClient(url, seed=2)
        await host.connect()
        await guest.connect()
        seats = [{"kind": "host", "name": "Ann"}, {"kind": "open"}, {"kind": "computer", "level": "random"}]
        created = await create_table(host, "wizard", seats, {"rounds": 4}, stand_in_after=stand_in_after)
        await take_seat(guest, created["invite"], "Bob")
        guest.hold = lambda step: step["state"]["deal"] == 2  # Bob leaves in the second round...
        await host.request({"type": "start", "table": created["table"], "host_token": created["host_token"]})
        deadline = asyncio.get_running_loop().time() + 20
        while guest.playing and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.02)
        await guest.close()  # ... his program closed: the link drops
        away_after = host.steps[0]["state"]["last"]  # the last event Ann had seen then
        await asyncio.sleep(0.9)  # the server looks every 0.2 s here: the stand-in starts within 0.7 s
        # Whether Bob's seat played while he was away (Ann and the computer may play up to his
        # turn either way: how many moves that is depends on who deals, so it is not counted).
        went_on = any(
            event["event"].get("seat") == 1 and event["event"]["type"] in ("BidMade", "CardPlayed")
            for frame in host.frames
            if frame["type"] == "step"
            for event in frame["events"]
            if event["n"] > away_after
        )
        await guest.reconnect()  # and comes back to his own seat
        host.pace = 0.0  # the rest of the game at full speed
        await guest.play_on()
        history = await host.finish(30)
        await guest.finish(30)
        await host.close()
        await guest.close()
        presence = [frame for frame in host.frames if frame["type"] == "presence"]
        return presence, history, went_on


def test_a_computer_stands_in_for_a_player_away_longer_than_the_host_allows() -> None:
    presence, history, went_on = run(_away_and_back(0.5))
    bob = [next(seat for seat in frame["seats"] if seat["seat"] == 1) for frame in presence]
    assert any(not seat["connected"] and seat["away"] is not None for seat in bob)  # "waiting for Bob (0:01)"
    assert any(seat["stand_in"] for seat in bob) and went_on  # a computer played on for him
    assert bob[-1]["connected"] and not bob[-1]["stand_in"]  # until he came back
    assert history["complete"] and check_game(history) == []


def test_without_a_stand_in_the_table_waits_for_the_player() -> None:
    presence, history, went_on = run(_away_and_back(None))
    assert not went_on and not any(seat["stand_in"] for frame in presence for seat in frame["seats"])
    assert history["complete"]


def test_two_servers_never_share_a_folder_of_table_logs(tmp_path: Path) -> None:
    from game.net.server import TableServer
    from game.net.table_log import FolderInUseError

    first = TableServer(tmp_path)
    with pytest.raises(FolderInUseError):
        TableServer(tmp_path)  # it would resume the same tables and write into the same logs
    first.close()
    TableServer(tmp_path).close()  # once the first has stopped, the folder is free


def test_the_host_fills_moves_and_frees_seats_before_the_start() -> None:
    async def scenario() -> dict[str, Any]:
        async with running_server() as (_, url):
            host, ann, bob = (BotClient(url, seed=n, record=True) for n in (1, 2, 3))
            for bot in (host, ann, bob):
                await bot.connect()
            seats = [{"kind": "host", "name": "Hal"}, {"kind": "open"}, {"kind": "open"}]
            created = await create_table(host, "wizard", seats, {"rounds": 1})
            table, token = created["table"], created["host_token"]
            seen: dict[str, Any] = {}

            async def ask(bot: BotClient, message: dict[str, Any]) -> dict[str, Any]:
                return await bot.request({"table": table, "host_token": token, **message})

            seen["early_start"] = (await ask(host, {"type": "start"}))["code"]
            assert await take_seat(ann, created["invite"], "Ann") == 1
            seen["guest_moves"] = (
                await ann.request({"type": "move_seat", "table": table, "host_token": "x", "seat": 1, "to": 2})
            )["code"]
            await ask(host, {"type": "move_seat", "seat": 1, "to": 2})  # Ann to seat 2
            seen["moved"] = next(frame for frame in ann.frames if frame["type"] == "seat_moved")
            assert await take_seat(bob, created["invite"], "Bob") == 1
            await ask(host, {"type": "set_seat", "seat": 1, "kind": "computer", "level": "easy"})  # Bob out
            seen["lost"] = next(frame for frame in bob.frames if frame["type"] == "seat_lost")
            seen["bad_level"] = (await ask(host, {"type": "set_seat", "seat": 1, "kind": "computer", "level": "god"}))[
                "code"
            ]
            await ann.request({"type": "leave", "table": table})  # Ann leaves before the start: seat 2 is free again
            seen["lobby"] = [frame for frame in host.frames if frame["type"] == "lobby"][-1]
            seen["refill"] = await take_seat(bob, created["invite"], "Bob")
            await ask(host, {"type": "start"})
            seen["late_move"] = (await ask(host, {"type": "move_seat", "seat": 0, "to": 1}))["code"]
            for bot in (host, ann, bob):
                await bot.close()
            return seen

    seen = run(scenario())
    assert seen["early_start"] == "seats_not_filled"
    assert seen["guest_moves"] == "not_host"
    assert (seen["moved"]["seat"], seen["moved"]["to"]) == (1, 2)
    assert seen["lost"]["seat"] == 1
    assert seen["bad_level"] == "bad_seats"
    lobby = seen["lobby"]["seats"]
    assert [seat["kind"] for seat in lobby] == ["host", "computer", "open"]
    assert lobby[2]["taken"] is False and lobby[0]["name"] == "Hal"
    assert seen["refill"] == 2
    assert seen["late_move"] == "started"


def test_a_finished_table_and_a_table_left_let_go_of_what_was_kept_for_their_steps() -> None:
    """A server up for weeks must not keep what it wrote for games long over: the table's own
    caches go when its game ends, each connection's last steps when it leaves the table, and
    the rest when the finished table is forgotten."""
    now = [0.0]

    async def scenario() -> None:
        async with running_server(clock=lambda: now[0]) as (table_server, url):
            host, guest = BotClient(url, seed=1), BotClient(url, seed=2)
            await host.connect()
            await guest.connect()
            seats = [{"kind": "host", "name": "Ann"}, {"kind": "open"}, {"kind": "computer", "level": "random"}]
            created = await create_table(host, "wizard", seats, {"rounds": 2})
            await take_seat(guest, created["invite"], "Bob")
            await host.request({"type": "start", "table": created["table"], "host_token": created["host_token"]})
            await asyncio.gather(host.finish(30), guest.finish(30))
            table_id = created["table"]
            table = table_server.tables[table_id]
            connections = list(table_server.at_table[table_id])
            assert len(connections) == 2 and all(conn.sent_steps for conn in connections)
            assert not table._event_texts and not table._view_memo  # the game is over: its caches went
            leaving = next(conn for conn in connections if 1 in conn.held.get(table_id, {}))
            await guest.request({"type": "leave", "table": table_id, "seat": 1})
            assert not any(key[0] == table_id for key in leaving.sent_steps)
            staying = next(conn for conn in connections if conn is not leaving)
            assert any(key[0] == table_id for key in staying.sent_steps)
            now[0] += 10_000  # long after the game: the next tick forgets the table
            table_server.tick()
            assert table_id not in table_server.tables
            assert not any(key[0] == table_id for key in staying.sent_steps)
            await host.close()
            await guest.close()

    run(scenario())
