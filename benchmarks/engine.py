"""Engine throughput: random legal playouts of whole games, per game; the endgame solver's speed.

Run ``python -m benchmarks.engine [--seconds S] [--repeats N] [--solver] [--solver-tricks 3,4,5,6]``,
or ``python -m benchmarks.engine --vs-openspiel [--seconds S] [--pairs N]`` to compare with OpenSpiel
(``benchmarks.engine_vs_openspiel``), or ``--vs-commit REV`` to compare with an earlier commit's
engine on this machine (``benchmarks.engine_vs_commit``).
"""

from __future__ import annotations

# For each game it reports:
#
# * the search fast path: ``legal_actions()`` + ``apply_in_place(check=False)``
#   without events, which is what a search AI runs thousands of times per
#   decision (one "action" = one legal-action listing, one random choice and
#   one apply);
# * ``clone()`` cost, which a search pays once per simulated hand;
# * the public path: ``apply()``, which checks legality, copies the state and
#   returns events (what the UI and the match use);
# * for search from a seat's view, at a mid-hand position (six tricks played):
#   ``view()`` builds per second, ``sample_hidden`` guesses per second (a fresh
#   ``HiddenSampler`` each time, and one sampler reused), ``state_from_view``
#   builds per second, and the rest of the hand played out per second by the
#   hard player's rollout policy, as its search plays it (``play_out``: the
#   medium players, reading a ``rollout_view`` for each move in Bid Whist and
#   the round tracker of ``wizard_rollout`` in Wizard);
# * the exact endgame solver (``game.ai.endgame_solver``) from k tricks left: positions
#   (search nodes) a second and hands solved a second, for the same few positions of
#   random play per k (the value for the seat on lead, a fresh solver each), Bid Whist
#   and Wizard at four. ``--solver`` runs this part alone; ``--solver-tricks`` says which k;
# * the hard player's simulations per searched decision at its default budget, for a fixed
#   set of seeded mid-hand decisions (``benchmarks.search_simulations``; ``--search`` alone).
#
# Figures are printed, never asserted: the machines are shared and noisy.

import argparse
import platform
import random
import statistics
import time
from collections.abc import Callable

from benchmarks import engine_vs_commit, engine_vs_openspiel
from benchmarks.search_simulations import search_table
from game.ai.endgame_solver import EndgameSolver, NodeLimitReached
from game.ai.hard import BidWhistHardPlayer, WizardHardPlayer
from game.ai.search_pimc import play_out
from game.rules import Phase, apply, make_rules, new_game
from game.rules.actions import Action
from game.rules.engine import GameState
from game.rules.search import HiddenSampler, sample_hidden, state_from_view

CASES = (("bidwhist", 4), ("wizard", 3), ("wizard", 4), ("wizard", 6))
HARD_PLAYERS = {"bidwhist": BidWhistHardPlayer, "wizard": WizardHardPlayer}


# One step of a random playout: the state after ``action``.
Step = Callable[[GameState, Action], GameState]


def _fast_step(state: GameState, action: Action) -> GameState:
    state.apply_in_place(action, None, False)
    return state


def _public_step(state: GameState, action: Action) -> GameState:
    return apply(state, action)[0]


def _playouts(game: str, players: int, seconds: float, step: Step) -> tuple[int, int, float]:
    """Play random legal games for ``seconds``; ``step(state, action)`` returns the next state."""
    rules = make_rules(game)
    rng = random.Random(1)
    actions = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state, _ = new_game(rules, players, games)
        while not state.is_terminal:
            state = step(state, rng.choice(state.legal_actions()))
            actions += 1
        games += 1
    return actions, games, time.perf_counter() - start


def _clone_rate(game: str, players: int, count: int = 50_000) -> float:
    state, _ = new_game(make_rules(game), players, 3)
    start = time.perf_counter()
    for _ in range(count):
        state.clone()
    return count / (time.perf_counter() - start)


def _mid_hand(game: str, players: int, tricks: int = 6) -> GameState:
    """A position of random play with ``tricks`` tricks of a hand played (a
    round with at least that many tricks, for Wizard)."""
    rng = random.Random(5)
    state, _ = new_game(make_rules(game), players, 5)
    while not (state.phase == Phase.PLAY and len(state.tricks) == tricks and not state.trick):
        state.apply_in_place(rng.choice(state.legal_actions()), None, False)
    return state


def _rate(seconds: float, step: Callable[[], object]) -> float:
    """How many times per second ``step()`` runs, measured over ``seconds``."""
    count = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(20):
            step()
        count += 20
    return count / (time.perf_counter() - start)


def _search_rates(game: str, players: int, seconds: float) -> tuple[float, ...]:
    """(views/s, fresh samples/s, reused-sampler samples/s, state_from_view/s,
    rollouts of the rest of the hand/s) at a mid-hand position."""
    state = _mid_hand(game, players)
    view = state.view(state.current)
    rng = random.Random(9)
    sampler = HiddenSampler(view)
    guess = sampler.sample(rng)
    rollout = HARD_PLAYERS[game]().rollout_policy()
    return (
        _rate(seconds, lambda: state.view(state.current)),
        _rate(seconds, lambda: sample_hidden(view, rng)),
        _rate(seconds, lambda: sampler.sample(rng)),
        _rate(seconds, lambda: state_from_view(view, guess, rng)),
        _rate(seconds, lambda: play_out(state.clone(), rollout, rng)),
    )


SOLVER_CASES = (("bidwhist", 4), ("wizard", 4))
SOLVER_POSITIONS = 5  # positions solved per k and run
SOLVER_NODE_LIMIT = 5_000_000  # per position: keeps a run bounded should a position be huge
WIZARD_SOLVER_ROUND = 10  # Wizard positions come from this round (or round k, when k is larger)


def _solver_position(game: str, players: int, tricks_left: int, seed: int) -> GameState:
    """A hand of random play at the start of a trick with ``tricks_left`` tricks to go."""
    rng = random.Random(seed)
    if game == "wizard":
        round_number = max(WIZARD_SOLVER_ROUND, tricks_left)
        state, _ = new_game(make_rules(game), players, seed, first_dealer=0, start_deal=round_number)
        total = round_number
    else:
        state, _ = new_game(make_rules(game), players, seed)
        total = 12
    while not (state.phase == Phase.PLAY and len(state.tricks) == total - tricks_left and not state.trick):
        state.apply_in_place(rng.choice(state.legal_actions()), None, False)
    return state


def _solver_run(positions: list[GameState]) -> tuple[float, float, int]:
    """(nodes/s, hands solved/s, positions that hit the node limit) over ``positions``."""
    nodes = over = 0
    start = time.perf_counter()
    for state in positions:
        solver = EndgameSolver(state, state.current, max_nodes=SOLVER_NODE_LIMIT)
        try:
            solver.value()
        except NodeLimitReached:
            over += 1
        nodes += solver.nodes
    elapsed = time.perf_counter() - start
    return nodes / elapsed, len(positions) / elapsed, over


def _solver_table(tricks: list[int], repeats: int) -> None:
    print()
    print(f"endgame solver: the value of {SOLVER_POSITIONS} positions of random play per k, median of {repeats} runs")
    print(f"{'game':<16}{'k tricks left':>14}{'nodes/s':>12}{'hands/s':>12}{'mean nodes':>12}")
    for game, players in SOLVER_CASES:
        for k in tricks:
            positions = [_solver_position(game, players, k, seed) for seed in range(SOLVER_POSITIONS)]
            runs = [_solver_run(positions) for _ in range(repeats)]
            node_rate = statistics.median(run[0] for run in runs)
            hand_rate = statistics.median(run[1] for run in runs)
            over = f"  ({runs[0][2]} over {SOLVER_NODE_LIMIT:,} nodes)" if runs[0][2] else ""
            label = f"{game} ({players}p)"
            print(f"{label:<16}{k:>14}{node_rate:>12,.0f}{hand_rate:>12,.1f}{node_rate / hand_rate:>12,.0f}{over}")


def _tricks_list(text: str) -> list[int]:
    try:
        tricks = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected numbers of tricks such as 3,4,5,6, not {text!r}") from None
    if not tricks or any(not 1 <= k <= 12 for k in tricks):
        raise argparse.ArgumentTypeError("each number of tricks left must be from 1 to 12")
    return tricks


def _positive_int(text: str) -> int:
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if number < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return number


def _median_of(repeats: int, measure: Callable[[], float]) -> float:
    """The median of ``repeats`` runs: shared, noisy machines swing a single run by tens of percent."""
    return float(statistics.median(measure() for _ in range(repeats)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time per run (default 1)")
    parser.add_argument("--repeats", type=int, default=5, help="runs per figure; the median is printed (default 5)")
    parser.add_argument("--solver", action="store_true", help="measure only the endgame solver")
    parser.add_argument(
        "--solver-tricks",
        type=_tricks_list,
        default=[3, 4, 5, 6],
        help="tricks left at which the solver is measured, comma-separated (default 3,4,5,6)",
    )
    parser.add_argument(
        "--vs-openspiel",
        action="store_true",
        help="compare the Wizard fast path with OpenSpiel's oh_hell (needs requirements-bench.txt)",
    )
    parser.add_argument(
        "--vs-commit",
        metavar="REV",
        help="compare the fast path with the engine of an earlier commit REV, on this machine",
    )
    parser.add_argument(
        "--pairs",
        type=_positive_int,
        default=5,
        help="--vs-openspiel, --vs-commit: interleaved pairs of runs (default 5)",
    )
    parser.add_argument("--search", action="store_true", help="measure only the hard players' simulations a decision")
    args = parser.parse_args()
    if args.vs_openspiel:
        print(f"Python {platform.python_version()} on {platform.machine()}, {platform.processor() or 'cpu'}; one core")
        engine_vs_openspiel.compare(args.pairs, args.seconds)
        return
    if args.vs_commit:
        print(f"Python {platform.python_version()} on {platform.machine()}, {platform.processor() or 'cpu'}; one core")
        engine_vs_commit.compare(args.vs_commit, args.pairs, args.seconds)
        return
    if args.search:
        print(f"Python {platform.python_version()} on {platform.machine()}, {platform.processor() or 'cpu'}; one core")
        search_table()
        return
    if args.solver:
        print(f"Python {platform.python_version()} on {platform.machine()}, {platform.processor() or 'cpu'}; one core")
        _solver_table(args.solver_tricks, args.repeats)
        return
    print(
        f"Python {platform.python_version()} on {platform.machine()}, {platform.processor() or 'cpu'}; "
        f"one core; median of {args.repeats} runs of {args.seconds:g} s per figure"
    )
    print(f"{'game':<16}{'fast actions/s':>16}{'fast games/s':>14}{'clones/s':>12}{'apply() actions/s':>20}")
    for game, players in CASES:
        fast = [_playouts(game, players, args.seconds, _fast_step) for _ in range(args.repeats)]
        public = [_playouts(game, players, args.seconds, _public_step) for _ in range(args.repeats)]
        label = f"{game} ({players}p)"
        print(
            f"{label:<16}{statistics.median(a / t for a, _, t in fast):>16,.0f}"
            f"{statistics.median(g / t for _, g, t in fast):>14,.1f}"
            f"{_median_of(args.repeats, lambda: _clone_rate(game, players)):>12,.0f}"
            f"{statistics.median(a / t for a, _, t in public):>20,.0f}"
        )
    print()
    print("search from a seat's view, mid-hand (6 tricks played)")
    print(f"{'game':<16}{'view()/s':>12}{'samples/s':>12}{'reused/s':>12}{'state_from_view/s':>20}{'playouts/s':>12}")
    for game, players in CASES:
        runs = [_search_rates(game, players, args.seconds / 5) for _ in range(args.repeats)]
        label = f"{game} ({players}p)"
        views, fresh, reused, built, playouts = (statistics.median(run[i] for run in runs) for i in range(5))
        print(f"{label:<16}{views:>12,.0f}{fresh:>12,.0f}{reused:>12,.0f}{built:>20,.0f}{playouts:>12,.0f}")
    search_table()
    _solver_table(args.solver_tricks, args.repeats)


if __name__ == "__main__":
    main()
