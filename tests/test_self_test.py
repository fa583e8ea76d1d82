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

import re  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

import game.history  # noqa: E402
import game.self_test as self_test  # noqa: E402
from game.self_test import EXIT_FAILED, EXIT_OK, LAZY_UI_MODULES, run_self_test  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parent.parent
OK_LINE = re.compile(r"^self-test ok: bidwhist 1 game \(\d+ deals?\), wizard 1 game \(3 rounds\), "
                     r"histories replayed clean in \d+\.\d s$")


def _run(data_dir: Path) -> tuple[int, list[str]]:
    lines: list[str] = []
    status = run_self_test(str(data_dir), quit_pygame=False, echo=lines.append)
    return status, lines


def test_self_test_passes_and_prints_one_line(tmp_path: Path) -> None:
    status, lines = _run(tmp_path)
    assert status == EXIT_OK, lines
    assert len(lines) == 1 and OK_LINE.match(lines[0]), lines
    # The histories went to the data folder given, and were replayed from there.
    assert (tmp_path / "histories" / "bidwhist.jsonl").is_file()
    assert (tmp_path / "histories" / "wizard.jsonl").is_file()


def test_disagreeing_history_fails_with_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def disagreeing_checker(path):
        return [(1, ["deal 1: the recorded score differs from the engine's"])]

    monkeypatch.setattr(game.history, "check_file", disagreeing_checker)
    status, lines = _run(tmp_path)
    assert status == EXIT_FAILED
    assert len(lines) == 1
    assert lines[0].startswith("self-test FAILED: bidwhist: replaying game 1")
    assert "Traceback" not in lines[0]
    # The details are in the log of the data folder.
    assert "recorded score differs" in (tmp_path / "logs" / "tricktable.log").read_text(encoding="utf-8")


def test_stuck_table_fails_cleanly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(self_test, "MAX_FRAMES_PER_GAME", 5)
    status, lines = _run(tmp_path)
    assert status == EXIT_FAILED
    assert len(lines) == 1 and "no end screen after 5 frames" in lines[0]


def test_unexpected_crash_is_one_line_and_logged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args, **kwargs):
        raise RuntimeError("the table fell over")

    monkeypatch.setattr(self_test, "_play", broken)
    status, lines = _run(tmp_path)
    assert status == EXIT_FAILED
    assert lines == [f"self-test FAILED: unexpected RuntimeError: the table fell over "
                     f"(log: {tmp_path.resolve() / 'logs' / 'tricktable.log'})"]
    assert "Traceback" in (tmp_path / "logs" / "tricktable.log").read_text(encoding="utf-8")


def test_command_line_self_test_in_a_fresh_process(tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items() if not key.startswith("SDL_")}
    env["SDL_VIDEODRIVER"] = "x11"  # the self-test must override it with the dummy driver
    result = subprocess.run([sys.executable, "main.py", "--self-test", "--data-dir", str(tmp_path)],
                            cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 1 and OK_LINE.match(lines[0]), result.stdout


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
