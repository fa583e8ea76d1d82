"""The tournament's fixed yardstick: the hard players as they were when Expert was begun (issue 29).

Only the benchmarks know the level ``baseline``; the game's registry and menus never offer it.
"""

from __future__ import annotations

# Why a frozen copy of the settings rather than ``make_player(game, "hard")``: the hard level may be
# retuned later, and a measurement of Expert "against hard" would then quietly change its yardstick.
# The baseline is today's ``WizardHardPlayer`` and ``BidWhistHardPlayer`` with every setting they took
# by default on 2026-12-03 written out here, so a new default in ``game.ai.hard``, ``game.ai.budget``
# or ``game.ai.wizard_worlds`` leaves it alone. What cannot be pinned by a setting (the search in
# ``search_pimc``, the medium players it rolls out with, the worlds it draws, the engine, and hard's
# own module constants ``BID_SPREAD`` 2 and ``MAX_DISCARD_SETS`` 6) is pinned by
# tests/test_ai_baseline.py instead: the baseline's decisions on fixed positions are recorded there,
# so a change to any of that code which changes a decision fails the test.
#
# ``--budget-seconds`` and ``--simulations`` of ``benchmarks.ai`` still apply: each factory takes
# ``budget=`` like the registry's searching players, and the frozen budget below fills in whichever
# limit the command line leaves out.

from collections.abc import Callable, Mapping

from game.ai import ComputerPlayer
from game.ai.budget import SearchBudget
from game.ai.hard import BidWhistHardPlayer, WizardHardPlayer

__all__ = [
    "BASELINE",
    "BASELINE_BUDGET",
    "BASELINE_DEVIATION_Z",
    "BASELINE_PLAY_FIT_TRIES",
    "BASELINE_RACE_Z",
    "BASELINE_SPOIL_WEIGHT",
    "baseline_factories",
    "bidwhist_baseline",
    "wizard_baseline",
]

BASELINE = "baseline"  # the level's name on the benchmarks' command line and in their tables

# The hard players' defaults on 2026-12-03 (game.ai.budget.DEFAULT_BUDGET, hard.SPOIL_WEIGHT,
# wizard_worlds.PLAY_FIT_TRIES, _HardPlayer.deviation_z): 400 simulations or 0.3 s a decision,
# whichever ends first.
BASELINE_BUDGET = SearchBudget(max_simulations=400, max_seconds=0.3)
# Wizard: how much the others' mean round score counts against the seat's own in a simulation.
BASELINE_SPOIL_WEIGHT = 0.5
# Wizard, in play: bid-fitted worlds drawn per world to find one that explains the cards played.
BASELINE_PLAY_FIT_TRIES = 4
# Standard errors of paired gain a candidate needs to replace the medium player's choice (bids,
# trump, discards and cards alike).
BASELINE_DEVIATION_Z = 0.0
# Standard errors behind the leader that drop a candidate from the search's race (search_pimc.RACE_Z
# then; a player setting, ``race_z``, since 2026-12-05).
BASELINE_RACE_Z = 2.0


def wizard_baseline(budget: SearchBudget | None = None) -> WizardHardPlayer:
    """The frozen hard Wizard player (``budget``: another budget, e.g. from the command line)."""
    player = WizardHardPlayer(
        budget if budget is not None else BASELINE_BUDGET,
        spoil_weight=BASELINE_SPOIL_WEIGHT,
        play_deviation_z=BASELINE_DEVIATION_Z,
        play_fit_tries=BASELINE_PLAY_FIT_TRIES,
    )
    player.deviation_z = BASELINE_DEVIATION_Z  # class defaults in hard.py: pinned on the instance
    player.race_z = BASELINE_RACE_Z
    return player


def bidwhist_baseline(budget: SearchBudget | None = None) -> BidWhistHardPlayer:
    """The frozen hard Bid Whist player (``budget``: another budget, e.g. from the command line)."""
    player = BidWhistHardPlayer(budget if budget is not None else BASELINE_BUDGET)
    player.deviation_z = BASELINE_DEVIATION_Z
    player.race_z = BASELINE_RACE_Z
    return player


_FACTORIES: Mapping[str, Callable[..., ComputerPlayer]] = {
    "wizard": wizard_baseline,
    "bidwhist": bidwhist_baseline,
}


def baseline_factories() -> Mapping[str, Callable[..., ComputerPlayer]]:
    """Game name -> the factory of its baseline player (taking an optional ``budget``)."""
    return _FACTORIES
