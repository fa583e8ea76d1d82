"""How long a search player may think about one decision.

A ``SearchBudget`` caps a decision two ways: by the number of simulations
(one simulation is one sampled deal of the unseen cards played out to the end
of the hand after one candidate action) and by wall-clock seconds. The search
stops at whichever comes first. The simulation cap makes a decision
reproducible: with a cap small enough that the time limit never binds, the
same view and the same seeded RNG always give the same action. The time cap
keeps the table responsive on a slow machine.

``DEFAULT_BUDGET`` gives a decision 0.3 s and at most 400 simulations. A
Wizard round played out by the hard player's rollout (``wizard_rollout``)
costs about 0.3 ms in round 5, 0.6 ms in round 10 and 1.1 ms in round 15
(December 2026, one quiet core), and the search also spends time drawing and
building its worlds. So the simulation cap ends the bids of short rounds,
where a few hundred simulations say all there is to say, and the time cap
ends the heaviest (the first tricks of rounds 10 to 15, where 400
simulations take 0.28 s of CPU at the median and up to 0.38 s). In card
play the hard Wizard player also fits each world to the cards the others
have played (``wizard_worlds``), which about doubles the cost of a world:
most of its card decisions end on the time cap, and the time is better
spent on those worlds than on more simulations. Since the time cap binds,
every saving is more simulations: drawing only the cards a world deals,
reading hand estimates from a table and dealing a decision's round once
raised the mean from 251 to 317 simulations a searched decision (rounds 5
to 14 of seeds 1401 and 1402, the hard player in seats 0 and 1), and the
tournament's lead over the medium players from +14.5 to +15.2 points a
round (README). Bid Whist decisions, whose rollouts read a view per move,
mostly end on the time cap.

Why 400. ``python -m benchmarks.wizard_paired --base sims=200 --variant
sims=400 --jobs 2`` plays every round of seeds 1401-1412 (720 rounds, the
hard player in each seat against three medium players) once with each
budget, from the same deal and with the same random draws, the time cap
read as CPU time. At 400 simulations under the 0.3 s cap the hard Wizard
player hit 77.5% of its bids instead of 74.7% and led the medium seats by
15.1 points a round instead of 13.1: a gain of 1.9 ± 2.1 points a round
(95% interval over the 180 deals). The experiment it grew from, which began
each round at its first bid, measured 2.0 on the same seeds (1.7 from the
card play alone). An earlier whole-game comparison had found 500
simulations no better than 200 (78.1% and +14.7 against 78.1% and +15.0 on
360 rounds), but its error was about ±1.5 points a round, as large as the
difference.

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


DEFAULT_BUDGET = SearchBudget(max_simulations=400, max_seconds=0.3)


class Deadline:
    """The moment a decision's thinking time runs out, read from ``clock``."""

    def __init__(self, seconds: float, clock: Clock = time.perf_counter) -> None:
        self._clock = clock
        self._end = clock() + seconds

    def passed(self) -> bool:
        """Whether the time is up (reads the clock once)."""
        return self._clock() >= self._end
