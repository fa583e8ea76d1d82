"""How long a search player may think about one decision.

A ``SearchBudget`` caps a decision two ways: by the number of simulations
(one simulation is one sampled deal of the unseen cards played out to the end
of the hand after one candidate action) and by wall-clock seconds. The search
stops at whichever comes first. The simulation cap makes a decision
reproducible: with a cap small enough that the time limit never binds, the
same view and the same seeded RNG always give the same action. The time cap
keeps the table responsive on a slow machine.

``DEFAULT_BUDGET`` gives a decision 0.3 s and at most 200 simulations. A
Wizard round played out by the hard player's rollout (``wizard_rollout``)
costs about 0.3 ms in round 5, 0.6 ms in round 10 and 1.1 ms in round 15
(December 2026, one quiet core), and the search also spends time drawing and
building its worlds. In the tournament (``benchmarks.ai``, 96 games) the
hard Wizard player's decisions took 0.10 s at the median, 0.21 s at the
95th percentile and at most 0.31 s: the simulation cap ends nearly every
decision, the time cap only the odd long one on a busy machine, and the
simulation cap keeps a small hand from spending 0.3 s where a few hundred
simulations say all there is to say. Simulations up to about 200 make the
hard Wizard player clearly stronger, more do not: on the same 360 rounds
against three medium players it hit 72.8% of its bids and led them by 12.1
points a round at 110 simulations a decision, 78.1% and 15.0 at 200, 78.1%
and 14.7 at 500. Before the rollout kept track of the seats' knowledge card
by card, a round-15 rollout cost 2.1 ms, the bids of rounds 11 to 15 stopped
on the time cap after 130 to 150 simulations, and on the same 360 rounds
the 0.3 s cap held the player to 74.7% and +13.2. The caps are a trade of
strength for a table that answers fast.

``Deadline`` is the clock side: it reads an injectable clock
(``time.perf_counter`` by default) so tests can prove the time cap stops a
search by handing it a fake clock that advances on every reading.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

Clock = Callable[[], float]


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


DEFAULT_BUDGET = SearchBudget(max_simulations=200, max_seconds=0.3)


class Deadline:
    """The moment a decision's thinking time runs out, read from ``clock``."""

    def __init__(self, seconds: float, clock: Clock = time.perf_counter) -> None:
        self._clock = clock
        self._end = clock() + seconds

    def passed(self) -> bool:
        """Whether the time is up (reads the clock once)."""
        return self._clock() >= self._end
