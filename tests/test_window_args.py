"""The window's command line (issue 11, items 1 and 4).

``python main.py --rules FILE --preset NAME --game NAME`` opens the window
straight at the table with those rules: the seats are the start screen's
(from the last setup, else one human and computers), a bad rules file is one
line on stderr and exit status 2 before any window opens, and a saved game
in progress is not replaced without asking. ``--data-dir ""`` (top-level or
after a command) is refused instead of meaning the current folder.
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

from pathlib import Path
from typing import Any

import pytest

import game.ui.app as app_module
from game.program.cli import EXIT_OK, EXIT_USAGE, build_parser, main
from game.program.table_launch import TablePlan, plan_table
from game.rules.house_rules import BidWhistRules, WizardRules, make_rules
from game.session.match import Seat
from game.settings.house_rule_files import ConfigError, resolve_rules
from game.settings.last_setup import LastSetup, save_last_setup
from game.settings.paths import UserPaths
from game.ui.app import App
from game.ui.dialogs.leave_dialog import LeaveDialog
from game.ui.scenes.start_scene import StartScene
from game.ui.table.scene import TableScene
from game.ui.text import t
from scene_checks import autosaver, match_of, top

REPO_ROOT = Path(__file__).resolve().parent.parent


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def windows_opened(monkeypatch) -> list[dict[str, Any]]:
    """Record each window ``main`` would open instead of opening it."""
    opened: list[dict[str, Any]] = []

    def fake_run_app(**kwargs: Any) -> int:
        opened.append(kwargs)
        return EXIT_OK

    monkeypatch.setattr(app_module, "run_app", fake_run_app)
    return opened


def remember(tmp_path: Path, setup: LastSetup) -> UserPaths:
    user = UserPaths.from_data_dir(tmp_path)
    save_last_setup(setup, user)
    return user


WIZARD_SETUP = LastSetup(
    game="wizard",
    players=5,
    names=["Ann", "Bo", "Cy", "Di", "Ed", "Fi"],
    kinds=["human", "computer", "computer", "human", "computer", "computer"],
    levels=["medium", "easy", "hard", "medium", "hard", "medium"],
    preset="standard",
)


# ---------------------------------------------------------------- the command line


def test_the_window_takes_rules_preset_and_game(tmp_path, windows_opened) -> None:
    rules = write(tmp_path / "house.yaml", "target_score: 5\n")
    data = tmp_path / "data"
    assert main(["--data-dir", str(data), "--game", "bidwhist", "--rules", str(rules)]) == EXIT_OK
    [opened] = windows_opened
    assert opened["data_dir"] == str(data)
    assert opened["table"] == TablePlan(BidWhistRules(target_score=5), 4)


def test_a_preset_alone_uses_the_bundled_file_of_the_game(tmp_path, windows_opened) -> None:
    assert main(["--data-dir", str(tmp_path), "--game", "wizard", "--preset", "short"]) == EXIT_OK
    plan = windows_opened[0]["table"]
    assert plan.rules == resolve_rules("wizard", preset="short", players=plan.players)


def test_without_table_options_the_window_opens_at_the_start_screen(tmp_path, windows_opened) -> None:
    assert main(["--data-dir", str(tmp_path)]) == EXIT_OK
    assert windows_opened[0]["table"] is None


@pytest.mark.parametrize(
    ("text", "args", "fragment"),
    [
        ("targt_score: 5\n", ["--game", "bidwhist"], "targt_score: unknown key; did you mean target_score?"),
        ("target_score: 5\n", [], "game: missing; name the game in the file"),
        ("game: wizard\nrounds: 3\n", ["--game", "bidwhist"], "this file is for wizard"),
        ("game: wizard\n", ["--preset", "shrot"], "no preset named 'shrot'"),
        ("game: wizard\nrules: [\n", [], "YAML syntax error at line 3"),
    ],
)
def test_a_bad_rules_file_is_one_line_and_exit_2_before_any_window(
    tmp_path, capsys, windows_opened, text, args, fragment
) -> None:
    rules = write(tmp_path / "house.yaml", text)
    assert main(["--data-dir", str(tmp_path / "data"), "--rules", str(rules), *args]) == EXIT_USAGE
    out, err = capsys.readouterr()
    assert out == "" and windows_opened == []
    assert err.count("\n") == 1 and err.startswith(f"error: {rules}: ") and fragment in err


def test_a_missing_rules_file_is_reported(tmp_path, capsys, windows_opened) -> None:
    assert main(["--data-dir", str(tmp_path), "--rules", str(tmp_path / "none.yaml")]) == EXIT_USAGE
    assert "cannot read the file" in capsys.readouterr().err and windows_opened == []


def test_window_options_before_a_command_are_refused(tmp_path, capsys) -> None:
    rules = write(tmp_path / "house.yaml", "target_score: 5\n")
    code = main(["--rules", str(rules), "simulate", "--game", "bidwhist", "--games", "1"])
    assert code == EXIT_USAGE
    assert "are for the window" in capsys.readouterr().err


def test_the_subcommands_keep_their_own_game_option() -> None:
    args = build_parser().parse_args(["replay", "f.jsonl", "--game", "2"])
    assert (args.game, args.table_game) == (2, None)
    args = build_parser().parse_args(["simulate", "--game", "wizard", "--games", "1"])
    assert (args.game, args.table_game) == ("wizard", None)


# ---------------------------------------------------------------- which game, how many players


def test_the_game_comes_from_the_file_when_not_named(tmp_path) -> None:
    rules = write(tmp_path / "house.yaml", "game: wizard\nuneven_bids: always\n")
    plan = plan_table(UserPaths.from_data_dir(tmp_path), rules_file=rules)
    assert plan == TablePlan(WizardRules(uneven_bids="always"), 4)


def test_the_last_setup_gives_the_game_and_its_player_count(tmp_path) -> None:
    user = remember(tmp_path, WIZARD_SETUP)
    assert plan_table(user, preset="short").players == 5
    assert plan_table(user, game="bidwhist").players == 4


def test_rules_that_do_not_fit_the_last_player_count_are_refused(tmp_path) -> None:
    user = remember(tmp_path, WIZARD_SETUP)
    rules = write(tmp_path / "house.yaml", "rounds: 15\n")
    with pytest.raises(ConfigError, match="rounds: must be full or at most 12 with 5 players"):
        plan_table(user, game="wizard", rules_file=rules)


# ---------------------------------------------------------------- the window at the table


def open_at_table(tmp_path: Path, plan: TablePlan) -> App:
    return App(data_dir=str(tmp_path), size=(800, 600), table=plan)


def test_the_window_opens_at_the_table_with_the_last_setups_seats(tmp_path) -> None:
    user = remember(tmp_path, WIZARD_SETUP)
    plan = plan_table(user, rules_file=write(tmp_path / "house.yaml", "game: wizard\nrounds: 2\n"))
    app = open_at_table(tmp_path, plan)
    try:
        table = app.top_scene()
        assert isinstance(table, TableScene)
        match = match_of(table)
        assert match.rules == WizardRules(rounds=2)
        assert [(seat.name, seat.controller) for seat in match.seats] == [
            ("Ann", "human"),
            ("Bo", "ai:easy"),
            ("Cy", "ai:hard"),
            ("Di", "human"),
            ("Ed", "ai:hard"),
        ]
        app.request_start()
        assert isinstance(app.scenes[-1], LeaveDialog), "leaving the game asks first, as always"
    finally:
        app.close(quit_pygame=False)


def test_without_a_last_setup_one_human_plays_computers(tmp_path) -> None:
    plan = plan_table(
        UserPaths.from_data_dir(tmp_path),
        game="bidwhist",
        rules_file=write(tmp_path / "house.yaml", "target_score: 5\n"),
    )
    app = open_at_table(tmp_path, plan)
    try:
        match = match_of(top(app, TableScene))
        assert match.rules == BidWhistRules(target_score=5)
        controllers = [seat.controller for seat in match.seats]
        assert controllers[0] == "human" and all(c.startswith("ai:") for c in controllers[1:])
        assert match.seats[0].name == t("start.default_human")
    finally:
        app.close(quit_pygame=False)


def leave_a_saved_game(data_dir) -> None:
    """A Wizard game in progress, saved in ``data_dir`` as the window leaves it."""
    first = App(data_dir=str(data_dir), size=(800, 600), show_start=False)
    first.start_match(
        make_rules("wizard", players=3), [Seat("A", "human"), Seat("B", "ai:easy"), Seat("C", "ai:easy")], seed=7
    )
    assert autosaver(first).flush()
    first.close(quit_pygame=False)


def test_a_saved_game_is_not_replaced_without_asking(tmp_path) -> None:
    leave_a_saved_game(tmp_path)
    app = open_at_table(tmp_path, TablePlan(BidWhistRules(target_score=5), 4))
    try:
        ask = app.scenes[-1]
        assert isinstance(ask, LeaveDialog) and isinstance(app.scenes[0], StartScene)
        assert ask.stay_button.label == t("start.keep_saved")
        assert ask.title == t("start.replace_title") != t("leave.title")
        ask.stay_button.activate()
        assert top(app, StartScene).saved_game is not None, "kept: the start screen offers to continue it"
    finally:
        app.close(quit_pygame=False)


def test_the_saved_game_gives_way_when_the_player_says_so(tmp_path) -> None:
    leave_a_saved_game(tmp_path)
    app = open_at_table(tmp_path, TablePlan(BidWhistRules(target_score=5), 4))
    try:
        top(app, LeaveDialog).leave_button.activate()
        assert match_of(top(app, TableScene)).rules == BidWhistRules(target_score=5)
    finally:
        app.close(quit_pygame=False)


# ---------------------------------------------------------------- --data-dir ""


@pytest.mark.parametrize(
    "argv",
    [
        ["--data-dir", ""],
        ["--data-dir", "  "],
        ["simulate", "--game", "wizard", "--games", "1", "--data-dir", ""],
        ["replay", "f.jsonl", "--data-dir", ""],
        ["--self-test", "--data-dir", ""],
    ],
)
def test_an_empty_data_dir_is_refused(argv, capsys, windows_opened, monkeypatch, tmp_path) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == EXIT_USAGE
    err = capsys.readouterr().err
    assert "argument --data-dir: must name a folder; an empty name would put the settings" in err
    assert "Traceback" not in err
    assert windows_opened == [] and list(tmp_path.iterdir()) == [], "nothing is written in the current folder"


def test_user_paths_refuse_an_empty_data_dir() -> None:
    with pytest.raises(ValueError, match="must name a folder"):
        UserPaths.from_data_dir("")


def test_settings_from_the_program_folder_never_overwrite_the_bundled_file(monkeypatch, capsys, windows_opened) -> None:
    monkeypatch.chdir(REPO_ROOT)
    bundled = (REPO_ROOT / "config" / "settings.yaml").read_bytes()
    with pytest.raises(SystemExit):
        main(["--data-dir", ""])
    assert (REPO_ROOT / "config" / "settings.yaml").read_bytes() == bundled
    assert not (REPO_ROOT / "histories").exists() and not (REPO_ROOT / "logs").exists()
