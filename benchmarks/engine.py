"""Engine throughput: random legal playouts of whole games, per game.

Run ``python -m benchmarks.engine [--seconds S] [--repeats N]``.
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
#   the round tracker of ``wizard_rollout`` in Wizard).
#
# Figures are printed, never asserted: the machines are shared and noisy.

import argparse
import platform
import random
import statistics
import time
from collections.abc import Callable

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


def _median_of(repeats: int, measure: Callable[[], float]) -> float:
    """The median of ``repeats`` runs: shared, noisy machines swing a single run by tens of percent."""
    return float(statistics.median(measure() for _ in range(repeats)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time per run (default 1)")
    parser.add_argument("--repeats", type=int, default=5, help="runs per figure; the median is printed (default 5)")
    args = parser.parse_args()
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


if __name__ == "__main__":
    main()
