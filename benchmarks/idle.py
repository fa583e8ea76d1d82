"""How much CPU the app uses while it waits for a person: ``python -m benchmarks.idle``."""

from __future__ import annotations

# The real ``App`` runs its real loop (``App.run_frame``, as the window does)
# on each screen where the program waits for the player:
#
# * the start screen, and the settings dialog over it;
# * the card table waiting for the human's card (Bid Whist, one human and
#   three computer players), the table with the human's bidding panel open,
#   and the score pad and the in-game menu open over the waiting table;
# * the hot-seat "Pass to <name>" cover between two humans.
#
# Each screen is first brought to rest (the table draws its card faces ahead
# of need in its first seconds), then the CPU time the process used over
# ``--seconds`` of wall-clock time is read from the process itself
# (``time.process_time``, every thread included) and printed as a fraction of
# one core, with the number of frames drawn meanwhile. It prints figures and
# never fails on them; the goal is at most 2% of a core on every screen.
#
# The video driver is SDL's choice: the real window when a display is
# available (run it under ``DISPLAY=:NN`` for X or Xvfb), else the dummy
# driver, and the report names the one it used.

import os

os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import argparse
import tempfile
import time
from collections.abc import Callable

import pygame

from game.rules import ActionKind, make_rules
from game.session.match import Seat
from game.settings.app_settings import Settings
from game.ui.app import App
from game.ui.dialogs.bidding_panel import BiddingPanel
from game.ui.dialogs.contract_chooser import ContractChooser
from game.ui.dialogs.kitty_dialog import KittyDialog
from game.ui.dialogs.score_pad import ScorePad
from game.ui.scenes.settings_scene import SettingsScene
from game.ui.table.scene import TableScene

GOAL = 0.02  # of one core
SETTLE_LIMIT = 20.0  # seconds a screen may take to come to rest
STOP_EVENT = pygame.USEREVENT + 7
NAMES = ["Ann", "Ben", "Cy", "Dee"]


def open_app(data_dir: str, size: tuple[int, int]) -> App:
    """A real app on SDL's own choice of video driver; the dummy one if no display can be opened."""
    settings = Settings(animation_speed="instant", ai_pause_seconds=0.0)
    try:
        return App(data_dir=data_dir, size=size, settings=settings)
    except pygame.error:
        pygame.display.quit()
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        return App(data_dir=data_dir, size=size, settings=settings)


def top_name(app: App) -> str:
    return type(app.scenes[-1]).__name__ if app.scenes else ""


def answer_dialogs(app: App, table: TableScene, bid: bool = True) -> None:
    """Give the human's decisions (first legal bid, trump, discards) so the table moves on."""
    dialog = app.scenes[-1]
    legal = list(table.session.view(table.session.current_player).game.legal_actions)
    if isinstance(dialog, BiddingPanel) and bid:
        dialog.finish(dialog.on_action, next((a for a in legal if a.kind != ActionKind.PASS), legal[0]))
    elif isinstance(dialog, ContractChooser):
        dialog.finish(dialog.on_action, legal[0])
    elif isinstance(dialog, KittyDialog):
        discards = [a.value for a in legal if a.kind == ActionKind.DISCARD]
        dialog.finish(dialog.on_confirm, discards[:6])
    elif isinstance(dialog, ScorePad):
        dialog.cancel()


def drive(app: App, done: Callable[[], bool], act: Callable[[], None] = lambda: None) -> None:
    """Run the real loop until ``done()``, calling ``act`` before each frame."""
    limit = time.perf_counter() + SETTLE_LIMIT
    while not done():
        if time.perf_counter() > limit:
            raise RuntimeError(f"the screen did not come about in {SETTLE_LIMIT:g} s (top: {top_name(app)})")
        act()
        if app.frame_wait() is None:
            app.step(1 / 60, [])  # nothing would wake the loop by itself: step it
        else:
            app.run_frame()


def measure(app: App, seconds: float) -> tuple[float, int]:
    """(CPU fraction of one core, frames drawn) over ``seconds`` of the real loop, once at rest."""
    drive(app, lambda: app.frame_wait() is None)
    # Something must end the last wait: a timer event at the end of the measurement.
    pygame.time.set_timer(STOP_EVENT, max(1, round(seconds * 1000)), loops=1)
    frames = app.frames_drawn
    cpu, wall = time.process_time(), time.perf_counter()
    end = wall + seconds
    while time.perf_counter() < end and app.running:
        app.run_frame()
    used = (time.process_time() - cpu) / max(1e-9, time.perf_counter() - wall)
    return used, app.frames_drawn - frames - 1  # the frame the stop event woke is not idle time


def table_of(app: App) -> TableScene:
    table = app.scenes[0]
    assert isinstance(table, TableScene)
    return table


def start_table(app: App, controllers: list[str]) -> TableScene:
    rules = make_rules("bidwhist", {}, players=len(controllers))
    app.start_match(rules, [Seat(name, kind) for name, kind in zip(NAMES, controllers)], seed=5)
    return table_of(app)


def screens(app: App) -> list[tuple[str, Callable[[], None]]]:
    """Each idle screen with the steps that bring the app to it from the one before."""

    def start_screen() -> None:
        app.show_start()

    def settings() -> None:
        app.push(SettingsScene(app))

    def bidding_panel() -> None:
        table = start_table(app, ["human", "ai:medium", "ai:medium", "ai:medium"])
        drive(
            app,
            lambda: top_name(app) == "BiddingPanel" or table.input_enabled(),
            lambda: answer_dialogs(app, table, bid=False),
        )

    def table_waiting() -> None:
        table = table_of(app)
        drive(app, table.input_enabled, lambda: answer_dialogs(app, table))

    def score_pad() -> None:
        table_of(app).open_score_pad()

    def menu() -> None:
        app.pop()
        table_of(app).open_menu()

    def hot_seat_cover() -> None:
        start_table(app, ["human", "ai:medium", "human", "ai:medium"])
        drive(app, lambda: top_name(app) == "CoverScene")

    return [
        ("start screen", start_screen),
        ("settings over the start screen", settings),
        ("bidding panel (human to bid)", bidding_panel),
        ("table waiting for the human's card", table_waiting),
        ("score pad over the table", score_pad),
        ("menu over the table", menu),
        ("hot-seat cover", hot_seat_cover),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="seconds measured per screen (default 10)")
    parser.add_argument("--size", default="1280x720", help="window size, WIDTHxHEIGHT (default 1280x720)")
    args = parser.parse_args(argv)
    width, height = (int(part) for part in args.size.lower().split("x"))
    with tempfile.TemporaryDirectory() as data_dir:
        app = open_app(data_dir, (width, height))
        print(
            f"video driver: {pygame.display.get_driver()}, window {width}x{height}, "
            f"{args.seconds:g} s per screen, goal at most {GOAL:.0%} of one core"
        )
        print(f"{'screen':<38} {'CPU (of one core)':>18} {'frames drawn':>13}")
        try:
            for name, reach in screens(app):
                reach()
                used, frames = measure(app, args.seconds)
                print(f"{name:<38} {used:>17.2%} {frames:>13d}", flush=True)
        finally:
            app.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
