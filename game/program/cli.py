"""The command line: argument parsing and the headless commands."""

from __future__ import annotations

# ``python main.py`` opens the window (with ``--rules FILE``, ``--preset NAME``
# or ``--game NAME`` straight at the table); ``simulate`` plays whole games between
# computer players and prints a summary; ``replay FILE [--game N]`` opens the
# window on a recorded game in the replay viewer, and ``replay --check`` replays
# history files through the engine. Errors a user can cause (a bad rules file, an unreadable
# history) print one clear line and exit with status 2, never a traceback.
#
# Every game the registry knows can be simulated: the choices of ``--game``,
# the default number of players, the computer levels, the teams and the shape
# of the summary (contracts per team, or predictions per seat) all come from
# the game's ``GameDef``.

import argparse
import contextlib
import secrets
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from game.ai import levels as ai_levels
from game.persistence.file_lock import FileBusyError
from game.persistence.history_files import HistoryWriter
from game.program.log_setup import log_for_command
from game.program.serve_command import add_serve_command, run_serve
from game.rules import GameDef, GameEvent, RuleConfigError, all_games, game_names, get_game
from game.rules.actions import BidMode
from game.rules.events import BidWhistHandScored, GameOver, WizardHandScored
from game.session.match import Match, Seat
from game.settings.house_rule_files import ConfigError, resolve_rules
from game.settings.paths import UserPaths, check_data_dir

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def _player_counts_help() -> str:
    """The ``--players`` help: each registered game's table sizes."""
    counts = [
        f"{game.name} {game.min_players}"
        if game.min_players == game.max_players
        else f"{game.name} {game.min_players} to {game.max_players}"
        for game in all_games()
    ]
    return f"number of players ({'; '.join(counts)}; default: the game's usual table)"


def _all_levels() -> list[str]:
    """Every computer level of any game, in the registry's order, for the help text."""
    return list(dict.fromkeys(level for game in all_games() for level in ai_levels(game)))


def _data_dir_option(text: str) -> str:
    """``--data-dir``: any folder name but an empty one (see ``game.settings.paths.check_data_dir``)."""
    try:
        return check_data_dir(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="main.py", description="Trick Table: Bid Whist and Wizard.")
    parser.add_argument(
        "--data-dir",
        metavar="DIR",
        type=_data_dir_option,
        help="write every file (settings, histories, logs) under DIR instead of the user folders",
    )
    parser.add_argument(
        "--self-test",
        action="store_true",
        help="play a short game of each game offscreen in a temporary folder, check its history, "
        "print one line (with --data-dir: with the settings found there, read only; "
        "nothing there is changed)",
    )
    parser.add_argument("--size", metavar="WxH", help="initial window size, e.g. 1280x720")
    # The window's own --game, --rules and --preset open it straight at the
    # table; their dests differ from the subcommands' options of those names.
    parser.add_argument(
        "--game",
        dest="table_game",
        choices=game_names(),
        help="open the window at the table of this game (default: the game of --rules, else the one last set up)",
    )
    parser.add_argument(
        "--rules",
        dest="table_rules",
        metavar="FILE.yaml",
        help="open the window at the table with these house rules: just rule keys "
        "(target_score: 5) or the keys game, rules and presets",
    )
    parser.add_argument(
        "--preset",
        dest="table_preset",
        metavar="NAME",
        help="open the window at the table with this preset of the rules file (default file: the game's bundled one)",
    )
    commands = parser.add_subparsers(dest="command")

    sim = commands.add_parser("simulate", help="play complete games between computer players")
    sim.add_argument("--game", required=True, choices=game_names())
    sim.add_argument("--players", type=int, help=_player_counts_help())
    sim.add_argument("--games", type=int, required=True, metavar="N")
    sim.add_argument("--seed", type=int, metavar="S", help="seed of the first game (game i uses S + i)")
    sim.add_argument("--rules", metavar="FILE.yaml", help="a house-rule file (default: the bundled one)")
    sim.add_argument("--preset", metavar="NAME", help="a named preset of the rules file")
    sim.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        dest="overrides",
        help="override one house rule (repeatable)",
    )
    sim.add_argument(
        "--ai",
        default="medium",
        metavar="LEVEL[,LEVEL...]",
        help=f"computer level for every seat, or one per seat; levels: {', '.join(_all_levels())}",
    )
    sim.add_argument(
        "--history",
        metavar="OUT.jsonl",
        help="write every game to this hand-history file as it finishes (the file is replaced; "
        "its folder must exist; while a run writes it, another run that would replace it "
        "is refused)",
    )
    sim.add_argument(
        "--append",
        action="store_true",
        help="add the games to the end of the --history file instead of replacing it (runs at "
        "the same time take turns: every game is written whole)",
    )
    sim.add_argument("--data-dir", metavar="DIR", dest="sub_data_dir", type=_data_dir_option, help=argparse.SUPPRESS)

    replay = commands.add_parser(
        "replay",
        help="watch a recorded game in the replay viewer, or check hand-history files against the engine (--check)",
    )
    replay.add_argument("file", metavar="FILE", nargs="?", help="the hand-history file to watch")
    replay.add_argument(
        "--game",
        type=int,
        default=1,
        metavar="N",
        help="which game of FILE to watch, counting from 1 (default: 1); a damaged line "
        "is named and skipped, not counted",
    )
    replay.add_argument(
        "--check",
        metavar="FILE",
        nargs="+",
        help="replay every line of each FILE through the engine and report each game by its "
        "line number: exit 0 if every game agrees, 1 if any disagrees, 2 if any line or "
        "file cannot be read (2 wins when both happen)",
    )
    replay.add_argument("--data-dir", metavar="DIR", dest="sub_data_dir", type=_data_dir_option, help=argparse.SUPPRESS)
    add_serve_command(commands)
    return parser


def main(argv: Sequence[str] | None = None, *, log_to_user_folder: bool = False) -> int:
    """Run the command line ``argv``; the exit status.

    ``log_to_user_folder``: this is the program itself (``game.program.entry``), so
    its log goes to the log file of the user's (or ``--data-dir``'s) folder;
    a caller that runs a command from Python code keeps its own logging.
    """
    args = build_parser().parse_args(argv)
    data_dir = getattr(args, "sub_data_dir", None) or args.data_dir
    # The self-test keeps its log in its own temporary folder: it writes nothing to the player's.
    if log_to_user_folder and not (args.self_test and args.command is None):
        log_for_command(UserPaths.from_data_dir(data_dir).log_dir, headless=args.command is not None)
    if (args.command or args.self_test) and _table_options(args):
        print(
            "error: --game, --rules and --preset before a command are for the window; "
            "give a command its own options after its name",
            file=sys.stderr,
        )
        return EXIT_USAGE
    if args.command == "simulate":
        return run_simulate(args)
    if args.command == "serve":
        return run_serve(args, data_dir)
    if args.command == "replay":
        if args.check:
            return run_replay_check(args.check + ([args.file] if args.file else []))
        return run_replay_viewer(args.file, args.game, data_dir, _parse_size(args.size))
    if args.self_test:
        from game.program.self_test import run_self_test

        return run_self_test(data_dir)
    return run_window(args, data_dir)


def _table_options(args: argparse.Namespace) -> bool:
    """The window was asked to open at the table (``--game``, ``--rules`` or ``--preset``)."""
    return any(value is not None for value in (args.table_game, args.table_rules, args.table_preset))


def run_window(args: argparse.Namespace, data_dir: str | None) -> int:
    """Open the window: at the start screen, or straight at the table with ``--game``/``--rules``/``--preset``.

    The table's rules are worked out before the window opens, so a bad rules
    file is one line on stderr and exit status 2 (``game.program.table_launch``).
    """
    from game.program.table_launch import plan_table

    plan = None
    if _table_options(args):
        try:
            plan = plan_table(UserPaths.from_data_dir(data_dir), args.table_game, args.table_rules, args.table_preset)
        except ConfigError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return EXIT_USAGE
    from game.ui.app import run_app

    return run_app(data_dir=data_dir, size=_parse_size(args.size), table=plan)


def _parse_size(text: str | None) -> tuple[int, int] | None:
    if not text:
        return None
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        print(f"--size: expected WIDTHxHEIGHT such as 1280x720, not {text!r}", file=sys.stderr)
        raise SystemExit(EXIT_USAGE) from None
    return width, height


# ---------------------------------------------------------------------- simulate
@dataclass
class SimulationSummary:
    """What a run of simulated games adds up to, gathered from the engine's events.

    Every game reports wins and mean final scores per scoring side (team or
    seat); a contract game adds its contracts by mode and its redeals, a
    prediction game how often a prediction was exact.
    """

    game: GameDef
    players: int
    levels: list[str]
    games: int = 0
    wins: Counter[int] = field(default_factory=Counter)  # side -> games won (a shared win counts for each)
    final_totals: list[int] = field(default_factory=list)  # per side, the sum of final scores
    bids_hit: int = 0
    bids_made: int = 0
    contracts: Counter[tuple[str, str]] = field(default_factory=Counter)  # (mode label, "made"/"set") -> count
    redeals: int = 0

    def add(self, events: Sequence[GameEvent]) -> None:
        """Count one finished game from its full event stream."""
        self.games += 1
        for event in events:
            if isinstance(event, GameOver):
                self.wins.update(event.winners)
                if not self.final_totals:
                    self.final_totals = [0] * len(event.final_scores)
                for side, score in enumerate(event.final_scores):
                    self.final_totals[side] += score
            elif isinstance(event, WizardHandScored):
                self.bids_made += len(event.bids)
                self.bids_hit += sum(bid == taken for bid, taken in zip(event.bids, event.tricks_won))
            elif isinstance(event, BidWhistHandScored):
                if event.contract is None:
                    self.redeals += 1
                else:
                    outcome = "made" if event.made else "set"
                    self.contracts[(BidMode(event.contract.mode).label, outcome)] += 1

    def _mean(self, side: int) -> float:
        return self.final_totals[side] / self.games if self.games and self.final_totals else 0.0

    def lines(self) -> list[str]:
        name = self.game.name
        out = [f"{name}: {self.games} games, {self.players} players, computer levels {','.join(self.levels)}"]
        if self.game.adapter.declares_contract:
            for team in range(self.game.score_sides(self.players)):
                seats = " and ".join(str(seat) for seat in self.game.team_members(team, self.players))
                out.append(
                    f"  team {team} (seats {seats}): {self.wins[team]} wins, mean final score {self._mean(team):.2f}"
                )
            for mode in BidMode:
                made, set_ = self.contracts[(mode.label, "made")], self.contracts[(mode.label, "set")]
                out.append(f"  {mode.label} contracts: {made + set_} played, {made} made, {set_} set")
            out.append(f"  redeals: {self.redeals}")
        else:
            for seat in range(self.players):
                out.append(
                    f"  seat {seat} ({self.levels[seat]}): {self.wins[seat]} wins, "
                    f"mean final score {self._mean(seat):.1f}"
                )
            rate = self.bids_hit / self.bids_made if self.bids_made else 0.0
            out.append(f"  bid-hit rate: {rate:.1%} ({self.bids_hit} of {self.bids_made} bids)")
        return out


def _seat_levels(game: GameDef, text: str, players: int) -> list[str]:
    levels = [part.strip() for part in text.split(",")]
    if len(levels) == 1:
        levels *= players
    if len(levels) != players:
        raise ValueError(f"--ai: give one level for every seat or {players} levels, not {len(levels)}")
    known = ai_levels(game)
    unknown = [level for level in levels if level not in known]
    if unknown:
        raise ValueError(f"--ai: unknown level {unknown[0]!r}; known levels: {', '.join(known)}")
    return levels


def run_simulate(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    players = args.players or game.default_players
    try:
        rules = resolve_rules(game.name, args.rules, args.preset, args.overrides, players=players)
        levels = _seat_levels(game, args.ai, players)
        if args.games < 1:
            raise ValueError("--games: must be at least 1")
    except (ConfigError, RuleConfigError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    first_seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    seats = [Seat(f"{level.title()} {seat + 1}", f"ai:{level}") for seat, level in enumerate(levels)]
    summary = SimulationSummary(game, players, levels)
    # The output is checked (and started) before the first game is played, so
    # a bad path costs nothing, and every game goes to the file as it
    # finishes: memory stays flat and a killed run keeps the games it played.
    if args.append and not args.history:
        print("error: --append adds to the --history file: give that file too", file=sys.stderr)
        return EXIT_USAGE
    try:
        writer = open_history_output(args.history, append=args.append) if args.history else None
    except (OSError, ValueError) as exc:
        print(f"error: {_history_problem(args.history, exc, args.append)}", file=sys.stderr)
        return EXIT_USAGE
    with writer or contextlib.nullcontext():
        for index in range(args.games):
            match = Match(rules, seats, first_seed + index)
            match.play_out()
            summary.add(match.events)
            if writer is None:
                continue
            try:
                writer.append(match.history())
            except OSError as exc:
                print(
                    f"error: {_history_problem(args.history, exc, args.append)} after {writer.games} games "
                    f"(those are in the file)",
                    file=sys.stderr,
                )
                return EXIT_USAGE
    print(f"seed {first_seed}")
    print("\n".join(summary.lines()))
    return EXIT_OK


# How often a simulation's history file is flushed to the disk itself: the
# operating system already holds every finished game (a killed run loses
# none); this bounds what a power cut can take without an fsync per game.
HISTORY_SYNC_SECONDS = 1.0


def open_history_output(path: str, append: bool = False) -> HistoryWriter:
    """The history file of ``simulate --history``, started empty (``append``: kept, games added).

    A run that replaces the file holds its lock until the last game is
    written, so a second run on the same file is refused here, before it
    plays (``FileBusyError``), rather than emptying the first one's games;
    appending runs take turns game by game (``HistoryWriter``).

    The folder must exist already (it is never created behind the user's
    back); ``ValueError`` for a path that cannot be a history file,
    ``OSError`` when the file cannot be written.
    """
    target = Path(path)
    folder = target.parent
    if not folder.exists():
        raise ValueError(f"the folder {folder} does not exist; create it first or choose another place")
    if not folder.is_dir():
        raise ValueError(f"{folder} is not a folder")
    if target.is_dir():
        raise ValueError("that is a folder; give the name of a file such as games.jsonl")
    return HistoryWriter(target, replace=not append, sync_seconds=HISTORY_SYNC_SECONDS)


def _history_problem(path: str, exc: Exception, append: bool = False) -> str:
    if isinstance(exc, FileBusyError):
        also = "" if append else ", or add --append to add this run's games to it"
        return (
            f"cannot write {path}: another Trick Table run is writing it; wait for that run to end "
            f"or choose another file{also}"
        )
    if isinstance(exc, OSError):
        return f"cannot write {path}: {exc.strerror or exc}"
    return f"--history {path}: {exc}"


# ---------------------------------------------------------------------- replay
def run_replay_viewer(path: str | None, number: int, data_dir: str | None, size: tuple[int, int] | None) -> int:
    """Open the window on game ``number`` of ``path`` in the replay viewer.

    The game is read and replayed through the engine before any window
    opens, so a missing file, a damaged line or a game the engine refuses is
    one clear line on stderr (exit 2), never an empty window or a traceback.
    The player opened a file, not the game: closing the viewer (its Close
    button, Esc or the window's close) ends the program.
    """
    from game.persistence.history_codec import HistoryError
    from game.persistence.replay_timeline import ReplayError, ReplayTimeline, load_recorded_game

    if not path:
        print("error: replay: give a hand-history FILE to watch, or --check FILE... to check files", file=sys.stderr)
        return EXIT_USAGE
    skipped: list[HistoryError] = []
    try:
        timeline = ReplayTimeline(load_recorded_game(path, number, on_damage=skipped.append))
    except ReplayError as exc:
        print(f"error: cannot replay {path} game {number}: {exc}", file=sys.stderr)
        return EXIT_USAGE
    for damage in skipped:
        # Named, never fatal: the games after a damaged line are still there to watch.
        print(f"warning: {damage}; skipped (it is not counted as a game)", file=sys.stderr)
    import pygame

    from game.ui.app import App
    from game.ui.scenes.replay_scene import ReplayScene

    try:
        app = App(data_dir=data_dir, size=size, show_start=False, catch_stop_signals=True)
    except pygame.error as exc:
        print(f"Trick Table could not open a window: {exc}")
        return EXIT_FAILED
    app.push(ReplayScene(app, timeline, number))
    return app.run()


def run_replay_check(paths: Sequence[str]) -> int:
    """``replay --check``: every line of every file accounted for (``game.persistence.replay_check``)."""
    from game.persistence.replay_check import run_check

    return run_check(paths, sys.stdout, sys.stderr)
