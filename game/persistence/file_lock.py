"""Locks on open files, so that two copies of the program writing one file take turns."""

from __future__ import annotations

# Two runs of ``simulate --history`` on one file, or two windows on one data
# folder, must never write over each other's games. Each writer holds a lock
# on the file while it writes (a hand history) or while it runs (a window's
# saves, ``game.persistence.savegame.claim_saves``); whoever finds the lock taken waits a
# moment or is refused with a clear message.
#
# The lock belongs to the open file: the operating system drops it when the
# file is closed or the process ends, however it ends (crashed, killed, the
# power cut), so a stale lock never blocks anyone.
#
# - POSIX: ``flock`` on the whole file. It is advisory: it only stops other
#   lockers, and readers (statistics, ``replay --check``) read on freely.
# - Windows: ``msvcrt.locking`` of one byte at ``LOCK_BYTE``. Windows locks
#   are mandatory for the bytes they cover, so the byte is one far past the
#   data a reader reads or a writer writes.
#
# A file system without locks (some network shares) cannot make writers take
# turns; the lock is then taken as held, so the program still works there as
# it did before locks existed, and the log says so once per file.

import contextlib
import errno
import logging
import os
import time
from collections.abc import Iterator
from typing import IO, Any

log = logging.getLogger("tricktable.file_lock")

# How long a writer waits for another to finish before giving up. A history
# append holds the lock for one write and an fsync (milliseconds); only a
# whole ``simulate`` run that replaces the file holds it for longer.
LOCK_WAIT_SECONDS = 3.0
# How long a writer that would empty the file waits: long enough for an
# append to finish, short enough that a whole run holding the lock is
# refused at once rather than waited out (and its games then emptied).
BRIEF_WAIT_SECONDS = 0.5
POLL_SECONDS = 0.01
# The byte Windows locks: past the data of any file the program writes
# (msvcrt.locking counts from a 32-bit position on some runtimes, so it stays below 2 GiB).
LOCK_BYTE = 0x7FFF_FFF0

_BUSY_ERRNOS = frozenset(
    {errno.EACCES, errno.EAGAIN, errno.EWOULDBLOCK, getattr(errno, "EDEADLOCK", errno.EDEADLK), errno.EDEADLK}
)
_warned_unlockable: set[str] = set()


class FileBusyError(OSError):
    """Another writer holds the lock on the file (``strerror`` says so in English)."""

    def __init__(self, path: Any) -> None:
        super().__init__(errno.EBUSY, "another Trick Table run is writing it", str(path))


def try_lock(handle: IO[Any]) -> bool:
    """Take the lock on the open file ``handle`` if it is free: True when held now, False when
    another open file holds it (in this process or another). Never waits."""
    fd = handle.fileno()
    try:
        return _try_lock_fd(fd)
    except OSError as exc:
        name = str(getattr(handle, "name", fd))
        if name not in _warned_unlockable:
            _warned_unlockable.add(name)
            log.warning(
                "%s: the file system cannot lock files (%s); two copies of Trick Table "
                "writing it at once could not take turns",
                name,
                exc.strerror or exc,
            )
        return True


def lock(handle: IO[Any], wait_seconds: float = LOCK_WAIT_SECONDS) -> bool:
    """Take the lock on ``handle``, waiting up to ``wait_seconds`` for another holder to
    let it go; False when it is still held by then."""
    deadline = time.monotonic() + wait_seconds
    while not try_lock(handle):
        if time.monotonic() >= deadline:
            return False
        time.sleep(POLL_SECONDS)
    return True


def unlock(handle: IO[Any]) -> None:
    """Let the lock on ``handle`` go (closing the file also does; explicit is prompter on Windows)."""
    with contextlib.suppress(OSError, ValueError):
        _unlock_fd(handle.fileno())


@contextlib.contextmanager
def locked(handle: IO[Any], path: Any, wait_seconds: float = LOCK_WAIT_SECONDS) -> Iterator[None]:
    """Hold the lock on ``handle`` for a block; ``FileBusyError`` naming ``path`` when
    another writer still holds it after ``wait_seconds``."""
    if not lock(handle, wait_seconds):
        raise FileBusyError(path)
    try:
        yield
    finally:
        unlock(handle)


if os.name == "nt":  # pragma: no cover - exercised on Windows only
    import msvcrt

    def _at_lock_byte(fd: int, mode: int) -> None:
        position = os.lseek(fd, 0, os.SEEK_CUR)
        os.lseek(fd, LOCK_BYTE, os.SEEK_SET)
        try:
            msvcrt.locking(fd, mode, 1)  # type: ignore[attr-defined]
        finally:
            os.lseek(fd, position, os.SEEK_SET)

    def _try_lock_fd(fd: int) -> bool:
        try:
            _at_lock_byte(fd, msvcrt.LK_NBLCK)  # type: ignore[attr-defined]
        except OSError as exc:
            if exc.errno in _BUSY_ERRNOS:
                return False
            raise
        return True

    def _unlock_fd(fd: int) -> None:
        _at_lock_byte(fd, msvcrt.LK_UNLCK)  # type: ignore[attr-defined]

else:
    import fcntl

    def _try_lock_fd(fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno in _BUSY_ERRNOS:
                return False
            raise
        return True

    def _unlock_fd(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)
