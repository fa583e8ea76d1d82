"""The game in progress on disk: one autosave file, written after every action."""

from __future__ import annotations

# The file is ``autosave.json`` in the user's saves folder
# (``UserPaths.saves_dir``). It holds ``Match.to_save()`` (rules, seed, seats,
# every action, whether undo was used) plus ``saved_at``, the moment of the
# save (UTC, ISO 8601). Because a match is deterministic from its seed and its
# actions, and a computer player's randomness depends only on the position,
# loading it rebuilds the very game that was saved, and the computer players
# go on exactly as they would have.
#
# Reading never guesses. ``load_saved_game`` returns the rebuilt game, or
# nothing when there is no save, or a ``SaveProblem`` saying why the file
# could not be used:
#
# * a save of format version 1 (before undo existed) is migrated: it gets
#   ``undo_used: false`` and the file's modification time as ``saved_at``;
# * a save of a newer version is refused, never half-read;
# * a file that is not a save, is cut short, or whose actions the rules refuse
#   is corrupt.
#
# The reason is a ``Problem`` (``game.rules.problems``): the log reads its
# English, the start screen words it in the player's language (a saved move
# the engine refuses is worded as the table words a refused move). What a
# library said in English about a damaged file is the problem's ``detail``,
# which only an English sentence shows.
#
# A file that is refused or corrupt is set aside, renamed to
# ``autosave.json.unsupported-<time>`` or ``autosave.json.corrupt-<time>``
# beside it and never deleted, so a new game can be saved and the old file
# is still there to be looked at.
#
# One window at a time owns the saves folder (``claim_saves``): it holds a
# lock on ``saves/window.lock`` for as long as it runs. A second window on
# the same data folder finds it taken and runs without the saves: it neither
# writes the autosave nor offers to continue it, so the two never overwrite
# or finish each other's game (``game.ui.app`` tells the player). The lock is
# the operating system's (``game.persistence.file_lock``), so a window that crashed or
# was killed leaves nothing that blocks the next one.
#
# Writing goes through ``game.settings.paths.atomic_write_bytes`` (temporary file,
# fsync, rename), so a kill or a full disk leaves the previous save whole.
# ``Autosaver`` does it on a small worker thread so the frame loop never waits
# for the disk: each ``save`` takes a snapshot of the match on the caller's
# thread (cheap: the action list as text) and the worker writes the latest
# snapshot; a snapshot superseded before the worker reached it is skipped,
# since the newer one holds every action the older one did.

import json
import logging
import os
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, BinaryIO

from game.ai.budget import SearchBudget
from game.persistence import file_lock
from game.persistence.history_files import HistoryWriter, encode_record, holds_line
from game.persistence.history_schema import RecordShapeError, check_record_shape
from game.rules import IllegalActionError, RuleConfigError
from game.rules.problems import Problem, ProblemValueError, Refusal
from game.session.match import SAVE_FORMAT, SAVE_VERSION, Match
from game.settings.paths import NotRegularFileError, UserPaths, atomic_write_bytes, open_regular_file

log = logging.getLogger("tricktable.savegame")

SAVE_FILE_NAME = "autosave.json"
# The save versions this program can read: older ones are migrated step by step.
OLDEST_READABLE_VERSION = 1
# A save bigger than this is not one the program wrote (a long game is a few kilobytes).
MAX_SAVE_BYTES = 4_000_000
# The writer thread ends after this long without a save and starts again with the next one.
IDLE_WORKER_SECONDS = 5.0


def save_path(paths: UserPaths) -> Path:
    """Where the game in progress is saved."""
    return paths.saves_dir / SAVE_FILE_NAME


@dataclass(frozen=True)
class SavedGame:
    """A save that was read and rebuilt: the match as it stood, and when it was saved."""

    match: Match
    saved_at: datetime  # aware (UTC)
    migrated_from: int | None = None  # the save's version, when it was older than this program's


@dataclass(frozen=True)
class SaveProblem:
    """Why the save could not be used: ``kind`` is ``"corrupt"``, ``"unsupported"``
    (another version) or ``"unreadable"`` (the disk refused); ``problem`` is the detail,
    ``kept_as`` the name it was set aside under (None if it could not be moved)."""

    kind: str
    problem: Problem
    kept_as: Path | None

    @property
    def reason(self) -> str:
        """The detail in English, for the log."""
        return str(self.problem)


# ---------------------------------------------------------------------- the file's content
def encode_save(snapshot: dict[str, Any]) -> bytes:
    """The file's bytes for a snapshot (``snapshot_of``)."""
    return json.dumps(snapshot, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def snapshot_of(match: Match, now: datetime | None = None) -> dict[str, Any]:
    """Everything the save file holds, taken now (a fresh dict the match no longer touches)."""
    moment = now if now is not None else datetime.now(UTC)
    return {**match.to_save(), "saved_at": moment.astimezone(UTC).isoformat(timespec="seconds")}


def migrate(data: dict[str, Any], modified: datetime) -> dict[str, Any]:
    """A save of an older readable version brought up to ``SAVE_VERSION``.

    Version 1 had neither ``undo_used`` (undo did not exist: false) nor
    ``saved_at`` (the file's modification time is the best answer)."""
    version = data.get("version")
    migrated = dict(data)
    if version == 1:
        migrated.setdefault("undo_used", False)
        migrated.setdefault("saved_at", modified.astimezone(UTC).isoformat(timespec="seconds"))
        migrated["version"] = 2
    return migrated


def _parse_saved_at(value: Any) -> datetime:
    if not isinstance(value, str):
        raise ProblemValueError(Problem("save.bad_time", {"value": repr(value)}))
    moment = datetime.fromisoformat(value)  # ValueError names a bad text (in English: a detail)
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


class _Refused(Exception):
    """The save is of a version this program does not read (``problem`` says which)."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem))
        self.problem = problem


def decode_save(
    raw: bytes, modified: datetime, ai_budget: SearchBudget | None = None
) -> tuple[Match, datetime, int | None]:
    """Rebuild the match from a save file's bytes: (match, saved_at, version migrated from).

    Raises ``_Refused`` for another version and ``ValueError`` for anything damaged
    (``ProblemValueError`` for what this module finds itself)."""
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ProblemValueError(Problem("save.not_utf8")) from None
    except json.JSONDecodeError as exc:
        # json's own words ("Expecting value") are English: only an English sentence shows them.
        raise ProblemValueError(Problem("save.not_json", {"detail": exc.msg, "position": exc.pos})) from None
    except RecursionError:
        raise ProblemValueError(Problem("save.too_deep")) from None
    except ValueError:
        # JSON itself has no limit, but Python refuses to read a number of more
        # than 4,300 digits (its own words name sys.set_int_max_str_digits).
        raise ProblemValueError(Problem("save.long_number")) from None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise ProblemValueError(Problem("save.foreign"))
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise ProblemValueError(Problem("save.no_version", {"value": repr(version)}))
    readable = {"version": version, "oldest": OLDEST_READABLE_VERSION, "newest": SAVE_VERSION}
    if version > SAVE_VERSION:
        raise _Refused(Problem("save.newer", readable))
    if version < OLDEST_READABLE_VERSION:
        raise _Refused(Problem("save.older", readable))
    migrated_from = version if version < SAVE_VERSION else None
    if migrated_from is not None:
        data = migrate(data, modified)
    saved_at = _parse_saved_at(data.get("saved_at"))
    match = Match.from_save(data, ai_budget=ai_budget)
    return match, saved_at, migrated_from


# ---------------------------------------------------------------------- reading
def load_saved_game(
    paths: UserPaths, ai_budget: SearchBudget | None = None, now: datetime | None = None
) -> tuple[SavedGame | None, SaveProblem | None]:
    """The saved game, or (None, None) when there is none, or (None, the problem).

    A corrupt or refused save is set aside (renamed, never deleted) so that
    the next game can be saved; ``now`` names the set-aside file (tests)."""
    path = save_path(paths)
    try:
        with open_regular_file(path) as handle:
            raw = handle.read(MAX_SAVE_BYTES + 1)
            modified = datetime.fromtimestamp(os.fstat(handle.fileno()).st_mtime, UTC)
    except FileNotFoundError:
        return None, None
    except NotRegularFileError:
        # A pipe or a device where the save should be: set aside unread (a pipe would wait forever).
        return None, SaveProblem("corrupt", Problem("save.not_regular"), set_aside(path, "corrupt", now))
    except OSError as exc:
        log.warning("could not read the saved game %s: %s", path, exc)
        # The operating system's own words (in the system's language), shown as they are.
        return None, SaveProblem("unreadable", Problem("save.system_error", {"reason": exc.strerror or str(exc)}), None)
    try:
        if len(raw) > MAX_SAVE_BYTES:
            raise ProblemValueError(Problem("save.too_big", {"limit": MAX_SAVE_BYTES}))
        match, saved_at, migrated_from = decode_save(raw, modified, ai_budget)
    except _Refused as exc:
        return None, SaveProblem("unsupported", exc.problem, set_aside(path, "unsupported", now))
    except Exception as exc:  # anything a damaged file provokes: never a traceback
        log.warning("the saved game %s is damaged: %r", path, exc)
        return None, SaveProblem("corrupt", damage_problem(exc), set_aside(path, "corrupt", now))
    if migrated_from is not None:
        log.info("migrated the saved game from version %d to %d", migrated_from, SAVE_VERSION)
    return SavedGame(match, saved_at, migrated_from), None


def damage_problem(exc: Exception) -> Problem:
    """What is wrong with a damaged save, from the exception reading it provoked.

    This module's own findings, a refused house rule and the engine refusing a
    saved move are coded problems; anything else (a missing field) is only
    English words, kept as the problem's detail."""
    if isinstance(exc, ProblemValueError):
        return exc.problem
    if isinstance(exc, IllegalActionError):
        return Problem("save.move_illegal", {"reason": Refusal.of(exc)})
    if isinstance(exc, RuleConfigError):
        coded = exc.located_problem()
        if coded is not None:
            return coded
    detail = str(exc) if isinstance(exc, ValueError) else f"{type(exc).__name__}: {exc}"
    return Problem("save.damaged", {"detail": detail})


def set_aside(path: Path, label: str, now: datetime | None = None) -> Path | None:
    """Rename ``path`` to ``<name>.<label>-<time>`` beside it (never over another file);
    the new path, or None when it could not be renamed (logged)."""
    moment = (now if now is not None else datetime.now(UTC)).astimezone(UTC)
    stem = f"{path.name}.{label}-{moment.strftime('%Y%m%d-%H%M%S')}"
    for attempt in range(100):
        target = path.with_name(stem if attempt == 0 else f"{stem}-{attempt}")
        if target.exists():
            continue
        try:
            os.replace(path, target)
        except OSError as exc:
            log.warning("could not set the saved game %s aside: %s", path, exc)
            return None
        log.warning("set the saved game aside as %s", target)
        return target
    return None


def remove_save(paths: UserPaths) -> bool:
    """Delete the save of a game that has ended (its record is in the history now); False
    (logged) if it could not be deleted: the next start finds the game in the history and
    does not offer it again (``history_holds``)."""
    try:
        save_path(paths).unlink()
    except FileNotFoundError:
        pass
    except OSError as exc:
        log.warning(
            "could not remove the save of a game that has ended (%s): %s", save_path(paths), exc.strerror or exc
        )
        return False
    return True


def set_save_aside(paths: UserPaths, exc: Exception, now: datetime | None = None) -> SaveProblem:
    """The save read well but its game could not go on (the table failed on it, ``exc``):
    set it aside as corrupt, as a save that could not be read is. A fault the program
    did not foresee is said in plain words; its details are in the log."""
    log.warning("the saved game could not be continued: %r", exc)
    problem = exc.problem if isinstance(exc, ProblemValueError) else Problem("save.cannot_continue")
    return SaveProblem("corrupt", problem, set_aside(save_path(paths), "corrupt", now))


def history_file(paths: UserPaths, match: Match) -> Path:
    """The history file a game of ``match``'s kind is recorded in."""
    return paths.histories_dir / f"{match.game}.jsonl"


def history_holds(paths: UserPaths, match: Match) -> bool:
    """Whether the player's history already holds the ended ``match`` (``holds_line``)."""
    try:
        with open_regular_file(history_file(paths, match)) as handle:
            return holds_line(handle, encode_record(match.history()))
    except OSError:
        return False


# A history line longer than this is no game this program wrote: passed over when looking for one.
_LONGEST_LOOKED_AT_LINE = 16_000_000


def _lines_holding(handle: BinaryIO, marker: bytes) -> Iterator[bytes]:
    """The lines of ``handle`` that hold ``marker``, each read with a cap (memory stays flat)."""
    while True:
        raw = handle.readline(_LONGEST_LOOKED_AT_LINE)
        if not raw:
            return
        if not raw.endswith(b"\n") and len(raw) >= _LONGEST_LOOKED_AT_LINE:
            while raw and not raw.endswith(b"\n"):  # pass over the rest of an overlong line
                raw = handle.readline(_LONGEST_LOOKED_AT_LINE)
            continue
        if marker in raw:
            yield raw


def history_finished(paths: UserPaths, match: Match) -> bool:
    """Whether the history holds this very game played to its end, while the save stopped
    before it (its last autosaves failed, and so did removing it when the game ended).

    The same game is the same seed, rules, players and first dealer with the
    same deals up to the one the save is in: continuing such a save would play
    a game that is already recorded, and record it a second time."""
    partial = match.history()
    played = len(partial["deals"]) - 1  # the deal in progress may yet go differently
    marker = f'"seed":{match.seed},'.encode("ascii")
    try:
        with open_regular_file(history_file(paths, match)) as handle:
            for raw in _lines_holding(handle, marker):
                try:
                    record = json.loads(raw.decode("utf-8"))
                except (ValueError, RecursionError):
                    continue
                if (
                    isinstance(record, dict)
                    and record.get("complete") is True
                    and all(
                        record.get(key) == partial[key] for key in ("game", "seed", "rules", "players", "first_dealer")
                    )
                    and isinstance(record.get("deals"), list)
                    and len(record["deals"]) > played
                    and record["deals"][:played] == partial["deals"][:played]
                ):
                    return True
    except OSError:
        return False
    return False


def record_finished_game(paths: UserPaths, match: Match) -> bool:
    """Add the ended ``match`` to the player's history unless it is there already
    (``HistoryWriter.append(once=True)``): a game is never recorded twice, even
    when its save outlived its ending (a read-only saves folder). True if it was
    added now; ``OSError`` (or ``FileBusyError``) if the history could not be written."""
    return _append_once(paths, match.game, match.history())


def record_received_game(paths: UserPaths, record: Any) -> bool:
    """Add a finished game another program kept (a network game's server, which sends its
    hand-history record at the end) to the player's history, once, as ``record_finished_game``
    adds a local one. A record not in the shape ``HAND_HISTORY.md`` gives, or of a game not
    finished, is refused with ``RecordShapeError`` before anything is written."""
    check_record_shape(record)
    if record.get("complete") is not True:
        raise RecordShapeError("complete: the game is not finished")
    return _append_once(paths, record["game"], record)


def _append_once(paths: UserPaths, game: str, record: dict[str, Any]) -> bool:
    folder = paths.histories_dir
    folder.mkdir(parents=True, exist_ok=True)
    with HistoryWriter(folder / f"{game}.jsonl") as writer:
        return writer.append(record, once=True)


# ---------------------------------------------------------------------- one window owns the saves
LOCK_FILE_NAME = "window.lock"


class SavesClaim:
    """A window's hold on the saves folder (``claim_saves``), until ``release`` or the process ends."""

    def __init__(self, handle: BinaryIO | None) -> None:
        self._handle = handle

    def release(self) -> None:
        if self._handle is not None and not self._handle.closed:
            file_lock.unlock(self._handle)
            self._handle.close()


def claim_saves(paths: UserPaths) -> SavesClaim | None:
    """The saves folder for this window alone, or None while another window (in this
    process or another) holds it.

    A lock file that cannot be made (a read-only folder) gives a claim without a
    lock: the autosave then reports its own failure, as it would have anyway."""
    path = paths.saves_dir / LOCK_FILE_NAME
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(path, "a+b", buffering=0)
    except OSError as exc:
        log.warning("could not open %s to keep other windows off the saves: %s", path, exc.strerror or exc)
        return SavesClaim(None)
    if not file_lock.try_lock(handle):
        handle.close()
        return None
    return SavesClaim(handle)


# ---------------------------------------------------------------------- writing
class Autosaver:
    """Keeps the save file equal to the latest position, written off the frame loop.

    ``save(match)`` returns at once; a daemon worker writes the newest
    snapshot atomically. ``flush()`` waits until what was asked is on disk
    (leaving the app, and tests); ``discard()`` removes the save once the
    game has ended, after any write still in flight, so no late write
    brings it back. ``error`` holds the last write failure until
    ``take_error`` reads it (the table says so once), and is cleared by the
    next write that succeeds.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Condition()
        self._pending: dict[str, Any] | None = None
        self._busy = False
        self._thread: threading.Thread | None = None
        self._error: OSError | None = None
        self._error_seen = False
        self.writes = 0

    def save(self, match: Match) -> None:
        """Queue the match as it stands now to be written."""
        snapshot = snapshot_of(match)
        with self._lock:
            self._pending = snapshot
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="autosave", daemon=True)
                self._thread.start()
            self._lock.notify_all()

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until every queued snapshot is written; False if that took longer than ``timeout``."""
        with self._lock:
            return self._lock.wait_for(lambda: self._pending is None and not self._busy, timeout)

    def discard(self, paths: UserPaths) -> None:
        """Drop what is queued, wait for a write in flight, then remove the save file."""
        with self._lock:
            self._pending = None
            self._lock.wait_for(lambda: not self._busy, 5.0)
            remove_save(paths)

    @property
    def saved(self) -> bool:
        """The last snapshot asked for is on disk (or on its way) and no write has failed since."""
        with self._lock:
            return self._error is None

    def take_error(self) -> OSError | None:
        """The write failure not yet reported (each failure is reported once)."""
        with self._lock:
            if self._error is None or self._error_seen:
                return None
            self._error_seen = True
            return self._error

    def _run(self) -> None:
        while True:
            with self._lock:
                if not self._lock.wait_for(lambda: self._pending is not None, IDLE_WORKER_SECONDS):
                    self._thread = None
                    return  # idle for a while: the next save starts a new worker
                snapshot: dict[str, Any] = self._pending or {}
                self._pending = None
                self._busy = True
            error: OSError | None = None
            try:
                atomic_write_bytes(self.path, encode_save(snapshot))
            except OSError as exc:
                error = exc
                log.warning("could not save the game in progress to %s: %s", self.path, exc)
            with self._lock:
                self._busy = False
                self.writes += 1
                if error is None:
                    self._error = None
                elif self._error is None or str(self._error) != str(error):
                    self._error, self._error_seen = error, False
                self._lock.notify_all()
