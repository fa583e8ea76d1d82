"""Host a table and the lobby, through the window (dummy video) and a real server on loopback.

The Host screen starts the program's own server (127.0.0.1, a free port, not announced
in tests), a guest joins over a real ``LobbyLink``, and the lobby's seats, Start and
leaving are checked on screen; every wait is bounded.
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import ast
import socket
import sys
import time
from pathlib import Path
from typing import TypeVar

import pygame
import pytest

from game.net.lobby_link import LobbyLink
from game.rules.house_rules import WizardRules
from game.net.remote_session import RemoteSession
from game.net.server import ServerThread, TableServer
from game.settings.network_seats import remembered
from game.ui.scenes.host_scene import HostScene, server_url
from game.ui.scenes.lobby_scene import LobbyScene
from game.ui.scenes.start_scene import StartScene
from game.ui.table.scene import TableScene
from game.ui.text import t
from game.ui.widgets.controls import Cycler
from test_ui_table import key, key_up, make_app, step, top_name


T = TypeVar("T")
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def key_repeat():
    """pygame's key repeat on, as in a window that turned it on: a held key sends KEYDOWNs."""
    pygame.display.init()
    before = pygame.key.get_repeat()
    pygame.key.set_repeat(300, 50)
    yield
    pygame.key.set_repeat(*before)


def run(app, condition, seconds: float = 5.0, links=()) -> bool:
    """Frames (and the guests' polls) until ``condition`` holds, for at most ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for link in links:
            link.poll()
        if condition():
            return True
        step(app)
        time.sleep(0.003)
    return condition()


def choose(cycler: Cycler, value: object) -> None:
    """Choose ``value`` on ``cycler``, as its arrows would."""
    cycler.index = cycler.choices.index(value)
    assert cycler.on_change is not None
    cycler.on_change(value)


def on_top(app, kind: type[T]) -> T:
    scene = app.scenes[-1]
    assert isinstance(scene, kind), type(scene).__name__
    return scene


def host_screen(app) -> HostScene:
    on_top(app, StartScene).open_host()
    host = on_top(app, HostScene)
    host.listen, host.announce = ("127.0.0.1", 0), False
    return host


def opened_lobby(tmp_path, kinds=("human", "open", "open", "computer")) -> tuple:
    app = make_app(tmp_path)
    host = host_screen(app)
    host.set_game("bidwhist")
    for seat, kind in enumerate(kinds):
        choose(host.kind_cyclers[seat], kind)
    host.open_table()
    assert run(app, lambda: top_name(app) == "LobbyScene")
    lobby = on_top(app, LobbyScene)
    assert app.hosting is lobby.hosting
    return app, lobby


def guest_joins(app, lobby: LobbyScene, name: str = "Bob") -> LobbyLink:
    assert lobby.hosting is not None and lobby.link.invite
    guest = LobbyLink.connect(lobby.hosting.url)
    guest.take_seat(lobby.link.invite, name)
    assert run(
        app,
        lambda: bool(guest.held) and lobby.lobby is not None and lobby.lobby.seats[min(guest.held)].taken,
        links=[guest],
    )
    return guest


def test_the_start_screen_offers_hosting_and_joining(tmp_path) -> None:
    app = make_app(tmp_path)
    start = on_top(app, StartScene)
    for button in (start.host_button, start.join_button):
        assert button in start.focus.widgets and button.visible
        assert not button.rect.colliderect(start._title_band())  # the title stays clear of them
    start.host_button.activate()
    assert top_name(app) == "HostScene"
    app.close(quit_pygame=False)


def test_the_host_screen_makes_the_table_it_shows(tmp_path) -> None:
    app = make_app(tmp_path)
    host = host_screen(app)
    host.set_game("wizard")
    host.set_players(4)
    host.names[0] = "Ann"
    for seat, kind in enumerate(["human", "open", "computer", "human"]):
        choose(host.kind_cyclers[seat], kind)
    host.names[3] = "Dee"
    choose(host.level_cyclers[2], "hard")
    host.spectators_cycler.activate()  # spectators welcome
    host.stand_in_cycler.activate()  # a computer after 30 s
    host.set_preset(0)
    rules = host.build_rules()
    host.start_button.activate()
    assert not host.start_button.enabled  # while the table is being made
    assert run(app, lambda: top_name(app) == "LobbyScene")
    server = app.hosting
    assert server is not None and server.data_dir == app.user_paths.data_dir / "server"
    assert server._thread is not None
    [table] = server._thread.table_server.tables.values()
    assert table.rules == rules and table.options.spectators and table.options.stand_in_after == 30
    assert table.options.name == "Ann's table"
    assert [(plan.kind, plan.name, plan.level) for plan in table.seats] == [
        ("host", "Ann", None),
        ("open", "", None),
        ("computer", host.build_seats()[2].name, "hard"),
        ("host", "Dee", None),
    ]
    lobby = on_top(app, LobbyScene)
    assert sorted(lobby.link.held) == [0, 3]  # two players here: hot seat at this screen
    assert (server.data_dir / "tables" / f"{table.table_id}.jsonl").exists()
    app.close(quit_pygame=False)


def test_a_lone_player_here_is_named_as_the_others_will_see_them(tmp_path) -> None:
    """ "You" would name every player at a network table: the host screen shows the lone player
    here as "Player 1" from the start (the table is made with that name), while the start screen
    under it still says "You"."""
    app = make_app(tmp_path)
    start = on_top(app, StartScene)
    assert start.default_name(0) == t("start.default_human")
    host = host_screen(app)
    host.set_game("bidwhist")
    for seat, kind in enumerate(["human", "open", "computer", "computer"]):
        choose(host.kind_cyclers[seat], kind)
    shown = t("start.default_human_n", number=1)
    assert host.default_name(0) == shown and host.build_seats()[0].name == shown
    assert host.seat_choices()[0].name == shown
    assert host.table_name() == t("host.table_name", name=shown)
    app.close(quit_pygame=False)


def test_a_rules_file_chosen_on_the_host_screen_makes_the_table(tmp_path) -> None:
    """The host may play by a house-rule file of their own: its presets replace the bundled
    ones (its game is chosen), the table is made with them, and a file that cannot be used is
    said in words and changes nothing."""
    rules_file = tmp_path / "our_rules.yaml"
    rules_file.write_text(
        "game: wizard\nrules:\n  bidding: hidden\npresets:\n  short:\n    description: a quick game\n"
        "    rules:\n      rounds: 3\n",
        encoding="utf-8",
    )
    broken = tmp_path / "broken.yaml"
    broken.write_text("game: wizard\nrules:\n  rounds: many\n", encoding="utf-8")
    app = make_app(tmp_path / "data")
    host = host_screen(app)
    host.set_game("bidwhist")
    said = []
    for path in ("", str(broken), str(tmp_path / "missing.yaml")):
        host._set_rules_file(path)  # typed
        host.rules_file_button.activate()
        assert host.game == "bidwhist"  # nothing changed
        said.append(app.toast.text)
    assert said[0] == t("host.rules_file_none")
    assert "rounds" in said[1] and said[1].startswith(t("host.rules_file_refused", reason="").rstrip())
    assert "missing.yaml" in said[2]
    host._set_rules_file(str(rules_file))
    host.rules_file_button.activate()
    assert app.toast.text == t("host.rules_file_loaded", file="our_rules.yaml")
    assert host.game == "wizard"
    assert [preset.name for preset in host.catalog["wizard"].presets] == ["short"]
    rules = host.build_rules()
    assert isinstance(rules, WizardRules) and rules.rounds == 3 and rules.bidding == "hidden"
    host.names[0] = "Ann"
    host.start_button.activate()
    assert run(app, lambda: top_name(app) == "LobbyScene")
    assert app.hosting is not None and app.hosting._thread is not None
    [table] = app.hosting._thread.table_server.tables.values()
    assert table.rules == rules
    app.close(quit_pygame=False)


def test_the_host_screen_needs_a_player_here_and_says_why(tmp_path) -> None:
    app = make_app(tmp_path)
    host = host_screen(app)
    host.set_game("bidwhist")
    choose(host.kind_cyclers[0], "open")
    assert not host.start_button.enabled and host.start_button.reason == t("host.needs_player_here")
    host.open_table()
    assert app.hosting is None and top_name(app) == "HostScene"
    app.close(quit_pygame=False)


def test_a_port_that_cannot_be_used_is_said_on_the_host_screen(tmp_path) -> None:
    app = make_app(tmp_path)
    host = host_screen(app)
    host.listen = ("203.0.113.9", 0)  # an address this machine does not have
    host.open_table()
    assert top_name(app) == "HostScene" and app.hosting is None and host._opening is None
    assert host.toast.active and host.toast.text.startswith(t("host.cannot_listen", reason="")[:20])
    app.close(quit_pygame=False)


def test_the_lobby_fills_in_and_start_waits_for_every_seat_then_opens_the_table(tmp_path) -> None:
    app, lobby = opened_lobby(tmp_path)
    assert lobby.is_host and lobby.link.invite and lobby.addresses
    assert lobby.wake_in() is None  # waiting for players costs no frames: a message wakes the window
    assert not lobby.start_button.enabled
    assert lobby.start_button.reason == t("lobby.waiting_for_players", count=2)
    assert lobby.seat_words(1) == (t("lobby.free_seat"), t("lobby.waiting_invite"))
    guest = guest_joins(app, lobby)
    assert lobby.seat_words(1) == ("Bob", t("lobby.joined"))
    assert lobby.start_button.reason == t("lobby.waiting_for_players.one")
    guest_lobby = LobbyScene(app, guest)
    assert not guest_lobby.start_button.visible and guest_lobby.status_text() == t("lobby.waiting_for_host")
    guest_lobby.opened = True  # only looked at here: the guest's table is not opened in this window
    # The host makes the last open seat a computer: every seat is filled and Start is enabled.
    kind, _, _ = lobby.seat_controls[2]
    choose(kind, "computer")
    assert run(app, lambda: lobby.start_button.enabled, links=[guest])
    assert lobby.status_text() == t("lobby.ready")
    lobby.start_button.activate()
    assert run(app, lambda: top_name(app) == "TableScene", links=[guest])
    table = on_top(app, TableScene)
    assert isinstance(table.session, RemoteSession)
    assert table.humans == [0] and app.hosting is not None  # the server goes on under the table
    assert guest.game_ready
    # Leaving the table would close it for everyone: the host is told so before leaving.
    assert app.leave_warning() == t("leave.table_closes")
    app.close(quit_pygame=False)
    assert app.hosting is None
    guest.close()


def test_quitting_in_the_lobby_stops_the_programs_server_at_once(tmp_path) -> None:
    app, lobby = opened_lobby(tmp_path)
    server = lobby.hosting
    assert server is not None
    began = time.perf_counter()
    app.close(quit_pygame=False)  # the way out of App.run, also after a stop signal
    assert time.perf_counter() - began < 0.5 and app.hosting is None and not server.running


def test_the_host_moves_and_frees_a_seat_from_the_lobby(tmp_path) -> None:
    app, lobby = opened_lobby(tmp_path)
    guest = guest_joins(app, lobby)
    _, move, free = lobby.seat_controls[1]
    assert free.visible  # a seat a player elsewhere took can be freed
    move.activate()
    assert run(app, lambda: list(guest.held) == [2] and lobby.lobby.seats[2].name == "Bob", links=[guest])
    _, _, free = lobby.seat_controls[2]
    free.activate()
    assert run(app, lambda: guest.seat_lost and not lobby.lobby.seats[2].taken, links=[guest])
    assert LobbyScene(app, guest).status_text() == t("lobby.seat_lost")
    app.close(quit_pygame=False)
    guest.close()


def test_leaving_the_lobby_stops_the_programs_server(tmp_path) -> None:
    app, lobby = opened_lobby(tmp_path)
    server = lobby.hosting
    assert server is not None
    port = server.port
    socket.create_connection(("127.0.0.1", port), timeout=1).close()  # it serves
    began = time.perf_counter()
    lobby.leave_button.activate()
    assert time.perf_counter() - began < 0.5  # the window never waits for the server to wind down
    assert top_name(app) == "StartScene" and app.hosting is None and not server.running

    def refused() -> bool:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
        except OSError:
            return True
        return False

    assert run(app, refused, seconds=3.0)
    app.close(quit_pygame=False)


def test_a_guest_is_told_when_the_host_closes_the_table(tmp_path) -> None:
    """The program's own server goes with its host: a guest in the lobby, and a guest at the
    table, are told the table is closed and stop reconnecting (a ``serve`` says nothing: its
    tables come back)."""
    app, lobby = opened_lobby(tmp_path, kinds=("human", "open", "open", "computer"))
    waiting = guest_joins(app, lobby, "Bob")
    playing = guest_joins(app, lobby, "Cy")
    lobby.link.start()
    assert run(app, lambda: top_name(app) == "TableScene" and playing.game_ready, links=[playing, waiting])
    session = playing.session()
    app.stop_hosting()  # the host leaves: the table and its server go

    def closed() -> bool:
        session.take_in(session.client.messages())
        return session.table_closed

    assert run(app, closed, seconds=5.0)
    assert not session.link_down and session.client.status.state == "closed"  # no reconnecting for ever
    from game.ui.table.scene import TableScene as Table

    guest_app = make_app(tmp_path / "guest")
    table = Table(guest_app, session)
    assert table.network_notice() == t("net.table_closed")
    guest_app.close(quit_pygame=False)
    waiting.close()
    app.close(quit_pygame=False)


def test_a_guest_in_the_lobby_is_told_when_the_host_leaves_it(tmp_path) -> None:
    app, lobby = opened_lobby(tmp_path)
    guest = guest_joins(app, lobby, "Bob")
    lobby.leave_button.activate()
    assert run(app, lambda: guest.error is not None, links=[guest], seconds=5.0)
    assert guest.error is not None and guest.error.code == "table_closed"
    assert guest.client.status.state == "closed"
    app.close(quit_pygame=False)


def test_a_key_held_on_the_lobbys_start_never_reaches_the_table(tmp_path, key_repeat) -> None:
    app, lobby = opened_lobby(tmp_path, kinds=("human", "computer", "computer", "computer"))
    assert run(app, lambda: lobby.start_button.enabled)
    lobby.focus.focus(lobby.start_button)
    step(app, [key(pygame.K_RETURN)])  # Start, by the keyboard; the key stays down
    assert run(app, lambda: top_name(app) == "TableScene")
    seen: list[int] = []
    dispatch = app._dispatch_to_scenes  # what passes the input fence, to the table or a dialog on it

    def counting(event: pygame.event.Event) -> None:
        seen.append(event.type)
        dispatch(event)

    app._dispatch_to_scenes = counting  # type: ignore[method-assign, unused-ignore]
    step(app, [key(pygame.K_RETURN), key(pygame.K_RETURN)])  # the held key's repeats
    step(app, [key_up(pygame.K_RETURN)])  # and its release
    assert seen == [], "the table was given the rest of the lobby's press"
    assert top_name(app) != "LobbyScene"
    step(app, [key(pygame.K_RETURN), key_up(pygame.K_RETURN)])
    assert seen == [pygame.KEYDOWN, pygame.KEYUP]  # a new press is the table's
    app.close(quit_pygame=False)


@pytest.mark.parametrize("size", [(800, 600), (1280, 720)])
def test_the_host_and_lobby_screens_draw_at_both_sizes(tmp_path, size) -> None:
    app = make_app(tmp_path, size=size)
    host = host_screen(app)
    host.draw(pygame.Surface(size))
    host.listen = ("127.0.0.1", 0)
    host.open_table()
    assert run(app, lambda: top_name(app) == "LobbyScene")
    lobby = on_top(app, LobbyScene)
    lobby.draw(pygame.Surface(size))
    panel = lobby.info_panel
    assert panel.contains(lobby.copy_code_button.rect) and panel.contains(lobby.copy_invite_button.rect)
    for kind, move, free in lobby.seat_controls:
        assert lobby.seats_panel.contains(kind.rect.union(move.rect).union(free.rect))
    app.close(quit_pygame=False)


def test_a_server_address_is_read_as_typed() -> None:
    assert server_url("cards.example.org") == "ws://cards.example.org:47123/"
    assert server_url(" WSS://cards.example.org:443/ ") == "wss://cards.example.org:443/"
    assert server_url("[::1]:5000") == "ws://[::1]:5000/"
    assert server_url("10.0.0.2:0") is None and server_url("a b") is None and server_url("") is None


def test_a_table_can_be_made_on_a_server_elsewhere(tmp_path) -> None:
    elsewhere = ServerThread(TableServer(tmp_path / "elsewhere"), "127.0.0.1", 0)
    port = elsewhere.start()
    try:
        app = make_app(tmp_path / "app")
        host = host_screen(app)
        host.server_input.text = f"127.0.0.1:{port}"
        assert host.server_input.on_change is not None
        host.server_input.on_change(host.server_input.text)
        host.open_table()
        assert run(app, lambda: top_name(app) == "LobbyScene")
        lobby = on_top(app, LobbyScene)
        assert app.hosting is None and lobby.hosting is None  # no server of this program's own
        assert len(elsewhere.table_server.tables) == 1
        assert (
            lobby.addresses == [f"127.0.0.1:{port}"] and lobby.full_invite() == f"127.0.0.1:{port}/{lobby.link.invite}"
        )
        # The host's seat is kept, as a joiner's is: closed now, the program can take it back.
        kept = remembered(app.user_paths)
        assert [(entry.table, entry.seats) for entry in kept] == [(lobby.link.table, dict(lobby.link.held))]
        assert kept[0].server_url == f"ws://127.0.0.1:{port}/" and lobby.link.held
        app.close(quit_pygame=False)
    finally:
        elsewhere.stop()


def test_a_server_elsewhere_that_does_not_answer_is_said_on_the_host_screen(tmp_path) -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    app = make_app(tmp_path)
    host = host_screen(app)
    host.server_text = f"127.0.0.1:{port}"
    host.open_table()
    assert run(app, lambda: host._opening is None)
    assert top_name(app) == "HostScene" and host.toast.active
    assert host.toast.text == t("host.server_unreachable", where=f"127.0.0.1:{port}")
    host.server_text = "not an address!"
    host.open_table()
    assert host.toast.text == t("host.server_bad", text="not an address!") and host._opening is None
    app.close(quit_pygame=False)


def test_a_table_the_server_refuses_is_said_in_the_players_words(tmp_path) -> None:
    full = ServerThread(TableServer(tmp_path / "full", max_tables=0), "127.0.0.1", 0)
    port = full.start()
    try:
        app = make_app(tmp_path / "app")
        host = host_screen(app)
        host.server_text = f"127.0.0.1:{port}"
        host.open_table()
        assert run(app, lambda: host._opening is None)
        assert top_name(app) == "HostScene" and host.start_button.enabled  # to try again
        assert host.toast.text == t("host.refused", reason=t("net.error.too_many_tables"))
        app.close(quit_pygame=False)
    finally:
        full.stop()


def test_the_start_screen_loads_no_network_module_until_one_is_asked_for(tmp_path) -> None:
    """The network modules (websockets, zeroconf) cost start-up time: they load with Host or Join."""
    for module in ("game/ui/app.py", "game/ui/scenes/start_scene.py"):
        tree = ast.parse((ROOT / module).read_text(encoding="utf-8"))
        loaded = [
            node.module
            for node in tree.body  # the imports run as the module loads (not those in functions or TYPE_CHECKING)
            if isinstance(node, ast.ImportFrom)
            and node.module
            and node.module.startswith(("game.net", "game.ui.scenes.join"))
        ]
        assert loaded == [], module
    before = "game.ui.scenes.join_scene" in sys.modules
    app = make_app(tmp_path)  # the start screen, with its Join button when there is a Join screen
    assert ("game.ui.scenes.join_scene" in sys.modules) == before  # looked for, not loaded
    app.close(quit_pygame=False)
