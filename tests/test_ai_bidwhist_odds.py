"""The Bid Whist game-win table the expert searches by: fair, ordered, true to its model of a
hand, and read the right way round by the expert's value of a simulated hand."""

from __future__ import annotations

import random
from typing import Any

import pytest

from game.ai.bidwhist_medium import BidWhistMediumPlayer
from game.ai.bidwhist_odds import LARGEST_TARGET, chance_to_win, game_odds, hand_outcomes
from game.ai.expert import BidWhistExpertPlayer
from game.rules import Phase, make_rules, new_game


@pytest.mark.parametrize("target,multiplier", [(5, 2), (7, 1), (7, 2), (9, 4)])
def test_the_table_is_fair_and_more_points_never_lower_a_chance(target: int, multiplier: int) -> None:
    odds = game_odds(target, multiplier)
    assert odds is not None
    scores = range(1 - target, target)
    for ours in scores:
        for theirs in scores:
            chance = chance_to_win(odds, target, ours, theirs)
            assert 0.0 < chance < 1.0
            assert chance + chance_to_win(odds, target, theirs, ours) == pytest.approx(1.0, abs=1e-6)
            assert chance_to_win(odds, target, ours + 1, theirs) >= chance - 1e-9
            assert chance_to_win(odds, target, ours, theirs + 1) <= chance + 1e-9


def test_ended_games_are_certain() -> None:
    odds = game_odds(7, 2)
    assert odds is not None
    assert chance_to_win(odds, 7, 7, 3) == chance_to_win(odds, 7, 0, -7) == 1.0
    assert chance_to_win(odds, 7, 3, 9) == chance_to_win(odds, 7, -8, 0) == 0.0


def test_the_table_agrees_with_games_played_out_under_its_model() -> None:
    """Games of the model itself (either team declares, the change drawn from ``hand_outcomes``),
    played out with a seeded RNG, win as often as the solved table says, from a few scores."""
    target, multiplier, games = 7, 2, 4000
    odds = game_odds(target, multiplier)
    assert odds is not None
    changes, weights = zip(*hand_outcomes(target, multiplier))
    rng = random.Random(29)
    for start in [(0, 0), (4, 0), (-3, 5), (6, 6)]:
        wins = 0
        for _ in range(games):
            scores = list(start)
            while all(-target < s < target for s in scores):
                scores[rng.randrange(2)] += rng.choices(changes, weights)[0]
            wins += scores[0] >= target or scores[1] <= -target
        expected = chance_to_win(odds, target, *start)
        error = (expected * (1 - expected) / games) ** 0.5
        assert abs(wins / games - expected) < 4 * error, (start, wins / games, expected)


def test_no_trump_outcomes_are_multiplied_and_the_shares_add_up() -> None:
    single, quadruple = dict(hand_outcomes(7, 1)), dict(hand_outcomes(7, 4))
    assert sum(single.values()) == pytest.approx(1.0) == sum(quadruple.values())
    assert max(single) == 7 and max(quadruple) == 28  # a no-trump 7 scores four times over


def test_a_boston_is_scored_as_the_house_rule_says() -> None:
    plain, doubled, winning = (dict(hand_outcomes(9, 2, boston)) for boston in ("off", "double", "wins_game"))
    assert max(plain) == 14 and 7 in plain  # the no-trump Boston, doubled by the multiplier
    assert max(doubled) == 28 and 7 not in doubled and 14 in doubled  # a trump Boston doubled too
    assert 9 not in plain and 7 not in winning and 14 not in winning  # any Boston reaches the target:
    assert winning[9] == pytest.approx(plain[7] + plain[14])
    assert sum(doubled.values()) == pytest.approx(1.0) == sum(winning.values())
    plain_odds, winning_odds = game_odds(9, 2), game_odds(9, 2, "wins_game")
    assert plain_odds is not None and winning_odds is not None
    # Far behind, a Boston that wins outright is worth more than its points.
    assert chance_to_win(winning_odds, 9, -6, 6) > chance_to_win(plain_odds, 9, -6, 6)


def test_a_target_too_long_to_tabulate_keeps_the_margin() -> None:
    assert game_odds(LARGEST_TARGET + 1, 2) is None


def finished_hand(seed: int, start_scores: tuple[int, int], **overrides: Any) -> Any:
    """A Bid Whist game from ``start_scores`` whose first hand the medium players have played out."""
    state: Any = new_game(
        make_rules("bidwhist", overrides), 4, seed, first_dealer=3, start_scores=start_scores, start_deal=1
    )[0]
    player, rng = BidWhistMediumPlayer(), random.Random(seed)
    while state.phase not in (Phase.HAND_OVER, Phase.GAME_OVER):
        state.apply_in_place(player.choose(state.view(state.current), rng), None, True)
    return state


def test_the_expert_scores_a_simulated_hand_by_its_teams_chance_of_the_game() -> None:
    expert, odds = BidWhistExpertPlayer(), game_odds(7, 2)
    assert odds is not None
    ended = undecided = 0
    for seed in range(12):
        state = finished_hand(seed, (3, -2))
        views = [state.view(seat) for seat in range(4)]
        values = [expert._value(view)(state) for view in views]
        assert values[0] == values[2] and values[1] == values[3]  # partners share a chance
        assert values[0] + values[1] == pytest.approx(1.0, abs=1e-6)
        if state.phase == Phase.GAME_OVER:
            ended += 1
            assert values[state.winner_team] == 1.0
        else:
            undecided += 1
            assert values[0] == chance_to_win(odds, 7, state.scores[0], state.scores[1])
    assert ended and undecided  # both kinds of hand end were seen


def test_under_a_long_target_the_expert_scores_the_hands_margin() -> None:
    state = finished_hand(3, (0, 0), target_score=LARGEST_TARGET + 5)
    value = BidWhistExpertPlayer()._value(state.view(0))
    change = [s - b for s, b in zip(state.scores, state.start_scores)]
    assert value(state) == change[0] - change[1]
