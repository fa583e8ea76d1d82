"""Determinized search over one seat's view: the engine of the hard players."""

from __future__ import annotations

# Perfect-information Monte Carlo (PIMC). The seat cannot see the other hands,
# so the search guesses them: each *world* is one assignment of the unseen
# cards drawn uniformly among those consistent with the view
# (``HiddenSampler``), turned into a full state (``state_from_view``). In each
# world every candidate still in the race is tried in turn on a copy of the
# state, and the hand is played out to its end by a rollout policy (the medium
# players). The score of a simulation is the caller's ``value`` of the hand's
# end for the deciding seat: by default what the hand earned the seat
# (``state.hand_returns()``); the Bid Whist player asks for its team's margin
# over the other team instead, since only the bidding team scores and a
# defender's own change is zero whether it sets the contract or not. The candidates of one world share the world and the
# rollout seed (common random numbers), so the difference of two candidates'
# scores in a world comes from the actions, not from the luck of the deal, and
# the search compares candidates by these paired differences:
#
# * **Racing.** Every few worlds, a candidate whose paired difference to the
#   current leader is below zero by more than ``RACE_Z`` standard errors drops
#   out, so the budget goes to the candidates still in contention instead of
#   being spread evenly over plainly bad ones (a Wizard hand of ten cards has
#   up to ten).
# * **Leaving the policy on evidence.** The ``preferred`` candidate (the
#   medium player's own choice) is the default; another candidate replaces it
#   only when its paired gain over it, over at least ``MIN_PAIRS`` worlds, is
#   positive by ``deviation_z`` standard errors (``DEVIATION_Z`` unless the
#   caller says otherwise). A caller may ask for 0: any positive gain, the
#   plain best mean among the candidates that beat the preferred one. A
#   higher value guards against the winner's curse of a few dozen noisy
#   simulations; the hard players measured better at 0 (see ``hard``).
#
# The search stops when the budget's simulation count or its deadline is
# reached, checked before every simulation.
#
# Only the view is read, so nothing here can peek: two real states that show
# the seat the same view give the same decision for the same RNG. Every random
# choice (the worlds, their later deals, the rollouts) comes from the RNG the
# caller hands in.

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

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


# Draws one world's hidden cards for a view: (view, sampler of the view, rng) -> cards.
DrawHidden = Callable[[PlayerView, HiddenSampler, random.Random], HiddenCards]


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
    """Play ``state`` on to the end of the hand, every seat choosing with ``policy``.

    A policy with a ``play_out(state, rng)`` method of its own plays the hand
    out itself: it must choose exactly as ``choose`` would from each seat's
    view, only faster (``WizardRolloutPlayer`` keeps what the seats have seen
    up to date card by card instead of reading a view for every move)."""
    own_play_out = getattr(policy, "play_out", None)
    if own_play_out is not None:
        own_play_out(state, rng)
        return
    while state.phase not in HAND_ENDS:
        play_one_move(state, policy, rng)


def play_one_move(state: Any, policy: RolloutPolicy, rng: random.Random) -> None:
    """The seat to move chooses with ``policy`` from its rollout view, and the move is made."""
    legal = state.legal_actions()
    # A forced move needs no view and no policy (the last card of a hand,
    # a single card of the suit led): a good share of a rollout's moves.
    action = legal[0] if len(legal) == 1 else policy.choose(state.rollout_view(state.current, legal), rng)
    state.apply_in_place(action, None, check=False)


RACE_Z = 2.0  # standard errors behind the leader that drop a candidate from the race
DEVIATION_Z = 1.0  # default standard errors of gain a candidate needs to replace the preferred one
RACE_EVERY = 4  # worlds between two racing checks (each check compares every pair with the leader)
MIN_PAIRS = 6  # paired simulations needed before a comparison counts


@dataclass
class _PairedScores:
    """Each candidate's score per world (None where it was not simulated)."""

    worlds: list[list[float | None]]

    def gain(self, a: int, b: int) -> tuple[float, float, int]:
        """Mean and standard error of (score of a - score of b) over the worlds
        where both were simulated, and how many such worlds there were."""
        diffs = []
        for scores in self.worlds:
            first, second = scores[a], scores[b]
            if first is not None and second is not None:
                diffs.append(first - second)
        n = len(diffs)
        if n < 2:
            return 0.0, float("inf"), n
        mean = sum(diffs) / n
        variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        return mean, (variance / n) ** 0.5, n

    def clearly_better(self, a: int, b: int, z: float) -> bool:
        mean, error, n = self.gain(a, b)
        return n >= MIN_PAIRS and mean > z * error


def search(
    view: PlayerView,
    candidates: Sequence[CandidateT],
    apply: Callable[[Any, CandidateT], None],
    policy: RolloutPolicy,
    rng: random.Random,
    budget: SearchBudget,
    clock: Clock,
    preferred: CandidateT | None = None,
    draw_hidden: DrawHidden | None = None,
    measure: Callable[[Any], float] | None = None,
    value: Callable[[Any], float] | None = None,
    deviation_z: float = DEVIATION_Z,
    race_z: float = RACE_Z,
) -> SearchResult[CandidateT]:
    """The candidate the simulations the budget allows find best for
    ``view.seat`` (see the module docstring for the racing and for when a
    candidate replaces ``preferred``).

    ``apply(state, candidate)`` plays a candidate on a world (one action, or
    several, such as a whole set of discards). ``preferred`` is the default
    answer, also when the deadline leaves no time for any simulation (without
    one, the first candidate is). ``draw_hidden(view, sampler, rng)`` draws
    each world's hidden cards (default: ``sampler.sample(rng)``, uniform
    among those the view allows); a game may do better, for instance by
    preferring hands that fit the bids seen or by guessing face-down bids.
    It sees only the view and what the sampler draws from it.
    ``measure(state)`` is averaged alongside the score, read at the hand's end.
    ``value(state)`` is the score of a simulation, read at the hand's end
    (default: the seat's ``hand_returns()``). ``deviation_z`` is how many
    standard errors of paired gain a candidate needs to replace
    ``preferred`` (0: any candidate with a better mean does). ``race_z`` is
    how far behind the leader a candidate drops out (infinity: none does, so
    every candidate is simulated in every world, as ``benchmarks.ai_regret``
    needs to value them all alike).

    May raise ``HiddenInfoError`` when the view describes no deal (a view
    built by hand): callers fall back to their rollout policy.
    """
    if not candidates:
        raise ValueError("a search needs at least one candidate")
    seat = view.seat
    if value is None:
        value = lambda state: float(state.hand_returns()[seat])  # noqa: E731  (fills in the parameter; a def could not)
    deadline = Deadline(budget.max_seconds, clock)
    sampler = HiddenSampler(view)
    count = len(candidates)
    base = candidates.index(preferred) if preferred is not None and preferred in candidates else 0
    totals = [0.0] * count
    measures = [0.0] * count
    counts = [0] * count
    paired = _PairedScores([])
    active = list(range(count))
    simulations = 0
    running = True
    while running:
        hidden = sampler.sample(rng) if draw_hidden is None else draw_hidden(view, sampler, rng)
        world = state_from_view(view, hidden, rng)
        rollout_seed = rng.getrandbits(64)
        scores: list[float | None] = [None] * count
        paired.worlds.append(scores)
        for index in active:
            if simulations >= budget.max_simulations or deadline.passed():
                running = False
                break
            trial = world.clone()
            apply(trial, candidates[index])
            play_out(trial, policy, random.Random(rollout_seed))
            score = value(trial)
            scores[index] = score
            totals[index] += score
            if measure is not None:
                measures[index] += measure(trial)
            counts[index] += 1
            simulations += 1
        if running and len(active) > 1 and len(paired.worlds) % RACE_EVERY == 0:
            active = _race(active, base, paired, totals, counts, race_z)
    results = tuple(
        CandidateResult(candidate, n, total / n if n else 0.0, measured / n if n else 0.0)
        for candidate, n, total, measured in zip(candidates, counts, totals, measures)
    )
    return SearchResult(candidates[_choose(base, paired, totals, counts, deviation_z)], simulations, results)


def _mean(index: int, totals: list[float], counts: list[int]) -> float:
    return totals[index] / counts[index] if counts[index] else float("-inf")


def _race(
    active: list[int], base: int, paired: _PairedScores, totals: list[float], counts: list[int], race_z: float
) -> list[int]:
    """The candidates still in the race: the leader, the preferred one (the
    yardstick every other must beat), and each other not clearly behind the leader."""
    leader = max(active, key=lambda i: _mean(i, totals, counts))
    return [i for i in active if i in (leader, base) or not paired.clearly_better(leader, i, race_z)]


def _choose(base: int, paired: _PairedScores, totals: list[float], counts: list[int], z: float) -> int:
    """The preferred candidate, unless one with a better mean beats it clearly
    (by paired gain); among those, the best mean."""
    challengers = [
        i
        for i in range(len(counts))
        if i != base
        and counts[i]
        and _mean(i, totals, counts) > _mean(base, totals, counts)
        and paired.clearly_better(i, base, z)
    ]
    if not challengers:
        return base
    return max(challengers, key=lambda i: (_mean(i, totals, counts), -i))
