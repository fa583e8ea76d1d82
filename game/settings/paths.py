"""Where Trick Table finds its own files and where it writes the user's."""

from __future__ import annotations

# Two kinds of files live in different places. Bundled files (default house
# rules, default settings, card art) are read-only and ship with the program:
# next to the source tree when run from a checkout, or inside the unpacked
# PyInstaller bundle (``sys._MEIPASS``) when frozen. ``resource_path`` is the one
# way to find them, so no other module needs to know how the program was started.
#
# Files the program writes (the user's settings, saved games, hand histories,
# logs) go where platformdirs says they belong on this operating system, or all
# under one folder when the user passes ``--data-dir`` (handy for portable
# installs and for tests; never empty, nor the program's own folder). ``UserPaths`` names those locations; nothing is
# created on import, only when ``ensure()`` is called or a file is first written.
#
# Every write goes through ``atomic_write_bytes`` / ``atomic_write_text`` so a
# crash or a full disk never leaves a half-written settings file or save behind:
# the data goes to a temporary file beside the target, is flushed to the disk
# (fsync), and only then renamed over the target. A new file gets the user's
# normal permissions (what their umask allows), not the private mode of a
# temporary file. A process killed between the two steps leaves its temporary
# file behind; ``remove_stale_temp_files`` clears those on the next start.

import contextlib
import errno
import os
import re
import shutil
import stat
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import platformdirs

APP_NAME = "TrickTable"

# The temporary files of ``atomic_write_bytes``: ".<target name>.<random>.tmp".
TEMP_FILE_PATTERN = re.compile(r"^\..+\.[A-Za-z0-9_]+\.tmp$")
# A temporary file older than this is left over from a write that was cut
# short: a real write lasts milliseconds, and the margin spares the file of
# another copy of the program that is writing at this very moment.
STALE_TEMP_SECONDS = 60.0

# The game package's folder: this file is game/settings/paths.py.
_GAME_PACKAGE = Path(__file__).resolve().parent.parent
# A checkout keeps config/ and assets/ beside the game package.
_SOURCE_ROOT = _GAME_PACKAGE.parent
# An installed copy (`pip install .`, see pyproject.toml) keeps them inside it.
_INSTALLED_ROOT = _GAME_PACKAGE / "bundled"


def resource_root() -> Path:
    """The folder that holds the bundled read-only files (config/, assets/)."""
    if getattr(sys, "frozen", False):
        bundle_dir = getattr(sys, "_MEIPASS", None)
        if bundle_dir:
            return Path(bundle_dir)
        # Frozen by a tool other than PyInstaller's one-file mode: data files
        # sit next to the executable.
        return Path(sys.executable).resolve().parent
    # The installed folder is looked for first: an installed package lies in a
    # site-packages folder, whose own config/ (if another package made one) is
    # not ours.
    return _INSTALLED_ROOT if _INSTALLED_ROOT.is_dir() else _SOURCE_ROOT


def resource_path(*parts: str) -> Path:
    """The path of a bundled read-only file, e.g. ``resource_path("config", "wizard.yaml")``."""
    return resource_root().joinpath(*parts)


EMPTY_DATA_DIR = "must name a folder; an empty name would put the settings, histories and logs in the current folder"


def check_data_dir(text: str) -> str:
    """``text`` if it can name the data folder, else ``ValueError`` with the reason.

    An empty (or blank) ``--data-dir`` is a slip, such as an unset shell
    variable; taken as the current folder it once made Settings overwrite the
    bundled ``config/settings.yaml`` when run from the program folder. The
    same goes for naming the program's own folder (``--data-dir .`` there),
    and a name that runs into a loop of symbolic links names no folder at all.
    """
    if not text.strip():
        raise ValueError(EMPTY_DATA_DIR)
    root = _resolved_data_dir(text)
    written = (root, root / "config", root / "logs", root / "histories", root / "saves")
    if any(_is_program_folder(folder) for folder in written):
        raise ValueError(
            f"{text} would put your settings and saves among Trick Table's own files "
            f"({resource_root()}), which are never written; choose a folder of your own"
        )
    return text


def _resolved_data_dir(text: str) -> Path:
    """The absolute path ``text`` names; ``ValueError`` if it leads into a loop of symbolic links."""
    try:
        return Path(text).expanduser().resolve()
    except (RuntimeError, OSError) as exc:
        # Python up to 3.12 raises RuntimeError for a loop, later ones OSError (ELOOP).
        if isinstance(exc, OSError) and exc.errno != errno.ELOOP:
            raise ValueError(f"{text} cannot be used: {exc.strerror or exc}") from None
        raise ValueError(f"{text} leads into a loop of symbolic links; name a real folder") from None


def _is_program_folder(folder: Path) -> bool:
    """Whether the program would write into its own folder there: the folder of the bundled
    files itself, or its ``config/`` or ``assets/`` (or a folder inside them)."""
    root = resource_root().resolve()
    if folder == root:
        return True
    return any(folder == bundled or bundled in folder.parents for bundled in (root / "config", root / "assets"))


@dataclass(frozen=True)
class UserPaths:
    """The folders (and the settings file) the program writes to.

    Build it with ``UserPaths.from_data_dir``; call ``ensure()`` before writing
    if the folders may not exist yet (``atomic_write_*`` also creates the
    parent folder of the file it writes).
    """

    config_dir: Path
    data_dir: Path
    log_dir: Path
    histories_dir: Path
    saves_dir: Path

    @classmethod
    def from_data_dir(cls, data_dir: str | os.PathLike[str] | None = None) -> UserPaths:
        """All user paths under ``data_dir`` if given, else the platformdirs locations.

        A ``data_dir`` that is empty, leads into a loop of symbolic links or is the
        program's own folder is refused (``ValueError``, see ``check_data_dir``).
        """
        if data_dir is not None:
            check_data_dir(os.fspath(data_dir))
            root = _resolved_data_dir(os.fspath(data_dir))
            return cls(
                config_dir=root / "config",
                data_dir=root,
                log_dir=root / "logs",
                histories_dir=root / "histories",
                saves_dir=root / "saves",
            )
        # appauthor=False: on Windows platformdirs would otherwise nest the
        # folder under a company name we do not have.
        user_data = Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))
        return cls(
            config_dir=Path(platformdirs.user_config_dir(APP_NAME, appauthor=False)),
            data_dir=user_data,
            log_dir=Path(platformdirs.user_log_dir(APP_NAME, appauthor=False)),
            histories_dir=user_data / "histories",
            saves_dir=user_data / "saves",
        )

    @property
    def settings_file(self) -> Path:
        """The user's app settings (``settings.yaml`` in the config folder)."""
        return self.config_dir / "settings.yaml"

    @property
    def last_setup_file(self) -> Path:
        """The start screen's last choices (``last_setup.yaml``, next to the settings)."""
        return self.config_dir / "last_setup.yaml"

    def all_dirs(self) -> tuple[Path, ...]:
        return (self.config_dir, self.data_dir, self.log_dir, self.histories_dir, self.saves_dir)

    def ensure(self) -> UserPaths:
        """Create every folder that does not exist yet; returns self for chaining."""
        for folder in self.all_dirs():
            folder.mkdir(parents=True, exist_ok=True)
        return self


class NotRegularFileError(OSError):
    """A player's file that is a pipe, a device or a folder instead of an ordinary file."""


def open_regular_file(path: str | os.PathLike[str]) -> BinaryIO:
    """``path`` opened to read, only if it is an ordinary file (``NotRegularFileError`` if not).

    A player's file read in the normal course of things (the save, the settings,
    the last setup) could be a pipe someone put there: opening a pipe waits for
    a writer, forever and deaf to signals. Opening without waiting
    (``O_NONBLOCK``) and looking at what was opened leaves no moment to swap
    the file between the look and the read."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotRegularFileError(errno.EINVAL, "not an ordinary file", str(path))
        with contextlib.suppress(OSError, AttributeError):
            os.set_blocking(fd, True)  # an ordinary file never waits; later reads are as usual
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` so that readers see the old file or the new one, never half.

    The temporary file is made in the same folder because ``os.replace`` is
    only atomic within one file system.
    """
    _atomic_write(Path(path), lambda handle: handle.write(data))


def atomic_copy_file(source: str | os.PathLike[str], path: str | os.PathLike[str]) -> None:
    """Copy the file ``source`` to ``path`` as ``atomic_write_bytes`` writes, a piece at a time:
    a file of any size is copied without being held in memory."""
    with open(source, "rb") as original:
        _atomic_write(Path(path), lambda handle: shutil.copyfileobj(original, handle))


def _atomic_write(target: Path, write: Callable[[BinaryIO], object]) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, temp_name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            write(handle)
            handle.flush()
            os.fsync(handle.fileno())
        _copy_mode_if_exists(target, temp_name)
        os.replace(temp_name, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp_name)
        raise
    fsync_folder(target.parent)


def atomic_write_text(path: str | os.PathLike[str], text: str, encoding: str = "utf-8") -> None:
    """``atomic_write_bytes`` for text; newlines are written exactly as given."""
    atomic_write_bytes(path, text.encode(encoding))


def _copy_mode_if_exists(target: Path, temp_name: str) -> None:
    # mkstemp makes the file private (0600). Keep the mode of a file we
    # replace, so that saving does not silently change who may read it, and
    # give a new file the mode any other program would create it with.
    try:
        mode = target.stat().st_mode & 0o7777
    except OSError:
        mode = default_file_mode()
    with contextlib.suppress(OSError):
        os.chmod(temp_name, mode)


_UMASK_LOCK = threading.Lock()


def default_file_mode() -> int:
    """The permissions a new file gets from ``open()``: 0666 less the process's umask."""
    return 0o666 & ~_current_umask()


def _current_umask() -> int:
    # Linux shows the umask in /proc without changing it. Elsewhere it can
    # only be read by setting it and back; the lock keeps our own threads
    # from doing that at once (and so from keeping the temporary value).
    with contextlib.suppress(OSError, ValueError):
        with open("/proc/self/status", encoding="ascii", errors="replace") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    with _UMASK_LOCK:
        umask = os.umask(0o022)
        os.umask(umask)
    return umask


def remove_stale_temp_files(
    folders: tuple[Path, ...] | list[Path], older_than: float = STALE_TEMP_SECONDS
) -> list[Path]:
    """Delete the temporary files that interrupted atomic writes left in ``folders``.

    Only files named like ours (``.<name>.<random>.tmp``), directly in one of
    the folders and untouched for ``older_than`` seconds are removed; a folder
    that does not exist or cannot be listed is skipped. Returns what was removed.
    """
    removed = []
    now = time.time()
    for folder in dict.fromkeys(folders):
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            if not TEMP_FILE_PATTERN.match(entry.name):
                continue
            try:
                if not entry.is_file(follow_symlinks=False) or now - entry.stat().st_mtime < older_than:
                    continue
                os.unlink(entry.path)
            except OSError:
                continue
            removed.append(Path(entry.path))
    return removed


def fsync_folder(folder: Path) -> None:
    """Make a rename or a new file in ``folder`` durable (best effort).

    On POSIX the folder's own entry list must be flushed for a new name to
    survive a power cut; Windows cannot open folders, so there it does nothing.
    """
    if os.name != "posix":
        return
    with contextlib.suppress(OSError):
        dir_fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
