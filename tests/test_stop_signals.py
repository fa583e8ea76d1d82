"""A request from outside to end the program (issue 24, item 6).

SIGTERM (``kill``, a logout) and SIGHUP (a closed terminal) during a game
save it and close the window within a second, without the "Leave this game?"
question nobody is there to answer; the exit status is 128 plus the signal's
number. One test runs the real program in a child process, as a system
stopping it would; the others run the app's own loop in this process.
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import re
import signal
import subprocess
import time

import pytest

from game.persistence.savegame import load_saved_game, save_path
from game.rules.house_rules import make_rules
from game.session.match import Seat
from game.settings.app_settings import Settings
from game.settings.paths import UserPaths
from game.ui.app import IDLE_POLL_SECONDS, SIGNAL_EXIT_BASE, App
from game.ui.dialogs.leave_dialog import LeaveDialog
from test_no_tracebacks import start, wait_for

# The loop's own reaction is the same for every stop signal; SIGTERM is also run
# end to end in a child process above, so this process checks SIGHUP where there is one.
IN_PROCESS_STOP = "SIGHUP" if hasattr(signal, "SIGHUP") else "SIGTERM"


@pytest.mark.skipif(not hasattr(signal, "SIGTERM") or os.name == "nt", reason="POSIX signals")
def test_sigterm_at_the_table_saves_the_game_and_ends_within_a_second(tmp_path) -> None:
    process = start(
        ["--data-dir", str(tmp_path), "--size", "800x600", "--game", "wizard", "--preset", "short"],
        stdout=subprocess.DEVNULL,
    )
    saved = save_path(UserPaths.from_data_dir(tmp_path))
    log_file = tmp_path / "logs" / "tricktable.log"
    wait_for(lambda: saved.exists() and log_file.exists(), process)
    time.sleep(0.5)  # the loop is running, the computers playing their first cards
    asked = time.monotonic()
    process.send_signal(signal.SIGTERM)
    try:
        _, err = process.communicate(timeout=5)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        raise AssertionError("SIGTERM did not end the program (a question left open?)") from None
    took = time.monotonic() - asked
    assert process.returncode == SIGNAL_EXIT_BASE + signal.SIGTERM, err
    assert "Traceback" not in err, err
    # The loop stops within a frame (the next test); this time also holds closing the window
    # and the child's interpreter shutdown, on a machine the test run keeps busy.
    assert took < 2.0, f"took {took:.2f} s to end"
    log = log_file.read_text(encoding="utf-8")
    started = re.search(r"started wizard game (\d+)", log)
    assert started is not None and "ended by signal" in log
    game, problem = load_saved_game(UserPaths.from_data_dir(tmp_path))
    assert problem is None and game is not None, "Continue has the game to resume"
    assert game.match.seed == int(started.group(1)) and not game.match.is_over


def _table_app(tmp_path) -> App:
    app = App(
        data_dir=str(tmp_path),
        size=(800, 600),
        settings=Settings(animation_speed="instant"),
        show_start=False,
        catch_stop_signals=True,
    )
    app.start_match(
        make_rules("wizard", players=3), [Seat("A", "human"), Seat("B", "ai:easy"), Seat("C", "ai:easy")], seed=11
    )
    return app


def test_a_stop_signal_ends_the_loop_at_once_without_asking(tmp_path) -> None:
    number = getattr(signal, IN_PROCESS_STOP)
    before = signal.getsignal(number)
    app = _table_app(tmp_path)
    sleeps: list[float] = []
    asked: list[bool] = []

    def sleep_then_signal(seconds: float) -> None:
        # The loop waits for input in small naps; the signal comes during the first one.
        sleeps.append(seconds)
        if len(sleeps) == 1:
            signal.raise_signal(number)
        elif len(sleeps) > 60:  # a second of waiting: the signal was not taken as a stop
            asked.append(any(isinstance(scene, LeaveDialog) for scene in app.scenes))
            app.running = False
        time.sleep(min(seconds, IDLE_POLL_SECONDS))

    app.sleep = sleep_then_signal
    # The loop closes the app as the program does, but keeps pygame up for the other tests.
    app.close = lambda quit_pygame=True: App.close(app, quit_pygame=False)  # type: ignore[method-assign]
    status = app.run()
    assert not asked, f"still running a second later (the leave question open: {asked[0]})"
    assert status == SIGNAL_EXIT_BASE + number
    assert len(sleeps) <= 2, "the loop ended in the nap the signal came in, or the next"
    game, problem = load_saved_game(app.user_paths)
    assert problem is None and game is not None and game.match.seed == 11
    assert signal.getsignal(number) == before, "the signal's handler of before is back once the window closed"


def test_an_app_built_without_asking_leaves_the_signals_alone(tmp_path) -> None:
    # Tests and tools build apps too; only the program itself takes the signals.
    before = signal.getsignal(signal.SIGTERM)
    app = App(data_dir=str(tmp_path), size=(800, 600), settings=Settings(animation_speed="instant"))
    try:
        assert signal.getsignal(signal.SIGTERM) == before
    finally:
        app.close(quit_pygame=False)
