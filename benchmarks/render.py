"""How long a frame of the card table takes: ``python -m benchmarks.render``."""

from __future__ import annotations

# A busy table is driven offscreen (SDL's dummy video driver, so no window is
# needed): six-seat Wizard and four-seat Bid Whist with computer players that
# act without pause at normal animation speed, so cards are dealt, played and
# swept to the winner all the time, and the deal animation is started again
# whenever the table falls quiet, so there is always something in flight.
# Each frame is timed as the app runs it (events, update, draw) at 1280x720
# and 1920x1080. The first four seconds of frames are left out: in them the
# table draws every card face at its card sizes ahead of need (a few per
# frame) and fills its text and rotation caches. The median and the 99th percentile are printed.
#
# The goal is a median of at most 4 ms and a 99th percentile of at most 8 ms at
# 1920x1080 on one core.

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import argparse
import statistics
import tempfile
import time

from game.rules import make_rules
from game.rules.events import Dealt
from game.session.match import Seat
from game.settings.app_settings import Settings
from game.ui.app import App
from game.ui.table.scene import TableScene

FRAME = 1 / 60
WARM_UP_FRAMES = 240
SIZES = ((1280, 720), (1920, 1080))
NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"]


def _start(app: App, game: str, players: int, seed: int) -> TableScene:
    rules = make_rules(game, {}, players=players)
    seats = [Seat(NAMES[i], "ai:random") for i in range(players)]
    app.start_match(rules, seats, seed=seed)
    scene = app.scenes[0]
    assert isinstance(scene, TableScene)
    return scene


def _keep_busy(scene: TableScene) -> None:
    """When nothing moves, deal the current hand again so cards are always flying.

    The deal is shown as the table's viewer saw it the first time (the
    bottom seat's cards face up, the others face down)."""
    if scene.director.idle:
        deals = [e.event for e in scene.session.events_since(0, scene.viewer) if isinstance(e.event, Dealt)]
        if deals:
            scene.director.enqueue(deals[-1:], scene.session.current_player)


def measure(game: str, players: int, size: tuple[int, int], frames: int, seed: int = 7) -> list[float]:
    """Frame times in milliseconds for one table at one window size."""
    with tempfile.TemporaryDirectory() as data_dir:
        settings = Settings(animation_speed="normal", ai_pause_seconds=0.0, window_size=size)
        app = App(data_dir=data_dir, size=size, settings=settings, show_start=False)
        scene = _start(app, game, players, seed)
        times: list[float] = []
        for index in range(frames + WARM_UP_FRAMES):
            if scene.session.is_over:
                scene = _start(app, game, players, seed + index)
            _keep_busy(scene)
            began = time.perf_counter()
            app.step(FRAME, [])
            elapsed = (time.perf_counter() - began) * 1000
            if index >= WARM_UP_FRAMES:
                times.append(elapsed)
            # Give the computer players' thread its turn, as the real loop does while it waits.
            time.sleep(0.0002)
        app.close(quit_pygame=False)
    return times


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=900, help="timed frames per table and size")
    args = parser.parse_args(argv)
    print(f"{'table':<22} {'size':>10} {'median ms':>10} {'p99 ms':>8} {'max ms':>8}")
    for size in SIZES:
        for game, players in (("wizard", 6), ("bidwhist", 4)):
            times = measure(game, players, size, args.frames)
            label = f"{game} {players} seats"
            print(
                f"{label:<22} {size[0]}x{size[1]:<5} {statistics.median(times):>10.2f} "
                f"{percentile(times, 0.99):>8.2f} {max(times):>8.2f}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
