"""``replay --check`` accounts for every line of every file and never crashes.

The faults of issue 11 are each fed to the real command (``game.program.cli.main``):
a malformed record is named as unreadable by its line number, the lines and
files after it are still checked, an empty file holds no games, and the exit
status is 0 (all agree), 1 (a disagreement) or 2 (unreadable input, which
wins over a disagreement). A hypothesis test then mutates records of real
games (keys dropped, types swapped, huge numbers, truncation, nesting) and
checks that every line is still accounted for and the checker never fails.
"""

from __future__ import annotations

import copy
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from game.persistence import line_reader, replay_check
from game.program.cli import main
from game.rules import make_rules
from game.session.match import Match, Seat

WIZARD = ("wizard", 3, {"rounds": 2})
BIDWHIST = ("bidwhist", 4, {"target_score": 3})


def play(setup: tuple[str, int, dict[str, Any]], seed: int) -> dict[str, Any]:
    game, players, overrides = setup
    match = Match(
        make_rules(game, overrides, players=players),
        [Seat(f"Computer {seat + 1}", "ai:easy") for seat in range(players)],
        seed,
    )
    match.play_out()
    return match.history()


@pytest.fixture(scope="module")
def wizard_games() -> list[dict[str, Any]]:
    return [play(WIZARD, seed) for seed in (1, 2)]


@pytest.fixture(scope="module")
def bidwhist_game() -> dict[str, Any]:
    return play(BIDWHIST, 3)


def line(record: Any) -> str:
    return json.dumps(record, separators=(",", ":")) + "\n"


def check(capsys, *paths: Path) -> tuple[int, str, str]:
    code = main(["replay", "--check", *map(str, paths)])
    out, err = capsys.readouterr()
    return code, out, err


# ---------------------------------------------------------------------- the faults of the issue
def _rules_list(record: dict) -> str:
    return line(record | {"rules": []})


def _rules_null(record: dict) -> str:
    return line(record | {"rules": None})


def _card_as_number(record: dict) -> str:
    broken = copy.deepcopy(record)
    broken["deals"][0]["hands"][0][0] = 51
    return line(broken)


def _turn_up_as_number(record: dict) -> str:
    broken = copy.deepcopy(record)
    broken["deals"][0]["turn_up"] = 7
    return line(broken)


def _bid_1e400(record: dict) -> str:
    text = line(record)
    first_bid = re.search(r'"bid":\d+', text)
    assert first_bid
    return text[: first_bid.start()] + '"bid":1e400' + text[first_bid.end() :]


def _deep_brackets(record: dict) -> str:
    return "[" * 200_000 + "\n"


def _huge_seed(record: dict) -> str:
    return line(record).replace(f'"seed":{record["seed"]}', '"seed":' + "7" * 4400, 1)


def _version_true(record: dict) -> str:
    return line(record | {"version": True})


def _version_float(record: dict) -> str:
    return line(record | {"version": 1.0})


def _version_two(record: dict) -> str:
    return line(record | {"version": 2})


def _not_json(record: dict) -> str:
    return line(record)[:-20] + "\n"


# Issue 25, item 7: faults the check used to pass.
def _controller_x(record: dict) -> str:
    broken = copy.deepcopy(record)
    broken["players"][1]["controller"] = "x"
    return line(broken)


def _seat_twice(record: dict) -> str:
    broken = copy.deepcopy(record)
    broken["players"][1]["seat"] = 0
    return line(broken)


def _duplicate_key(record: dict) -> str:
    # The same game with "complete" given twice: which one is meant cannot be told.
    return line(record).replace('"complete":', '"complete":false,"complete":', 1)


FAULTS = [
    _rules_list,
    _rules_null,
    _card_as_number,
    _turn_up_as_number,
    _bid_1e400,
    _deep_brackets,
    _huge_seed,
    _version_true,
    _version_float,
    _version_two,
    _not_json,
    _controller_x,
    _seat_twice,
    _duplicate_key,
]

# What the error line of each fault of item 7 says.
FAULT_WORDS = {
    _controller_x: "players[1].controller: 'x' is neither a person nor a computer level of wizard",
    _seat_twice: "players[1].seat: 0 where seat 1 belongs",
    _duplicate_key: "line 2: the key 'complete' is given twice in one object",
}


@pytest.mark.parametrize("fault", FAULTS, ids=lambda fault: fault.__name__.strip("_"))
def test_a_malformed_record_is_unreadable_by_line_and_the_run_goes_on(tmp_path, capsys, wizard_games, fault):
    first, later = tmp_path / "first.jsonl", tmp_path / "later.jsonl"
    first.write_text(line(wizard_games[0]) + fault(wizard_games[0]) + line(wizard_games[1]), encoding="utf-8")
    later.write_text(line(wizard_games[1]), encoding="utf-8")
    code, out, err = check(capsys, first, later)
    assert code == replay_check.EXIT_UNREADABLE
    assert "Traceback" not in out + err
    assert f"error: {first}: line 2:" in err
    assert f"{first}: 3 lines, 2 games agree with the engine, 1 unreadable (line 2)" in out
    assert f"{later}: 1 line, every game agrees with the engine (1 game)" in out
    assert max(len(text) for text in (out + err).splitlines()) < 400, "a bad value is quoted whole"
    if fault in FAULT_WORDS:
        assert FAULT_WORDS[fault] in err


def test_a_history_with_a_rule_this_program_does_not_know_is_refused(tmp_path, capsys, wizard_games):
    newer = copy.deepcopy(wizard_games[0])
    newer["rules"]["trump_roulette"] = True
    path = tmp_path / "newer.jsonl"
    path.write_text(line(newer), encoding="utf-8")
    code, _, err = check(capsys, path)
    assert code == replay_check.EXIT_UNREADABLE
    assert "line 1: unreadable: rules.trump_roulette: a house rule this program does not know" in err


@pytest.mark.parametrize("where", ["top", "deal"])
def test_a_history_with_a_field_this_program_does_not_know_is_refused(tmp_path, capsys, wizard_games, where):
    newer = copy.deepcopy(wizard_games[0])
    (newer if where == "top" else newer["deals"][0])["side_bets"] = []
    path = tmp_path / "newer.jsonl"
    path.write_text(line(newer), encoding="utf-8")
    code, _, err = check(capsys, path)
    assert code == replay_check.EXIT_UNREADABLE
    assert "side_bets: a field this program does not know" in err


def test_an_empty_file_holds_no_games(tmp_path, capsys):
    empty, blank = tmp_path / "empty.jsonl", tmp_path / "blank.jsonl"
    empty.write_bytes(b"")
    blank.write_bytes(b"\n  \n")
    code, out, _ = check(capsys, empty, blank)
    assert code == replay_check.EXIT_AGREE
    assert f"{empty}: holds no games (the file is empty)" in out
    assert f"{blank}: holds no games (2 blank lines only)" in out
    assert "agrees" not in out


def test_games_are_named_by_line_blank_lines_included(tmp_path, capsys, wizard_games):
    edited = copy.deepcopy(wizard_games[1])
    edited["final_scores"] = [999] * len(edited["final_scores"])
    path = tmp_path / "h.jsonl"
    path.write_text(line(wizard_games[0]) + "\n" + line(edited), encoding="utf-8")
    code, out, _ = check(capsys, path)
    assert code == replay_check.EXIT_DISAGREE
    assert f"{path}: line 3: the engine disagrees" in out
    assert f"{path}: 3 lines, 1 game agree with the engine, 1 disagree (line 3), 1 blank line" in out


def test_unreadable_input_wins_over_a_disagreement(tmp_path, capsys, wizard_games, bidwhist_game):
    edited = copy.deepcopy(bidwhist_game)
    edited["winners"] = [1 - edited["winners"][0]]
    disagreeing, broken = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    disagreeing.write_text(line(edited), encoding="utf-8")
    broken.write_text("{}\n", encoding="utf-8")
    code, out, err = check(capsys, disagreeing, broken, tmp_path / "missing.jsonl")
    assert code == replay_check.EXIT_UNREADABLE
    assert f"{disagreeing}: line 1: the engine disagrees" in out
    assert f"{broken}: line 1: not a Trick Table hand history" in err
    assert f"{tmp_path / 'missing.jsonl'}: not checked: cannot read" in out


def test_a_line_too_long_to_be_a_game_is_skipped_without_reading_it_whole(tmp_path, capsys, wizard_games, monkeypatch):
    game = line(wizard_games[0])
    monkeypatch.setattr(line_reader, "MAX_LINE_BYTES", len(game.encode()) + 10)
    monkeypatch.setattr(line_reader, "SKIP_PIECE", 100)
    path = tmp_path / "long.jsonl"
    path.write_text('"' + "x" * (3 * len(game)) + '"\n' + game, encoding="utf-8")
    code, out, err = check(capsys, path)
    assert code == replay_check.EXIT_UNREADABLE
    assert "line 1: longer than" in err
    assert f"{path}: 2 lines, 1 game agree with the engine, 1 unreadable (line 1)" in out


# ---------------------------------------------------------------------- mutated records
# Values a mutation puts in place of a field: wrong types, huge and odd numbers, nesting.
ODD_SAMPLES: list[object] = [
    None,
    True,
    False,
    0,
    -1,
    1.0,
    0.5,
    float("inf"),
    float("nan"),
    "",
    "AS",
    "WZ",
    "x" * 300,
    [],
    {},
    [[[]]],
    {"a": {"b": []}},
    10**40,
    -(10**40),
    2**63,
    "pass",
    {"books": 4},
]
ODD_VALUES = st.one_of(
    st.sampled_from(ODD_SAMPLES),
    st.integers(),
    st.text(max_size=8),
    st.recursive(st.none() | st.integers(-3, 60), lambda inner: st.lists(inner, max_size=3), max_leaves=20),
)


def _paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    """Every place inside a record: key and index paths from the top."""
    found = [prefix]
    if isinstance(value, dict):
        for key, inner in value.items():
            found.extend(_paths(inner, prefix + (key,)))
    elif isinstance(value, list):
        for index, inner in enumerate(value[:6]):
            found.extend(_paths(inner, prefix + (index,)))
    return found


def _parent(record: Any, path: tuple) -> Any:
    for step in path[:-1]:
        record = record[step]
    return record


@st.composite
def mutated_line(draw, records: list[dict[str, Any]]) -> str:
    record = copy.deepcopy(draw(st.sampled_from(records)))
    operations = draw(st.integers(1, 3))
    for _ in range(operations):
        places = [path for path in _paths(record) if path]
        path = draw(st.sampled_from(places))
        parent, key = _parent(record, path), path[-1]
        action = draw(st.sampled_from(["drop", "replace", "wrap", "add_key"]))
        if action == "drop":
            del parent[key]
        elif action == "replace":
            parent[key] = draw(ODD_VALUES)
        elif action == "wrap":
            parent[key] = [parent[key]] if draw(st.booleans()) else {"value": parent[key]}
        elif isinstance(parent, dict):
            parent[draw(st.text(min_size=1, max_size=6))] = draw(ODD_VALUES)
    text = json.dumps(record, separators=(",", ":"))  # inf and nan as JSON's readers take them
    ending = draw(st.sampled_from(["whole", "cut", "nested", "big_number"]))
    if ending == "cut":
        text = text[: draw(st.integers(0, len(text)))]
    elif ending == "nested":
        depth = draw(st.integers(1, 5000))
        text = "[" * depth + text + "]" * draw(st.integers(0, depth))
    elif ending == "big_number":
        number = re.search(r"\d+", text)
        if number:
            digits = "9" * draw(st.sampled_from([20, 400, 4299, 4301, 6000]))
            text = text[: number.start()] + digits + text[number.end() :]
    return text.replace("\n", " ") + "\n"


@pytest.fixture(scope="module")
def real_records(wizard_games, bidwhist_game) -> list[dict[str, Any]]:
    return [*wizard_games, bidwhist_game]


@settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_mutated_records_are_all_accounted_for_and_never_crash_the_check(real_records, tmp_path, data):
    lines = data.draw(
        st.lists(
            st.one_of(
                mutated_line(real_records),
                st.sampled_from(["", "\n", "  \n"]),
                st.sampled_from([line(r) for r in real_records]),
            ),
            min_size=1,
            max_size=5,
        )
    )
    path = tmp_path / "mutated.jsonl"
    path.write_text("".join(lines), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    code = replay_check.run_check([str(path)], out, err)
    assert code in (0, 1, 2)
    assert "checker itself failed" not in err.getvalue(), err.getvalue()
    report = replay_check.check_file_lines(str(path), io.StringIO(), io.StringIO())
    with open(path, "rb") as handle:
        physical = len(handle.readlines())
    assert report.lines == physical
    assert report.agree + len(report.disagree) + len(report.unreadable) + report.blank == physical
    for number in report.disagree:
        assert f"line {number}: the engine disagrees" in out.getvalue()
    for number in report.unreadable:
        assert f": line {number}: " in err.getvalue()
    summary = out.getvalue().strip().splitlines()[-1]
    assert summary.startswith(f"{path}: ")
    if report.games or report.unreadable:
        assert summary.startswith(f"{path}: {physical} line{'' if physical == 1 else 's'}, ")
    else:
        assert "holds no games" in summary


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs a device that never ends")
def test_a_device_that_never_ends_is_refused_not_read(capsys):
    code, out, _ = check(capsys, Path("/dev/zero"))
    assert code == replay_check.EXIT_UNREADABLE
    assert "/dev/zero: not checked: cannot read: not a file" in out


def test_a_fault_of_the_checker_is_one_line_and_the_run_goes_on(tmp_path, capfd, wizard_games, monkeypatch):
    from game.program.log_setup import app_logger, log_for_command

    def failing_check(record):
        raise RuntimeError("the checker tripped")

    path = tmp_path / "h.jsonl"
    path.write_text(line(wizard_games[0]) * 2, encoding="utf-8")
    logger = app_logger()
    handlers = list(logger.handlers)
    monkeypatch.setattr(replay_check, "check_game", failing_check)
    try:
        log_for_command(tmp_path / "logs", headless=True)
        code = main(["replay", "--check", str(path)])
    finally:
        for handler in list(logger.handlers):
            if handler not in handlers:
                logger.removeHandler(handler)
                handler.close()
    out, err = capfd.readouterr()
    log_file = tmp_path / "logs" / "tricktable.log"
    assert code == replay_check.EXIT_UNREADABLE
    assert "Traceback" not in err
    assert "line 2: the checker itself failed on this game (RuntimeError)" in err
    assert f"(details in {log_file})" in err
    assert f"{path}: 2 lines, 0 games agree with the engine, 2 unreadable (lines 1, 2)" in out
    assert "the checker tripped" in log_file.read_text(encoding="utf-8")
