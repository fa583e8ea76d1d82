"""Computer players: stateless objects that choose a seat's action from its view alone.

Each game names its levels' factories in its ``GameDef.ai_levels``; ``make_player`` builds one.
"""

from __future__ import annotations

# A computer player is a stateless object with one pure method,
# ``choose(view, rng) -> Action``: the decision of the seat whose
# ``PlayerView`` it is given, drawing any randomness from ``rng`` alone. It
# never sees the full state, so it cannot peek at hidden cards, and since it
# keeps nothing between calls the same view and the same RNG state always give
# the same action, on any thread.
#
# Which players a game has is the game's business: its ``GameDef.ai_levels``
# maps each level name to the import path (``"package.module:factory"``) of a
# factory taking no arguments. ``make_player`` resolves that path, so a new
# game, or a new level of an existing one, registers its players without any
# edit here; ``levels`` lists a game's levels for the command line and the
# menus.

import importlib
import inspect
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from game.ai.budget import SearchBudget
from game.rules import Action, GameDef, PlayerView

if TYPE_CHECKING:
    from game.ai.search_pimc import SearchResult

__all__ = ["ComputerPlayer", "Decision", "RandomPlayer", "levels", "make_player"]


class ComputerPlayer(Protocol):
    def choose(self, view: PlayerView, rng: random.Random) -> Action: ...


@dataclass(frozen=True)
class Decision:
    """A player's action and, when it searched, what the search found (the
    hints read the expected tricks from it). A player that can explain itself
    so offers ``decide(view, rng) -> Decision`` beside ``choose``, and one
    that lays cards aside ``discard_plans(view)``, the sets it weighs (the
    hints name the whole set); the hints ask any other player for its action
    alone."""

    action: Action
    search: SearchResult[Any] | None


class RandomPlayer:
    """Plays a uniformly random legal action: a yardstick for tests and benchmarks.
    It fits every game, so every game may register it."""

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        return rng.choice(view.legal_actions)


def levels(game_def: GameDef) -> tuple[str, ...]:
    """The computer levels ``game_def`` offers, in the registry's order."""
    return tuple(game_def.ai_levels)


def make_player(game_def: GameDef, level: str, budget: SearchBudget | None = None) -> ComputerPlayer:
    """The computer player of ``game_def`` at ``level``.

    ``budget`` reaches the players that search (their factory takes a
    ``budget`` argument); the others ignore it. Raises ``ValueError`` naming
    the game's known levels when it has no such level, and when the
    registry's import path for it is not "module:factory"."""
    try:
        path = game_def.ai_levels[level]
    except KeyError:
        raise ValueError(
            f"unknown computer level {level!r} for {game_def.name}; known levels: {', '.join(levels(game_def))}"
        ) from None
    module_name, _, factory_name = path.partition(":")
    if not module_name or not factory_name:
        raise ValueError(f"the {level!r} player of {game_def.name} is registered as {path!r}, not as 'module:factory'")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name != module_name:
            raise  # the player's module exists but is broken: show the real error
        raise ValueError(
            f"the {level!r} player of {game_def.name} is registered as {path!r}, but there is no module {module_name!r}"
        ) from None
    factory = getattr(module, factory_name, None)
    if factory is None:
        raise ValueError(
            f"the {level!r} player of {game_def.name} is registered as {path!r}, "
            f"but {module_name} has no {factory_name!r}"
        )
    if budget is not None and "budget" in inspect.signature(factory).parameters:
        player: ComputerPlayer = factory(budget=budget)
    else:
        player = factory()
    return player
