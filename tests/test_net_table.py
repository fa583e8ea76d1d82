"""A table screen over a ``RemoteSession``: played through the window against a real loopback server.

The server is the test fixture of ``net_fixture`` (a real ``Match`` behind a real
websocket server); the window runs with the SDL dummy video driver and instant
animations, and every decision is made through the screen (``net_table_driver``).
"""

from __future__ import annotations

import os
import threading

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame
import pytest

from game.rules import Phase
from game.session.session import ComputerStep
from game.ui.app import NETWORK_WAKE
from game.ui.dialogs.score_pad import ScorePad
from game.ui.table.scene import TableScene
from game.ui.text import t
from net_fixture import FixtureServer
from scene_checks import top
from net_table_driver import play_tables
from test_net_remote_session import connect, wait_for
from test_ui_table import click, make_app, run_until, step, top_name


@pytest.fixture
def server():
    table = FixtureServer()
    yield table
    table.stop()


def stepping(app, condition):
    """``condition`` checked after each frame of ``app`` (for ``wait_for``)."""

    def check() -> bool:
        step(app)
        return bool(condition())

    return check


def open_table(tmp_path, server, lobby=None) -> tuple:
    app = make_app(tmp_path)
    session = connect(server, lobby, user_paths=app.user_paths)
    scene = TableScene(app, session)
    app.replace(scene)
    return app, scene, session


def test_a_network_table_plays_through_the_window_each_move_answered_over_the_network(tmp_path, server):
    app, scene, session = open_table(tmp_path, server)
    assert scene.humans == [0] and not scene.undo_button.visible and not scene.undo_offered
    assert scene.leave_warning() == t("leave.seat_kept")
    # The bidding, then seat 0's first card dragged to the trick, each answered over the network.
    acts = lambda: sum(m["type"] == "act" for m in server.received)  # noqa: E731  (a count)

    def first_card_played() -> bool:
        return any(seat == 0 for seat, _ in session.view(0).game.trick) or bool(session.view(0).game.tricks)

    assert play_tables([(app, scene)], first_card_played)
    assert acts() >= 2 and scene._awaiting is None
    assert wait_for(stepping(app, lambda: session.position == server.match.position_key()))
    assert session.view(0).game == server.match.view(0)
    assert run_until(app, lambda: scene.director.idle and scene.shown_view() == server.match.view(0))
    app.close(quit_pygame=False)


def test_a_table_waiting_for_a_person_elsewhere_sleeps_and_says_how_long_they_are_away(tmp_path, server):
    # The other seats are people elsewhere, as far as this screen knows, and none of them moves.
    server.hold_computers = True
    lobby = server.lobby()
    for entry in lobby["seats"][1:]:
        entry.update(kind="open", level=None)
    app, scene, session = open_table(tmp_path, server, lobby)
    for _ in range(300):  # the deal lands and the card faces are drawn ahead; then nothing moves
        if scene.wake_in() is None:
            break
        step(app)
    assert session.current_player not in scene.humans and session.thinking_seat() == -1
    assert scene.wake_in() is None  # waiting for a person elsewhere: no frames, no CPU
    seat = session.current_player
    server.send({"type": "presence", "table": "T1", "seats": [{"seat": seat, "connected": False, "away": 42}]})
    assert wait_for(stepping(app, lambda: bool(session.away_seats())))
    assert scene.network_notice() == t("net.waiting_for", name=scene.names[seat], time="0:42")
    assert 0 < scene.wake_in() <= 1.0  # the seconds tick on the felt
    server.send(
        {"type": "presence", "table": "T1", "seats": [{"seat": seat, "connected": False, "away": 75, "stand_in": True}]}
    )
    assert wait_for(stepping(app, lambda: session.away_seats()[seat].stand_in))
    assert scene.network_notice() == t("net.stand_in", name=scene.names[seat], time="1:15")
    server.drop_connections()
    assert wait_for(lambda: session.link_down)
    assert scene.network_notice() == t("net.reconnecting")
    scene.draw(app.screen_surface() if hasattr(app, "screen_surface") else pygame.Surface(app.size))
    app.close(quit_pygame=False)


def test_a_message_arriving_wakes_a_sleeping_window_once(tmp_path):
    app = make_app(tmp_path)
    pygame.event.clear()

    # From the network thread, as a NetClient's on_arrival calls it: a burst costs one frame.
    def two_messages() -> None:
        app.wake()
        app.wake()

    network = threading.Thread(target=two_messages)
    network.start()
    network.join(5)
    woken = [event for event in pygame.event.get() if event.type == NETWORK_WAKE]
    assert len(woken) == 1
    app.step(0.0, woken)
    app.wake()
    assert [event.type for event in pygame.event.get()].count(NETWORK_WAKE) == 1
    app.close(quit_pygame=False)


def test_a_finished_hand_waits_for_the_others_and_play_again_leads_back_to_the_start(tmp_path):
    server = FixtureServer("wizard", players=3, values={"rounds": 2})
    session = connect(server)

    def hand_over() -> bool:
        session.poll()
        while session.advance_computers(True) is ComputerStep.PLAYED:
            pass
        if session.phase == Phase.HAND_OVER and session.position == server.match.position_key():
            return True
        if session.current_player == 0:
            session.submit(0, session.view(0).game.legal_actions[0])
        return False

    assert wait_for(hand_over)
    server.hold_ready = True  # the others are not ready yet
    app = make_app(tmp_path)
    scene = TableScene(app, session)
    app.replace(scene)
    assert run_until(app, lambda: top_name(app) == "ScorePad")
    click(app, top(app, ScorePad).close_button.rect.center)  # this player is ready
    assert wait_for(stepping(app, lambda: any(m["type"] == "ready" for m in server.received)))
    step(app)
    assert scene._prompt_text() == t("net.waiting_ready") and not scene._awaiting_next_deal()
    assert session.current_player == -1 and session.phase == Phase.HAND_OVER
    scene.next_deal()  # a second Space or click sends nothing more
    assert sum(m["type"] == "ready" for m in server.received) == 1
    scene.play_again()  # a network game's "Play again" is set up in a lobby: back to the start
    assert top_name(app) != "TableScene" and not any(isinstance(s, TableScene) for s in app.scenes)
    app.close(quit_pygame=False)
    server.stop()
