"""A search's play-out ended by the exact endgame solver: perfect, bounded, usable by a search."""

from __future__ import annotations

import random
from itertools import count

from game.ai.bidwhist_medium import BidWhistMediumPlayer
from game.ai.budget import SearchBudget
from game.ai.endgame_playout import EndgamePlayOut
from game.ai.endgame_solver import solve
from game.ai.search_pimc import HAND_ENDS, search
from game.ai.wizard_medium import WizardMediumPlayer
from game.ai.wizard_rollout import WizardRolloutPlayer
from game.rules import Phase
from test_ai_endgame_solver import bidwhist_endgame, serving_books, wizard_endgame


def test_a_bidwhist_play_out_from_few_tricks_left_is_perfect_play() -> None:
    for seed in range(4):
        state = bidwhist_endgame(seed, 4, seed % 3, 0)
        seat = state.current
        expected = solve(state, seat).value
        EndgamePlayOut(BidWhistMediumPlayer(), max_tricks=4).play_out(state, random.Random(seed))
        assert state.phase in HAND_ENDS
        assert serving_books(state, seat) == expected


def test_a_wizard_play_out_gives_each_seat_at_least_its_paranoid_value() -> None:
    state = wizard_endgame(4, 4, 3, 0, 6)
    guaranteed = [solve(state, seat).value for seat in range(4)]
    EndgamePlayOut(WizardRolloutPlayer(), max_tricks=3).play_out(state, random.Random(1))
    assert state.phase in HAND_ENDS
    assert all(score >= floor for score, floor in zip(state.hand_returns(), guaranteed))


def test_with_policy_ties_each_wizard_seat_plays_the_policy_card_unless_it_gives_value_away() -> None:
    # Every move of the solved ending is checked against a fresh paranoid solver for the seat
    # to move: the medium player's card whenever it is one of that seat's best, else a best card.
    kept = overruled = 0
    for seed in range(6):
        state = wizard_endgame(seed, 4, 3, seed % 4, 7)
        floors = [solve(state, seat).value for seat in range(4)]
        policy = EndgamePlayOut(WizardRolloutPlayer(), max_tricks=3, policy_ties=True)
        before = len(state.hand_plays)
        witness = state.clone()
        policy.play_out(state, random.Random(seed))
        assert state.phase in HAND_ENDS
        assert all(score >= floor for score, floor in zip(state.hand_returns(), floors))
        for _, action in state.hand_plays[before:]:
            if len(witness.legal_actions()) > 1:
                best = solve(witness, witness.current).best_actions
                medium = WizardMediumPlayer().choose(witness.view(witness.current), random.Random(0))
                assert action in best
                if medium in best:
                    assert action == medium
                    kept += 1
                else:
                    overruled += 1
            witness.apply_in_place(action, None, check=True)
    assert kept and overruled


def test_policy_ties_play_the_same_cards_from_the_fast_tracker_and_from_views() -> None:
    for seed in range(4):
        fast = wizard_endgame(seed, 4, 3, seed % 4, 6)
        generic = fast.clone()
        EndgamePlayOut(WizardRolloutPlayer(), max_tricks=3, policy_ties=True).play_out(fast, random.Random(seed))
        EndgamePlayOut(WizardMediumPlayer(), max_tricks=3, policy_ties=True).play_out(generic, random.Random(seed))
        assert [a for _, a in fast.hand_plays] == [a for _, a in generic.hand_plays]


def test_the_policy_plays_until_few_tricks_are_left_and_when_the_solver_gives_up() -> None:
    # From the first trick with a node limit of one, the solver never answers: the
    # wrapped policy plays the whole hand, legally, to its end.
    state = bidwhist_endgame(2, 12, 0, 0)
    EndgamePlayOut(BidWhistMediumPlayer(), max_tricks=12, max_nodes=1).play_out(state, random.Random(3))
    assert state.phase in HAND_ENDS and len(state.tricks) == 12


def test_a_search_with_the_endgame_play_out_returns_a_legal_card_within_its_budget() -> None:
    state = wizard_endgame(6, 4, 4, 1, 6)
    view = state.view(state.current)
    legal = list(view.legal_actions)
    policy = EndgamePlayOut(WizardRolloutPlayer(), max_tricks=4)

    def apply(world: object, action: object) -> None:
        world.apply_in_place(action, None, check=False)  # type: ignore[attr-defined]

    result = search(view, legal, apply, policy, random.Random(5), SearchBudget(12, 60.0), lambda: 0.0)
    assert result.best in legal and result.simulations == 12
    # A clock that moves a second at each reading: the three-second cap ends the search early.
    ticks = count()
    timed = search(view, legal, apply, policy, random.Random(5), SearchBudget(400, 3.0), lambda: float(next(ticks)))
    assert timed.best in legal and timed.simulations <= 3
    assert state.phase == Phase.PLAY  # the real position is never played on
