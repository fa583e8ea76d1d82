"""The Wizard expert's last tricks with and without its play-outs' ties read as the medium player's card.

Run ``python -m benchmarks.wizard_endings [--games N] [--seed S] [--tricks-left K] [--expert-simulations E]
[--baseline-simulations B] [--jobs J]``.
"""

from __future__ import annotations

# A whole-game tournament (``benchmarks.ai``) resolves about three points a round in an hour, and a change to
# the expert's last tricks moves a few rounds a game: this compares the two settings where they differ.
#
# * **Positions.** Four medium players play each seed's game; in every round of at least ``MIN_ROUND`` cards
#   the first position where the seat to move holds ``--tricks-left`` cards and has more than one legal card
#   is kept. The seed fixes everything, so a position is the same on every machine.
# * **Two plays of each ending.** From each position the round is played to its end twice: the seat to move
#   as the expert with ``policy_ties`` on, then off (``WizardExpertPlayer.policy_ties``), the other seats as
#   the frozen baseline. Every player has a fixed number of simulations and no time cap, and both plays use
#   one RNG seeded by the position, so they are the same move for move until the expert first decides
#   differently, whatever else runs on the machine.
# * **What is compared.** The expert seat's round score, and that score less the other seats' mean (the
#   tournament's measure), ties on less ties off, with 95% intervals (normal approximation) over positions;
#   how many plays the setting changed; bids made; the expert's CPU time a decision in each setting (its
#   budget here is simulations, so the time shows what a simulation costs, not what the tournament allows).

import argparse
import math
import multiprocessing
import random
import statistics
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from benchmarks.ai import WIZARD_PLAYERS, estimate, machine_text
from benchmarks.baseline import wizard_baseline
from game.ai.budget import SearchBudget
from game.ai.expert import WizardExpertPlayer
from game.ai.search_pimc import HAND_ENDS
from game.ai.wizard_medium import WizardMediumPlayer
from game.rules import Phase, make_rules, new_game
from game.rules.actions import NEXT_DEAL, Action
from game.rules.wizard import WizardState

MIN_ROUND = 4


@dataclass(frozen=True)
class Ending:
    """One play of a position's ending: the expert seat's score, less the others' mean, and its decisions."""

    score: int
    over_others: float
    first_choice: Action
    cpu_seconds: list[float]


@dataclass(frozen=True)
class Job:
    seed: int
    tricks_left: int
    expert_simulations: int
    baseline_simulations: int


def positions(seed: int, tricks_left: int) -> list[tuple[int, WizardState]]:
    """Each round's first choice of a card with ``tricks_left`` cards in hand, in a game of medium players."""
    state, _ = new_game(make_rules("wizard"), WIZARD_PLAYERS, seed)
    assert isinstance(state, WizardState)
    medium = WizardMediumPlayer()
    rng = random.Random(seed)
    found: list[tuple[int, WizardState]] = []
    while not state.is_terminal:
        if state.phase == Phase.HAND_OVER:
            state.apply_in_place(NEXT_DEAL, None, True)
            continue
        number = state.round_number
        if (
            state.phase == Phase.PLAY
            and number >= MIN_ROUND
            and (not found or found[-1][0] != number)
            and len(state.hands[state.current]) == tricks_left
            and len(state.legal_cards()) > 1
        ):
            found.append((number, state.copy()))
        state.apply_in_place(medium.choose(state.view(state.current), rng), None, True)
    return found


def play_ending(state: Any, job: Job, policy_ties: bool, rng_seed: int) -> Ending:
    """Play ``state``'s round to its end: its seat to move the expert, the others the frozen baseline."""
    expert = WizardExpertPlayer(SearchBudget(job.expert_simulations, math.inf))
    expert.policy_ties = policy_ties
    baseline = wizard_baseline(SearchBudget(job.baseline_simulations, math.inf))
    expert_seat = state.current
    rng = random.Random(rng_seed)
    cpu_seconds: list[float] = []
    first_choice: Action | None = None
    while state.phase not in HAND_ENDS:
        view = state.view(state.current)
        if state.current == expert_seat:
            start = time.process_time()
            action = expert.choose(view, rng)
            cpu_seconds.append(time.process_time() - start)
            if first_choice is None:
                first_choice = action
        else:
            action = baseline.choose(view, rng)
        state.apply_in_place(action, None, True)
    scores = state.hand_returns()
    others = [score for seat, score in enumerate(scores) if seat != expert_seat]
    assert first_choice is not None  # the position gives the expert seat a choice
    return Ending(scores[expert_seat], scores[expert_seat] - statistics.fmean(others), first_choice, cpu_seconds)


def measure_seed(job: Job) -> list[tuple[Ending, Ending]]:
    """Each position of ``job.seed``'s game, played with ties on and then off."""
    pairs = []
    for number, state in positions(job.seed, job.tricks_left):
        rng_seed = job.seed * 100 + number
        pairs.append((play_ending(state.copy(), job, True, rng_seed), play_ending(state.copy(), job, False, rng_seed)))
    return pairs


def report(pairs: Sequence[tuple[Ending, Ending]]) -> list[str]:
    """The comparison's lines."""
    if len(pairs) < 2:
        return [f"{len(pairs)} position(s): too few to compare"]
    score = estimate([on.score - off.score for on, off in pairs])
    over = estimate([on.over_others - off.over_others for on, off in pairs])
    changed_first = sum(on.first_choice != off.first_choice for on, off in pairs)
    changed_result = sum((on.score, on.over_others) != (off.score, off.over_others) for on, off in pairs)
    lines = [
        f"{len(pairs)} positions; first decision changed in {changed_first}, the round's scores in {changed_result}",
        f"  ties on less ties off, the expert seat's round score:          {score.text(2, signed=True)}",
        f"  ties on less ties off, its score less the other seats' mean:   {over.text(2, signed=True)}",
    ]
    for label, side in (("ties on ", 0), ("ties off", 1)):
        endings = [pair[side] for pair in pairs]
        made = sum(ending.score > 0 for ending in endings)
        cpu = sorted(seconds for ending in endings for seconds in ending.cpu_seconds)
        lines.append(
            f"  {label}: bids made {made} of {len(endings)}; expert CPU a decision median "
            f"{1000 * statistics.median(cpu):.0f} ms, mean {1000 * statistics.fmean(cpu):.0f} ms"
        )
    return lines


def main(argv: Iterable[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.wizard_endings", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=30, help="seeded games of positions (default 30)")
    parser.add_argument("--seed", type=int, default=2, help="seed of the first game (default 2)")
    parser.add_argument("--tricks-left", type=int, default=WizardExpertPlayer.solved_tricks)
    parser.add_argument("--expert-simulations", type=int, default=350, help="a decision (default 350)")
    parser.add_argument("--baseline-simulations", type=int, default=400, help="a decision (default 400)")
    parser.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    args = parser.parse_args(None if argv is None else list(argv))
    if min(args.games, args.tricks_left, args.expert_simulations, args.baseline_simulations, args.jobs) < 1:
        parser.error("--games, --tricks-left, the simulations and --jobs must be at least 1")
    jobs = [
        Job(seed, args.tricks_left, args.expert_simulations, args.baseline_simulations)
        for seed in range(args.seed, args.seed + args.games)
    ]
    print(machine_text(), flush=True)
    print(
        f"{args.jobs} process(es); games from seed {args.seed}; the expert seat from {args.tricks_left} cards "
        f"in hand, {args.expert_simulations} simulations a decision; baseline {args.baseline_simulations}; "
        "95% intervals over positions",
        flush=True,
    )
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            found = pool.map(measure_seed, jobs)
    else:
        found = [measure_seed(job) for job in jobs]
    print("\n".join(report([pair for pairs in found for pair in pairs])), flush=True)


if __name__ == "__main__":
    main()
