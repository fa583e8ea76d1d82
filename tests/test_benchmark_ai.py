"""The duplicate-deal tournament of benchmarks/ai.py, on tiny sizes.

Checks the claim the tournament rests on (one seed gives every seat the same cards in every deal,
whoever sits where and however they play), that the seat rotation cancels the deal's luck exactly
when both sides play alike, the confidence-interval arithmetic, and that the command prints its
tables (a match-up with an unregistered level is named and skipped), the Bid Whist contracts by level, the
machine and budgets in the header, and the run-time forecast from each level's own budget (issue 29).

An ``expert`` level is stood in for by ``stand_in_expert`` (the first legal action, with a 1 s budget to
read), registered for the test alone, so these tests neither wait for nor depend on the real one."""

from __future__ import annotations

import argparse
import os
import platform
import random
import time
from pathlib import Path

import pytest

from benchmarks import ai as tournament
from benchmarks.baseline import BASELINE
from benchmarks.oracle import ORACLE
from game.ai import RandomPlayer
from game.ai.budget import SearchBudget
from game.rules import GameDef, get_game, make_rules, new_game
from game.rules.actions import NEXT_DEAL
from game.rules.core import Phase
from game.rules.events import Dealt
from test_ai import FirstLegalPlayer  # always the first legal action: no randomness at all


def deals_of_a_random_game(game: str, seed: int, play_seed: int) -> dict[int, tuple[int, tuple[tuple[int, ...], ...]]]:
    """Deal number -> (dealer, hands per seat) of one game of seed ``seed`` played at random."""
    # A long Bid Whist game, so that random play (which bids high and goes set) reaches several deals.
    overrides = {"target_score": 40} if game == "bidwhist" else {}
    state, events = new_game(make_rules(game, overrides), 4, seed)
    rng = random.Random(play_seed)
    deals = {}
    while True:
        for event in events:
            if isinstance(event, Dealt):
                deals[event.number] = (event.dealer, event.hands)
        if state.is_terminal:
            return deals
        events = []
        action = NEXT_DEAL if state.phase == Phase.HAND_OVER else rng.choice(state.legal_actions())
        state.apply_in_place(action, events, True)


@pytest.mark.parametrize("game", ["wizard", "bidwhist"])
def test_one_seed_gives_each_seat_the_same_cards_whatever_the_play(game: str) -> None:
    first = deals_of_a_random_game(game, seed=4, play_seed=1)
    second = deals_of_a_random_game(game, seed=4, play_seed=2)
    shared = set(first) & set(second)
    assert len(shared) >= 2
    for number in shared:
        assert first[number] == second[number], f"deal {number} differs between two plays of one seed"
    other_seed = deals_of_a_random_game(game, seed=5, play_seed=1)
    assert other_seed[1] != first[1]


def test_the_rotation_cancels_the_deal_exactly_between_equal_players(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tournament, "build_player", lambda game_def, spec: FirstLegalPlayer())
    spec = tournament.LevelSpec("first")
    wizard = tournament.play_wizard_set(spec, spec, seed=3)
    assert wizard.games == 4
    assert wizard.a_rounds == 15 * 4 and wizard.b_rounds == 3 * wizard.a_rounds
    assert wizard.a_hits * 3 == wizard.b_hits
    assert wizard.a_points * 3 == wizard.b_points
    assert wizard.a_rank == 4 * 2.5  # A takes each seat's rank once: 1 + 2 + 3 + 4 (ties shared)
    bidwhist = tournament.play_bidwhist_set(spec, spec, seed=3)
    assert bidwhist.games == 2 and bidwhist.a_wins == 1
    assert bidwhist.a_points == bidwhist.b_points


def test_a_set_records_results_calls_and_times_per_level() -> None:
    medium, random_level = tournament.LevelSpec("medium"), tournament.LevelSpec("random")
    wizard = tournament.play_wizard_set(medium, random_level, seed=1)
    assert set(wizard.times) == {"medium", "random"}
    # Every bid and card of A's seat in the four games, plus a trump choice when a Wizard turns up.
    plain = tournament.decisions_per_set("wizard", 1)
    assert plain <= len(wizard.times["medium"]) <= plain + 4 * 15
    assert 0 <= wizard.a_hits <= wizard.a_rounds and 1 <= wizard.a_rank / wizard.games <= 4
    bidwhist = tournament.play_bidwhist_set(medium, random_level, seed=1)
    assert bidwhist.games == 2 and 0 <= bidwhist.a_wins <= 2
    assert bidwhist.a_rounds >= 2
    calls = bidwhist.calls["random"]
    assert sum(calls.values()) >= 2 and set(calls) <= set(range(8))


def test_the_ranks_share_ties() -> None:
    assert tournament._ranks([10, 30, 20, 0]) == [3, 1, 2, 4]
    assert tournament._ranks([5, 5, 0, 9]) == [2.5, 2.5, 4, 1]


def test_confidence_intervals_and_percentiles() -> None:
    spread = tournament.estimate([1.0, 3.0])
    assert spread.mean == 2.0
    assert spread.half_width == pytest.approx(1.959964)  # standard deviation sqrt(2), over sqrt(2) sets
    assert tournament.estimate([4.0]).half_width == 0.0
    assert tournament.estimate([0.25, 0.75]).text(1, 100) == "50.0 ± 49.0"
    values = [float(v) for v in range(1, 101)]
    assert tournament.percentile(values, 0.95) == 95.0
    assert tournament.percentile(values, 0.5) == 50.0


def test_parallel_sets_give_the_same_results_as_one_process() -> None:
    medium, random_level = tournament.LevelSpec("medium"), tournament.LevelSpec("random")
    alone = tournament.run_matchup("bidwhist", medium, random_level, [1, 2], jobs=1)
    shared = tournament.run_matchup("bidwhist", medium, random_level, [1, 2], jobs=2)
    assert [(s.a_wins, s.a_points, s.b_points, s.calls) for s in alone] == [
        (s.a_wins, s.a_points, s.b_points, s.calls) for s in shared
    ]


def test_the_command_prints_one_table_per_match_up(capsys: pytest.CaptureFixture[str]) -> None:
    tournament.main(["--levels", "medium,random", "--games", "1", "--seed", "2"])
    out = capsys.readouterr().out
    assert out.startswith("Machine: ")
    assert "one medium (A) vs three random (B); 1 duplicate sets, 4 games" in out
    assert "team of medium (A) vs team of random (B); 1 duplicate sets, 2 games" in out
    for label in (
        "bid-hit rate A (%)",
        "mean final rank A (1-4)",
        "games won by A (%)",
        "points per hand A",
        "medium calls (",
        "medium decision time (",
        "95th percentile",
    ):
        assert label in out


def test_a_match_up_with_an_unknown_level_is_skipped(capsys: pytest.CaptureFixture[str]) -> None:
    tournament.main(["--game", "wizard", "--levels", "medium,grandmaster", "--games", "1"])
    assert "medium vs grandmaster skipped: no grandmaster level registered" in capsys.readouterr().out


def test_a_budget_is_refused_for_a_level_without_search() -> None:
    game_def: GameDef = get_game("wizard")
    assert tournament.budget_seconds_of(game_def, tournament.LevelSpec("medium")) is None
    with pytest.raises(SystemExit):
        tournament.build_player(game_def, tournament.LevelSpec("random", budget_seconds=0.1))
    assert isinstance(tournament.build_player(game_def, tournament.LevelSpec("random")), RandomPlayer)


class StandInExpert(FirstLegalPlayer):
    """What the tournament reads of a searching level: a ``budget``, here 1 s a decision like Expert's."""

    def __init__(self, budget: SearchBudget | None = None) -> None:
        self.budget = budget if budget is not None else SearchBudget(max_simulations=400, max_seconds=1.0)


def stand_in_expert(budget: SearchBudget | None = None) -> StandInExpert:
    return StandInExpert(budget)


@pytest.fixture
def expert_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("wizard", "bidwhist"):
        monkeypatch.setitem(get_game(name).ai_levels, "expert", "test_benchmark_ai:stand_in_expert")


@pytest.fixture
def no_expert_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("wizard", "bidwhist"):
        monkeypatch.delitem(get_game(name).ai_levels, "expert", raising=False)


def test_bid_whist_contracts_are_counted_by_the_declarers_level() -> None:
    medium, easy = tournament.LevelSpec("medium"), tournament.LevelSpec("easy")
    result = tournament.play_bidwhist_set(medium, easy, seed=2)
    tallies = [t for by_books in result.contracts.values() for t in by_books.values()]
    assert set(result.contracts) == {"medium", "easy"}
    assert all(set(by_books) <= set(range(1, 8)) for by_books in result.contracts.values())
    assert all(0 <= t.made <= t.declared for t in tallies)
    assert sum(t.made for t in tallies) >= 1 and sum(t.declared - t.made for t in tallies) >= 1
    # One contract a hand (no hand is thrown in under the default rules), and only the declaring team
    # scores: each level's contracts carry every point its team scored.
    assert sum(t.declared for t in tallies) == result.a_rounds
    assert sum(t.points for t in result.contracts["medium"].values()) == result.a_points
    assert sum(t.points for t in result.contracts["easy"].values()) == result.b_points
    # Under the default target every contract's change in game chance is counted; a made contract
    # raises its team's chance and a set one lowers it, so the sums follow the contracts made and set.
    for by_books in result.contracts.values():
        for t in by_books.values():
            assert t.chance_counted == t.declared
            assert 0 <= t.behind_made <= min(t.behind, t.made) and t.behind <= t.declared
            if t.made == t.declared:
                assert t.chance_gain > 0
            if t.made == 0:
                assert t.chance_gain < 0
    assert any(t.behind for by_books in result.contracts.values() for t in by_books.values())


def test_the_table_lists_each_levels_contracts_by_the_books_bid() -> None:
    both = tournament.SetResult(games=2, a_rounds=4, a_wins=1)
    both.contracts = {
        "expert": {
            4: tournament.ContractTally(
                declared=3, made=2, points=4, behind=2, behind_made=1, chance_gain=0.3, chance_counted=3
            ),
            7: tournament.ContractTally(1, 1, 7),
        },
    }
    other = tournament.SetResult(games=2, a_rounds=4, a_wins=2)
    other.contracts = {
        "expert": {
            4: tournament.ContractTally(declared=1, made=0, points=-4, behind=1, chance_gain=-0.1, chance_counted=1)
        }
    }
    lines = tournament.report("bidwhist", "expert", "baseline", [both, other])
    assert "  expert contracts declared (5), by the books bid (and the books to take):" in lines
    header = lines.index("  expert contracts declared (5), by the books bid (and the books to take):")
    assert lines[header + 1].split() == [
        "bid", "books", "declared", "made", "set", "mean", "points", "behind", "(made)", "game", "chance"
    ]  # fmt: skip
    # Four contracts at 4 books, three from behind (one made); game chance (0.3 - 0.1) / 4 = +5.0 points.
    assert lines[header + 2].split() == ["4", "10", "4", "2", "2", "+0.00", "3", "(1)", "+5.0"]
    assert lines[header + 3].split() == ["7", "13", "1", "1", "0", "+7.00", "0", "(0)", "-"]
    assert "  baseline contracts: none declared" in lines


def test_the_table_gives_the_headline_figures_with_their_intervals() -> None:
    """Wizard: A's points a round minus B's; Bid Whist: the share of games A's team won; each with the
    half-width of its 95% interval over the sets."""
    sets = [
        tournament.SetResult(games=4, a_rounds=10, b_rounds=30, a_points=100, b_points=150, a_rank=8),
        tournament.SetResult(games=4, a_rounds=10, b_rounds=30, a_points=40, b_points=150, a_rank=8),
    ]
    wizard = tournament.report("wizard", "expert", "baseline", sets)
    difference = next(line for line in wizard if "A - B per round" in line)
    # Per set A - B: 10 - 5 = +5 and 4 - 5 = -1; mean +2, half-width 1.96 * sqrt(18) / sqrt(2) = 5.88.
    assert difference.split("per round")[1].strip() == "+2.00 ± 5.88"
    sets = [tournament.SetResult(games=2, a_rounds=6, a_wins=w) for w in (2, 1, 1, 0)]
    bidwhist = tournament.report("bidwhist", "expert", "baseline", sets)
    won = next(line for line in bidwhist if "games won by A (%)" in line)
    assert won.split("(%)")[1].strip() == "50.0 ± 40.0"  # shares 1, .5, .5, 0: sd 0.408, over 2


def test_the_header_names_the_machine(tmp_path: Path) -> None:
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text("processor\t: 0\nvendor_id\t: Test\nmodel name\t: Test CPU 9000 @ 3 GHz\n\nprocessor\t: 1\n")
    text = tournament.machine_text(cpuinfo)
    assert "Test CPU 9000 @ 3 GHz" in text
    assert platform.platform() in text and f"{os.cpu_count()} logical processors" in text
    arm = tmp_path / "arm"
    arm.write_text("processor : 0\nBogoMIPS : 108.00\n\nHardware : BCM2835\nModel : Raspberry Pi 4\n")
    assert tournament.cpu_model(arm) == "BCM2835"
    assert tournament.cpu_model(tmp_path / "missing") is None  # no /proc (macOS, Windows): no crash
    (tmp_path / "binary").write_bytes(b"\xff\xfe model name")
    assert tournament.cpu_model(tmp_path / "binary") is None


def test_the_forecast_reads_each_levels_own_budget(expert_registered: None) -> None:
    wizard_one, wizard_three = tournament.decisions_per_set("wizard", 1), tournament.decisions_per_set("wizard", 3)
    expert, baseline = tournament.LevelSpec("expert"), tournament.LevelSpec(BASELINE)
    assert tournament.forecast_seconds("wizard", expert, baseline, 4, 2) == pytest.approx(
        (wizard_one * 1.0 + wizard_three * 0.3) * 4 / 2
    )
    faster = tournament.LevelSpec("expert", budget_seconds=0.5)
    assert tournament.forecast_seconds("wizard", faster, tournament.LevelSpec("medium"), 4, 1) == pytest.approx(
        wizard_one * 0.5 * 4
    )
    # One set keeps one process busy however many there are.
    bidwhist = tournament.forecast_seconds("bidwhist", expert, tournament.LevelSpec("random"), 1, 2)
    assert bidwhist == pytest.approx(tournament.decisions_per_set("bidwhist", 2) * 1.0)
    without_search = tournament.LevelSpec("medium"), tournament.LevelSpec("easy")
    assert tournament.forecast_seconds("bidwhist", *without_search, 9, 1) == 0


def test_an_expert_match_up_prints_its_budgets_forecast_and_decision_times(
    expert_registered: None, capsys: pytest.CaptureFixture[str]
) -> None:
    tournament.main(["--game", "bidwhist", "--levels", "expert,random", "--games", "1"])
    out = capsys.readouterr().out
    assert "bidwhist: expert vs random (budget a decision: expert 400 simulations or 1 s; random no search)" in out
    assert f"up to about {tournament.duration(tournament.decisions_per_set('bidwhist', 2))})" in out
    assert "expert decision time (" in out and "random decision time (" in out
    assert "expert contracts" in out and "random contracts" in out


def test_a_level_may_think_for_a_time_of_its_own(expert_registered: None, capsys: pytest.CaptureFixture[str]) -> None:
    tournament.main(["--game", "bidwhist", "--levels", "expert@0.5,expert", "--games", "1"])
    out = capsys.readouterr().out
    header = "bidwhist: expert@0.5 vs expert (budget a decision: expert@0.5 400 simulations or 0.5 s; expert 400"
    assert header in out
    assert "team of expert@0.5 (A) vs team of expert (B)" in out
    assert "expert@0.5 decision time (" in out and "\n  expert decision time (" in out, "each counted apart"
    assert tournament.level_and_seconds("baseline@2.7") == ("baseline", 2.7)
    assert tournament.level_and_seconds("baseline") == ("baseline", None)
    for token in ("expert@0", "expert@-1", "expert@soon", "expert@inf", "expert@nan", "@1"):
        with pytest.raises(SystemExit, match="LEVEL@SECONDS"):
            tournament.level_and_seconds(token)
    own_time = tournament.spec_for(
        "medium@1", argparse.Namespace(simulations=None, wall_clock=False), get_game("wizard")
    )
    with pytest.raises(SystemExit, match="no search budget"):
        tournament.build_player(get_game("wizard"), own_time)


def test_by_default_expert_meets_the_baseline_first(
    no_expert_registered: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    played: list[tuple[str, str, str]] = []

    def one_set(a: tournament.LevelSpec, b: tournament.LevelSpec, seed: int) -> tournament.SetResult:
        played.append(("wizard", a.level, b.level))
        return tournament.SetResult(games=4, a_rounds=15, b_rounds=45, a_rank=10)

    monkeypatch.setitem(tournament.SET_PLAYERS, "wizard", one_set)
    tournament.main(["--game", "wizard", "--games", "1"])
    out = capsys.readouterr().out
    assert tournament.matchups(argparse.Namespace(levels=None, yardstick=False))[0] == ("expert", BASELINE)
    known = "random, easy, medium, hard, baseline, oracle"
    skipped = f"wizard: expert vs baseline skipped: no expert level registered (known: {known})"
    assert skipped in out
    assert played == [("wizard", "hard", "medium"), ("wizard", "medium", "easy")]


def test_the_baseline_and_the_oracle_are_levels_only_the_benchmarks_know(no_expert_registered: None) -> None:
    for name in ("wizard", "bidwhist"):
        game_def = get_game(name)
        assert BASELINE not in game_def.ai_levels
        assert tournament.known_levels(game_def)[-2:] == (BASELINE, ORACLE)
        assert tournament.budget_seconds_of(game_def, tournament.LevelSpec(BASELINE)) == 0.3
    with pytest.raises(ValueError, match="unknown computer level 'expert'"):
        tournament.build_player(get_game("wizard"), tournament.LevelSpec("expert"))


def test_searching_levels_think_in_cpu_time_unless_the_wall_clock_is_asked_for() -> None:
    wizard = get_game("wizard")
    assert tournament.build_player(wizard, tournament.LevelSpec("expert")).clock is time.process_time  # type: ignore[attr-defined]
    walled = tournament.build_player(wizard, tournament.LevelSpec("baseline", simulations=10, wall_clock=True))
    assert walled.clock is not time.process_time  # type: ignore[attr-defined]
    assert not hasattr(tournament.build_player(wizard, tournament.LevelSpec("medium")), "clock")


def test_a_run_stopped_early_reports_the_sets_it_finished(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    played: list[int] = []

    def play_or_stop(job: tuple[str, tournament.LevelSpec, tournament.LevelSpec, int]) -> tournament.SetResult:
        if played:
            raise KeyboardInterrupt  # as a Ctrl+C (or a SIGTERM) in the second set
        played.append(job[3])
        return real_play_set(job)

    real_play_set = tournament._play_set
    monkeypatch.setattr(tournament, "_play_set", play_or_stop)
    spec = tournament.LevelSpec("medium")
    sets = tournament.run_matchup("wizard", spec, tournament.LevelSpec("easy"), [5, 6, 7], jobs=1)
    assert len(sets) == 1 and sets[0].games == 4
    assert "stopped after 1 of 3 sets" in capsys.readouterr().out
