"""Frames held back until the lines that caused them are written to Redis.

A server with ``--redis`` sends nothing while its journal has lines on their way:
``HeldConnection`` puts each frame in the ``FrameHold`` instead, in order, and the
journal lets them go once Redis has the lines (or drops a table's when it lost it).
"""

from __future__ import annotations

# Every frame is held while lines are pending, not only the steps they cause: a
# connection's frames then always go out in the order they were made, and the others
# wait at most one Redis round trip.

from dataclasses import dataclass, field
from typing import Any

from game.net.server import Connection
from game.net.wire import compact_json

_TABLE_FIELD = '"table":"'


def frame_table(text: str) -> str | None:
    """The table a frame is about (its ``table`` field, near its start), or None."""
    start = text.find(_TABLE_FIELD, 0, 120)
    if start < 0:
        return None
    start += len(_TABLE_FIELD)
    end = text.find('"', start, start + 40)
    return text[start:end] if end > 0 else None


class FrameHold:
    """The frames waiting for the journal: ``holding`` while lines are on their way."""

    def __init__(self) -> None:
        self.holding = False
        self.frames: list[tuple[Connection, str]] = []

    def hold(self, conn: Connection, text: str) -> None:
        self.frames.append((conn, text))

    def release(self, count: int | None = None, dropped_tables: frozenset[str] = frozenset()) -> None:
        """Send the first ``count`` frames held (None: all), but none about ``dropped_tables``."""
        count = len(self.frames) if count is None else count
        going, self.frames = self.frames[:count], self.frames[count:]
        for conn, text in going:
            if dropped_tables and frame_table(text) in dropped_tables:
                continue
            Connection.send_text(conn, text)


@dataclass(eq=False)
class HeldConnection(Connection):
    """A connection whose frames wait in ``frame_hold`` while it holds them."""

    frame_hold: FrameHold = field(default_factory=FrameHold)

    def send(self, frame: dict[str, Any]) -> None:
        self.send_text(compact_json(frame))  # every frame through the hold, whatever the base class does

    def send_text(self, text: str) -> None:
        if self.frame_hold.holding:
            self.frame_hold.hold(self, text)
        else:
            super().send_text(text)
