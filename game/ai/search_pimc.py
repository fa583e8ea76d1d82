"""Determinized search over one seat's view: the engine of the hard players.

Perfect-information Monte Carlo (PIMC). The seat cannot see the other hands,
so the search guesses them: each *world* is one assignment of the unseen
cards drawn uniformly among those consistent with the view
(``HiddenSampler``), turned into a full state (``state_from_view``). In each
world every candidate action is tried in turn on a copy of the state, and the
hand is played out to its end by a rollout policy (the medium players). The
score of a simulation is what the hand earned the deciding seat
(``state.hand_returns()``: its team's change in Bid Whist, its round score in
Wizard). Candidates are served round robin, all of them in the same world
with the same rollout seed (common random numbers), so a difference in their
mean scores comes from the action and not from the luck of the deal; the
search stops when the budget's simulation count or its deadline is reached,
checked before every simulation.

Only the view is read, so nothing here can peek: two real states that show
the seat the same view give the same decision for the same RNG. Every random
choice (the worlds, their later deals, the rollouts) comes from the RNG the
caller hands in.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable, Generic, Protocol, Sequence, TypeVar

from game.ai.budget import Clock, Deadline, SearchBudget
from game.rules.actions import Action
from game.rules.core import Phase
from game.rules.hidden import HiddenCards
from game.rules.search import HiddenSampler, state_from_view
from game.rules.view import PlayerView

CandidateT = TypeVar("CandidateT")

HAND_ENDS = (Phase.HAND_OVER, Phase.GAME_OVER)


class RolloutPolicy(Protocol):
    def choose(self, view: PlayerView, rng: random.Random) -> Action: ...


@dataclass(frozen=True)
class CandidateResult(Generic[CandidateT]):
    """What the simulations said of one candidate: how often it was tried,
    its mean score for the deciding seat and the mean of the measure (for
    instance the tricks the seat took)."""

    candidate: CandidateT
    simulations: int
    mean_score: float
    mean_measure: float


@dataclass(frozen=True)
class SearchResult(Generic[CandidateT]):
    best: CandidateT
    simulations: int
    candidates: tuple[CandidateResult[CandidateT], ...]


def play_out(state: Any, policy: RolloutPolicy, rng: random.Random) -> None:
    """Play ``state`` on to the end of the hand, every seat choosing with ``policy``."""
    while state.phase not in HAND_ENDS:
        action = policy.choose(state.view(state.current), rng)
        state.apply_in_place(action, None, check=False)


def search(view: PlayerView, candidates: Sequence[CandidateT],
           apply: Callable[[Any, CandidateT], None], policy: RolloutPolicy, rng: random.Random,
           budget: SearchBudget, clock: Clock,
           preferred: CandidateT | None = None,
           refine_hidden: Callable[[PlayerView, HiddenCards], HiddenCards] | None = None,
           measure: Callable[[Any], float] | None = None) -> SearchResult[CandidateT]:
    """The candidate with the best mean score for ``view.seat`` over the
    simulations the budget allows (see the module docstring).

    ``apply(state, candidate)`` plays a candidate on a world (one action, or
    several, such as a whole set of discards). ``preferred`` wins ties, and
    is the answer when the deadline leaves no time for any simulation (else
    the first candidate is). ``refine_hidden`` may replace parts of each
    sampled world that the uniform sampler guesses poorly (the game's own
    choice, e.g. bids still face down); it sees only the view and the guess.
    ``measure(state)`` is averaged alongside the score, read at the hand's end.

    May raise ``HiddenInfoError`` when the view describes no deal (a view
    built by hand): callers fall back to their rollout policy.
    """
    if not candidates:
        raise ValueError("a search needs at least one candidate")
    seat = view.seat
    deadline = Deadline(budget.max_seconds, clock)
    sampler = HiddenSampler(view)
    totals = [0.0] * len(candidates)
    measures = [0.0] * len(candidates)
    counts = [0] * len(candidates)
    simulations = 0
    running = True
    while running:
        hidden = sampler.sample(rng)
        if refine_hidden is not None:
            hidden = refine_hidden(view, hidden)
        world = state_from_view(view, hidden, rng)
        rollout_seed = rng.getrandbits(64)
        for index, candidate in enumerate(candidates):
            if simulations >= budget.max_simulations or deadline.passed():
                running = False
                break
            trial = world.clone()
            apply(trial, candidate)
            play_out(trial, policy, random.Random(rollout_seed))
            totals[index] += trial.hand_returns()[seat]
            if measure is not None:
                measures[index] += measure(trial)
            counts[index] += 1
            simulations += 1
    results = tuple(CandidateResult(candidate, count, total / count if count else 0.0,
                                    measured / count if count else 0.0)
                    for candidate, count, total, measured in zip(candidates, counts, totals, measures))
    tried = [index for index, count in enumerate(counts) if count]
    if not tried:
        best = preferred if preferred is not None else candidates[0]
    else:
        best = candidates[max(tried, key=lambda i: (results[i].mean_score, candidates[i] == preferred, -i))]
    return SearchResult(best, simulations, results)
