"""The benchmarks' baseline (issue 29) stays frozen: its decisions on fixed positions are recorded here.

The baseline is today's hard players with today's settings (benchmarks/baseline.py), the yardstick Expert
is measured against, so it must not drift when the code it runs on changes.
"""

from __future__ import annotations

# What is recorded. For each game, about twelve positions reached by seeded random play (the seed and the
# number of actions played so far name a position), with the baseline's action there and a fingerprint of
# its search: every candidate it weighed, how many simulations each got and their mean scores. The
# search is capped at 40 simulations and given 60 s, so the time cap never binds and a decision depends on
# the view and the seeded RNG alone. The positions cover the bids, the Wizard trump choice, the Bid Whist
# contract and discards, and card play, and were picked where the search itself decides (it leaves the
# medium player's choice, or a slightly changed search, race or world draw would choose otherwise), so
# that a change to what the baseline runs on (search_pimc, the medium and rollout players, the worlds, the
# engine, hard.py) that changes its play fails here: the actions when a decision changes, the
# fingerprints when the simulations changed (a decision at the full budget of 400 then changes somewhere).
#
# If such a change is meant (it leaves the baseline as strong as before, say an engine speed-up that
# draws its random numbers in another order), run ``PYTHONPATH=. python tests/test_ai_baseline.py`` and paste
# what it prints over ``RECORDED``; figures measured against the old baseline then no longer compare exactly.

import hashlib
import random
from collections.abc import Iterator

import pytest

from benchmarks import ai as tournament
from benchmarks.baseline import (
    BASELINE,
    BASELINE_BUDGET,
    bidwhist_baseline,
    wizard_baseline,
)
from game.ai import levels
from game.ai.budget import SearchBudget
from game.ai.hard import BidWhistHardPlayer, HardDecision, WizardHardPlayer
from game.ai.search_pimc import SearchResult
from game.rules import Phase, all_games, get_game, make_rules, new_game
from game.rules.actions import NEXT_DEAL, action_to_str
from game.rules.view import PlayerView

GOLDEN_BUDGET = SearchBudget(max_simulations=40, max_seconds=60.0)

# game -> (seed, actions played before the position, its phase, the baseline's action, search fingerprint)
RECORDED: dict[str, list[tuple[int, int, str, str, str]]] = {
    "wizard": [
        (1, 56, "PREDICT", "1", "3acf5e6e7d168e54"),
        (2, 57, "PREDICT", "1", "9e6000deeefa9055"),
        (3, 21, "PREDICT", "2", "f996664e42d7a8d7"),
        (2, 26, "PLAY", "4D", "ded613e29e02c6f4"),
        (3, 9, "PREDICT", "0", "149daac947d2fd2d"),
        (5, 21, "PREDICT", "2", "f29acb2deb355923"),
        (5, 40, "PLAY", "QS", "89ab90a28ba18c14"),
        (1, 41, "PLAY", "AH", "e5c3912d491733f4"),
        (1, 40, "PLAY", "6D", "3d091db66fb85fd0"),
        (2, 40, "PLAY", "AS", "8a2ddc2e95d53d08"),
        (3, 42, "PLAY", "7D", "3a6274a7bb3da425"),
        (1, 60, "PLAY", "JE", "4ad33140d061f413"),
        (3, 0, "TRUMP_CHOICE", "trump:S", "21b85c9987714212"),
    ],
    "bidwhist": [
        (2, 3, "BID", "5down", "e428085c504ad921"),
        (6, 1, "BID", "4down", "255f234e70cb22b1"),
        (2, 4, "CONTRACT", "trump:H", "fa9c790df34940dd"),
        (4, 5, "DISCARD", "-2S", "d6525a40d8a79a18"),
        (4, 6, "DISCARD", "-2D", "61e83ef9d3ecb240"),
        (1, 39, "PLAY", "AS", "81ce40f1e67c325b"),
        (1, 43, "PLAY", "3C", "3530663605f89271"),
        (1, 47, "PLAY", "3C", "9dfe09f4f3c88479"),
        (1, 52, "PLAY", "6S", "d063d72a5f9f281e"),
        (2, 35, "PLAY", "AS", "da1b7393ffe5f1bd"),
        (2, 42, "PLAY", "QH", "8602b29fb3cca3c0"),
        (2, 48, "PLAY", "2H", "fe83751841fc32c0"),
    ],
}
# The first rows of RECORDED["wizard"] are positions where the search's MIN_PAIRS 4 or hard's BID_SPREAD 1
# (instead of 6 and 2) changes the action.
SENSITIVE_WIZARD_ROWS = 3


def positions(game: str, wanted: list[tuple[int, int]]) -> Iterator[tuple[int, int, PlayerView]]:
    """The view of the seat to act at each wanted (seed, number of actions played) of seeded random play."""
    by_seed: dict[int, set[int]] = {}
    for seed, index in wanted:
        by_seed.setdefault(seed, set()).add(index)
    for seed, indices in sorted(by_seed.items()):
        state, _ = new_game(make_rules(game), 4, seed)
        play = random.Random(seed)
        index = 0
        while index <= max(indices):
            assert not state.is_terminal, f"{game} seed {seed} ends before action {max(indices)}"
            if state.phase == Phase.HAND_OVER:
                state.apply_in_place(NEXT_DEAL, None, True)
                continue
            if index in indices:
                yield seed, index, state.view(state.current)
            state.apply_in_place(play.choice(state.legal_actions()), None, True)
            index += 1


def fingerprint(search: SearchResult[object] | None) -> str:
    """A short digest of what the search found: each candidate, its simulations and mean score."""
    if search is None:
        return "no search"
    table = ";".join(
        f"{c.candidate}:{c.simulations}:{c.mean_score:.6f}:{c.mean_measure:.6f}" for c in search.candidates
    )
    return hashlib.sha256(table.encode()).hexdigest()[:16]


def baseline_of(game: str, budget: SearchBudget = GOLDEN_BUDGET) -> WizardHardPlayer | BidWhistHardPlayer:
    return wizard_baseline(budget) if game == "wizard" else bidwhist_baseline(budget)


def decide(game: str, wanted: list[tuple[int, int]]) -> list[tuple[int, int, str, str, str]]:
    """The baseline's decision at each wanted position, as ``RECORDED`` writes it."""
    player = baseline_of(game)
    rows = {}
    for seed, index, view in positions(game, wanted):
        decision: HardDecision = player.decide(view, random.Random(seed * 1000 + index))
        rows[seed, index] = (seed, index, view.phase.name, action_to_str(decision.action), fingerprint(decision.search))
    return [rows[place] for place in wanted]


@pytest.mark.parametrize("game", ["wizard", "bidwhist"])
def test_the_baseline_still_decides_and_searches_as_recorded(game: str) -> None:
    today = decide(game, [(seed, index) for seed, index, *_ in RECORDED[game]])
    assert len(today) >= 12
    decided_otherwise = [(old[:3], old[3], new[3]) for new, old in zip(today, RECORDED[game]) if new[:4] != old[:4]]
    assert not decided_otherwise, f"the baseline's decisions changed (position, was, now): {decided_otherwise}"
    searched_otherwise = [old[:3] for new, old in zip(today, RECORDED[game]) if new[4] != old[4]]
    assert not searched_otherwise, f"the baseline's simulations changed at {searched_otherwise}"


def test_the_recorded_positions_cover_every_kind_of_decision() -> None:
    assert {phase for _, _, phase, _, _ in RECORDED["wizard"]} == {"PREDICT", "TRUMP_CHOICE", "PLAY"}
    assert {phase for _, _, phase, _, _ in RECORDED["bidwhist"]} == {"BID", "CONTRACT", "DISCARD", "PLAY"}


def test_a_changed_search_changes_a_recorded_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    """The positions can tell a changed player apart: with the search's racing or its bid spread changed,
    some recorded Wizard decision comes out otherwise (checked where the record says it does)."""
    import game.ai.hard as hard
    import game.ai.search_pimc as search_pimc

    monkeypatch.setattr(search_pimc, "MIN_PAIRS", 4)
    monkeypatch.setattr(hard, "BID_SPREAD", 1)
    wanted = [(seed, index) for seed, index, *_ in RECORDED["wizard"]][:SENSITIVE_WIZARD_ROWS]
    recorded = [action for _, _, _, action, _ in RECORDED["wizard"][:SENSITIVE_WIZARD_ROWS]]
    assert [action for _, _, _, action, _ in decide("wizard", wanted)] != recorded


def test_the_baseline_keeps_todays_settings_under_its_own_name() -> None:
    assert BASELINE_BUDGET == SearchBudget(max_simulations=400, max_seconds=0.3)
    wizard = wizard_baseline()
    assert isinstance(wizard, WizardHardPlayer)
    assert (wizard.budget, wizard.spoil_weight, wizard.play_fit_tries) == (BASELINE_BUDGET, 0.5, 4)
    assert (wizard.deviation_z, wizard.play_deviation_z, wizard.race_z) == (0.0, 0.0, 2.0)
    bidwhist = bidwhist_baseline()
    assert isinstance(bidwhist, BidWhistHardPlayer)
    assert (bidwhist.budget, bidwhist.deviation_z, bidwhist.race_z) == (BASELINE_BUDGET, 0.0, 2.0)
    for game_def in all_games():
        assert BASELINE not in levels(game_def)  # never in the game's registry or menus
    for name in ("wizard", "bidwhist"):
        assert BASELINE in tournament.known_levels(get_game(name))


def test_the_command_line_budget_reaches_the_baseline() -> None:
    game_def = get_game("bidwhist")
    player = tournament.build_player(game_def, tournament.LevelSpec(BASELINE, budget_seconds=0.05))
    assert isinstance(player, BidWhistHardPlayer)
    assert player.budget == SearchBudget(max_simulations=400, max_seconds=0.05)
    player = tournament.build_player(game_def, tournament.LevelSpec(BASELINE, simulations=30))
    assert isinstance(player, BidWhistHardPlayer)
    assert player.budget == SearchBudget(max_simulations=30, max_seconds=0.3)
    assert tournament.budget_text(game_def, tournament.LevelSpec(BASELINE)) == "baseline 400 simulations or 0.3 s"


if __name__ == "__main__":
    # Re-record (see the header comment): the same positions, today's decisions.
    for name in ("wizard", "bidwhist"):
        print(f'    "{name}": [')
        for seed, index, phase, action, digest in decide(name, [(seed, index) for seed, index, *_ in RECORDED[name]]):
            print(f'        ({seed}, {index}, "{phase}", "{action}", "{digest}"),')
        print("    ],")
