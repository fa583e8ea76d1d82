"""Whole games between two table screens through the real server on a loopback port.

Ann hosts (her seat is a ``host`` seat), Bob takes the open seat with the invite,
the other seats are the server's computers. Each player has a window (SDL dummy
video, instant animations) with a ``TableScene`` over a ``RemoteSession`` over a
``NetClient``; every decision is made through the screen (``net_table_driver``).
Both tables must end where the server's game ended, and each player's history
must hold the game once.
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import time
from pathlib import Path
from typing import Any

import pytest

from game.net.client import CLOSED, NetClient
from game.net.remote_session import RemoteSession
from game.net.server import ServerThread, TableServer
from game.persistence.history_codec import score_history
from game.persistence.history_files import encode_record
from game.rules import PUBLIC_SEAT, UNKNOWN_CARD, Phase, events_for, make_rules
from game.session.session import ComputerStep
from game.ui.table.scene import TableScene
from game.ui.text import t
from net_table_driver import play_tables
from test_net_remote_session import wait_for
from test_ui_table import make_app, run_until, step, top_name


class Inbox:
    """A client's messages as the screens before the table would read them."""

    def __init__(self, client: NetClient) -> None:
        self.client = client
        self.seen: list[dict[str, Any]] = []

    def wait(self, kind: str, **fields: Any) -> dict[str, Any]:
        found: list[dict[str, Any]] = []

        def arrived() -> bool:
            self.seen.extend(self.client.messages())
            found[:] = [m for m in self.seen if m["type"] == kind and all(m.get(k) == v for k, v in fields.items())]
            return bool(found)

        assert wait_for(arrived), f"no {kind} arrived; got {[m['type'] for m in self.seen]}"
        return found[-1]


def _connected(url: str) -> tuple[NetClient, Inbox]:
    client = NetClient(url, "tests")
    client.start()
    inbox = Inbox(client)
    inbox.wait("welcome")
    return client, inbox


@pytest.mark.parametrize(
    ("game", "values", "players"), [("bidwhist", {"target_score": 1}, 4), ("wizard", {"rounds": 2}, 3)]
)
def test_two_table_screens_play_a_whole_game_through_the_server(tmp_path: Path, game, values, players) -> None:
    server = ServerThread(TableServer(tmp_path / "server", rate_per_second=10_000.0, rate_burst=10_000), "127.0.0.1")
    url = f"ws://127.0.0.1:{server.start()}/"
    try:
        host, host_inbox = _connected(url)
        guest, guest_inbox = _connected(url)
        seats = [{"kind": "host", "name": "Ann"}, {"kind": "open"}]
        seats += [{"kind": "computer", "level": "random"} for _ in range(players - 2)]
        rules = make_rules(game, values, players=players)
        host.send(
            {"type": "create_table", "rules": {"game": game, "values": rules.to_dict()}, "seats": seats, "name": "Ann"}
        )
        created = host_inbox.wait("table_created")
        table = created["table"]
        guest.send({"type": "take_seat", "invite": created["invite"], "name": "Bob"})
        seated = guest_inbox.wait("seated")
        host.send({"type": "start", "table": table, "host_token": created["host_token"]})
        tables = []
        for name, client, inbox, held in (
            ("ann", host, host_inbox, {0: created["seats"][0]["token"]}),
            ("bob", guest, guest_inbox, {seated["seat"]: seated["token"]}),
        ):
            inbox.wait("step", viewer=next(iter(held)))
            app = make_app(tmp_path / name, size=(800, 600))
            lobby = [m for m in inbox.seen if m["type"] == "lobby"][-1]
            session = RemoteSession(client, table, held, lobby, messages=inbox.seen, user_paths=app.user_paths)
            scene = TableScene(app, session)
            app.replace(scene)
            tables.append((app, scene, session))
        assert [scene.humans for _, scene, _ in tables] == [[0], [1]]

        done = lambda: all(top_name(app) == "EndScene" for app, _, _ in tables)  # noqa: E731  (a condition)
        assert play_tables([(app, scene) for app, scene, _ in tables], done, seconds=120)

        records = []
        for app, _, session in tables:
            history = app.user_paths.histories_dir / f"{game}.jsonl"

            def recorded(app=app, history=history) -> bool:
                # The table takes in what arrived (the server's game_over record) on a frame, as the
                # program does: the record may arrive after the last frame that showed the game over.
                step(app)
                return history.exists()

            assert wait_for(recorded)
            lines = history.read_bytes().splitlines(keepends=True)
            assert len(lines) == 1  # the game, once
            records.append(lines[0])
            assert session.is_over
        assert records[0] == records[1]
        log = (tmp_path / "server" / "tables" / f"{table}.jsonl").read_text(encoding="utf-8")
        assert '"over"' in log
        # Both tables end with the server's scores: those of the record it sent.
        import json

        record = json.loads(records[0])
        assert records[0] == encode_record(record)
        final = score_history(record)
        for _, scene, session in tables:
            assert session.view(scene.humans[0]).scores == final
        for app, _, _ in tables:
            app.close(quit_pygame=False)
    finally:
        server.stop()


def _serve(data_dir: Path, port: int = 0) -> ServerThread:
    """A server on ``port`` (0: any free one); the port a stopped server held may take a moment to free."""
    for _ in range(100):
        server = ServerThread(TableServer(data_dir, rate_per_second=10_000.0, rate_burst=10_000), "127.0.0.1", port)
        try:
            server.start()
            return server
        except OSError:
            time.sleep(0.02)
    raise AssertionError(f"port {port} stayed taken")


def test_a_restarted_server_costs_the_client_nothing(tmp_path: Path) -> None:
    """The server stops mid-hand and starts again from its table logs on the same port: the
    client reconnects by itself, takes its seat back and plays on where it stood."""
    server = _serve(tmp_path / "server")
    port = server.port
    client, inbox = _connected(f"ws://127.0.0.1:{port}/")
    seats = [{"kind": "host", "name": "Ann"}] + [{"kind": "computer", "level": "random"} for _ in range(3)]
    client.send({"type": "create_table", "rules": {"game": "bidwhist", "values": {}}, "seats": seats, "name": "Ann"})
    created = inbox.wait("table_created")
    table = created["table"]
    client.send({"type": "start", "table": table, "host_token": created["host_token"]})
    inbox.wait("step", viewer=0)
    lobby = [m for m in inbox.seen if m["type"] == "lobby"][-1]
    session = RemoteSession(client, table, {0: created["seats"][0]["token"]}, lobby, messages=inbox.seen)

    def act_when_asked() -> bool:
        """Take in what came; act for seat 0 when asked. True once seat 0 is asked to play a card."""
        answer = session.poll()
        assert answer is None or answer.applied
        while session.advance_computers(True) is ComputerStep.PLAYED:
            pass
        if session.current_player == 0 and session.phase == Phase.PLAY:
            return True
        if session.current_player == 0:
            session.submit(0, session.view(0).game.legal_actions[0])
        return False

    try:
        assert wait_for(act_when_asked)
        session.submit(0, session.view(0).game.legal_actions[0])
        assert wait_for(lambda: (session.poll() or True) and session.current_player != -1)
        played = session.position
        server.stop()
        assert wait_for(lambda: session.link_down)
        server = _serve(tmp_path / "server", port)
        assert wait_for(lambda: not session.link_down, seconds=10)
        assert wait_for(act_when_asked, seconds=10)
        resumed = session.position
        assert resumed >= played
        session.submit(0, session.view(0).game.legal_actions[0])  # the game plays on after the restart
        assert wait_for(lambda: act_when_asked() and session.position > resumed, seconds=10)
        hosted = server.table_server.tables[table].match
        assert hosted is not None and session.position == hosted.position_key()
        assert session.view(0).game == hosted.view(0)
        assert [n.event for n in session.events_since(0, 0)] == events_for(hosted.events, 0)
    finally:
        session.close()
        server.stop()


def test_hot_seat_at_the_hosts_screen_shows_only_the_public_view_between_turns(tmp_path: Path) -> None:
    """Two host seats at one screen: the server sends that connection the public viewer's steps
    too, and between turns (and under every cover) the model holds nobody's cards."""
    server = _serve(tmp_path / "server")
    client, inbox = _connected(f"ws://127.0.0.1:{server.port}/")
    seats = [{"kind": "host", "name": "Ann"}, {"kind": "host", "name": "Bea"}, {"kind": "computer", "level": "random"}]
    rules = make_rules("wizard", {"rounds": 2, "bidding": "hidden"}, players=3)
    client.send(
        {"type": "create_table", "rules": {"game": "wizard", "values": rules.to_dict()}, "seats": seats, "name": "Ann"}
    )
    created = inbox.wait("table_created")
    table = created["table"]
    client.send({"type": "start", "table": table, "host_token": created["host_token"]})
    inbox.wait("step", viewer=PUBLIC_SEAT)
    app = make_app(tmp_path / "ann", size=(800, 600))
    lobby = [m for m in inbox.seen if m["type"] == "lobby"][-1]
    tokens = {entry["seat"]: entry["token"] for entry in created["seats"]}
    session = RemoteSession(client, table, tokens, lobby, messages=inbox.seen, user_paths=app.user_paths)
    scene = TableScene(app, session)
    app.replace(scene)
    assert scene.humans == [0, 1] and scene.turns.hot_seat
    covers = []

    def private(app, scene) -> None:
        if top_name(app) == "CoverScene":
            covers.append(scene.viewer)
        if scene.viewer == PUBLIC_SEAT:
            assert scene.model.own_hidden_bid is None, "a hidden bid is on the public screen"
        for seat, hand in enumerate(scene.model.hands):
            if seat != scene.viewer:
                assert all(card == UNKNOWN_CARD for card in hand), f"seat {seat}'s cards are on {scene.viewer}'s screen"

    try:
        assert play_tables([(app, scene)], lambda: top_name(app) == "EndScene", seconds=120, watch=private)
        assert covers and all(viewer == PUBLIC_SEAT for viewer in covers)
        assert session.view(PUBLIC_SEAT).game.hand == () and session.view(PUBLIC_SEAT).game.seat == PUBLIC_SEAT
        assert len((app.user_paths.histories_dir / "wizard.jsonl").read_bytes().splitlines()) == 1
    finally:
        app.close(quit_pygame=False)
        session.close()
        server.stop()


def test_a_spectator_sees_the_public_table_and_never_a_hand(tmp_path: Path) -> None:
    """A table that allows spectators: a watcher's screen holds no seat, shows nobody's cards
    at any moment of the game, follows it to its end, and records nothing in its history."""
    server = _serve(tmp_path / "server")
    url = f"ws://127.0.0.1:{server.port}/"
    player, player_inbox = _connected(url)
    watcher, watcher_inbox = _connected(url)
    seats = [{"kind": "computer", "level": "random"} for _ in range(3)]
    values = make_rules("wizard", {"rounds": 2, "bidding": "hidden"}, players=3).to_dict()
    player.send(
        {
            "type": "create_table",
            "rules": {"game": "wizard", "values": values},
            "seats": seats,
            "name": "Ann",
            "spectators": True,
        }
    )
    created = player_inbox.wait("table_created")
    watcher.send({"type": "spectate", "invite": created["invite"]})
    watcher_inbox.wait("lobby")
    player.send({"type": "start", "table": created["table"], "host_token": created["host_token"]})
    watcher_inbox.wait("step", viewer=PUBLIC_SEAT)
    app = make_app(tmp_path / "watcher", size=(800, 600))
    lobby = [m for m in watcher_inbox.seen if m["type"] == "lobby"][-1]
    session = RemoteSession(
        watcher, created["table"], {}, lobby, messages=watcher_inbox.seen, user_paths=app.user_paths
    )
    scene = TableScene(app, session)
    app.replace(scene)
    assert session.spectating and scene.humans == [] and scene.viewer == PUBLIC_SEAT

    def nobody_shown(app, scene) -> None:
        assert scene.viewer == PUBLIC_SEAT
        assert scene.model.own_hidden_bid is None
        for seat, hand in enumerate(scene.model.hands):
            assert all(card == UNKNOWN_CARD for card in hand), f"seat {seat}'s cards are on a spectator's screen"

    try:
        assert play_tables(
            [(app, scene)], lambda: session.is_over and scene.director.idle, seconds=60, watch=nobody_shown
        )
        assert session.view(PUBLIC_SEAT).game.hand == ()
        assert not (app.user_paths.histories_dir / "wizard.jsonl").exists()  # nobody's game of theirs
    finally:
        app.close(quit_pygame=False)
        player.close()
        server.stop()


def test_a_seat_taken_back_from_another_window_stops_this_one_quietly(tmp_path: Path) -> None:
    """Ann rejoins her seat from a second program (the same seat token) while the first is
    still open: the first says so over its table and never takes the seat back when its link
    comes back; the second plays on."""
    server = _serve(tmp_path / "server")
    url = f"ws://127.0.0.1:{server.port}/"
    first, inbox = _connected(url)
    seats = [{"kind": "host", "name": "Ann"}] + [{"kind": "computer", "level": "random"} for _ in range(3)]
    first.send({"type": "create_table", "rules": {"game": "bidwhist", "values": {}}, "seats": seats, "name": "Ann"})
    created = inbox.wait("table_created")
    table, token = created["table"], created["seats"][0]["token"]
    first.send({"type": "start", "table": table, "host_token": created["host_token"]})
    inbox.wait("step", viewer=0)
    lobby = [m for m in inbox.seen if m["type"] == "lobby"][-1]
    session = RemoteSession(first, table, {0: token}, lobby, messages=inbox.seen)
    app = make_app(tmp_path / "first")
    scene = TableScene(app, session)
    second, second_inbox = _connected(url)
    try:
        app.replace(scene)
        assert run_until(app, lambda: top_name(app) == "BiddingPanel")  # Ann is to bid here
        assert scene.network_notice() is None and not session.seat_taken_elsewhere
        second.hold_seat(table, 0, token)
        second.send({"type": "resume", "table": table, "seat": 0, "token": token, "after": 0})
        second_inbox.wait("step", viewer=0)
        assert wait_for(lambda: (session.poll() or True) and session.seat_taken_elsewhere)
        assert scene.network_notice() == t("net.seat_taken_elsewhere")
        assert run_until(app, lambda: app.top_scene() is scene)  # the bid is no longer asked here
        assert not scene.input_enabled()
        assert wait_for(lambda: first.status.state == CLOSED)  # nothing is left for it to do
        assert not session.link_down  # the notice says why; it is not a lost link
        hosted = server.table_server.tables[table]
        holders = [conn for conn in server.table_server.at_table[table] if 0 in conn.held.get(table, {})]
        assert len(holders) == 1 and hosted.started  # the second program alone holds the seat
    finally:
        session.close()
        second.close()
        server.stop()
