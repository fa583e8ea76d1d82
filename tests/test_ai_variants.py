"""The computer players under the house variants of RULES.md, "More house variants".

Every level plays each variant legally to the end, and the medium players
play them sensibly: a dealer takes the high bid when its hand supports the
contract at that number, the hand evaluation knows a deck without jokers and
an ace that is low downtown, the discard lays aside as many cards as the kitty
held, and the seat that names trump after a Wizard turn-up names its best suit.
"""

from __future__ import annotations

import random

import pytest

from conftest import bw_deal, bw_game, cards, drive, wz_deal
from game.ai import make_player
from game.ai.bidwhist_medium import BidWhistMediumPlayer, choose_bid
from game.ai.budget import SearchBudget
from game.ai.hand_eval import mode_estimates, trump_contract_books
from game.ai.wizard_medium import WizardMediumPlayer
from game.rules import ActionKind, Phase, get_game, make_rules, new_game
from game.rules.actions import PASS, BidMode, choose_trump, take
from game.rules.bidwhist import BidWhistState
from game.rules.cards import Suit
from game.rules.view import BidWhistView, WizardView
from game.session.match import Match, Seat

H, C = Suit.HEARTS, Suit.CLUBS
UP, DOWN = 0, 1
STRONG_HEARTS = "BJ LJ AH KH QH JH TH 9H 8H 7H 6H 5H"
MIDDLING = "7S 8S 9S 7D 8D 9D 7C 8C 9C 7H 8H 9H"

VARIANTS = [
    ("bidwhist", 4, {"jokers": False, "target_score": 3}),
    ("bidwhist", 4, {"dealer_takes": True, "boston": "wins_game", "target_score": 3}),
    (
        "bidwhist",
        4,
        {"downtown_ace": "low", "boston": "double", "jokers": False, "dealer_takes": True, "target_score": 3},
    ),
    ("wizard", 4, {"wizard_turn_up": "first_bidder_chooses", "rounds": 6}),
    ("wizard", 3, {"wizard_turn_up": "no_trump", "rounds": 6}),
]


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
@pytest.mark.parametrize("game,players,overrides", VARIANTS)
def test_every_level_plays_the_variants_legally(level: str, game: str, players: int, overrides: dict) -> None:
    rules = make_rules(game, overrides, players=players)
    # Search players think with a few simulations: legality, not strength, is checked here.
    match = Match(rules, [Seat(str(i), f"ai:{level}") for i in range(players)], 21, ai_budget=SearchBudget(2, 60.0))
    match.play_out()  # Match.apply refuses an illegal action
    assert match.is_over


def _dealer_view(dealer_hand: str, moves: str, **rules) -> BidWhistView:
    state = bw_game(bw_deal({3: dealer_hand}), dealer=3, target_score=99, **rules)
    state, _ = drive(state, moves)
    assert state.current == 3
    view = state.view(3)
    assert isinstance(view, BidWhistView)
    return view


def test_a_dealer_with_a_strong_hand_takes_the_bid() -> None:
    view = _dealer_view(STRONG_HEARTS, "3up pass pass", dealer_takes=True)
    assert BidWhistMediumPlayer().decide(view, random.Random(1)) == take(3, BidMode.UPTOWN)
    # Without the rule the same dealer must overcall to win the contract.
    plain = _dealer_view(STRONG_HEARTS, "3up pass pass")
    assert BidWhistMediumPlayer().decide(plain, random.Random(1)).kind == ActionKind.BID


def test_a_dealer_takes_at_the_high_number_in_its_own_best_mode() -> None:
    low_clubs = "AC 2C 3C 4C 5C 6C 7C 8C 9C KD KS QS"
    view = _dealer_view(low_clubs, "3up pass pass", dealer_takes=True)
    chosen = BidWhistMediumPlayer().decide(view, random.Random(1))
    assert chosen == take(3, BidMode.DOWNTOWN)


def test_a_dealer_with_a_middling_hand_does_not_take() -> None:
    view = _dealer_view(MIDDLING, "4nt pass pass", dealer_takes=True)
    assert BidWhistMediumPlayer().decide(view, random.Random(1)) == PASS


def test_a_dealer_leaves_its_partners_contract_to_the_partner_without_a_much_stronger_hand() -> None:
    view = _dealer_view(MIDDLING, "pass 3up pass", dealer_takes=True)
    assert choose_bid(view, random.Random(1)) == PASS


def test_without_jokers_no_joker_is_feared_above_the_trump_ace() -> None:
    hand = cards("AH KH QH 2S 3S 4S 2D 3D 4D 2C 3C 4C")
    plain = make_rules("bidwhist", {"jokers": False})
    assert trump_contract_books(hand, H, UP, rules=plain) > trump_contract_books(hand, H, UP) + 1.0


def test_with_the_ace_low_downtown_aces_are_no_downtown_winners() -> None:
    hand = cards("AS AH AD AC 9S 9H 9D 9C TS TH TD TC")
    low = make_rules("bidwhist", {"downtown_ace": "low"})
    high_estimates, low_estimates = mode_estimates(hand), mode_estimates(hand, low)
    assert low_estimates[DOWN] < high_estimates[DOWN] - 2.0
    assert low_estimates[BidMode.NOTRUMP] <= high_estimates[BidMode.NOTRUMP]
    assert low_estimates[UP] == high_estimates[UP]


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_the_declarer_discards_four_without_jokers(level: str) -> None:
    rules = make_rules("bidwhist", {"jokers": False})
    state, _ = new_game(rules, 4, 8)
    player = make_player(get_game("bidwhist"), level, SearchBudget(2, 60.0))
    while state.phase != Phase.PLAY:
        view = state.view(state.current)
        if state.phase == Phase.DISCARD:
            assert isinstance(view, BidWhistView) and len(view.hand) + view.discard_count == 16
        state.apply_in_place(player.choose(view, random.Random(0)))
    assert isinstance(state, BidWhistState)
    assert len(state.discards) == 4 and all(len(hand) == 12 for hand in state.hands)


def test_the_first_bidder_names_its_best_suit_after_a_wizard_turn_up() -> None:
    rules = make_rules("wizard", {"wizard_turn_up": "first_bidder_chooses"}, players=4)
    deal = wz_deal(4, 4, {1: "AC KC QC JC", 0: "AH KH QH JH"}, "WZ")
    state, _ = new_game(rules, 4, 3, first_dealer=0, start_deal=4, fixed_deals={4: deal})
    assert state.phase == Phase.TRUMP_CHOICE and state.current == 1
    view = state.view(1)
    assert isinstance(view, WizardView)
    assert WizardMediumPlayer().decide(view, random.Random(0)) == choose_trump(C)
    hard = make_player(get_game("wizard"), "hard", SearchBudget(2, 60.0))
    assert hard.choose(view, random.Random(0)).kind == ActionKind.TRUMP
