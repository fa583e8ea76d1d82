"""The replay viewer: positions built by the engine, keys, buttons and the command line.

Every position the viewer can show is compared with the engine's own state
after the same actions (the match's action log applied to a fresh game), so
stepping forward and back lands on exactly the state the game was in. The
keys and buttons are driven with synthesized events through ``App.step``;
``python main.py replay FILE --game N`` is run through ``game.program.cli.main``
with the window loop stubbed out, and bad files must give one clear line
and no window.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pygame
import pytest

from game.persistence.history_files import write_history
from game.persistence.replay_timeline import STEP_TRICK, ReplayError, ReplayTimeline, load_recorded_game
from game.program import cli
from game.rules import Phase, apply, new_game
from game.session.match import Match, Seat
from game.settings.app_settings import Settings
from game.settings.house_rule_files import resolve_rules
from game.ui.app import App
from game.ui.scene import Scene
from game.ui.scenes.replay_scene import ReplayScene
from game.ui.scenes.start_scene import StartScene
from game.ui.scenes.stats_scene import StatsScene

FRAME = 1 / 60


def play(game: str, players: int, seed: int, **rules) -> Match:
    seats = [Seat(f"P{seat + 1}", "ai:random") for seat in range(players)]
    match = Match(resolve_rules(game, None, None, [f"{k}={v}" for k, v in rules.items()], players=players), seats, seed)
    match.play_out()
    return match


@pytest.fixture(scope="module")
def wizard_match() -> Match:
    return play("wizard", 3, 4, rounds=4)


@pytest.fixture(scope="module")
def bidwhist_match() -> Match:
    return play("bidwhist", 4, 3, target_score=11)  # two deals


def engine_states(match: Match) -> list:
    """The engine's state before the first action and after each one of the match's log."""
    state, _ = new_game(match.rules, len(match.seats), match.seed)
    states = [state]
    for _, action in match.actions:
        state, _ = apply(state, action)
        states.append(state)
    return states


def same_position(a, b, players: int) -> bool:
    return all(a.view(seat) == b.view(seat) for seat in range(-1, players))


# ---------------------------------------------------------------------- the timeline against the engine
@pytest.mark.parametrize("which", ["wizard_match", "bidwhist_match"])
def test_every_position_is_the_engines_state_after_the_same_actions(request, which):
    match = request.getfixturevalue(which)
    timeline = ReplayTimeline(match.history())
    states = engine_states(match)
    assert len(timeline) == len(states)
    players = len(match.seats)
    for index, step in enumerate(timeline.steps):
        assert same_position(step.state, states[index], players), f"position {index}"
    assert timeline[timeline.last].state.is_terminal


def test_trick_and_deal_marks_fall_on_trick_ends_and_new_deals(wizard_match):
    timeline = ReplayTimeline(wizard_match.history())
    first_play = next(i for i, step in enumerate(timeline.steps) if step.state.phase == Phase.PLAY)
    assert timeline.next_mark(0) == first_play  # the bids are done
    first_trick = timeline.next_mark(first_play)
    assert timeline[first_trick].kind == STEP_TRICK and len(timeline[first_trick].state.view(-1).tricks) == 1
    second_deal = timeline.next_mark(0, deal=True)
    assert timeline[second_deal].state.view(-1).deal_number == 2
    assert timeline.previous_mark(second_deal, deal=True) == 0
    assert timeline.deal_start(1) == second_deal


def test_a_record_the_engine_refuses_raises_a_replay_error(wizard_match):
    record = copy.deepcopy(wizard_match.history())  # the match's own record stays whole
    record["deals"][0]["tricks"][0]["plays"][0]["card"] = "2C" if record["deals"][0]["hands"][0][0] != "2C" else "3C"
    with pytest.raises(ReplayError, match="deal 1"):
        ReplayTimeline(record)
    with pytest.raises(ReplayError, match="cannot be set up"):
        ReplayTimeline({**record, "game": "chess"})


# ---------------------------------------------------------------------- the viewer: keys and buttons
def make_app(tmp_path, size=(800, 600)) -> App:
    return App(data_dir=str(tmp_path), size=size, settings=Settings(animation_speed="instant"))


def step(app: App, events=()) -> None:
    app.step(FRAME, list(events))


def key(code: int) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=code, mod=0, unicode="", scancode=0)


def click(app: App, pos) -> None:
    for kind in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        data = (
            {"pos": pos, "rel": (0, 0), "buttons": (1, 0, 0)}
            if kind == pygame.MOUSEMOTION
            else {"pos": pos, "button": 1}
        )
        step(app, [pygame.event.Event(kind, data)])


def open_viewer(tmp_path, match: Match) -> tuple[App, ReplayScene, list]:
    app = make_app(tmp_path)
    scene = ReplayScene(app, ReplayTimeline(match.history()))
    app.push(scene)
    step(app)
    return app, scene, engine_states(match)


def test_keys_step_to_exact_positions(tmp_path, wizard_match):
    app, scene, states = open_viewer(tmp_path, wizard_match)
    players = len(wizard_match.seats)
    timeline = scene.timeline
    presses = [
        (pygame.K_RIGHT, 1),
        (pygame.K_RIGHT, 2),
        (pygame.K_LEFT, 1),
        (pygame.K_END, timeline.last),
        (pygame.K_HOME, 0),
        (pygame.K_PAGEDOWN, timeline.next_mark(0)),
        (pygame.K_PAGEDOWN, timeline.next_mark(timeline.next_mark(0))),
        (pygame.K_PAGEUP, timeline.next_mark(0)),
        (pygame.K_DOWN, timeline.deal_start(1)),
        (pygame.K_DOWN, timeline.deal_start(2)),
        (pygame.K_UP, timeline.deal_start(1)),
        (pygame.K_LEFT, timeline.deal_start(1) - 1),
    ]
    for code, expected in presses:
        step(app, [key(code)])
        assert scene.position == expected, pygame.key.name(code)
        assert same_position(scene.step.state, states[expected], players)
    step(app, [key(pygame.K_HOME)])
    step(app, [key(pygame.K_LEFT)])
    assert scene.position == 0  # nothing before the start
    assert scene.wake_in() is None  # still, it sleeps


@pytest.mark.parametrize("size", [(800, 600), (1280, 720)])
def test_game_over_is_written_beside_the_last_trick_not_over_it(tmp_path, wizard_match, bidwhist_match, size):
    for match in (wizard_match, bidwhist_match):
        app = make_app(tmp_path, size)
        scene = ReplayScene(app, ReplayTimeline(match.history()))
        app.push(scene)
        step(app, [key(pygame.K_END)])
        assert scene.step.state.is_terminal
        placed, _ = scene.trick_on_table(scene.step, scene.step.state.view(-1))
        trick = [rect for _, _, rect in placed]
        assert len(trick) == len(match.seats)
        small = max(12, round(scene._text_sizes(scene.scale)[0] * 0.8))
        banner = scene.game_over_rect(trick, small)
        assert banner.collidelist(trick) < 0, (banner, trick)
        assert scene.table_rect.contains(banner)
        plates = [pygame.Rect(b.left, b.top, b.width, scene.plate_h) for b in scene.seat_blocks.values()]
        assert banner.collidelist(plates) < 0


def test_buttons_step_with_the_mouse(tmp_path, bidwhist_match):
    app, scene, states = open_viewer(tmp_path, bidwhist_match)
    start, deal_back, trick_back, back, forward, trick_forward, deal_forward, end = scene.buttons
    assert not back.enabled and forward.enabled
    click(app, back.rect.center)
    assert scene.position == 0
    click(app, forward.rect.center)
    click(app, forward.rect.center)
    assert scene.position == 2
    click(app, trick_forward.rect.center)
    first_mark = scene.timeline.next_mark(2)
    assert scene.position == first_mark and same_position(scene.step.state, states[first_mark], 4)
    click(app, deal_forward.rect.center)
    second_deal = scene.timeline.deal_start(1)
    assert scene.position == second_deal and same_position(scene.step.state, states[second_deal], 4)
    click(app, forward.rect.center)
    click(app, deal_back.rect.center)
    assert scene.position == second_deal
    click(app, end.rect.center)
    assert scene.position == scene.timeline.last and not forward.enabled
    click(app, trick_back.rect.center)
    assert scene.position == scene.timeline.previous_mark(scene.timeline.last)
    click(app, start.rect.center)
    assert scene.position == 0


def test_every_hand_is_shown_and_the_pad_follows_the_deals(tmp_path, wizard_match):
    app, scene, _ = open_viewer(tmp_path, wizard_match)
    table = scene.table_rect
    for block in scene.seat_blocks.values():
        assert table.contains(block)
    blocks = list(scene.seat_blocks.values())
    assert not any(a.colliderect(b) for i, a in enumerate(blocks) for b in blocks[i + 1 :])
    assert scene.pad_rows() == []
    step(app, [key(pygame.K_DOWN)])  # the second deal: the first is on the pad
    first = wizard_match.history()["deals"][0]
    assert scene.pad_rows() == [(1, first["scores"])]
    step(app, [key(pygame.K_END)])
    assert len(scene.pad_rows()) == len(wizard_match.history()["deals"])


def test_esc_closes_the_viewer_back_to_the_screen_under_it(tmp_path, wizard_match):
    app, _, _ = open_viewer(tmp_path, wizard_match)
    step(app, [key(pygame.K_ESCAPE)])
    assert isinstance(app.top_scene(), StartScene)


def test_watch_replay_on_the_statistics_screen_opens_the_chosen_game(tmp_path, wizard_match):
    other = play("wizard", 3, 9, rounds=3)
    (tmp_path / "histories").mkdir()
    write_history(tmp_path / "histories" / "wizard.jsonl", [wizard_match.history(), other.history()])
    app = make_app(tmp_path)
    step(app)
    app.push(StatsScene(app))
    step(app)
    stats = app.top_scene()
    assert isinstance(stats, StatsScene) and stats.chosen == 1
    click(app, stats.replay_button.rect.center)
    viewer = app.top_scene()
    assert isinstance(viewer, ReplayScene) and viewer.number == 2
    assert viewer.timeline.record["seed"] == other.seed
    step(app, [key(pygame.K_ESCAPE)])
    assert app.top_scene() is stats


# ---------------------------------------------------------------------- the command line
@pytest.fixture
def history_file(tmp_path, wizard_match, bidwhist_match) -> Path:
    path = tmp_path / "games.jsonl"
    write_history(path, [bidwhist_match.history(), wizard_match.history()])
    return path


def test_replay_file_game_n_opens_the_viewer_on_that_game(tmp_path, history_file, monkeypatch, wizard_match):
    opened: list[Scene | None] = []

    def run(app: App) -> int:
        opened.append(app.top_scene())
        return 0

    monkeypatch.setattr(App, "run", run)
    code = cli.main(
        ["--data-dir", str(tmp_path / "data"), "--size", "800x600", "replay", str(history_file), "--game", "2"]
    )
    assert code == 0 and len(opened) == 1
    viewer = opened[0]
    assert isinstance(viewer, ReplayScene) and viewer.number == 2
    assert viewer.timeline.game.name == "wizard" and viewer.timeline.record["seed"] == wizard_match.seed


def _replay_from_the_command_line(tmp_path, history_file, monkeypatch, close) -> App:
    """Run ``main.py replay FILE`` with the loop driven here: one frame, ``close`` the viewer,
    one more frame; the app as it stands after."""
    ran: list[App] = []

    def drive(app: App) -> int:
        ran.append(app)
        step(app)
        close(app)
        if app.running:
            step(app)
        return 0

    monkeypatch.setattr(App, "run", drive)
    assert cli.main(["--data-dir", str(tmp_path / "data"), "--size", "800x600", "replay", str(history_file)]) == 0
    return ran[0]


def _press_close(app: App) -> None:
    viewer = app.top_scene()
    assert isinstance(viewer, ReplayScene)
    click(app, viewer.close_button.rect.center)


@pytest.mark.parametrize(
    "close",
    [
        _press_close,
        lambda app: step(app, [key(pygame.K_ESCAPE)]),
        lambda app: step(app, [pygame.event.Event(pygame.QUIT)]),
    ],
    ids=["close button", "esc", "window close"],
)
def test_closing_a_replay_opened_from_the_command_line_ends_the_program(tmp_path, history_file, monkeypatch, close):
    # The player opened a file, not the game: no start screen comes up behind the viewer.
    app = _replay_from_the_command_line(tmp_path, history_file, monkeypatch, close)
    try:
        assert not app.running
        assert not any(isinstance(scene, StartScene) for scene in app.scenes)
    finally:
        app.close(quit_pygame=False)


def test_replay_game_n_reads_past_a_damaged_line_and_names_it(
    tmp_path, history_file, monkeypatch, capsys, wizard_match
):
    # Issue 25 item 5: a damaged line 2 used to make every later game unreachable.
    first, second = history_file.read_bytes().splitlines(keepends=True)
    history_file.write_bytes(first + b'{"format": "trick-table-history", "vers\n' + second)
    opened: list[Scene | None] = []

    def run(app: App) -> int:
        opened.append(app.top_scene())
        return 0

    monkeypatch.setattr(App, "run", run)
    code = cli.main(
        ["--data-dir", str(tmp_path / "data"), "--size", "800x600", "replay", str(history_file), "--game", "2"]
    )
    err = capsys.readouterr().err
    assert code == 0 and isinstance(opened[0], ReplayScene)
    assert opened[0].timeline.record["seed"] == wizard_match.seed
    assert f"warning: {history_file}: line 2: not valid JSON" in err and "skipped" in err


@pytest.mark.parametrize(
    "content, args, words",
    [
        (None, ["--game", "1"], "cannot read"),
        (b"not json at all\n", [], "line 1"),
        ("two games", ["--game", "5"], "has no game 5 (it holds 2)"),
        ("two games", ["--game", "0"], "start at 1"),
    ],
)
def test_a_bad_file_or_game_number_is_one_clear_line_and_no_window(
    tmp_path, history_file, monkeypatch, capsys, content, args, words
):
    path = history_file if content == "two games" else tmp_path / "bad.jsonl"
    if isinstance(content, bytes):
        path.write_bytes(content)

    def no_window(*_, **__):
        raise AssertionError("a window was opened for a file that cannot be replayed")

    monkeypatch.setattr(App, "__init__", no_window)
    code = cli.main(["replay", str(path), *args])
    err = capsys.readouterr().err
    assert code == cli.EXIT_USAGE and words in err and err.count("\n") == 1 and "Traceback" not in err


def test_replay_check_keeps_working(history_file, capsys):
    assert cli.main(["replay", "--check", str(history_file)]) == 0
    assert "every game agrees with the engine" in capsys.readouterr().out


def test_load_recorded_game_reads_only_up_to_the_game_asked_for_and_past_a_damaged_line(tmp_path, wizard_match):
    path = tmp_path / "games.jsonl"
    write_history(path, [wizard_match.history()])
    path.write_bytes(path.read_bytes() + b"damaged further on\n" + path.read_bytes())
    seen: list = []
    assert load_recorded_game(path, 1, on_damage=seen.append)["seed"] == wizard_match.seed
    assert seen == [], "the damaged line after game 1 is not read"
    # Game 2 is on line 3: the damaged line 2 is named and skipped, as the statistics skip it.
    assert load_recorded_game(path, 2, on_damage=seen.append)["seed"] == wizard_match.seed
    assert [damage.line for damage in seen] == [2] and "line 2" in str(seen[0])
    with pytest.raises(ReplayError, match="has no game 3 \\(it holds 2\\)"):
        load_recorded_game(path, 3)


def test_from_file_gives_the_problem_in_words(tmp_path):
    app = make_app(tmp_path)
    outcome = ReplayScene.from_file(app, str(tmp_path / "missing.jsonl"), 1)
    assert isinstance(outcome, str) and "missing.jsonl" in outcome
