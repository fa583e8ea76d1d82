"""``LobbyLink`` through a real server on a loopback port: host, join, move, free and start.

Each link has its own ``NetClient`` (its own thread and websocket); every wait is bounded.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Callable, Iterator

import pytest

from game.net.hosting import HostedServer
from game.net.lobby_link import COMPUTER, HOST, OPEN, LobbyLink, SeatChoice, read_lobby
from game.net.server import ServerThread, TableServer
from game.rules import make_rules


def wait_until(links: list[LobbyLink], condition: Callable[[], bool], seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for link in links:
            link.poll()
        if condition():
            return True
        time.sleep(0.005)
    return condition()


@pytest.fixture
def url(tmp_path) -> Iterator[str]:
    server = ServerThread(TableServer(tmp_path / "server"), "127.0.0.1", 0)
    port = server.start()
    yield f"ws://127.0.0.1:{port}/"
    server.stop()


def hosted(url: str) -> tuple[LobbyLink, LobbyLink]:
    """Ann hosts a Bid Whist table (her seat, two open seats, a computer); Bob joins it."""
    host = LobbyLink.connect(url)
    seats = [SeatChoice(HOST, "Ann"), SeatChoice(OPEN), SeatChoice(OPEN), SeatChoice(COMPUTER, "Cleo", "random")]
    host.create_table(make_rules("bidwhist", {"target_score": 1}, 4), seats, "Ann's table")
    assert wait_until([host], lambda: host.lobby is not None and host.invite is not None)
    guest = LobbyLink.connect(url)
    assert host.invite is not None
    guest.take_seat(host.invite.lower().replace("-", ""), "Bob")  # as a player might type it
    assert wait_until([host, guest], lambda: bool(guest.held) and host.lobby is not None and host.lobby.seats[1].taken)
    return host, guest


def test_a_host_and_a_guest_meet_in_the_lobby_and_start_a_game_to_their_sessions(url) -> None:
    host, guest = hosted(url)
    assert host.is_host and not guest.is_host and list(host.held) == [0] and list(guest.held) == [1]
    lobby = host.lobby
    assert lobby is not None and lobby.name == "Ann's table" and lobby.game == "bidwhist"
    assert [(s.kind, s.name, s.taken) for s in lobby.seats] == [
        (HOST, "Ann", True),
        (OPEN, "Bob", True),
        (OPEN, "", False),
        (COMPUTER, "Cleo", True),
    ]
    assert lobby.seats[1].connected and not lobby.filled and lobby.free_seats == [2]
    # Starting with a seat free is refused with its code; nothing changes.
    host.start()
    assert wait_until([host], lambda: host.error is not None)
    assert host.error is not None and host.error.code == "seats_not_filled" and host.error.request == "start"
    assert not host.started
    # The host makes the free seat a computer and starts.
    host.clear_error()
    host.set_seat(2, SeatChoice(COMPUTER, "Dmitri", "random"))
    assert wait_until([host, guest], lambda: guest.lobby is not None and guest.lobby.filled)
    host.start()
    assert wait_until([host, guest], lambda: host.game_ready and guest.game_ready)
    sessions = [host.session(), guest.session()]
    try:
        for session, seat in zip(sessions, (0, 1)):
            assert session.has_game and session.local_seats == [seat]
            assert session.game_def.name == "bidwhist" and session.rules.to_dict()["target_score"] == 1
            assert len(session.view(seat).game.hand) == 12
        assert not host.poll() and not host.game_ready  # the session reads the client now
    finally:
        for session in sessions:
            session.close()


def test_the_host_swaps_seats_and_frees_one_and_the_guest_follows(url) -> None:
    host, guest = hosted(url)
    try:
        host.move_seat(1, 2)  # Bob moves to seat 3, his token with him
        assert wait_until(
            [host, guest], lambda: list(guest.held) == [2] and guest.lobby is not None and guest.lobby.seats[2].taken
        )
        # The host's lobby comes on its own connection: wait for it too, not only the guest's.
        assert wait_until(
            [host],
            lambda: host.lobby is not None and host.lobby.seats[2].name == "Bob" and not host.lobby.seats[1].taken,
        )
        host.set_seat(2, SeatChoice(OPEN))  # freed: Bob is back in the lobby without a seat
        assert wait_until([host, guest], lambda: guest.seat_lost)
        assert guest.held == {} and not host.seat_lost
        assert wait_until([host], lambda: host.lobby is not None and host.lobby.free_seats == [1, 2])
    finally:
        host.close()
        guest.close()


def test_a_guest_who_leaves_frees_the_seat_and_a_bad_code_is_an_error_at_once(url) -> None:
    host, guest = hosted(url)
    try:
        guest.leave()
        assert wait_until([host], lambda: host.lobby is not None and not host.lobby.seats[1].taken)
        other = LobbyLink(guest.client)
        assert other.take_seat("hello", "Cy") == -1
        assert other.error is not None and other.error.code == "bad_invite"
        other.take_seat("ZZZZ-ZZZZ", "Cy")
        assert wait_until([other], lambda: other.error is not None and other.error.request == "take_seat")
    finally:
        host.close()
        guest.close()


def test_a_lobby_message_that_cannot_be_shown_is_none() -> None:
    assert read_lobby({"type": "lobby", "rules": {"game": "chess"}, "seats": [{}]}) is None
    assert (
        read_lobby({"type": "lobby", "rules": {"game": "wizard", "values": {"no_such_rule": 1}}, "seats": [{}]}) is None
    )
    lobby = read_lobby(
        {"type": "lobby", "table": "t", "rules": {"game": "wizard", "values": {}}, "seats": [{"kind": "x"}, 5]}
    )
    assert lobby is not None and [seat.kind for seat in lobby.seats] == [OPEN, OPEN] and not lobby.filled


def test_the_programs_server_takes_a_free_port_when_its_own_is_taken(tmp_path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        server = HostedServer(tmp_path / "server", "Ann's table", host="127.0.0.1", port=port)
        try:
            assert server.start(announce=False) not in (0, port) and server.running
            assert server.url == f"ws://127.0.0.1:{server.port}/"
            assert all(address.endswith(f":{server.port}") for address in server.addresses())
            socket.create_connection(("127.0.0.1", server.port), timeout=1).close()
        finally:
            server.stop()
    assert not server.running
    again = HostedServer(tmp_path / "server", "Ann's table", host="127.0.0.1", port=0)
    again.start(announce=False)  # the folder of table logs was let go
    again.stop()
