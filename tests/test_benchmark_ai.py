"""The duplicate-deal tournament of benchmarks/ai.py, on tiny sizes.

Checks the claim the tournament rests on (one seed gives every seat the same cards in every deal,
whoever sits where and however they play), that the seat rotation cancels the deal's luck exactly
when both sides play alike, the confidence-interval arithmetic, and that the command prints its
tables (a match-up with an unregistered level is named and skipped)."""

from __future__ import annotations

import random

import pytest

from benchmarks import ai as tournament
from game.ai import RandomPlayer
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
