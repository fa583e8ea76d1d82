"""Autosave and resume (issue 10, item 1).

The game in progress is written after every action (atomically, off the
frame loop), the start screen offers to continue it and says what it is,
and the continued game is the same game: same cards, scores and dealer, and
computer players that go on exactly as in an uninterrupted game. A save of
an older format is migrated, one of a newer format refused, a damaged one
set aside under a new name (never deleted), and in every case a new game
can be started. Leaving a game keeps its save; a finished game removes it.
"""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame
import pytest

from game.session.match import Match, Seat
from game.settings.paths import UserPaths
from game.rules import Phase, make_rules
from game.rules.tricks import PUBLIC_SEAT
from game.persistence.savegame import (
    SAVE_FILE_NAME,
    Autosaver,
    SavedGame,
    SaveProblem,
    load_saved_game,
    save_path,
    snapshot_of,
)
from game.ui.app import App
from game.ui.dialogs.bidding_panel import BiddingPanel
from game.ui.dialogs.contract_chooser import ContractChooser
from game.ui.dialogs.leave_dialog import LeaveDialog
from game.ui.dialogs.score_pad import ScorePad
from game.ui.scenes.start_scene import StartScene, saved_game_summary
from game.session.ai_worker import InlineAiRunner
from game.session.local import local_session
from game.ui.table.scene import TableScene
from game.ui.text import t
from test_ui_flow import open_menu_button, press
from test_ui_text_fit import LONGEST_NAMES, audit  # noqa: F401  (the fixture)
from ui_states import PreviewApp, as_app
from scene_checks import autosaver, match_of, top
from test_ui_table import _to_human_play, click, make_app, run_until, start, step, top_name

SEATS = [Seat("You", "human"), Seat("Ada", "ai:medium"), Seat("Bruno", "ai:medium"), Seat("Cleo", "ai:medium")]


def advance(match: Match, steps: int) -> None:
    """``steps`` actions, the human's chosen by the medium player too (a fixed, reproducible game)."""
    for _ in range(steps):
        if match.is_over:
            return
        if match.phase == Phase.HAND_OVER:
            match.next_deal()
        elif match.seats[match.current_player].is_human:
            match.apply(match.legal_actions()[len(match.actions) % len(match.legal_actions())])
        else:
            match.apply(match.choose_ai_action())


def play_to_end(match: Match) -> None:
    while not match.is_over:
        advance(match, 1)


def write_file(paths: UserPaths, data) -> None:
    path = save_path(paths)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data if isinstance(data, bytes) else json.dumps(data).encode("utf-8"))


def saved_match(paths: UserPaths, game: str = "wizard", steps: int = 40) -> Match:
    match = Match(make_rules(game, players=4), SEATS, 21)
    advance(match, steps)
    write_file(paths, snapshot_of(match))
    return match


def table(app: App) -> TableScene:
    scene = app.scenes[0]
    assert isinstance(scene, TableScene)
    return scene


def the_start_screen(app: App) -> StartScene:
    scene = app.scenes[-1]
    assert isinstance(scene, StartScene), type(scene).__name__
    return scene


# ---------------------------------------------------------------------------- the file


def test_every_action_is_saved_and_the_save_loads_back_as_the_same_game(tmp_path):
    app = make_app(tmp_path)
    scene = start(app, "wizard", ["human", "ai:random", "ai:random"], seed=4, rounds=3)
    seen = set()
    path = save_path(app.user_paths)

    def check_save() -> bool:
        match = match_of(scene)
        if match.is_over:
            return True
        if len(match.actions) not in seen:
            seen.add(len(match.actions))
            assert autosaver(app).flush()
            saved, problem = load_saved_game(app.user_paths)
            assert problem is None and saved is not None
            assert saved.match.to_save() == match.to_save(), f"the save lags at action {len(match.actions)}"
            assert not list(path.parent.glob("*.tmp")), "a temporary file was left behind"
        return False

    def drive() -> bool:
        if check_save():
            return True
        top = app.scenes[-1]
        if isinstance(top, (BiddingPanel, ContractChooser)):
            top.finish(top.on_action, match_of(scene).legal_actions()[0])
        elif isinstance(top, ScorePad):
            click(app, top.close_button.rect.center)
        elif scene.input_enabled():
            scene.play_card(min(a.value for a in match_of(scene).legal_actions()), None)
        return False

    assert run_until(app, drive, frames=8000)
    assert len(seen) > 20, "the game was saved along the way"


def test_the_save_has_a_version_and_the_moment_it_was_made(tmp_path):
    paths = UserPaths.from_data_dir(tmp_path)
    match = saved_match(paths)
    data = json.loads(save_path(paths).read_text("utf-8"))
    assert save_path(paths) == paths.saves_dir / SAVE_FILE_NAME
    assert data["format"] == "trick-table-save" and data["version"] == 2
    assert data["undo_used"] is False and len(data["actions"]) == len(match.actions)
    assert datetime.fromisoformat(data["saved_at"]).tzinfo is not None


def test_the_autosaver_writes_the_latest_position_and_reports_a_failed_write(tmp_path):
    paths = UserPaths.from_data_dir(tmp_path)
    match = Match(make_rules("wizard", players=4), SEATS, 8)
    saver = Autosaver(save_path(paths))
    for _ in range(30):
        advance(match, 1)
        saver.save(match)
    assert saver.flush()
    assert json.loads(save_path(paths).read_text("utf-8"))["actions"] == match.to_save()["actions"]
    # A folder where the file should be: the write fails, the table is told once, the old file stays.
    blocked = Autosaver(tmp_path / "blocked")
    (tmp_path / "blocked").mkdir()
    blocked.save(match)
    assert blocked.flush()
    assert not blocked.saved
    error = blocked.take_error()
    assert isinstance(error, OSError) and blocked.take_error() is None


# ---------------------------------------------------------------------------- resuming


def test_a_resumed_game_goes_on_exactly_as_the_uninterrupted_one(tmp_path):
    for game, steps in (("wizard", 57), ("bidwhist", 30)):
        paths = UserPaths.from_data_dir(tmp_path / game)
        original = saved_match(paths, game, steps)
        saved, problem = load_saved_game(paths)
        assert problem is None and saved is not None
        resumed = saved.match
        # The same position: every seat's cards, the scores, the dealer, whose turn.
        for seat in [PUBLIC_SEAT, *range(4)]:
            assert resumed.view(seat) == original.view(seat)
        assert resumed.history() == original.history()
        # The computer players continue exactly as they would have.
        play_to_end(original)
        play_to_end(resumed)
        assert resumed.history() == original.history()
        assert resumed.to_save() == original.to_save()


def test_continue_on_the_start_screen_says_what_the_game_is_and_resumes_it_directly(tmp_path):
    paths = UserPaths.from_data_dir(tmp_path)
    original = saved_match(paths, "wizard", 23)
    app = make_app(tmp_path, speed="normal")
    screen = the_start_screen(app)
    assert screen.continue_button.visible and screen.focus.focused is screen.continue_button
    assert screen.saved_game is not None
    headline, standings = saved_game_summary(screen.saved_game)
    assert headline.startswith(f"Wizard, Round {original.deal_number}") and "saved today at" in headline
    scores = original.history()["final_scores"]
    assert standings == [f"{name}: {score}" for name, score in zip(["You", "Ada", "Bruno", "Cleo"], scores)]
    step(app)
    click(app, screen.continue_button.rect.center)
    scene = table(app)
    assert match_of(scene).to_save()["actions"] == original.to_save()["actions"]
    # Shown where it stands at once: nothing is replayed as animation.
    assert scene.director.idle
    view = match_of(scene).view(0)
    assert sorted(scene.model.hands[0]) == sorted(view.hand)
    assert scene.model.scores == [float(s) for s in view.scores] and scene.model.dealer == view.dealer
    assert scene.model.trick == list(view.trick)


def test_enter_on_the_start_screen_continues_the_saved_game(tmp_path):
    paths = UserPaths.from_data_dir(tmp_path)
    original = saved_match(paths, "bidwhist", 9)
    app = make_app(tmp_path)
    step(app)
    press(app, pygame.K_RETURN)
    assert match_of(table(app)).to_save()["actions"] == original.to_save()["actions"]


def test_start_asks_before_a_new_game_replaces_the_saved_one(tmp_path):
    paths = UserPaths.from_data_dir(tmp_path)
    original = saved_match(paths, "wizard", 15)
    app = make_app(tmp_path)
    screen = the_start_screen(app)
    step(app)
    click(app, screen.start_button.rect.center)
    dialog = top(app, LeaveDialog)
    assert dialog.stay_button.label == t("start.keep_saved")
    # Nothing is being left: the question is whether to replace the saved game.
    assert dialog.title == t("start.replace_title") == "Replace your saved game?"
    press(app, pygame.K_RETURN)  # the focused answer keeps the saved game
    assert app.scenes[-1] is screen
    assert json.loads(save_path(paths).read_text("utf-8"))["actions"] == original.to_save()["actions"]
    click(app, screen.start_button.rect.center)
    click(app, top(app, LeaveDialog).leave_button.rect.center)
    assert screen.saved_game is not None and match_of(table(app)) is not screen.saved_game.match
    assert autosaver(app).flush()
    assert json.loads(save_path(paths).read_text("utf-8"))["seed"] == match_of(table(app)).seed


def test_no_save_no_continue(tmp_path):
    app = make_app(tmp_path)
    screen = the_start_screen(app)
    assert screen.saved_game is None and not screen.continue_button.visible
    assert screen.continue_button not in screen.focus.widgets


# ---------------------------------------------------------------------------- versions and damage


def test_a_version_1_save_is_migrated(tmp_path):
    paths = UserPaths.from_data_dir(tmp_path)
    match = Match(make_rules("wizard", players=4), SEATS, 5)
    advance(match, 20)
    old = {key: value for key, value in match.to_save().items() if key != "undo_used"}
    old["version"] = 1
    write_file(paths, old)
    stamp = datetime(2026, 3, 4, 5, 6, 7, tzinfo=UTC).timestamp()
    os.utime(save_path(paths), (stamp, stamp))
    saved, problem = load_saved_game(paths)
    assert problem is None and saved is not None and saved.migrated_from == 1
    assert saved.match.view(0) == match.view(0) and saved.match.undo_used is False
    assert saved.saved_at == datetime(2026, 3, 4, 5, 6, 7, tzinfo=UTC)


def test_a_save_from_a_newer_version_is_refused_kept_and_a_new_game_starts(tmp_path):
    paths = UserPaths.from_data_dir(tmp_path)
    match = Match(make_rules("wizard", players=4), SEATS, 5)
    advance(match, 10)
    newer = {**snapshot_of(match), "version": 3, "actions": ["something new"]}
    write_file(paths, newer)
    raw = save_path(paths).read_bytes()
    app = make_app(tmp_path)
    screen = the_start_screen(app)
    assert screen.saved_game is None and not screen.continue_button.visible
    kept = list(paths.saves_dir.glob(f"{SAVE_FILE_NAME}.unsupported-*"))
    assert len(kept) == 1 and kept[0].read_bytes() == raw, "the newer save is kept as it was"
    assert not save_path(paths).exists()
    assert app.toast.active and "newer" in app.toast.text and kept[0].name in app.toast.text
    click(app, screen.start_button.rect.center)
    assert isinstance(app.scenes[0], TableScene)
    assert autosaver(app).flush() and save_path(paths).exists()
    assert kept[0].read_bytes() == raw


@pytest.mark.parametrize(
    "content",
    [
        b'{"format": "trick-table-save", "version": 2, "game": "wiz',  # cut short
        b"\x00\x01 not text at all \xff",  # garbage
        b"[1, 2, 3]",  # JSON, not a save
        b'{"format": "something-else", "version": 2}',  # another program's file
        b'{"format": "trick-table-save", "version": "2"}',  # hand-edited version
    ],
)
def test_a_damaged_save_is_set_aside_with_a_message_and_a_new_game_starts(tmp_path, content):
    paths = UserPaths.from_data_dir(tmp_path)
    write_file(paths, content)
    app = make_app(tmp_path)
    screen = the_start_screen(app)
    assert screen.saved_game is None and not screen.continue_button.visible
    kept = list(paths.saves_dir.glob(f"{SAVE_FILE_NAME}.corrupt-*"))
    assert len(kept) == 1 and kept[0].read_bytes() == content, "set aside, not deleted"
    assert app.toast.active and kept[0].name in app.toast.text
    click(app, screen.start_button.rect.center)
    assert isinstance(app.scenes[0], TableScene)
    assert autosaver(app).flush() and save_path(paths).exists()


def test_a_hand_edited_save_with_an_illegal_move_is_never_misread(tmp_path):
    paths = UserPaths.from_data_dir(tmp_path)
    match = Match(make_rules("bidwhist", players=4), SEATS, 5)
    advance(match, 12)
    data = snapshot_of(match)
    data["actions"] = data["actions"][:4] + data["actions"][:1] + data["actions"][5:]  # a bid twice
    write_file(paths, data)
    saved, problem = load_saved_game(paths, now=datetime(2026, 12, 1, 4, 0, 0, tzinfo=UTC))
    assert saved is None and problem is not None and problem.kind == "corrupt"
    assert problem.kept_as == paths.saves_dir / f"{SAVE_FILE_NAME}.corrupt-20261201-040000"
    # A second damaged save in the same second gets a name of its own.
    write_file(paths, b"{")
    _, again = load_saved_game(paths, now=datetime(2026, 12, 1, 4, 0, 0, tzinfo=UTC))
    assert again is not None and again.kept_as is not None and again.kept_as != problem.kept_as
    assert problem.kept_as.exists() and again.kept_as.exists()


# ---------------------------------------------------------------------------- leaving and ending


def test_leaving_asks_keeps_the_save_and_continue_picks_it_up(tmp_path):
    app = make_app(tmp_path)
    scene = start(app, "bidwhist", ["human", "ai:random", "ai:random", "ai:random"], seed=5)
    _to_human_play(app, scene)
    assert len(match_of(scene).actions) > 3
    open_menu_button(app, t("menu.back_to_start"))
    dialog = top(app, LeaveDialog)
    assert dialog.warning == t("leave.game_saved")
    actions = match_of(scene).to_save()["actions"]
    click(app, dialog.leave_button.rect.center)
    screen = the_start_screen(app)
    assert save_path(app.user_paths).exists()
    assert screen.saved_game is not None and screen.saved_game.match.to_save()["actions"] == actions
    click(app, screen.continue_button.rect.center)
    assert match_of(table(app)).to_save()["actions"] == actions


def test_quitting_keeps_the_save_for_the_next_run(tmp_path):
    app = make_app(tmp_path)
    scene = start(app, "bidwhist", ["human", "ai:random", "ai:random", "ai:random"], seed=6)
    _to_human_play(app, scene)
    assert len(match_of(scene).actions) > 3
    actions = match_of(scene).to_save()["actions"]
    open_menu_button(app, t("menu.quit"))
    click(app, top(app, LeaveDialog).leave_button.rect.center)
    assert not app.running
    app.close(quit_pygame=False)
    again = the_start_screen(make_app(tmp_path))
    assert again.saved_game is not None and again.saved_game.match.to_save()["actions"] == actions


def test_a_finished_game_removes_its_save(tmp_path):
    app = App(data_dir=str(tmp_path), size=(1280, 720), show_start=False)
    app.settings.animation_speed, app.settings.ai_pause_seconds = "instant", 0.0
    match = Match(
        make_rules("wizard", {"rounds": 1}, players=3),
        [Seat("A", "ai:random"), Seat("B", "ai:random"), Seat("C", "ai:random")],
        3,
    )
    scene = TableScene(app, local_session(match, app, ai_runner=InlineAiRunner()))
    app.replace(scene)
    assert autosaver(app).flush() and save_path(app.user_paths).exists()
    assert run_until(app, lambda: top_name(app) == "EndScene")
    assert autosaver(app).flush()
    assert not save_path(app.user_paths).exists()
    assert (app.user_paths.histories_dir / "wizard.jsonl").exists()


def test_a_finished_game_whose_history_could_not_be_written_keeps_its_save_until_it_is(tmp_path):
    paths = UserPaths.from_data_dir(tmp_path)
    paths.histories_dir.parent.mkdir(parents=True, exist_ok=True)
    paths.histories_dir.write_text("a file where the folder should be")
    app = App(data_dir=str(tmp_path), size=(1280, 720), show_start=False)
    app.settings.animation_speed, app.settings.ai_pause_seconds = "instant", 0.0
    match = Match(
        make_rules("wizard", {"rounds": 1}, players=3),
        [Seat("A", "ai:random"), Seat("B", "ai:random"), Seat("C", "ai:random")],
        3,
    )
    app.replace(TableScene(app, local_session(match, app, ai_runner=InlineAiRunner())))
    assert run_until(app, lambda: top_name(app) == "EndScene")
    assert autosaver(app).flush() and save_path(paths).exists(), "the unrecorded game is kept"
    app.close(quit_pygame=False)
    paths.histories_dir.unlink()
    again = make_app(tmp_path)
    screen = the_start_screen(again)
    assert screen.saved_game is not None and screen.saved_game.match.is_over
    click(again, screen.continue_button.rect.center)
    assert run_until(again, lambda: top_name(again) == "EndScene")
    assert (paths.histories_dir / "wizard.jsonl").exists()
    assert autosaver(again).flush() and not save_path(paths).exists()


class SavedGamePreview(PreviewApp):
    """The stand-in app, with the saved game of ``paths`` for the start screen."""

    def __init__(self, size: tuple[int, int], paths: UserPaths) -> None:
        super().__init__(size)
        self.paths = paths

    def load_saved_game(self) -> tuple[SavedGame | None, SaveProblem | None]:
        return load_saved_game(self.paths)  # what App.load_saved_game does


def test_the_saved_games_bar_fits_six_of_the_longest_names_at_every_size(tmp_path, audit):
    paths = UserPaths.from_data_dir(tmp_path)
    match = Match(make_rules("wizard", players=6), [Seat(name, "ai:random") for name in LONGEST_NAMES], 2)
    advance(match, 200)
    write_file(paths, snapshot_of(match))
    team = Match(make_rules("bidwhist", players=4), [Seat(name, "ai:random") for name in LONGEST_NAMES[:4]], 2)
    advance(team, 60)
    for size in [(800, 600), (1280, 720), (1920, 1080)]:
        for game in (match, team):
            write_file(paths, snapshot_of(game))
            screen = StartScene(as_app(SavedGamePreview(size, paths)))
            assert screen.saved_game is not None
            headline, standings = saved_game_summary(screen.saved_game)
            audit.problems.clear()
            screen.relayout(size)
            screen.draw(pygame.Surface(size))
            cut = [
                problem
                for problem in audit.problems
                if problem[0] == headline or any(standing in problem[0] for standing in standings)
            ]
            assert not cut, f"{size}, {game.game}: {cut}"
            drawn = "\n".join(audit.drawn)
            assert headline in audit.drawn and all(standing in drawn for standing in standings)
