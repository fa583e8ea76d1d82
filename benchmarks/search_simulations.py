"""How many simulations the searching players fit into one decision at their default budget.

``python -m benchmarks.engine`` prints this table; ``--search`` prints it alone.
"""

from __future__ import annotations

# Every simulation of a search player is engine work (a sampled deal built and
# played out to the hand's end) plus the medium players' choices, so a faster
# engine shows up here as more simulations in the same thinking time. The
# decisions are a fixed set: for each seed, a game the medium players play from
# that seed to the middle of a hand (Bid Whist: four tricks played; Wizard:
# three tricks of round 10), on to the first decision there with more than one
# legal action. Each searching level the game registers (hard, and expert where
# it exists) then decides it once from the seat's view, with a seeded RNG and
# its default budget (0.3 s or 400 simulations, whichever ends first).
#
# The players' clock is the process's CPU time instead of the wall clock they
# play by, so other work on a shared machine does not eat into the 0.3 s: the
# count measures this code, not the machine's load.

import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from game.ai import make_player
from game.ai.budget import DEFAULT_BUDGET, SearchBudget
from game.rules import Phase, get_game, make_rules, new_game
from game.rules.engine import GameState

SEARCH_CASES = (("bidwhist", 4), ("wizard", 3), ("wizard", 4), ("wizard", 6))
SEARCH_SEEDS = tuple(range(8))  # decisions per game
SEARCH_LEVELS = ("hard", "expert")  # those a game registers are measured
WIZARD_ROUND = 10  # a long round every table size plays (six players play ten)
TRICKS_PLAYED = {"bidwhist": 4, "wizard": 3}


def search_position(game: str, players: int, seed: int) -> GameState:
    """The decision of ``seed``: the medium players play to mid-hand, then to
    the first seat with a choice to make."""
    rules = make_rules(game)
    if game == "wizard":
        state, _ = new_game(rules, players, seed, first_dealer=seed % players, start_deal=WIZARD_ROUND)
    else:
        state, _ = new_game(rules, players, seed)
    medium = make_player(get_game(game), "medium")
    rng = random.Random(seed)
    tricks = TRICKS_PLAYED[game]
    while not (state.phase == Phase.PLAY and len(state.tricks) >= tricks and len(state.legal_actions()) > 1):
        state.apply_in_place(medium.choose(state.view(state.current), rng), None, False)
    return state


def searching_levels(game: str) -> tuple[str, ...]:
    """The levels of ``SEARCH_LEVELS`` that ``game`` registers."""
    return tuple(level for level in SEARCH_LEVELS if level in get_game(game).ai_levels)


def simulations_per_decision(
    game: str,
    players: int,
    level: str = "hard",
    budget: SearchBudget = DEFAULT_BUDGET,
    seeds: Sequence[int] = SEARCH_SEEDS,
    clock: Callable[[], float] = time.process_time,
) -> list[int]:
    """The simulations the ``level`` player ran for each of the game's fixed decisions
    (0 where it did not search)."""
    player: Any = make_player(get_game(game), level, budget)
    player.clock = clock  # the searching players read their clock from this attribute
    counts = []
    for seed in seeds:
        state = search_position(game, players, seed)
        decision = player.decide(state.view(state.current), random.Random(seed))
        counts.append(decision.search.simulations if decision.search is not None else 0)
    return counts


def search_table(out: Callable[[str], object] = print) -> None:
    out("")
    out(
        f"search players, default budget ({DEFAULT_BUDGET.max_seconds:g} s of CPU or "
        f"{DEFAULT_BUDGET.max_simulations} simulations): simulations per decision, "
        f"{len(SEARCH_SEEDS)} fixed mid-hand decisions per game"
    )
    out(f"{'game':<16}{'level':<8}{'mean':>8}{'median':>8}{'min':>6}{'max':>6}")
    for game, players in SEARCH_CASES:
        for level in searching_levels(game):
            counts = simulations_per_decision(game, players, level)
            label = f"{game} ({players}p)"
            out(
                f"{label:<16}{level:<8}{statistics.mean(counts):>8.1f}{statistics.median(counts):>8g}"
                f"{min(counts):>6}{max(counts):>6}"
            )
