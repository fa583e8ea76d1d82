"""The regret of a searching level against its own model's best (benchmarks/ai_regret.py), on tiny sizes.

Checks what its figures rest on: a seed always reaches the same decision of the phase asked for, every
candidate of the long search is valued, a regret is never negative and the model's best has none, and the
report averages a position's decisions before the positions and counts what it leaves out."""

from __future__ import annotations

import pytest

from benchmarks import ai_regret
from game.ai.budget import SearchBudget


@pytest.mark.parametrize("game", ai_regret.GAMES)
@pytest.mark.parametrize("phase", ai_regret.PHASES)
def test_a_seed_reaches_the_same_decision_of_its_phase(game: str, phase: str) -> None:
    for seed in range(3):
        state = ai_regret.reach_position(game, seed, phase)
        again = ai_regret.reach_position(game, seed, phase)
        if state is None:
            assert again is None
            continue
        assert again is not None
        assert state.phase in ai_regret.PHASE_OF[phase] and len(state.legal_actions()) > 1
        assert state.view(state.current) == again.view(again.current)


def test_bid_positions_come_after_each_number_of_earlier_bids() -> None:
    for game in ai_regret.GAMES:
        reached = [ai_regret.reach_position(game, seed, "bid") for seed in range(40)]
        before = {ai_regret.bids_made(state) for state in reached if state is not None}
        assert before == {0, 1, 2, 3}, game


def test_a_position_is_valued_for_every_candidate_and_no_regret_is_negative() -> None:
    job = ai_regret.Job("wizard", "play", "hard", 3, 8, 3, SearchBudget(max_simulations=6, max_seconds=1000.0))
    result = ai_regret.measure_position(job)
    assert result is not None and result.candidates >= 2
    assert len(result.regrets) + result.left_out == 3
    assert all(regret >= 0 for regret in result.regrets) and result.medium_regret >= 0
    assert 0 <= result.chose_best <= 1 and result.value_error >= 0
    assert result.simulations == 6  # the level's budget, not the long search's
    # The same job gives the same figures: every search has its own seed, and no time cap binds.
    assert ai_regret.measure_position(job) == result


def position(regrets: tuple[float, ...], medium: float = 0.0, left_out: int = 0) -> ai_regret.PositionResult:
    best = sum(regret == 0 for regret in regrets) / len(regrets) if regrets else 0.0
    return ai_regret.PositionResult(regrets, medium, best, 3, 0.5, 100.0, left_out)


def test_the_report_averages_a_positions_decisions_first_and_names_what_it_left_out() -> None:
    results = [position((0.0, 2.0), medium=4.0), position((1.0,), medium=0.0), position((), left_out=2)]
    lines = ai_regret.report("wizard", "bid", "expert", results)
    assert lines[0].startswith("wizard bid: expert, 2 positions, 3.0 candidates a position")
    # Per position 1.0 and 1.0: the mean is 1, with no spread between positions.
    assert "regret of its choice" in lines[1] and lines[1].endswith("1.000 ± 0.000")
    assert "regret of the medium choice" in lines[2] and "2.000 ± " in lines[2]
    assert "took the model's best (%)" in lines[3] and "25.0 ± " in lines[3]
    assert lines[-1] == "  2 decision(s) left out: their choice was not among the long search's candidates"
    # Bid Whist's expert plays for the game: its figures are percentage points of the chance to win it.
    assert "(percentage points)" in ai_regret.report("bidwhist", "bid", "expert", results)[1]
    assert ai_regret.report("bidwhist", "play", "expert", []) == ["bidwhist play: no positions"]


def test_the_command_line_runs_a_tiny_measurement(capsys: pytest.CaptureFixture[str]) -> None:
    ai_regret.main(
        ["--game", "wizard", "--phase", "bid", "--level", "hard", "--positions", "2", "--truth-simulations", "4"]
        + ["--repeats", "1", "--simulations", "4"]
    )
    out = capsys.readouterr().out
    assert "Machine:" in out and "1 decisions a position at 4 simulations" in out
    assert "wizard bid: hard, " in out and "regret of its choice" in out
    with pytest.raises(SystemExit):
        ai_regret.main(["--level", "medium"])
