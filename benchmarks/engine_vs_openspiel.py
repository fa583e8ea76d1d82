"""Trick Table's rules engine against OpenSpiel's C++ one: decisions a second, side by side.

Run ``python -m benchmarks.engine --vs-openspiel [--seconds S] [--pairs N]``.
OpenSpiel is a benchmark dependency only: ``pip install -r requirements-bench.txt``.
"""

from __future__ import annotations

# Both engines play random legal playouts of whole games in this one process:
# Trick Table's Wizard through its search fast path (``legal_actions()`` and
# ``apply_in_place(action, None, False)``, no events), OpenSpiel's ``oh_hell``
# (the same trick game without Wizards and Jesters) through ``pyspiel``, its
# C++ engine behind Python bindings. Each is timed in CPU time, whole games
# at a time (each engine's dealing included: Trick Table's ``NEXT_DEAL`` step,
# OpenSpiel's chance nodes), and credited with its players' decisions only
# (bids, trump choices and cards), so the rates are decisions a second.
#
# The runs are interleaved in pairs (one run of each, the first of the pair
# alternating) so that a machine slowing down or speeding up (other work on a
# shared machine, frequency changes) weighs on both alike; the ratio of each
# pair, Trick Table over OpenSpiel, is what the comparison rests on, and the
# median of the pairs' ratios is the headline.
#
# Both loops are written alike: list the legal actions, pick one uniformly
# with the same cheap generator call, apply it. At OpenSpiel's chance nodes
# the legal actions are the deal's outcomes, all equally likely in oh_hell,
# so the same pick plays a fair deal.

import importlib
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from game.rules import make_rules, new_game

OPENSPIEL_REQUIREMENT = "open_spiel==1.6.1"  # the pin of requirements-bench.txt
INSTALL_HINT = (
    "OpenSpiel is not installed, so there is nothing to compare against.\n"
    f"Install the benchmark requirements ({OPENSPIEL_REQUIREMENT}) and run this again:\n"
    "    pip install -r requirements-bench.txt"
)
PLAYER_COUNTS = (4, 3, 6)  # 4 first: the headline comparison


def load_pyspiel() -> Any:
    """OpenSpiel's Python module, or None when it is not installed (or does not load here).
    Imported by name: it is no dependency of the project, so the type checker never sees it."""
    try:
        return importlib.import_module("pyspiel")
    except ImportError:
        return None


# One engine's run: (decisions, CPU seconds) of whole games played for about ``seconds``.
Run = Callable[[float], tuple[int, float]]


def tricktable_run(players: int, seed: int) -> Run:
    """Random playouts of whole Wizard games for ``players`` through the fast path."""
    rules = make_rules("wizard")
    rng = random.Random(seed)
    game_seeds = iter(range(seed * 1_000_000, (seed + 1) * 1_000_000))

    def run(seconds: float) -> tuple[int, float]:
        pick = rng.random
        clock = time.process_time
        decisions = 0
        spent = 0.0
        while spent < seconds:
            start = clock()
            state, _ = new_game(rules, players, next(game_seeds))
            steps = 0
            while not state.is_terminal:
                legal = state.legal_actions()
                state.apply_in_place(legal[int(pick() * len(legal))], None, False)
                steps += 1
            spent += clock() - start
            # Every round after the first was dealt by a NEXT_DEAL step, which no player decides.
            decisions += steps - (state.deal_number - 1)
        return decisions, spent

    return run


def openspiel_run(pyspiel: Any, players: int, seed: int) -> Run:
    """Random playouts of whole ``oh_hell`` games for ``players`` through ``pyspiel``."""
    game = pyspiel.load_game("oh_hell", {"players": players})
    rng = random.Random(seed)

    def run(seconds: float) -> tuple[int, float]:
        pick = rng.random
        clock = time.process_time
        decisions = 0
        spent = 0.0
        while spent < seconds:
            start = clock()
            state = game.new_initial_state()
            steps = 0
            while not state.is_terminal():
                legal = state.legal_actions()
                state.apply_action(legal[int(pick() * len(legal))])
                steps += 1
            spent += clock() - start
            # The chance nodes (the dealer, the number of tricks, each card dealt, the trump card)
            # are played by no player; the history names each step's player, -1 for chance.
            decisions += sum(1 for step in state.full_history() if step.player >= 0)
        return decisions, spent

    return run


def interleaved_pairs(ours: Run, theirs: Run, pairs: int, seconds: float) -> list[tuple[float, float]]:
    """``pairs`` pairs of (our decisions a second, theirs), the first of each pair alternating."""
    rates = []
    for index in range(pairs):
        if index % 2 == 0:
            our_decisions, our_time = ours(seconds)
            their_decisions, their_time = theirs(seconds)
        else:
            their_decisions, their_time = theirs(seconds)
            our_decisions, our_time = ours(seconds)
        rates.append((our_decisions / our_time, their_decisions / their_time))
    return rates


def median_ratio(rates: list[tuple[float, float]]) -> float:
    return float(statistics.median(ours / theirs for ours, theirs in rates))


def compare(
    pairs: int,
    seconds: float,
    player_counts: tuple[int, ...] = PLAYER_COUNTS,
    out: Callable[[str], object] = print,
    pyspiel: Any = None,
) -> dict[int, float]:
    """Run the comparison and print it; returns the median ratio per number of players.
    ``pyspiel`` is OpenSpiel's module (None: import it). Without OpenSpiel it prints how
    to install it and returns nothing."""
    pyspiel = pyspiel if pyspiel is not None else load_pyspiel()
    if pyspiel is None:
        out(INSTALL_HINT)
        return {}
    out(
        f"Trick Table's Wizard fast path against OpenSpiel's oh_hell (pyspiel, C++): random legal playouts\n"
        f"of whole games, decisions a second of CPU time, {pairs} interleaved pairs of {seconds:g} s runs"
    )
    medians = {}
    for players in player_counts:
        rates = interleaved_pairs(
            tricktable_run(players, seed=players), openspiel_run(pyspiel, players, seed=players), pairs, seconds
        )
        out("")
        out(f"{players} players{'pair':>8}{'Trick Table/s':>16}{'OpenSpiel/s':>14}{'ratio':>9}")
        for index, (ours, theirs) in enumerate(rates, start=1):
            out(f"{'':>9}{index:>8}{ours:>16,.0f}{theirs:>14,.0f}{ours / theirs:>8.2f}x")
        medians[players] = median_ratio(rates)
        out(f"{'':>9}median ratio (Trick Table / OpenSpiel): {medians[players]:.2f}x")
    return medians
