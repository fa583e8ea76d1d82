"""Joining or rejoining a table: a ``NetClient`` and a ``LobbyLink``, polled until seated or failed.

The window calls ``poll`` each frame (never waits) until ``state`` is ``JOINED`` (the link
holds its seats and the lobby: open the lobby screen on ``link``) or ``FAILED`` (``failure``
or the server's ``error`` says why, and the connection is closed).
"""

from __future__ import annotations

# A connection that fails before it was ever up is a failure here, not something to try
# again for ever as NetClient would: the player typed an address and waits for an answer.
# The client's reason is its library's English (an OSError's text); ``link_failure``
# sorts it into the few cases a player can act on (nobody listening at that port, no
# such computer, no route to it, no answer in time).

import errno
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from game.net.client import CONNECTED, NetClient

if TYPE_CHECKING:
    from game.net.lobby_link import LinkError, LobbyLink

CONNECT_SECONDS = 8.0  # how long a join may take before the player is told it timed out

CONNECTING = "connecting"
JOINED = "joined"
FAILED = "failed"

_REFUSED = {errno.ECONNREFUSED, 10061}  # 10061: Windows' WSAECONNREFUSED
_UNREACHABLE = {errno.EHOSTUNREACH, errno.ENETUNREACH, errno.EADDRNOTAVAIL, 10051, 10065}
_TIMED_OUT = {errno.ETIMEDOUT, 10060}
_ERRNO = re.compile(r"\[Errno (-?\d+)\]")
# getaddrinfo's failures: negative numbers on Linux and macOS, 11001-11004 on Windows.
_NO_SUCH_HOST = re.compile(r"\[Errno (-\d+|1100[1-4])\]|getaddrinfo|Name or service not known|nodename nor servname")


@dataclass(frozen=True)
class JoinFailure:
    """Why a connection failed, in a code the screen words: ``refused``, ``unknown_host``,
    ``unreachable``, ``timeout``, ``version`` or ``failed`` (``detail``: the library's words)."""

    code: str
    detail: str = ""


def link_failure(reason: str) -> JoinFailure:
    """The failure a NetClient's reason for a lost or closed link stands for."""
    if reason == "version":
        return JoinFailure("version")
    numbers = {int(number) for number in _ERRNO.findall(reason)}
    if _NO_SUCH_HOST.search(reason):
        return JoinFailure("unknown_host", reason)
    if numbers & _REFUSED or "Connect call failed" in reason or "refused" in reason.lower():
        return JoinFailure("refused", reason)
    if numbers & _UNREACHABLE or "unreachable" in reason.lower():
        return JoinFailure("unreachable", reason)
    if numbers & _TIMED_OUT or "timed out" in reason.lower():
        return JoinFailure("timeout", reason)
    return JoinFailure("failed", reason[:200])


class JoinAttempt:
    """One join or rejoin of a table over its own new connection (see the module docstring)."""

    def __init__(self, link: LobbyLink, clock: Callable[[], float] = time.monotonic) -> None:
        self.link: LobbyLink | None = link
        self.client = link.client
        self.url = link.client.url
        self._clock = clock
        self.started_at = clock()
        self.state = CONNECTING
        self.failure: JoinFailure | None = None
        self.error: LinkError | None = None  # the server's coded refusal

    @classmethod
    def join(
        cls, url: str, app_name: str, invite: str, name: str, on_arrival: Callable[[], None] | None = None
    ) -> JoinAttempt:
        """Take a free seat at the table of ``invite`` (its code) on the server at ``url``."""
        from game.net.lobby_link import LobbyLink

        client = NetClient(url, app_name, on_arrival=on_arrival)
        client.start()
        link = LobbyLink(client)
        link.take_seat(invite, name)
        return cls(link)

    @classmethod
    def watch(cls, url: str, app_name: str, invite: str, on_arrival: Callable[[], None] | None = None) -> JoinAttempt:
        """Watch the table of ``invite`` as a spectator (the public view: nobody's hand)."""
        from game.net.lobby_link import LobbyLink

        client = NetClient(url, app_name, on_arrival=on_arrival)
        client.start()
        link = LobbyLink(client)
        link.spectate(invite)
        return cls(link)

    @classmethod
    def rejoin(
        cls,
        url: str,
        app_name: str,
        table: str,
        seats: Mapping[int, str],
        on_arrival: Callable[[], None] | None = None,
    ) -> JoinAttempt:
        """Take back ``seats`` (seat -> token) at ``table``: the client resumes each one as soon as
        it is connected, before the game or the lobby says anything else."""
        from game.net.lobby_link import LobbyLink

        client = NetClient(url, app_name, on_arrival=on_arrival)
        for seat, token in seats.items():
            client.hold_seat(table, seat, token)  # before the start: the first connection resumes them
        client.start()
        link = LobbyLink(client)
        link.table = table
        link.held = dict(seats)
        return cls(link)

    @property
    def seconds_left(self) -> float:
        return max(0.0, self.started_at + CONNECT_SECONDS - self._clock())

    def poll(self) -> bool:
        """Take in what arrived; True when ``state`` changed."""
        link = self.link
        if self.state != CONNECTING or link is None:
            return False
        link.poll()
        if link.error is not None:
            self.error = link.error
            return self._fail()
        if link.lobby is not None and (link.held or link.spectating):
            self.state = JOINED
            return True
        status = self.client.status
        if status.state != CONNECTED and status.reason:
            # Never up (a refusal, no such host), or lost before the seat was taken: the
            # client keeps its last failure's reason while it waits to try again.
            self.failure = link_failure(status.reason)
            return self._fail()
        if self.seconds_left <= 0.0:
            self.failure = JoinFailure("timeout")
            return self._fail()
        return False

    def cancel(self) -> None:
        """Give up (the player pressed Back or chose another table)."""
        if self.state == CONNECTING:
            self._fail()

    def _fail(self) -> bool:
        self.state = FAILED
        self.client.close()
        self.link = None
        return True
