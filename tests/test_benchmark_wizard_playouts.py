"""The play-out policies' comparison (benchmarks/wizard_playouts.py), on tiny sizes."""

from __future__ import annotations

import pytest

from benchmarks import wizard_playouts


def test_the_medium_policy_against_medium_seats_plays_their_games_exactly() -> None:
    result = wizard_playouts.play_seed(41, wizard_playouts.POLICIES["medium"])
    assert result.lead == 0 and result.policy_hits == result.medium_hits
    assert str(result.lead) == "0.0"  # exactly, not a rounding away from it


def test_every_policy_plays_legal_cards_through_whole_games() -> None:
    # ``play_seed`` applies every card with the rules' check: an illegal card would raise.
    for name, policy in wizard_playouts.POLICIES.items():
        result = wizard_playouts.play_seed(42, policy)
        assert 0 <= result.policy_hits <= 1, name


def test_the_benchmark_prints_each_policy_and_the_play_out_times(capsys: pytest.CaptureFixture[str]) -> None:
    wizard_playouts.main(["--policies", "medium,sharp", "--games", "2", "--jobs", "1"])
    out = capsys.readouterr().out
    assert "medium        +0.00 ± 0.00 points a round" in out
    assert "sharp" in out and out.count("ms CPU a round") == 2


def test_an_unknown_policy_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        wizard_playouts.main(["--policies", "medium,clever"])
    assert "clever" in capsys.readouterr().err
