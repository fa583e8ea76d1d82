"""The protocol's fixed parts: its version, limits, error codes, invite codes and seat tokens.

``docs/PROTOCOL.md`` documents every message; this module holds what both ends
must agree on, so the server and the client never spell a limit or a code twice.
"""

from __future__ import annotations

# Invite codes are eight characters of Crockford's base 32 (no I, L, O or U, so a
# code read aloud or copied by hand is not misread), shown as two groups of four.
# Tokens are 128 random bits; the server keeps only their SHA-256, so its table
# logs hold nothing that takes a seat.

import hashlib
import re
import secrets
from dataclasses import dataclass

PROTOCOL_VERSION = 2
DEFAULT_PORT = 47123
CLIENT_FRAME_LIMIT = 8 * 1024  # bytes in one frame from a client
SERVER_FRAME_LIMIT = 1024 * 1024  # bytes in one frame from the server (a game's history at its end)
RATE_PER_SECOND = 20.0  # messages a connection may send a second, on average
RATE_BURST = 40  # ... and at once
FLOOD_CLOSE_AFTER = 200  # messages over the allowance before the connection is closed
BAD_FRAMES_CLOSE_AFTER = 20  # malformed frames before the connection is closed
HELLO_SECONDS = 10.0  # the first message must be hello within this
MAX_TABLES = 2000
MAX_SEATS = 6
MAX_SPECTATORS = 8
MAX_NAME = 24  # characters of a player's name
SERVICE_TYPE = "_tricktable._tcp.local."  # what zeroconf advertises and browses

ERROR_CODES = (
    "bad_json",
    "not_text",
    "bad_message",
    "unknown_type",
    "hello_first",
    "version",
    "rate_limited",
    "no_table",
    "bad_invite",
    "no_free_seat",
    "seat_taken",
    "bad_token",
    "not_host",
    "not_seated",
    "seats_not_filled",
    "started",
    "not_started",
    "no_spectators",
    "bad_rules",
    "bad_seats",
    "too_many_tables",
    "server_busy",
    "store_unavailable",
    "moved",
)

_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford's base 32
_READ_AS = str.maketrans({"I": "1", "L": "1", "O": "0"})
_CODE = re.compile(r"^[0-9A-HJKMNP-TV-Z]{8}$")


def new_invite_code() -> str:
    """A fresh invite code, ``ABCD-2345``."""
    raw = "".join(secrets.choice(_ALPHABET) for _ in range(8))
    return f"{raw[:4]}-{raw[4:]}"


def normalize_invite_code(text: str) -> str | None:
    """``text`` as an invite code (``ABCD-2345``), or None when it is not one. Case, spaces and
    the dash do not matter, and I, L and O are read as the digits they look like."""
    if not isinstance(text, str) or len(text) > 20:
        return None
    raw = re.sub(r"[\s-]", "", text).upper().translate(_READ_AS)
    return f"{raw[:4]}-{raw[4:]}" if _CODE.match(raw) else None


@dataclass(frozen=True)
class Invite:
    """Where a table is and its code: ``host:port/CODE`` (``host`` may be empty: the code alone)."""

    host: str
    port: int
    code: str

    def __str__(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{self.port}/{self.code}" if self.host else self.code


_INVITE = re.compile(
    r"^(?:(?:wss?://)?(?P<host>\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(?::(?P<port>\d{1,5}))?/?)?(?P<code>.*)$"
)


def parse_invite(text: str, default_port: int = DEFAULT_PORT) -> Invite | None:
    """An invite as typed: ``host:port/CODE``, ``host/CODE`` (the default port) or ``CODE``
    alone (no host); None when it cannot be one."""
    if not isinstance(text, str) or len(text) > 300:
        return None
    text = text.strip()
    code = normalize_invite_code(text)
    if code is not None:
        return Invite("", default_port, code)
    match = _INVITE.match(text)
    if match is None or match.group("host") is None:
        return None
    code = normalize_invite_code(match.group("code"))
    port = int(match.group("port") or default_port)
    if code is None or not 0 < port < 65536:
        return None
    return Invite(match.group("host").strip("[]"), port, code)


def new_token() -> str:
    """A secret that takes a seat (or runs a lobby) back: 128 random bits."""
    return secrets.token_urlsafe(16)


def token_hash(token: str) -> str:
    """What the server keeps of a token."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def tokens_match(token: object, stored_hash: str) -> bool:
    """Whether ``token`` is the one ``stored_hash`` was made from (in constant time)."""
    return isinstance(token, str) and len(token) < 100 and secrets.compare_digest(token_hash(token), stored_hash)
