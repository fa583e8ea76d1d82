"""Every file the program reads, given hostile content, in one table (issue 25, item 8).

Each row names a file of a player's data folder (rules, settings, last setup,
save, history, statistics cache), the reader that meets it (the same entry
the program uses: ``load_settings_problem`` and ``load_last_setup`` at start,
``load_saved_game`` for Continue, ``load_stats`` for the statistics screen,
``tidy_user_files`` for the start-up repair of the histories, ``cli.main``
for ``replay --check``, ``replay FILE --game N`` and ``simulate --rules``),
the hostile content (bytes, or a pipe, a loop of symbolic links, a folder, a
link to ``/dev/zero``), and the outcome: refused with a message in the
player's words, or read, with what was read checked.

The driver copies a normal data folder (settings, last setup, a save in
progress, a history of three games, the statistics cache, a rules file),
puts the hostile content in place of ONE file, runs the reader in a thread
that must end within seconds (a reader waiting on a pipe fails the row, it
never hangs the run), and asserts that no other file changed: every other
file keeps its size, time and bytes; the only new files are the ones set
aside next to the hostile file where that is the behaviour, and the only
rewritten one is the statistics cache, which the statistics build anew.

The behaviours themselves are tested in depth elsewhere (test_checks_words,
test_yaml_safety, test_readers_damage, test_names_and_saves,
test_files_robust, test_replay_check); this table holds them together so a
new reader or a new hostile input is one more row.
"""

from __future__ import annotations

import copy
import hashlib
import json
import logging
import os
import shutil
import stat
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pytest

import game.program.cli as cli
from game.persistence import line_reader, savegame
from game.persistence.housekeeping import tidy_user_files
from game.persistence.savegame import load_saved_game, save_path, snapshot_of
from game.persistence.stats import load_stats, stats_cache_path
from game.session.match import Seat
from game.session.names import LONGEST_NAME
from game.settings import yaml_files
from game.settings.app_settings import load_settings_problem
from game.settings.last_setup import LastSetup, load_last_setup, save_last_setup
from game.settings.paths import UserPaths
from game.ui.app import App
from test_checks_words import PYTHON_WORDS
from test_files_robust import line_of, play_game
from test_names_and_saves import ROBOTS, short_match, write_save
from test_yaml_safety import alias_bomb

# How long a reader may take before the row fails as "waiting" (a pipe it opened, a device it reads).
READER_DEADLINE = 10.0
RULES_NAME = "house_rules.yaml"
HISTORY_NAME = "wizard.jsonl"
GAMES_IN_HISTORY = 3


# ---------------------------------------------------------------------- the normal data folder
@pytest.fixture(scope="module")
def history_records() -> list[dict[str, Any]]:
    return [play_game(seed) for seed in (11, 12, 13)]


@pytest.fixture(scope="module")
def normal_folder(tmp_path_factory, history_records) -> Path:
    """A player's data folder holding one of each file the program reads, made once."""
    root = tmp_path_factory.mktemp("normal") / "data"
    paths = UserPaths.from_data_dir(root).ensure()
    paths.settings_file.write_text("volume: 40\nmute: true\nlanguage: nl\n", encoding="utf-8")
    save_last_setup(
        LastSetup("wizard", 3, ["Ann", "Ben", "Cy"], ["human", "computer", "computer"], ["medium"] * 3, "standard"),
        paths,
    )
    write_save(paths, snapshot_of(short_match([Seat("You", "human")] + ROBOTS[1:])))
    (paths.histories_dir / HISTORY_NAME).write_bytes(b"".join(map(line_of, history_records)))
    load_stats(paths.histories_dir, stats_cache_path(paths.data_dir), parallel=False)  # writes the cache
    (root / RULES_NAME).write_text("game: wizard\nrules:\n  rounds: 2\n", encoding="utf-8")
    for logs in paths.log_dir.glob("*"):
        logs.unlink()
    return root


def file_of(kind: str, root: Path) -> Path:
    paths = UserPaths.from_data_dir(root)
    return {
        "settings": paths.settings_file,
        "last setup": paths.last_setup_file,
        "save": save_path(paths),
        "history": paths.histories_dir / HISTORY_NAME,
        "stats cache": stats_cache_path(paths.data_dir),
        "rules": root / RULES_NAME,
    }[kind]


def listing(root: Path) -> dict[str, tuple]:
    """Every entry under ``root`` (the logs aside): its kind, size, time and bytes."""
    found: dict[str, tuple] = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            path = Path(folder) / name
            relative = str(path.relative_to(root))
            if relative == "logs" or relative.startswith("logs/"):
                continue
            info = path.lstat()
            if stat.S_ISDIR(info.st_mode):
                # A folder's time changes with its entries: its entries are compared, it only by name.
                found[relative] = (stat.S_IFDIR, 0, 0, "")
                continue
            digest = hashlib.sha256(path.read_bytes()).hexdigest() if stat.S_ISREG(info.st_mode) else ""
            found[relative] = (stat.S_IFMT(info.st_mode), info.st_size, info.st_mtime_ns, digest)
    return found


# ---------------------------------------------------------------------- hostile contents
Maker = Callable[[Path], None]


def put_bytes(data: bytes) -> Maker:
    def make(path: Path) -> None:
        path.write_bytes(data)

    return make


def put_text(text: str) -> Maker:
    return put_bytes(text.encode("utf-8"))


def put_pipe(path: Path) -> None:
    os.mkfifo(path)


def put_folder(path: Path) -> None:
    path.mkdir()


def put_link_loop(path: Path) -> None:
    other = path.with_name(path.name + ".loop")
    other.symlink_to(path.name)
    path.symlink_to(other.name)


def put_dev_zero(path: Path) -> None:
    path.symlink_to("/dev/zero")


def nested_json(depth: int = 100_000) -> bytes:
    return b"[" * depth + b"]" * depth


def record_lines(change: Callable[[list[dict[str, Any]]], list[bytes]]) -> Callable[[list], Maker]:
    """A history built from the three normal games by ``change`` (the records are copies)."""

    def with_records(records: list[dict[str, Any]]) -> Maker:
        return put_bytes(b"".join(change(copy.deepcopy(records))))

    return with_records


def renamed_first_player(name: str) -> Callable[[list], Maker]:
    def change(records: list[dict[str, Any]]) -> list[bytes]:
        records[1]["players"][0]["name"] = name
        # ensure_ascii: a lone surrogate reaches a file only as a JSON escape.
        return [line_of(records[0]), (json.dumps(records[1]) + "\n").encode("ascii"), line_of(records[2])]

    return record_lines(change)


def with_controller(controller: str) -> Callable[[list], Maker]:
    def change(records: list[dict[str, Any]]) -> list[bytes]:
        records[1]["players"][1]["controller"] = controller
        return list(map(line_of, records))

    return record_lines(change)


def duplicate_seat(records: list[dict[str, Any]]) -> list[bytes]:
    records[1]["players"][1]["seat"] = records[1]["players"][0]["seat"]
    return list(map(line_of, records))


def duplicate_json_key(records: list[dict[str, Any]]) -> list[bytes]:
    second = line_of(records[1])
    return [line_of(records[0]), second.replace(b"{", b'{"seed":1,', 1), line_of(records[2])]


def damaged_middle(records: list[dict[str, Any]]) -> list[bytes]:
    return [line_of(records[0]), b'{"game": "wizard", "deals": [tor\n', line_of(records[1]), line_of(records[2])]


def torn_tail(records: list[dict[str, Any]]) -> list[bytes]:
    return list(map(line_of, records)) + [line_of(records[0])[:200]]


def huge_middle(records: list[dict[str, Any]]) -> list[bytes]:
    return [
        line_of(records[0]),
        b'{"x": "' + b"y" * (2 * 1024 * 1024) + b'"}\n',
        line_of(records[1]),
        line_of(records[2]),
    ]


def non_utf8_middle(records: list[dict[str, Any]]) -> list[bytes]:
    return [line_of(records[0]), line_of(records[1]).replace(b'"wizard"', b'"wiz\xffard"', 1), line_of(records[2])]


def nested_middle(records: list[dict[str, Any]]) -> list[bytes]:
    return [line_of(records[0]), nested_json(50_000) + b"\n", line_of(records[1]), line_of(records[2])]


def long_number_middle(records: list[dict[str, Any]]) -> list[bytes]:
    second = line_of(records[1])
    return [
        line_of(records[0]),
        second.replace(b'"seed":', b'"seed":' + b"9" * 5000 + b',"x":', 1),
        line_of(records[2]),
    ]


def save_changed(change: Callable[[dict[str, Any]], None]) -> Callable[[dict], Maker]:
    def with_snapshot(snapshot: dict[str, Any]) -> Maker:
        data = copy.deepcopy(snapshot)
        change(data)
        return put_bytes(json.dumps(data).encode("ascii"))

    return with_snapshot


def torn_save(snapshot: dict[str, Any]) -> Maker:
    return put_bytes(json.dumps(snapshot).encode("utf-8")[:300])


torn_save.__name__ = "with_snapshot"  # made from the normal save, as the rows of save_changed


def seat_name(name: str) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        data["seats"][0]["name"] = name

    return change


def seat_controller(controller: str) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        data["seats"][1]["controller"] = controller

    return change


LAST_SETUP = (
    "game: wizard\nplayers: 3\nnames: [{names}]\nkinds: [human, computer, computer]\n"
    "levels: [medium, medium, medium]\npreset: standard\n"
)


# ---------------------------------------------------------------------- what the readers return
@dataclass
class Outcome:
    value: Any = None  # what was read (settings, a setup, a saved game, statistics, an exit status)
    message: str = ""  # what the player is told (a warning, stderr, the reason a save was set aside)
    set_aside: list[str] = field(default_factory=list)


def read_settings(root: Path, tmp_path: Path, capsys, caplog) -> Outcome:
    settings, problem = load_settings_problem(UserPaths.from_data_dir(root))
    return Outcome(settings, "" if problem is None else str(problem))


def read_last_setup(root: Path, tmp_path: Path, capsys, caplog) -> Outcome:
    with caplog.at_level(logging.WARNING, logger="game.config"):
        setup = load_last_setup(UserPaths.from_data_dir(root))
    return Outcome(setup, " ".join(record.getMessage() for record in caplog.records))


def read_save(root: Path, tmp_path: Path, capsys, caplog) -> Outcome:
    saved, problem = load_saved_game(UserPaths.from_data_dir(root))
    if problem is None:
        return Outcome(saved)
    return Outcome(problem, str(problem.problem))


def read_statistics(root: Path, tmp_path: Path, capsys, caplog) -> Outcome:
    paths = UserPaths.from_data_dir(root)
    loaded = load_stats(paths.histories_dir, stats_cache_path(paths.data_dir), parallel=False)
    return Outcome(loaded, " ".join(str(problem) for problem in loaded.problems))


def start_up_tidy(root: Path, tmp_path: Path, capsys, caplog) -> Outcome:
    """The tidying every start does: a torn history tail is set aside, nothing else touched."""
    tidy_user_files(UserPaths.from_data_dir(root))
    history = file_of("history", root)
    return Outcome(history.read_bytes() if history.is_file() and not history.is_symlink() else None)


def replay_check(root: Path, tmp_path: Path, capsys, caplog) -> Outcome:
    code = cli.main(["replay", "--check", str(file_of("history", root))])
    out, err = capsys.readouterr()
    return Outcome(code, out + err)


def replay_viewer(root: Path, tmp_path: Path, capsys, caplog) -> Outcome:
    code = cli.main(["replay", str(file_of("history", root)), "--game", "3", "--data-dir", str(root)])
    return Outcome(code, capsys.readouterr().err)


def simulate_with_rules(root: Path, tmp_path: Path, capsys, caplog) -> Outcome:
    out = tmp_path / "simulated.jsonl"
    code = cli.main(
        [
            "simulate",
            "--game",
            "wizard",
            "--games",
            "1",
            "--seed",
            "1",
            "--ai",
            "random",
            "--rules",
            str(file_of("rules", root)),
            "--history",
            str(out),
        ]
    )
    return Outcome((code, out.exists()), capsys.readouterr().err)


READERS: dict[str, tuple[str, Callable[..., Outcome]]] = {
    "settings": ("settings", read_settings),
    "last setup": ("last setup", read_last_setup),
    "save": ("save", read_save),
    "statistics": ("history", read_statistics),
    "start-up tidy": ("history", start_up_tidy),
    "replay --check": ("history", replay_check),
    "replay --game 3": ("history", replay_viewer),
    "statistics cache": ("stats cache", read_statistics),
    "simulate --rules": ("rules", simulate_with_rules),
}


# ---------------------------------------------------------------------- the expected outcomes
def _said_in_words(outcome: Outcome, words: Sequence[str], aside: str | None) -> None:
    """The message holds each of ``words`` and none of Python's own; ``aside``: the file
    set aside is so named."""
    for word in words:
        assert word in outcome.message, outcome.message[:600]
    assert not any(word in outcome.message for word in PYTHON_WORDS), outcome.message[:600]
    if aside is not None:
        assert outcome.set_aside and all(aside in name for name in outcome.set_aside), outcome.set_aside


def refused(*words: str, aside: str | None = None) -> Callable[[Outcome], None]:
    """The reader refused, saying each of ``words`` (``aside``: a file set aside so named)."""

    def check(outcome: Outcome) -> None:
        assert outcome.message, "refused without a word to the player"
        _said_in_words(outcome, words, aside)

    check.aside = aside  # type: ignore[attr-defined]
    return check


def read(test: Callable[[Outcome], Any], *warned: str, aside: str | None = None) -> Callable[[Outcome], None]:
    """The reader read the file (``test`` holds of what it read), warning ``warned`` if any
    (``aside``: a damaged part set aside in a file so named)."""

    def check(outcome: Outcome) -> None:
        assert test(outcome) is not False, (outcome.value, outcome.message[:600])
        _said_in_words(outcome, warned, aside)

    check.aside = aside  # type: ignore[attr-defined]
    return check


def defaults_kept(outcome: Outcome) -> bool:
    return outcome.value.volume != 40  # nothing of the player's file counts, the defaults do


def games_counted(count: int) -> Callable[[Outcome], bool]:
    return lambda outcome: outcome.value.book.get("wizard", "Computer 1").games == count


def save_set_aside(outcome: Outcome) -> bool:
    return outcome.value.kept_as is not None


def first_name(expected: str) -> Callable[[Outcome], bool]:
    def test(outcome: Outcome) -> bool:
        assert outcome.value.match.seats[0].name == expected
        return True

    return test


def setup_names(expected: list[str]) -> Callable[[Outcome], bool]:
    return lambda outcome: outcome.value is not None and outcome.value.names == expected


def status(code: int) -> Callable[[Outcome], bool]:
    return lambda outcome: outcome.value == code


@dataclass
class Row:
    id: str
    reader: str
    content: Any  # a Maker, or a function of the normal records / save making one
    expect: Callable[[Outcome], None]
    caps: dict[str, int] = field(default_factory=dict)  # "module.NAME": a smaller cap for this row
    marks: tuple = ()


SPECIAL_FILES = [
    ("a pipe", put_pipe),
    ("a loop of links", put_link_loop),
    ("a folder", put_folder),
    ("a link to /dev/zero", put_dev_zero),
]

ROWS: list[Row] = [
    # ------------------------------------------------------------------ settings: kept what can be read
    Row("settings: empty", "settings", put_bytes(b""), read(lambda o: o.value.volume != 40 and not o.message)),
    Row(
        "settings: non-UTF-8 byte in a comment",
        "settings",
        put_bytes(b"volume: 40\n# caf\xe9\nmute: true\n"),
        read(lambda o: o.value.volume == 40 and o.value.mute, "line 2 holds bytes that are not UTF-8"),
    ),
    Row(
        "settings: base-60 1:30",
        "settings",
        put_text("volume: 40\nai_pause_seconds: 1:30\n"),
        read(lambda o: o.value.volume == 40, "ai_pause_seconds: must be a number of seconds", "1:30"),
    ),
    Row(
        "settings: a date",
        "settings",
        put_text("volume: 2024-01-01\nmute: true\n"),
        read(lambda o: o.value.mute is True, "not 2024-01-01"),
    ),
    Row(
        "settings: a null key",
        "settings",
        put_text("volume: 40\n~: 1\n"),
        read(lambda o: o.value.volume == 40, "null: unknown key"),
    ),
    Row(
        "settings: unknown key, did you mean",
        "settings",
        put_text("volum: 40\nmute: true\n"),
        read(lambda o: o.value.mute is True, "did you mean volume"),
    ),
    Row(
        "settings: duplicate keys",
        "settings",
        put_text("volume: 40\nvolume: 50\nmute: true\n"),
        read(lambda o: o.value.volume not in (40, 50), "volume"),
    ),
    Row(
        "settings: 5000-digit number",
        "settings",
        put_text("volume: " + "1" * 5000 + "\nmute: true\n"),
        read(lambda o: o.value.volume != 40, "5,000 digits"),
    ),
    Row("settings: alias bomb", "settings", put_text(alias_bomb()), read(defaults_kept, "alias")),
    Row(
        "settings: deep nesting",
        "settings",
        put_text("volume: " + "[" * 100 + "]" * 100 + "\n"),
        read(defaults_kept, "nest"),
    ),
    Row(
        "settings: huge",
        "settings",
        put_text("# " + "x" * 5000 + "\nvolume: 40\n"),
        read(defaults_kept, "larger than"),
        caps={"yaml_files.MAX_YAML_BYTES": 4096},
    ),
    *[
        Row(f"settings: {name}", "settings", maker, read(defaults_kept, words))
        for (name, maker), words in zip(SPECIAL_FILES, ["not an ordinary file", "", "", "not an ordinary file"])
    ],
    # ------------------------------------------------------------------ last setup: used, cleaned or ignored
    Row("last setup: empty", "last setup", put_bytes(b""), read(lambda o: o.value is None)),
    Row(
        "last setup: lone surrogate name",
        "last setup",
        put_text(LAST_SETUP.format(names='"\\ud800", Ben, Cy')),
        read(lambda o: o.value is not None and o.value.names[1:] == ["Ben", "Cy"] and o.value.renamed),
    ),
    Row(
        "last setup: NUL in a name",
        "last setup",
        put_text(LAST_SETUP.format(names='"A\\0nn", Ben, Cy')),
        read(setup_names(["Ann", "Ben", "Cy"])),
    ),
    Row(
        "last setup: 300-character name",
        "last setup",
        put_text(LAST_SETUP.format(names="x" * 300 + ", Ben, Cy")),
        read(setup_names(["x" * LONGEST_NAME, "Ben", "Cy"])),
    ),
    Row(
        "last setup: non-UTF-8 byte",
        "last setup",
        put_bytes(LAST_SETUP.format(names="A\xffnn, Ben, Cy").encode("latin-1")),
        read(lambda o: o.value is None, "UTF-8"),
    ),
    Row("last setup: alias bomb", "last setup", put_text(alias_bomb()), read(lambda o: o.value is None, "alias")),
    Row(
        "last setup: duplicate keys",
        "last setup",
        put_text(LAST_SETUP.format(names="Ann, Ben, Cy") + "game: bidwhist\n"),
        read(lambda o: o.value is None, "game"),
    ),
    Row(
        "last setup: base-60 1:30",
        "last setup",
        put_text(LAST_SETUP.format(names="Ann, Ben, Cy").replace("players: 3", "players: 1:30")),
        read(lambda o: o.value is None, "1:30"),
    ),
    Row(
        "last setup: a date",
        "last setup",
        put_text(LAST_SETUP.format(names="2024-01-01, Ben, Cy")),
        read(lambda o: o.value is None, "names must be a list"),
    ),
    *[
        Row(f"last setup: {name}", "last setup", maker, read(lambda o: o.value is None))
        for name, maker in SPECIAL_FILES
    ],
    # ------------------------------------------------------------- save: continued, or set aside once with the reason
    Row("save: lone surrogate name", "save", save_changed(seat_name("\ud800")), read(first_name("#1"))),
    Row("save: NUL in a name", "save", save_changed(seat_name("Y\x00ou")), read(first_name("You"))),
    Row("save: 300-character name", "save", save_changed(seat_name("z" * 300)), read(first_name("z" * LONGEST_NAME))),
    Row(
        'save: controller "robot"',
        "save",
        save_changed(seat_controller("robot")),
        refused("robot", aside="autosave.json.corrupt-"),
    ),
    Row("save: torn", "save", torn_save, refused(aside=".corrupt-")),
    Row("save: empty", "save", put_bytes(b""), refused(aside="autosave.json.corrupt-")),
    Row("save: non-UTF-8 byte", "save", put_bytes(b'{"version": 1, "x": "\xff"}'), refused(aside=".corrupt-")),
    Row("save: deep nesting", "save", put_bytes(nested_json()), refused("nested too deeply", aside=".corrupt-")),
    Row(
        "save: 5000-digit number",
        "save",
        put_bytes(b'{"version": ' + b"7" * 5000 + b"}"),
        refused("a number too long to read", aside=".corrupt-"),
    ),
    Row("save: duplicate keys", "save", put_bytes(b'{"version": 1, "version": 2}'), refused(aside=".corrupt-")),
    Row(
        "save: huge",
        "save",
        put_bytes(b" " * 5000 + b"{}"),
        refused(aside=".corrupt-"),
        caps={"savegame.MAX_SAVE_BYTES": 4096},
    ),
    Row("save: a pipe", "save", put_pipe, refused("not an ordinary file", aside=".corrupt-")),
    Row("save: a link to /dev/zero", "save", put_dev_zero, refused("not an ordinary file", aside=".corrupt-")),
    Row("save: a folder", "save", put_folder, refused("not an ordinary file", aside=".corrupt-")),
    # The operating system's own words, as the save's reader shows them; the links are left as they are.
    Row("save: a loop of links", "save", put_link_loop, refused("Too many levels of symbolic links")),
    # ------------------------------------------------------------------ history, read by the statistics
    Row("statistics: empty history", "statistics", put_bytes(b""), read(lambda o: o.value.problems == [])),
    Row(
        "statistics: damaged middle line", "statistics", record_lines(damaged_middle), read(games_counted(3), "line 2")
    ),
    Row("statistics: torn tail", "statistics", record_lines(torn_tail), read(games_counted(3))),
    Row(
        "statistics: huge middle line",
        "statistics",
        record_lines(huge_middle),
        read(games_counted(3), "line 2"),
        caps={"line_reader.MAX_LINE_BYTES": 128 * 1024},
    ),
    Row("statistics: non-UTF-8 byte", "statistics", record_lines(non_utf8_middle), read(games_counted(2), "line 2")),
    Row("statistics: deep nesting", "statistics", record_lines(nested_middle), read(games_counted(3), "line 2")),
    Row(
        "statistics: 5000-digit number",
        "statistics",
        record_lines(long_number_middle),
        read(games_counted(2), "line 2"),
    ),
    Row(
        "statistics: lone surrogate name",
        "statistics",
        renamed_first_player("\ud800"),
        read(games_counted(2), "line 2"),
    ),
    Row("statistics: NUL in a name", "statistics", renamed_first_player("a\x00b"), read(games_counted(2), "line 2")),
    # (The statistics count a game whose name is over the longest a seat takes; replay --check refuses it.)
    Row(
        "statistics: 300-character name",
        "statistics",
        renamed_first_player("x" * 300),
        read(lambda o: o.value.games_read == 3 and o.value.problems == []),
    ),
    *[
        Row(f"statistics: history is {name}", "statistics", maker, read(lambda o: o.value.problems == []))
        for name, maker in SPECIAL_FILES
    ],
    # ------------------------------------------------------------------ history, tidied at start-up
    Row(
        "start-up tidy: torn tail",
        "start-up tidy",
        record_lines(torn_tail),
        read(lambda o: o.value.count(b"\n") == GAMES_IN_HISTORY, aside="wizard.jsonl.damaged"),
    ),
    Row(
        "start-up tidy: damaged middle line",
        "start-up tidy",
        record_lines(damaged_middle),
        read(lambda o: o.value.count(b"\n") == GAMES_IN_HISTORY + 1),
    ),
    Row(
        "start-up tidy: huge line without a newline",
        "start-up tidy",
        put_bytes(b"x" * (1024 * 1024)),
        read(lambda o: o.value == b"", aside="wizard.jsonl.damaged"),
        caps={"line_reader.MAX_LINE_BYTES": 128 * 1024},
    ),
    *[
        Row(f"start-up tidy: history is {name}", "start-up tidy", maker, read(lambda o: o.value is None))
        for name, maker in SPECIAL_FILES
    ],
    # ------------------------------------------------------------------ history, checked by replay --check
    Row("replay --check: empty", "replay --check", put_bytes(b""), read(status(0))),
    Row(
        "replay --check: damaged middle line", "replay --check", record_lines(damaged_middle), read(status(2), "line 2")
    ),
    Row("replay --check: torn tail", "replay --check", record_lines(torn_tail), read(status(2), "line 4")),
    Row(
        "replay --check: huge middle line",
        "replay --check",
        record_lines(huge_middle),
        read(status(2), "line 2"),
        caps={"line_reader.MAX_LINE_BYTES": 128 * 1024},
    ),
    Row('replay --check: controller "x"', "replay --check", with_controller("x"), read(status(2), "line 2")),
    Row('replay --check: controller "robot"', "replay --check", with_controller("robot"), read(status(2), "line 2")),
    Row("replay --check: duplicate seats", "replay --check", record_lines(duplicate_seat), read(status(2), "line 2")),
    Row(
        "replay --check: duplicate JSON keys",
        "replay --check",
        record_lines(duplicate_json_key),
        read(status(2), "line 2"),
    ),
    Row("replay --check: deep nesting", "replay --check", record_lines(nested_middle), read(status(2), "line 2")),
    Row(
        "replay --check: 5000-digit number",
        "replay --check",
        record_lines(long_number_middle),
        read(status(2), "line 2"),
    ),
    Row(
        "replay --check: lone surrogate name",
        "replay --check",
        renamed_first_player("\ud800"),
        read(status(2), "line 2"),
    ),
    Row("replay --check: NUL in a name", "replay --check", renamed_first_player("a\x00b"), read(status(2), "line 2")),
    Row(
        "replay --check: 300-character name",
        "replay --check",
        renamed_first_player("x" * 300),
        read(status(2), "line 2", "longer than 200 characters"),
    ),
    Row("replay --check: a link to /dev/zero", "replay --check", put_dev_zero, read(status(2), "not a file")),
    Row("replay --check: a folder", "replay --check", put_folder, read(status(2))),
    Row("replay --check: a loop of links", "replay --check", put_link_loop, read(status(2))),
    # ------------------------------------------------------------------ history, opened in the replay viewer
    Row(
        "replay --game 3: damaged middle line",
        "replay --game 3",
        record_lines(damaged_middle),
        read(status(0), "line 2"),
    ),
    # The window's start-up repair sets the torn tail aside before the viewer reads the file.
    Row(
        "replay --game 3: torn tail",
        "replay --game 3",
        record_lines(torn_tail),
        read(status(0), aside="wizard.jsonl.damaged"),
    ),
    Row("replay --game 3: a link to /dev/zero", "replay --game 3", put_dev_zero, read(status(2), "not a file")),
    Row("replay --game 3: a folder", "replay --game 3", put_folder, read(status(2))),
    # ------------------------------------------------------------------ the statistics cache: rebuilt, never trusted
    *[
        Row(f"statistics cache: {name}", "statistics cache", maker, read(games_counted(GAMES_IN_HISTORY)))
        for name, maker in [
            ("empty", put_bytes(b"")),
            ("deep nesting", put_bytes(nested_json())),
            ("non-UTF-8 byte", put_bytes(b'{"format": "\xff"}')),
            ("5000-digit number", put_bytes(b'{"version": ' + b"3" * 5000 + b"}")),
            ("duplicate keys", put_bytes(b'{"files": {}, "files": []}')),
            *SPECIAL_FILES,
        ]
    ],
    Row(
        "statistics cache: larger than the histories",
        "statistics cache",
        put_bytes(b'{"x": "' + b"y" * (2 * 1024 * 1024) + b'"}'),
        read(games_counted(GAMES_IN_HISTORY)),
    ),
    # ------------------------------------------------------------------ a rules file: refused before a game is played
    Row(
        "rules: base-60 1:30",
        "simulate --rules",
        put_text("game: wizard\nrules:\n  rounds: 1:30\n"),
        refused("not '1:30'"),
    ),
    Row(
        "rules: a date",
        "simulate --rules",
        put_text("game: wizard\nrules:\n  rounds: 2024-01-01\n"),
        refused("not 2024-01-01"),
    ),
    Row(
        "rules: a null key",
        "simulate --rules",
        put_text("game: wizard\nrules:\n  ~: 5\n"),
        refused("null: unknown key"),
    ),
    Row(
        "rules: unknown key, did you mean",
        "simulate --rules",
        put_text("game: wizard\nrules:\n  ROUNDS: 2\n"),
        refused("did you mean rounds"),
    ),
    Row(
        "rules: duplicate keys",
        "simulate --rules",
        put_text("game: wizard\nrules:\n  rounds: 2\n  rounds: 3\n"),
        refused("rounds"),
    ),
    Row(
        "rules: 5000-digit number",
        "simulate --rules",
        put_text("game: wizard\nrules:\n  rounds: " + "1" * 5000 + "\n"),
        refused("5,000 digits"),
    ),
    Row("rules: alias bomb", "simulate --rules", put_text(alias_bomb()), refused("alias")),
    Row(
        "rules: deep nesting",
        "simulate --rules",
        put_text("game: wizard\nrules: " + "[" * 100 + "]" * 100 + "\n"),
        refused("nest"),
    ),
    Row("rules: non-UTF-8 byte", "simulate --rules", put_bytes(b"game: wizard\n# caf\xe9\n"), refused("UTF-8")),
    Row("rules: empty", "simulate --rules", put_bytes(b""), refused("the file is empty")),
    Row(
        "rules: huge",
        "simulate --rules",
        put_text("# " + "x" * 5000 + "\ngame: wizard\n"),
        refused("larger than"),
        caps={"yaml_files.MAX_YAML_BYTES": 4096},
    ),
    Row(
        "rules: fine",
        "simulate --rules",
        put_text("game: wizard\nrules:\n  rounds: 1\n"),
        read(lambda o: o.value == (0, True)),
    ),
    # (A pipe named on the command line is read as a pipe: ``--rules <(...)`` is one. Not in this table.)
    *[Row(f"rules: {name}", "simulate --rules", maker, refused()) for name, maker in SPECIAL_FILES[1:]],
]


# ---------------------------------------------------------------------- the driver
def free_waiting_readers(root: Path) -> None:
    """Open every pipe under ``root`` once, so a reader blocked opening one returns."""
    for folder, _dirs, files in os.walk(root):
        for name in files:
            path = Path(folder) / name
            if stat.S_ISFIFO(path.lstat().st_mode):
                os.close(os.open(path, os.O_RDWR | os.O_NONBLOCK))


def within_deadline(run: Callable[[], Outcome], root: Path) -> Outcome:
    result: list[Any] = []

    def work() -> None:
        try:
            result.append(run())
        except BaseException as exc:  # handed to the test's thread, which fails with it
            result.append(exc)

    worker = threading.Thread(target=work, daemon=True)
    worker.start()
    worker.join(READER_DEADLINE)
    if worker.is_alive():
        free_waiting_readers(root)
        worker.join(READER_DEADLINE)
        pytest.fail("the reader waited (on a pipe or a device) instead of refusing it")
    if isinstance(result[0], BaseException):
        raise result[0]
    return result[0]


@pytest.mark.parametrize("row", [pytest.param(row, id=row.id, marks=row.marks) for row in ROWS])
def test_a_hostile_file_is_refused_or_read_and_no_other_file_changes(
    row, normal_folder, history_records, tmp_path, capsys, caplog, monkeypatch
):
    root = tmp_path / "data"
    shutil.copytree(normal_folder, root, symlinks=True)
    kind, reader = READERS[row.reader]
    target = file_of(kind, root)
    target.unlink()
    content = row.content
    if content.__name__ == "with_records":  # made from the normal games
        content = content(history_records)
    elif content.__name__ == "with_snapshot":  # made from the normal save
        content = content(json.loads(normal_folder.joinpath("saves", "autosave.json").read_bytes()))
    content(target)
    for name, cap in row.caps.items():
        module, constant = name.split(".")
        monkeypatch.setattr(
            {"yaml_files": yaml_files, "savegame": savegame, "line_reader": line_reader}[module], constant, cap
        )
    monkeypatch.setattr(App, "run", lambda self: 0)  # the replay viewer: its window is not shown
    before = listing(root)

    outcome = within_deadline(lambda: reader(root, tmp_path, capsys, caplog), root)

    after = listing(root)
    hostile = {str(target.relative_to(root)), str(target.relative_to(root)) + ".loop"}
    # What the program writes itself: the statistics cache, built anew; the window's lock.
    rebuilt = {str(stats_cache_path(Path(".")))} if row.reader in ("statistics", "statistics cache") else set()
    if row.reader == "replay --game 3":
        rebuilt = {"saves/window.lock"}
    new = sorted(set(after) - set(before))
    outcome.set_aside = [name for name in new if name.startswith(str(target.relative_to(root)) + ".")]
    unchanged = {name: entry for name, entry in before.items() if name not in hostile | rebuilt}
    assert {name: after.get(name) for name in unchanged} == unchanged, "another file of the player changed"
    assert set(new) <= set(outcome.set_aside) | rebuilt, f"new files: {new}"
    row.expect(outcome)
    if getattr(row.expect, "aside", None) is None:
        assert outcome.set_aside == [], "nothing is set aside unless the row says so"
