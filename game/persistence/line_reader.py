"""Reading a file of lines (a hand history) with a cap on each line, so no file costs memory."""

from __future__ import annotations

# Every reader of the hand-history files (the statistics, the replay viewer,
# ``replay --check``, the start-up repair) reads them through this module:
#
# * ``open_lines_file`` opens a file for reading and refuses what never ends
#   (``/dev/zero``, a terminal, any device) or is no file at all. A regular
#   file or a pipe is read: both end.
# * ``capped_lines`` yields the file's lines one at a time, each with its
#   number and where it ends. A line longer than ``MAX_LINE_BYTES`` is no line
#   this program writes (the longest games are well under a megabyte): it is
#   read past in pieces of ``SKIP_PIECE`` bytes up to its newline, never held
#   whole, and yielded with ``raw=None`` so that the reader can name it and go
#   on. So a file of any size, with or without newlines, costs at most about
#   ``MAX_LINE_BYTES`` of memory.

import errno
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO, NamedTuple

# A line longer than this is no game this program writes; it is skipped in pieces.
MAX_LINE_BYTES = 16 * 1024 * 1024
SKIP_PIECE = 1024 * 1024


class Line(NamedTuple):
    """One line of a file: its ``number`` (from the first line's number on), its bytes with
    the newline (None for a line over the cap, which was read past), and ``end``, the byte
    offset just after it; ``complete`` is whether it ends with a newline (only a last
    line can lack one)."""

    number: int
    raw: bytes | None
    end: int
    complete: bool


def open_lines_file(path: str | Path) -> BinaryIO:
    """``path`` open for reading bytes, if it is a regular file or a pipe.

    ``OSError`` when it cannot be opened, and ``OSError(EINVAL)`` for a device
    or anything else that is no file (``/dev/zero`` never ends; a terminal waits
    for a person)."""
    handle = open(path, "rb")
    try:
        kind = os.fstat(handle.fileno()).st_mode
    except OSError:
        handle.close()
        raise
    if not (stat.S_ISREG(kind) or stat.S_ISFIFO(kind)):
        handle.close()
        raise OSError(errno.EINVAL, "not a file (a device or a folder cannot be read as one)", str(path))
    return handle


def capped_lines(handle: BinaryIO, offset: int = 0, first_line: int = 1) -> Iterator[Line]:
    """Each line of ``handle`` from byte ``offset`` (the start of line ``first_line``) on.

    A line longer than ``MAX_LINE_BYTES`` comes with ``raw=None`` (see the module).
    ``offset`` is only counted from, not sought: the handle must already be there.
    """
    limit = MAX_LINE_BYTES  # read at each call, so that a test may make it small
    position, number = offset, first_line
    while True:
        raw = handle.readline(limit + 1)
        if not raw:
            return
        position += len(raw)
        complete = raw.endswith(b"\n")
        if len(raw) <= limit or complete:
            yield Line(number, raw, position, complete)
        else:
            del raw  # the piece read so far is dropped before the rest is read past
            while True:
                piece = handle.readline(SKIP_PIECE)
                position += len(piece)
                if not piece or piece.endswith(b"\n"):
                    complete = bool(piece)
                    break
            yield Line(number, None, position, complete)
        number += 1
