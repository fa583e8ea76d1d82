"""What the noise of its own search costs a searching level: its choices against its model's best.

Run ``python -m benchmarks.ai_regret [--game wizard|bidwhist|all] [--phase bid|play|all] [--level expert]
[--positions N] [--truth-simulations K] [--repeats R] [--simulations M] [--seed S] [--jobs J]``.
"""

from __future__ import annotations

# A searching level (hard, expert, the frozen baseline) values each candidate by simulation in its own model
# of the hand: worlds drawn as it draws them, played out by the medium players. With its default budget it
# sees only a few hundred simulations, so it may take a candidate its model would rank lower with more time
# (the winner's curse, or a clear best it had no time to see). This measures how much that costs:
#
# * **Positions.** Four medium players play a seeded game to a decision: in Bid Whist a bid with 0 to 3 bids
#   before it, or a card after 1 to 8 tricks; in Wizard a bid or a card of a round of 3 to 15 cards, after
#   0 to 3 bids or after a third to two thirds of the tricks. The seed fixes everything, so a position is
#   the same on every machine.
# * **The model's value of each candidate.** The level searches the position with racing switched off
#   (``race_z`` infinite: every candidate is simulated in every world, so their differences are paired) and
#   ``--truth-simulations`` simulations a candidate, no time cap.
# * **The level's choice.** It decides the same position ``--repeats`` times at its default budget, each
#   with its own seed, its deadline on the process's CPU time (as ``benchmarks.ai`` runs it).
#
# Regret is the best candidate's value less the chosen one's, in the level's own measure (Wizard: its round
# score less half the others' mean; Bid Whist: the expert's chance of winning the game, the hard players' and
# the baseline's margin of the hand). The medium player's choice, the search's default, is scored the same
# way for scale. Intervals are 95% (normal approximation) over positions, a position's repeats averaged first.
# The best candidate is read from the same noisy values, so a choice found worse by less than their noise
# (shown as the mean standard error of a candidate's value) may be no worse at all: a regret near zero says
# more time would buy the level little, not that its model is right. Whether the model is right is what the
# tournament (``benchmarks.ai``) measures.

import argparse
import math
import multiprocessing
import random
import statistics
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from benchmarks.ai import estimate, machine_text, make_level_player
from benchmarks.baseline import BASELINE
from game.ai import make_player
from game.ai.budget import SearchBudget
from game.rules import GameState, Phase, get_game, make_rules, new_game

GAMES = ("bidwhist", "wizard")
PHASES = ("bid", "play")
PLAYERS = 4
PHASE_OF = {"bid": (Phase.BID, Phase.PREDICT), "play": (Phase.PLAY,)}


@dataclass(frozen=True)
class PositionResult:
    """One position: the regret of each of the level's choices, of the medium choice, and the model's noise."""

    regrets: tuple[float, ...]
    medium_regret: float
    chose_best: float  # share of the repeats that took the model's best candidate
    candidates: int
    value_error: float  # mean standard error of a candidate's value in the long search
    simulations: float  # mean simulations of the level's decisions
    left_out: int  # decisions whose choice the long search did not value (see ``measure_position``)


def reach_position(game: str, seed: int, phase: str) -> GameState | None:
    """The decision ``seed`` picks for ``phase``, reached by four medium players (None: the deal had none)."""
    rng = random.Random(seed)
    rules = make_rules(game)
    if game == "wizard":
        cards = rng.randint(3, 15)
        state, _ = new_game(rules, PLAYERS, seed, first_dealer=seed % PLAYERS, start_deal=cards)
        tricks_before = rng.randint(cards // 3, 2 * cards // 3)
    else:
        state, _ = new_game(rules, PLAYERS, seed)
        tricks_before = rng.randint(1, 8)
    bids_before = rng.randint(0, 3)
    medium = make_player(get_game(game), "medium")
    wanted = PHASE_OF[phase]
    while state.phase not in (Phase.HAND_OVER, Phase.GAME_OVER):
        choices = state.legal_actions()
        if state.phase in wanted and len(choices) > 1:
            if phase == "bid" and bids_made(state) >= bids_before:
                return state
            if phase == "play" and len(state.tricks) >= tricks_before:
                return state
        state.apply_in_place(medium.choose(state.view(state.current), rng), None, False)
    return None


def bids_made(state: GameState) -> int:
    """How many bids of this hand are made: a Wizard state keeps one bid a seat (-1 until it bids), a Bid
    Whist state the calls made so far."""
    bids: list[Any] = state.bids
    return sum(1 for bid in bids if bid >= 0) if state.game == "wizard" else len(bids)


def level_player(game: str, level: str, budget: SearchBudget | None = None) -> Any:
    """The searching player of ``level`` on the process's CPU-time clock."""
    player: Any = make_level_player(get_game(game), level, budget)  # a searching player: it has a clock
    player.clock = time.process_time
    return player


@dataclass(frozen=True)
class Job:
    """One position to measure: its game, phase and seed, the level and its budget (None: its default)."""

    game: str
    phase: str
    level: str
    seed: int
    truth_simulations: int
    repeats: int
    budget: SearchBudget | None = None


def measure_position(job: Job) -> PositionResult | None:
    """The regrets of one position (None when the seed's deal reaches no such decision)."""
    game, phase, level, seed = job.game, job.phase, job.level, job.seed
    state = reach_position(game, seed, phase)
    if state is None:
        return None
    view = state.view(state.current)
    judge = level_player(game, level, SearchBudget(max_simulations=1, max_seconds=math.inf))
    judge.race_z = math.inf
    listing = judge.decide(view, random.Random(seed)).search  # one simulation: the candidates
    if listing is None:
        return None
    count = len(listing.candidates)
    # Two halves of the long search on their own seeds: their mean is the value, their gap its noise.
    judge.budget = SearchBudget(max_simulations=job.truth_simulations * count // 2, max_seconds=math.inf)
    halves = []
    for half in (1, 2):
        found = judge.decide(view, random.Random(seed * 7 + half)).search
        halves.append({} if found is None else {result.candidate: result.mean_score for result in found.candidates})
    # A candidate is valued only when both halves weighed it (see below for why they may not).
    value = {
        candidate: (score + halves[1][candidate]) / 2
        for candidate, score in halves[0].items()
        if candidate in halves[1]
    }
    if not value:
        return None
    gaps = [abs(halves[0][candidate] - halves[1][candidate]) for candidate in value]
    best = max(value.values())
    medium = judge.rollout_policy().choose(view, random.Random(seed))
    player = level_player(game, level, job.budget)
    regrets, best_taken, simulations, left_out = [], 0, [], 0
    for repeat in range(job.repeats):
        decision = player.decide(view, random.Random(seed * 1000 + repeat + 3))
        chosen = decision.search.best if decision.search is not None else decision.action
        if chosen not in value:
            # The medium choice breaks exact ties by the RNG, so another seed may centre the Wizard
            # bids weighed elsewhere: such a decision has no value here, and is counted apart.
            left_out += 1
            continue
        regrets.append(best - value[chosen])
        best_taken += value[chosen] == best
        simulations.append(decision.search.simulations if decision.search is not None else 0)
    if not regrets:
        return PositionResult((), 0.0, 0.0, count, 0.0, 0.0, left_out)
    return PositionResult(
        regrets=tuple(regrets),
        medium_regret=best - value.get(medium, best),
        chose_best=best_taken / len(regrets),
        candidates=count,
        # Each half's mean has twice the variance of the whole; their gap, twice again: E|gap| is
        # 2 sqrt(2 / pi) standard errors of the whole's mean.
        value_error=statistics.fmean(gaps) / (2 * math.sqrt(2 / math.pi)),
        simulations=statistics.fmean(simulations),
        left_out=left_out,
    )


def report(game: str, phase: str, level: str, results: Sequence[PositionResult]) -> list[str]:
    """The lines of one game and phase."""
    left_out = sum(r.left_out for r in results)
    results = [r for r in results if r.regrets]
    if not results:
        return [f"{game} {phase}: no positions"]
    regret = estimate([statistics.fmean(r.regrets) for r in results])
    medium = estimate([r.medium_regret for r in results])
    chose_best = estimate([r.chose_best for r in results])
    # Bid Whist's expert plays for the game: its values are chances, shown in percentage points.
    game_chance = game == "bidwhist" and level == "expert"
    unit = "chance of winning the game" if game_chance else "points"
    scale, suffix = (100.0, " (percentage points)") if game_chance else (1.0, "")
    lines = [
        f"{game} {phase}: {level}, {len(results)} positions, "
        f"{statistics.fmean(r.candidates for r in results):.1f} candidates a position, "
        f"{statistics.fmean(r.simulations for r in results):.0f} simulations a decision at its budget"
    ]
    rows = (
        (f"regret of its choice{suffix}", regret.text(3, scale)),
        (f"regret of the medium choice{suffix}", medium.text(3, scale)),
        ("took the model's best (%)", chose_best.text(1, 100.0)),
        (f"noise of a candidate's value{suffix}", f"{scale * statistics.fmean(r.value_error for r in results):.3f}"),
    )
    lines.extend(f"  {label:<52}{value}" for label, value in rows)
    lines.append(f"  (regret and noise in the long search's {unit}; noise: one standard error of a candidate's value)")
    if left_out:
        lines.append(f"  {left_out} decision(s) left out: their choice was not among the long search's candidates")
    return lines


def run(game: str, phase: str, args: argparse.Namespace, budget: SearchBudget | None) -> list[PositionResult]:
    """The positions of one game and phase, measured (those the seeds reach)."""
    jobs = [
        Job(game, phase, args.level, seed, args.truth_simulations, args.repeats, budget)
        for seed in range(args.seed, args.seed + args.positions)
    ]
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            found = pool.map(measure_position, jobs)
    else:
        found = [measure_position(job) for job in jobs]
    return [result for result in found if result is not None]


def main(argv: Iterable[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.ai_regret", description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=(*GAMES, "all"), default="all")
    parser.add_argument("--phase", choices=(*PHASES, "all"), default="all")
    parser.add_argument("--level", default="expert", help="a searching level: expert (default), hard or baseline")
    parser.add_argument("--positions", type=int, default=40, help="positions a game and phase (default 40)")
    parser.add_argument(
        "--truth-simulations", type=int, default=600, help="simulations a candidate in the long search (default 600)"
    )
    parser.add_argument("--repeats", type=int, default=2, help="decisions of the level a position (default 2)")
    parser.add_argument(
        "--simulations",
        type=int,
        help="the level's decisions: this many simulations, no time cap (default: its budget)",
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the first position")
    parser.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    args = parser.parse_args(None if argv is None else list(argv))
    if args.level not in ("expert", "hard", BASELINE):
        parser.error(f"--level must be a searching level (expert, hard or {BASELINE}), not {args.level!r}")
    if args.positions < 1 or args.truth_simulations < 2 or args.repeats < 1 or (args.simulations or 1) < 1:
        parser.error("--positions, --repeats and --simulations must be at least 1, --truth-simulations at least 2")
    budget = None if args.simulations is None else SearchBudget(max_simulations=args.simulations, max_seconds=math.inf)
    print(machine_text(), flush=True)
    print(
        f"{args.jobs} process(es); positions from seed {args.seed}; {args.truth_simulations} simulations a "
        f"candidate in the long search; {args.repeats} decisions a position at "
        f"{'its default budget' if budget is None else f'{args.simulations} simulations'}; "
        "95% intervals over positions",
        flush=True,
    )
    games = GAMES if args.game == "all" else (args.game,)
    phases = PHASES if args.phase == "all" else (args.phase,)
    for game in games:
        for phase in phases:
            print("\n".join(report(game, phase, args.level, run(game, phase, args, budget))), flush=True)


if __name__ == "__main__":
    main()
