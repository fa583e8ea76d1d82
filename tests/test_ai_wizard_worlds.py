"""The worlds the hard Wizard player simulates (``game.ai.wizard_worlds``):
hidden hands that fit the bids shown, and face-down bids guessed."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from conftest import card, drive, medium_wizard_positions, wz_deal, wz_round
from game.ai.wizard_medium import card_chance, card_chances, expected_tricks
from game.ai.wizard_worlds import PlayFitter, bid_misfit, draw_wizard_hands, guess_face_down_bids, others_have_played
from game.rules import Phase
from game.rules.cards import WIZARD_DECK
from game.rules.hidden import HiddenCards
from game.rules.search import HiddenSampler, state_from_view
from game.rules.view import WizardView


def medium_play_views(
    players: int, overrides: dict, seed: int, every: int = 5
) -> Iterator[tuple[WizardView, list[list[int]]]]:
    """Every ``every``-th view during play of a game of medium players, for the
    seat to move, with the hands every seat really holds: the other seats'
    bids are medium bids of those hands."""
    for step, state in medium_wizard_positions(players, overrides, seed):
        if state.phase == Phase.PLAY and step % every == 0:
            view = state.view(state.current)
            assert isinstance(view, WizardView)
            yield view, [list(hand) for hand in state.hands]


def test_face_down_bids_are_guessed_as_the_medium_player_would_bid() -> None:
    # Hidden bidding, round 2: seats 1 and 2 have bid face down; seat 3 guesses them.
    deal = wz_deal(4, 2, {1: "WZ WZ", 2: "2H 3D"}, "5S")
    state = wz_round(4, 2, deal, dealer=0, bidding="hidden")
    state, _ = drive(state, "2 0")
    view = state.view(3)
    hidden = HiddenSampler(view).sample(random.Random(1))
    refined = guess_face_down_bids(view, hidden)
    assert refined.hands == hidden.hands and set(refined.bids) == {1, 2}
    for seat in (1, 2):
        estimate = expected_tricks(refined.hands[seat], view.trump, 4, 2)
        assert refined.bids[seat] == max(0, min(int(estimate + 0.5), 2))
    state_from_view(view, refined, 1)  # the guess fits the view


def test_worlds_give_a_seat_hands_that_fit_its_bid() -> None:
    # Open bidding, round 3: seat 1 bid all three tricks, seat 2 none. Seat 3
    # (to bid) draws worlds: hands that fit the bids give seat 1 far more
    # Wizards than uniform draws do, and seat 2 fewer.
    deal = wz_deal(4, 3, {1: "WZ WZ AS", 2: "2H 3D 4C", 3: "5H 6D 7C"}, "9S")
    state = wz_round(4, 3, deal, dealer=0)
    state, _ = drive(state, "3 0")
    view = state.view(3)
    sampler = HiddenSampler(view)

    def wizards(draw, seat: int) -> int:
        rng = random.Random(5)
        return sum(draw(rng).hands[seat].count(card("WZ")) for _ in range(300))

    def fitted(rng):
        return draw_wizard_hands(view, sampler, rng)

    assert wizards(fitted, 1) > 1.5 * wizards(sampler.sample, 1)
    assert wizards(fitted, 2) < wizards(sampler.sample, 2)
    for seed in range(20):
        state_from_view(view, draw_wizard_hands(view, sampler, random.Random(seed)), 1)  # each fits the view


def test_drawn_worlds_fit_the_bids_and_the_view_mid_round() -> None:
    """Mid-round, with voids shown and cards played: every drawn world is a
    deal the view allows (``state_from_view`` checks the hand sizes, the
    cards and the voids), and the drawn worlds fit the bids far more often
    and miss them by less than uniform draws do."""
    rng = random.Random(3)
    worlds = exact = uniform_exact = 0
    miss = uniform_miss = 0.0
    voids_seen = False
    for view, _ in medium_play_views(4, {}, seed=21, every=7):
        if view.round_number < 6:
            continue
        voids_seen = voids_seen or any(view.voids[s] for s in range(4) if s != view.seat)
        sampler = HiddenSampler(view)
        shown = [seat for seat, bid in enumerate(view.predictions) if seat != view.seat and bid >= 0]
        for _ in range(3):
            hidden = draw_wizard_hands(view, sampler, rng)
            state_from_view(view, hidden, 1)
            worlds += 1
            fitted, uniform = bid_misfit(view, hidden, shown), bid_misfit(view, sampler.sample(rng), shown)
            exact += fitted == 0
            uniform_exact += uniform == 0
            miss += fitted
            uniform_miss += uniform
    assert worlds > 50 and voids_seen
    assert exact >= 2 * uniform_exact and exact > 0
    assert miss < 0.2 * uniform_miss


def test_the_real_hands_of_medium_players_explain_every_card_they_chose() -> None:
    """``PlayFitter.misfit`` counts the others' cards the medium player would not have
    played with the drawn hands: none for the real hands (checked under open
    bidding, where no bid is face down), some for many bid-fitted draws, and
    fewer for the best of several such draws under every bidding mode; every
    kept world is a deal the view allows."""
    rng = random.Random(8)
    checked = drawn_misses = fitted_misses = 0
    for bidding in ("open", "hidden", "delayed_reveal"):
        for view, hands in medium_play_views(4, {"bidding": bidding}, seed=31, every=3):
            if view.round_number < 5 or not any(seat != view.seat for seat, _ in view.trick):
                continue
            real = HiddenCards(hands={s: tuple(hands[s]) for s in range(4) if s != view.seat})
            sampler, fitter = HiddenSampler(view), PlayFitter(view, tries=8)
            if bidding == "open":  # face-down bids need the guesses a draw makes
                assert fitter.misfit(real) == 0
            drawn_misses += fitter.misfit(draw_wizard_hands(view, sampler, rng))
            fitted = fitter.draw(view, sampler, rng)
            state_from_view(view, fitted, 1)
            fitted_misses += fitter.misfit(fitted)
            checked += 1
    assert checked > 60
    assert 0 < fitted_misses < 0.5 * drawn_misses


def test_a_fitter_replays_every_world_as_a_fresh_deal_would() -> None:
    """One ``PlayFitter`` serves a decision's worlds: after the first it deals
    the round start again with each world's hands instead of through
    ``new_game``, and counts exactly what a fresh fitter counts for that
    world alone; it draws worlds for its own view only."""
    rng = random.Random(5)
    compared = 0
    for view, _ in medium_play_views(4, {}, seed=12, every=4):
        if view.round_number < 4 or not others_have_played(view):
            continue
        sampler = HiddenSampler(view)
        worlds = [draw_wizard_hands(view, sampler, rng) for _ in range(5)]
        fitter = PlayFitter(view)
        assert [fitter.misfit(world) for world in worlds] == [PlayFitter(view).misfit(world) for world in worlds]
        compared += 1
    assert compared > 20
    other = next(view for view, _ in medium_play_views(4, {}, seed=13, every=4))
    with pytest.raises(ValueError, match="made for"):
        fitter.draw(other, HiddenSampler(other), rng)


def test_the_chance_table_holds_each_cards_chance() -> None:
    for trump in (-1, 0, 3):
        for players, cards_each in ((3, 1), (4, 9), (6, 10)):
            for long_trumps in (False, True):
                table = card_chances(trump, players, cards_each, long_trumps)
                assert [table[c] for c in WIZARD_DECK] == [
                    card_chance(c, trump, players, cards_each, long_trumps) for c in WIZARD_DECK
                ]
