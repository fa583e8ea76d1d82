"""Hints (issue 8 item 7): the strongest player's move (hard, expert since issue 29) with a one-line reason.

Small simulation budgets keep these fast; the time cap never binds, so every
hint is reproducible.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
import inspect
import random

import pytest

from conftest import bw_deal, bw_game, cards, drive, to_play, wz_deal, wz_round
from game.ai import hints
from game.ai.budget import SearchBudget
from game.ai.hard import HardDecision
from game.ai.hints import REASON_KEYS, Hint, hint_for
from game.ai.search_pimc import CandidateResult, SearchResult
from game.rules.actions import NEXT_DEAL, ActionKind, action_to_str, bid, choose_trump, play
from game.rules.core import Phase
from game.rules import apply, make_rules, new_game
from game.rules.registry import get_game
from game.rules.view import PlayerView
from test_ai_hard import (
    CASES,
    bid_whist_book_to_take,
    decisions,
    wizard_at_its_bid,
    wizard_needing_its_trick,
    wizard_with_two_wizards,
)

SMALL = SearchBudget(max_simulations=12, max_seconds=1000.0)


@pytest.mark.parametrize("game,players,overrides", CASES)
def test_hints_are_legal_with_a_known_key_and_int_params(game, players, overrides):
    game_def = get_game(game)
    keys = set()
    for index, state in enumerate(decisions(game, players, overrides, seed=31, count=10)):
        view = state.view(state.current)
        hint = hint_for(game_def, view, random.Random(index), SMALL)
        assert isinstance(hint, Hint)
        assert hint.action in view.legal_actions
        assert hint.reason_key in REASON_KEYS
        # Params are ints (suits, counts) and, for a discard, the set as card codes.
        assert all(type(value) is int for key, value in hint.params.items() if key != "cards"), hint
        if "cards" in hint.params:
            assert all(c in view.hand for c in cards(str(hint.params["cards"]))), hint
        keys.add(hint.reason_key)
    assert keys


def test_every_key_is_described_in_the_module():
    doc = inspect.getsource(hints)  # the table of keys, parameters and English beside REASON_KEYS
    for key in REASON_KEYS:
        assert f"``{key}``" in doc


def test_a_hint_is_reproducible():
    state = next(decisions("wizard", 4, {}, seed=3, count=3))
    view = state.view(state.current)
    game_def = get_game("wizard")
    assert hint_for(game_def, view, random.Random(5), SMALL) == hint_for(game_def, view, random.Random(5), SMALL)


@pytest.mark.parametrize(
    "position,move,reason",
    [
        (wizard_needing_its_trick, "8H", ("hint.take_trick", {"n": 1})),
        (wizard_at_its_bid, "JE", ("hint.duck", {"n": 0})),
    ],
    ids=["take_the_trick_says_how_many_are_needed", "stay_under_once_the_bid_is_made"],
)
def test_wizard_hint_plays_the_hard_players_move_with_its_reason(position, move, reason):
    hint = hint_for(get_game("wizard"), position().view(0), random.Random(4), SearchBudget(60, 1000.0))
    assert action_to_str(hint.action) == move
    assert (hint.reason_key, hint.params) == reason


def test_wizard_hint_to_spoil_when_the_bid_is_lost():
    # Seat 0 bid 0 but took the first trick: its bid is lost.
    deal = wz_deal(4, 2, {1: "5H 4D", 2: "6H 5D", 3: "7H 6D", 0: "AH 3D"}, "2C")
    state, _ = drive(wz_round(4, 2, deal, dealer=3), "0 0 0 0 AH 5H 6H 7H")
    assert state.current == 0 and state.tricks_won[0] == 1
    hint = hint_for(get_game("wizard"), state.view(0), random.Random(4), SMALL)
    assert hint.reason_key == "hint.spoil"


def test_wizard_bid_hint_gives_the_bid_and_the_expected_tricks():
    view = wizard_with_two_wizards().view(1)
    hint = hint_for(get_game("wizard"), view, random.Random(2), SearchBudget(60, 1000.0))
    assert (hint.reason_key, hint.params) == ("hint.bid", {"bid": 2, "n": 2})


def test_bid_whist_hint_to_take_the_book_counts_the_books_to_set_the_contract():
    view = bid_whist_book_to_take().view(0)
    hint = hint_for(get_game("bidwhist"), view, random.Random(1), SearchBudget(40, 1000.0))
    assert action_to_str(hint.action) == "KH"
    # Seat 1's side needs 9 of 13 books; seat 0's side sets it with 5.
    assert (hint.reason_key, hint.params) == ("hint.take_trick", {"n": 5})


def test_bid_whist_declarer_hints_name_the_suit_and_the_discard():
    deal = bw_deal({0: "AS KS QS JS TS 9S 8S 2H 3H 2D 3D 2C"}, kitty="BJ LJ 7S 4H 4D 4C")
    state, _ = drive(bw_game(deal, dealer=3), "4up pass pass pass")
    game_def = get_game("bidwhist")
    hint = hint_for(game_def, state.view(0), random.Random(1), SearchBudget(16, 1000.0))
    assert (action_to_str(hint.action), hint.reason_key, hint.params) == ("trump:S", "hint.trump", {"suit": 0, "n": 7})
    state, _ = drive(state, "trump:S")
    hint = hint_for(game_def, state.view(0), random.Random(1), SearchBudget(16, 1000.0))
    assert hint.reason_key == "hint.discard"
    assert hint.action in state.view(0).legal_actions
    # The hint names the whole set of six, starting with the card to lay aside now,
    # every one of them in the declarer's hand; the trumps (spades, jokers) stay.
    whole_set = cards(str(hint.params["cards"]))
    assert len(whole_set) == 6 == len(set(whole_set)) and whole_set[0] == hint.action.value
    assert set(whole_set) <= set(state.view(0).hand)
    assert not set(cards("BJ LJ AS KS")) & set(whole_set)


def test_a_game_without_a_player_to_give_hints_is_refused():
    state = next(decisions("wizard", 4, {}, seed=3, count=1))
    for odd in (
        dataclasses.replace(get_game("wizard"), hint_level="grandmaster"),
        dataclasses.replace(get_game("wizard"), ai_levels={}),
    ):
        with pytest.raises(ValueError, match="hints"):
            hint_for(odd, state.view(state.current), random.Random(0), SMALL)


def test_the_hint_player_is_the_games_strongest_registered_level_unless_it_names_one():
    assert get_game("wizard").hint_player_level() == "expert" == get_game("bidwhist").hint_player_level()
    assert dataclasses.replace(get_game("wizard"), hint_level="easy").hint_player_level() == "easy"


def test_a_third_game_gets_hints_from_its_own_registered_player(oh_hell):
    """Oh Hell (tests/ohhell.py) registers only a random and its own easy player:
    the hints come from the easy one, a legal action with a known reason, at
    every decision of a whole game."""
    from ohhell import OhHellEasyPlayer

    assert oh_hell.hint_player_level() == "easy"
    state, _ = new_game(make_rules(oh_hell.name, {}, players=4), 4, 12)
    reasons = set()
    while state.phase != Phase.GAME_OVER:
        if state.phase == Phase.HAND_OVER:  # the next round is dealt by the table, not a seat
            state = apply(state, NEXT_DEAL)[0]
            continue
        view = state.view(state.current)
        hint = hint_for(oh_hell, view, random.Random(0), SMALL)
        assert hint.action in view.legal_actions and hint.reason_key in REASON_KEYS
        assert hint.action == OhHellEasyPlayer().choose(view, random.Random(0))
        assert all(isinstance(value, (int, str)) for value in hint.params.values())
        reasons.add(hint.reason_key)
        state = apply(state, hint.action)[0]
    assert "hint.bid" in reasons and reasons & {"hint.take_trick", "hint.duck", "hint.spoil"}


def test_a_bid_the_side_may_not_make_is_not_explained_by_a_count_below_it():
    """When the search prefers a bid although the side's expected books fall short
    of what it promises (it beats leaving the contract to the others), the reason
    says so instead of quoting a count that contradicts the bid."""
    deal = bw_deal({0: "AS KS QS JS TS 9S 8S 2H 3H 2D 3D 2C"}, kitty="BJ LJ 7S 4H 4D 4C")
    view = bw_game(deal, dealer=3).view(0)
    three_up = bid(3, 0)

    def decision(expected_books: float) -> HardDecision:
        result = CandidateResult(three_up, 10, 1.0, expected_books)
        return HardDecision(three_up, SearchResult(three_up, 10, (result,)))

    game_def = get_game("bidwhist")
    assert hints._reason(game_def, view, decision(7.2)) == ("hint.bid_books_contest", {"books": 3, "mode": 0})
    assert hints._reason(game_def, view, decision(9.4)) == ("hint.bid_books", {"books": 3, "mode": 0, "n": 9})


def _first_position(overrides: dict, wanted: Callable[[PlayerView], bool]) -> PlayerView:
    """The first view of a random Bid Whist game under ``overrides`` for which ``wanted(view)`` holds."""
    for seed in range(1, 60):
        for state in decisions("bidwhist", 4, overrides, seed=seed, count=40):
            view = state.view(state.current)
            if wanted(view):
                return view
    raise AssertionError("no such position in 60 random games")


def test_a_dealers_take_is_given_as_a_take_not_a_bid():
    view = _first_position({"dealer_takes": True}, lambda v: any(a.kind == ActionKind.TAKE for a in v.legal_actions))
    taking = next(a for a in view.legal_actions if a.kind == ActionKind.TAKE)
    key, params = hints._reason(get_game("bidwhist"), view, HardDecision(taking, None))
    assert key == "hint.take_books" and params["books"] == taking.value and params["mode"] == taking.mode


def test_a_no_trump_discard_without_jokers_does_not_speak_of_jokers():
    view = _first_position({"jokers": False}, lambda v: v.phase == Phase.DISCARD and v.trump < 0)
    laying_aside = next(a for a in view.legal_actions if a.kind == ActionKind.DISCARD)
    key, _ = hints._reason(get_game("bidwhist"), view, HardDecision(laying_aside, None))
    assert key == "hint.discard_weakest"


# ---------------------------------------------------------------- reasons told from the true hand


def _wizard_naming_trump(hand: str):
    """A Wizard round with a Wizard turned up: seat 0, the dealer, names trump holding ``hand``."""
    count = len(hand.split())
    state = wz_round(4, count, wz_deal(4, count, {0: hand}, "WZ"), dealer=0)
    assert state.current == 0 and state.view(0).phase == Phase.TRUMP_CHOICE
    return state.view(0)


def _trump_reason(view, suit: int):
    return hints._reason(get_game(view.game), view, HardDecision(choose_trump(suit), None))


def test_a_trump_hint_for_a_hand_without_suit_cards_says_no_suit_is_better():
    view = _wizard_naming_trump("JE")
    for suit in range(4):
        assert _trump_reason(view, suit) == ("hint.trump_any", {"suit": suit})


def test_a_trump_hint_calls_longest_only_the_longest_suit_by_count():
    view = _wizard_naming_trump("2S 3S 4D 5D 6D 7D")
    assert _trump_reason(view, 2) == ("hint.trump", {"suit": 2, "n": 4})
    # Two low spades against four diamonds: not the longest, and the reason says so.
    assert _trump_reason(view, 0) == ("hint.trump_fit", {"suit": 0})
    assert _trump_reason(view, 1) == ("hint.trump_fit", {"suit": 1})


def test_among_suits_of_equal_length_strength_decides_as_the_contract_ranks():
    view = _wizard_naming_trump("AS 2S 3D 4D")
    assert _trump_reason(view, 0) == ("hint.trump_tied", {"suit": 0, "n": 2})
    assert _trump_reason(view, 2) == ("hint.trump_even", {"suit": 2, "n": 2})
    # Downtown the small cards are strong: four low hearts beat four high clubs.
    deal = bw_deal({0: "2H 3H 5H 6H KC QC JC TC 8S 9S 8D 9D"}, kitty="BJ LJ 7S 4H 4D 4C")
    downtown = drive(bw_game(deal, dealer=3), "4down pass pass pass")[0].view(0)
    assert downtown.phase == Phase.CONTRACT
    assert _trump_reason(downtown, 1) == ("hint.trump_tied", {"suit": 1, "n": 4})
    assert _trump_reason(downtown, 3)[0] == "hint.trump_even"
    uptown = drive(bw_game(deal, dealer=3), "4up pass pass pass")[0].view(0)
    assert _trump_reason(uptown, 3)[0] == "hint.trump_tied"
    assert _trump_reason(uptown, 1)[0] == "hint.trump_even"


def _bid_whist_following_spades(bid_text: str):
    """Seat 1 follows the declarer's ace of spades, holding the 9, king and 3 of spades."""
    deal = bw_deal(
        {0: "AS 2S 2H 3H 4H 5H 6H 7H 8H 9H TH JH", 1: "9S KS 3S 2D 3D 4D 5D 6D 7D 8D 9D TD"}, kitty="BJ LJ 7S 4S 4C 5C"
    )
    state = to_play(bw_game(deal, dealer=3), bid_text, "trump:H")
    state, _ = drive(state, "AS")
    assert state.current == 1
    return state.view(1)


def _play_reason(view, code: str) -> str:
    return hints._reason(get_game("bidwhist"), view, HardDecision(play(cards(code)[0]), None))[0]


def test_play_low_is_said_only_of_the_lowest_card_as_the_contract_ranks_it():
    downtown = _bid_whist_following_spades("4down")
    # Downtown the king is the lowest spade; the 9 is not low, and the 3 is strong.
    assert _play_reason(downtown, "KS") == "hint.follow_low_downtown"
    assert _play_reason(downtown, "9S") == "hint.let_go"
    uptown = _bid_whist_following_spades("4up")
    assert _play_reason(uptown, "3S") == "hint.follow_low"
    assert _play_reason(uptown, "9S") == "hint.let_go"


def test_with_the_partner_winning_play_low_is_said_only_of_the_lowest_card_uptown():
    """Seat 2 follows its partner's winning ace of spades holding the 9, king and 3."""
    deal = bw_deal(
        {
            0: "AS 2S 2H 3H 4H 5H 6H 7H 8H 9H TH JH",
            1: "JS QS 2D 3D 4D 5D 6D 7D 8D 9D TD JD",
            2: "9S KS 3S 2C 3C 4C 6C 7C 8C 9C TC JC",
        },
        kitty="BJ LJ 7S 4S 5S 5C",
    )
    for bid_text, low, lowest_key in (("4up", "3S", "hint.partner_winning"), ("4down", "KS", "hint.partner_leave")):
        state, _ = drive(to_play(bw_game(deal, dealer=3), bid_text, "trump:H"), "AS JS")
        view = state.view(2)
        assert state.current == 2 and view.winning_seat == 0
        assert _play_reason(view, low) == lowest_key
        assert _play_reason(view, "9S") == "hint.partner_leave"
