"""No traceback reaches a player or a terminal user: Ctrl-C, a closed pipe, a
log folder that cannot be written, and the start-up probe of
``tools/measure_startup.py``, which may only write inside the data folder.

The signal and pipe tests run the real program (``main.py``) in a child
process, as a user at a terminal would; the window runs on SDL's dummy
video driver.
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

from game.program import self_test
from game.program.entry import EXIT_BROKEN_PIPE, EXIT_INTERRUPTED
from game.program.log_setup import app_logger
from game.program.startup_probe import PROBE_VARIABLE, probe_file, write_first_frame_time

ROOT = Path(__file__).resolve().parent.parent
QUICK_WIZARD = ["simulate", "--game", "wizard", "--players", "3", "--games", "1", "--seed", "1", "--set", "rounds=1"]


def child_env(**extra: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key != PROBE_VARIABLE}
    env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1", **extra)
    return env


def start(args: list[str], env: dict[str, str] | None = None, **options) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "main.py", *args],
        cwd=ROOT,
        env=env or child_env(),
        stderr=subprocess.PIPE,
        text=True,
        **options,
    )


def wait_for(condition, process: subprocess.Popen, seconds: float = 30.0) -> None:
    """Wait until ``condition()`` holds while ``process`` runs; fail at once if it has ended."""
    deadline = time.monotonic() + seconds
    while not condition():
        if process.poll() is not None:
            raise AssertionError(f"the program ended early: {process.communicate()[1]}")
        if time.monotonic() > deadline:
            process.kill()
            raise AssertionError("timed out")
        time.sleep(0.05)


def interrupt(process: subprocess.Popen) -> tuple[int, str]:
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=30)
    return process.returncode, err


def window_is_running(data_dir: Path):
    # The log file is opened as the window starts; a moment later it runs its loop.
    return lambda: (data_dir / "logs" / "tricktable.log").exists()


# ---------------------------------------------------------------------- Ctrl-C
@pytest.mark.parametrize("screen", ["start screen", "replay viewer"])
def test_ctrl_c_in_the_window_ends_it_quietly(tmp_path, screen):
    command = ["--data-dir", str(tmp_path), "--size", "800x600"]
    if screen == "replay viewer":
        history = tmp_path / "games.jsonl"
        subprocess.run(
            [sys.executable, "main.py", *QUICK_WIZARD, "--history", str(history)],
            cwd=ROOT,
            env=child_env(),
            capture_output=True,
            check=True,
            timeout=60,
        )
        command += ["replay", str(history)]
    process = start(command, stdout=subprocess.DEVNULL)
    wait_for(window_is_running(tmp_path), process)
    time.sleep(0.5)
    code, err = interrupt(process)
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert "stopped (Ctrl-C)" in err
    assert code == EXIT_INTERRUPTED


def test_ctrl_c_in_a_simulation_ends_it_quietly(tmp_path):
    history = tmp_path / "games.jsonl"
    process = start(
        ["simulate", "--game", "bidwhist", "--games", "100000", "--history", str(history)], stdout=subprocess.PIPE
    )
    wait_for(lambda: history.exists() and history.stat().st_size > 0, process)
    code, err = interrupt(process)
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert code == EXIT_INTERRUPTED


# ---------------------------------------------------------------------- closed pipes
def _with_closed_stdout(args: list[str]) -> tuple[int, str]:
    """Run the program with its standard output a pipe nobody reads (``| head`` after head has quit)."""
    reader, writer = os.pipe()
    os.close(reader)
    try:
        process = start(args, stdout=writer)
    finally:
        os.close(writer)
    _, err = process.communicate(timeout=60)
    return process.returncode, err


def test_simulate_into_a_closed_pipe_is_quiet():
    code, err = _with_closed_stdout(QUICK_WIZARD)
    assert err == ""
    assert code == EXIT_BROKEN_PIPE


def test_replay_check_into_a_closed_pipe_is_quiet(tmp_path):
    history = tmp_path / "games.jsonl"
    subprocess.run(
        [sys.executable, "main.py", *QUICK_WIZARD, "--history", str(history)],
        cwd=ROOT,
        env=child_env(),
        capture_output=True,
        check=True,
        timeout=60,
    )
    code, err = _with_closed_stdout(["replay", "--check", str(history)])
    assert err == ""
    assert code == EXIT_BROKEN_PIPE


# ---------------------------------------------------------------------- a log folder that cannot be written
@pytest.fixture
def data_dir_without_log_folder(tmp_path) -> Path:
    """A data folder whose ``logs`` is a file, so no log folder can be made (as root too)."""
    (tmp_path / "logs").write_text("not a folder", encoding="utf-8")
    return tmp_path


def test_without_a_log_folder_a_logged_traceback_stays_off_the_terminal(data_dir_without_log_folder, capfd):
    from game.ui.app import App

    app = App(data_dir=str(data_dir_without_log_folder), size=(800, 600), show_start=False)
    try:
        assert app.log_file is None
        try:
            raise RuntimeError("a scene failed")
        except RuntimeError:
            logging.getLogger("tricktable.table").exception("drawing the table failed")
    finally:
        app.close(quit_pygame=False)
    err = capfd.readouterr().err
    assert "Traceback" not in err and "RuntimeError" not in err
    assert "drawing the table failed" in err, "the terminal still hears of it, in one line"


def test_a_failed_self_test_names_no_log_file_that_does_not_exist(data_dir_without_log_folder, monkeypatch, capfd):
    def broken_game(app, plan, collector):
        raise RuntimeError("the table fell over")

    monkeypatch.setattr(self_test, "_play", broken_game)
    # The self-test plays in a folder of its own: this one, whose log folder cannot be made.
    monkeypatch.setattr(tempfile, "mkdtemp", lambda **kwargs: str(data_dir_without_log_folder))  # as self_test calls it
    lines: list[str] = []
    assert self_test.run_self_test(quit_pygame=False, echo=lines.append) == self_test.EXIT_FAILED
    (result,) = lines
    assert "log:" not in result
    assert "no log file" in result and str(data_dir_without_log_folder / "logs") in result
    assert "Traceback" not in capfd.readouterr().err


def test_a_failed_self_test_names_its_log_file_when_it_has_one(tmp_path, monkeypatch):
    monkeypatch.setattr(self_test, "_play", lambda app, plan, collector: 1 / 0)
    lines: list[str] = []
    assert (
        self_test.run_self_test(quit_pygame=False, echo=lines.append, scratch_parent=str(tmp_path))
        == self_test.EXIT_FAILED
    )
    (kept,) = tmp_path.iterdir()  # a failed self-test keeps its own folder, log and all
    log_file = kept / "logs" / "tricktable.log"
    assert f"(log: {log_file})" in lines[0]
    assert "ZeroDivisionError" in log_file.read_text(encoding="utf-8")


# ---------------------------------------------------------------------- an unexpected error
def _crash(*args, **kwargs):
    raise RuntimeError("something nobody foresaw")


def test_an_unexpected_error_goes_to_the_log_file_and_the_terminal_gets_one_line(tmp_path, monkeypatch, capfd):
    from game.program import cli, entry
    from game.program.log_setup import log_for_command

    log_for_command(tmp_path / "logs", headless=True)
    monkeypatch.setattr(cli, "main", _crash)
    assert entry.run(["simulate"]) == entry.EXIT_SOFTWARE_FAULT
    err = capfd.readouterr().err
    log_file = tmp_path / "logs" / "tricktable.log"
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "RuntimeError" in err and f"the details are in {log_file}" in err
    assert "Traceback" in log_file.read_text(encoding="utf-8")


def test_an_unexpected_error_without_a_log_file_says_so_without_a_traceback(monkeypatch, capfd):
    from game.program import cli, entry

    for handler in list(app_logger().handlers):
        app_logger().removeHandler(handler)
    monkeypatch.setattr(cli, "main", _crash)
    assert entry.run([]) == entry.EXIT_SOFTWARE_FAULT
    err = capfd.readouterr().err
    assert "no log file could be written" in err and "Traceback" not in err


def test_a_worker_thread_that_fails_leaves_its_traceback_in_the_log(tmp_path, monkeypatch, capfd):
    from game.program import cli, entry
    from game.program.log_setup import log_for_command

    def main_with_a_failing_thread(*args, **kwargs):
        worker = threading.Thread(target=_crash, name="autosave")
        worker.start()
        worker.join()
        return 0

    log_for_command(tmp_path / "logs", headless=True)
    monkeypatch.setattr(cli, "main", main_with_a_failing_thread)
    assert entry.run([]) == 0
    err = capfd.readouterr().err
    assert "Traceback" not in err and "the thread autosave stopped" in err
    assert "something nobody foresaw" in (tmp_path / "logs" / "tricktable.log").read_text(encoding="utf-8")


# ---------------------------------------------------------------------- the start-up probe
@pytest.mark.parametrize("value", ["/tmp/anywhere.txt", "../outside.txt", "sub/first.txt", ".hidden", "", "a" * 200])
def test_the_start_up_probe_only_names_a_file_in_the_data_folder(tmp_path, value):
    assert probe_file(tmp_path, {PROBE_VARIABLE: value}) is None
    assert probe_file(tmp_path, {PROBE_VARIABLE: "first-frame.txt"}) == tmp_path / "first-frame.txt"


def test_the_start_up_probe_never_writes_over_a_file(tmp_path):
    target = tmp_path / "first-frame.txt"
    target.write_text("kept", encoding="utf-8")
    assert not write_first_frame_time(target)
    assert target.read_text(encoding="utf-8") == "kept"


def test_the_program_writes_no_start_up_probe_outside_its_data_folder(tmp_path):
    outside = tmp_path / "outside.txt"
    data_dir = tmp_path / "data"
    process = start(
        ["--data-dir", str(data_dir), "--size", "800x600"],
        env=child_env(**{PROBE_VARIABLE: str(outside)}),
        stdout=subprocess.DEVNULL,
    )
    wait_for(window_is_running(data_dir), process)
    time.sleep(1.0)
    still_running = process.poll() is None
    interrupt(process)
    assert not outside.exists()
    assert still_running, "a probe it may not write does not stop the window"
    # The probe the tool uses (a plain name) still works: written in the data folder, then the window closes.
    result = subprocess.run(
        [sys.executable, "main.py", "--data-dir", str(data_dir), "--size", "800x600"],
        cwd=ROOT,
        env=child_env(**{PROBE_VARIABLE: "first-frame.txt"}),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert float((data_dir / "first-frame.txt").read_text(encoding="utf-8")) > 0


@pytest.fixture(autouse=True)
def _restore_app_logger():
    """The tests above give the app's logger other handlers; later tests get it back as it was."""
    logger = app_logger()
    handlers, level = list(logger.handlers), logger.level
    yield
    for handler in list(logger.handlers):
        if handler not in handlers:
            logger.removeHandler(handler)
            handler.close()
    for handler in handlers:
        if handler not in logger.handlers:
            logger.addHandler(handler)
    logger.setLevel(level)


@pytest.fixture(autouse=True)
def _restore_hooks(monkeypatch):
    """``game.program.entry.run`` installs the thread and unraisable hooks; they are put back after each test."""
    monkeypatch.setattr(threading, "excepthook", threading.excepthook)
    monkeypatch.setattr(sys, "unraisablehook", sys.unraisablehook)
