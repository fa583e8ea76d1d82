"""Writing hand-history files so that a full disk, a kill or a power cut never costs an earlier game."""

from __future__ import annotations

import errno
import json
import logging
import os
import stat
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any, BinaryIO

from game.persistence import file_lock, line_reader
from game.persistence.history_codec import FORMAT
from game.settings.paths import atomic_write_bytes, fsync_folder

log = logging.getLogger("tricktable.history")

# ---------------------------------------------------------------------- files
# How a history file is written so that it never breaks: each game is one
# line, encoded first and handed to the operating system in a single write
# together with its newline, then flushed to the disk. A write that fails
# part-way (a full disk) is cut back to where the game began. A write that
# could not be cut back (the program was killed, the power went) leaves a
# torn last line; ``repair_history_tail`` moves such a tail to a ".damaged"
# file beside the history before anything else is appended, so the next game
# starts on a clean line and every earlier game stays readable.

DAMAGED_SUFFIX = ".damaged"
# The end of a file is read backwards in blocks of this size to find where
# its last line begins.
_SCAN_BLOCK = 64 * 1024


def encode_record(record: dict[str, Any]) -> bytes:
    """One game as its line of the file: compact, key-ordered JSON and a newline."""
    return (json.dumps(record, separators=(",", ":"), ensure_ascii=False) + "\n").encode("utf-8")


def _is_record_line(handle: BinaryIO, start: int, end: int) -> bool:
    """Whether the bytes from ``start`` to ``end`` of ``handle`` (one line) are a whole game
    record (or a blank line, which readers skip). A line longer than any game
    (``line_reader.MAX_LINE_BYTES``) is none, and is not read to find that out."""
    if end - start > line_reader.MAX_LINE_BYTES:
        return False
    handle.seek(start)
    raw = handle.read(end - start)
    if not raw.strip():
        return True
    try:
        record = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return False
    return isinstance(record, dict) and record.get("format") == FORMAT


def _start_of_line_ending_at(handle: BinaryIO, end: int) -> int:
    """Where the line whose last byte is just before ``end`` begins (0 for the first line)."""
    position = end - 1  # the byte at end - 1 is the line's own newline (or its last byte)
    while position > 0:
        block_start = max(0, position - _SCAN_BLOCK)
        handle.seek(block_start)
        block = handle.read(position - block_start)
        newline = block.rfind(b"\n")
        if newline >= 0:
            return block_start + newline + 1
        position = block_start
    return 0


def _good_end(handle: BinaryIO, size: int) -> tuple[int, bool]:
    """How much of a history file to keep, and whether its last kept line lacks its newline.

    Writes leave two kinds of damage, both at the end: a torn line without
    its newline (the last write was cut short), and, in a file written
    before writes were made whole, a last line that is no record because a
    game was appended onto a torn line. Both are damage; the lines before
    them are not looked at (a hand edit further up is the user's to see,
    and ``replay --check`` names it). A torn tail that is nevertheless a
    whole record (the write stopped just before its newline) is kept and
    only needs its newline.
    """
    end = size
    handle.seek(size - 1)
    if handle.read(1) != b"\n":
        start = _start_of_line_ending_at(handle, size)
        if _is_record_line(handle, start, size):
            return size, True
        end = start
    if end > 0:
        start = _start_of_line_ending_at(handle, end)
        if not _is_record_line(handle, start, end):
            end = start
    return end, False


def damaged_path(path: str | Path) -> Path:
    """Where the damaged tail of a history file is set aside: ``<name>.damaged`` beside it."""
    path = Path(path)
    return path.with_name(path.name + DAMAGED_SUFFIX)


def repair_history_tail(path: str | Path) -> int:
    """Make a history file end on a whole game; the number of bytes set aside.

    The damage is appended to ``damaged_path(path)`` (and flushed to disk)
    before the history is shortened, so nothing is ever deleted, and the
    repair is logged. A missing or empty file needs no repair. ``OSError``
    when the file cannot be read or changed.

    The file is locked while it is looked at (``game.persistence.file_lock``): an unfinished
    last line may be a game another copy of the program is writing at this
    moment, not damage. While another writer holds the lock the file is left
    alone (logged); that writer checks the end itself before it appends.
    """
    path = Path(path)
    try:
        # Without waiting: a pipe of that name would block a plain open until
        # somebody wrote to it. Only a regular file is a history to repair.
        descriptor = os.open(path, os.O_RDWR | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return 0
    try:
        regular = stat.S_ISREG(os.fstat(descriptor).st_mode)
    except OSError:
        os.close(descriptor)
        raise
    if not regular:
        os.close(descriptor)
        log.warning("%s: not a regular file, so no hand history; left alone", path)
        return 0
    handle = os.fdopen(descriptor, "r+b")
    with handle:
        if not file_lock.lock(handle, file_lock.BRIEF_WAIT_SECONDS):
            log.info("%s: another Trick Table run is writing it; its end is checked later", path)
            return 0
        try:
            return _repair_open_tail(path, handle)
        finally:
            file_lock.unlock(handle)


def _repair_open_tail(path: Path, handle: BinaryIO) -> int:
    """``repair_history_tail`` on a file open for reading and writing, its lock held."""
    size = handle.seek(0, os.SEEK_END)
    if size == 0:
        return 0
    keep, needs_newline = _good_end(handle, size)
    if needs_newline:
        handle.seek(size)
        handle.write(b"\n")
        _flush_to_disk(handle)
        log.warning("%s: the last game was written without its line end; added it", path)
        return 0
    if keep == size:
        return 0
    aside = damaged_path(path)
    with open(aside, "ab") as damaged:
        _copy_span(handle, keep, size, damaged)
        _flush_to_disk(damaged)
    handle.truncate(keep)
    _flush_to_disk(handle)
    log.warning(
        "%s: set aside %d bytes of an incomplete or damaged record at its end into %s", path, size - keep, aside.name
    )
    return size - keep


def _copy_span(source: BinaryIO, start: int, end: int, target: BinaryIO) -> None:
    """Bytes ``start`` to ``end`` of ``source`` appended to ``target`` a block at a time (a torn
    tail may be hundreds of megabytes), ended with a newline if they lack one."""
    source.seek(start)
    position, last = start, b"\n"
    while position < end:
        block = source.read(min(_SCAN_BLOCK, end - position))
        if not block:
            break
        target.write(block)
        position += len(block)
        last = block[-1:]
    if last != b"\n":
        target.write(b"\n")


def repair_history_folder(folder: str | Path) -> list[Path]:
    """``repair_history_tail`` on each history file (``*.jsonl``) in ``folder``; those it set damage aside from.

    Run at start-up. A file that cannot be repaired (no permission, say) is
    logged and left for the next write to report; a missing folder has
    nothing to repair.
    """
    repaired: list[Path] = []
    try:
        files = sorted(Path(folder).glob("*.jsonl"))
    except OSError:
        return repaired
    for path in files:
        try:
            if repair_history_tail(path):
                repaired.append(path)
        except OSError as exc:
            log.warning("%s: could not check the end of the history: %s", path, exc.strerror or exc)
    return repaired


def _flush_to_disk(handle: BinaryIO) -> None:
    handle.flush()
    # A device or a pipe (``--history /dev/null``, the usual way to discard
    # output) has no copy on a disk to flush, and refuses fsync (EINVAL).
    if stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
        os.fsync(handle.fileno())


def _write_whole(handle: BinaryIO, data: bytes) -> None:
    """All of ``data``: an unbuffered write may take only part of it at a time."""
    view = memoryview(data)
    while view:
        written = handle.write(view)
        if not written:
            raise OSError(errno.EIO, "the file accepted no data")
        view = view[written:]


class HistoryWriter:
    """Appends whole games to one history file, each game a line.

    ``replace=True`` starts the file afresh (``simulate --history``);
    otherwise the games are added to what is there, after
    ``repair_history_tail``. Each ``append`` writes the game in one piece
    and hands it to the operating system at once, so a killed program loses
    at most the game it was writing; ``sync_seconds`` is how often the file
    is also flushed to the disk itself (0: after every game; a power cut
    then loses nothing finished). A failed append (``OSError``, such as a
    full disk) cuts the file back to where the game began and the writer
    stays usable. Opening does not create missing folders: ``OSError``.

    Several writers of one file take turns (``game.persistence.file_lock``). An appending
    writer locks the file for each game: it waits for the lock, checks the
    end of the file again if another writer added to it meanwhile (one killed
    mid-game leaves a torn line to set aside), writes its game whole and lets
    go. A replacing writer holds the lock from before it empties the file
    until it is closed, so a second writer that would replace the same file
    is refused (``FileBusyError``) instead of emptying the first one's games,
    and an appending one waits its turn or gives up with that error.
    """

    def __init__(self, path: str | Path, *, replace: bool = False, sync_seconds: float = 0.0) -> None:
        self.path = Path(path)
        self.games = 0
        self._sync_seconds = sync_seconds
        self._unsynced = False
        self._last_sync = time.monotonic()
        self._holds_lock = replace
        new_file = replace or not self.path.exists()
        if not replace:
            repair_history_tail(self.path)
        # Unbuffered: every write goes straight to the operating system, so
        # nothing finished waits in this process's memory when it is killed.
        # Opened to append (never emptied by opening: the lock comes first) and to
        # read, so the end of the file can be checked under the lock.
        self._handle: BinaryIO = open(self.path, "a+b", buffering=0)
        if replace:
            self._start_afresh()
        # Where this writer's last game ended: a file of another size has had
        # games added by another writer since. An appending writer has written
        # nothing yet: its first game checks the end under the lock.
        self._end = os.fstat(self._handle.fileno()).st_size if replace else -1
        if new_file:
            fsync_folder(self.path.parent)

    def _start_afresh(self) -> None:
        """Take the lock for good, then empty the file (``FileBusyError`` if another writer has it)."""
        if not file_lock.lock(self._handle, file_lock.BRIEF_WAIT_SECONDS):
            self._handle.close()
            raise file_lock.FileBusyError(self.path)
        try:
            # A device (/dev/null, a pipe) cannot be emptied, nor needs to be.
            if stat.S_ISREG(os.fstat(self._handle.fileno()).st_mode):
                self._handle.truncate(0)
        except BaseException:
            file_lock.unlock(self._handle)
            self._handle.close()
            raise

    def __enter__(self) -> HistoryWriter:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def append(self, record: dict[str, Any], once: bool = False) -> bool:
        """Add one game to the file (``OSError`` if it could not be written whole;
        ``FileBusyError`` if another writer kept the file locked too long).

        ``once``: a game the file already holds is not added again (see
        ``holds_line``); False when it was skipped, logged."""
        data = encode_record(record)
        if self._holds_lock:
            written = self._append_locked(data, once)
        else:
            with file_lock.locked(self._handle, self.path):
                written = self._append_locked(data, once)
        if written:
            self.games += 1
        else:
            log.warning(
                "%s already holds %s game %s (the same game, deal for deal): not recorded again",
                self.path,
                record.get("game"),
                record.get("seed"),
            )
        return written

    def _append_locked(self, data: bytes, once: bool = False) -> bool:
        if once and holds_line(self._handle, data):
            return False
        self._append_bytes(data)
        return True

    def _append_bytes(self, data: bytes) -> None:
        start = os.fstat(self._handle.fileno()).st_size
        if start != self._end:
            # Another writer added to the file since this one last wrote: if it was
            # cut short mid-game, its torn line goes aside before this game follows it.
            _repair_open_tail(self.path, self._handle)
            start = os.fstat(self._handle.fileno()).st_size
        try:
            _write_whole(self._handle, data)
            self._unsynced = True
            if time.monotonic() - self._last_sync >= self._sync_seconds:
                self.sync()
        except OSError:
            self._cut_back(start)
            self._end = start
            raise
        self._end = start + len(data)

    def sync(self) -> None:
        """Flush what was appended to the disk itself."""
        if self._unsynced:
            _flush_to_disk(self._handle)
            self._unsynced = False
        self._last_sync = time.monotonic()

    def close(self) -> None:
        if self._handle.closed:
            return
        try:
            self.sync()
        finally:
            if self._holds_lock:
                file_lock.unlock(self._handle)
            self._handle.close()

    def _cut_back(self, size: int) -> None:
        # Best effort: if even this fails, the torn line is set aside by
        # repair_history_tail the next time the file is opened.
        try:
            self._handle.truncate(size)
            _flush_to_disk(self._handle)
        except OSError:
            log.warning("%s: could not remove a partly written game; it is set aside on the next start", self.path)


# How much of a history file is read at a time when looking for a game in it.
_SCAN_CHUNK = 1 << 20


def holds_line(handle: BinaryIO, line: bytes) -> bool:
    """Whether the open file holds ``line`` (a game's line, newline included) as one of its lines.

    A game's identity is its whole record: the seed and rules with every card
    dealt and played, every bid and score, written the same way byte for byte
    each time (``encode_record``), so the very game the window replays from a
    save that outlived its ending matches the line it wrote then, while two
    games that differ in anything at all never match. The file is read in
    chunks and a line longer than ``line`` is passed over unread, so memory
    stays flat whatever the file holds."""
    size = os.fstat(handle.fileno()).st_size
    position = 0
    current = b""
    too_long = False
    while position < size:
        handle.seek(position)  # an appending writer's writes go to the end wherever this reads
        chunk = handle.read(min(_SCAN_CHUNK, size - position))
        if not chunk:
            break
        position += len(chunk)
        start = 0
        while start < len(chunk):
            newline = chunk.find(b"\n", start)
            piece = chunk[start:] if newline < 0 else chunk[start : newline + 1]
            start += len(piece)
            if not too_long:
                current += piece
                too_long = len(current) > len(line)
            if newline >= 0:
                if not too_long and current == line:
                    return True
                current, too_long = b"", False
    return False


def write_history(path: str | Path, records: Iterable[dict[str, Any]], append: bool = False) -> None:
    """Write games as JSON Lines (one compact, key-ordered line per game).

    ``append=True`` adds them to the file (see ``HistoryWriter``; every game
    is on the disk before this returns); otherwise the file is replaced
    atomically, so readers see the old file or the new one.
    """
    if append:
        with HistoryWriter(path) as writer:
            for record in records:
                writer.append(record)
    else:
        atomic_write_bytes(Path(path), b"".join(encode_record(record) for record in records))
