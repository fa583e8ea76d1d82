"""The expert Wizard player's worlds (``game.ai.wizard_worlds.SeatFitter``): hands fitted seat by seat to
the bids and the cards played."""

from __future__ import annotations

import random
from typing import Any

import pytest

from game.ai import expert as expert_module
from game.ai.budget import SearchBudget
from game.ai.expert import WizardExpertPlayer
from game.ai.wizard_worlds import SeatFitter
from game.ai.wizard_worlds import PlayFitter, bid_misfit, draw_wizard_hands, others_have_played
from game.rules.hidden import HiddenCards
from game.rules.search import HiddenSampler, state_from_view
from test_ai_wizard_worlds import medium_play_views


def test_the_seats_misfits_add_up_to_the_whole_worlds_misfit() -> None:
    """Read a seat at a time, from the turns read once, the misfit is the whole-world fitters':
    the bid part of ``bid_misfit`` plus ``PlayFitter.misfit``'s count of the cards played."""
    rng = random.Random(4)
    compared = 0
    for view, _ in medium_play_views(4, {}, seed=17, every=3):
        if view.round_number < 4 or not others_have_played(view):
            continue
        sampler, fitter, replay = HiddenSampler(view), SeatFitter(view), PlayFitter(view)
        for _ in range(4):
            world = sampler.sample(rng)
            seats = sum(fitter.seat_misfit(seat, list(world.hands[seat])) for seat in world.hands)
            assert seats == pytest.approx(replay.misfit(world) + bid_misfit(view, world, fitter.bid_seats))
            compared += 1
    assert compared > 80


def test_the_real_hands_of_medium_players_explain_their_cards_seat_by_seat() -> None:
    """A medium player's real hand explains every card it chose (the play part is nought)."""
    checked = 0
    for view, hands in medium_play_views(4, {}, seed=31, every=3):
        if view.round_number < 5 or not others_have_played(view):
            continue
        fitter = SeatFitter(view)
        real = HiddenCards(hands={s: tuple(hands[s]) for s in range(4) if s != view.seat})
        bid_only = SeatFitter(view)
        bid_only.turns = {}
        for seat in real.hands:
            hand = list(real.hands[seat])
            assert fitter.seat_misfit(seat, hand) == bid_only.seat_misfit(seat, hand)
        checked += 1
    assert checked > 20


@pytest.mark.parametrize("bidding", ["open", "hidden", "delayed_reveal"])
def test_drawn_worlds_are_deals_the_view_allows_and_fit_better_than_bid_fitted_draws(bidding: str) -> None:
    rng = random.Random(9)
    worlds = seat_misses = whole_misses = 0.0
    for view, _ in medium_play_views(4, {"bidding": bidding}, seed=23, every=3):
        if view.round_number < 5:
            continue
        sampler, fitter, replay = HiddenSampler(view), SeatFitter(view), PlayFitter(view)
        for _ in range(2):
            seat_world = fitter.draw(view, sampler, rng)
            state_from_view(view, seat_world, 1)  # the hand sizes, the unseen cards and the voids fit
            whole_world = draw_wizard_hands(view, sampler, rng)
            if bidding == "open":
                seat_misses += replay.misfit(seat_world) + bid_misfit(view, seat_world, fitter.bid_seats)
                whole_misses += replay.misfit(whole_world) + bid_misfit(view, whole_world, fitter.bid_seats)
            worlds += 1
    assert worlds > 60
    if bidding == "open":
        assert seat_misses < 0.6 * whole_misses  # measured: about 0.51


def test_a_fitter_draws_for_its_own_view_only() -> None:
    views = medium_play_views(4, {}, seed=13, every=4)
    view, _ = next(views)
    other, _ = next(views)
    with pytest.raises(ValueError, match="made for"):
        SeatFitter(view).draw(other, HiddenSampler(other), random.Random(1))


def test_wizard_expert_draws_its_worlds_seat_by_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[object] = []

    class CountingFitter(SeatFitter):
        def draw(self, view: Any, sampler: Any, rng: random.Random) -> Any:
            drawn.append(view)
            return super().draw(view, sampler, rng)

    monkeypatch.setattr(expert_module, "SeatFitter", CountingFitter)
    view = next(v for v, _ in medium_play_views(4, {}, seed=5, every=2) if others_have_played(v) and v.round_number > 3)
    decision = WizardExpertPlayer(SearchBudget(12, 60.0)).decide(view, random.Random(2))
    assert decision.action in view.legal_actions
    assert drawn and all(seen is view for seen in drawn)
