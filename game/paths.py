"""Where Trick Table finds its own files and where it writes the user's.

Two kinds of files live in different places. Bundled files (default house
rules, default settings, card art) are read-only and ship with the program:
next to the source tree when run from a checkout, or inside the unpacked
PyInstaller bundle (``sys._MEIPASS``) when frozen. ``resource_path`` is the one
way to find them, so no other module needs to know how the program was started.

Files the program writes (the user's settings, saved games, hand histories,
logs) go where platformdirs says they belong on this operating system, or all
under one folder when the user passes ``--data-dir`` (handy for portable
installs and for tests). ``UserPaths`` names those locations; nothing is
created on import, only when ``ensure()`` is called or a file is first written.

Every write goes through ``atomic_write_bytes`` / ``atomic_write_text`` so a
crash or a full disk never leaves a half-written settings file or save behind.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import platformdirs

APP_NAME = "TrickTable"

# The repository root: this file is game/paths.py, so two levels up.
_SOURCE_ROOT = Path(__file__).resolve().parent.parent


def resource_root() -> Path:
    """The folder that holds the bundled read-only files (config/, assets/)."""
    if getattr(sys, "frozen", False):
        bundle_dir = getattr(sys, "_MEIPASS", None)
        if bundle_dir:
            return Path(bundle_dir)
        # Frozen by a tool other than PyInstaller's one-file mode: data files
        # sit next to the executable.
        return Path(sys.executable).resolve().parent
    return _SOURCE_ROOT


def resource_path(*parts: str) -> Path:
    """The path of a bundled read-only file, e.g. ``resource_path("config", "wizard.yaml")``."""
    return resource_root().joinpath(*parts)


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
        """All user paths under ``data_dir`` if given, else the platformdirs locations."""
        if data_dir is not None:
            root = Path(data_dir).expanduser().resolve()
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


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` so that readers see the old file or the new one, never half.

    The temporary file is made in the same folder because ``os.replace`` is
    only atomic within one file system.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, temp_name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        _copy_mode_if_exists(target, temp_name)
        os.replace(temp_name, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp_name)
        raise
    _fsync_dir(target.parent)


def atomic_write_text(path: str | os.PathLike[str], text: str, encoding: str = "utf-8") -> None:
    """``atomic_write_bytes`` for text; newlines are written exactly as given."""
    atomic_write_bytes(path, text.encode(encoding))


def _copy_mode_if_exists(target: Path, temp_name: str) -> None:
    # mkstemp makes the file private (0600); keep the mode of a file we replace
    # so that saving does not silently change who may read it.
    with contextlib.suppress(OSError):
        os.chmod(temp_name, target.stat().st_mode & 0o7777)


def _fsync_dir(folder: Path) -> None:
    # Makes the rename itself durable on POSIX; Windows cannot open folders, so
    # this is best effort.
    if os.name != "posix":
        return
    with contextlib.suppress(OSError):
        dir_fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
