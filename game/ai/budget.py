"""How long a search player may think about one decision."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

Clock = Callable[[], float]


# A ``SearchBudget`` caps a decision two ways: by the number of simulations
# (one simulation is one sampled deal of the unseen cards played out to the end
# of the hand after one candidate action) and by wall-clock seconds. The search
# stops at whichever comes first. The simulation cap makes a decision
# reproducible: with a cap small enough that the time limit never binds, the
# same view and the same seeded RNG always give the same action. The time cap
# keeps the table responsive on a slow machine.
@dataclass(frozen=True)
class SearchBudget:
    """At most ``max_simulations`` simulations and ``max_seconds`` seconds per decision."""

    max_simulations: int
    max_seconds: float

    def __post_init__(self) -> None:
        if self.max_simulations < 1:
            raise ValueError(f"a search needs at least one simulation, not {self.max_simulations}")
        if not self.max_seconds > 0:
            raise ValueError(f"a search needs a positive time limit, not {self.max_seconds}")


# 0.3 s and 400 simulations: the simulation cap ends the bids of short rounds, the time cap the
# first tricks of the long ones and most of the hard Wizard player's card play (its worlds are
# fitted to the cards played, which doubles their cost), so every saving there is more
# simulations. The measurements, and why 400: docs/BENCHMARKS.md, "The hard players' search budget".
DEFAULT_BUDGET = SearchBudget(max_simulations=400, max_seconds=0.3)

# The expert players' own (game/ai/expert.py): 0.9 s rather than a full second, since the deadline
# is read before each simulation and the last one may run past it; this keeps a decision under a
# second. Their simulations are slower (fitted worlds, solved endgames), so the cap rarely binds.
EXPERT_BUDGET = SearchBudget(max_simulations=2000, max_seconds=0.9)


# ``Deadline`` is the clock side: it reads an injectable clock
# (``time.perf_counter`` by default) so tests can prove the time cap stops a
# search by handing it a fake clock that advances on every reading.
class Deadline:
    """The moment a decision's thinking time runs out, read from ``clock``."""

    def __init__(self, seconds: float, clock: Clock = time.perf_counter) -> None:
        self._clock = clock
        self._end = clock() + seconds

    def passed(self) -> bool:
        """Whether the time is up (reads the clock once)."""
        return self._clock() >= self._end
