"""A program waiting for a person costs no CPU: the loop sleeps when nothing moves.

These tests check the decisions, not the clock: after each frame the app
asks its scenes how soon they need another one (``App.frame_wait``), and the
loop (``App.run_frame``) either keeps the full frame rate or waits for input.
Nothing here measures time; ``benchmarks/idle.py`` measures the CPU.
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame

from game.ui.scenes.settings_scene import SettingsScene
from game.ui.scenes.start_scene import CARET_BLINK_SECONDS, StartScene
from game.ui.dialogs.bidding_panel import BiddingPanel
from scene_checks import match_of, top
from test_ui_table import (
    FRAME,
    ManualRunner,
    _to_human_play,
    key,
    legal_cards,
    make_app,
    run_until,
    start,
    step,
    top_name,
)

HUMAN_AND_COMPUTERS = ["human", "ai:random", "ai:random", "ai:random"]


def settle(app, frames: int = 3000) -> None:
    """Step until the app would sleep (the card faces are drawn ahead in the first frames)."""
    assert run_until(app, lambda: app.frame_wait() is None, frames=frames), "the app never went idle"


def waiting_table(tmp_path, speed: str = "instant"):
    app = make_app(tmp_path, speed=speed)
    scene = start(app, "bidwhist", HUMAN_AND_COMPUTERS, seed=5)
    _to_human_play(app, scene)
    return app, scene


# ---------------------------------------------------------------------------- what the app decides


def test_the_start_screen_waits_for_input(tmp_path):
    app = make_app(tmp_path)
    assert top_name(app) == "StartScene"
    step(app)
    assert app.frame_wait() is None


def test_the_table_waiting_for_a_humans_card_waits_for_input(tmp_path):
    app, scene = waiting_table(tmp_path)
    settle(app)
    assert scene.input_enabled()
    # A frame with nothing in it (the mouse moved, say) changes nothing: still idle.
    step(app)
    assert app.frame_wait() is None


def test_a_dialog_over_the_waiting_table_waits_for_input(tmp_path):
    app, scene = waiting_table(tmp_path)
    settle(app)
    step(app, [key(pygame.K_s, "s")])
    assert top_name(app) == "ScorePad"
    step(app)
    assert app.frame_wait() is None
    step(app, [key(pygame.K_ESCAPE)])
    step(app, [key(pygame.K_ESCAPE)])
    assert top_name(app) == "TableMenu"
    step(app)
    assert app.frame_wait() is None


def test_settings_over_the_start_screen_wait_for_input(tmp_path):
    app = make_app(tmp_path)
    app.push(SettingsScene(app))
    step(app)
    assert app.frame_wait() is None


def test_moving_cards_keep_the_full_frame_rate_until_they_land(tmp_path):
    app, scene = waiting_table(tmp_path, speed="normal")
    settle(app)
    scene.play_card(sorted(legal_cards(scene))[0], None)
    step(app)
    assert scene.director.moving and app.frame_wait() == 0.0
    # The computers answer at full frame rate too, until the human is to play again.
    assert run_until(app, lambda: scene.input_enabled() and not scene.director.moving, frames=6000)
    settle(app)


def test_a_thinking_computer_keeps_the_full_frame_rate(tmp_path):
    app = make_app(tmp_path)
    runner = ManualRunner()
    scene = start(app, "wizard", ["human", "ai:random", "ai:random"], rounds=1, seed=2, ai_runner=runner)
    assert run_until(app, lambda: scene.thinking_seat() >= 0 or top_name(app) == "BiddingPanel")
    if top_name(app) == "BiddingPanel":  # the human bids first: answer, then a computer thinks
        dialog = top(app, BiddingPanel)
        dialog.finish(dialog.on_action, match_of(scene).legal_actions()[0])
        assert run_until(app, lambda: scene.thinking_seat() >= 0)
    for _ in range(5):
        step(app)
        assert app.frame_wait() == 0.0, "the thinking dots must keep moving"


def test_a_held_card_keeps_the_full_frame_rate(tmp_path):
    app, scene = waiting_table(tmp_path)
    settle(app)
    card = sorted(legal_cards(scene))[0]
    centre = scene.drag.slot_centre(scene.hand_cards().index(card))
    step(app, [pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=centre, button=1)])
    assert app.frame_wait() == 0.0


def test_a_message_wakes_the_loop_when_it_is_due(tmp_path):
    app, scene = waiting_table(tmp_path)
    settle(app)
    scene.show_message("A note", warning=False, seconds=3.0)
    wait = app.frame_wait()
    assert wait is not None and 2.9 < wait <= 3.0
    # The app's own message wakes it when it starts to fade, then fades at full rate.
    scene.message = None
    app.notify("Saved", seconds=2.0)
    wait = app.frame_wait()
    assert wait is not None and 1.4 < wait <= 1.5
    app.step(FRAME, [], idle_time=1.5)
    assert app.frame_wait() == 0.0


def test_a_dialogs_reason_fades_at_full_rate(tmp_path):
    app = make_app(tmp_path)
    settings = SettingsScene(app)
    app.push(settings)
    step(app)
    settings.show_reason("Could not save")
    wait = app.frame_wait()
    assert wait is not None and wait > 0.0
    app.step(FRAME, [], idle_time=wait)
    assert app.frame_wait() == 0.0


def test_the_caret_blinks_a_while_after_typing_then_rests_shown(tmp_path):
    app = make_app(tmp_path)
    start_scene = app.scenes[-1]
    assert isinstance(start_scene, StartScene)
    box = start_scene.name_inputs[0]
    start_scene.focus.focus(box)
    step(app, [pygame.event.Event(pygame.TEXTINPUT, text="x")])
    wait = app.frame_wait()
    assert wait is not None and 0.0 < wait <= 1.0, "the caret blinks after typing"
    app.step(FRAME, [], idle_time=CARET_BLINK_SECONDS + 0.1)
    assert run_until(app, lambda: app.frame_wait() is None, frames=200)
    assert start_scene._caret_visible(), "the caret rests where it can be seen"


# ---------------------------------------------------------------------------- the loop itself


class SleepRecorder:
    """Stands in for ``time.sleep``: notes each wait, and lets input arrive on the first."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_LSHIFT, mod=0, unicode="", scancode=0))


def test_the_loop_sleeps_until_input_when_nothing_moves(tmp_path):
    app = make_app(tmp_path)
    app.run_frame()  # the first frame is drawn at once
    pygame.event.clear()
    app.sleep = recorder = SleepRecorder()
    app.run_frame()
    assert recorder.waits, "an idle app waits for input instead of drawing again"
    assert all(seconds <= 1 / 30 for seconds in recorder.waits), "input is looked for often"


def test_the_loop_does_not_sleep_while_cards_move(tmp_path):
    app, scene = waiting_table(tmp_path, speed="normal")
    settle(app)
    scene.play_card(sorted(legal_cards(scene))[0], None)
    step(app)
    app.sleep = recorder = SleepRecorder()
    app.run_frame()
    assert recorder.waits == [] and scene.director.moving


def test_time_slept_runs_timers_but_not_the_animation_an_event_starts(tmp_path):
    app, scene = waiting_table(tmp_path, speed="normal")
    settle(app)
    scene.show_message("A note", warning=False, seconds=3.0)
    card = sorted(legal_cards(scene))[0]
    scene.drag.selected = scene.hand_cards().index(card)
    # The player presses Enter after half a minute of thinking.
    app.step(FRAME, [key(pygame.K_RETURN)], idle_time=30.0)
    assert scene.message is None, "the message's time ran out while the app slept"
    assert scene.director.moving, "the card just played still flies from its first frame"
