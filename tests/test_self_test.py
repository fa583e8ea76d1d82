"""The ``--self-test`` command: a short game of each game through the real window.

The success path runs in-process (pygame stays initialised for the other UI
tests) and once through ``python main.py --self-test`` exactly as CI and a
player run it. The failure paths replace one piece (the replay checker, the
window) and expect a non-zero status with one line saying what failed and
no traceback.
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import hashlib
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest

import game.persistence.history_replay
import game.program.self_test as self_test
from game.persistence.history_files import write_history
from game.persistence.savegame import encode_save, save_path, snapshot_of
from game.program.self_test import EXIT_FAILED, EXIT_OK, LAZY_UI_MODULES, run_self_test
from game.rules import make_rules
from game.session.match import Match, Seat
from game.settings.paths import UserPaths

REPO_ROOT = Path(__file__).resolve().parent.parent
OK_LINE = re.compile(
    r"^self-test ok: bidwhist 1 game \(\d+ deals?\), wizard 1 game \(3 rounds\), "
    r"a network game over loopback \(\d+ frames\), "
    r"histories replayed clean in \d+\.\d s$"
)
# The moment every file of a player's folder was last changed, long ago: a file the
# self-test rewrote, even with the same bytes, shows a new time.
LONG_AGO_NS = 1_600_000_000 * 10**9


def _run(data_dir: Path | None, scratch_parent: Path) -> tuple[int, list[str]]:
    lines: list[str] = []
    scratch_parent.mkdir(exist_ok=True)
    status = run_self_test(
        None if data_dir is None else str(data_dir),
        quit_pygame=False,
        echo=lines.append,
        scratch_parent=str(scratch_parent),
    )
    return status, lines


def _scratch_log(scratch_parent: Path) -> Path:
    """The log of the one self-test folder kept in ``scratch_parent`` (after a failure)."""
    (folder,) = scratch_parent.iterdir()
    return folder / "logs" / "tricktable.log"


def players_folder(root: Path) -> Path:
    """A player's data folder with everything in it: settings, last setup, a game in
    progress, histories, a statistics cache and a log, each changed long ago."""
    paths = UserPaths.from_data_dir(root).ensure()
    paths.settings_file.write_text("language: nl\nlarge_cards: true\n", encoding="utf-8")
    paths.last_setup_file.write_text("game: wizard\nplayers: 3\n", encoding="utf-8")
    seats = [Seat("Ada", "human"), Seat("Bruno", "ai:easy"), Seat("Cleo", "ai:easy")]
    in_progress = Match(make_rules("wizard", players=3), seats, 5)
    for _ in range(4):
        in_progress.apply(
            in_progress.choose_ai_action() if in_progress.current_player else in_progress.legal_actions()[0]
        )
    save_path(paths).write_bytes(encode_save(snapshot_of(in_progress)))
    computers = [Seat(seat.name, "ai:easy") for seat in seats]
    finished = Match(make_rules("wizard", {"rounds": 1}, players=3), computers, 6)
    finished.play_out()
    write_history(paths.histories_dir / "wizard.jsonl", [finished.history()])
    (paths.data_dir / "stats_cache.json").write_text('{"format": "a cache"}', encoding="utf-8")
    (paths.log_dir / "tricktable.log").write_text("an earlier run's line\n", encoding="utf-8")
    for path in [root, *root.rglob("*")]:
        os.utime(path, ns=(LONG_AGO_NS, LONG_AGO_NS))
    return root


def listing(root: Path) -> dict[str, tuple]:
    """Every file and folder under ``root``: its kind, size, modification time and content hash."""
    found = {}
    for path in [root, *root.rglob("*")]:
        info = path.lstat()
        digest = hashlib.sha256(path.read_bytes()).hexdigest() if stat.S_ISREG(info.st_mode) else "not a file"
        found[str(path.relative_to(root))] = (stat.S_IFMT(info.st_mode), info.st_size, info.st_mtime_ns, digest)
    return found


def test_self_test_passes_prints_one_line_and_leaves_a_players_folder_exactly_as_it_found_it(tmp_path: Path) -> None:
    folder = players_folder(tmp_path / "player")
    before = listing(folder)
    status, lines = _run(folder, tmp_path / "scratch")
    assert status == EXIT_OK, lines
    assert len(lines) == 1 and OK_LINE.match(lines[0]), lines
    assert listing(folder) == before, "the autosave, histories, cache, settings and log are untouched"
    assert not any((tmp_path / "scratch").iterdir()), "its own folder is gone after a success"


def test_self_test_plays_with_the_players_settings_read_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen = []
    real_make_app = self_test._make_app

    def make_app(app_class, data_dir, settings):
        seen.append((data_dir, settings.language, settings.large_cards, settings.animation_speed))
        return real_make_app(app_class, data_dir, settings)

    monkeypatch.setattr(self_test, "_make_app", make_app)
    monkeypatch.setattr(self_test, "PLANS", ())  # the settings are what this test is about
    monkeypatch.setattr(self_test, "_check_histories", lambda folder, games: "no history")
    folder = players_folder(tmp_path / "player")
    before = listing(folder)
    try:
        status, lines = _run(folder, tmp_path / "scratch")
    finally:
        from game.ui.text import set_language

        set_language("en")
    assert status == EXIT_OK, lines
    ((played_in, language, large_cards, speed),) = seen
    assert not Path(played_in).is_relative_to(folder)
    assert (language, large_cards, speed) == ("nl", True, "instant")
    assert listing(folder) == before


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are a POSIX thing")
def test_self_test_is_not_stopped_by_odd_files_in_a_players_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pipes where the settings and the save should be (opening one would wait for ever)."""
    monkeypatch.setattr(self_test, "PLANS", ())
    monkeypatch.setattr(self_test, "_check_histories", lambda folder, games: "no history")
    paths = UserPaths.from_data_dir(tmp_path / "player").ensure()
    os.mkfifo(paths.settings_file)
    os.mkfifo(save_path(paths))
    before = listing(paths.data_dir)
    status, lines = _run(paths.data_dir, tmp_path / "scratch")
    assert status == EXIT_OK, lines
    assert listing(paths.data_dir) == before


def test_disagreeing_history_fails_with_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def disagreeing_checker(path):
        return [(1, ["deal 1: the recorded score differs from the engine's"])]

    monkeypatch.setattr(game.persistence.history_replay, "check_file", disagreeing_checker)
    status, lines = _run(None, tmp_path / "scratch")
    assert status == EXIT_FAILED
    assert len(lines) == 1
    assert lines[0].startswith("self-test FAILED: bidwhist: replaying game 1")
    assert "Traceback" not in lines[0]
    # The details are in the log of the self-test's own folder, which a failure keeps.
    log = _scratch_log(tmp_path / "scratch")
    assert f"(log: {log})" in lines[0]
    assert "recorded score differs" in log.read_text(encoding="utf-8")


def test_stuck_table_fails_cleanly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(self_test, "MAX_FRAMES_PER_GAME", 5)
    status, lines = _run(None, tmp_path / "scratch")
    assert status == EXIT_FAILED
    assert len(lines) == 1 and "no end screen after 5 frames" in lines[0]


def test_unexpected_crash_is_one_line_and_logged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args, **kwargs):
        raise RuntimeError("the table fell over")

    monkeypatch.setattr(self_test, "_play", broken)
    folder = players_folder(tmp_path / "player")
    before = listing(folder)
    status, lines = _run(folder, tmp_path / "scratch")
    assert status == EXIT_FAILED
    log = _scratch_log(tmp_path / "scratch")
    assert lines == [f"self-test FAILED: unexpected RuntimeError: the table fell over (log: {log.resolve()})"]
    assert "Traceback" in log.read_text(encoding="utf-8")
    assert listing(folder) == before, "a failure too leaves the player's folder, log included, alone"


def test_command_line_self_test_in_a_fresh_process(tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items() if not key.startswith("SDL_")}
    env["SDL_VIDEODRIVER"] = "x11"  # the self-test must override it with the dummy driver
    folder = players_folder(tmp_path / "player")
    before = listing(folder)
    result = subprocess.run(
        [sys.executable, "main.py", "--self-test", "--data-dir", str(folder)],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 1 and OK_LINE.match(lines[0]), result.stdout
    assert listing(folder) == before, "the program as a player runs it leaves their folder alone"


def test_lazy_module_list_names_every_module_imported_by_name() -> None:
    """Modules loaded through importlib are invisible to PyInstaller's analysis;
    the self-test must import each of them so a build without one fails."""
    named = set()
    for path in (REPO_ROOT / "game").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        named.update(re.findall(r"""(?:optional_scene|import_module)\(\s*["'](game\.[\w.]+)["']""", text))
    assert named <= set(LAZY_UI_MODULES), sorted(named - set(LAZY_UI_MODULES))
    for name in LAZY_UI_MODULES:
        assert (REPO_ROOT / (name.replace(".", "/") + ".py")).is_file(), f"{name} no longer exists"
