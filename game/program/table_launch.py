"""Opening the window straight at the table: ``python main.py --rules FILE --preset NAME --game NAME``.

``plan_table`` works out, before any window opens, which game is played,
by how many players and with which rules, so that a bad rules file is one
clear message on the terminal (the command line exits with status 2)
rather than a window that opens only to complain.
"""

from __future__ import annotations

# The game is the one named by ``--game``, else the one the rules file names,
# else the one last set up on the start screen, else the registry's first.
# The number of players is the last setup's when it was for the same game,
# else the game's usual table; the seats themselves (names, human or
# computer, levels) are the start screen's, which the window fills in from
# the same last setup (``App.start_at_table``). The rules are built exactly
# as ``simulate`` builds them (``game.settings.house_rule_files.resolve_rules``): the file's
# rules, then the preset, checked for that number of players.

from dataclasses import dataclass
from pathlib import Path

from game.rules import game_names, get_game
from game.rules.house_rules import Rules
from game.settings.house_rule_files import load_rule_file, resolve_rules
from game.settings.last_setup import load_last_setup
from game.settings.paths import UserPaths


@dataclass(frozen=True)
class TablePlan:
    """The rules a game opened from the command line is played with, and its number of players."""

    rules: Rules
    players: int


def plan_table(
    user_paths: UserPaths, game: str | None = None, rules_file: str | Path | None = None, preset: str | None = None
) -> TablePlan:
    """The game the window should open at; ``ConfigError`` when the rules cannot be used."""
    setup = load_last_setup(user_paths)
    if game is None and rules_file is not None:
        game = load_rule_file(rules_file).game  # the file names its game, or the error asks for --game
    if game is None:
        game = setup.game if setup is not None else game_names()[0]
    if setup is not None and setup.game == game:
        players = setup.players
    else:
        players = get_game(game).default_players
    return TablePlan(resolve_rules(game, rules_file, preset, players=players), players)
