"""``NetClient`` and ``RemoteSession`` over a real loopback network.

The server is ``net_fixture.FixtureServer``: a real ``Match`` behind a real
websocket server on 127.0.0.1, sending frames built by the wire codec as
``docs/PROTOCOL.md`` says. Nothing here is mocked: the client runs its own
thread and loop, and every wait is bounded.
"""

from __future__ import annotations

import json
import random
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

from game.ai.budget import SearchBudget
from game.net.client import CLOSED, CONNECTED, LOST, NetClient
from game.net.remote_session import NetworkTableError, RemoteSession
from game.net.protocol import PROTOCOL_VERSION
from game.persistence.history_codec import score_history
from game.persistence.history_files import encode_record
from game.rules import PUBLIC_SEAT, IllegalActionError, Phase, events_for, make_rules
from game.rules.actions import play
from game.session.ai_worker import InlineAiRunner
from game.session.match import Match, Seat
from game.session.session import Answer, ComputerStep
from game.settings.paths import UserPaths
from game.ui.text import explain, t
from net_fixture import TABLE, TOKEN, FixtureServer, step_frame, token_of


def wait_for(condition: Callable[[], bool], seconds: float = 15.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.002)
    return condition()


@pytest.fixture
def server():
    table = FixtureServer()
    yield table
    table.stop()


def connect(server: FixtureServer, lobby: dict[str, Any] | None = None, **options: Any) -> RemoteSession:
    """A session holding seat 0, made as the screen before the table makes it: from the
    messages that arrived once the client had taken its seat back."""
    client = NetClient(server.url, "tests")
    client.hold_seat(TABLE, 0, TOKEN)
    client.start()
    arrived: list[dict[str, Any]] = []

    def got_step() -> bool:
        arrived.extend(client.messages())
        return any(message["type"] == "step" for message in arrived)

    assert wait_for(got_step)
    return RemoteSession(client, TABLE, {0: TOKEN}, lobby or server.lobby(), messages=arrived, **options)


def catch_up(session: RemoteSession, server: FixtureServer) -> None:
    """Take in answers and the other seats' moves until the session stands where the server does."""

    def level() -> bool:
        session.poll()
        while session.advance_computers(True) is ComputerStep.PLAYED:
            pass
        if session.position != server.match.position_key():
            return False
        return session.current_player == 0 or session.phase == Phase.HAND_OVER or session.is_over

    assert wait_for(level)


def drain_until(client: NetClient, into: list[dict[str, Any]], condition: Callable[[], bool]) -> bool:
    """Read ``client``'s messages into ``into`` until ``condition`` holds (bounded)."""

    def drained() -> bool:
        into.extend(client.messages())
        return condition()

    return wait_for(drained)


def next_answer(session: RemoteSession) -> Answer:
    """The next answer ``poll`` takes in (failing after a bounded wait)."""
    answers: list[Answer] = []

    def arrived() -> bool:
        answer = session.poll()
        if answer is not None:
            answers.append(answer)
        return bool(answers)

    assert wait_for(arrived)
    return answers[0]


def our_turn(session: RemoteSession, server: FixtureServer, wanted: Callable[[], bool] = lambda: True) -> None:
    """Play seat 0's first legal action (dealing on between hands) until it is seat 0's turn and ``wanted``."""
    for _ in range(400):
        catch_up(session, server)
        if session.current_player == 0 and wanted():
            return
        if session.phase == Phase.HAND_OVER:
            session.next_deal()
        else:
            session.submit(0, session.view(0).game.legal_actions[0])
        assert wait_for(lambda: session.poll() is not None)
    raise AssertionError("seat 0 never came to act as wanted")


# ---------------------------------------------------------------------- the mirror
def test_the_mirror_is_the_servers_game_as_seat_zero_sees_it(server):
    session = connect(server)
    our_turn(session, server)
    match = server.match
    assert session.position == match.position_key()
    assert (session.phase, session.current_player, session.deal_number) == (match.phase, 0, match.deal_number)
    assert session.view(0).game == match.view(0)
    assert session.view(0).scores == score_history(match.history())
    numbered = session.events_since(0, 0)
    assert [n.number for n in numbered] == list(range(1, len(match.events) + 1))
    assert [n.event for n in numbered] == events_for(match.events, 0)
    assert session.events_since(3, 0) == numbered[3:]
    # The public stream is the rules' own filter of the seat's; the public view holds no hand.
    assert [n.event for n in session.events_since(0, PUBLIC_SEAT)] == events_for(match.events, PUBLIC_SEAT)
    assert session.view(PUBLIC_SEAT).game.hand == () and session.view(PUBLIC_SEAT).game.legal_actions == ()
    assert session.local_seats == [0] and session.seats[1].ai_level == "random" and session.seats[0].is_human
    assert not session.can_undo(0) and not session.offers_undo and session.saved and session.kept_on_server
    session.close()


def test_an_action_is_in_flight_until_its_answer_is_taken_in(server):
    session = connect(server)
    our_turn(session, server)
    before = session.position
    action = session.view(0).game.legal_actions[0]
    session.submit(0, action)
    assert session.current_player == -1  # the table waits: nobody here may act
    assert not session.can_claim(0)
    with pytest.raises(IllegalActionError) as second:
        session.submit(0, action)
    assert second.value.code == "not_your_turn"
    answer = next_answer(session)
    assert answer.applied and answer.actor == 0 and answer.refusal is None
    assert session.position[0] == before[0] + 1
    sent = [m for m in server.received if m["type"] == "act"]
    assert sent[-1]["at"] == before[0] and sent[-1]["seat"] == 0 and sent[-1]["table"] == TABLE
    # The computers' moves wait for the table's pace, one change at a time.
    if session.current_player not in (-1, 0) and session.phase != Phase.HAND_OVER:
        assert wait_for(lambda: session.poll() is None and not session.waiting_on_others())
        assert session.advance_computers(False) is ComputerStep.THINKING
        position = session.position
        assert session.advance_computers(True) is ComputerStep.PLAYED
        assert session.position[0] == position[0] + 1
    session.close()


def test_the_mirror_refuses_at_once_with_the_engines_coded_reasons(server):
    session = connect(server)

    def a_card_refused() -> bool:
        return session.phase == Phase.PLAY and any(
            server.match.explain(play(card)) is not None for card in session.view(0).game.hand
        )

    our_turn(session, server, a_card_refused)
    sent = len(server.received)
    card = next(card for card in session.view(0).game.hand if server.match.explain(play(card)) is not None)
    expected = server.match.explain(play(card))
    for check in (lambda: session.refusal(play(card)), lambda: _raised(lambda: session.submit(0, play(card)))):
        error = check()
        assert error is not None
        assert (error.code, error.params, error.message) == (expected.code, expected.params, expected.message)
    assert _raised(lambda: session.submit(1, session.view(0).game.legal_actions[0])).code == "not_your_turn"
    assert len(server.received) == sent  # nothing refused here went to the server
    assert session.refusal(session.view(0).game.legal_actions[0]) is None
    session.close()


def _raised(act: Callable[[], object]) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as caught:
        act()
    return caught.value


def test_a_refusal_from_the_server_ends_the_flight_and_is_worded(server):
    session = connect(server)
    our_turn(session, server)
    position = session.position
    server.refuse_next = "stale"
    session.submit(0, session.view(0).game.legal_actions[0])
    answer = next_answer(session)
    assert not answer.applied and answer.refusal is not None and answer.refusal.code == "stale"
    assert explain(answer.refusal) == t("error.stale")
    assert session.position == position and session.current_player == 0  # asked again
    session.close()


# ---------------------------------------------------------------------- drops
def test_a_dropped_link_is_resumed_from_the_last_event_number_seen(server):
    session = connect(server)
    our_turn(session, server)
    seen = session.last_number
    server.drop_connections()
    assert wait_for(lambda: session.link_down)
    assert wait_for(lambda: sum(m["type"] == "resume" for m in server.received) == 2 and not session.link_down)
    resume = [m for m in server.received if m["type"] == "resume"][-1]
    assert (resume["table"], resume["seat"], resume["token"], resume["after"]) == (TABLE, 0, TOKEN, seen)
    time.sleep(0.05)
    assert session.poll() is None  # the catch-up brought nothing new
    assert session.position == server.match.position_key() and session.current_player == 0
    session.submit(0, session.view(0).game.legal_actions[0])  # and play goes on
    assert wait_for(lambda: (answer := session.poll()) is not None and answer.applied)
    session.close()


def test_an_action_lost_with_the_link_is_asked_for_again(server):
    session = connect(server)
    our_turn(session, server)
    position = session.position
    server.swallow_next = True  # the act is taken and the link closes before any answer
    session.submit(0, session.view(0).game.legal_actions[0])
    answer = next_answer(session)
    assert not answer.applied and answer.refusal is not None and answer.refusal.code == "stale"
    assert session.position == position == server.match.position_key() and session.current_player == 0
    session.close()


def test_frames_that_are_no_messages_are_dropped_and_the_game_goes_on(server):
    session = connect(server)
    our_turn(session, server)
    position = session.position
    for frame in ("not json", b"\x00binary", "[1, 2]", '{"no": "type"}', '{"type": "_link", "status": "lost"}'):
        server.send(frame)
    server.send({"type": "step", "table": TABLE, "viewer": 0, "events": "nonsense"})
    broken = step_frame(server.match, 0, 0)
    broken["view"]["hand"] = ["ZZ"]
    server.send(broken)
    server.send({"type": "presence", "table": TABLE, "seats": [{"seat": 2, "connected": False, "away": 3}]})
    assert wait_for(lambda: session.poll() is None and 2 in session.away_seats())
    assert session.position == position and not session.link_down
    assert session.view(0).game == server.match.view(0)
    session.close()


def test_away_seats_tick_and_say_when_a_computer_stands_in(server):
    now = [100.0]
    session = connect(server, clock=lambda: now[0])
    presence = [
        {"seat": 1, "connected": False, "away": 40, "stand_in": False},
        {"seat": 2, "connected": False, "away": 5, "stand_in": True},
        {"seat": 0, "connected": False, "away": 9, "stand_in": False},  # this screen's own seat: never "away"
    ]
    server.send({"type": "presence", "table": TABLE, "seats": presence})
    assert wait_for(lambda: session.poll() is None and len(session.away_seats()) == 2)
    now[0] += 2.0
    away = session.away_seats()
    assert away[1].seconds == pytest.approx(42.0) and not away[1].stand_in
    assert away[2].seconds == pytest.approx(7.0) and away[2].stand_in
    server.send({"type": "presence", "table": TABLE, "seats": [{"seat": 1, "connected": True, "away": None}]})
    assert wait_for(lambda: session.poll() is None and list(session.away_seats()) == [2])
    session.close()


# ---------------------------------------------------------------------- the end
def test_the_servers_record_of_the_game_is_added_to_the_history_once(server, tmp_path):
    paths = UserPaths.from_data_dir(tmp_path)
    session = connect(server, user_paths=paths)
    rules = make_rules("bidwhist", {}, players=4)
    finished = Match(rules, [Seat(n, "ai:random") for n in ("Ann", "Ben", "Cy", "Dee")], 9)
    finished.play_out()
    history = paths.histories_dir / "bidwhist.jsonl"
    assert session.record_finished()  # asked before the record arrived: written when it does
    assert not history.exists()
    server.send({"type": "game_over", "table": TABLE, "history": finished.history()})
    assert wait_for(lambda: session.poll() is None and history.exists())
    assert session.record_finished() and session.record_finished()
    assert history.read_bytes() == encode_record(finished.history())
    session.close()


def test_a_record_not_in_the_history_shape_is_refused_and_nothing_is_written(server, tmp_path):
    paths = UserPaths.from_data_dir(tmp_path)
    session = connect(server, user_paths=paths)
    server.send({"type": "game_over", "table": TABLE, "history": {"game": "bidwhist", "seed": "../../x"}})
    assert wait_for(lambda: session.poll() is None and session._record is not None)
    assert not session.record_finished()
    assert not paths.histories_dir.exists() or not any(paths.histories_dir.iterdir())
    session.close()


# ---------------------------------------------------------------------- the client alone
def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_a_missing_server_is_tried_again_and_close_never_waits():
    client = NetClient(f"ws://127.0.0.1:{_free_port()}/", "tests")
    client.start()
    assert wait_for(lambda: client.status.state == LOST)
    assert client.status.reason  # the failure, in words
    began = time.perf_counter()
    client.close()
    assert time.perf_counter() - began < 0.05
    assert client.status.state == CLOSED
    thread = client._thread
    assert thread is not None and wait_for(lambda: not thread.is_alive())


def test_messages_sent_before_the_link_is_up_follow_the_hello_and_arrivals_are_announced(server):
    announced = threading.Event()
    client = NetClient(server.url, "tests", on_arrival=announced.set)
    first = client.send({"type": "list_tables"})
    second = client.send({"type": "list_tables"})
    assert second == first + 1
    client.start()
    assert wait_for(lambda: client.status.state == CONNECTED)
    assert announced.wait(5)
    assert wait_for(lambda: len(server.received) >= 3)
    assert [m["type"] for m in server.received[:3]] == ["hello", "list_tables", "list_tables"]
    assert server.received[0]["protocol"] == PROTOCOL_VERSION and server.received[0]["app"] == "tests"
    assert [m["id"] for m in server.received[1:3]] == [first, second]
    arrived = client.messages()
    assert {"type": "_link", "status": "connected", "reason": ""} in arrived
    assert any(m["type"] == "welcome" for m in arrived) and client.messages() == []
    client.close()


def test_every_frame_a_client_sends_is_a_json_object_with_its_id(server):
    client = NetClient(server.url, "x" * 100)
    client.start()
    assert wait_for(lambda: client.status.state == CONNECTED)
    number = client.send({"type": "list_tables"})
    assert wait_for(lambda: any(m.get("id") == number for m in server.received))
    assert len(server.received[0]["app"]) == 40
    assert all(isinstance(json.loads(json.dumps(m)), dict) for m in server.received)
    client.close()


def test_the_seats_are_read_from_the_lobby_and_unnamed_computers_are_named_as_at_home(server):
    lobby = server.lobby()
    lobby["seats"][1]["name"] = "computer 2"  # the server's name for a computer the host did not name
    lobby["seats"][2]["name"] = "Cleo"
    session = RemoteSession(NetClient(server.url, "tests"), TABLE, {0: TOKEN}, lobby)
    assert not session.has_game  # nothing arrived yet: the screen before the table waits for a step
    assert [(seat.controller, seat.name_role) for seat in session.seats[1:3]] == [
        ("ai:random", "computer:1"),
        ("ai:random", ""),
    ]
    assert session.seats[2].name == "Cleo" and session.local_seats == [0]
    broken = {**lobby, "rules": {"game": "chess", "values": {}}}
    with pytest.raises(NetworkTableError):
        RemoteSession(NetClient(server.url, "tests"), TABLE, {0: TOKEN}, broken)


def test_a_hint_is_computed_here_from_the_seats_view_never_from_the_games_seed(server):
    asked = []

    def hint_for(game_def, view, rng, budget=None):
        asked.append((view, rng.random()))
        return HINT

    session = connect(server, ai_runner=InlineAiRunner(), hint_for=hint_for)
    our_turn(session, server)
    sent = len(server.received)
    job = session.request_hint(0, SearchBudget(max_simulations=10, max_seconds=0.1))
    assert job.finished and job.result is HINT
    position = session.position
    view, drawn = asked[0]
    assert view == server.match.view(0)
    assert drawn == random.Random(f"tricktable:net:{TABLE}:hint:0:{position[0]}:{position[1]}").random()
    time.sleep(0.05)
    assert len(server.received) == sent  # the server was not asked
    session.close()


class _Hint:
    action = play(0)
    reason_key = "hint.reason.test"
    params: dict[str, int | str] = {}


HINT = _Hint()


def test_a_change_is_taken_in_once_every_viewer_held_here_has_its_step():
    """Hot seat: one change comes as a step per seat held and one for the public; the table
    reads them together, so none is taken in before all have arrived (they come apart here)."""
    server = FixtureServer(people=(0, 1))
    try:
        client = NetClient(server.url, "tests")
        for seat in (0, 1):
            client.hold_seat(TABLE, seat, token_of(seat))
        client.start()
        arrived: list[dict[str, Any]] = []
        assert drain_until(client, arrived, lambda: {-1, 0, 1} <= {m.get("viewer") for m in arrived})
        session = RemoteSession(client, TABLE, {0: token_of(0), 1: token_of(1)}, server.lobby(), messages=arrived)

        def ours_to_act() -> bool:
            session.poll()
            while session.advance_computers(True) is ComputerStep.PLAYED:
                pass
            return session.current_player in (0, 1) and session.position == server.match.position_key()

        server.step_gap = 0.05
        for _ in range(3):
            assert wait_for(ours_to_act)
            seat = session.current_player
            session.submit(seat, session.view(seat).game.legal_actions[0])
            answer = next_answer(session)
            assert answer.applied and answer.actor == seat
            for viewer in (0, 1, PUBLIC_SEAT):  # every viewer's mirror stands at the change taken in
                mirror = session._mirrors[viewer]
                assert mirror.step is not None and mirror.step.state == session._state, f"viewer {viewer} lags"
        session.close()
    finally:
        server.stop()


def test_a_session_made_before_the_game_starts_takes_its_first_steps_in_from_the_lobby_screen(server):
    client = NetClient(server.url, "tests")
    session = RemoteSession(client, TABLE, {0: TOKEN}, server.lobby())  # holds the seat: resumed on connecting
    client.start()
    drained: list[dict[str, Any]] = []
    assert drain_until(client, drained, lambda: any(m["type"] == "step" for m in drained))
    assert not session.has_game
    session.take_in(drained)  # what the lobby screen read goes to the session
    assert session.has_game and session.view(0).game.hand
    session.close()
