"""Files that never break: hand histories, simulate --history, settings, the last
setup, temporary files and file permissions under a full disk, a kill and a
hand edit.

Each fault is made for real where it can be: a full disk is a file object
whose write stores part of the data and then raises ``OSError(ENOSPC)``; a
kill is a child process stopped with SIGKILL in the middle of its write. Each
test then proves that nothing written before is lost and that the program
carries on: the next game is appended and readable, ``replay --check``
passes on the earlier games, the self-test passes on the folder.
"""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

import game.persistence.history_files as history
import game.program.cli as cli
from game.persistence.history_codec import HistoryError
from game.persistence.history_files import write_history
from game.persistence.history_reader import read_history
from game.persistence.history_replay import check_file
from game.rules import make_rules
from game.session.match import Match, Seat
from game.settings.app_settings import Settings, load_settings, save_settings
from game.settings.last_setup import LastSetup, load_last_setup, save_last_setup
from game.settings.paths import UserPaths, atomic_write_text

REPO_ROOT = Path(__file__).resolve().parent.parent
# Long enough for a child Python to start and reach its write on a busy machine.
CHILD_TIMEOUT = 60.0


# ---------------------------------------------------------------------- helpers
def play_game(seed: int, game: str = "wizard") -> dict[str, Any]:
    """The history record of one short, finished game between computer players."""
    overrides = {"rounds": 2} if game == "wizard" else {"target_score": 3}
    players = 3 if game == "wizard" else 4
    rules = make_rules(game, overrides, players=players)
    match = Match(rules, [Seat(f"Computer {seat + 1}", "ai:easy") for seat in range(players)], seed)
    match.play_out()
    return match.history()


@pytest.fixture(scope="module")
def games() -> list[dict[str, Any]]:
    return [play_game(seed) for seed in (11, 12, 13)]


def line_of(record: dict[str, Any]) -> bytes:
    """A game's line as the history file holds it (HAND_HISTORY.md: compact JSON, one line)."""
    return (json.dumps(record, separators=(",", ":"), ensure_ascii=False) + "\n").encode("utf-8")


def lines_of(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines(keepends=True)


class FullDisk:
    """A file object on a disk with ``room`` bytes (or characters) left: a
    write that does not fit stores what fits and then fails as a full disk
    does. ``truncate`` can be made to fail too, as it may when the disk is in
    real trouble."""

    def __init__(self, real: Any, room: int, truncate_fails: bool = False) -> None:
        self._real = real
        self._room = room
        self._truncate_fails = truncate_fails

    def write(self, data: Any) -> int:
        if len(data) <= self._room:
            self._room -= len(data)
            return int(self._real.write(data))
        self._real.write(data[: self._room])
        self._real.flush()
        self._room = 0
        raise OSError(errno.ENOSPC, "No space left on device")

    def truncate(self, size: int | None = None) -> int:
        if self._truncate_fails:
            raise OSError(errno.EIO, "Input/output error")
        return int(self._real.truncate(size))

    def __enter__(self) -> FullDisk:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._real.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


def fill_disk(monkeypatch: pytest.MonkeyPatch, room: int, truncate_fails: bool = False) -> None:
    """Give every file the history module opens for writing from now on only ``room`` bytes of space."""
    real_open = open

    def full_disk_open(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        handle = real_open(file, mode, *args, **kwargs)
        return FullDisk(handle, room, truncate_fails) if ("a" in mode or "w" in mode) else handle

    monkeypatch.setattr(history, "open", full_disk_open, raising=False)


# A child process that appends one game to a history file, but stops half-way
# through the write (as if the scheduler took it away there), says so, and
# waits to be killed.
KILLED_MID_WRITE = """
import builtins, json, sys, time
import game.persistence.history_files as history

class HalfThenHang:
    def __init__(self, real):
        self._real = real
    def write(self, data):
        self._real.write(data[:len(data) // 2])
        self._real.flush()
        print("half written", flush=True)
        time.sleep(600)
    def __enter__(self):
        return self
    def __exit__(self, *exc):
        self._real.close()
    def __getattr__(self, name):
        return getattr(self._real, name)

def hanging_open(file, mode="r", *args, **kwargs):
    handle = builtins.open(file, mode, *args, **kwargs)
    return HalfThenHang(handle) if "a" in mode else handle

history.open = hanging_open
record = json.loads(open(sys.argv[2], encoding="utf-8").read())
history.write_history(sys.argv[1], [record], append=True)
"""


def run_child(script: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", script, *args], cwd=REPO_ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def kill_when_it_says(child: subprocess.Popen[str], words: str) -> None:
    assert child.stdout is not None
    line = child.stdout.readline()
    if words not in line:
        child.kill()
        _, err = child.communicate(timeout=CHILD_TIMEOUT)
        pytest.fail(f"the child never reached its write: {line!r} {err}")
    child.kill()
    child.communicate(timeout=CHILD_TIMEOUT)


def torn_history(path: Path, records: list[dict[str, Any]], tail: bytes | None = None) -> bytes:
    """A history file holding ``records`` and then a torn half of one more game."""
    write_history(path, records)
    torn = tail if tail is not None else line_of(records[0])[:300]
    with open(path, "ab") as handle:
        handle.write(torn)
    return torn


# ---------------------------------------------------------------------- history: a full disk
def test_a_full_disk_during_an_append_costs_only_that_game(tmp_path, monkeypatch, games):
    path = tmp_path / "wizard.jsonl"
    write_history(path, [games[0]], append=True)
    fill_disk(monkeypatch, room=500)
    with pytest.raises(OSError) as failure:
        write_history(path, [games[1]], append=True)
    assert failure.value.errno == errno.ENOSPC
    monkeypatch.undo()  # the disk has room again
    assert list(read_history(path)) == [games[0]], "the half-written game was cut back off"
    write_history(path, [games[2]], append=True)
    assert list(read_history(path)) == [games[0], games[2]]
    assert check_file(path) == []


def test_a_full_disk_that_cannot_even_be_cut_back_is_repaired_by_the_next_append(tmp_path, monkeypatch, games):
    path = tmp_path / "wizard.jsonl"
    write_history(path, [games[0]], append=True)
    fill_disk(monkeypatch, room=500, truncate_fails=True)
    with pytest.raises(OSError):
        write_history(path, [games[1]], append=True)
    monkeypatch.undo()
    with pytest.raises(HistoryError, match="line 2: the last game is incomplete"):
        list(read_history(path))
    write_history(path, [games[2]], append=True)
    assert list(read_history(path)) == [games[0], games[2]]
    assert check_file(path) == []
    damaged = history.damaged_path(path).read_bytes()
    assert damaged == line_of(games[1])[:500] + b"\n", "the torn bytes were set aside, not deleted"


# ---------------------------------------------------------------------- history: a kill
def test_a_child_killed_in_the_middle_of_its_append_loses_only_that_game(tmp_path, games):
    path = tmp_path / "wizard.jsonl"
    write_history(path, [games[0]], append=True)
    record_file = tmp_path / "record.json"
    record_file.write_text(json.dumps(games[1]), encoding="utf-8")
    kill_when_it_says(run_child(KILLED_MID_WRITE, str(path), str(record_file)), "half written")
    assert len(lines_of(path)) == 2 and not lines_of(path)[1].endswith(b"\n"), "the child did tear its write"

    write_history(path, [games[2]], append=True)
    assert list(read_history(path)) == [games[0], games[2]]
    assert check_file(path) == []
    assert history.damaged_path(path).exists()


# ---------------------------------------------------------------------- history: damaged files
@pytest.mark.parametrize(
    "tail",
    [
        pytest.param(None, id="torn record"),
        pytest.param(b"\0" * 4096, id="zeros after a power cut"),
        pytest.param(b'{"format":"trick-table-history","version":1,"game":"wiz', id="torn header"),
    ],
)
def test_a_damaged_tail_is_set_aside_and_the_next_game_lands_on_a_clean_line(tmp_path, games, tail):
    path = tmp_path / "wizard.jsonl"
    torn = torn_history(path, games[:2], tail)
    write_history(path, [games[2]], append=True)
    assert list(read_history(path)) == games
    assert history.damaged_path(path).read_bytes() == torn + b"\n"


def test_a_line_poisoned_by_an_older_version_is_set_aside(tmp_path, games):
    # Before writes were made whole, the next game was appended onto a torn
    # line: one line that is neither game.
    path = tmp_path / "wizard.jsonl"
    write_history(path, [games[0]])
    with open(path, "ab") as handle:
        handle.write(line_of(games[1])[:200] + line_of(games[1]))
    write_history(path, [games[2]], append=True)
    assert list(read_history(path)) == [games[0], games[2]]


def test_a_last_game_missing_only_its_line_end_is_kept(tmp_path, games):
    path = tmp_path / "wizard.jsonl"
    write_history(path, games[:2])
    path.write_bytes(path.read_bytes()[:-1])
    write_history(path, [games[2]], append=True)
    assert list(read_history(path)) == games
    assert not history.damaged_path(path).exists()


def test_replay_check_checks_the_games_before_a_torn_tail(tmp_path, games, capsys):
    path = tmp_path / "wizard.jsonl"
    torn_history(path, games[:2])
    assert cli.main(["replay", "--check", str(path)]) == cli.EXIT_USAGE
    out, err = capsys.readouterr()
    assert f"{path}: 3 lines, 2 games agree with the engine, 1 unreadable (line 3)" in out
    assert "line 3: the last game is incomplete" in err


def test_a_game_broken_by_a_hand_edit_does_not_hide_the_games_after_it(tmp_path, games, capsys):
    path = tmp_path / "wizard.jsonl"
    write_history(path, games)
    lines = lines_of(path)
    path.write_bytes(lines[0] + lines[1].replace(b'"final_scores":', b'"final_scores"', 1) + lines[2])
    assert cli.main(["replay", "--check", str(path)]) == cli.EXIT_USAGE
    out, err = capsys.readouterr()
    assert "line 2: not valid JSON" in err
    assert f"{path}: 3 lines, 2 games agree with the engine, 1 unreadable (line 2)" in out
    write_history(path, [games[0]], append=True)
    assert lines_of(path)[:3] == [lines[0], lines[1].replace(b'"final_scores":', b'"final_scores"', 1), lines[2]], (
        "the damaged game is left for the user to see"
    )


def test_a_hand_edited_game_is_reported_and_the_others_still_count(tmp_path, games, capsys):
    path = tmp_path / "wizard.jsonl"
    write_history(path, games)
    edited = games[1] | {"final_scores": [999] * len(games[1]["final_scores"])}
    write_history(path, [games[0], edited, games[2]])
    assert cli.main(["replay", "--check", str(path)]) == cli.EXIT_FAILED
    out = capsys.readouterr().out
    assert "line 2: the engine disagrees" in out and "line 1:" not in out and "line 3:" not in out
    write_history(path, [games[0]], append=True)
    assert list(read_history(path)) == [games[0], edited, games[2], games[0]], "the edit is kept as written"


# ---------------------------------------------------------------------- history: the program's folder
def test_the_self_test_passes_on_a_folder_whose_history_was_torn_and_leaves_it_for_the_app(tmp_path):
    from game.program.self_test import run_self_test

    folder = tmp_path / "data"
    histories = UserPaths.from_data_dir(folder).histories_dir
    histories.mkdir(parents=True)
    earlier = [play_game(21, "bidwhist")]
    torn_history(histories / "bidwhist.jsonl", earlier)
    torn = (histories / "bidwhist.jsonl").read_bytes()
    lines: list[str] = []
    assert run_self_test(str(folder), quit_pygame=False, echo=lines.append, scratch_parent=str(tmp_path)) == 0, lines
    assert lines[0].startswith("self-test ok")
    # The self-test plays in a folder of its own: the player's file is the app's to repair.
    assert (histories / "bidwhist.jsonl").read_bytes() == torn
    assert not history.damaged_path(histories / "bidwhist.jsonl").exists()


def test_the_app_repairs_a_torn_history_when_it_starts(tmp_path, games, capsys):
    from game.ui.app import App

    histories = UserPaths.from_data_dir(tmp_path).histories_dir
    histories.mkdir(parents=True)
    path = histories / "wizard.jsonl"
    torn_history(path, games[:2])
    app = App(data_dir=str(tmp_path), size=(800, 600), show_start=False)
    app.close(quit_pygame=False)
    assert cli.main(["replay", "--check", str(path)]) == cli.EXIT_OK
    assert list(read_history(path)) == games[:2]


# ---------------------------------------------------------------------- permissions
@pytest.fixture
def umask_022() -> Iterator[None]:
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


@pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX")
def test_new_files_get_the_users_normal_permissions(tmp_path, games, umask_022, capsys):
    write_history(tmp_path / "replaced.jsonl", games[:1])
    write_history(tmp_path / "appended.jsonl", games[:1], append=True)
    atomic_write_text(tmp_path / "settings.yaml", "hints: true\n")
    assert (
        cli.main(
            [
                "simulate",
                "--game",
                "wizard",
                "--players",
                "3",
                "--games",
                "1",
                "--seed",
                "1",
                "--set",
                "rounds=1",
                "--history",
                str(tmp_path / "simulated.jsonl"),
            ]
        )
        == 0
    )
    for name in ("replaced.jsonl", "appended.jsonl", "settings.yaml", "simulated.jsonl"):
        assert oct((tmp_path / name).stat().st_mode & 0o777) == oct(0o644), name


@pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX")
def test_a_stricter_umask_is_respected(tmp_path, games):
    old = os.umask(0o027)
    try:
        atomic_write_text(tmp_path / "settings.yaml", "hints: true\n")
        write_history(tmp_path / "appended.jsonl", games[:1], append=True)
    finally:
        os.umask(old)
    for name in ("settings.yaml", "appended.jsonl"):
        assert (tmp_path / name).stat().st_mode & 0o777 == 0o640, name


@pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX")
def test_a_replaced_file_keeps_its_mode(tmp_path, umask_022):
    target = tmp_path / "settings.yaml"
    target.write_text("hints: true\n", encoding="utf-8")
    target.chmod(0o600)
    atomic_write_text(target, "hints: false\n")
    assert target.stat().st_mode & 0o777 == 0o600


# ---------------------------------------------------------------------- temporary files
# A child that starts an atomic write and is killed after the temporary file
# is written but before it is renamed over the target.
KILLED_BEFORE_RENAME = """
import os, sys, time
import game.settings.paths as paths

def hang(*args):
    print("written, not renamed", flush=True)
    time.sleep(600)

paths.os.replace = hang
paths.atomic_write_text(sys.argv[1], "hints: false\\n")
"""


def test_temporary_files_of_a_killed_write_are_removed_on_the_next_start(tmp_path):
    from game.ui.app import App

    user = UserPaths.from_data_dir(tmp_path).ensure()
    user.settings_file.write_text("hints: true\n", encoding="utf-8")
    kill_when_it_says(run_child(KILLED_BEFORE_RENAME, str(user.settings_file)), "written, not renamed")
    leftovers = list(user.config_dir.glob(".settings.yaml.*.tmp"))
    assert len(leftovers) == 1
    an_hour_ago = time.time() - 3600
    os.utime(leftovers[0], (an_hour_ago, an_hour_ago))
    in_use = user.saves_dir / ".autosave.json.abc123.tmp"  # another copy writing right now
    in_use.write_text("{}", encoding="utf-8")
    not_ours = user.histories_dir / "notes.tmp"
    not_ours.write_text("mine", encoding="utf-8")
    os.utime(not_ours, (an_hour_ago, an_hour_ago))

    app = App(data_dir=str(tmp_path), size=(800, 600), show_start=False)
    app.close(quit_pygame=False)
    assert not leftovers[0].exists()
    assert in_use.exists() and not_ours.exists()
    assert user.settings_file.read_text(encoding="utf-8") == "hints: true\n", "the old file was never touched"
    assert "left over from a write that was cut short" in (user.log_dir / "tricktable.log").read_text(encoding="utf-8")


# ---------------------------------------------------------------------- simulate --history
def simulate(*args: str) -> int:
    return cli.main(
        ["simulate", "--game", "wizard", "--players", "3", "--seed", "5", "--set", "rounds=2", "--ai", "easy", *args]
    )


@pytest.fixture
def count_games_played(monkeypatch) -> list[int]:
    played: list[int] = []
    real_play_out = Match.play_out

    def counting(self: Match, *args: Any, **kwargs: Any) -> Any:
        played.append(1)
        return real_play_out(self, *args, **kwargs)

    monkeypatch.setattr(Match, "play_out", counting)
    return played


@pytest.mark.parametrize("where", ["missing/folder/games.jsonl", "a_file/games.jsonl", "a_folder"])
def test_simulate_checks_the_history_path_before_playing_and_creates_no_folder(
    tmp_path, capsys, count_games_played, where
):
    (tmp_path / "a_file").write_text("", encoding="utf-8")
    (tmp_path / "a_folder").mkdir()
    assert simulate("--games", "3", "--history", str(tmp_path / where)) == cli.EXIT_USAGE
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "Traceback" not in err
    assert count_games_played == [], "no game was played for nothing"
    assert not (tmp_path / "missing").exists()


def test_simulate_writes_each_game_as_it_finishes(tmp_path, capsys, monkeypatch):
    path = tmp_path / "games.jsonl"
    seen_before_each_game: list[int] = []
    real_play_out = Match.play_out

    def looking(self: Match, *args: Any, **kwargs: Any) -> Any:
        seen_before_each_game.append(len(lines_of(path)) if path.exists() else -1)
        return real_play_out(self, *args, **kwargs)

    monkeypatch.setattr(Match, "play_out", looking)
    assert simulate("--games", "3", "--history", str(path)) == 0
    assert seen_before_each_game == [0, 1, 2]
    assert check_file(path) == []


def test_simulate_on_a_full_disk_keeps_the_games_already_written(tmp_path, capsys, monkeypatch):
    reference = tmp_path / "reference.jsonl"
    assert simulate("--games", "5", "--history", str(reference)) == 0
    first_two = sum(len(line) for line in lines_of(reference)[:2])
    path = tmp_path / "games.jsonl"
    fill_disk(monkeypatch, room=first_two + 400)  # the third game fills the disk
    assert simulate("--games", "5", "--history", str(path)) == cli.EXIT_USAGE
    err = capsys.readouterr().err
    assert "No space left on device after 2 games" in err and "Traceback" not in err
    monkeypatch.undo()
    assert list(read_history(path)) == list(read_history(reference))[:2]
    assert check_file(path) == []


SIMULATE_FOR_EVER = [
    "simulate",
    "--game",
    "wizard",
    "--players",
    "3",
    "--games",
    "100000",
    "--seed",
    "1",
    "--set",
    "rounds=2",
    "--ai",
    "easy",
    "--history",
]


def test_a_killed_simulation_keeps_every_finished_game(tmp_path):
    path = tmp_path / "games.jsonl"
    child = subprocess.Popen(
        [sys.executable, "main.py", *SIMULATE_FOR_EVER, str(path)],
        cwd=REPO_ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + CHILD_TIMEOUT
    try:
        while not (path.exists() and len(lines_of(path)) >= 3):
            assert child.poll() is None, child.stderr.read() if child.stderr else ""
            assert time.monotonic() < deadline, "the simulation wrote nothing"
            time.sleep(0.05)
    finally:
        child.kill()
        child.communicate(timeout=CHILD_TIMEOUT)
    write_history(path, [], append=True)  # what the next writer does first: repair the tail
    assert len(list(read_history(path))) >= 3
    assert check_file(path) == []


# ---------------------------------------------------------------------- settings
def settings_paths(tmp_path: Path, text: str) -> UserPaths:
    user = UserPaths.from_data_dir(tmp_path).ensure()
    user.settings_file.write_text(text, encoding="utf-8")
    return user


def backups(user: UserPaths, name: str = "settings.yaml") -> list[Path]:
    return sorted(user.config_dir.glob(f"{name}.bad-*"))


def test_one_bad_setting_keeps_the_others_and_saving_backs_up_the_file(tmp_path):
    text = "language: tr\nfullscreen: true\nanimation_speed: fsat\nhints: false\n"
    user = settings_paths(tmp_path, text)
    settings, warning = load_settings(user)
    assert (settings.language, settings.fullscreen, settings.hints) == ("tr", True, False)
    assert settings.animation_speed == Settings().animation_speed
    assert warning is not None and "animation_speed: must be one of" in warning
    assert "Using the default animation_speed and keeping your other settings" in warning

    settings.four_colour_deck = True
    save_settings(settings, user)
    saved = yaml.safe_load(user.settings_file.read_text(encoding="utf-8"))
    assert (saved["language"], saved["fullscreen"], saved["hints"], saved["four_colour_deck"]) == (
        "tr",
        True,
        False,
        True,
    )
    [backup] = backups(user)
    assert backup.read_text(encoding="utf-8") == text
    assert load_settings(user) == (settings, None)


def test_a_line_of_broken_yaml_costs_only_its_own_setting(tmp_path):
    user = settings_paths(tmp_path, "language: tr\nwindow_size: [1024, 768\nfullscreen: true\n")
    settings, warning = load_settings(user)
    assert (settings.language, settings.fullscreen) == ("tr", True)
    assert settings.window_size == Settings().window_size
    assert warning is not None and "YAML syntax error" in warning and "default window_size" in warning
    save_settings(settings, user)
    assert len(backups(user)) == 1


def test_a_setting_this_version_does_not_know_survives_a_save(tmp_path):
    user = settings_paths(tmp_path, "language: nl\ntable_lamp: warm\n")
    settings, warning = load_settings(user)
    assert settings.language == "nl"
    assert warning is not None and "table_lamp: unknown key" in warning
    save_settings(settings, user)
    saved = yaml.safe_load(user.settings_file.read_text(encoding="utf-8"))
    assert saved["table_lamp"] == "warm" and saved["language"] == "nl"
    assert backups(user) == [], "nothing was lost, so nothing needed a copy"


@pytest.mark.parametrize("text", ["- a list\n", "\x00\x01 not yaml: [\n", "language: [tr\n"])
def test_a_settings_file_that_cannot_be_read_at_all_is_backed_up_before_a_save(tmp_path, text):
    user = settings_paths(tmp_path, text)
    settings, warning = load_settings(user)
    assert settings == Settings() and warning is not None
    save_settings(settings, user)
    [backup] = backups(user)
    assert backup.read_text(encoding="utf-8") == text


def test_a_healthy_settings_file_is_saved_without_copies(tmp_path):
    user = UserPaths.from_data_dir(tmp_path)
    save_settings(Settings(language="tr"), user)
    save_settings(Settings(language="nl"), user)
    assert backups(user) == []
    assert sorted(p.name for p in user.config_dir.iterdir()) == ["settings.yaml"]


def test_a_full_disk_while_saving_settings_leaves_the_old_file_whole(tmp_path, monkeypatch):
    text = "language: tr\nfullscreen: true\n"
    user = settings_paths(tmp_path, text)
    real_fdopen = os.fdopen
    monkeypatch.setattr(os, "fdopen", lambda fd, *args, **kwargs: FullDisk(real_fdopen(fd, *args, **kwargs), 10))
    with pytest.raises(OSError):
        save_settings(Settings(language="nl"), user)
    monkeypatch.undo()
    assert user.settings_file.read_text(encoding="utf-8") == text
    assert sorted(p.name for p in user.config_dir.iterdir()) == ["settings.yaml"], "no temporary file is left"


# ---------------------------------------------------------------------- the last setup
def test_a_broken_last_setup_is_backed_up_before_a_new_one_is_saved(tmp_path):
    user = UserPaths.from_data_dir(tmp_path).ensure()
    text = "game: wizard\nplayers: 4\nnames: [Zoë, Mert]\nkinds: [robot]\nlevels: []\npreset: standard\n"
    user.last_setup_file.write_text(text, encoding="utf-8")
    assert load_last_setup(user) is None
    setup = LastSetup(game="bidwhist", players=4, names=["A"], kinds=["human"], levels=["easy"], preset="standard")
    save_last_setup(setup, user)
    assert load_last_setup(user) == setup
    [backup] = backups(user, "last_setup.yaml")
    assert backup.read_text(encoding="utf-8") == text
    save_last_setup(setup, user)
    assert len(backups(user, "last_setup.yaml")) == 1, "a good file is saved over without a copy"
