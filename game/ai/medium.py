"""The "medium" computer player: a rule-based club player for both games.

``MediumPlayer`` hands each decision to the module of the game being played
(``bidwhist_medium`` or ``wizard_medium``). It sees only the seat's
``PlayerView`` and draws randomness only from the RNG it was given (for
tie-breaks), so its choices are a pure function of (view, RNG state): the
same seed replays the same game, and it cannot peek at hidden cards.
"""

from __future__ import annotations

import random

from game.ai import bidwhist_medium, wizard_medium
from game.rules.actions import Action
from game.rules.view import PlayerView


class MediumPlayer:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        # Decisions that had to be replaced by a legal fallback; stays 0 unless there is a bug.
        self.fallbacks = 0

    def choose(self, view: PlayerView) -> Action:
        legal = view.legal_actions
        if not legal:
            raise ValueError(f"seat {view.seat} has nothing to decide in phase {view.phase.label}")
        if len(legal) == 1:
            return legal[0]
        strategy = bidwhist_medium if view.game == "bidwhist" else wizard_medium
        action = strategy.choose(view, self.rng)
        if action not in legal:
            # A strategy bug must never stall a game: fall back to a legal move.
            self.fallbacks += 1
            return legal[0]
        return action
