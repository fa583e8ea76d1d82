"""The start screen: choose the game, the players and the house rules, then start."""

from __future__ import annotations

# Left panel: the game (every game of the registry, ``all_games()``), the
# number of players (the game's ``player_counts()``: Wizard 3 to 6; Bid Whist
# is always 4 in two teams) and one row per seat with an editable name, a
# human/computer switch and, for a computer, its level (with the seat's team
# in a partnership game, and where the seat sits at the table). The levels offered are the game's own
# (``game.ai.levels``) that a player chooses between: easy, medium, hard and expert;
# the "random" yardstick of the tests and benchmarks is not offered. Right panel: the house-rule
# presets of the bundled ``config/<game>.yaml`` with their descriptions, a
# summary of the rules in play, and "Change rules" for the rule editor. At the
# foot: Settings, Statistics (results and replays of finished games), Quit and Start.
#
# The rules are built exactly as the command line builds them: the file's
# rules, then the preset, then the player's own changes, validated by
# ``make_rules`` for the chosen number of players. If the bundled file cannot
# be read, the warning from ``defaults_used_problem`` is shown (in the player's
# language) and the default rules are used; if the chosen rules do not fit together (say, 20
# Wizard rounds with 4 players), the reason is shown and Start stays disabled
# until it is fixed. Nothing here can crash on a bad file.
#
# Keyboard: Tab/Shift+Tab and the arrows move, Enter/Space choose, typing goes
# to the focused name box; Enter on Start starts.
#
# At a large UI scale the screen grows past the window's height rather than
# keep its 100 % size: it is laid out on a page as tall as it needs at the
# chosen scale (as wide as the window, which still bounds how far it grows),
# and the page scrolls (``PagedScreen``: the wheel, Page Up / Page Down, the
# scrollbar at the right edge, and the focused control kept in view). While
# the screen fits the window, as at 100 %, nothing scrolls and the layout is
# the window's own.
#
# Where each seat sits: the table seats go clockwise from the bottom, where
# the first human sits (seat 1 with no human), exactly as the card table lays
# them out. Each seat row starts with a small map of the table, its seat
# marked, and a word: bottom, left (plays after the bottom seat), across,
# right; in a partnership game in the team's colour, so the partner across
# the table is plain to see.
#
# A game in progress is offered first: when the app finds a saved game
# (``App.load_saved_game``), a bar above the panels says what it is (the
# game, the deal, the players, the scores so far and when it was saved) and
# its Continue button, focused, opens the table where the game stands. A save
# that could not be used (damaged, or from another version of the program)
# was set aside by ``game.persistence.savegame``; the screen says so and where it was
# kept, and a new game can be started as usual. Start with a saved game
# asks first, since the new game's autosave takes the saved game's place.
#
# The screen remembers: Start saves the setup (game, players, names, human or
# computer and level per seat, preset and the rules changed on top of it)
# beside the settings (``game.settings.last_setup.save_last_setup``) and the next run opens
# with it; a file that cannot be used is logged and ignored, and so is a
# changed rule in it that cannot (that rule is the preset's).
#
# "Rules in play" is drawn from the very values Start builds its rules from
# (``rule_values``), and is drawn again whenever they change: as the rule
# editor closes, or a preset or the player count is chosen. While the screen waits it costs
# no CPU: the only thing that moves by itself is a name box's caret, which
# blinks for a few seconds after the last input and then rests, shown.

import logging
import math
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

import pygame

from game.ai import levels as ai_levels
from game.settings.app_settings import LANGUAGES
from game.settings.house_rule_files import (
    ConfigError,
    Preset,
    RuleFile,
    default_rule_file,
    defaults_used_problem,
    load_rule_file,
)
from game.settings.last_setup import LastSetup, load_last_setup, save_last_setup
from game.session.local import local_session
from game.session.session import Seat
from game.session.names import clean_name
from game.rules import GameDef, all_games, get_game
from game.rules.problems import Problem
from game.rules.house_rules import Rules, make_rules
from game.persistence.savegame import SavedGame, SaveProblem
from game.ui import theme
from game.ui.scenes.rules_editor import RulesEditor, rules_problem, value_label
from game.ui.scenes.rules_help_scene import RulesHelpScene
from game.ui.scenes.settings_scene import SettingsScene
from game.ui.seat_names import default_role, role_name, seat_name
from game.ui.art.table_art import draw_felt
from game.ui.dialogs.leave_dialog import replace_saved_dialog
from game.ui.dialogs.score_pad import team_name
from game.ui.text import has_text, problem_words, t, text_in
from game.ui.widgets.button import Button
from game.ui.widgets.controls import Cycler, ListBox, Stepper, TextInput
from game.ui.widgets.focus import Widget
from game.ui.widgets.geometry import measured_room, split_columns, ui_scale, window_scale
from game.ui.widgets.panels import draw_message_bar, draw_panel, panel_content
from game.ui.widgets.page import PagedScreen
from game.ui.widgets.text import draw_text_fit, draw_text_wrapped, fit_wrapped, text_size

if TYPE_CHECKING:
    from game.ui.app import App

# The computer levels a player may choose, weakest first; a game offers those
# of them its registry entry has. New seats start at the default.
PLAYER_LEVELS = ("easy", "medium", "hard", "expert")
DEFAULT_LEVEL = "medium"
NAME_LENGTH = 14
# A name box's caret blinks this long after the last input, then rests (shown),
# so a screen left alone is not redrawn twice a second.
CARET_BLINK_SECONDS = 10.0
CARET_SHOWN = 0.6  # of each one-second blink, the part the caret is shown (see TextInput)

log = logging.getLogger("tricktable.start")


def preset_key(game: str, preset: str) -> str:
    """The catalogue key prefix of a preset of a bundled rule file: ``preset.<rule file>.<preset>``."""
    return f"preset.{get_game(game).config_name}.{preset}"


class GameRules:
    """The presets of one game's bundled rule file, or the defaults with a warning."""

    def __init__(self, game: str, rule_file: RuleFile | None = None) -> None:
        """``rule_file``: a house-rule file the player chose (else the game's bundled one)."""
        self.game = game
        self.base: dict[str, Any] = {}
        self.presets: list[Preset] = []
        # The problem, not its words: the warning is worded in whatever language is chosen when shown.
        self.problem: Problem | None = None
        self.built_in = False
        if rule_file is not None:
            self.base = dict(rule_file.base_rules)
            # A file of rule keys alone (no presets) is one table: its rules as they stand.
            self.presets = list(rule_file.presets.values()) or [Preset(rule_file.path.stem, "", {})]
            return
        try:
            # Read once: load_rule_file checks the file's rules as a whole and every preset.
            rule_file = load_rule_file(default_rule_file(game), game)
            self.base = dict(rule_file.base_rules)
            self.presets = list(rule_file.presets.values())
        except ConfigError as exc:
            self.problem = defaults_used_problem(game, exc)
        # With no usable rule file, one preset stands for the built-in rules.
        self.built_in = not self.presets
        if self.built_in:
            self.presets = [Preset("default", "", {})]

    @property
    def warning(self) -> str | None:
        """Why the bundled rule file is not used, in the player's language; None when it is."""
        return problem_words(self.problem) if self.problem is not None else None

    def name_of(self, preset: Preset) -> str:
        """The preset's name in the player's language (a preset the catalogue does not know keeps its own)."""
        if self.built_in:
            return t("start.preset_default")
        key = f"{preset_key(self.game, preset.name)}.title"
        return t(key) if has_text(key) else preset.name

    def description_of(self, preset: Preset) -> str:
        """The preset's description in the player's language (else the rule file's own words)."""
        if self.built_in:
            return t("start.preset_default_help")
        key = f"{preset_key(self.game, preset.name)}.description"
        return t(key) if has_text(key) else preset.description

    def values(self, preset_index: int) -> dict[str, Any]:
        """The file's rules with the preset applied."""
        preset = self.presets[max(0, min(preset_index, len(self.presets) - 1))]
        return {**self.base, **preset.rules}


def saved_game_summary(saved: SavedGame, now: datetime | None = None) -> tuple[str, list[str]]:
    """The saved game for its bar: the headline (game, deal, when it was saved), then the
    standing of each scoring side (a player, or a team by its players' names) with its score."""
    match = saved.match
    game = match.game_def
    local = saved.saved_at.astimezone()
    today = (now or datetime.now().astimezone()).date()
    clock = local.strftime("%H:%M")
    when = (
        t("start.saved_today", time=clock)
        if local.date() == today
        else t("start.saved_on", date=local.strftime("%Y-%m-%d"), time=clock)
    )
    headline = t(
        "start.continue_what", game=t(game.text("title")), deal=t(game.text("deal")), n=match.deal_number, when=when
    )
    names = [seat_name(seat.name, seat.name_role) for seat in match.seats]
    scores = local_session(match).score_history().final_scores
    sides = [team_name(game, names, side) if game.partnerships else names[side] for side in range(len(scores))]
    return headline, [t("start.continue_score", side=side, score=score) for side, score in zip(sides, scores)]


SCORE_SEPARATOR = " · "


def standings_rows(standings: list[str], width: int, size: int) -> list[list[str]]:
    """The saved game's scores in rows: all on one line when it fits ``width`` at ``size``,
    else rows of three columns (six names as long as a name may be never fit one line)."""
    if text_size(SCORE_SEPARATOR.join(standings), size)[0] <= width:
        return [standings]
    return [standings[start : start + 3] for start in range(0, len(standings), 3)]


def save_problem_text(problem: SaveProblem) -> str:
    """What the player is told about a save that could not be used, in the player's language."""
    kept = problem.kept_as.name if problem.kept_as is not None else "autosave.json"
    reason = problem_words(problem.problem)
    if problem.kind == "unsupported":
        return t("start.save_unsupported", reason=reason, file=kept)
    if problem.kind == "corrupt" and problem.kept_as is not None:
        return t("start.save_corrupt", reason=reason, file=kept)
    return t("start.save_unreadable", reason=reason)


class StartScene(PagedScreen):
    """The first screen; Start calls ``app.start_match(rules, seats)``."""

    opaque = True
    modal = True
    dim_background = False

    def __init__(self, app: App) -> None:
        super().__init__(app)
        # Every registered game, and seat rows for the largest table any of them has.
        self.games = tuple(game.name for game in all_games())
        self.max_seats = max(game.max_players for game in all_games())
        self.game = self.games[0]
        # The player count chosen for each game (kept when switching games back and forth).
        self.player_count = {game.name: game.default_players for game in all_games()}
        self.catalog = {game: GameRules(game) for game in self.games}
        self.preset_index = {game: self._standard_index(game) for game in self.games}
        self.edits: dict[str, dict[str, Any]] = {game: {} for game in self.games}
        self.kinds = ["human"] + ["computer"] * (self.max_seats - 1)
        self.names = [self.default_name(seat) for seat in range(self.max_seats)]
        self.levels = [DEFAULT_LEVEL] * self.max_seats
        self._restore_last_setup()
        self.saved_game = self._load_saved_game()
        self._since_input = 0.0
        self._build_widgets()
        self._refresh_default_names()
        self.relayout()
        self.focus.focus(self.continue_button if self.saved_game is not None else self.start_button)

    def _standard_index(self, game: str) -> int:
        names = [p.name for p in self.catalog[game].presets]
        return names.index("standard") if "standard" in names else 0

    # ------------------------------------------------------------------ state
    @property
    def game_def(self) -> GameDef:
        return get_game(self.game)

    @property
    def players(self) -> int:
        return self.player_count[self.game]

    @property
    def fixed_players(self) -> bool:
        """The game is always played by the same number of players (no stepper)."""
        return len(self.game_def.player_counts()) == 1

    def preset_values(self, game: str) -> dict[str, Any]:
        """Every rule key of ``game``: defaults, then the file and the chosen preset."""
        defaults = {spec.key: spec.default for spec in get_game(game).rule_specs}
        return {**defaults, **self.catalog[game].values(self.preset_index[game])}

    def rule_values(self) -> dict[str, Any]:
        """Every rule key: defaults, then the file and preset, then the player's changes."""
        return {**self.preset_values(self.game), **self.edits[self.game]}

    @property
    def problem(self) -> str | None:
        """Why the chosen rules cannot start a game (kept current by ``_refresh``)."""
        return self._problem

    def build_rules(self) -> Rules | None:
        """The rules Start would use, or None while they do not fit together."""
        if self.problem:
            return None
        try:
            return make_rules(self.game, self.rule_values(), self.players, source=t("rules.source"))
        except Exception:
            return None

    def offered_levels(self) -> list[str]:
        """The levels the chosen game offers a player, weakest first."""
        known = ai_levels(self.game_def)
        return [level for level in PLAYER_LEVELS if level in known]

    def seat_level(self, seat: int) -> str:
        """The level ``seat`` plays at in the chosen game: the one picked if the game has it."""
        offered = self.offered_levels()
        if self.levels[seat] in offered:
            return self.levels[seat]
        if DEFAULT_LEVEL in offered or not offered:
            return DEFAULT_LEVEL
        return offered[0]

    def build_seats(self) -> list[Seat]:
        seats = []
        for seat in range(self.players):
            name = clean_name(self.names[seat], self.default_name(seat))
            controller = "human" if self.kinds[seat] == "human" else f"ai:{self.seat_level(seat)}"
            # A name the player never typed goes with its role, to follow the language later.
            role = self.default_role(seat) if name == self.default_name(seat) else ""
            seats.append(Seat(name, controller, role))
        return seats

    # ------------------------------------------------------------------ default names
    def human_seats(self) -> list[int]:
        return [seat for seat in range(self.players) if self.kinds[seat] == "human"]

    def default_name(self, seat: int) -> str:
        """The name a seat gets until the player types one (see ``game.ui.seat_names``)."""
        return role_name(self.default_role(seat)) or t("start.seat", number=seat + 1)

    def default_role(self, seat: int) -> str:
        return default_role(seat, self.kinds, self.players)

    def _is_default_name(self, name: str) -> bool:
        """True for a name the screen chose (any seat's default, in any language: the language
        may have just changed), not one the player typed."""
        name = name.strip()
        return not name or any(self._is_default_name_in(language, name) for language in LANGUAGES)

    def _is_default_name_in(self, language: str, name: str) -> bool:
        if name == text_in(language, "start.default_human"):
            return True
        if name in (part.strip() for part in text_in(language, "start.computer_names").split(",")):
            return True
        return any(name == text_in(language, "start.default_human_n", number=n) for n in range(1, self.max_seats + 1))

    def _refresh_default_names(self) -> None:
        """Give every seat still on a default name the default that fits the seats now."""
        for seat in range(self.max_seats):
            if self._is_default_name(self.names[seat]):
                name = self.default_name(seat)
                if name != self.names[seat]:
                    self.names[seat] = name
                    box = self.name_inputs[seat]
                    box.text, box.cursor = name, len(name)

    def set_game(self, game: str) -> None:
        self.game = game
        self._refresh_default_names()  # the seat count may change; the boxes are rebuilt below
        self._build_widgets()
        self.relayout()

    def set_players(self, players: int) -> None:
        counts = self.game_def.player_counts()
        self.player_count[self.game] = max(counts[0], min(counts[-1], players))
        self.players_stepper.value = self.players
        self._refresh_default_names()
        self._refresh()
        self.relayout()

    def set_preset(self, index: int) -> None:
        self.preset_index[self.game] = index
        self.edits[self.game] = {}
        self.preset_list.index = index
        self._refresh()

    def start(self) -> None:
        rules = self.build_rules()
        if rules is None:
            self.show_reason(self.start_button.reason or "")
            return
        if self.saved_game is not None and hasattr(self.app, "push"):
            self._ask_to_replace(self.saved_game)
            return
        self._start_new(rules)

    def _start_new(self, rules: Rules) -> None:
        self._remember_setup()
        self.app.start_match(rules, self.build_seats())

    def _ask_to_replace(self, saved: SavedGame) -> None:
        """A new game takes the saved game's place: ask first, the safe answer focused."""

        def start_anyway() -> None:
            rules = self.build_rules()
            if rules is not None:
                self._start_new(rules)

        what, _ = saved_game_summary(saved)
        self.app.push(replace_saved_dialog(self.app, what, start_anyway))

    # ------------------------------------------------------------------ the saved game
    def _load_saved_game(self) -> SavedGame | None:
        """The game in progress the app saved, if any; a save that could not be used is reported."""
        loader = getattr(self.app, "load_saved_game", None)
        if loader is None:
            return None
        saved: SavedGame | None
        saved, problem = loader()
        if problem is not None:
            text = save_problem_text(problem)
            # The log stays English whatever the player reads.
            log.warning("the saved game could not be used (%s): %s", problem.kind, problem.reason)
            self._notify(text, seconds=14.0)
        if saved is not None and saved.match.renamed_seats:
            log.warning(
                "the saved game's names of seats %s could not be used as written: cleaned",
                [seat + 1 for seat in saved.match.renamed_seats],
            )
            self._notify(t("start.names_cleaned"))
        return saved

    def _notify(self, text: str, seconds: float = 8.0) -> None:
        notify = getattr(self.app, "notify", None)
        if notify is not None:
            notify(text, seconds=seconds)

    def continue_game(self) -> None:
        """Open the table on the saved game, where it stands."""
        if self.saved_game is not None:
            self.app.resume_saved(self.saved_game)

    # ------------------------------------------------------------------ where the seats sit
    def bottom_seat(self) -> int:
        """The seat at the bottom of the table: the first human's (as the card table shows it), else seat 1."""
        humans = self.human_seats()
        return humans[0] if humans else 0

    def relative_place(self, seat: int) -> int:
        """``seat``'s place counted clockwise from the bottom seat (0 = the bottom)."""
        return (seat - self.bottom_seat()) % self.players

    def position_key(self, seat: int) -> str:
        """The text key naming where ``seat`` sits, seen from the bottom seat."""
        place, players = self.relative_place(seat), self.players
        if place == 0:
            return "start.pos.bottom"
        if place == 1:
            return "start.pos.left"
        if place == players - 1:
            return "start.pos.right"
        if 2 * place == players:
            return "start.pos.across"
        return "start.pos.top_left" if 2 * place < players else "start.pos.top_right"

    # ------------------------------------------------------------------ the last setup
    def _restore_last_setup(self) -> None:
        """Open with the setup of the last Start, as far as it still fits the games offered."""
        paths = getattr(self.app, "user_paths", None)
        setup = load_last_setup(paths) if paths is not None else None
        if setup is None or setup.game not in self.games:
            return
        self.game = setup.game
        self.player_count[setup.game] = setup.players
        for seat, kind in enumerate(setup.kinds[: self.max_seats]):
            self.kinds[seat] = kind
        for seat, name in enumerate(setup.names[: self.max_seats]):
            self.names[seat] = name[:NAME_LENGTH]
        if setup.renamed:
            log.warning("a name in the last start-screen setup could not be used as written: cleaned")
            self._notify(t("start.names_cleaned"))
        for seat, level in enumerate(setup.levels[: self.max_seats]):
            if level in PLAYER_LEVELS:
                self.levels[seat] = level
        presets = [preset.name for preset in self.catalog[setup.game].presets]
        if setup.preset in presets:
            self.preset_index[setup.game] = presets.index(setup.preset)
        # The player's changes on top of the preset, as the rule editor keeps them: only
        # those that differ from it (a preset may have come to agree since).
        preset = self.preset_values(setup.game)
        self.edits[setup.game] = {key: value for key, value in setup.edited_rules.items() if preset.get(key) != value}

    def current_setup(self) -> LastSetup:
        """The setup on screen, as Start saves it."""
        preset = self.catalog[self.game].presets[self.preset_index[self.game]]
        return LastSetup(
            game=self.game,
            players=self.players,
            names=list(self.names),
            kinds=list(self.kinds),
            levels=list(self.levels),
            preset=preset.name,
            edited_rules=dict(self.edits[self.game]),
        )

    def _remember_setup(self) -> None:
        paths = getattr(self.app, "user_paths", None)
        if paths is None:
            return
        try:
            save_last_setup(self.current_setup(), paths)
        except OSError as exc:  # a read-only disk costs the convenience, never the game
            log.warning("could not save the start-screen setup: %s", exc)

    # ------------------------------------------------------------------ widgets
    def _build_widgets(self) -> None:
        self.game_buttons = {
            game.name: Button(
                (0, 0, 1, 1),
                t(game.text("title")),
                self._game_setter(game.name),
                selected=game.name == self.game,
                sublabel=t(game.text("title") + ".help"),
            )
            for game in all_games()
        }
        counts = self.game_def.player_counts()
        self.players_stepper = Stepper((0, 0, 1, 1), self.players, counts[0], counts[-1], self.set_players)
        self.name_inputs = [
            TextInput(
                (0, 0, 1, 1),
                self.names[i],
                self._name_setter(i),
                max_length=NAME_LENGTH,
                placeholder=t("start.name_placeholder"),
                on_unshowable=lambda: self._notify(t("start.names_cleaned")),
            )
            for i in range(self.max_seats)
        ]
        kinds, kind_labels = self.seat_kind_choices()
        self.kind_cyclers = [
            Cycler(
                (0, 0, 1, 1),
                kinds,
                kinds.index(self.kinds[i]) if self.kinds[i] in kinds else 0,
                self._kind_setter(i),
                labels=kind_labels,
            )
            for i in range(self.max_seats)
        ]
        offered = self.offered_levels()
        self.level_cyclers = [
            Cycler(
                (0, 0, 1, 1),
                offered,
                offered.index(self.seat_level(i)) if offered else 0,
                self._level_setter(i),
                labels=[t(f"level.{level}") for level in offered],
                wrap=False,
            )
            for i in range(self.max_seats)
        ]
        presets = self.catalog[self.game].presets
        self.preset_list = ListBox(
            (0, 0, 1, 1),
            [self.catalog[self.game].name_of(p) for p in presets],
            self.preset_index[self.game],
            self.set_preset,
        )
        self.rules_button = Button((0, 0, 1, 1), t("start.change_rules"), self.open_rules_editor)
        self.help_button = Button((0, 0, 1, 1), t("help.open_start"), self.open_rules_help)
        self.settings_button = Button((0, 0, 1, 1), t("start.settings"), self.open_settings)
        self.stats_button = Button((0, 0, 1, 1), t("start.statistics"), self.open_statistics)
        self.quit_button = Button((0, 0, 1, 1), t("start.quit"), self._quit)
        self.start_button = Button((0, 0, 1, 1), t("start.start"), self.start, kind="primary")
        self.continue_button = Button((0, 0, 1, 1), t("start.continue"), self.continue_game, kind="primary")
        self.continue_button.visible = self.saved_game is not None
        self.host_button = Button((0, 0, 1, 1), t("start.host"), self.open_host)
        self.join_button = Button((0, 0, 1, 1), t("start.join"), self.open_join)
        self._refresh()

    def _game_setter(self, game: str) -> Callable[[], None]:
        return lambda: self.set_game(game)

    def _name_setter(self, seat: int) -> Callable[[str], None]:
        def set_name(text: str) -> None:
            self.names[seat] = text

        return set_name

    def _kind_setter(self, seat: int) -> Callable[[str], None]:
        def set_kind(kind: str) -> None:
            self.kinds[seat] = kind
            self._refresh_default_names()
            self.relayout()  # a computer seat shows its level; a human seat does not

        return set_kind

    def _level_setter(self, seat: int) -> Callable[[str], None]:
        def set_level(level: str) -> None:
            self.levels[seat] = level

        return set_level

    def _refresh(self) -> None:
        self._problem = rules_problem(self.game, self.rule_values(), self.players)
        problem = self._problem
        self.start_button.enabled = problem is None
        self.start_button.reason = t("start.fix_rules", problem=problem) if problem else None
        # The rules in play may have changed without an event reaching this screen (the rule
        # editor's Done): the cached drawing must not keep showing the old ones.
        self.invalidate()

    def _quit(self) -> None:
        quitter = getattr(self.app, "quit", None)
        if quitter is not None:
            quitter()

    def open_rules_editor(self) -> None:
        game = self.game
        base = self.catalog[game].values(self.preset_index[game])

        def done(edits: dict[str, Any]) -> None:
            self.edits[game] = edits
            self._refresh()

        self.app.push(RulesEditor(self.app, game, base, self.edits[game], self.players, done))

    def open_rules_help(self) -> None:
        """How the chosen game is played, under the rules chosen here (as they stand, even
        while they do not fit together yet: the help says what each one means)."""
        rules = self.build_rules() or self.game_def.rules_class(**self.rule_values())
        self.app.push(RulesHelpScene(self.app, self.game_def, rules, self.players))

    def open_settings(self) -> None:
        self.app.push(SettingsScene(self.app))

    def open_host(self) -> None:
        from game.ui.scenes.host_scene import HostScene

        self.app.push(HostScene(self.app))

    def open_join(self) -> None:
        from game.ui.scenes.join_scene import JoinScene  # its network modules load only now

        self.app.push(JoinScene(self.app))

    def seat_kind_choices(self) -> tuple[list[str], list[str]]:
        """What may sit at a seat, and the words for each."""
        return ["human", "computer"], [t("start.human"), t("start.computer")]

    def network_buttons(self) -> list[Button]:
        """The ways into network play beside the title: Host a table and Join a table."""
        return [button for button in (self.host_button, self.join_button) if button.visible]

    def foot_widgets(self) -> list[Widget]:
        """The small controls at the foot's left, in order."""
        return [self.settings_button, self.stats_button, self.quit_button]

    def title_text(self) -> str:
        return t("start.title")

    def subtitle_text(self) -> str:
        return t("start.subtitle")

    def open_statistics(self) -> None:
        from game.ui.scenes.stats_scene import StatsScene

        self.app.push(StatsScene(self.app))

    # ------------------------------------------------------------------ layout
    def layout(self, size: tuple[int, int]) -> None:
        grown_rules: list[int] = []

        def holds(page: tuple[int, int], scale: float) -> bool:
            # On a taller page the seat rows stay whole and the rules in play grow with the
            # factor (within a tenth): their type at the window's own factor, scaled.
            if not grown_rules:
                own = window_scale(size)
                self._place(size, own)
                grown_rules.append(round(self._rules_text_size(own) * 0.9 * scale / own))
            return self._fits(page, scale, grown_rules[0])

        self.scale = self.page_layout(size, lambda: self.room(size), holds)
        self._place(self.page_size, self.scale)
        self.place_scrollbar(size, self.margin, self.scale)

    def room(self, size: tuple[int, int]) -> float:
        """The largest size factor (up to the player's choice) at which this screen still fits.

        Its own layout says: the seat rows keep their full height (they are squeezed
        when the panels run out of room) and the rules in play keep the type size they
        have at the window's own factor (they shrink to fit what room is left), both
        measured by laying the screen out at a factor and looking (``measured_room``).
        """
        own = window_scale(size)
        if ui_scale(size, math.inf) <= own:
            return own  # at 100% there is nothing to measure
        self._place(size, own)
        usual_rules = self._rules_text_size(own)
        return measured_room(size, lambda scale: self._fits(size, scale, usual_rules))

    def _fits(self, size: tuple[int, int], scale: float, usual_rules: int) -> bool:
        """Whether the screen laid out at ``scale`` keeps its seat rows whole and its rules' type."""
        self._place(size, scale)
        seat_rows_whole = self.seats_label.height >= max(18, round(38 * scale))
        return seat_rows_whole and self._rules_text_size(scale) >= usual_rules

    def _place(self, size: tuple[int, int], scale: float) -> None:
        """Lay the screen out at size factor ``scale``."""
        width, height = size
        across = self.across(scale)
        self.margin = margin = max(8, round(24 * across))
        gap = max(6, round(12 * across))
        self.title_rect = pygame.Rect(margin, margin // 2, width - 2 * margin, max(30, round(64 * scale)))
        # The saved game's bar takes the subtitle's place, so the panels below keep their room.
        subtitle_h = 0 if self.saved_game is not None else max(14, round(24 * scale))
        self.subtitle_rect = pygame.Rect(margin, self.title_rect.bottom, width - 2 * margin, subtitle_h)
        foot_h = max(26, round(52 * scale))
        foot = pygame.Rect(margin, height - margin - foot_h, width - 2 * margin, foot_h)
        warning = self.catalog[self.game].warning
        self.warning_rect = pygame.Rect(0, 0, 0, 0)
        panels_top = self.subtitle_rect.bottom + gap
        if warning:
            self.warning_rect = pygame.Rect(margin, panels_top, width - 2 * margin, max(30, round(50 * scale)))
            panels_top = self.warning_rect.bottom + gap
        self.continue_rect = pygame.Rect(0, 0, 0, 0)
        self.continue_text_rect = pygame.Rect(0, 0, 0, 0)
        self.saved_rows: list[list[str]] = []
        if self.saved_game is not None:
            button_w = max(120, round(foot.width * 0.2))
            text_w = width - 2 * margin - 3 * gap - button_w
            self.saved_headline, standings = saved_game_summary(self.saved_game)
            self.saved_rows = standings_rows(standings, text_w, self.score_text_size(scale))
            # A line for the headline and one per row of scores, and the bar's padding.
            bar_h = max(52, round((40 + 22 * len(self.saved_rows)) * scale))
            self.continue_rect = pygame.Rect(margin, panels_top, width - 2 * margin, bar_h)
            panels_top = self.continue_rect.bottom + gap
            inner = self.continue_rect.inflate(-2 * gap, -2 * max(5, gap // 2))
            self.continue_button.set_rect(pygame.Rect(inner.right - button_w, inner.top, button_w, inner.height))
            self.continue_text_rect = pygame.Rect(
                inner.left, inner.top, max(1, inner.width - button_w - gap), inner.height
            )
        panels = pygame.Rect(margin, panels_top, width - 2 * margin, max(40, foot.top - gap - panels_top))
        left_w = round((panels.width - gap) * 0.52)
        self.players_panel = pygame.Rect(panels.left, panels.top, left_w, panels.height)
        self.rules_panel = pygame.Rect(
            self.players_panel.right + gap, panels.top, panels.width - left_w - gap, panels.height
        )
        self._layout_players(panel_content(self.players_panel, True, scale), gap, scale)
        self._layout_rules(panel_content(self.rules_panel, True, scale), gap, scale)
        small = split_columns(pygame.Rect(foot.left, foot.top, round(foot.width * 0.45), foot.height), 3, gap)
        for widget, rect in zip(self.foot_widgets(), small):
            widget.set_rect(rect)
        self._place_network_buttons(gap, scale)
        start_w = max(120, round(foot.width * 0.28))
        self.start_button.set_rect(pygame.Rect(foot.right - start_w, foot.top, start_w, foot.height))
        self.problem_rect = pygame.Rect(
            small[-1].right + gap,
            foot.top,
            max(1, self.start_button.rect.left - gap - small[-1].right - gap),
            foot.height,
        )
        seats: list[Widget] = []
        for i in range(self.players):
            seats += [self.name_inputs[i], self.kind_cyclers[i]]
            if self._shows_level(i):
                seats.append(self.level_cyclers[i])
        widgets: list[Widget] = [self.continue_button] if self.saved_game is not None else []
        widgets += self.network_buttons()
        widgets += [*self.game_buttons.values()]
        if not self.fixed_players:
            widgets.append(self.players_stepper)
        widgets += seats + [
            self.preset_list,
            self.rules_button,
            self.help_button,
            *self.foot_widgets(),
            self.start_button,
        ]
        for i in range(self.max_seats):
            visible = i < self.players
            self.name_inputs[i].visible = visible
            self.kind_cyclers[i].visible = visible
            self.level_cyclers[i].visible = visible and self._shows_level(i)
        self.players_stepper.visible = not self.fixed_players
        self.focus.set_widgets(widgets)

    def _place_network_buttons(self, gap: int, scale: float) -> None:
        """Host and Join side by side at the right of the title band, clear of the title."""
        buttons = self.network_buttons()
        if not buttons:
            return
        band = self.title_rect
        button_h = max(24, min(band.height, round(40 * scale)))
        button_w = min(round(band.width * 0.16), max(110, round(170 * scale)))
        right = band.right
        for button in reversed(buttons):
            button.set_rect(pygame.Rect(right - button_w, band.centery - button_h // 2, button_w, button_h))
            right -= button_w + gap // 2

    def _shows_level(self, seat: int) -> bool:
        """A computer seat has a level to choose when the game offers any."""
        return self.kinds[seat] == "computer" and bool(self.offered_levels())

    def _layout_players(self, content: pygame.Rect, gap: int, scale: float) -> None:
        game_h = max(34, min(round(64 * scale), content.height // 5))
        for button, rect in zip(
            self.game_buttons.values(),
            split_columns(pygame.Rect(content.left, content.top, content.width, game_h), len(self.game_buttons), gap),
        ):
            button.set_rect(rect)
        row_h = max(18, min(round(38 * scale), (content.height - game_h - 3 * gap) // (self.max_seats + 2)))
        self.players_row = pygame.Rect(content.left, content.top + game_h + gap, content.width, row_h)
        label_w = round(content.width * 0.4)
        self.players_stepper.set_rect(
            pygame.Rect(
                content.left + label_w, self.players_row.top, min(round(content.width * 0.3), round(160 * scale)), row_h
            )
        )
        self.seats_label = pygame.Rect(content.left, self.players_row.bottom + gap, content.width, row_h)
        self.seat_rows: list[pygame.Rect] = []
        # Seat label, name, human/computer, and the computer's level.
        # The seat label holds a small map of the table and the seat's place.
        seat_label_w = round(content.width * 0.25)
        name_w = round(content.width * 0.27)
        small_gap = max(3, gap // 2)
        for i in range(self.max_seats):
            row = pygame.Rect(content.left, self.seats_label.bottom + i * (row_h + small_gap), content.width, row_h)
            self.seat_rows.append(row)
            self.name_inputs[i].set_rect(pygame.Rect(row.left + seat_label_w, row.top, name_w, row_h))
            kind_left = self.name_inputs[i].rect.right + small_gap
            kind, level = split_columns(pygame.Rect(kind_left, row.top, row.right - kind_left, row_h), 2, small_gap)
            self.kind_cyclers[i].set_rect(kind)
            self.level_cyclers[i].set_rect(level)

    def _layout_rules(self, content: pygame.Rect, gap: int, scale: float) -> None:
        button_h = max(22, round(40 * scale))
        row_h = max(18, round(30 * scale))
        rows = len(self.preset_list.items)
        # The list scrolls; the rules in play below it (eleven for Bid Whist) need the room more.
        list_h = min(rows * row_h, max(row_h * 3, round(content.height * 0.34)))
        list_h = max(row_h, list_h // row_h * row_h)  # whole rows only: no half-cut preset
        self.preset_label = pygame.Rect(content.left, content.top, content.width, max(14, round(24 * scale)))
        self.preset_list.row_height = row_h
        self.preset_list.set_rect(pygame.Rect(content.left, self.preset_label.bottom + 4, content.width, list_h))
        self.description_rect = pygame.Rect(
            content.left, self.preset_list.rect.bottom + gap // 2, content.width, max(16, round(44 * scale))
        )
        self.rules_button.set_rect(
            pygame.Rect(
                content.left,
                content.bottom - button_h,
                min(content.width, max(140, round(content.width * 0.5))),
                button_h,
            )
        )
        help_left = self.rules_button.rect.right + gap
        self.help_button.set_rect(
            pygame.Rect(help_left, self.rules_button.rect.top, max(1, content.right - help_left), button_h)
        )
        self.summary_rect = pygame.Rect(
            content.left,
            self.description_rect.bottom + gap // 2,
            content.width,
            max(10, self.rules_button.rect.top - gap - self.description_rect.bottom - gap // 2),
        )

    # ------------------------------------------------------------------ events
    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type in (pygame.KEYDOWN, pygame.TEXTINPUT, pygame.MOUSEBUTTONDOWN):
            self._since_input = 0.0  # the caret blinks again while the player is busy here
        used = super().handle_event(event)
        self._refresh()
        return used

    def on_enter(self) -> None:
        self._refresh()

    def on_settings_changed(self) -> None:
        # The language may have changed: build every control again in the new words (the
        # choices live on this scene, not in the controls), and give the seats still on a
        # default name the new language's default. Focus returns to Settings, where it was.
        self._refresh_default_names()
        self._build_widgets()
        self.relayout()
        self.focus.focus(self.settings_button)

    # ------------------------------------------------------------------ drawing
    def update(self, dt: float) -> None:
        caret_was = self._caret_visible()
        self._since_input += dt
        super().update(dt)
        if self._caret_visible() != caret_was:
            self.invalidate()  # the name box caret blinks

    def _caret_visible(self) -> bool:
        focused = self.focus.focused
        return isinstance(focused, TextInput) and focused._blink < CARET_SHOWN

    def wake_in(self) -> float | None:
        """The reason toast's fade, and the caret's next blink while it still blinks."""
        toast = super().wake_in()
        focused = self.focus.focused
        if not isinstance(focused, TextInput):
            return toast
        shown = self._caret_visible()
        if shown and self._since_input >= CARET_BLINK_SECONDS:
            return toast  # the caret rests, shown, until the next input
        blink = focused._blink
        caret = (CARET_SHOWN - blink) if shown else (1.0 - blink)
        return caret if toast is None else min(toast, caret)

    def draw_live(self, surface: pygame.Surface) -> None:
        if self.toast.active:
            self.toast.draw(surface, self.in_window(self.problem_rect), max(13, round(18 * self.scale)))

    def draw_page(self, surface: pygame.Surface) -> None:
        """The whole screen, on the window or on a page taller than it."""
        surface.blit(draw_felt(surface.get_size()), (0, 0))
        scale = self.scale
        title = self._title_band()
        draw_text_fit(surface, self.title_text(), title, round(64 * scale), theme.PANEL_TITLE, bold=True)
        if self.subtitle_rect.height:
            draw_text_fit(surface, self.subtitle_text(), self.subtitle_rect, round(24 * scale), theme.TEXT_DIM)
        warning = self.catalog[self.game].warning
        if warning:
            draw_message_bar(
                surface,
                t("start.config_warning", message=warning),
                self.warning_rect,
                max(13, round(18 * scale)),
                warning=True,
            )
        if self.saved_game is not None:
            self._draw_saved_game(surface, scale)
        draw_panel(surface, self.players_panel, t("start.players_title"), factor=self.scale)
        draw_panel(surface, self.rules_panel, t("start.preset"), factor=self.scale)
        self._draw_players(surface, scale)
        self._draw_rules(surface, scale)
        self.focus.draw(surface)
        self._draw_foot(surface, scale)

    def _title_band(self) -> pygame.Rect:
        """Where the title goes: the title row, kept centred and clear of the buttons beside it."""
        buttons = self.network_buttons()
        if not buttons:
            return self.title_rect
        room = max(1, self.title_rect.right - min(button.rect.left for button in buttons))
        return self.title_rect.inflate(-2 * room, 0)

    @staticmethod
    def score_text_size(scale: float) -> int:
        """The type size of the saved game's scores (the headline's is a little larger)."""
        return round(max(14, round(24 * scale)) * 0.85)

    def _draw_saved_game(self, surface: pygame.Surface, scale: float) -> None:
        """The bar over the panels: the headline, then the scores (one line, or rows of
        three), beside the Continue button."""
        if self.saved_game is None:
            return
        draw_panel(surface, self.continue_rect)
        text = self.continue_text_rect
        rows = self.saved_rows
        head_h = round(text.height * (0.5 if len(rows) == 1 else 0.36))
        size = max(14, round(24 * scale))
        draw_text_fit(
            surface,
            self.saved_headline,
            pygame.Rect(text.left, text.top, text.width, head_h),
            min(size, max(12, head_h - 2)),
            theme.TEXT,
            align="left",
            bold=True,
        )
        row_h = (text.height - head_h) // max(1, len(rows))
        # The type follows the row's height, so the letters stay inside their row.
        row_size = min(self.score_text_size(scale), max(12, row_h - 3))
        for index, row in enumerate(rows):
            band = pygame.Rect(text.left, text.top + head_h + index * row_h, text.width, row_h)
            if len(rows) == 1:
                draw_text_fit(surface, SCORE_SEPARATOR.join(row), band, row_size, theme.TEXT_DIM, align="left")
                continue
            for cell, standing in zip(split_columns(band, 3, max(6, round(12 * scale))), row):
                draw_text_fit(surface, standing, cell, row_size, theme.TEXT_DIM, align="left")

    def _draw_players(self, surface: pygame.Surface, scale: float) -> None:
        size = max(16, round(25 * scale))
        row = self.players_row
        label = pygame.Rect(row.left, row.top, round(row.width * 0.4) - 8, row.height)
        draw_text_fit(surface, t("start.players"), label, size, theme.TEXT, align="left", bold=True)
        draw_text_fit(surface, t("start.seats"), self.seats_label, size, theme.TEXT, align="left", bold=True)
        game = self.game_def
        if self.fixed_players:
            rest = pygame.Rect(label.right + 8, row.top, row.right - label.right - 8, row.height)
            fixed = (
                t("start.players_fixed", players=self.players, teams=game.partnerships)
                if game.partnerships
                else t("start.players_fixed_alone", players=self.players)
            )
            draw_text_fit(surface, fixed, rest, size, theme.TEXT_DIM, align="left")
        if game.partnerships:
            self._draw_team_legend(surface, round(size * 0.8))
        for i in range(self.players):
            seat_row = self.seat_rows[i]
            seat_label = self.seat_label_rect(i)
            colour = theme.TEAM_COLOURS[game.team_of(i)] if game.partnerships else theme.TEXT_DIM
            # The map grows with the row, short of taking the words' room (a narrow window at 200 %).
            side = min(seat_label.height, seat_row.height, round(seat_label.width * 0.35))
            map_rect = pygame.Rect(seat_label.left, seat_row.centery - side // 2, side, side)
            self._draw_seat_map(surface, map_rect, i, colour)
            words = pygame.Rect(
                map_rect.right + 4, seat_row.top, max(1, seat_label.right - map_rect.right - 4), seat_row.height
            )
            draw_text_fit(surface, t(self.position_key(i)), words, round(size * 0.8), colour, align="left", bold=True)

    def seat_label_rect(self, seat: int) -> pygame.Rect:
        """The box left of a seat's name: the table map and the seat's place in words."""
        row = self.seat_rows[seat]
        return pygame.Rect(row.left, row.top, max(1, self.name_inputs[seat].rect.left - row.left - 6), row.height)

    def _draw_seat_map(
        self, surface: pygame.Surface, rect: pygame.Rect, seat: int, colour: tuple[int, int, int]
    ) -> None:
        """The table seen from above, every seat a dot where the card table puts it, ``seat`` marked."""
        centre = rect.center
        dot = max(2, rect.width // 9)
        radius = max(4, rect.width // 2 - dot - 1)  # the marked dot stays inside the row
        pygame.draw.circle(surface, theme.PANEL_EDGE, centre, radius, width=1)
        game = self.game_def
        for other in range(self.players):
            # The card table's convention: the bottom seat at 90 degrees, then clockwise.
            angle = math.radians(90 + self.relative_place(other) * 360 / self.players)
            point = (round(centre[0] + math.cos(angle) * radius), round(centre[1] + math.sin(angle) * radius))
            if other == seat:
                # The seat itself: larger and ringed (gold when there are no team colours).
                pygame.draw.circle(surface, colour if game.partnerships else theme.ACCENT, point, dot + 1)
                pygame.draw.circle(surface, theme.TEXT, point, dot + 2, width=1)
            else:
                shade = theme.TEAM_COLOURS[game.team_of(other)] if game.partnerships else theme.TEXT_DIM
                pygame.draw.circle(surface, shade, point, max(1, dot - 1))

    def _draw_team_legend(self, surface: pygame.Surface, size: int) -> None:
        """Right of the "Seats" heading: which colour is which team."""
        game = self.game_def
        teams = sorted({game.team_of(seat) for seat in range(self.players)})
        heading = self.seats_label
        area = pygame.Rect(heading.centerx, heading.top, heading.width // 2, heading.height)
        for team, rect in zip(teams, split_columns(area, len(teams), 6)):
            dot = max(3, rect.height // 6)
            pygame.draw.circle(surface, theme.TEAM_COLOURS[team], (rect.left + dot, rect.centery), dot)
            draw_text_fit(
                surface,
                t("start.team", team=chr(ord("A") + team)),
                rect.inflate(-(3 * dot), 0).move(3 * dot // 2, 0),
                size,
                theme.TEAM_COLOURS[team],
                align="left",
                bold=True,
            )

    def _draw_rules(self, surface: pygame.Surface, scale: float) -> None:
        size = max(16, round(24 * scale))
        game_rules = self.catalog[self.game]
        preset = game_rules.presets[self.preset_index[self.game]]
        draw_text_wrapped(
            surface,
            game_rules.description_of(preset),
            self.description_rect,
            size,
            theme.TEXT,
            align="left",
            valign="center",
        )
        head = self._rules_head(size)
        draw_text_fit(surface, t("start.rules_now"), head, size, theme.ACCENT, align="left", bold=True)
        chunks, rects = self._rules_columns(head, scale)
        rule_size = self._rules_text_size(scale)
        for chunk, rect in zip(chunks, rects):
            draw_text_wrapped(surface, chunk, rect, rule_size, theme.TEXT_DIM, align="left")
        draw_text_fit(surface, t("start.preset_list"), self.preset_label, size, theme.TEXT, align="left", bold=True)

    def _rules_head(self, size: int) -> pygame.Rect:
        """Where "Rules in play" goes, at the top of the summary, for text of ``size``."""
        summary = self.summary_rect
        return pygame.Rect(summary.left, summary.top, summary.width, min(summary.height, round(size * 1.3)))

    def _rules_columns(self, head: pygame.Rect, scale: float) -> tuple[list[str], list[pygame.Rect]]:
        """The rules in play, one line each, split into the columns under ``head`` and those columns."""
        values = self.rule_values()
        parts = []
        for spec in self.game_def.rule_specs:
            line_key = "start.rule_line_edited" if spec.key in self.edits[self.game] else "start.rule_line"
            parts.append(
                t(
                    line_key,
                    label=t(f"rule.{spec.key}.label"),
                    value=value_label(self.game, spec, values[spec.key], self.players),
                )
            )
        summary = self.summary_rect
        body = pygame.Rect(summary.left, head.bottom + 2, summary.width, max(1, summary.bottom - head.bottom - 2))
        # Bid Whist has eleven rules: two columns keep them at a readable size,
        # both in the one size at which each column fits.
        columns = 2 if len(parts) > 4 else 1
        per_column = (len(parts) + columns - 1) // columns
        rects = split_columns(body, columns, max(6, round(12 * scale)))
        chunks = ["\n".join(parts[index * per_column : (index + 1) * per_column]) for index in range(columns)]
        return chunks, rects

    def _rules_text_size(self, scale: float) -> int:
        """The one type size at which every column of the rules in play fits, at factor ``scale``."""
        size = max(16, round(24 * scale))
        chunks, rects = self._rules_columns(self._rules_head(size), scale)
        return min(
            fit_wrapped(chunk, rect.width, rect.height, round(size * 0.9))[0] for chunk, rect in zip(chunks, rects)
        )

    def _draw_foot(self, surface: pygame.Surface, scale: float) -> None:
        rect = self.problem_rect
        size = max(13, round(18 * scale))
        if self.toast.active:
            return  # drawn live, over the cached screen
        problem = self.problem
        hint = self.focus.hint()
        if problem:
            draw_message_bar(surface, t("start.fix_rules", problem=problem), rect, size, warning=True)
        elif hint:
            draw_message_bar(surface, hint, rect, size)
        else:
            draw_text_fit(surface, t("start.keys"), rect, size, theme.TEXT_DIM)
