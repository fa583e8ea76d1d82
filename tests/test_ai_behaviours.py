"""The rule-based Bid Whist players' habits, each on a constructed position:
competitive bidding (the level a hand supports, overcalls, partnership
raises, no pointless overcall of a partner), the declarer's contract and
discard, and cooperative card play (returning partner's suit, no joker
leads in no trump, no drawing of trumps when it does not pay; the habits
test_ai already checks are not repeated here); the
Wizard player's bidding by seat position, trump choice and spoiling; and
the easy level built on the medium one: always legal, reproducible, and
measurably different from medium."""

from __future__ import annotations

import random

import pytest

from conftest import bw_deal, bw_game, card, drive, to_play, wz_deal, wz_game
from game.ai.bidwhist_medium import BidWhistMediumPlayer, supported_books, team_estimates
from game.ai.easy import BidWhistEasyPlayer, WizardEasyPlayer
from game.ai.wizard_medium import WizardMediumPlayer, known_bids_shift
from game.rules import ActionKind, BidMode, Phase, apply, make_rules, new_game
from game.rules.actions import NEXT_DEAL, PASS, action_to_str
from game.rules.bidwhist import BidWhistState
from game.rules.cards import Suit
from game.rules.view import BidWhistView, WizardView
from test_ai import advance_to_round, play_state

MEDIUM = BidWhistMediumPlayer()


def decide(state: BidWhistState, seed: int = 0):
    """The medium strategy's own choice for the seat to act (not the legal fallback)."""
    view = state.view(state.current_player)
    assert isinstance(view, BidWhistView)
    action = MEDIUM.decide(view, random.Random(seed))
    assert action in view.legal_actions
    return action


def view_of(state: BidWhistState) -> BidWhistView:
    view = state.view(state.current_player)
    assert isinstance(view, BidWhistView)
    return view


# Dealer 3: seat 0 bids first, then 1, 2 and the dealer.
MONSTER = "BJ LJ AS KS QS JS TS AH KH AD KD AC"
GOOD = "AS KS QS JS 9S 4S AH KH 3D 5C 6C 7H"
MIDDLING = "QS 7S 4S JH 8H 5H KD 9D 4D 8C 3C 6C"


# ---------------------------------------------------------------------- bidding
def test_a_monster_hand_opens_at_the_level_it_supports_not_the_minimum():
    action = decide(bw_game(bw_deal({0: MONSTER})))
    assert action.kind == ActionKind.BID and action.value >= 5


def test_a_middling_hand_passes_where_a_good_one_bids():
    assert decide(bw_game(bw_deal({0: MIDDLING}))) == PASS
    assert decide(bw_game(bw_deal({0: GOOD}))).kind == ActionKind.BID


def test_overcalls_an_opponent_when_the_hand_supports_more():
    state, _ = drive(bw_game(bw_deal({1: MONSTER})), "3up")
    action = decide(state)
    assert action.kind == ActionKind.BID and action.value >= 4


def test_the_last_bidder_only_tops_the_high_bid():
    state, _ = drive(bw_game(bw_deal({3: MONSTER})), "3up pass pass")
    action = decide(state)
    assert action.kind == ActionKind.BID and action.value == 4


def test_a_partner_bid_raises_the_team_estimate_and_a_pass_lowers_it():
    unheard = team_estimates(view_of(drive(bw_game(bw_deal({2: GOOD}), dealer=0), "pass")[0]))
    after_bid = team_estimates(view_of(drive(bw_game(bw_deal({2: GOOD})), "4up pass")[0]))
    after_pass = team_estimates(view_of(drive(bw_game(bw_deal({2: GOOD})), "pass pass")[0]))
    assert after_bid[BidMode.UPTOWN] > unheard[BidMode.UPTOWN] + 1.0
    assert after_pass[BidMode.UPTOWN] < unheard[BidMode.UPTOWN]


def test_a_partnership_with_the_cards_reaches_six_or_seven():
    # Partner opened 4 uptown; this hand adds a second monster in the same mode.
    deal = bw_deal({0: "AS KS QS JS TS 9S 8S AH KH QH AD KD", 2: "BJ LJ 7S 6S AC KC QC JC TC JH TH QD"})
    state, _ = drive(bw_game(deal), "4up pass")
    view = view_of(state)
    assert supported_books(team_estimates(view)[BidMode.UPTOWN]) >= 6
    action = decide(state)
    assert action.kind == ActionKind.BID and action.value >= 6


def test_does_not_overcall_a_partner_when_no_opponent_can_bid_again():
    state, _ = drive(bw_game(bw_deal({3: GOOD})), "pass 4up pass")
    assert decide(state) == PASS


# ---------------------------------------------------------------------- contract and discard
def test_declarer_names_its_long_strong_suit_and_voids_a_short_side_suit():
    deal = bw_deal({0: "AH KH QH 9H 7H 5H AS 2S 3D 4D 5C 6C"}, kitty="BJ 2H 9S 8D 7C 3C")
    state, _ = drive(bw_game(deal), "4up pass pass pass")
    contract = decide(state)
    assert action_to_str(contract) == "trump:H"
    state, _ = drive(state, ["trump:H"])
    thrown = []
    for _ in range(6):
        action = decide(state)
        thrown.append(action.value)
        state, _ = drive(state, [action_to_str(action)])
    hand = state.hands[0]
    assert card("BJ") in hand and not set(thrown) & {card(c) for c in "AH KH QH 9H 7H 5H 2H BJ".split()}
    side_lengths = [sum(1 for c in hand if c < 52 and c // 13 == suit) for suit in range(4) if suit != Suit.HEARTS]
    assert 0 in side_lengths


# ---------------------------------------------------------------------- play
# The play tests use test_ai's PLAY_DEAL and play_state: team 0 (seats 0, 2)
# against team 1 (seats 1, 3); kitty JS TC JC QC BJ LJ. (The forced dealer's
# minimum bid, drawing trumps with the top trumps, not overtaking a partner's
# sure winner and throwing the jokers in no trump are tested there.)


def test_declarer_does_not_draw_trumps_when_it_does_not_pay():
    # With spades trump the declarer holds only KS 9S and the ace is out: leading
    # trumps would spend them for nothing, so it cashes a side ace instead.
    lead = decide(play_state("", contract="trump:S"))
    assert lead.value // 13 != Suit.SPADES and action_to_str(lead).startswith("A")


def test_returns_the_suit_partner_led():
    deal = {
        0: "2C 3D AH KH QH JH TH 9H AS KS QS JS",
        1: "AC KD",
        2: "3C 2D",
        3: "AD 9D 8D 7D 4C 5C 5S 6S 7S 2H 3H 4H",
    }
    state = to_play(bw_game(bw_deal(deal)), bid="3up", contract="trump:H")
    state, _ = drive(state, "2C AC 3C 4C")  # seat 1 wins the first trick
    state, _ = drive(state, "KD 2D AD 3D")  # and leads diamonds; its partner, seat 3, wins
    assert state.current_player == 3
    # Seat 3 holds no sure winner; spades are as long, but it returns diamonds,
    # low from three.
    assert action_to_str(decide(state)) == "7D"


def test_never_leads_a_joker_in_no_trump():
    deal = bw_deal({0: "BJ LJ 2S 3S 4H 5H 6D 7D 8C 9C TC JC"})
    state = to_play(bw_game(deal), bid="3nt", contract="downtown")
    action = decide(state)
    assert action.kind == ActionKind.PLAY and action.value < 52


# ---------------------------------------------------------------------- easy
EASY_CASES = [
    ("bidwhist", 4, {}),
    ("bidwhist", 4, {"renege": "penalized", "all_pass": "redeal"}),
    ("wizard", 4, {}),
    ("wizard", 3, {"uneven_bids": "always"}),
    ("wizard", 5, {"bidding": "hidden"}),
]


def easy_player(game: str):
    return BidWhistEasyPlayer() if game == "bidwhist" else WizardEasyPlayer()


def medium_player(game: str):
    return BidWhistMediumPlayer() if game == "bidwhist" else WizardMediumPlayer()


def play_with_easy(game: str, players: int, overrides: dict, seed: int, max_deals: int = 3):
    """Play the first deals with easy players everywhere; return every decision
    as (view, action) and check each action is legal."""
    state, _ = new_game(make_rules(game, overrides, players=players), players, seed)
    player, rng = easy_player(game), random.Random(seed)
    decisions = []
    while not state.is_terminal and state.deal_number <= max_deals:
        if state.phase == Phase.HAND_OVER:
            state, _ = apply(state, NEXT_DEAL)
            continue
        view = state.view(state.current_player)
        action = player.choose(view, rng)
        assert action in view.legal_actions, (game, overrides, action)
        decisions.append((view, action))
        state, _ = apply(state, action)
    return decisions


@pytest.mark.parametrize("game,players,overrides", EASY_CASES)
def test_easy_is_always_legal_and_reproducible(game, players, overrides):
    first = play_with_easy(game, players, overrides, seed=11)
    again = play_with_easy(game, players, overrides, seed=11)
    assert [action for _, action in first] == [action for _, action in again]
    assert len(first) > 20


def test_easy_chooses_differently_from_medium_in_a_measurable_share_of_decisions():
    for game, players, overrides in (EASY_CASES[0], EASY_CASES[2]):
        easy, medium = easy_player(game), medium_player(game)
        differ = {"bid": 0, "play": 0}
        decided = {"bid": 0, "play": 0}
        for seed in range(4):
            for index, (view, _) in enumerate(play_with_easy(game, players, overrides, seed=seed)):
                if len(view.legal_actions) < 2 or view.phase not in (Phase.BID, Phase.PREDICT, Phase.PLAY):
                    continue
                kind = "play" if view.phase == Phase.PLAY else "bid"
                decided[kind] += 1
                rng_seed = seed * 1000 + index
                differ[kind] += easy.choose(view, random.Random(rng_seed)) != medium.choose(
                    view, random.Random(rng_seed)
                )
        # A slip in about a fifth of the card choices; misjudged bids now and then.
        assert 0.1 <= differ["play"] / decided["play"] <= 0.3, (game, differ, decided)
        assert 0.1 <= differ["bid"] / decided["bid"] <= 0.8, (game, differ, decided)


def test_easy_misjudges_its_hand_in_both_directions():
    # The same middling Bid Whist opening hand: with enough seeds the easy
    # player both bids it (overrating) and passes it, as a beginner would.
    state = bw_game(bw_deal({0: "AS KS QS 9S 4S AH 8H 5H KD 9D 4D 8C"}))
    view = view_of(state)
    choices = {BidWhistEasyPlayer().choose(view, random.Random(seed)).kind for seed in range(40)}
    assert choices == {ActionKind.BID, ActionKind.PASS}


# ---------------------------------------------------------------------- Wizard
def wizard_decide(state):
    view = state.view(state.current_player)
    assert isinstance(view, WizardView)
    action = WizardMediumPlayer().decide(view, random.Random(0))
    assert action in view.legal_actions
    return action


def wizard_round(players: int, number: int, hands: dict, turn_up: str, first_dealer: int, **overrides):
    """A Wizard game fast-forwarded to the bidding of round ``number`` with the given hands."""
    state = wz_game(players, {number: wz_deal(players, number, hands, turn_up)}, dealer=first_dealer, **overrides)
    return advance_to_round(state, number)


def test_wizard_last_bidder_bids_up_when_the_others_bid_low_and_down_when_they_bid_high():
    # Round 4, seat 0 deals and bids last.
    low, _ = drive(wizard_round(4, 4, {0: "AS KH 9D 4C"}, "5S", first_dealer=1), "0 0 0")
    high, _ = drive(wizard_round(4, 4, {0: "AS KH 9D 4C"}, "5S", first_dealer=1), "2 2 2")
    assert low.current_player == high.current_player == 0
    assert wizard_decide(low).value > wizard_decide(high).value


def test_wizard_hidden_bids_say_nothing_about_position():
    state = wizard_round(4, 4, {0: "AS KH 9D 4C"}, "5S", first_dealer=1, bidding="hidden")
    state, _ = drive(state, "0 0 0")
    view = state.view(0)
    assert isinstance(view, WizardView) and known_bids_shift(view) == 0.0


def test_wizard_dealer_names_the_trump_its_hand_takes_most_tricks_in():
    state = wizard_round(4, 6, {2: "2H 3H 4H 5H AS KS"}, "WZ", first_dealer=1)
    assert state.phase == Phase.TRUMP_CHOICE and state.current_player == 2
    assert action_to_str(wizard_decide(state)) == "trump:H"


def test_wizard_with_its_bid_lost_lets_a_player_at_its_bid_take_the_trick():
    # Round 3, seat 0 deals; seat 0 bid 3 and lost the first trick, so its bid
    # is gone. Seat 1 bid 1, has its trick and leads the 8 of clubs: the king
    # would save seat 0 ten points, the 2 pushes seat 1 over its bid.
    hands = {0: "KC 2C 2H", 1: "AD 8C 7C", 2: "4D 9H 3H", 3: "4H 5H 6H"}
    state = wizard_round(4, 3, hands, "5S", first_dealer=2)
    state, _ = drive(state, "1 0 0 3 AD 4D 4H 2H 8C 9H 5H")
    assert state.current_player == 0
    assert action_to_str(wizard_decide(state)) == "2C"
