"""Odd paths end cleanly (issue 25, item 6).

A ``--data-dir`` that leads into a loop of symbolic links, or that is the
program's own folder, is refused with a clear line and exit status 2 before
anything is written; ``simulate --history /dev/null`` discards the games and
succeeds; a log file that stops taking records (a full disk) says so once,
in words, never with Python's "--- Logging error ---" traceback.
"""

from __future__ import annotations

import errno
import logging
import os
from pathlib import Path

import pytest

import game.settings.paths as paths_module
from game.program.cli import main
from game.program.log_setup import LOG_FILE_NAME, app_logger, attach_log_file
from game.settings.paths import UserPaths, resource_root

SIMULATE_ONE = ["simulate", "--game", "wizard", "--games", "1", "--seed", "3"]


def _refused(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """Run the command line ``argv``, which must be refused with status 2; its standard error."""
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err


@pytest.mark.skipif(not hasattr(os, "symlink") or os.name == "nt", reason="POSIX symbolic links")
@pytest.mark.parametrize("where", ["before", "after"])
@pytest.mark.parametrize("inside", ["", "sub"])
def test_a_symlink_loop_as_data_dir_is_refused_with_status_2(tmp_path: Path, capsys, where: str, inside: str) -> None:
    os.symlink(tmp_path / "b", tmp_path / "a")
    os.symlink(tmp_path / "a", tmp_path / "b")
    data_dir = str(tmp_path / "a" / inside) if inside else str(tmp_path / "a")
    option = ["--data-dir", data_dir]
    argv = option + SIMULATE_ONE if where == "before" else SIMULATE_ONE + option
    err = _refused(capsys, argv)
    assert "loop of symbolic links" in err
    with pytest.raises(ValueError, match="loop of symbolic links"):
        UserPaths.from_data_dir(data_dir)


@pytest.fixture
def program_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A program folder of its own (with a bundled ``config/settings.yaml``), made the current folder."""
    folder = tmp_path / "program"
    (folder / "config").mkdir(parents=True)
    (folder / "assets").mkdir()
    (folder / "config" / "settings.yaml").write_text("language: en\n", encoding="utf-8")
    monkeypatch.setattr(paths_module, "resource_root", lambda: folder)
    monkeypatch.chdir(folder)
    return folder


def _listing(folder: Path) -> dict[str, tuple[int, int]]:
    return {
        str(path.relative_to(folder)): (path.stat().st_size, path.stat().st_mtime_ns)
        for path in sorted(folder.rglob("*"))
    }


@pytest.mark.parametrize("data_dir", [".", "config", "assets/mine", "../program"])
def test_the_programs_own_folder_as_data_dir_is_refused_and_left_alone(
    program_folder: Path, capsys, data_dir: str
) -> None:
    before = _listing(program_folder)
    err = _refused(capsys, ["--data-dir", data_dir] + SIMULATE_ONE + ["--history", "games.jsonl"])
    assert "Trick Table's own files" in err
    with pytest.raises(ValueError, match="own files"):
        UserPaths.from_data_dir(data_dir)
    assert _listing(program_folder) == before


def test_a_folder_of_ones_own_inside_or_around_the_program_folder_is_accepted(program_folder: Path) -> None:
    # Only the program's own files are protected: a folder beside them, or one that holds
    # the whole program folder, puts the settings somewhere else.
    for data_dir in ("mydata", ".."):
        paths = UserPaths.from_data_dir(data_dir)
        assert paths.settings_file != program_folder / "config" / "settings.yaml"


def test_the_real_program_folder_is_refused() -> None:
    with pytest.raises(ValueError, match="own files"):
        UserPaths.from_data_dir(resource_root())
    with pytest.raises(ValueError, match="own files"):
        UserPaths.from_data_dir(resource_root() / "config")


@pytest.mark.skipif(not os.path.exists("/dev/null"), reason="a POSIX null device")
@pytest.mark.parametrize("append", [[], ["--append"]])
def test_simulate_history_to_dev_null_discards_the_games_and_succeeds(
    tmp_path: Path, capsys, append: list[str]
) -> None:
    status = main(["--data-dir", str(tmp_path)] + SIMULATE_ONE + ["--history", "/dev/null"] + append)
    out, err = capsys.readouterr()
    assert status == 0, err
    assert "seed 3" in out
    assert "Traceback" not in err


class _FullDisk:
    """A log file's stream on a disk with no room left: every write fails with ENOSPC."""

    def write(self, text: str) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    def tell(self) -> int:
        return 0

    def seek(self, *args: object) -> int:
        return 0

    def flush(self) -> None:
        pass

    def close(self) -> None:
        pass


@pytest.fixture
def own_log_handlers():
    """The ``tricktable`` logger's handlers and level, put back after the test."""
    logger = app_logger()
    handlers, level = list(logger.handlers), logger.level
    yield logger
    for handler in list(logger.handlers):
        if handler not in handlers:
            logger.removeHandler(handler)
            handler.close()
    logger.setLevel(level)


@pytest.mark.parametrize("lazy", [False, True])
def test_a_full_disk_under_the_log_folder_is_said_once_without_a_traceback(
    tmp_path: Path, capsys, own_log_handlers, lazy: bool
) -> None:
    log_dir = tmp_path / "logs"
    attach_log_file(log_dir, lazy=lazy)
    logger = own_log_handlers
    logger.warning("the first record opens the file")
    handler = next(h for h in logger.handlers if getattr(h, "baseFilename", "").endswith(LOG_FILE_NAME))
    handler.stream = _FullDisk()
    capsys.readouterr()
    for number in range(3):
        logger.warning("record %d, on a full disk", number)
    try:
        raise ValueError("an exception logged with its traceback")
    except ValueError:
        logging.getLogger("tricktable.odd").exception("a failure")
    err = capsys.readouterr().err
    assert "Logging error" not in err
    assert "Traceback" not in err
    assert err.count("could not be written") == 1, err
    assert "No space left on device" in err
    assert str(log_dir / LOG_FILE_NAME) in err
