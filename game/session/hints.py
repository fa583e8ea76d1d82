"""Hints, computed like a computer player's decision: off the frame loop."""

from __future__ import annotations

# The session takes a snapshot on the main thread (``HintRequest``: the human's
# own view, an RNG seed fixed by the position, and the search budget from the
# settings) and hands it to the same AI runner as the computer players, so the
# window keeps drawing while the search thinks. The search module is imported
# when a hint is first asked for, not when the table opens, and a session may be
# given its own hint function (tests do). ``think_budget`` is the search budget
# the settings' "Computer thinking time" stands for (None for "Automatic": the hint level's own
# default, as each computer level's own default in a match).

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


def think_budget(seconds: float | None) -> SearchBudget | None:
    """The search budget of the settings' thinking time: None for Automatic (each level
    searches for its own default budget), else at most ``seconds`` of thought and as many
    simulations as the calibrated budget runs in that time (0.3 s: exactly its 400), so a
    longer time buys more simulations rather than waiting on a fixed cap."""
    if seconds is None:
        return None
    rate = DEFAULT_BUDGET.max_simulations / DEFAULT_BUDGET.max_seconds
    return SearchBudget(max_simulations=max(1, round(rate * seconds)), max_seconds=seconds)


@dataclass(frozen=True)
class HintRequest:
    """A hint, taken on the main thread: ``decide()`` is then pure and runs on any thread."""

    seat: int
    key: Position
    game_def: GameDef
    view: PlayerView
    rng_seed: str
    budget: SearchBudget | None  # None: the hint level's own default budget
    hint_for: HintFunction

    def decide(self) -> HintLike:
        return self.hint_for(self.game_def, self.view, random.Random(self.rng_seed), self.budget)
