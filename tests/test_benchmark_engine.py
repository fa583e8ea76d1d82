"""The engine benchmark's comparison with OpenSpiel and its search report, on tiny sizes.

OpenSpiel is a benchmark requirement only, so these tests never need it: a missing one is
injected (``pyspiel`` made unimportable), and the comparison runs against a stand-in
with pyspiel's interface. Figures are never asserted.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from benchmarks import engine, engine_vs_openspiel as versus
from benchmarks.search_simulations import searching_levels, simulations_per_decision
from game.ai.budget import SearchBudget

REPO_ROOT = Path(__file__).resolve().parent.parent


def test_without_openspiel_the_comparison_says_how_to_install_it_and_exits_cleanly(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # ``import pyspiel`` now raises ImportError
    monkeypatch.setattr(sys, "argv", ["benchmarks.engine", "--vs-openspiel", "--seconds", "0.01", "--pairs", "1"])
    engine.main()  # returns: no exception, no SystemExit with an error code
    printed = capsys.readouterr().out
    assert "pip install -r requirements-bench.txt" in printed
    assert versus.OPENSPIEL_REQUIREMENT in printed
    assert "median ratio" not in printed


@pytest.mark.parametrize("pairs", ["0", "-2", "five"])
def test_a_number_of_pairs_that_is_not_one_or_more_is_refused_with_a_message(
    pairs: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "argv", ["benchmarks.engine", "--vs-openspiel", "--pairs", pairs])
    with pytest.raises(SystemExit) as exit_info:
        engine.main()
    assert exit_info.value.code == 2  # argparse's usage error, not a traceback
    assert "--pairs" in capsys.readouterr().err


def test_openspiel_is_pinned_for_the_benchmark_only() -> None:
    bench = (REPO_ROOT / "requirements-bench.txt").read_text(encoding="utf-8")
    assert versus.OPENSPIEL_REQUIREMENT == "open_spiel==1.6.1"
    assert versus.OPENSPIEL_REQUIREMENT in bench.splitlines()
    for name in ("requirements.txt", "requirements-dev.txt", "pyproject.toml"):
        assert "open_spiel" not in (REPO_ROOT / name).read_text(encoding="utf-8"), name


@dataclass(frozen=True)
class _Step:
    player: int


class _FakeState:
    """pyspiel's state interface for a tiny game: a chance deal, then three decisions."""

    def __init__(self) -> None:
        self.history: list[_Step] = []

    def is_terminal(self) -> bool:
        return len(self.history) == 4

    def legal_actions(self) -> list[int]:
        return [0, 1, 2]

    def apply_action(self, action: int) -> None:
        self.history.append(_Step(-1 if not self.history else len(self.history) % 2))

    def full_history(self) -> list[_Step]:
        return self.history


class _FakePyspiel:
    games: list[tuple[str, dict[str, int]]] = []

    @classmethod
    def load_game(cls, name: str, parameters: dict[str, int]) -> _FakePyspiel:
        cls.games.append((name, parameters))
        return cls()

    def new_initial_state(self) -> _FakeState:
        return _FakeState()


def test_the_comparison_interleaves_pairs_and_prints_each_and_the_median() -> None:
    lines: list[str] = []
    medians = versus.compare(pairs=3, seconds=0.001, player_counts=(4,), out=lines.append, pyspiel=_FakePyspiel)
    assert _FakePyspiel.games == [("oh_hell", {"players": 4})]
    assert set(medians) == {4} and medians[4] > 0
    pair_lines = [line for line in lines if line.rstrip().endswith("x") and "median" not in line]
    assert len(pair_lines) == 3
    assert lines[-1].strip() == f"median ratio (Trick Table / OpenSpiel): {medians[4]:.2f}x"


def test_openspiel_is_credited_with_its_players_decisions_only() -> None:
    decisions, seconds = versus.openspiel_run(_FakePyspiel, 4, seed=1)(1e-9)  # one game
    assert decisions == 3 and seconds > 0  # the chance deal is not a decision


def test_trick_table_is_credited_with_its_players_decisions_only() -> None:
    decisions, _ = versus.tricktable_run(3, seed=1)(1e-9)  # one game of 20 rounds
    bids, cards = 3 * 20, 3 * sum(range(1, 21))
    # The 19 NEXT_DEAL steps are no decision; a trump choice after a Wizard turn-up is.
    assert bids + cards <= decisions <= bids + cards + 20


def test_the_runs_alternate_which_engine_goes_first() -> None:
    order: list[str] = []

    def run(name: str, rate: int) -> versus.Run:
        def measure(seconds: float) -> tuple[int, float]:
            order.append(name)
            return rate, 1.0

        return measure

    rates = versus.interleaved_pairs(run("ours", 6), run("theirs", 3), pairs=3, seconds=0.5)
    assert order == ["ours", "theirs", "theirs", "ours", "ours", "theirs"]
    assert rates == [(6.0, 3.0)] * 3


def test_the_median_ratio_is_the_median_of_the_pairs_ratios() -> None:
    assert versus.median_ratio([(2.0, 1.0), (3.0, 1.0), (1.0, 2.0)]) == 2.0


@pytest.mark.parametrize(("game", "players"), [("bidwhist", 4), ("wizard", 4)])
def test_the_search_report_counts_each_fixed_decisions_simulations(game: str, players: int) -> None:
    assert "hard" in searching_levels(game)
    counts = simulations_per_decision(game, players, "hard", SearchBudget(3, 60.0), seeds=(1,))
    assert counts == [3]  # the simulation cap ends this search, never the time
