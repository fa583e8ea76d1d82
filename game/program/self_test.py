"""``--self-test``: prove that this copy of Trick Table works, in a few seconds."""

from __future__ import annotations

# The self-test is meant for the built executable as much as for a checkout:
# CI runs it on the PyInstaller build, and a player can run it to see whether
# the program works on their machine. It exercises the same code a player
# does. SDL is pointed at its dummy video and audio drivers, so no window
# appears, and then the real ``App`` is built, shows the start screen, and
# plays one short game of each game between computer players through the
# real table scene, frame by frame, until the end screen appears. The table
# writes each finished game's hand history to the data folder, as it does for
# a player; the self-test then replays those files through the engine with
# the replay checker.
#
# The result is one line on standard output, ``self-test ok: ...`` with exit
# status 0, or ``self-test FAILED: <what>`` with status 1. Details of a
# failure (tracebacks, the scene that failed) go to the log file, never to the
# terminal.
#
# The self-test never touches a player's files. It always plays in a fresh
# temporary data folder of its own (its settings, saves, histories and log),
# deleted after a success and kept after a failure so its log can be read
# (the result line names it). ``--data-dir DIR`` only says whose settings to
# play with: the settings file in DIR is read, never written, so the
# self-test proves the program works with that player's language, scale and
# card choices; nothing else in DIR is opened, and DIR is left exactly as it
# was (no autosave replaced, no game added to its histories, no line in its
# log).

import logging
import os
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

EXIT_OK, EXIT_FAILED = 0, 1

FRAME = 1 / 60
WINDOW_SIZE = (1280, 720)
# A short game still takes a few hundred frames per deal (every computer
# move, trick and hand takes at least a frame or two, even with instant
# animations). The caps only exist to turn a stuck table into a clean failure.
MAX_FRAMES_PER_GAME = 60_000
MAX_SECONDS_PER_GAME = 180.0
# Each frame hands the interpreter to the computer player's thread for a
# moment, as the real 60 fps loop does while it waits for the next frame.
YIELD_SECONDS = 0.0005

log = logging.getLogger("tricktable.self_test")


@dataclass(frozen=True)
class GamePlan:
    """One short game of the self-test: which game, its short rules, its seed."""

    game: str
    players: int
    overrides: dict[str, Any]
    seed: int
    unit: str  # what one deal is called in the result line

    def describe(self, deals: int) -> str:
        plural = "" if deals == 1 else "s"
        return f"{self.game} 1 game ({deals} {self.unit}{plural})"


# Fixed seeds keep the self-test reproducible: a failure seen once can be seen again.
PLANS = (
    GamePlan("bidwhist", 4, {"target_score": 5}, seed=20240601, unit="deal"),
    GamePlan("wizard", 4, {"rounds": 3}, seed=20240602, unit="round"),
)


# The dialogs a human player sees. A game between computer players never opens
# them, so the self-test imports them itself: in a frozen build this proves the
# bundle holds them even if the table comes to load them lazily (by name through
# importlib, which PyInstaller's analysis cannot see). tests/test_self_test.py
# checks that every module the game loads by name is listed here.
LAZY_UI_MODULES = (
    "game.ui.dialogs.bidding_panel",
    "game.ui.dialogs.contract_chooser",
    "game.ui.dialogs.end_scene",
    "game.ui.dialogs.kitty_dialog",
    "game.ui.dialogs.score_pad",
)


class SelfTestFailure(Exception):
    """A check of the self-test did not hold; the message is the result line's reason."""


class _ErrorCollector(logging.Handler):
    """Remembers every error the app logs, so a scene that failed (and was
    recovered from, as the app does for a player) still fails the self-test."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage().splitlines()[0])


def run_self_test(
    data_dir: str | None = None,
    *,
    quit_pygame: bool = True,
    echo: Callable[[str], None] = print,
    scratch_parent: str | None = None,
) -> int:
    """Run the self-test; print one result line through ``echo`` and return the exit status.

    ``data_dir``: the player's data folder, whose settings the self-test plays
    with (read only); the games are played in a temporary folder made in
    ``scratch_parent`` (the system's temporary folder by default).
    ``quit_pygame=False`` leaves pygame initialised, for callers (tests) that
    keep using it in the same process.
    """
    # Both must be set before pygame initialises SDL; an explicit request
    # from the caller's environment is overridden on purpose, since the
    # self-test must never open a visible window or play a sound.
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    # pygame greets on standard output when imported; the result line must stay alone.
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

    began = time.perf_counter()
    scratch = Path(tempfile.mkdtemp(prefix="tricktable-selftest-", dir=scratch_parent))
    from game.program.log_setup import attach_log_file
    from game.settings.paths import UserPaths

    # Anything logged before the window opens goes to the self-test's own log too.
    attach_log_file(UserPaths.from_data_dir(scratch).log_dir, lazy=True)
    collector = _ErrorCollector()
    app_log = logging.getLogger("tricktable")
    app_log.addHandler(collector)
    app = None
    try:
        from game.ui.app import App  # imported here: the env above must come first

        app = _make_app(App, str(scratch), _settings_of(data_dir))
        _check_lazy_modules()
        _check_sound_files()
        _check_catalogues()
        summaries = [_play(app, plan, collector) for plan in PLANS]
        summaries.append(_check_network())
        checked = _check_histories(app.user_paths.histories_dir, [plan.game for plan in PLANS])
        _fail_on_logged_errors(collector)
    except SelfTestFailure as failure:
        log.error("self-test failed: %s", failure)
        echo(f"self-test FAILED: {failure} ({_log_note(app, scratch)})")
        return EXIT_FAILED
    except Exception as exc:  # anything unexpected: one line here, the traceback in the log
        log.exception("self-test crashed")
        echo(f"self-test FAILED: unexpected {type(exc).__name__}: {exc} ({_log_note(app, scratch)})")
        return EXIT_FAILED
    finally:
        app_log.removeHandler(collector)
        if app is not None:
            _close(app, quit_pygame)
    seconds = time.perf_counter() - began
    line = f"self-test ok: {', '.join(summaries)}, {checked} replayed clean in {seconds:.1f} s"
    log.info("%s", line)  # also in the log: a windowed build on Windows has no console to print to
    echo(line)
    # Only after a success: a failed run keeps its folder and the log in it.
    _release_log_files(app_log, scratch)
    shutil.rmtree(scratch, ignore_errors=True)
    return EXIT_OK


def _settings_of(data_dir: str | None) -> Any:
    """The settings to play with: the player's in ``data_dir`` (read, never written), else
    the defaults; animations instant and no pauses either way."""
    from game.settings.app_settings import Settings, load_settings_problem
    from game.settings.paths import UserPaths

    settings = Settings()
    if data_dir is not None:
        paths = UserPaths.from_data_dir(data_dir)
        # A regular file or none: a FIFO in its place would block the self-test for ever.
        if paths.settings_file.is_file() or not paths.settings_file.exists():
            settings, problem = load_settings_problem(paths)
            if problem is not None:
                log.info("self-test: the settings in %s were read with a problem: %s", data_dir, problem)
    return replace(settings, animation_speed="instant", ai_pause_seconds=0.0)


def _make_app(app_class: type, data_dir: str, settings: Any) -> Any:
    try:
        app = app_class(data_dir=data_dir, size=WINDOW_SIZE, settings=settings, show_start=True)
    except Exception as exc:
        raise SelfTestFailure(f"the window could not be opened: {exc}") from exc
    _check_text_renders()
    # A few frames of the start screen, as a player would see it.
    for _ in range(3):
        app.step(FRAME, [])
    if not app.scenes or type(app.scenes[-1]).__name__ != "StartScene":
        raise SelfTestFailure("the start screen did not appear")
    return app


def _check_lazy_modules() -> None:
    import importlib

    for name in LAZY_UI_MODULES:
        try:
            importlib.import_module(name)
        except Exception as exc:
            log.exception("cannot import %s", name)
            raise SelfTestFailure(f"the module {name} cannot be loaded: {exc}") from exc


def _check_network() -> str:
    from game.program.network_check import check_network_play

    try:
        return check_network_play()
    except Exception as exc:
        log.exception("network play check failed")
        raise SelfTestFailure(f"network play does not work: {type(exc).__name__}: {exc}") from exc


def _check_sound_files() -> None:
    """The table's sound effects are in the bundle and readable (the games below play them
    through SDL's dummy audio driver, which would not notice a missing file: the board only logs it)."""
    from game.ui.audio import sound_file_problems

    problems = sound_file_problems()
    if problems:
        raise SelfTestFailure(f"the sound effects are damaged or missing: {problems[0]}")


def _check_catalogues() -> None:
    """Every language's catalogue is in the bundle, readable, and words every English key (the
    program would show English, or key names, in its place: a broken build, not a player's choice)."""
    from game.settings.app_settings import LANGUAGES
    from game.ui import text

    english, _ = text.read_catalog(text.CATALOG_DIR / f"{text.SOURCE_LANGUAGE}.yaml")
    for language in LANGUAGES:
        entries, problems = text.read_catalog(text.CATALOG_DIR / f"{language}.yaml")
        missing = [key for key in english if key not in entries]
        if missing:
            problems.append(f"{len(missing)} texts missing, e.g. {missing[0]}")
        if not entries:
            problems.append("no texts")
        if problems:
            raise SelfTestFailure(f"the {language} catalogue is damaged or missing: {problems[0]}")


def _check_text_renders() -> None:
    """The UI's type family is found (in a frozen build: inside the bundle, with its
    licence), its bold and regular faces both draw, and they draw the Dutch and
    Turkish letters rather than the missing-letter box."""
    from game.ui import theme

    files = theme.font_files()
    if not files:
        raise SelfTestFailure(f"the UI fonts ({theme.FONT_PACKAGE}) were not found")
    if theme.font_licence_file() is None:
        raise SelfTestFailure("the UI fonts' licence file is missing")
    white = (255, 255, 255)
    for bold, face in ((False, "regular"), (True, "bold")):
        font = theme.font(32, bold=bold)
        if font.render("Trick Table", True, white).get_bounding_rect().width < 20:
            raise SelfTestFailure(f"the {face} UI font renders no text")
        # A private-use code point has no letter in the font: it draws the missing-letter box.
        box = _pixels(font.render("\ue000", True, white))
        missing = [letter for letter in theme.REQUIRED_LETTERS if _pixels(font.render(letter, True, white)) == box]
        if missing:
            raise SelfTestFailure(f"the {face} UI font cannot draw {''.join(missing)}")
    log.info("self-test fonts: %s and %s", files[False], files[True])


def _pixels(surface: Any) -> bytes:
    """A rendered surface's pixels, to compare two renderings."""
    import pygame

    return pygame.image.tobytes(surface, "RGBA")


def _play(app: Any, plan: GamePlan, collector: _ErrorCollector) -> str:
    """Play one game of ``plan`` through the table scene to the end screen; describe it."""
    from game.rules import make_rules
    from game.session.match import Seat
    from game.ui.dialogs.end_scene import EndScene

    rules = make_rules(plan.game, plan.overrides, players=plan.players)
    seats = [Seat(f"Computer {seat + 1}", "ai:medium") for seat in range(plan.players)]
    session = app.start_match(rules, seats, seed=plan.seed)
    deadline = time.monotonic() + MAX_SECONDS_PER_GAME
    for frame in range(MAX_FRAMES_PER_GAME):
        if isinstance(app.scenes[-1], EndScene):
            break
        if not app.step(FRAME, []):
            raise SelfTestFailure(f"{plan.game}: the app stopped during the game")
        if collector.messages:
            raise SelfTestFailure(f"{plan.game}: the app logged an error: {collector.messages[0]}")
        if time.monotonic() > deadline:
            raise SelfTestFailure(
                f"{plan.game}: no end screen after {MAX_SECONDS_PER_GAME:.0f} s ({frame} frames, {session.phase.name})"
            )
        time.sleep(YIELD_SECONDS)
    else:
        raise SelfTestFailure(
            f"{plan.game}: no end screen after {MAX_FRAMES_PER_GAME} frames "
            f"({session.phase.name}, deal {session.deal_number})"
        )
    if not session.is_over:
        raise SelfTestFailure(f"{plan.game}: the end screen appeared before the game was over")
    app.step(FRAME, [])  # draw the end screen once
    deals = len(session.score_history().deals)
    log.info("self-test %s: seed %d, %d deals, %d frames", plan.game, plan.seed, deals, frame)
    return plan.describe(deals)


def _check_histories(folder: Path, games: list[str]) -> str:
    """Replay every history file the table wrote; describe what was checked."""
    from game.persistence.history_codec import HistoryError
    from game.persistence.history_replay import check_file

    files = 0
    for game in games:
        path = folder / f"{game}.jsonl"
        if not path.is_file():
            raise SelfTestFailure(f"{game}: no hand history was written to {path}")
        try:
            disagreements = check_file(path)
        except HistoryError as exc:
            raise SelfTestFailure(f"{game}: the hand history cannot be read: {exc}") from exc
        if disagreements:
            number, problems = disagreements[0]
            for problem in problems:
                log.error("%s game %d: %s", path, number, problem)
            first = problems[0] if problems else "no details"
            raise SelfTestFailure(
                f"{game}: replaying game {number} of {path.name} disagrees "
                f"with the engine ({len(problems)} difference(s); first: {first})"
            )
        files += 1
    return "histories" if files > 1 else "history"


def _fail_on_logged_errors(collector: _ErrorCollector) -> None:
    if collector.messages:
        raise SelfTestFailure(f"the app logged an error: {collector.messages[0]}")


def _log_note(app: Any, scratch: Path) -> str:
    """Where the details of a failure are: the log file when it exists, else why there is none."""
    from game.program.log_setup import log_file
    from game.settings.paths import UserPaths

    path = getattr(app, "log_file", None) or log_file()
    if path is not None and Path(path).is_file():
        return f"log: {path}"
    folder = app.user_paths.log_dir if app is not None else UserPaths.from_data_dir(scratch).log_dir
    return f"no log file: the log folder {folder} cannot be written"


def _release_log_files(app_log: logging.Logger, folder: Path) -> None:
    """Close the app's log file inside ``folder`` (Windows cannot delete an open file)."""
    for handler in list(app_log.handlers):
        stream = getattr(handler, "baseFilename", None)
        if stream and Path(stream).resolve().is_relative_to(folder.resolve()):
            app_log.removeHandler(handler)
            handler.close()


def _close(app: Any, quit_pygame: bool) -> None:
    try:
        app.close(quit_pygame=quit_pygame)
    except Exception:
        log.exception("closing the app failed")
