"""``LobbyLink``: one program's place at one network table before its game begins.

It sends the lobby's messages (create a table, take or spectate a seat, and the
host's set, move and start) over a ``NetClient``, reads the answers into a typed
``Lobby``, and once the game has begun hands the client to a ``RemoteSession``
(``session``). The Host, Join and Lobby screens share it; it never waits.
"""

from __future__ import annotations

# Threads: like the client it wraps, a link is used from the window's thread only;
# ``poll`` drains what arrived (never waits) and the screens read the fields after it.
#
# Hand-over: from the start on, every game message (``step``, ``presence``,
# ``game_over``, ``refused``) is kept in arrival order, undecoded, for the session:
# ``RemoteSession`` takes them in as its first messages, and reads the client
# itself from then on. So no frame is lost between the lobby and the table.
#
# Errors: an ``error`` answer is matched to the message that caused it by its
# ``re``; ``error`` holds the latest (the screens say it in the player's words) and
# nothing else changes. A lost link is the client's business (it reconnects and
# takes back every seat held here with ``resume``); ``status`` says where it stands.

import logging
import ssl as ssl_module
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from game.net.client import CLOSED, LINK, LinkStatus, NetClient
from game.net.protocol import normalize_invite_code
from game.net.wire import WireError, decode_rules
from game.net.remote_session import RemoteSession
from game.rules.house_rules import Rules
from game.session.names import clean_name
from game.settings.network_seats import remember
from game.settings.paths import UserPaths

log = logging.getLogger("tricktable.net")

APP_NAME = "Trick Table"
OPEN, HOST, COMPUTER = "open", "host", "computer"  # the seat kinds of docs/PROTOCOL.md
_GAME_MESSAGES = frozenset({"step", "presence", "game_over", "refused"})


@dataclass(frozen=True)
class SeatChoice:
    """What the host puts at a seat: ``open`` (a player elsewhere takes it), ``host`` (a player
    at the host's screen, named ``name``) or ``computer`` (at ``level``, named ``name``)."""

    kind: str
    name: str = ""
    level: str | None = None

    def message(self) -> dict[str, Any]:
        """The seat as ``create_table`` and ``set_seat`` write it."""
        if self.kind == HOST:
            return {"kind": HOST, "name": self.name}
        if self.kind == COMPUTER:
            return {"kind": COMPUTER, "level": self.level, "name": self.name}
        return {"kind": OPEN}


@dataclass(frozen=True)
class LobbySeat:
    """One seat as the lobby shows it: its kind, the computer's level, the player's name, whether
    a player holds it (``taken``) and whether that player's program is connected."""

    seat: int
    kind: str
    level: str | None
    name: str
    taken: bool
    connected: bool

    @property
    def filled(self) -> bool:
        """Somebody will play it: a computer, or a player who took it."""
        return self.kind == COMPUTER or self.taken


@dataclass(frozen=True)
class Lobby:
    """A table's last ``lobby`` message, read and checked."""

    table: str
    name: str
    game: str
    rules: Rules
    seats: tuple[LobbySeat, ...]
    started: bool
    spectators: bool
    stand_in_after: float | None
    message: Mapping[str, Any] = field(repr=False, compare=False, default_factory=dict)

    @property
    def filled(self) -> bool:
        """Every seat has its player: the host may start."""
        return all(seat.filled for seat in self.seats)

    @property
    def free_seats(self) -> list[int]:
        return [seat.seat for seat in self.seats if not seat.filled]


@dataclass(frozen=True)
class LinkError:
    """A message the server would not carry out: its ``code`` (``docs/PROTOCOL.md``), parameters
    and English ``message``, and the ``request`` type that caused it. Nothing changed."""

    code: str
    params: Mapping[str, Any]
    message: str
    request: str


class LobbyLink:
    """This program at one table before the game (see the module docstring)."""

    def __init__(self, client: NetClient) -> None:
        """``client``: started by the caller, or not yet (``start`` starts it)."""
        self.client = client
        self.table: str | None = None
        self.invite: str | None = None  # the table's invite code (ABCD-2345)
        self.host_token: str | None = None
        self.held: dict[int, str] = {}  # seat -> seat token, the seats played at this screen
        self.spectating = False
        self.lobby: Lobby | None = None
        self.error: LinkError | None = None
        self.seat_lost = False  # the host freed or changed a seat this program held
        self._sent: dict[int, str] = {}  # message id -> its type, for the errors that answer it
        self._game_messages: list[dict[str, Any]] = []
        self._handed_over = False

    @classmethod
    def connect(
        cls,
        url: str,
        *,
        on_arrival: Callable[[], None] | None = None,
        ssl: ssl_module.SSLContext | None = None,
        app_name: str = APP_NAME,
    ) -> LobbyLink:
        """A link over a new client to ``url`` (``ws://host:port/``), connecting at once (in the
        client's thread; this returns at once). ``on_arrival`` is called from that thread."""
        client = NetClient(url, app_name, on_arrival=on_arrival, ssl=ssl)
        client.start()
        return cls(client)

    # ------------------------------------------------------------------ where it stands
    @property
    def status(self) -> LinkStatus:
        return self.client.status

    @property
    def is_host(self) -> bool:
        return self.host_token is not None

    @property
    def started(self) -> bool:
        return self.lobby is not None and self.lobby.started

    @property
    def game_ready(self) -> bool:
        """The game has begun and its first step for this screen has arrived: ``session`` may
        be called."""
        if not self.started or self._handed_over:
            return False
        viewers = set(self.held) or ({-1} if self.spectating else set())
        seen = {message.get("viewer") for message in self._game_messages if message.get("type") == "step"}
        return bool(viewers) and viewers <= seen

    # ------------------------------------------------------------------ the lobby's messages
    def create_table(
        self,
        rules: Rules,
        seats: Sequence[SeatChoice],
        name: str,
        *,
        spectators: bool = False,
        stand_in_after: float | None = None,
        listed: bool = True,
    ) -> int:
        """Make a table with ``rules`` and ``seats`` (in seat order), named ``name``; this program
        becomes its host and holds its ``host`` seats once ``table_created`` arrives."""
        message = {
            "type": "create_table",
            "rules": {"game": rules.game, "values": rules.to_dict()},
            "seats": [seat.message() for seat in seats],
            "name": name,
            "spectators": spectators,
            "stand_in_after": stand_in_after,
            "listed": listed,
        }
        return self._send(message)

    def take_seat(self, invite: str, name: str, seat: int | None = None) -> int:
        """Take a free open seat (``seat``, or the first free one) at the table of ``invite`` (its
        code) as ``name``. A code that cannot be one is an error at once (``bad_invite``)."""
        code = normalize_invite_code(invite)
        if code is None:
            self.error = LinkError("bad_invite", {}, "that is not an invite code", "take_seat")
            return -1
        self.invite = code
        message: dict[str, Any] = {"type": "take_seat", "invite": code, "name": name}
        if seat is not None:
            message["seat"] = seat
        return self._send(message)

    def spectate(self, invite: str) -> int:
        """Watch the table of ``invite`` (if it takes spectators)."""
        code = normalize_invite_code(invite)
        if code is None:
            self.error = LinkError("bad_invite", {}, "that is not an invite code", "spectate")
            return -1
        self.invite = code
        return self._send({"type": "spectate", "invite": code})

    def set_seat(self, seat: int, choice: SeatChoice) -> int:
        """Host, before the start: put ``choice`` at ``seat`` (its player goes back to the lobby)."""
        return self._send({"type": "set_seat", "table": self.table, "host_token": self.host_token, "seat": seat,
                           **choice.message()})  # fmt: skip

    def move_seat(self, seat: int, to: int) -> int:
        """Host, before the start: swap the seats ``seat`` and ``to``, players and all."""
        return self._send({"type": "move_seat", "table": self.table, "host_token": self.host_token, "seat": seat,
                           "to": to})  # fmt: skip

    def start(self) -> int:
        """Host: begin the game (the server refuses while a seat is not filled)."""
        return self._send({"type": "start", "table": self.table, "host_token": self.host_token})

    def keep_seats(self, paths: UserPaths) -> None:
        """Keep the seats this program holds at the table (``network_seats``), so that they can
        be taken back after the program closed; nothing while it holds none."""
        if self.held and self.table is not None and self.lobby is not None:
            remember(paths, self.client.url, self.table, dict(self.held), self.lobby.name, self.lobby.game)

    def leave(self) -> None:
        """Give up the seats held here (they become free in the lobby) and stop watching."""
        if self.table is not None and not self._handed_over:
            self.client.send({"type": "leave", "table": self.table})
            for seat in self.held:
                self.client.release_seat(self.table, seat)
        self.held = {}
        self.spectating = False

    def close(self) -> None:
        """Leave the table and close the connection, without waiting (not after ``session``: the
        session owns the client then)."""
        if self._handed_over:
            return
        self.leave()
        self.client.close()

    def clear_error(self) -> None:
        self.error = None

    def _send(self, message: dict[str, Any]) -> int:
        number = self.client.send(message)
        self._sent[number] = message["type"]
        return number

    # ------------------------------------------------------------------ what arrived
    def poll(self) -> bool:
        """Take in what arrived since the last call; whether anything a screen shows changed."""
        if self._handed_over:
            return False
        changed = False
        for message in self.client.messages():
            try:
                changed = self._take(message) or changed
            except (KeyError, TypeError, ValueError) as error:  # a malformed frame is dropped, never a crash
                log.warning("a lobby message that could not be read was dropped (%s): %.120r", error, message)
        return changed

    def _carried_out(self, number: Any) -> None:
        if self._sent.pop(number, None) == "spectate":
            self.spectating = True

    def _take(self, message: dict[str, Any]) -> bool:
        kind = str(message.get("type"))
        if kind in _GAME_MESSAGES:
            self._game_messages.append(message)
            if kind == "step" and "re" in message:
                self._carried_out(message["re"])  # a step that answers a message stands for its ``ok``
            return kind == "step"
        if kind == LINK:
            self._game_messages.append(message)  # the session must know of a drop, too
            return True
        if kind == "table_created":
            self.table, self.invite, self.host_token = str(message["table"]), message["invite"], message["host_token"]
            for entry in message["seats"]:
                self._hold(int(entry["seat"]), str(entry["token"]))
            return True
        if kind == "seated":
            if message.get("token") is not None:  # an answer to take_seat or set_seat (resume repeats none)
                self.table = str(message["table"])
                self._hold(int(message["seat"]), str(message["token"]))
            return True
        if kind == "seat_lost":
            if message.get("table") == self.table and self.held.pop(int(message["seat"]), None) is not None:
                self.client.release_seat(str(self.table), int(message["seat"]))
                self.seat_lost = not self.is_host
            return True
        if kind == "seat_moved":
            return self._moved(int(message["seat"]), int(message["to"]))
        if kind == "lobby":
            lobby = read_lobby(message)
            if lobby is None or (self.table is not None and lobby.table != self.table):
                return False
            self.table = lobby.table
            self.lobby = lobby
            return True
        if kind == "table_closed" and message.get("table") == self.table:
            # The host closed the table: said as an error, and nothing to reconnect to.
            self.error = LinkError("table_closed", {}, "the host closed the table", "")
            self.client.close()
            return True
        if kind == "ok":
            self._carried_out(message.get("re", -1))
            return False
        if kind == "error":
            request = self._sent.pop(message.get("re", -1), "")
            params = message.get("params")
            self.error = LinkError(
                str(message.get("code", "")),
                params if isinstance(params, dict) else {},
                str(message.get("message", ""))[:200],
                request,
            )
            return True
        return False

    def _hold(self, seat: int, token: str) -> None:
        self.held[seat] = token
        if self.table is not None:
            self.client.hold_seat(self.table, seat, token)

    def _moved(self, seat: int, to: int) -> bool:
        """The host moved this program's player from ``seat`` to ``to`` (the token goes along)."""
        token = self.held.pop(seat, None)
        if token is None or self.table is None:
            return False
        self.client.release_seat(self.table, seat)
        self._hold(to, token)
        return True

    # ------------------------------------------------------------------ the game
    def session(self, *, user_paths: UserPaths | None = None, **options: Any) -> RemoteSession:
        """The table's game as a ``RemoteSession`` for the seats held here (once ``game_ready``);
        the session owns the client from then on. ``options`` go to ``RemoteSession``.
        ``NetworkTableError`` when the table cannot be shown."""
        if self.lobby is None or self.table is None:
            raise RuntimeError("no table to open")
        self.poll()
        self._handed_over = True
        return RemoteSession(
            self.client,
            self.table,
            dict(self.held),
            self.lobby.message,
            messages=list(self._game_messages),
            user_paths=user_paths,
            **options,
        )


def read_lobby(message: Mapping[str, Any]) -> Lobby | None:
    """A ``lobby`` message as a ``Lobby``; None (logged) when it does not describe a table this
    program can show."""
    try:
        rules = decode_rules(message.get("rules"))
    except WireError as error:  # a game or rules this version cannot read: the table cannot be shown here
        log.warning("a lobby whose rules cannot be read was dropped: %s", error)
        return None
    entries = message.get("seats")
    if not isinstance(entries, list) or not entries:
        return None
    seats = []
    for index, entry in enumerate(entries):
        entry = entry if isinstance(entry, dict) else {}
        kind = str(entry.get("kind")) if entry.get("kind") in (OPEN, HOST, COMPUTER) else OPEN
        level = entry.get("level")
        seats.append(
            LobbySeat(
                seat=index,
                kind=kind,
                level=level if isinstance(level, str) and kind == COMPUTER else None,
                name=clean_name(entry.get("name")),
                taken=entry.get("taken") is True,
                connected=entry.get("connected") is True,
            )
        )
    stand_in = message.get("stand_in_after")
    return Lobby(
        table=str(message.get("table", "")),
        name=clean_name(message.get("name")),
        game=rules.game,
        rules=rules,
        seats=tuple(seats),
        started=message.get("started") is True,
        spectators=message.get("spectators") is True,
        stand_in_after=float(stand_in)
        if isinstance(stand_in, (int, float)) and not isinstance(stand_in, bool)
        else None,
        message=dict(message),
    )


def link_closed(link: LobbyLink) -> bool:
    """The link ended for good (closed here, or a server of another protocol version)."""
    return link.status.state == CLOSED
