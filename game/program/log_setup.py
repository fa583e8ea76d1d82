"""Where Trick Table's log goes, so that no traceback ever reaches a terminal."""

from __future__ import annotations

# Everything the program logs goes through the ``tricktable`` logger. Its log
# file is ``tricktable.log`` in the user's log folder (or ``<data dir>/logs``),
# rotated at half a megabyte; the details of a failure, tracebacks included,
# are written there and nowhere else. ``attach_log_file`` opens it: the
# window opens it at once; a headless command (``simulate``, ``replay``)
# opens it lazily, only when there is something to write, so a run that goes
# well creates no folder.
#
# When the log folder cannot be written (it is a file, a read-only disk), the
# file is replaced by ``OneLineHandler``: warnings and errors still reach the
# terminal, but as one short line each, never with a traceback, and
# ``attach_log_file`` returns None so no message names a log file that does
# not exist. A log file that stops taking records (a full disk) says so once,
# in one line, never with Python's "--- Logging error ---" traceback. A headless command also gets a
# ``OneLineHandler`` beside its
# file, so the terminal user sees that something was logged.
# ``write_to_log_file`` is for the last resort of ``game.program.entry``: a traceback
# for the file alone, while the terminal gets the caller's own sentence.

import logging
import logging.handlers
import sys
from pathlib import Path

LOGGER_NAME = "tricktable"
LOG_FILE_NAME = "tricktable.log"
LOG_FILE_BYTES = 512_000
LOG_FILE_BACKUPS = 2
# How long a logged message may be on the terminal.
TERMINAL_MESSAGE_CHARS = 300

_FILE_HANDLER_PREFIX = "tricktable:"
_TERMINAL_HANDLER_NAME = "tricktable-terminal"


class OneLineHandler(logging.Handler):
    """Warnings and errors on standard error, one line each: the first line of
    the message, cut short, never a traceback. Standard error is looked up
    when a record comes, so a redirected or replaced stream is followed."""

    def __init__(self) -> None:
        super().__init__(level=logging.WARNING)
        self.set_name(_TERMINAL_HANDLER_NAME)

    def emit(self, record: logging.LogRecord) -> None:
        try:
            lines = record.getMessage().splitlines() or [""]
            text = lines[0][:TERMINAL_MESSAGE_CHARS]
            sys.stderr.write(f"trick table {record.levelname.lower()}: {text}\n")
            sys.stderr.flush()
        except Exception:
            self.handleError(record)

    def handleError(self, record: logging.LogRecord) -> None:
        """A terminal that cannot be written to (a closed pipe) loses the line, quietly."""


class _LogFileHandler(logging.handlers.RotatingFileHandler):
    """The rotating log file. A record it cannot write (a full disk, a folder
    gone read-only) is lost without Python's "--- Logging error ---" and its
    traceback on the terminal: the terminal is told once, in one line, that
    the log file could not be written, and the program carries on."""

    def __init__(self, path: Path, *, delay: bool = False) -> None:
        super().__init__(path, maxBytes=LOG_FILE_BYTES, backupCount=LOG_FILE_BACKUPS, encoding="utf-8", delay=delay)
        self._failure_told = False

    def handleError(self, record: logging.LogRecord) -> None:
        if self._failure_told:
            return
        self._failure_told = True
        error = sys.exc_info()[1]
        reason = (getattr(error, "strerror", None) or type(error).__name__) if error is not None else "unknown"
        try:
            if sys.stderr is not None:  # a windowed build has no standard error
                sys.stderr.write(
                    f"trick table: the log file {self.baseFilename} could not be written "
                    f"({reason}); what the program logs from now on may be lost\n"
                )
                sys.stderr.flush()
        except (OSError, ValueError):
            pass


class _FolderMakingFileHandler(_LogFileHandler):
    """A rotating log file opened (and its folder made) only when the first record comes.

    If that fails, the record is dropped without a traceback on the terminal."""

    def __init__(self, path: Path) -> None:
        super().__init__(path, delay=True)

    def emit(self, record: logging.LogRecord) -> None:
        if getattr(self, "stream", None) is None:
            try:
                Path(self.baseFilename).parent.mkdir(parents=True, exist_ok=True)
            except OSError:
                return
        super().emit(record)


def app_logger() -> logging.Logger:
    return logging.getLogger(LOGGER_NAME)


def attach_log_file(log_dir: Path, *, lazy: bool = False, level: int = logging.INFO) -> Path | None:
    """Send the ``tricktable`` log to ``log_dir/tricktable.log``; the file's path, or None without one.

    One file handler per process: a second call for the same folder keeps
    it, a call for another folder replaces it. ``lazy``: the folder and file
    are made when the first record comes (headless commands), and the path
    is returned although the file may not exist yet. Without ``lazy`` the
    folder is made now, and when that fails the log goes to the terminal as
    one line per warning (``OneLineHandler``) and None is returned.
    """
    logger = app_logger()
    path = log_dir / LOG_FILE_NAME
    name = f"{_FILE_HANDLER_PREFIX}{path}"
    if logger.level == logging.NOTSET or logger.level > level:
        logger.setLevel(level)
    for old in list(logger.handlers):
        handler_name = old.get_name() or ""
        if handler_name.startswith(_FILE_HANDLER_PREFIX):
            # The same file is kept, unless it was opened lazily and is now
            # wanted at once (a command's log, then the window's).
            if handler_name == name and (lazy or not isinstance(old, _FolderMakingFileHandler)):
                return path
            logger.removeHandler(old)
            old.close()
    handler: logging.Handler
    if lazy:
        handler = _FolderMakingFileHandler(path)
    else:
        try:
            log_dir.mkdir(parents=True, exist_ok=True)
            handler = _LogFileHandler(path)
        except OSError:
            attach_terminal()
            return None
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler.setLevel(level)
    handler.set_name(name)
    logger.addHandler(handler)
    return path


def attach_terminal() -> None:
    """Also show warnings and errors on the terminal, one line each (added once)."""
    logger = app_logger()
    if not any(handler.get_name() == _TERMINAL_HANDLER_NAME for handler in logger.handlers):
        logger.addHandler(OneLineHandler())


def log_file() -> Path | None:
    """The log file the ``tricktable`` log is written to, if that file exists."""
    for handler in app_logger().handlers:
        if (handler.get_name() or "").startswith(_FILE_HANDLER_PREFIX):
            path = Path(getattr(handler, "baseFilename", ""))
            return path if path.is_file() else None
    return None


def log_for_command(log_dir: Path, headless: bool) -> None:
    """The log of one run of the program from the command line.

    The log file opens lazily (a run with nothing to log writes nothing); a
    headless command also shows warnings and errors on the terminal as one
    line each. The window opens its log file itself, at once.
    """
    attach_log_file(log_dir, lazy=True, level=logging.WARNING)
    if headless:
        attach_terminal()


def write_to_log_file(message: str, exc: BaseException) -> Path | None:
    """Write ``message`` and the traceback of ``exc`` to the log file only (never to a
    terminal, not even Python's last-resort handler); the file's path if it was written."""
    logger = app_logger()
    record = logger.makeRecord(
        logger.name, logging.ERROR, __file__, 0, message, (), (type(exc), exc, exc.__traceback__)
    )
    written = False
    for handler in logger.handlers:
        if (handler.get_name() or "").startswith(_FILE_HANDLER_PREFIX):
            handler.handle(record)
            written = True
    return log_file() if written else None
