"""Two writers never lose games (issue 25, item 2).

Two copies of the program on one file or one data folder, each a real
process: a second ``simulate`` that would replace a history file another
run is writing is refused before it plays; runs that append take turns
game by game and every game of both is in the file, whole; a game another
program is writing at this moment is not mistaken for a torn line; and a
second window on a data folder leaves the first one's game in progress
alone, says so, and gets the saves once the first has gone, even when it
was killed rather than closed.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

from game.persistence import file_lock
from game.persistence.history_files import HistoryWriter, damaged_path, encode_record
from game.persistence.history_reader import read_history
from game.session.match import Match, Seat
from game.settings.paths import UserPaths
from game.rules import make_rules
from game.persistence.savegame import encode_save, save_path, snapshot_of
from game.session.ai_worker import InlineAiRunner
from game.session.local import local_session
from game.ui.scenes.start_scene import StartScene
from game.ui.table.scene import TableScene
from scene_checks import top
from game.ui.text import t
from test_ui_table import make_app, run_until, top_name

REPO_ROOT = Path(__file__).resolve().parent.parent
# Long enough for a child Python to start and finish on a busy machine.
CHILD_TIMEOUT = 60.0
QUICK_GAMES = ["--game", "wizard", "--set", "rounds=1", "--ai", "random"]


def simulate(*args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "main.py", "simulate", *QUICK_GAMES, *args],
        cwd=REPO_ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def quick_game(seed: int) -> dict:
    """The record of one short finished game between computer players."""
    seats = [Seat(f"Computer {seat + 1}", "ai:random") for seat in range(3)]
    match = Match(make_rules("wizard", {"rounds": 1}, players=3), seats, seed)
    match.play_out()
    return match.history()


# ---------------------------------------------------------------------- hand histories
def test_a_second_run_that_would_replace_a_file_being_written_is_refused_before_it_plays(tmp_path):
    path = tmp_path / "same.jsonl"
    first_games = [quick_game(1), quick_game(2)]
    with HistoryWriter(path, replace=True) as first_run:  # what a running `simulate --history` holds
        first_run.append(first_games[0])
        second = simulate("--games", "3", "--seed", "50", "--history", str(path))
        out, err = second.communicate(timeout=CHILD_TIMEOUT)
        first_run.append(first_games[1])
    assert second.returncode == 2, out + err
    assert out == "", "refused before it played a game"
    assert "another Trick Table run is writing it" in err and "--append" in err
    assert list(read_history(path)) == first_games, "the first run keeps every game it wrote"


def test_two_appending_runs_take_turns_and_keep_every_game(tmp_path):
    path = tmp_path / "same.jsonl"
    runs = [simulate("--games", "20", "--seed", str(seed), "--history", str(path), "--append") for seed in (100, 500)]
    for run in runs:
        out, err = run.communicate(timeout=CHILD_TIMEOUT)
        assert run.returncode == 0, out + err
    games = list(read_history(path))  # raises on any line that is not a whole game
    assert len(path.read_bytes().splitlines()) == 40
    assert sorted(game["seed"] for game in games) == [*range(100, 120), *range(500, 520)]
    assert not damaged_path(path).exists()


def test_a_game_another_program_is_writing_is_not_taken_for_a_torn_line(tmp_path):
    """The window appends a finished game (``write_history(..., append=True)``) while another
    program is half-way through writing one: it waits its turn instead of setting that
    half-written game aside as damage."""
    path = tmp_path / "wizard.jsonl"
    games = [quick_game(seed) for seed in (1, 2, 3)]
    (tmp_path / "third.json").write_text(json.dumps(games[2]), encoding="utf-8")
    second_line = encode_record(games[1])
    with open(path, "a+b", buffering=0) as writer:
        writer.write(encode_record(games[0]))
        assert file_lock.lock(writer)
        writer.write(second_line[:200])  # half-way through the second game
        window = subprocess.Popen(
            [
                sys.executable,
                "-c",
                "import json, sys; from game.persistence.history_files import write_history; "
                "write_history(sys.argv[1], [json.load(open(sys.argv[2]))], append=True)",
                str(path),
                str(tmp_path / "third.json"),
            ],
            cwd=REPO_ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        _wait_for(window, seconds=1.0)  # it gets going (and, without a lock, done)
        writer.write(second_line[200:])
        file_lock.unlock(writer)
    out, err = window.communicate(timeout=CHILD_TIMEOUT)
    assert window.returncode == 0, out + err
    assert list(read_history(path)) == games
    assert not damaged_path(path).exists()


def _wait_for(process: subprocess.Popen, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)


# ---------------------------------------------------------------------- the autosave
# A window open at the start screen until its standard input closes.
OPEN_A_WINDOW = (
    "import sys; from game.ui.app import App; app = App(data_dir=sys.argv[1], size=(800, 600)); "
    "print('open', flush=True); sys.stdin.read(); app.close()"
)


def test_a_second_window_leaves_the_first_ones_game_alone_until_the_first_is_gone(tmp_path):
    paths = UserPaths.from_data_dir(tmp_path)
    seats = [Seat("Ada", "human"), Seat("Bruno", "ai:easy"), Seat("Cleo", "ai:easy")]
    first_game = Match(make_rules("wizard", players=3), seats, 5)
    first_game.apply(first_game.legal_actions()[0] if first_game.current_player == 0 else first_game.choose_ai_action())
    save_path(paths).parent.mkdir(parents=True)
    save_path(paths).write_bytes(encode_save(snapshot_of(first_game)))
    before = (save_path(paths).read_bytes(), save_path(paths).stat().st_mtime_ns)
    # The first window, in a process of its own, offers to continue that game.
    first_window = subprocess.Popen(
        [sys.executable, "-c", OPEN_A_WINDOW, str(tmp_path)],
        cwd=REPO_ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1"},
    )
    try:
        assert first_window.stdout is not None and first_window.stdout.readline().strip() == "open"
        second = make_app(tmp_path)
        try:
            assert second.autosaver is None
            assert second.toast.text == t("app.saves_in_use")
            assert top(second, StartScene).saved_game is None, "no Continue of the other window's game"
            # The second window plays a whole game: it is recorded, and the first one's save stays.
            computers = [Seat(seat.name, "ai:random") for seat in seats]
            match = Match(make_rules("wizard", {"rounds": 1}, players=3), computers, 9)
            second.replace(TableScene(second, local_session(match, second, ai_runner=InlineAiRunner())))
            assert run_until(second, lambda: top_name(second) == "EndScene")
        finally:
            second.close(quit_pygame=False)
        assert (save_path(paths).read_bytes(), save_path(paths).stat().st_mtime_ns) == before
        assert [game["seed"] for game in read_history(paths.histories_dir / "wizard.jsonl")] == [9]
    finally:
        first_window.send_signal(signal.SIGKILL)  # it crashes: its lock goes with it
        first_window.communicate(timeout=CHILD_TIMEOUT)
    third = make_app(tmp_path)
    try:
        assert third.autosaver is not None
        saved = top(third, StartScene).saved_game
        assert saved is not None and saved.match.to_save()["actions"] == first_game.to_save()["actions"]
    finally:
        third.close(quit_pygame=False)
