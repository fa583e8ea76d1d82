"""The window: the scene stack, the frame loop and the app-wide services."""

from __future__ import annotations

# ``python main.py --rules FILE`` (or ``--preset``, ``--game``) opens at the
# table instead (``start_at_table``, with the rules ``game.program.table_launch``
# worked out), the start screen under it to go back to.
#
# A key or click acts only on the screen it began on: every key and mouse
# event passes the app's ``InputFence`` first, which keeps the rest of a
# press held across a change of the top scene (its key-repeats, its release)
# away from the new screen (``game.ui.input_fence``).
#
# ``App.step(dt, events)`` runs exactly one frame. The real loop calls it with
# the clock's time and pygame's queue; tests call it directly with synthesized
# events, so they drive the very same code path without a real window.
#
# A program waiting for a person costs no CPU. The loop runs at 60 frames a
# second only while some scene animates (``Scene.wake_in`` returns 0: cards
# flying, a computer player thinking or pausing, a message fading, a card
# being dragged). Otherwise it sleeps until input arrives or the earliest
# timer a scene named falls due, and draws nothing meanwhile
# (``App.frame_wait``). It waits by checking the event queue once per
# ``IDLE_POLL_SECONDS`` and sleeping between checks, not with
# ``pygame.event.wait``: pygame-ce implements that wait by checking the queue
# every millisecond, which alone costs 2.5-3.5% of a core. The time slept is
# handed to the scenes before the events that ended it (``step``'s
# ``idle_time``), so a message's timer keeps its length while an animation an
# event starts still begins at its first frame.
#
# The game in progress is played through a session (``game.session``: the
# table reaches the game only through it) that the app opens with its
# ``Autosaver`` (``game.persistence.savegame``: one file in the user's saves folder,
# written by a small worker thread so a slow disk never holds up a frame), so
# it is saved after every action. The start screen offers to continue it
# (``load_saved_game``, ``resume_saved``); the app waits for the last write before it reads the
# save back or closes. Only one window at a time owns a data folder's saves
# (``claim_saves``): a second window on the same folder says so and plays on
# without an autosaver (``autosaver`` is None), never touching the first
# window's game.
#
# Leaving a game in progress (Back to start or Quit in the menu, closing the
# window) asks first: ``request_leave`` opens the ``LeaveDialog`` while any
# scene has something to lose (``Scene.leave_warning``). Closing the window a
# second time while that question is open quits without asking again.
#
# A request from outside to end the program never asks: SIGTERM (``kill``, a
# logout or shutdown), SIGHUP (the terminal closed) and, on Windows, SIGBREAK
# (the console closed, Ctrl-Break, a logoff or shutdown) stop the loop within a
# frame, the last autosave is written and the window closes, so Continue on
# the next start resumes the game where it stood (``catch_stop_signals``; the
# real program asks for this, tests that build apps do not). Without it, SDL
# would turn SIGTERM into a window-close event, which opens the "Leave this
# game?" question nobody is there to answer. ``App.run`` then returns 128 plus
# the signal's number (143 for SIGTERM, 129 for SIGHUP), as a shell reports a
# program ended by that signal, like the 130 of Ctrl-C (``game.program.entry``).
#
# The window may be dragged smaller than 800x600. Scenes are then laid out for
# 800x600 on an offscreen canvas that is scaled down to the window (and mouse
# positions are scaled back), so a sliver of a window never breaks a layout.
#
# An exception inside a scene never reaches the player as a traceback: it is
# written to the log file in the user's log folder and a short message is
# shown instead; if the same scene keeps failing the app goes back to the
# start screen.

import logging
import random
import signal
import time
import traceback
import warnings
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

import pygame

from game.settings.app_settings import MIN_WINDOW_SIZE, Settings, load_settings_problem
from game.settings.house_rule_files import ConfigError
from game.settings.app_settings import save_settings as write_settings
from game.persistence.housekeeping import tidy_user_files
from game.program.log_setup import attach_log_file
from game.program.startup_probe import probe_file, write_first_frame_time
from game.settings.paths import UserPaths, resource_path
from game.persistence.savegame import (
    Autosaver,
    SavedGame,
    SaveProblem,
    claim_saves,
    history_finished,
    history_holds,
    remove_save,
    save_path,
    set_aside,
    set_save_aside,
)
from game.persistence.savegame import load_saved_game as read_saved_game
from game.session.local import LocalSession, local_session, new_local_session
from game.session.session import Seat, TableSession
from game.rules.house_rules import Rules
from game.program.table_launch import TablePlan
from game.ui.art.card_art import CardArt
from game.ui.art.render_cache import BoundedCache
from game.ui.art.table_art import set_felt
from game.ui.audio import SoundBoard
from game.ui.input_fence import InputFence
from game.ui.scene import Scene
from game.ui.text import error_words, problem_words, set_language, t
from game.ui.widgets.focus import INPUT_MODE
from game.ui.widgets.geometry import set_display_choices

if TYPE_CHECKING:  # the network modules load only when a player hosts (start-up time)
    from game.net.hosting import HostedServer

log = logging.getLogger("tricktable")

TITLE = "Trick Table"
FPS = 60
MAX_DT = 0.1  # a stall (window drag, breakpoint) must not make animations jump
ERROR_LIMIT = 3  # this many failures within ERROR_WINDOW seconds: back to the start screen
ERROR_WINDOW = 5.0
# Card art per (width, four-colour, back): a table uses about four widths, a dialog
# one or two more; a window being resized goes through many, only the latest matter.
CARD_ART_SIZES = 24
MOUSE_EVENTS = (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP)
# While nothing moves the loop looks for input this often (one frame's time, so
# the first reaction to a key or the mouse comes as fast as at full frame rate).
IDLE_POLL_SECONDS = 1 / FPS
# Posted from a network thread when a message arrives (``App.wake``): a sleeping loop runs a frame.
NETWORK_WAKE = pygame.event.custom_type()
# The signals by which the system or a user asks the program to end (see the
# module docstring); each platform has some of them.
STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP", "SIGBREAK") if hasattr(signal, name))
# A shell's exit status for a program ended by signal N is this plus N.
SIGNAL_EXIT_BASE = 128


class App:
    def __init__(
        self,
        data_dir: str | None = None,
        size: tuple[int, int] | None = None,
        settings: Settings | None = None,
        show_start: bool = True,
        table: TablePlan | None = None,
        catch_stop_signals: bool = False,
    ) -> None:
        # Only the parts the game uses. pygame.init() would also open the audio
        # device, which can cost 0.1 s of start-up: the sound board opens it
        # when the first sound plays (game.ui.audio).
        pygame.display.init()
        # The signal that stopped the loop, if one did; the handlers it replaced.
        self.stopped_by: int | None = None
        self._replaced_handlers: dict[int, object] = {}
        if catch_stop_signals:
            # After SDL's start, which takes SIGTERM for a window-close event.
            self.catch_stop_signals()
        pygame.font.init()
        self.user_paths = UserPaths.from_data_dir(data_dir)
        notice = None
        if settings is None:
            settings, notice = load_settings_problem(self.user_paths)
        self.settings = settings
        # The table's sound effects, at the volume of the settings of the moment.
        self.audio = SoundBoard(lambda: self.settings)
        set_language(settings.language)
        set_display_choices(settings.ui_scale_percent, settings.large_cards)
        set_felt(settings.felt)
        self._setup_logging()
        # A second window on this data folder leaves the saves to the first (game.persistence.savegame).
        self.saves_claim = claim_saves(self.user_paths)
        self.autosaver = Autosaver(save_path(self.user_paths)) if self.saves_claim is not None else None
        tidy_user_files(self.user_paths)  # after the log opens: what it repairs is logged
        self.scenes: list[Scene] = []
        # A key or click acts only on the screen it began on (game.ui.input_fence).
        self.input_fence = InputFence()
        INPUT_MODE.keyboard = False  # a new window starts with the pointer's looks
        self.running = True
        self._wake_posted = False  # a NETWORK_WAKE event is in pygame's queue
        # The table server this program runs for Host a table, and the scene it serves (the
        # lobby, then the table): it stops once that scene leaves the stack or the app closes.
        self.hosting: HostedServer | None = None
        self._hosting_scene: Scene | None = None
        self._card_arts: BoundedCache[tuple[int, bool, str], CardArt] = BoundedCache(CARD_ART_SIZES)
        self._errors: list[float] = []
        # The session continued from the save and its position then (see resume_session).
        self._resumed: tuple[TableSession, tuple[int, int]] | None = None
        width, height = size or settings.window_size
        self._windowed_size: tuple[int, int] = (int(width), int(height))
        self.fullscreen = bool(settings.fullscreen) and size is None
        self.window = self._open_window()
        self._canvas: pygame.Surface | None = None
        self.clock = pygame.time.Clock()
        # The loop's own timing (see run_frame); ``sleep`` is replaceable so a
        # test can see the loop wait without waiting itself.
        self.sleep: Callable[[float], None] = time.sleep
        self._last_frame = time.perf_counter()
        self._frames = 0
        from game.ui.widgets.toast import Toast

        self.toast = Toast()
        notices = []
        if notice is not None:
            log.warning("%s", notice)  # the log stays English; the player reads it in their language
            notices.append(problem_words(notice))
        if self.autosaver is None:
            log.warning(
                "another window holds the saves of %s: this one plays without saving games in progress",
                self.user_paths.saves_dir,
            )
            notices.append(t("app.saves_in_use"))
        if notices:
            # Long enough to read the saves' notice (as long as a save problem's, start_scene).
            self.notify(" ".join(notices), seconds=14.0 if self.autosaver is None else 8.0)
        if table is not None:
            self.start_at_table(table)
        elif show_start:
            self.show_start()

    # ------------------------------------------------------------------ setup
    def _setup_logging(self) -> None:
        """Log to ``tricktable.log`` in the user's log folder (``game.program.log_setup``);
        ``self.log_file`` is None when that folder cannot be written."""
        self.log_file = attach_log_file(self.user_paths.log_dir)

    def _open_window(self) -> pygame.Surface:
        if self.fullscreen:
            window = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
        else:
            window = pygame.display.set_mode(self._windowed_size, pygame.RESIZABLE)
        pygame.display.set_caption(TITLE)
        icon = resource_path("assets", "icon.png")
        if icon.exists():
            try:
                pygame.display.set_icon(pygame.image.load(str(icon)))
            except pygame.error:
                log.warning("could not load the window icon %s", icon)
        try:
            # Ask the window manager to keep the window at least 800x600; the
            # canvas scaling in _draw still copes if it does not.
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)
                pygame.Window.from_display_module().minimum_size = MIN_WINDOW_SIZE
        except Exception:
            pass
        return window

    # ------------------------------------------------------------------ services
    @property
    def window_size(self) -> tuple[int, int]:
        surface = pygame.display.get_surface()
        return surface.get_size() if surface is not None else self._windowed_size

    @property
    def size(self) -> tuple[int, int]:
        """The size scenes lay out for: the window, but never below 800x600."""
        w, h = self.window_size
        return (max(MIN_WINDOW_SIZE[0], w), max(MIN_WINDOW_SIZE[1], h))

    def card_art(self, width: int) -> CardArt:
        key = (max(8, int(width)), bool(self.settings.four_colour_deck), self.settings.card_back)
        return self._card_arts.get_or_make(key, lambda: CardArt(*key))

    def notify(self, text: str, seconds: float = 4.0, warning: bool = True) -> None:
        """A message across the top of the window, whatever scene is showing."""
        self.toast.show(text, seconds, warning)

    def save_settings(self) -> None:
        set_language(self.settings.language)
        set_display_choices(self.settings.ui_scale_percent, self.settings.large_cards)
        set_felt(self.settings.felt)  # every screen draws the felt afresh as it lays out again below
        self._card_arts.clear()  # the four-colour deck or the card back may have changed
        for scene in list(self.scenes):
            try:
                scene.on_settings_changed()
            except Exception as exc:
                self._scene_failed(scene, exc)
        self._resized()  # the UI scale or card size may have changed: every scene lays out again
        try:
            write_settings(self.settings, self.user_paths)
        except (ConfigError, OSError) as exc:
            log.warning("could not save the settings: %s", exc)
            self.notify(t("app.settings_not_saved", reason=error_words(exc)))

    def quit(self) -> None:
        self.running = False

    # ------------------------------------------------------------------ stop signals
    def catch_stop_signals(self) -> None:
        """End the loop without asking on any of ``STOP_SIGNALS`` (only the main thread may)."""
        for number in STOP_SIGNALS:
            try:
                self._replaced_handlers[number] = signal.signal(number, self._stop_signal_received)
            except (ValueError, OSError) as exc:
                log.warning("cannot catch signal %s: %s", number, exc)

    def _stop_signal_received(self, number: int, _frame: object) -> None:
        # Python runs this in the main thread between two steps of the loop, and
        # the idle wait looks at ``running`` every IDLE_POLL_SECONDS: the loop
        # ends within a frame, and ``run`` writes the last save on its way out.
        self.stopped_by = number
        self.running = False

    def _release_stop_signals(self) -> None:
        """Give the signals back their handlers of before (the default where SDL had its own)."""
        for number, previous in self._replaced_handlers.items():
            try:
                signal.signal(number, previous if callable(previous) or isinstance(previous, int) else signal.SIG_DFL)
            except (ValueError, OSError, TypeError):
                pass
        self._replaced_handlers.clear()

    # ------------------------------------------------------------------ leaving a game
    def leave_warning(self) -> str | None:
        """What leaving now would lose, from the scenes (the first that has something), or None."""
        for scene in reversed(self.scenes):
            warning = scene.leave_warning()
            if warning and self.hosting is not None and scene is self._hosting_scene:
                return t("leave.table_closes")  # the program's server, and the game, end with it
            if warning:
                return warning
        return None

    def request_leave(self, leave: Callable[[], None], leave_label: str) -> None:
        """Run ``leave`` now, or, while a game is in progress, once the player confirms."""
        from game.ui.dialogs.leave_dialog import LeaveDialog

        if self.leaving_asked():
            return  # the question is already on screen
        warning = self.leave_warning()
        if warning is None:
            leave()
            return
        self.push(LeaveDialog(self, warning, leave_label, leave))

    def request_quit(self) -> None:
        """Quit (the menu's Quit, closing the window), asking first while a game is in progress."""
        self.request_leave(self.quit, t("leave.quit"))

    def request_start(self) -> None:
        """Back to the start screen, asking first while a game is in progress."""
        self.request_leave(self.show_start, t("leave.to_start"))

    def leaving_asked(self) -> bool:
        """The "Leave this game?" question is open."""
        from game.ui.dialogs.leave_dialog import LeaveDialog

        return any(isinstance(scene, LeaveDialog) for scene in self.scenes)

    # ------------------------------------------------------------------ scenes
    def top_scene(self) -> Scene | None:
        return self.scenes[-1] if self.scenes else None

    def push(self, scene: Scene) -> None:
        self.scenes.append(scene)
        scene.on_resize(self.size)
        scene.on_enter()

    def pop(self, scene: Scene | None = None) -> None:
        if not self.scenes:
            return
        if scene is None:
            scene = self.scenes[-1]
        if scene in self.scenes:
            self.scenes.remove(scene)
            scene.on_exit()
        self._check_hosting()
        if self.scenes:
            self.scenes[-1].on_enter()

    def replace(self, scene: Scene) -> None:
        """Make ``scene`` the only scene (leaving a game, starting one)."""
        for old in reversed(self.scenes):
            old.on_exit()
        self.scenes = []
        self.push(scene)
        self._check_hosting()

    # ------------------------------------------------------------------ hosting
    def host_for(self, server: HostedServer, scene: Scene) -> None:
        """``server`` runs in this program for ``scene`` (the lobby, then its table) and stops
        when that scene leaves the stack or the program closes."""
        if self.hosting is not None and self.hosting is not server:
            self.stop_hosting()
        self.hosting, self._hosting_scene = server, scene

    def stop_hosting(self) -> None:
        """Stop the program's table server and its advert (returns at once)."""
        server, self.hosting, self._hosting_scene = self.hosting, None, None
        if server is not None:
            server.stop()
            log.info("stopped hosting on port %s", server.port)

    def _check_hosting(self) -> None:
        if self.hosting is not None and self._hosting_scene not in self.scenes:
            self.stop_hosting()

    def open_table(self, session: TableSession, hosted: bool = False) -> Scene:
        """Open the table over ``session``, any ``TableSession`` (a network table's, from the
        lobby). ``hosted``: this program's table server serves it, and goes on while it is open."""
        from game.ui.table.scene import TableScene

        scene = TableScene(self, session)
        if hosted and self.hosting is not None:
            self._hosting_scene = scene
        self._resumed = None
        self.replace(scene)
        log.info("opened a %s table over %s", session.game_def.name, type(session).__name__)
        return scene

    def show_start(self) -> None:
        from game.ui.scenes.start_scene import StartScene

        self.replace(StartScene(self))

    def show_start_after_game(self) -> None:
        """The start screen, reached from a finished game's end screen with nothing focused:
        the player left with Enter, and a hurried second Enter must not start a new game
        at once (Tab, an arrow or a click chooses a control as usual)."""
        from game.ui.scenes.start_scene import StartScene

        start = StartScene(self)
        self.replace(start)
        start.focus.start = start.start_button
        start.focus.focus_nothing()

    def start_at_table(self, plan: TablePlan) -> None:
        """Open at the table with ``plan``'s rules (``python main.py --rules FILE``).

        The seats are the start screen's for that game and number of players
        (it fills them from the last setup: names, human or computer, levels),
        and the start screen stays the scene to go back to. A saved game in
        progress is not replaced without asking, as Start on that screen asks.
        """
        from game.ui.dialogs.leave_dialog import replace_saved_dialog
        from game.ui.scenes.start_scene import StartScene, saved_game_summary

        start = StartScene(self)
        self.replace(start)
        start.set_game(plan.rules.game)
        start.set_players(plan.players)
        seats = start.build_seats()

        def start_new() -> None:
            self.start_match(plan.rules, seats)

        if start.saved_game is None:
            start_new()
            return
        what, _ = saved_game_summary(start.saved_game)
        self.push(replace_saved_dialog(self, what, start_new))

    def load_saved_game(self) -> tuple[SavedGame | None, SaveProblem | None]:
        """The game saved on disk, once the last autosave has been written (see ``game.persistence.savegame``)."""
        from game.session.hints import think_budget

        if self.autosaver is None:
            return None, None  # the saves are another window's
        self.autosaver.flush()
        saved, problem = read_saved_game(self.user_paths, think_budget(self.settings.ai_think_seconds))
        if saved is not None and saved.match.is_over and history_holds(self.user_paths, saved.match):
            self._drop_recorded_save(saved)
            return None, None
        if saved is not None and not saved.match.is_over and history_finished(self.user_paths, saved.match):
            # Continuing it would play and record a game the history holds already.
            log.warning(
                "the saved %s game %d was played to its end and recorded since it was saved: "
                "set aside, not offered to continue",
                saved.match.game,
                saved.match.seed,
            )
            set_aside(save_path(self.user_paths), "finished")
            return None, None
        return saved, problem

    def _drop_recorded_save(self, saved: SavedGame) -> None:
        """A save of a game that ended and is in the history (its removal failed then: a
        read-only saves folder): nothing is left to continue or to record, so it is not
        offered; it is removed if it can be now."""
        log.info(
            "the saved %s game %d had ended and is in the history already: not offered to continue",
            saved.match.game,
            saved.match.seed,
        )
        remove_save(self.user_paths)

    def resume_saved(self, saved: SavedGame) -> None:
        """Open the table on a saved game, where it stands (see ``resume_session``)."""
        self.resume_session(local_session(saved.match, self))

    def resume_session(self, session: TableSession) -> None:
        """Open the table on a session of a saved game, where it stands.

        A save that cannot be continued (the table fails on it before a move is
        made) is set aside like a damaged one and the start screen says why."""
        from game.ui.table.scene import TableScene

        try:
            scene = TableScene(self, session)
        except Exception as exc:
            self._save_failed_to_continue(exc)
            return
        self._resumed = (session, session.position)
        self.replace(scene)
        log.info("continued %s game at action %d", session.game_def.name, session.position[0])

    def _failed_resumed_table(self, scene: Scene) -> bool:
        """Whether ``scene`` is the table of a continued save on which no move was made yet."""
        if self._resumed is None:
            return False
        session, position = self._resumed
        return getattr(scene, "session", None) is session and session.position == position

    def _save_failed_to_continue(self, exc: Exception) -> None:
        """Set the save aside (once: it is gone from its place) and offer a new game, saying why."""
        from game.ui.scenes.start_scene import save_problem_text

        self._resumed = None
        if self.autosaver is not None:
            self.autosaver.flush()
        problem = set_save_aside(self.user_paths, exc)
        self.show_start()
        self.notify(save_problem_text(problem), seconds=14.0)

    def start_match(self, rules: Rules, seats: Sequence[Seat], seed: int | None = None) -> LocalSession:
        if seed is None:
            # The seed is the game number; the UI picks it, the rules never do.
            seed = random.SystemRandom().randrange(1, 2**31)
        from game.session.hints import think_budget
        from game.ui.table.scene import TableScene

        session = new_local_session(rules, seats, seed, self, ai_budget=think_budget(self.settings.ai_think_seconds))
        self._resumed = None
        self.replace(TableScene(self, session))
        log.info("started %s game %d with %s", rules.game, seed, [s.controller for s in seats])
        return session

    # ------------------------------------------------------------------ frame
    def step(self, dt: float, events: Iterable[pygame.event.Event] | None = None, idle_time: float = 0.0) -> bool:
        """Run one frame: events, updates, drawing. Returns False once the app should stop.

        ``idle_time``: seconds the loop slept before this frame because nothing
        moved. The scenes' timers catch up by it before the events are handled
        (nothing was moving, so only timers run), and the frame itself then
        advances by ``dt`` as usual.
        """
        dt = max(0.0, min(MAX_DT, dt))
        if idle_time > 0.0:
            self._update(idle_time)
        if events is None:
            events = pygame.event.get()
        for event in events:
            self._dispatch(event)
            if not self.running:
                return False
        self._update(dt)
        self._draw()
        self._frames += 1
        return self.running

    @property
    def frames_drawn(self) -> int:
        """Frames run since the app opened (the idle benchmark counts them)."""
        return self._frames

    def wake_in(self) -> float | None:
        """How soon any scene (or the app's message) needs a frame without input:
        0 while something animates, None while everything waits for input."""
        soonest = self.toast.wake_in()
        for scene in list(self.scenes):
            try:
                wake = scene.wake_in()
            except Exception as exc:
                self._scene_failed(scene, exc)
                return 0.0
            if wake is not None and (soonest is None or wake < soonest):
                soonest = max(0.0, wake)
        return soonest

    def frame_wait(self) -> float | None:
        """How long the loop may wait for input before the next frame: 0 (draw the
        next frame at full rate), a number of seconds, or None (until input arrives)."""
        if self._frames == 0:
            return 0.0  # the first frame is drawn at once
        return self.wake_in()

    def wake(self) -> None:
        """Run a frame soon, even while the loop sleeps: callable from any thread (a network
        client's ``on_arrival``). pygame's event queue is thread-safe; a wake is posted only
        while none is waiting, so a burst of messages costs one frame."""
        if self._wake_posted:
            return
        self._wake_posted = True
        try:
            pygame.event.post(pygame.event.Event(NETWORK_WAKE))
        except pygame.error:
            self._wake_posted = False  # pygame has closed: there is no loop to wake

    def _dispatch(self, event: pygame.event.Event) -> None:
        if event.type == NETWORK_WAKE:
            self._wake_posted = False  # the frame it asked for is being run; the scenes poll
            return
        if event.type == pygame.QUIT:
            # Closing the window ends a game in progress only once the player
            # confirms; closing it again while asked means "yes, really".
            if self.leaving_asked():
                self.running = False
            else:
                self.request_quit()
            return
        if event.type == pygame.VIDEORESIZE:
            self._resized()
            return
        if event.type == pygame.WINDOWSIZECHANGED:
            self._resized()
            return
        # The rest of a press held across a change of screen (the Enter that closed the
        # score pad, still down when the bidding panel opens) never reaches the new screen.
        fence = self.input_fence
        fence.follow(self.top_scene())
        if not fence.admit(event):
            return
        try:
            self._dispatch_to_scenes(event)
        finally:
            fence.follow(self.top_scene())

    def _dispatch_to_scenes(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_F11:
            self.toggle_fullscreen()
            return
        # Keys show the focus rings (also in dialogs opened later), a click hides them.
        INPUT_MODE.note(event)
        if event.type in MOUSE_EVENTS:
            event = self._to_canvas(event)
        for scene in reversed(list(self.scenes)):
            try:
                used = scene.handle_event(event)
            except Exception as exc:
                self._scene_failed(scene, exc)
                return
            if used or scene.modal:
                return

    def _to_canvas(self, event: pygame.event.Event) -> pygame.event.Event:
        """Mouse positions in scene coordinates (they differ only for a window below 800x600)."""
        if self.window_size == self.size:
            return event
        sx = self.size[0] / max(1, self.window_size[0])
        sy = self.size[1] / max(1, self.window_size[1])
        data = dict(event.dict)
        x, y = data.get("pos", (0, 0))
        data["pos"] = (round(x * sx), round(y * sy))
        if "rel" in data:
            data["rel"] = (round(data["rel"][0] * sx), round(data["rel"][1] * sy))
        return pygame.event.Event(event.type, data)

    def _resized(self) -> None:
        if not self.fullscreen:
            self._windowed_size = self.window_size
        self._canvas = None
        size = self.size
        for scene in list(self.scenes):
            try:
                scene.on_resize(size)
            except Exception as exc:
                self._scene_failed(scene, exc)

    def toggle_fullscreen(self) -> None:
        self.fullscreen = not self.fullscreen
        if self.fullscreen:
            self._windowed_size = self.window_size
        self.window = self._open_window()
        self._resized()

    def _update(self, dt: float) -> None:
        self.toast.update(dt)
        for scene in list(self.scenes):
            if scene not in self.scenes:
                continue
            try:
                scene.update(dt)
            except Exception as exc:
                self._scene_failed(scene, exc)

    def _visible_scenes(self) -> list[Scene]:
        start = 0
        for index, scene in enumerate(self.scenes):
            if scene.opaque:
                start = index
        return self.scenes[start:]

    def _draw(self) -> None:
        window = pygame.display.get_surface()
        if window is None:
            return
        if window.get_size() == self.size:
            target = window
        else:
            if self._canvas is None or self._canvas.get_size() != self.size:
                self._canvas = pygame.Surface(self.size).convert()
            target = self._canvas
        if not self.scenes or not self.scenes[0].opaque:
            target.fill((10, 30, 20))
        for scene in self._visible_scenes():
            try:
                scene.draw(target)
            except Exception as exc:
                self._scene_failed(scene, exc)
                break
        self._draw_toast(target)
        if target is not window:
            pygame.transform.smoothscale(target, window.get_size(), window)
        pygame.display.flip()

    def _draw_toast(self, target: pygame.Surface) -> None:
        if not self.toast.active:
            return
        w, _ = target.get_size()
        rect = pygame.Rect(0, 0, min(w - 40, 900), 56)
        rect.midtop = (w // 2, 12)
        self.toast.draw(target, rect, 20)

    def _scene_failed(self, scene: Scene, exc: BaseException) -> None:
        """Log a scene's exception and tell the player in words, never with a traceback."""
        log.error(
            "error in %s:\n%s",
            type(scene).__name__,
            "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)),
        )
        if self._failed_resumed_table(scene) and isinstance(exc, Exception):
            # The saved game itself cannot go on: failing again and again helps nobody.
            try:
                self._save_failed_to_continue(exc)
                return
            except Exception:
                log.exception("could not set the saved game aside")
        now = time.monotonic()
        self._errors = [stamp for stamp in self._errors if now - stamp < ERROR_WINDOW] + [now]
        where = str(self.user_paths.log_dir)
        if len(self._errors) >= ERROR_LIMIT:
            self._errors.clear()
            self.notify(t("app.error_restart", folder=where), seconds=10.0)
            try:
                self.show_start()
            except Exception:
                log.exception("the start screen failed too")
                self.running = False
            return
        self.notify(t("app.error", folder=where), seconds=8.0)
        # A failing dialog is closed so the scene under it can carry on.
        if self.scenes and scene in self.scenes and scene is not self.scenes[0]:
            self.pop(scene)

    # ------------------------------------------------------------------ loop
    def wait_for_events(self, timeout: float | None) -> list[pygame.event.Event]:
        """The events that arrive within ``timeout`` seconds (None: however long it takes);
        an empty list when the time ran out first."""
        deadline = None if timeout is None else time.perf_counter() + timeout
        while True:
            events = pygame.event.get()
            if events or not self.running:
                return events
            pause = IDLE_POLL_SECONDS
            if deadline is not None:
                left = deadline - time.perf_counter()
                if left <= 0.0:
                    return []
                pause = min(pause, left)
            self.sleep(pause)

    def run_frame(self) -> None:
        """One turn of the window loop: wait as long as the scenes allow, then run one frame."""
        wait = self.frame_wait()
        slept = 0.0
        if wait is not None and wait <= 0.0:
            self.clock.tick(FPS)  # something moves: keep to 60 frames a second
            events = pygame.event.get()
        else:
            began = time.perf_counter()
            events = self.wait_for_events(wait)
            slept = time.perf_counter() - began
        now = time.perf_counter()
        dt = now - self._last_frame - slept
        self._last_frame = now
        self.step(dt, events, idle_time=slept)

    def run(self) -> int:
        # tools/measure_startup.py: write the time of the first frame (only
        # ever to a new file in the data folder, see game.program.startup_probe) and stop.
        probe = probe_file(self.user_paths.data_dir)
        self._last_frame = time.perf_counter()
        try:
            while self.running:
                self.run_frame()
                if probe is not None:
                    if not write_first_frame_time(probe):
                        log.warning("the start-up probe %s could not be written", probe)
                    self.running = False
        finally:
            # Also when Ctrl-C stops the loop: the scenes stop their threads
            # and the last autosave is written before the program ends.
            self.close()
        if self.stopped_by is not None:
            log.info("ended by signal %s; the game in progress is saved", self.stopped_by)
            return SIGNAL_EXIT_BASE + int(self.stopped_by)
        return 0

    def close(self, quit_pygame: bool = True) -> None:
        """Let every scene clean up (stopping worker threads), then close pygame.

        Tools that build several apps in one process pass ``quit_pygame=False``:
        fonts cached by the theme would not survive ``pygame.quit``.
        """
        for scene in reversed(self.scenes):
            try:
                scene.on_exit()
            except Exception:
                log.exception("error while closing %s", type(scene).__name__)
        self.scenes = []
        self.stop_hosting()
        if self.autosaver is not None and not self.autosaver.flush():
            log.warning("the last autosave was still being written when the app closed")
        if self.saves_claim is not None:
            self.saves_claim.release()  # after the last write: another window may take the saves now
        if quit_pygame:
            pygame.quit()
        self._release_stop_signals()


# ``run_app`` opens a resizable "Trick Table" window and runs the loop;
# ``App`` is the object every scene talks to. It keeps the stack of scenes
# (drawn bottom to top, skipping whatever an opaque scene hides; events go to
# the top scene first and travel down while scenes decline them and are not
# modal; every scene updates every frame so the table keeps animating under a
# dialog), the settings and user paths, a cache of card art per width, and the
# sound board that plays the table's effects (``game.ui.audio``).
def run_app(data_dir: str | None = None, size: tuple[int, int] | None = None, table: TablePlan | None = None) -> int:
    """Open the Trick Table window (at the table with ``table``'s rules) and run until it is closed;
    returns the exit code."""
    try:
        app = App(data_dir=data_dir, size=size, table=table, catch_stop_signals=True)
    except pygame.error as exc:
        print(f"Trick Table could not open a window: {exc}")
        return 1
    return app.run()
