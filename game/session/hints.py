"""Hints, computed like a computer player's decision: off the frame loop."""

from __future__ import annotations

# The session takes a snapshot on the main thread (``HintRequest``: the human's
# own view, an RNG seed fixed by the position, and the search budget from the
# settings) and hands it to the same AI runner as the computer players, so the
# window keeps drawing while the search thinks. The search module is imported
# when a hint is first asked for, not when the table opens, and a session may be
# given its own hint function (tests do). ``think_budget`` is the search budget
# the settings' "Computer thinking time" stands for.

import random
from dataclasses import dataclass
from typing import Protocol
from collections.abc import Mapping

from game.ai.budget import DEFAULT_BUDGET, SearchBudget
from game.rules import Action, GameDef, PlayerView

Position = tuple[int, int]  # ``Match.position_key()``


class HintLike(Protocol):
    """What ``game.ai.hints.hint_for`` returns: the action, a reason's text key and its parameters."""

    @property
    def action(self) -> Action: ...

    @property
    def reason_key(self) -> str: ...

    @property
    def params(self) -> Mapping[str, int | str]: ...


class HintFunction(Protocol):
    def __call__(
        self, game_def: GameDef, view: PlayerView, rng: random.Random, budget: SearchBudget | None = None
    ) -> HintLike: ...


def lazy_hint_for(
    game_def: GameDef, view: PlayerView, rng: random.Random, budget: SearchBudget | None = None
) -> HintLike:
    """``game.ai.hints.hint_for``, imported when the first hint is computed (on the
    runner's thread), so a table where nobody asks never loads the search."""
    from game.ai.hints import hint_for

    return hint_for(game_def, view, rng, budget)


def think_budget(seconds: float) -> SearchBudget:
    """The search budget of the settings' thinking time: the calibrated number of
    simulations, and at most ``seconds`` of thought."""
    return SearchBudget(max_simulations=DEFAULT_BUDGET.max_simulations, max_seconds=seconds)


@dataclass(frozen=True)
class HintRequest:
    """A hint, taken on the main thread: ``decide()`` is then pure and runs on any thread."""

    seat: int
    key: Position
    game_def: GameDef
    view: PlayerView
    rng_seed: str
    budget: SearchBudget
    hint_for: HintFunction

    def decide(self) -> HintLike:
        return self.hint_for(self.game_def, self.view, random.Random(self.rng_seed), self.budget)
