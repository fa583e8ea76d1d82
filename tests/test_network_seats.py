"""The seat tokens kept to rejoin network tables (game/settings/network_seats.py)."""

from __future__ import annotations

import json
import logging
import os
import sys

import pytest

from game.rules import make_rules
from game.session.match import Match, Seat
from game.settings.network_seats import MOST_TABLES, RememberedTable, forget, remember, remembered, seats_file
from game.settings.paths import UserPaths
from net_fixture import TABLE, TOKEN, FixtureServer
from test_net_remote_session import connect, wait_for


@pytest.fixture
def paths(tmp_path) -> UserPaths:
    return UserPaths.from_data_dir(tmp_path / "data")


def test_seats_are_remembered_newest_first_replaced_and_forgotten(paths) -> None:
    assert remembered(paths) == []
    assert remember(paths, "ws://192.168.1.20:47123/", "t1", {1: "tok-a"}, "Ann's table", "wizard")
    assert remember(paths, "wss://cards.example.org:47123/", "t2", {0: "tok-b", 2: "tok-c"}, "Bob", "bidwhist")
    tables = remembered(paths)
    assert [(entry.table, dict(entry.seats), entry.table_name, entry.game) for entry in tables] == [
        ("t2", {0: "tok-b", 2: "tok-c"}, "Bob", "bidwhist"),
        ("t1", {1: "tok-a"}, "Ann's table", "wizard"),
    ]
    assert tables[0].server_url == "wss://cards.example.org:47123/"
    # The seats held at a table replace what was kept for it (a seat moved by the host).
    remember(paths, "ws://192.168.1.20:47123/", "t1", {3: "tok-a"}, "Ann's table", "wizard")
    assert [(entry.table, dict(entry.seats)) for entry in remembered(paths)] == [
        ("t1", {3: "tok-a"}),
        ("t2", {0: "tok-b", 2: "tok-c"}),
    ]
    assert forget(paths, "t1") and forget(paths, "no such table")
    assert [entry.table for entry in remembered(paths)] == ["t2"]
    if sys.platform != "win32":
        assert os.stat(seats_file(paths)).st_mode & 0o077 == 0  # the tokens are secrets


def test_only_the_newest_tables_are_kept(paths) -> None:
    for number in range(MOST_TABLES + 3):
        remember(paths, "ws://127.0.0.1:1/", f"t{number}", {0: "tok"}, "", "wizard")
    tables = remembered(paths)
    assert len(tables) == MOST_TABLES and tables[0].table == f"t{MOST_TABLES + 2}"


@pytest.mark.parametrize(
    "damage",
    [
        b"{ not json",
        b"\xff\xfe garbage",
        b"[1, 2, 3]",
        b'{"tables": "none"}',
        b"[" * 100_000,
        b" " * (300 * 1024),
    ],
)
def test_a_damaged_file_is_named_read_as_empty_and_kept_aside_on_the_next_write(paths, caplog, damage) -> None:
    path = seats_file(paths)
    path.parent.mkdir(parents=True)
    path.write_bytes(damage)
    with caplog.at_level(logging.WARNING):
        assert remembered(paths) == []
    assert str(path) in caplog.text
    assert path.read_bytes() == damage  # reading never changes it
    assert remember(paths, "ws://127.0.0.1:1/", "t1", {0: "tok"}, "Ann", "wizard")
    assert [entry.table for entry in remembered(paths)] == ["t1"]
    kept = [other for other in path.parent.iterdir() if other.name.startswith(f"{path.name}.bad-")]
    assert len(kept) == 1 and kept[0].read_bytes() == damage


def test_a_bad_entry_costs_only_itself(paths, caplog) -> None:
    good = {
        "server_url": "ws://h:1/",
        "table": "good",
        "seats": {"1": "tok"},
        "table_name": "Ann",
        "game": "wizard",
        "saved_at": 5,
    }
    bad = [
        "not a mapping",
        {**good, "table": "bad1", "server_url": "http://h/"},
        {**good, "table": "bad2", "seats": {"one": "tok"}},
        {**good, "table": "bad3", "seats": {}},
        {**good, "table": "bad4", "seats": {"1": 7}},
        {**good, "table": "bad5", "saved_at": "yesterday"},
        {**good, "table": "x" * 5000},
    ]
    path = seats_file(paths)
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"version": 1, "tables": bad + [{**good, "table_name": "Ann\u200b\x00 the\nhost"}]}))
    with caplog.at_level(logging.WARNING):
        tables = remembered(paths)
    assert tables == [RememberedTable("ws://h:1/", "good", {1: "tok"}, "Ann the host", "wizard", 5.0)]
    assert "cannot be used" in caplog.text


def test_a_disk_that_cannot_be_written_costs_the_convenience_only(paths, caplog) -> None:
    paths.data_dir.parent.mkdir(parents=True, exist_ok=True)
    paths.data_dir.write_text("a file where the data folder should be")
    with caplog.at_level(logging.WARNING):
        assert not remember(paths, "ws://127.0.0.1:1/", "t1", {0: "tok"}, "Ann", "wizard")
        assert remembered(paths) == []
        assert forget(paths, "t1")
    assert "network seats" in caplog.text


def test_a_finished_network_game_forgets_its_seats(tmp_path) -> None:
    """The game over, the table's seats take nothing back: the Join screen no longer offers it."""
    server = FixtureServer()
    try:
        _finish_a_remembered_game(server, tmp_path)
    finally:
        server.stop()


def _finish_a_remembered_game(server: FixtureServer, tmp_path) -> None:
    paths = UserPaths.from_data_dir(tmp_path)
    remember(paths, server.url, TABLE, {0: TOKEN}, "Ann", "bidwhist")
    remember(paths, server.url, "another table", {1: "token"}, "Cy", "wizard")
    session = connect(server, user_paths=paths)
    finished = Match(make_rules("bidwhist", {}, players=4), [Seat(n, "ai:random") for n in ("A", "B", "C", "D")], 9)
    finished.play_out()
    assert session.record_finished()  # the table's end asks before the record arrives
    assert len(remembered(paths)) == 2
    server.send({"type": "game_over", "table": TABLE, "history": finished.history()})
    assert wait_for(lambda: session.poll() is None and (paths.histories_dir / "bidwhist.jsonl").exists())
    assert [entry.table for entry in remembered(paths)] == ["another table"]
    session.close()
