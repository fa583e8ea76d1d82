"""The house variants of RULES.md, section "More house variants", one table per variant.

Bid Whist ``jokers``, ``dealer_takes``, ``boston`` and ``downtown_ace`` and
Wizard ``wizard_turn_up``: what each rule allows, how a hand is dealt, ranked
and scored under it, and that everything built on the rules (views, events,
clones, the search's hidden cards, saves and the hand history) follows it.
Hands are built explicitly, so each expected result can be read off the rules.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from conftest import bw_deal, bw_game, cards, drive, wz_deal
from game.persistence.history_replay import check_game
from game.rules import (
    Action,
    ActionKind,
    IllegalActionError,
    Phase,
    RuleConfigError,
    apply,
    get_game,
    make_rules,
    new_game,
    parse_action,
)
from game.rules.actions import PASS, BidMode, bid, bid_from_json, bid_to_json, take
from game.rules.bidwhist import (
    BidWhistState,
    check_fixed_deal,
    first_dealer_draw,
    hand_order,
    kitty_size,
    rank_power,
    trick_winner,
)
from game.rules.cards import BIDWHIST_DECK, NO_SUIT, SUIT_CARDS, SUIT_OF, Suit
from game.rules.errors import DealError, ParseError
from game.rules.events import (
    BidMade,
    BidWhistHandScored,
    Dealt,
    GameEvent,
    GameOver,
    KittyTaken,
    TrumpChosen,
    TrumpTurnedUp,
)
from game.rules.house_rules import rules_from_dict
from game.rules.search import HiddenSampler, state_from_view
from game.rules.tricks import is_well_formed
from game.rules.view import BidWhistView, WizardView
from game.session.match import Match, Seat

S, H, D, C = Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS
UP, DOWN = 0, 1
STRONG_HEARTS = "BJ LJ AH KH QH JH TH 9H 8H 7H 6H 5H"
TOP_HEARTS = "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H"


def plain_deal(hands: dict[int, str], kitty: str | None = None) -> tuple[list[list[int]], list[int]]:
    """A deal of the 52-card deck (``jokers: false``): the named cards, filled
    up to 12 a seat from the unused cards in deck order; the kitty is the 4 left."""
    pool = list(SUIT_CARDS)
    given = {seat: cards(text) for seat, text in hands.items()}
    kitty_cards = cards(kitty) if kitty else []
    for held in list(given.values()) + [kitty_cards]:
        for c in held:
            pool.remove(c)
    dealt = []
    for seat in range(4):
        hand = list(given.get(seat, []))
        while len(hand) < 12:
            hand.append(pool.pop(0))
        dealt.append(hand)
    left = kitty_cards or pool
    assert len(left) == 4
    return dealt, left


def play_following(state) -> tuple[BidWhistState, list[GameEvent]]:
    """Play to the end of the hand, each player following suit with its first card that does."""
    events: list[GameEvent] = []
    while state.phase == Phase.PLAY:
        hand = state.hands[state.current]
        led = state.led_suit() if state.trick else NO_SUIT
        follow = [c for c in hand if (SUIT_OF[c] if c < 52 else state.trump) == led]
        state, new = apply(state, Action(ActionKind.PLAY, (follow or hand)[0]))
        events.extend(new)
    return state, events


def discard_kitty(state):
    for c in list(state.kitty):
        state, _ = apply(state, Action(ActionKind.DISCARD, c))
    return state


def scored(events: list[GameEvent]) -> BidWhistHandScored:
    return next(e for e in events if isinstance(e, BidWhistHandScored))


# ================================================================ the rule keys
@pytest.mark.parametrize(
    "game,key,default,good,bad",
    [
        ("bidwhist", "jokers", True, False, "no"),
        ("bidwhist", "dealer_takes", False, True, 1),
        ("bidwhist", "boston", "off", "wins_game", "triple"),
        ("bidwhist", "downtown_ace", "high", "low", "middle"),
        ("wizard", "wizard_turn_up", "dealer_chooses", "first_bidder_chooses", "dealer"),
    ],
)
def test_new_keys_have_defaults_and_checked_values(game, key, default, good, bad) -> None:
    assert getattr(make_rules(game), key) == default
    spec = get_game(game).spec(key)
    assert spec is not None and spec.help
    assert getattr(make_rules(game, {key: good}), key) == good
    with pytest.raises(RuleConfigError) as info:
        make_rules(game, {key: bad})
    assert info.value.key == key


def test_a_history_rule_key_this_version_does_not_know_is_refused_clearly() -> None:
    with pytest.raises(RuleConfigError, match="house rule this version does not know") as info:
        rules_from_dict("bidwhist", {"min_bid": 3, "joker_count": 3})
    assert info.value.key == "joker_count"
    # A record older than a key lacks it: the default applies.
    assert rules_from_dict("bidwhist", {"min_bid": 4}) == make_rules("bidwhist", {"min_bid": 4})
    with pytest.raises(RuleConfigError, match="must map house-rule keys"):
        rules_from_dict("wizard", [])  # type: ignore[arg-type]


# ================================================================ jokers: false
@pytest.mark.parametrize("jokers,kitty,deck", [(True, 6, BIDWHIST_DECK), (False, 4, SUIT_CARDS)])
def test_deal_and_kitty_size(jokers: bool, kitty: int, deck: tuple[int, ...]) -> None:
    rules = make_rules("bidwhist", {"jokers": jokers})
    assert kitty_size(rules) == kitty
    assert get_game("bidwhist").deck_for(rules) == deck
    for seed in range(25):
        state, events = new_game(rules, 4, seed)
        dealt = next(e for e in events if isinstance(e, Dealt))
        assert [len(h) for h in dealt.hands] == [12] * 4 and len(dealt.kitty) == kitty
        assert sorted([c for h in dealt.hands for c in h] + list(dealt.kitty)) == sorted(deck)
        assert len(dealt.sequence) == len(deck)
        owners = [owner for _, owner in dealt.sequence]
        assert -1 not in owners[:4] + owners[-4:]  # never among the first or last four cards dealt
        view = state.view(0)
        assert isinstance(view, BidWhistView) and view.kitty_size == kitty
        # The first-dealer draw uses the same deck.
        assert all(card in deck for _, card in state.first_draw)
        assert (state.first_draw, state.dealer) == tuple(first_dealer_draw(seed, deck))


def test_first_dealer_draw_without_jokers_is_drawn_from_the_52_cards() -> None:
    plain = make_rules("bidwhist", {"jokers": False})
    with_jokers = [new_game(make_rules("bidwhist"), 4, seed)[0].first_draw for seed in range(60)]
    without = [new_game(plain, 4, seed)[0].first_draw for seed in range(60)]
    assert any(card >= 52 for draw in with_jokers for _, card in draw)
    assert all(card < 52 for draw in without for _, card in draw)


def test_without_jokers_the_declarer_takes_four_and_discards_four() -> None:
    state = bw_game(plain_deal({0: TOP_HEARTS}, kitty="2S 3S 4S 5S"), jokers=False, target_score=99)
    state, events = drive(state, "3up pass pass pass trump:H")
    taken = next(e for e in events if isinstance(e, KittyTaken))
    assert taken.cards == tuple(cards("2S 3S 4S 5S"))
    assert len(state.hands[0]) == 16 and state.phase == Phase.DISCARD
    view = state.view(0)
    assert isinstance(view, BidWhistView) and view.kitty_size == 4 and len(view.hand) == 16
    state, _ = drive(state, "-2S -3S -4S")
    with pytest.raises(IllegalActionError, match="discard 4 cards"):
        apply(state, parse_action("AH"))
    state, _ = drive(state, "-5S")
    assert state.phase == Phase.PLAY and len(state.hands[0]) == 12
    with pytest.raises(IllegalActionError):
        apply(state, parse_action("-AH"))  # a fifth discard is refused
    state, events = play_following(state)
    result = scored(events)
    assert len(state.tricks) == 12
    assert result.books == (13, 0)  # 12 tricks and the kitty book
    assert result.score_change == (7, 0)


@pytest.mark.parametrize(
    "trump,direction,trick,winner",
    [
        # Without jokers the ace (uptown) or the ace / 2 (downtown) tops the trump suit.
        (H, UP, "KH AH QH 2S", 1),
        (H, DOWN, "2H KH AH 3H", 2),
        (S, UP, "AD KS 2D 3D", 1),
    ],
)
def test_rankings_without_jokers_are_the_tables_without_their_joker_entries(trump, direction, trick, winner) -> None:
    assert trick_winner(cards(trick), trump, direction, make_rules("bidwhist", {"jokers": False})) == winner


@pytest.mark.parametrize(
    "jokers,deal,accepted",
    [
        (True, "jokers", True),
        (True, "plain", False),
        (False, "plain", True),
        (False, "jokers", False),
    ],
)
def test_fixed_deals_are_checked_against_the_deck_of_the_rules(jokers: bool, deal: str, accepted: bool) -> None:
    rules = make_rules("bidwhist", {"jokers": jokers})
    given = bw_deal({}) if deal == "jokers" else plain_deal({})
    if accepted:
        check_fixed_deal(1, given, 4, rules)
        new_game(rules, 4, 1, first_dealer=0, fixed_deals={1: given})
    else:
        with pytest.raises(ValueError, match="kitty of"):
            check_fixed_deal(1, given, 4, rules)
        with pytest.raises(DealError):
            new_game(rules, 4, 1, first_dealer=0, fixed_deals={1: given})


def test_hidden_cards_for_search_follow_the_kitty_size_and_the_deck() -> None:
    rules = make_rules("bidwhist", {"jokers": False})
    state, _ = new_game(rules, 4, 11)
    state, _ = drive(state, ["3up", "pass", "pass", "pass"])
    for seat in range(4):
        view = state.view(seat)
        sampler = HiddenSampler(view)
        guess = sampler.sample(random.Random(seat))
        assert len(guess.kitty) == 4 and all(c < 52 for c in guess.kitty)
        assert all(c < 52 for hand in guess.hands.values() for c in hand)
        world = state_from_view(view, guess, 5)
        assert isinstance(world, BidWhistState)
        assert len(world.kitty) == 4 and world.view(seat) == view
    # After the declarer's discards, another seat's guess holds 4 hidden discards.
    declarer = state.current
    state, _ = drive(state, ["trump:S"])
    for c in state.hands[declarer][:4]:
        state, _ = apply(state, Action(ActionKind.DISCARD, c))
    other = (declarer + 1) % 4
    guess = HiddenSampler(state.view(other)).sample(random.Random(1))
    assert len(guess.discards) == 4
    world = state_from_view(state.view(other), guess, 3)
    assert world.view(other) == state.view(other) and world.phase == Phase.PLAY


def test_a_clone_keeps_the_kitty_size() -> None:
    state, _ = new_game(make_rules("bidwhist", {"jokers": False}), 4, 2)
    clone = state.clone(99)
    clone, _ = drive(clone, ["4nt", "pass", "pass", "pass", "uptown"])
    assert len(clone.hands[clone.declarer]) == 16
    assert clone.view(0).kitty_size == 4


# ================================================================ dealer_takes
def _bidding(moves: str, **overrides) -> BidWhistState:
    state, _ = drive(bw_game(bw_deal({}), dealer=3, **overrides), moves)
    return state


@pytest.mark.parametrize(
    "rules,moves,takes",
    [
        ({"dealer_takes": True}, "4up pass pass", ["take:4up", "take:4down", "take:4nt"]),
        ({"dealer_takes": True}, "3up 3nt pass", ["take:3up", "take:3down", "take:3nt"]),
        ({"dealer_takes": True}, "pass pass 7nt", ["take:7up", "take:7down", "take:7nt"]),
        ({"dealer_takes": True}, "pass pass pass", []),  # three passes: the dealer must bid as usual
        ({"dealer_takes": True, "all_pass": "redeal"}, "pass pass pass", []),
        ({"dealer_takes": False}, "4up pass pass", []),
    ],
)
def test_the_dealers_take(rules: dict, moves: str, takes: list[str]) -> None:
    state = _bidding(moves, **rules)
    assert state.current == state.dealer
    legal = [str(a) for a in state.legal_actions()]
    assert [a for a in legal if a.startswith("take:")] == takes
    if moves == "pass pass pass" and rules.get("all_pass") != "redeal":
        assert "pass" not in legal and "3up" in legal


def test_only_the_dealer_may_take() -> None:
    state = _bidding("4up", dealer_takes=True)
    assert not any(a.kind == ActionKind.TAKE for a in state.legal_actions())
    with pytest.raises(IllegalActionError) as info:
        apply(state, take(4, UP))
    assert info.value.code == "take_dealer_only"


@pytest.mark.parametrize(
    "rules,moves,action,code",
    [
        ({}, "4up pass pass", "take:4up", "take_not_allowed"),
        ({"dealer_takes": True}, "4up pass pass", "take:5up", "take_books"),
        ({"dealer_takes": True}, "4up pass pass", "take:3nt", "take_books"),
        ({"dealer_takes": True, "all_pass": "redeal"}, "pass pass pass", "take:3up", "take_no_bid"),
    ],
)
def test_a_take_that_is_not_allowed_is_refused_with_its_reason(rules, moves, action, code) -> None:
    state = _bidding(moves, **rules)
    with pytest.raises(IllegalActionError) as info:
        apply(state, parse_action(action))
    assert info.value.code == code


@pytest.mark.parametrize(
    "take_text,mode", [("take:4up", BidMode.UPTOWN), ("take:4down", BidMode.DOWNTOWN), ("take:4nt", BidMode.NOTRUMP)]
)
def test_the_dealer_becomes_declarer_at_the_high_number_in_any_mode(take_text: str, mode: int) -> None:
    state = _bidding("pass 4up pass", dealer_takes=True)
    state, events = drive(state, take_text)
    made = [e for e in events if isinstance(e, BidMade)]
    assert made == [BidMade(3, take(4, mode))]
    assert state.declarer == 3 and state.high_books == 4 and state.high_mode == mode
    assert state.phase == Phase.CONTRACT and state.current == 3
    view = state.view(1)
    assert view.declarer == 3 and view.contract_books == 4 and view.bids[-1] == (3, take(4, mode))


def test_a_no_trump_take_scores_like_a_no_trump_contract() -> None:
    deal = bw_deal({3: "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S"})
    state = bw_game(deal, dealer=3, dealer_takes=True, target_score=99, notrump_multiplier=3)
    state, _ = drive(state, "3up pass pass take:3nt uptown")
    state = discard_kitty(state)
    state, events = play_following(state)
    result = scored(events)
    assert result.declarer == 3 and result.contract is not None and result.contract.mode == BidMode.NOTRUMP
    assert result.books[1] >= 9 and result.score_change == (0, (result.books[1] - 6) * 3)


@pytest.mark.parametrize(
    "action,text,data",
    [
        (take(4, UP), "take:4up", {"books": 4, "mode": "uptown", "take": True}),
        (take(3, DOWN), "take:3down", {"books": 3, "mode": "downtown", "take": True}),
        (take(7, BidMode.NOTRUMP), "take:7nt", {"books": 7, "mode": "notrump", "take": True}),
        (bid(4, UP), "4up", {"books": 4, "mode": "uptown"}),
    ],
)
def test_a_take_is_written_and_read_back(action: Action, text: str, data: dict) -> None:
    assert action.kind == (ActionKind.TAKE if "take" in data else ActionKind.BID) and int(ActionKind.TAKE) == 8
    assert str(action) == text and parse_action(text) == action and parse_action(text.upper()) == action
    assert bid_to_json(action) == data and bid_from_json(data) == action
    assert is_well_formed(action)


@pytest.mark.parametrize(
    "data", [{"books": 4, "mode": "uptown", "take": "yes"}, {"books": 4, "mode": "uptown", "take": 1}]
)
def test_a_take_flag_that_is_not_true_or_false_is_refused(data: dict) -> None:
    with pytest.raises(ParseError):
        bid_from_json(data)


def test_malformed_takes_are_not_actions() -> None:
    assert not is_well_formed(Action(ActionKind.TAKE, 4, 3))
    for text in ("take:8up", "take:4", "take:up", "take:4sideways"):
        with pytest.raises(ParseError):
            parse_action(text)


# ================================================================ boston
def _sweep(boston: str, multiplier_mode: str = "3up", contract: str = "trump:H", **more):
    state = bw_game(bw_deal({0: STRONG_HEARTS}), target_score=99, boston=boston, **more)
    state, _ = drive(state, f"{multiplier_mode} pass pass pass {contract}")
    state = discard_kitty(state)
    return play_following(state)


@pytest.mark.parametrize(
    "boston,flag,change,over",
    [
        ("off", False, 7, False),
        ("double", True, 14, False),
        ("wins_game", True, 7, True),
    ],
)
def test_a_boston(boston: str, flag: bool, change: int, over: bool) -> None:
    state, events = _sweep(boston)
    result = scored(events)
    assert result.books == (13, 0) and result.boston is flag
    assert result.score_change == (change, 0)
    assert state.is_terminal is over
    if over:
        assert events[-1] == GameOver((7, 0), (0,))  # far below the target of 99
        assert state.results()["winners"] == [0]


def test_a_no_trump_boston_doubles_after_the_multiplier() -> None:
    deal = bw_deal({0: "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S"}, kitty="2S AH KH QH JH TH")
    state = bw_game(deal, target_score=99, boston="double", notrump_multiplier=3)
    state, _ = drive(state, "3nt pass pass pass uptown")
    state, _ = drive(state, "-AH -KH -QH -JH -TH -2S")  # every spade left is the declarer's
    state, events = play_following(state)
    result = scored(events)
    assert result.books == (13, 0) and result.boston
    assert result.score_change == (7 * 3 * 2, 0)


RENEGE_DEAL = {0: STRONG_HEARTS, 1: "2H AS KS QS JS TS 9S 8S 7S 6S 5S 4S", 2: "4H 3H AD KD QD JD TD 9D 8D 7D 6D 5D"}


def test_a_boston_is_counted_after_the_renege_penalties() -> None:
    # The bidding team's renege costs it 3 books; the defenders' later renege
    # gives them back: 13 books after the penalties, a Boston.
    deal = bw_deal(
        {0: STRONG_HEARTS, 1: "3H 2H AS KS QS JS TS 9S 8S 7S 6S 5S", 2: "4H AD KD QD JD TD 9D 8D 7D 6D 5D 4D"}
    )
    state = bw_game(deal, target_score=99, renege="penalized", boston="double")
    state, _ = drive(state, "3up pass pass pass trump:H")
    state = discard_kitty(state)
    state, _ = drive(state, "BJ 3H AD 2D LJ AS 4H 3D")
    state, events = play_following(state)
    result = scored(events)
    assert result.books == (13, 0) and result.boston and result.score_change == (14, 0)


def test_defenders_taking_all_thirteen_books_simply_set_the_contract() -> None:
    state = bw_game(bw_deal(RENEGE_DEAL), target_score=99, renege="penalized", boston="wins_game")
    state, _ = drive(state, "3up pass pass pass trump:H")
    state = discard_kitty(state)
    for trick in ["BJ 2H AD 2S", "LJ AS KD 3S", "AH KS QD 2D", "KH QS JD 3D", "QH JS TD 4D"]:
        state, _ = drive(state, trick)
    state, events = play_following(state)
    result = scored(events)
    assert result.books == (0, 13) and result.boston is False
    assert result.made is False and result.score_change == (-3, 0) and not state.is_terminal


def test_twelve_tricks_to_the_defenders_are_a_set_not_a_boston() -> None:
    # The kitty book stays the bidding team's: the defenders' 12 tricks are 12 books.
    deal = bw_deal({1: "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S"})
    state = bw_game(deal, dealer=0, target_score=99, boston="double", first_lead="left_of_dealer")
    state, _ = drive(state, "pass pass pass 3nt uptown")
    state = discard_kitty(state)
    state, events = play_following(state)
    result = scored(events)
    assert result.books == (1, 12) and not result.boston and result.score_change == (-6, 0)


# ================================================================ downtown_ace
LOW: dict[str, Any] = {"downtown_ace": "low"}


@pytest.mark.parametrize(
    "trump,direction,trick,high_winner,low_winner",
    [
        (H, DOWN, "KS 2S 3S AS", 3, 1),  # downtown with trump: the ace is the lowest spade
        (H, DOWN, "AS KS QS 2H", 3, 3),  # a trump still wins
        (H, DOWN, "AH 2H 3H KH", 0, 1),  # the ace of trump is the lowest trump
        (H, DOWN, "AH LJ 2H 3H", 1, 1),  # the jokers stay on top
        (H, DOWN, "BJ LJ AH 2H", 0, 0),
        (NO_SUIT, DOWN, "AD KD 2D QD", 0, 2),  # no trump downtown: 2 3 ... K A
        (NO_SUIT, DOWN, "KD AD QD JD", 1, 3),
        (H, UP, "KS AS 2S 3S", 1, 1),  # uptown is unchanged
        (NO_SUIT, UP, "2D AD KD QD", 1, 1),
    ],
)
def test_ace_low_downtown(trump: int, direction: int, trick: str, high_winner: int, low_winner: int) -> None:
    assert trick_winner(cards(trick), trump, direction) == high_winner
    assert trick_winner(cards(trick), trump, direction, make_rules("bidwhist")) == high_winner
    assert trick_winner(cards(trick), trump, direction, make_rules("bidwhist", LOW)) == low_winner


def test_ace_low_ranking_tables_and_hand_order() -> None:
    low = make_rules("bidwhist", LOW)
    power = rank_power(DOWN, low)
    order = sorted(cards("AS 2S 3S KS QS"), key=lambda c: -power[c])
    assert order == cards("2S 3S QS KS AS")
    assert rank_power(UP, low) == rank_power(UP)
    hand = cards("AH 2H KH AS 2S BJ")
    assert hand_order(hand, H, DOWN) == cards("BJ AH 2H KH AS 2S")
    assert hand_order(hand, H, DOWN, low) == cards("BJ 2H KH AH 2S AS")
    assert get_game("bidwhist").hand_order(hand, H, DOWN, rules=low) == cards("BJ 2H KH AH 2S AS")


def test_the_engine_ranks_the_ace_low_in_a_downtown_contract() -> None:
    # Seats 2 and 3 hold no spade and no trump: the trick is the ace's or the 2's.
    deal = bw_deal(
        {0: "AS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH", 1: "2S KS QS JS TS 9S 8S 7S 6S 5S 4S 3S"}, kitty="KH AH BJ LJ 2D 3D"
    )
    for rules, winner in (({}, 0), (LOW, 1)):
        state = bw_game(deal, dealer=3, **rules)
        state, _ = drive(state, "3down pass pass pass trump:H")
        state = discard_kitty(state)
        state, _ = drive(state, "AS 2S")
        state, _ = apply(state, state.legal_actions()[0])
        state, _ = apply(state, state.legal_actions()[0])
        assert state.tricks[0].winner == winner


# ================================================================ wizard_turn_up
@pytest.mark.parametrize(
    "rule,chooser,phase,trump",
    [
        ("dealer_chooses", 2, Phase.TRUMP_CHOICE, NO_SUIT),
        ("first_bidder_chooses", 3, Phase.TRUMP_CHOICE, NO_SUIT),
        ("no_trump", -1, Phase.PREDICT, NO_SUIT),
    ],
)
def test_a_wizard_turned_up(rule: str, chooser: int, phase: Phase, trump: int) -> None:
    deal = wz_deal(4, 1, {}, "WZ")
    rules = make_rules("wizard", {"wizard_turn_up": rule}, players=4)
    state, events = new_game(rules, 4, 1, first_dealer=2, fixed_deals={1: deal})
    turned = next(e for e in events if isinstance(e, TrumpTurnedUp))
    assert turned == TrumpTurnedUp(54, trump, chooser >= 0, chooser)
    assert state.phase == phase and state.trump == trump
    assert state.current == (chooser if chooser >= 0 else 3)  # else bidding starts at the dealer's left
    view = state.view(0)
    assert isinstance(view, WizardView) and view.trump_pending is (chooser >= 0)


@pytest.mark.parametrize("rule", ["dealer_chooses", "first_bidder_chooses", "no_trump"])
@pytest.mark.parametrize("turn_up,trump", [("9C", C), ("JE", NO_SUIT), (None, NO_SUIT)])
def test_other_turn_ups_are_not_affected(rule: str, turn_up: str | None, trump: int) -> None:
    players, round_number = (3, 20) if turn_up is None else (4, 2)
    rules = make_rules("wizard", {"wizard_turn_up": rule}, players=players)
    # The last round of three players deals all 60 cards: the Wizards and Jesters too.
    deal = wz_deal(players, round_number, {0: "WZ WZ WZ WZ JE JE JE JE"} if turn_up is None else {}, turn_up)
    state, events = new_game(
        rules, players, 1, first_dealer=0, start_deal=round_number, fixed_deals={round_number: deal}
    )
    turned = next(e for e in events if isinstance(e, TrumpTurnedUp))
    assert turned.chooser == -1 and not turned.dealer_chooses and turned.trump == trump
    assert state.phase == Phase.PREDICT and state.current == 1


def test_the_first_bidder_names_trump_then_bids_first() -> None:
    rules = make_rules("wizard", {"wizard_turn_up": "first_bidder_chooses"}, players=4)
    state, _ = new_game(rules, 4, 1, first_dealer=2, start_deal=2, fixed_deals={2: wz_deal(4, 2, {}, "WZ")})
    assert state.dealer == 2 and state.phase == Phase.TRUMP_CHOICE and state.current == 3
    with pytest.raises(IllegalActionError, match="left of the dealer must first choose"):
        apply(state, parse_action("1"))
    state, events = drive(state, "trump:D")
    assert events == [TrumpChosen(3, D)]
    assert state.trump == D and state.phase == Phase.PREDICT and state.current == 3
    state, _ = drive(state, "1")
    assert state.view(0).actions[:2] == ((3, parse_action("trump:D")), (3, parse_action("1")))


def test_search_rebuilds_a_round_whose_trump_the_first_bidder_named() -> None:
    rules = make_rules("wizard", {"wizard_turn_up": "first_bidder_chooses", "bidding": "hidden"}, players=3)
    state, _ = new_game(rules, 3, 5, first_dealer=0, start_deal=3, fixed_deals={3: wz_deal(3, 3, {}, "WZ")})
    assert state.current == 1
    state, _ = drive(state, "trump:C 1 0")
    for seat in range(3):
        view = state.view(seat)
        guess = HiddenSampler(view).sample(random.Random(seat))
        world = state_from_view(view, guess, 1)
        assert world.view(seat) == view and world.trump == C


# ================================================================ saves and histories
VARIANT_RULES = [
    (
        "bidwhist",
        4,
        {
            "jokers": False,
            "dealer_takes": True,
            "boston": "wins_game",
            "downtown_ace": "low",
            "min_bid": 1,
            "target_score": 3,
        },
    ),
    ("bidwhist", 4, {"dealer_takes": True, "boston": "double", "target_score": 3}),
    ("wizard", 3, {"wizard_turn_up": "first_bidder_chooses", "rounds": 10}),
    ("wizard", 5, {"wizard_turn_up": "no_trump", "rounds": 8}),
]


@pytest.mark.parametrize("game,players,overrides", VARIANT_RULES)
def test_variant_games_save_load_and_replay_from_their_history(game, players, overrides) -> None:
    rules = make_rules(game, overrides, players=players)
    match = Match(rules, [Seat(f"Seat {i}", "ai:medium") for i in range(players)], 17)
    halfway = None
    moves = 0
    while not match.is_over:
        if match.phase == Phase.HAND_OVER:
            match.next_deal()
        else:
            match.apply(match.choose_ai_action())
        moves += 1
        if moves == 40:
            halfway = match.to_save()
    assert halfway is not None
    resumed = Match.from_save(halfway)
    assert [str(a) for _, a in resumed.actions] == halfway["actions"]
    record = match.history()
    assert record["rules"] == rules.to_dict()
    assert check_game(record) == []
    # Without a seed the replay deals the recorded hands (a kitty of 4 without jokers).
    unseeded = {**record, "seed": None}
    assert check_game(unseeded) == []


def test_a_take_is_recorded_in_the_history_and_replayed() -> None:
    rules = make_rules("bidwhist", {"dealer_takes": True, "target_score": 3})
    match = Match(rules, [Seat(f"Seat {i}", "human") for i in range(4)], 5)
    # The seeded first deal decides the dealer; drive bids until the dealer's turn and take.
    while match.current_player != match.view(0).dealer:
        legal = match.view(match.current_player).legal_actions
        match.apply(next(a for a in legal if a.kind == ActionKind.BID) if not match.actions else PASS)
    dealers_view = match.view(match.current_player)
    assert isinstance(dealers_view, BidWhistView)
    high = dealers_view.high_bid
    assert high is not None
    match.apply(take(high[0], BidMode.DOWNTOWN))
    record = match.history()
    bids = record["deals"][0]["bids"]
    assert bids[-1]["bid"] == {"books": high[0], "mode": "downtown", "take": True}
    assert all("take" not in entry["bid"] for entry in bids[:-1] if isinstance(entry["bid"], dict))
    assert check_game(record) == []


@pytest.mark.parametrize("rule", ["dealer_chooses", "first_bidder_chooses", "no_trump"])
def test_a_wizard_turn_up_replays_from_the_history_under_each_rule(rule: str) -> None:
    rules = make_rules("wizard", {"wizard_turn_up": rule, "rounds": 5}, players=3)
    match = Match(rules, [Seat(f"Seat {i}", "ai:medium") for i in range(3)], 7)  # seed 7 turns up a Wizard
    match.play_out()
    record = match.history()
    turned = [deal for deal in record["deals"] if deal["turn_up"] == "WZ"]
    assert turned
    assert all((deal["trump"] is None) is (rule == "no_trump") for deal in turned)
    assert check_game(record) == [] and check_game({**record, "seed": None}) == []
