"""The Join a table screen against a real table server on a loopback port.

Each test runs the server in its own thread (``ServerThread``, port 0) and drives a real
``App`` (SDL dummy video) one frame at a time, typing and clicking as a player would. The
hosts are plain ``NetClient`` connections speaking docs/PROTOCOL.md. Discovery uses real
zeroconf on the loopback interface; every wait is bounded.
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import secrets
import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest

from game.net.client import NetClient
from game.net.discovery import FoundServer, advertise, browse
from game.net.join_attempt import CONNECT_SECONDS, JoinFailure, link_failure
from game.net.protocol import PROTOCOL_VERSION
from game.net.lan_tables import ListedServer, ListedTable, host_url, read_tables, server_url
from game.net.server import ServerThread, TableServer
from game.rules import make_rules
from game.settings.network_seats import remember, remembered
from game.ui.app import App
from game.ui.scenes.join_scene import JoinScene, failure_words
from game.ui.scenes.lobby_scene import LobbyScene, link_error_words
from game.ui.scenes.start_scene import StartScene
from game.ui.table.scene import TableScene
from game.ui.text import t
from test_net_discovery import loopback_multicast  # noqa: F401  (the fixture, used by name)
from test_ui_table import click, key, make_app, step, top_name

LOOPBACK = ["127.0.0.1"]
NO_MULTICAST = ["203.0.113.9"]  # an address no interface here has: discovery is off


# ---------------------------------------------------------------------- helpers
def until(app: App, condition: Callable[[], bool], seconds: float = 10.0) -> bool:
    """Run the app's frames until ``condition`` holds, letting the network threads run."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        step(app)
        time.sleep(0.005)  # the answers travel: let the network threads run
    return condition()


class Host:
    """A program hosting a table (its ``host`` seat is Ann's), as plain protocol messages."""

    def __init__(
        self,
        url: str,
        game: str = "bidwhist",
        players: int = 4,
        name: str = "Ann's table",
        open_seats: int = 1,
        **options: Any,
    ) -> None:
        self.client = NetClient(url, "tests")
        self.client.start()
        self.seen: list[dict[str, Any]] = []
        seats: list[dict[str, Any]] = [{"kind": "host", "name": "Ann"}] + [{"kind": "open"}] * open_seats
        seats += [{"kind": "computer", "level": "random"}] * (players - 1 - open_seats)
        rules = make_rules(game, {}, players=players)
        create = {"type": "create_table", "rules": {"game": game, "values": rules.to_dict()}, "seats": seats}
        self.client.send({**create, "name": name, **options})
        created = self.wait("table_created")
        self.table, self.invite, self.host_token = created["table"], created["invite"], created["host_token"]

    def wait(self, kind: str, seconds: float = 5.0) -> dict[str, Any]:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self.seen.extend(self.client.messages())
            found = [message for message in self.seen if message["type"] == kind]
            if found:
                return found[-1]
            time.sleep(0.002)
        raise AssertionError(f"no {kind} arrived; got {[message['type'] for message in self.seen]}")

    def start(self) -> None:
        self.client.send({"type": "start", "table": self.table, "host_token": self.host_token})

    def close(self) -> None:
        self.client.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[TableServer, str, int]]:
    table_server = TableServer(tmp_path / "server", rate_per_second=10_000.0, rate_burst=10_000)
    thread = ServerThread(table_server, "127.0.0.1")
    port = thread.start()
    yield table_server, f"ws://127.0.0.1:{port}/", port
    thread.stop()


def join_screen(app: App, interfaces: list[str] = NO_MULTICAST) -> JoinScene:
    scene = JoinScene(app, browser=browse(interfaces))
    app.push(scene)
    step(app)
    return scene


def lobby_link(app: App) -> Any:
    """The link of the lobby screen on top."""
    scene = app.scenes[-1]
    assert isinstance(scene, LobbyScene)
    return scene.link


def type_into(app: App, box: Any, text: str) -> None:
    click(app, box.rect.center)
    box.text, box.cursor = "", 0
    step(app, [pygame.event.Event(pygame.TEXTINPUT, text=text)])


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_the_start_screens_join_button_opens_the_join_screen_with_the_last_name(tmp_path) -> None:
    app = make_app(tmp_path / "bob")
    try:
        start = app.scenes[-1]
        assert isinstance(start, StartScene)
        start.names[0] = "Bongani"  # the human seat's name, as the last Start saved it
        start._remember_setup()
        click(app, start.join_button.rect.center)
        join = app.scenes[-1]
        assert isinstance(join, JoinScene) and join.name_input.text == "Bongani"
        step(app, [key(pygame.K_ESCAPE)])
        assert top_name(app) == "StartScene"
    finally:
        app.close(quit_pygame=False)


# ---------------------------------------------------------------------- typing an address
def test_a_typed_invite_joins_that_table_and_the_seat_is_kept(tmp_path, server) -> None:
    table_server, url, port = server
    other, wanted = Host(url, name="Cy's table"), Host(url)
    app = make_app(tmp_path / "bob")
    try:
        scene = join_screen(app, LOOPBACK)
        type_into(app, scene.name_input, "Bob")
        type_into(app, scene.address_input, f"127.0.0.1:{port}/{wanted.invite.lower()}")
        step(app, [key(pygame.K_RETURN)])
        assert scene.status == t("join.connecting", where=f"127.0.0.1:{port}/{wanted.invite}")
        assert until(app, lambda: top_name(app) == "LobbyScene")
        link = lobby_link(app)
        assert link.table == wanted.table and list(link.held) == [1]
        assert [seat.name for seat in table_server.tables[wanted.table].seats][:2] == ["Ann", "Bob"]
        assert all(seat.holder is None for seat in table_server.tables[other.table].seats[1:2])
        # Kept on disk at once: a program closed from here on can still take the seat back.
        [kept] = remembered(app.user_paths)
        assert (kept.server_url, kept.table, dict(kept.seats)) == (url, wanted.table, link.held)
        assert (kept.table_name, kept.game) == ("Ann's table", "bidwhist")
        # The host moves Bob: his token now takes the new seat back.
        wanted.client.send(
            {"type": "move_seat", "table": wanted.table, "host_token": wanted.host_token, "seat": 1, "to": 2}
        )

        def moved() -> bool:
            return list(link.held) == [2] and [dict(e.seats) for e in remembered(app.user_paths)] == [link.held]

        assert until(app, moved)
        # Leaving the lobby before the start gives the seat up: there is nothing to rejoin.
        lobby = app.scenes[-1]
        assert isinstance(lobby, LobbyScene)
        lobby.leave()
        assert top_name(app) == "StartScene" and remembered(app.user_paths) == []
    finally:
        app.close(quit_pygame=False)
        other.close()
        wanted.close()


def test_with_nothing_found_the_screen_says_so_and_a_typed_address_works(tmp_path, server) -> None:
    _, url, port = server
    host = Host(url)
    app = make_app(tmp_path / "bob")
    try:
        scene = join_screen(app, LOOPBACK)
        scene.opened_at -= 10  # long past the first look round
        step(app)
        if not scene.listing:  # (another test may advertise on loopback meanwhile)
            assert scene.list_message() == t("join.nothing_found")
        off = JoinScene(app, browser=browse(NO_MULTICAST))
        assert off.list_message() == t("join.discovery_off")
        off.on_exit()
        type_into(app, scene.name_input, "Bob")
        type_into(app, scene.address_input, f"localhost:{port}/{host.invite}")
        click(app, scene.join_button.rect.center)
        assert until(app, lambda: top_name(app) == "LobbyScene")
        assert lobby_link(app).table == host.table
    finally:
        app.close(quit_pygame=False)
        host.close()


def test_a_bad_code_shows_the_servers_coded_error(tmp_path, server) -> None:
    _, url, port = server
    host = Host(url)
    app = make_app(tmp_path / "bob")
    try:
        scene = join_screen(app)
        type_into(app, scene.name_input, "Bob")
        type_into(app, scene.address_input, f"127.0.0.1:{port}/ZZZZ-ZZZZ")
        step(app, [key(pygame.K_RETURN)])
        assert until(app, lambda: scene.attempt is None)
        assert top_name(app) == "JoinScene" and scene.status_warning
        assert scene.refusal is not None and scene.refusal.code == "bad_invite"
        assert scene.status == link_error_words(scene.refusal)
        assert not remembered(app.user_paths)
    finally:
        app.close(quit_pygame=False)
        host.close()


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("", lambda port: t("join.address_needed")),
        ("not an invite at all", lambda port: t("join.address_bad", text="not an invite at all")),
        ("ABCD-2345", lambda port: t("join.code_needs_address", example="192.168.1.20:47123/ABCD-2345")),
        (
            "127.0.0.1:{port}/ABCD-2345",
            lambda port: failure_words(JoinFailure("refused"), f"ws://127.0.0.1:{port}/"),
        ),
    ],
)
def test_what_cannot_be_joined_is_said_in_words(tmp_path, typed, expected) -> None:
    port = free_port()  # nobody listens there
    app = make_app(tmp_path / "bob")
    try:
        scene = join_screen(app)
        type_into(app, scene.name_input, "Bob")
        if typed:
            type_into(app, scene.address_input, typed.format(port=port))
        click(app, scene.join_button.rect.center)
        assert until(app, lambda: scene.attempt is None, seconds=5.0)
        assert scene.status == expected(port) and scene.status_warning
        assert top_name(app) == "JoinScene"
    finally:
        app.close(quit_pygame=False)


def test_a_bare_code_goes_to_the_one_server_found_and_an_idle_screen_sleeps(tmp_path, server) -> None:
    _, url, port = server
    host = Host(url)
    app = make_app(tmp_path / "bob")
    try:
        scene = join_screen(app)  # discovery off here: the one server is put in the list as if found
        assert scene.wake_in() is None  # nothing to look at and nothing under way: no frames at all
        found = FoundServer("Ann's laptop", ("127.0.0.1",), port, PROTOCOL_VERSION, False, "a._tricktable._tcp.local.")
        scene.listing = [ListedServer(found)]
        type_into(app, scene.name_input, "Bob")
        type_into(app, scene.address_input, host.invite.replace("-", " "))
        step(app, [key(pygame.K_RETURN)])
        assert scene.status == t("join.connecting", where="Ann's laptop")
        assert until(app, lambda: top_name(app) == "LobbyScene")
        assert lobby_link(app).table == host.table
    finally:
        app.close(quit_pygame=False)
        host.close()


def test_a_server_that_never_answers_times_out_in_words(tmp_path) -> None:
    with socket.socket() as silent:  # takes the connection, never answers the handshake
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        port = silent.getsockname()[1]
        app = make_app(tmp_path / "bob")
        try:
            scene = join_screen(app)
            type_into(app, scene.name_input, "Bob")
            type_into(app, scene.address_input, f"127.0.0.1:{port}/ABCD-2345")
            step(app, [key(pygame.K_RETURN)])
            attempt = scene.attempt
            assert attempt is not None and scene.wake_in() == pytest.approx(0.1)  # looked at, never waited on
            step(app)
            assert scene.attempt is attempt and attempt.seconds_left > 7
            attempt.started_at -= CONNECT_SECONDS  # as if eight seconds went by
            step(app)
            assert scene.attempt is None
            assert scene.status == failure_words(JoinFailure("timeout"), f"ws://127.0.0.1:{port}/")
            assert "8" in scene.status
        finally:
            app.close(quit_pygame=False)


def test_a_name_is_asked_for_before_joining(tmp_path) -> None:
    app = make_app(tmp_path / "bob")
    try:
        scene = join_screen(app)
        type_into(app, scene.name_input, "   ")
        type_into(app, scene.address_input, "127.0.0.1:47123/ABCD-2345")
        click(app, scene.join_button.rect.center)
        assert scene.attempt is None and scene.status == t("join.name_needed")
        assert scene.focus.focused is scene.name_input
    finally:
        app.close(quit_pygame=False)


def test_link_failures_are_sorted_into_what_a_player_can_act_on() -> None:
    assert link_failure("Multiple exceptions: [Errno 111] Connect call failed ('127.0.0.1', 1)").code == "refused"
    assert link_failure("[Errno -2] Name or service not known").code == "unknown_host"
    assert link_failure("[Errno 113] No route to host").code == "unreachable"
    assert link_failure("timed out during opening handshake").code == "timeout"
    assert link_failure("version").code == "version"
    assert link_failure("something else").code == "failed"


def test_a_server_advertising_tls_is_reached_over_wss() -> None:
    secure = FoundServer(
        "Ann's server", ("fe80::1%eth0", "192.0.2.7"), 47123, PROTOCOL_VERSION, True, "a._tricktable._tcp.local."
    )
    assert server_url(secure) == "wss://[fe80::1%eth0]:47123/"
    assert host_url("192.0.2.7", 47123) == "ws://192.0.2.7:47123/"


def test_a_listed_tables_row_names_its_server_only_when_the_table_does_not(tmp_path) -> None:
    """A table hosted from the start screen is a server of its own, named like the table: its row
    says the name once. A table of a server with a name of its own keeps the server's name."""
    app = make_app(tmp_path)
    scene = join_screen(app)
    table = ListedTable("t1", "Ann's table", "wizard", 4, 1, False, "ABCD-2345")

    def row_for(server_name: str) -> Any:
        found = FoundServer(server_name, ("127.0.0.1",), 47123, PROTOCOL_VERSION, False, f"{server_name}._tt")
        return scene._table_row(ListedServer(found, (table,), answered=True), table)

    assert row_for("Ann's table").note == ""
    assert row_for("Club night server").note == "Club night server"


# ---------------------------------------------------------------------- found on this network
@pytest.mark.usefixtures("loopback_multicast")
def test_a_table_advertised_on_this_network_is_listed_and_joins_with_a_click(tmp_path, server) -> None:
    _, url, port = server
    host = Host(url, game="wizard", players=4)
    token = secrets.token_hex(3)
    advertiser = advertise(port, f"Ann's server {token}", interfaces=LOOPBACK)
    app = make_app(tmp_path / "bob")
    try:
        scene = join_screen(app, LOOPBACK)
        type_into(app, scene.name_input, "Bob")
        title = "Ann's table"
        wanted = t("join.row", table=title, game=t("start.game.wizard"), free=1, players=4)

        def ours() -> list[Any]:
            return [row for row in scene.rows if row.label == wanted and token in row.note]

        assert until(app, lambda: bool(ours()), seconds=8.0)
        # The screen sleeps between looks at the list: no frame at the full rate.
        wake = scene.wake_in()
        assert wake is None or wake > 0.04
        click(app, ours()[0].rect.center)
        assert until(app, lambda: top_name(app) == "LobbyScene")
        assert lobby_link(app).table == host.table
    finally:
        app.close(quit_pygame=False)
        advertiser.close()
        host.close()


def test_a_server_of_another_version_full_and_started_tables_are_greyed_with_the_reason(tmp_path) -> None:
    app = make_app(tmp_path / "bob")
    try:
        scene = join_screen(app)
        found = FoundServer("Ann's server", ("192.0.2.7",), 47123, PROTOCOL_VERSION, False, "a._tricktable._tcp.local.")
        newer = FoundServer(
            "Cy's server", ("192.0.2.8",), 47123, PROTOCOL_VERSION + 1, False, "c._tricktable._tcp.local."
        )
        message = {
            "tables": [
                {"table": "t1", "name": "Ann's table", "game": "wizard", "players": 4, "free_seats": 0,
                 "started": False, "invite": "ABCD-2345"},
                {"table": "t2", "name": "Ben's table", "game": "bidwhist", "players": 4, "free_seats": 2,
                 "started": True, "invite": "ABCD-2346"},
                {"table": "t3", "name": "Dee", "game": "wizard", "players": 9, "free_seats": 2, "started": False,
                 "invite": "ABCD-2347"},  # more seats than a table has: left out
                {"table": "t4", "name": "Eve", "game": "wizard", "players": 4, "free_seats": 1, "started": False,
                 "invite": None},  # not offered on this network
            ]
        }  # fmt: skip
        scene.listing = [ListedServer(found, read_tables(message), True), ListedServer(newer)]
        scene._build_rows()
        scene.relayout()
        step(app)
        labels = [(row.label, row.enabled, row.reason) for row in scene.rows]
        assert labels == [
            (t("join.row_full", table="Ann's table", game=t("start.game.wizard")), False,
             t("join.full_reason")),
            (t("join.row_started", table="Ben's table", game=t("start.game.bidwhist")), False,
             t("join.started_reason")),
            ("Cy's server", False, t("join.other_version", server=PROTOCOL_VERSION + 1, ours=PROTOCOL_VERSION)),
        ]  # fmt: skip
        click(app, scene.rows[2].rect.center)  # a greyed row says why instead of joining
        assert (
            scene.attempt is None
            and scene.toast.active
            and scene.toast.text == t("join.other_version", server=PROTOCOL_VERSION + 1, ours=PROTOCOL_VERSION)
        )
    finally:
        app.close(quit_pygame=False)


def test_a_game_under_way_open_to_spectators_is_watched_with_a_click(tmp_path, server) -> None:
    _, url, port = server
    host = Host(url, open_seats=0, spectators=True)
    host.start()
    host.client.send({"type": "list_tables"})
    listed = read_tables(host.wait("tables"))
    assert [(table.started, table.spectators) for table in listed] == [(True, True)]
    app = make_app(tmp_path / "bob")
    try:
        scene = join_screen(app)
        found = FoundServer("Ann's laptop", ("127.0.0.1",), port, PROTOCOL_VERSION, False, "a._tricktable._tcp.local.")
        scene.listing = [ListedServer(found, listed, True)]
        scene._rebuild()
        [row] = scene.rows
        assert row.label == t("join.row_watch", table="Ann's table", game=t("start.game.bidwhist"))
        click(app, row.rect.center)
        assert until(app, lambda: top_name(app) == "TableScene")
        table = app.scenes[-1]
        assert isinstance(table, TableScene) and table.humans == []
        assert remembered(app.user_paths) == []  # a watcher holds no seat to come back to
    finally:
        app.close(quit_pygame=False)
        host.close()


# ---------------------------------------------------------------------- rejoining
def test_a_remembered_seat_rejoins_a_game_under_way_after_the_program_was_closed(tmp_path, server) -> None:
    _, url, port = server
    host = Host(url)
    first = make_app(tmp_path / "bob")
    second: App | None = None
    try:
        scene = join_screen(first)
        type_into(first, scene.name_input, "Bob")
        type_into(first, scene.address_input, f"127.0.0.1:{port}/{host.invite}")
        step(first, [key(pygame.K_RETURN)])
        assert until(first, lambda: top_name(first) == "LobbyScene")
        host.start()
        assert until(first, lambda: top_name(first) == "TableScene")
        table = first.scenes[0]
        assert isinstance(table, TableScene)
        hand = table.session.view(1).game.hand
        assert len(hand) == 12
        first.close(quit_pygame=False)  # the program ends; its seat token stays on disk
        second = make_app(tmp_path / "bob")
        rejoin = join_screen(second)
        row = rejoin.rows[0]
        assert row.label == t("join.rejoin", table="Ann's table", game=t("start.game.bidwhist"))
        assert rejoin.focus.focused is row  # first in the list, and first to have the focus: Enter takes it
        step(second, [key(pygame.K_RETURN)])
        assert until(second, lambda: top_name(second) == "TableScene")
        again = second.scenes[-1]
        assert isinstance(again, TableScene) and again.humans == [1]
        assert again.session.view(1).game.hand == hand
    finally:
        first.close(quit_pygame=False)
        if second is not None:
            second.close(quit_pygame=False)
        host.close()


def test_a_rejoin_the_server_refuses_offers_to_forget_the_table(tmp_path, server) -> None:
    _, url, _ = server
    host = Host(url)
    app = make_app(tmp_path / "bob")
    try:
        remember(app.user_paths, url, host.table, {1: "a-token-the-server-never-gave"}, "Ann's table", "bidwhist")
        remember(app.user_paths, url, "no-such-table", {0: "token"}, "Cy's table", "wizard")
        scene = join_screen(app)
        assert [row.label for row in scene.rows] == [
            t("join.rejoin", table="Cy's table", game=t("start.game.wizard")),
            t("join.rejoin", table="Ann's table", game=t("start.game.bidwhist")),
        ]
        click(app, scene.rows[1].rect.center)
        assert until(app, lambda: scene.attempt is None)
        assert scene.refusal is not None and scene.refusal.code == "bad_token"
        assert scene.status == t("join.rejoin_gone", reason=link_error_words(scene.refusal))
        assert scene.forget_button.visible
        click(app, scene.forget_button.rect.center)
        assert [entry.table for entry in remembered(app.user_paths)] == ["no-such-table"]
        assert scene.status == t("join.forgotten", table="Ann's table")
        assert len(scene.rows) == 1 and not scene.forget_button.visible
        click(app, scene.rows[0].rect.center)
        assert until(app, lambda: scene.attempt is None)
        assert scene.forget_button.visible and top_name(app) == "JoinScene"
        # A server no longer there at all: said so, and the table may be forgotten too.
        remember(app.user_paths, f"ws://127.0.0.1:{free_port()}/", "closed-host", {0: "token"}, "Dee's table", "wizard")
        scene.on_enter()
        click(app, scene.rows[0].rect.center)
        assert until(app, lambda: scene.attempt is None)
        assert scene.refusal is None and scene.forget_button.visible
        click(app, scene.forget_button.rect.center)
        assert [entry.table for entry in remembered(app.user_paths)] == ["no-such-table"]
    finally:
        app.close(quit_pygame=False)
        host.close()
