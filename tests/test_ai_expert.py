"""The expert players: solved last tricks, Bid Whist worlds fitted to the table, cautious bids,
their own thinking time, and a legal answer when the time is up."""

from __future__ import annotations

import random
from typing import Any

import pytest

from game.ai import make_player
from game.ai import expert as expert_module
from game.ai.bidwhist_medium import BidWhistMediumPlayer
from game.ai.bidwhist_worlds import BiddingFit
from game.ai.budget import EXPERT_BUDGET, SearchBudget
from game.ai.endgame_playout import EndgamePlayOut
from game.ai.expert import (
    BID_DEVIATION_Z,
    BidWhistExpertPlayer,
    WizardExpertPlayer,
    distinct_bidwhist_plays,
    endgame_policy,
    expert_bid_candidates,
)
from game.ai import hard as hard_module
from game.ai import search_pimc
from game.ai.search_pimc import HAND_ENDS
from game.ai.wizard_medium import WizardMediumPlayer
from game.ai.wizard_clairvoyant import ClairvoyantRolloutPlayer
from game.ai.wizard_fitted import FittedRolloutPlayer
from game.ai.wizard_rollout import UnsureRolloutPlayer, WizardRolloutPlayer
from game.rules import ActionKind, Phase, get_game, make_rules, new_game
from conftest import bw_deal, bw_game, cards, drive, to_play
from test_ai_endgame_solver import bidwhist_endgame, wizard_endgame

SMALL = SearchBudget(12, 60.0)  # a cap on simulations that the time never reaches


def bidwhist_bidding_view(seed: int) -> Any:
    """The first Bid Whist bid of game ``seed`` that has a bid to weigh (not a forced pass)."""
    state: Any = new_game(make_rules("bidwhist"), 4, seed)[0]
    return state.view(state.current)


def test_expert_thinks_under_a_second_by_default_and_a_given_budget_limits_it() -> None:
    assert EXPERT_BUDGET.max_seconds <= 1.0
    for game in ("wizard", "bidwhist"):
        assert make_player(get_game(game), "expert").budget == EXPERT_BUDGET  # type: ignore[attr-defined]
        limited = SearchBudget(100, 0.2)
        assert make_player(get_game(game), "expert", limited).budget == limited  # type: ignore[attr-defined]


@pytest.mark.parametrize("game", ["wizard", "bidwhist"])
def test_play_outs_are_solved_only_in_the_last_tricks(game: str) -> None:
    player_type = WizardExpertPlayer if game == "wizard" else BidWhistExpertPlayer
    tricks = player_type.solved_tricks
    late = wizard_endgame(3, 4, tricks, 1, 6) if game == "wizard" else bidwhist_endgame(3, tricks, 0, 1)
    early = wizard_endgame(3, 4, tricks + 1, 0, 6) if game == "wizard" else bidwhist_endgame(3, tricks + 1, 0, 0)
    policy = WizardRolloutPlayer() if game == "wizard" else BidWhistMediumPlayer()
    ending = endgame_policy(late.view(late.current), policy, tricks)
    assert isinstance(ending, EndgamePlayOut) and ending.policy is policy and ending.max_tricks == tricks
    assert not ending.policy_ties
    tied = endgame_policy(late.view(late.current), policy, tricks, policy_ties=True)
    assert isinstance(tied, EndgamePlayOut) and tied.policy_ties
    assert endgame_policy(early.view(early.current), policy, tricks) is policy


def test_the_wizard_experts_setting_of_ties_reaches_its_play_outs(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[EndgamePlayOut] = []
    original = EndgamePlayOut.__init__

    def record(self: EndgamePlayOut, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        made.append(self)

    monkeypatch.setattr(EndgamePlayOut, "__init__", record)
    state = wizard_endgame(3, 4, 3, 1, 6)
    for ties in (False, True):
        player = WizardExpertPlayer(SearchBudget(4, 60.0))
        player.policy_ties = ties
        made.clear()
        player.choose(state.view(state.current), random.Random(1))
        assert made and all(ending.policy_ties == ties for ending in made)


@pytest.mark.parametrize(
    "clairvoyant,fitted,unsure,expected",
    [
        (False, False, 0.0, WizardRolloutPlayer),
        (False, False, 0.3, UnsureRolloutPlayer),
        (False, True, 0.0, FittedRolloutPlayer),
        (False, True, 0.3, FittedRolloutPlayer),
        (True, False, 0.0, ClairvoyantRolloutPlayer),
        (True, True, 0.3, ClairvoyantRolloutPlayer),
    ],
)
def test_the_wizard_experts_settings_choose_who_plays_its_play_outs(
    monkeypatch: pytest.MonkeyPatch, clairvoyant: bool, fitted: bool, unsure: float, expected: type
) -> None:
    searched: list[object] = []
    original = search_pimc.search

    def record(view: Any, candidates: Any, apply: Any, policy: Any, *args: Any, **kwargs: Any) -> Any:
        searched.append(policy.policy if isinstance(policy, EndgamePlayOut) else policy)
        return original(view, candidates, apply, policy, *args, **kwargs)

    monkeypatch.setattr(hard_module, "search", record)
    state = wizard_endgame(3, 4, 6, 1, 6)
    view = state.view(state.current)
    player = WizardExpertPlayer(SearchBudget(4, 60.0))
    player.unsure_others, player.fitted_play_outs, player.clairvoyant_play_outs = unsure, fitted, clairvoyant
    assert player.choose(view, random.Random(1)) in view.legal_actions
    (policy,) = searched
    assert type(policy) is expected
    if isinstance(policy, UnsureRolloutPlayer):
        assert (policy.seat, policy.unsure) == (view.seat, unsure)


def test_the_wizard_rollout_hands_over_to_the_solver_where_the_view_by_view_play_out_does() -> None:
    # The rollout player's fast play-out stops at the same point as the generic one, so the
    # solved ending is the same: same cards, same tricks, same scores.
    for seed in range(3):
        fast = wizard_endgame(seed, 4, 5, seed % 3, 7)
        generic = fast.clone()
        EndgamePlayOut(WizardRolloutPlayer(), max_tricks=3).play_out(fast, random.Random(seed))
        EndgamePlayOut(WizardMediumPlayer(), max_tricks=3).play_out(generic, random.Random(seed))
        assert fast.phase in HAND_ENDS
        assert [a for _, a in fast.hand_plays] == [a for _, a in generic.hand_plays]
        assert fast.hand_returns() == generic.hand_returns()


def test_the_wizard_rollout_stops_with_the_tricks_left_asked_for() -> None:
    state = wizard_endgame(2, 4, 6, 0, 6)
    WizardRolloutPlayer().play_out_until(state, random.Random(2), 3)
    assert state.phase == Phase.PLAY and max(len(hand) for hand in state.hands) == 3


def test_bid_whist_expert_draws_its_worlds_to_fit_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[object] = []
    fits: list[BiddingFit] = []

    class CountingFit(BiddingFit):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            fits.append(self)

        def draw(self, view: Any, sampler: Any, rng: random.Random) -> Any:
            drawn.append(view)
            return super().draw(view, sampler, rng)

    monkeypatch.setattr(expert_module, "BiddingFit", CountingFit)
    state = bidwhist_endgame(5, 8, 1, 1)
    view = state.view(state.current)
    decision = BidWhistExpertPlayer(SMALL).decide(view, random.Random(1))
    assert decision.action in view.legal_actions and decision.search is not None
    assert drawn and all(seen is view for seen in drawn)
    assert fits and all(fit.by_seat for fit in fits)  # the cheaper draw, a seat at a time


def test_bid_whist_expert_simulates_one_card_of_each_group_that_plays_alike() -> None:
    # Seat 0 declares three uptown in spades, lays the kitty aside again and leads: its hearts
    # A K Q touch, 9 7 5 do not (the J, 10, 8 and 6 are unseen); A and 2 of spades have the little
    # joker and eleven spades between them; 3 4 of diamonds and 5 6 of clubs touch.
    hands, kitty = {0: "AH KH QH 9H 7H 5H AS 2S 3D 4D 5C 6C"}, "BJ 2H 9S 8D 7C 3C"
    state = to_play(bw_game(bw_deal(hands, kitty=kitty), dealer=3), bid="3up", contract="trump:S")
    assert state.current == 0
    view = state.view(0)
    preferred = BidWhistMediumPlayer().choose(view, random.Random(0)).value
    chosen = distinct_bidwhist_plays(view, preferred)
    assert preferred in chosen
    groups = [cards(text) for text in ("AH KH QH", "9H", "7H", "5H", "AS", "2S", "3D 4D", "5C 6C")]
    assert len(chosen) == len(groups) and all(len(set(group) & set(chosen)) == 1 for group in groups)
    decision = BidWhistExpertPlayer(SMALL).decide(view, random.Random(2))
    assert decision.search is not None
    assert {result.candidate.value for result in decision.search.candidates} == set(chosen)
    # Once the jack and ten of hearts are played, the king, queen and nine play alike.
    later = to_play(bw_game(bw_deal({**hands, 1: "JH", 2: "TH", 3: "4H"}, kitty=kitty), dealer=3), "3up", "trump:S")
    later, _ = drive(later, "AH JH TH 4H")
    assert later.current == 0
    grouped = distinct_bidwhist_plays(later.view(0), -1)
    assert len(set(grouped) & set(cards("KH QH 9H"))) == 1 and len(grouped) == len(groups) - 1


def test_bid_whist_expert_weighs_a_book_below_the_medium_bid_and_asks_clear_evidence_to_bid() -> None:
    for seed in range(40):
        view = bidwhist_bidding_view(seed)
        preferred = BidWhistMediumPlayer().choose(view, random.Random(0))
        if preferred.kind == ActionKind.BID and any(
            a.kind == ActionKind.BID and a.mode == preferred.mode and a.value == preferred.value - 1
            for a in view.legal_actions
        ):
            break
    else:
        pytest.fail("no opening bid above the lowest in 40 deals")
    candidates = expert_bid_candidates(view, preferred)
    assert any(a.kind == ActionKind.BID and a.value == preferred.value - 1 for a in candidates)
    assert all(a in view.legal_actions for a in candidates) and len(set(candidates)) == len(candidates)
    player = BidWhistExpertPlayer(SMALL)
    assert player._deviation_z(view) == BID_DEVIATION_Z > player.deviation_z
    play_view = bidwhist_endgame(1, 6, 0, 0)
    assert player._deviation_z(play_view.view(play_view.current)) == player.deviation_z


@pytest.mark.parametrize("game", ["wizard", "bidwhist"])
def test_when_the_time_is_up_expert_still_answers_a_legal_action(game: str) -> None:
    # A clock past the deadline from the first reading: no simulation runs, the medium choice stands.
    late = iter(float(n) for n in range(0, 10_000, 100))
    state = wizard_endgame(4, 4, 5, 1, 7) if game == "wizard" else bidwhist_endgame(4, 9, 2, 1)
    view = state.view(state.current)
    player_type = WizardExpertPlayer if game == "wizard" else BidWhistExpertPlayer
    decision = player_type(SearchBudget(400, 1.0), clock=lambda: next(late)).decide(view, random.Random(3))
    assert decision.action in view.legal_actions
    assert decision.search is None or decision.search.simulations == 0
