"""Bid Whist rules (RULES.md, "Bid Whist"), one section of the rules per group of tests.

Hands are built explicitly with the conftest helpers, so every expected result
here can be checked by reading the rules, not the engine.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from conftest import bw_deal, bw_game, card, cards, drive, reference_bidwhist_winner, to_play
from game.persistence.history_codec import HistoryRecorder
from game.rules import (
    Action,
    ActionKind,
    BidMode,
    IllegalActionError,
    Phase,
    apply,
    get_game,
    make_rules,
    new_game,
    parse_action,
)
from game.rules.actions import NEXT_DEAL, PASS, bid
from game.rules.bidwhist import BidWhistState, first_dealer_from_deck, led_suit_of, trick_winner
from game.rules.cards import BIDWHIST_DECK, NO_SUIT, SUIT_OF, Suit, card_code
from game.rules.events import (
    BidWhistHandScored,
    CardPlayed,
    ContractSet,
    Dealt,
    FirstDealerDrawn,
    GameEvent,
    GameOver,
    KittyTaken,
    Redealt,
    TrickWon,
)

S, H, D, C = Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS
UP, DOWN = 0, 1


# ---------------------------------------------------------------- trick winners
WINNER_CASES = [
    # (contract, trump, direction, trick in play order, index of the winner)
    ("uptown trump: highest of suit led", H, UP, "KS AS QS 2S", 1),
    ("uptown trump: any trump beats the suit led", H, UP, "KS AS 2H QS", 2),
    ("uptown trump: off-suit card never wins", H, UP, "KS AS 3D QS", 1),
    ("uptown trump: higher trump over-trumps", H, UP, "KS 3H AS 9H", 3),
    ("uptown trump: big joker beats ace of trump", H, UP, "AH LJ BJ KH", 2),
    ("uptown trump: little joker beats ace of trump", H, UP, "AH LJ 2S KH", 1),
    ("uptown trump: joker lead is a trump lead", H, UP, "LJ AH KH 2H", 0),
    ("uptown trump: joker beats the ace of another suit", S, UP, "AD KD LJ QD", 2),
    ("downtown trump: ace high, then 2", H, DOWN, "KS 2S 3S AS", 3),
    ("downtown trump: 2 beats 3 beats K", H, DOWN, "KS 3S 2S QS", 2),
    ("downtown trump: any trump beats the suit led", H, DOWN, "2S KH AS 3S", 1),
    ("downtown trump: ace of trump over 2 of trump", H, DOWN, "2H AH 3H KH", 1),
    ("downtown trump: 2 of trump over K of trump", H, DOWN, "KH 2H 5S QH", 1),
    ("downtown trump: joker over ace of trump", H, DOWN, "2H AH 3H LJ", 3),
    ("downtown trump: big over little joker", C, DOWN, "LJ 2C BJ AC", 2),
    ("no trump uptown: highest of suit led", NO_SUIT, UP, "KS AS BJ 2S", 1),
    ("no trump uptown: aces of other suits never win", NO_SUIT, UP, "2S AH AD AC", 0),
    ("no trump uptown: jokers never win", NO_SUIT, UP, "3S BJ LJ 2S", 0),
    ("no trump: joker lead, first non-joker sets the suit", NO_SUIT, UP, "BJ 5D AS 6D", 3),
    ("no trump: both jokers first, then the suit", NO_SUIT, UP, "LJ BJ 9C AC", 3),
    ("no trump: joker lead, setter wins alone", NO_SUIT, UP, "BJ 5D AS KH", 1),
    ("no trump downtown: 2 highest after ace", NO_SUIT, DOWN, "KS 2S 3S QS", 1),
    ("no trump downtown: ace high", NO_SUIT, DOWN, "KS AS 2S 3S", 1),
    ("no trump downtown: joker lead", NO_SUIT, DOWN, "BJ KD QD 4S", 2),
    ("no trump downtown: K lowest", NO_SUIT, DOWN, "KH QH JH TH", 3),
]


@pytest.mark.parametrize("name,trump,direction,trick,winner", WINNER_CASES, ids=[c[0] for c in WINNER_CASES])
def test_trick_winner_table(name: str, trump: int, direction: int, trick: str, winner: int) -> None:
    assert trick_winner(cards(trick), trump, direction) == winner


@pytest.mark.parametrize(
    "trick,trump,led",
    [
        ("BJ", NO_SUIT, NO_SUIT),
        ("BJ LJ", NO_SUIT, NO_SUIT),
        ("BJ 5D", NO_SUIT, D),
        ("LJ", H, H),
        ("BJ", S, S),
        ("4C BJ", H, C),
        ("", H, NO_SUIT),
    ],
)
def test_led_suit(trick: str, trump: int, led: int) -> None:
    assert led_suit_of(cards(trick), trump) == led


@settings(deadline=None)
@given(
    trick=st.lists(st.sampled_from(BIDWHIST_DECK), min_size=4, max_size=4, unique=True),
    trump=st.sampled_from([S, H, D, C, NO_SUIT]),
    direction=st.sampled_from([UP, DOWN]),
)
def test_trick_winner_matches_reference(trick: list[int], trump: int, direction: int) -> None:
    assert trick_winner(trick, trump, direction) == reference_bidwhist_winner(trick, trump, direction)


# ---------------------------------------------------------------- follow suit
STRONG_HEARTS = "BJ LJ AH KH QH JH TH 9H 8H 7H 6H 5H"


def test_joker_must_be_played_when_it_is_the_only_trump_and_trump_is_led() -> None:
    deal = bw_deal({0: "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H", 1: "BJ AS KS QS JS TS 9S 8S 7S 6S 5S 4S"})
    state = to_play(bw_game(deal), "3up", "trump:H")
    state, _ = drive(state, "AH")
    assert state.current == 1
    assert state.legal_cards() == [card("BJ")]
    with pytest.raises(IllegalActionError) as info:
        apply(state, parse_action("AS"))
    assert info.value.message == "You must follow hearts"
    assert info.value.code == "must_follow"


def test_joker_lead_in_trump_is_a_trump_lead() -> None:
    deal = bw_deal({0: "LJ AH KH QH JH TH 9H 8H 7H 6H 5H 4H", 1: "2H AS KS QS JS TS 9S 8S 7S 6S 5S 4S"})
    state = to_play(bw_game(deal), "3up", "trump:H")
    state, _ = drive(state, "LJ")
    assert state.legal_cards() == [card("2H")]


def test_joker_in_trump_follows_a_trump_lead_when_other_trumps_are_held() -> None:
    deal = bw_deal({0: "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H", 1: "BJ 2H KS QS JS TS 9S 8S 7S 6S 5S 4S"})
    state = to_play(bw_game(deal), "3up", "trump:H")
    state, _ = drive(state, "AH")
    assert sorted(state.legal_cards()) == sorted(cards("BJ 2H"))


def test_no_trump_joker_only_when_unable_to_follow() -> None:
    deal = bw_deal(
        {
            0: "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S",
            1: "BJ 2S AH KH QH JH TH 9H 8H 7H 6H 5H",
            2: "LJ AD KD QD JD TD 9D 8D 7D 6D 5D 4D",
        }
    )
    state = to_play(bw_game(deal), "3nt", "uptown")
    state, _ = drive(state, "AS")
    assert state.legal_cards() == [card("2S")]  # holds a spade: the joker may not be played
    with pytest.raises(IllegalActionError) as info:
        apply(state, parse_action("BJ"))
    assert info.value.message == "You must follow spades: a joker may be played only when you cannot follow"
    state, _ = drive(state, "2S")
    assert card("LJ") in state.legal_cards()  # no spade left: anything, the joker included
    assert sorted(state.legal_cards()) == sorted(state.hands[2])


def test_no_trump_joker_lead_first_non_joker_sets_the_suit() -> None:
    deal = bw_deal(
        {
            0: "BJ AS KS QS JS TS 9S 8S 7S 6S 5S 4S",
            1: "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 2D",
            2: "3H AD KD QD JD TD 9D 8D 7D 6D 5D 4D",
        }
    )
    state = to_play(bw_game(deal), "3nt", "uptown")
    state, _ = drive(state, "BJ")
    assert sorted(state.legal_cards()) == sorted(state.hands[1])  # nothing to follow yet
    state, _ = drive(state, "2D")  # sets diamonds, not the hearts seat 1 is long in
    assert sorted(state.legal_cards()) == sorted(cards("AD KD QD JD TD 9D 8D 7D 6D 5D 4D"))
    with pytest.raises(IllegalActionError, match="You must follow diamonds"):
        apply(state, parse_action("3H"))
    state, events = drive(state, "AD 3D")  # seat 3 must follow diamonds too
    won = [e for e in events if isinstance(e, TrickWon)][0]
    assert won.winner == 2  # the ace of the suit set by the second card wins


def test_not_in_hand_and_wrong_phase_messages() -> None:
    state = bw_game(bw_deal({0: STRONG_HEARTS}))
    with pytest.raises(IllegalActionError) as info:
        apply(state, parse_action("AH"))
    assert info.value.message == "It is time to bid or pass"
    state = to_play(state, "3up", "trump:H")
    with pytest.raises(IllegalActionError) as info:
        apply(state, parse_action("2C"))
    assert info.value.message == "You do not hold the 2 of clubs"
    with pytest.raises(IllegalActionError, match="It is time to play a card"):
        apply(state, parse_action("-AH"))


# ---------------------------------------------------------------- bidding
@pytest.mark.parametrize("seed", range(8))
def test_bidding_goes_once_around_from_the_dealers_left(seed: int) -> None:
    started, _ = new_game(make_rules("bidwhist"), 4, seed)
    assert isinstance(started, BidWhistState)
    state = started
    dealer = state.dealer
    order = []
    for text in ["pass", "3up", "pass", "4nt"]:
        order.append(state.current_player)
        assert state.phase == Phase.BID
        state, _ = apply(state, parse_action(text))
    assert order == [(dealer + k) % 4 for k in (1, 2, 3, 4)]
    assert order[-1] == dealer
    assert state.phase == Phase.CONTRACT  # nobody gets a second turn
    assert state.current_player == dealer and state.declarer == dealer
    assert [seat for seat, _ in state.bids] == order


def _after(text: str, **overrides) -> BidWhistState:
    started, _ = new_game(make_rules("bidwhist", overrides), 4, 5)
    assert isinstance(started, BidWhistState)
    state, _ = drive(started, text)
    return state


def _bid_strings(state) -> set[str]:
    return {str(a) for a in state.legal_actions()}


def test_overcalls_when_downtown_does_not_outrank_uptown() -> None:
    state = _after("3up")
    legal = _bid_strings(state)
    assert {"3nt", "4up", "4down", "4nt", "pass"} <= legal
    assert "3down" not in legal and "3up" not in legal
    with pytest.raises(IllegalActionError) as info:
        apply(state, parse_action("3down"))
    assert info.value.message == "Bid must be higher than 3 uptown"
    assert info.value.code == "bid_too_low"
    state = _after("3down")  # and the other way round: equal, so no overcall either
    assert "3up" not in _bid_strings(state) and "3nt" in _bid_strings(state)


def test_overcalls_when_downtown_outranks_uptown() -> None:
    state = _after("3up", downtown_outranks_uptown=True)
    assert {"3down", "3nt", "4up"} <= _bid_strings(state)
    state, _ = drive(state, "3down")
    assert "3up" not in _bid_strings(state) and "3nt" in _bid_strings(state)
    with pytest.raises(IllegalActionError) as info:
        apply(state, parse_action("3up"))
    assert info.value.message == "Bid must be higher than 3 downtown"
    state, _ = drive(state, "3nt")
    assert min(a.value for a in state.legal_actions() if a.kind == ActionKind.BID) == 4


@pytest.mark.parametrize("flag", [False, True])
def test_higher_number_always_beats_and_no_trump_tops_its_number(flag: bool) -> None:
    state = _after("4nt", downtown_outranks_uptown=flag)
    with pytest.raises(IllegalActionError) as info:
        apply(state, parse_action("4up"))
    assert info.value.message == "Bid must be higher than 4 no trump"
    assert {"5up", "5down", "5nt"} <= _bid_strings(state)
    state = _after("4up", downtown_outranks_uptown=flag)
    with pytest.raises(IllegalActionError, match="^Bid must be higher than 4 uptown$"):
        apply(state, parse_action("4up"))


@pytest.mark.parametrize("min_bid", [1, 3, 5, 7])
def test_min_bid(min_bid: int) -> None:
    state = _after("", min_bid=min_bid)
    numbers = {a.value for a in state.legal_actions() if a.kind == ActionKind.BID}
    assert numbers == set(range(min_bid, 8))
    if min_bid > 1:
        with pytest.raises(IllegalActionError) as info:
            apply(state, bid(min_bid - 1, 0))
        assert info.value.message == f"Bid must be at least {min_bid}"
    with pytest.raises(IllegalActionError) as info:
        apply(state, bid(8, 0))
    assert info.value.message == f"Bid must be from {min_bid} to 7"
    assert "7nt" in _bid_strings(state)
    state, _ = drive(state, "7nt")
    assert _bid_strings(state) == {"pass"}  # nothing beats 7 no trump


def test_dealer_must_bid_after_three_passes() -> None:
    state = _after("pass pass pass")
    assert state.current_player == state.dealer
    assert PASS not in state.legal_actions()
    with pytest.raises(IllegalActionError) as info:
        apply(state, PASS)
    assert info.value.message == "The dealer must bid: the other three passed"
    assert info.value.code == "dealer_must_bid"
    state, _ = drive(state, "3up")
    assert state.phase == Phase.CONTRACT and state.declarer == state.dealer


def test_dealer_may_pass_after_a_bid() -> None:
    state = _after("3up pass pass")
    assert PASS in state.legal_actions()


def test_all_pass_redeal_throws_the_hand_in() -> None:
    rules = make_rules("bidwhist", {"all_pass": "redeal"})
    state, events = new_game(rules, 4, 11)
    assert isinstance(state, BidWhistState)
    recorder = HistoryRecorder(get_game("bidwhist"), 11, rules.to_dict(), [{"seat": i} for i in range(4)])
    recorder.feed(events)
    dealer = state.dealer
    state, events = drive(state, "pass pass pass")
    recorder.feed(events)
    assert PASS in state.legal_actions()  # the dealer may pass too
    state, events = drive(state, "pass")
    recorder.feed(events)
    kinds = [type(e) for e in events]
    assert Redealt in kinds and BidWhistHandScored in kinds
    assert state.phase == Phase.HAND_OVER and state.legal_actions() == [NEXT_DEAL]
    assert state.scores == [0, 0]
    deal = recorder.record["deals"][0]
    assert deal["redeal"] is True
    assert deal["declarer"] is None and deal["contract"] is None
    assert deal["discard"] == [] and deal["tricks"] == [] and deal["reneges"] == []
    assert deal["books"] == [0, 0] and deal["score_change"] == [0, 0] and deal["scores"] == [0, 0]
    assert [b["bid"] for b in deal["bids"]] == ["pass"] * 4
    state, events = apply(state, NEXT_DEAL)
    recorder.feed(events)
    assert state.dealer == (dealer + 1) % 4 and state.deal_number == 2
    assert state.current_player == (dealer + 2) % 4 and state.phase == Phase.BID
    assert recorder.record["deals"][1]["dealer"] == (dealer + 1) % 4


# ---------------------------------------------------------------- kitty and discard
def test_declarer_takes_the_kitty_and_discards_six_of_any_kind() -> None:
    deal = bw_deal({0: "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S"}, kitty="BJ 2H 3H 4H 5H 6H")
    state = bw_game(deal)
    state, events = drive(state, "3up pass pass pass")
    assert state.phase == Phase.CONTRACT
    assert state.view(0).kitty == ()  # not before it is taken
    state, events = drive(state, "trump:S")
    assert [type(e) for e in events] == [ContractSet, KittyTaken]
    assert len(state.hands[0]) == 18
    assert set(state.view(0).kitty) == set(cards("BJ 2H 3H 4H 5H 6H"))
    assert all(state.view(seat).kitty == () for seat in (1, 2, 3))
    assert {a.value for a in state.legal_actions()} == set(state.hands[0])
    assert all(a.kind == ActionKind.DISCARD for a in state.legal_actions())
    # A mix: the big joker and a heart from the kitty, four of the declarer's own.
    state, _ = drive(state, "-BJ -2H -3S -4S -5S -6S")
    assert state.phase == Phase.PLAY and len(state.hands[0]) == 12
    assert state.discards == cards("BJ 2H 3S 4S 5S 6S")
    assert state.view(0).discards == tuple(cards("BJ 2H 3S 4S 5S 6S"))
    assert state.view(1).discards == ()
    with pytest.raises(IllegalActionError):
        apply(state, parse_action("-AS"))  # a seventh discard is refused


def test_discarding_a_card_not_held() -> None:
    state = bw_game(bw_deal({0: STRONG_HEARTS}))
    state, _ = drive(state, "3up pass pass pass trump:H")
    with pytest.raises(IllegalActionError, match="You do not hold"):
        apply(state, parse_action("-" + card_code(state.hands[1][0])))


def _play_following(state):
    """Play to the end of the hand, every player following suit when able."""
    events = []
    while state.phase == Phase.PLAY:
        hand = state.hands[state.current]
        led = state.led_suit() if state.trick else NO_SUIT
        follow = [c for c in hand if (SUIT_OF[c] if c < 52 else state.trump) == led]
        choice = follow[0] if follow else hand[0]
        state, new = apply(state, Action(ActionKind.PLAY, choice))
        events.extend(new)
    return state, events


def _scored(events: list[GameEvent]) -> BidWhistHandScored:
    return [e for e in events if isinstance(e, BidWhistHandScored)][0]


def test_discards_count_as_one_book_for_the_bidding_team() -> None:
    deal = bw_deal({0: STRONG_HEARTS})
    state = to_play(bw_game(deal, target_score=99), "3up", "trump:H")
    state, events = _play_following(state)
    scored = _scored(events)
    assert state.tricks_won == [12, 0, 0, 0]
    assert scored.books == (13, 0)
    assert scored.score_change == (7, 0)  # overtricks count: 13 - 6


def test_books_of_an_ordinary_hand_sum_to_thirteen() -> None:
    deal = bw_deal({1: STRONG_HEARTS})
    state = bw_game(deal, dealer=0, target_score=99)
    state = to_play(state, "4up", "trump:H")
    state, events = _play_following(state)
    scored = _scored(events)
    assert sum(scored.books) == 13
    assert scored.books[1] == sum(state.tricks_won[s] for s in (1, 3)) + 1


@pytest.mark.parametrize("first_lead,leader", [("declarer", 2), ("left_of_dealer", 0)])
def test_first_lead(first_lead: str, leader: int) -> None:
    state = bw_game(bw_deal({}), dealer=3, first_lead=first_lead)
    state, _ = drive(state, "pass pass 3up pass trump:C")
    assert state.declarer == 2
    for c in list(state.kitty):
        state, _ = apply(state, Action(ActionKind.DISCARD, c))
    assert state.phase == Phase.PLAY and state.current_player == leader


# ---------------------------------------------------------------- reneges
RENEGE_DEAL = {0: STRONG_HEARTS, 1: "2H AS KS QS JS TS 9S 8S 7S 6S 5S 4S", 2: "4H 3H AD KD QD JD TD 9D 8D 7D 6D 5D"}


def _renege_game(**overrides):
    return to_play(bw_game(bw_deal(RENEGE_DEAL), target_score=99, renege="penalized", **overrides), "3up", "trump:H")


def test_renege_prevented_refuses_the_card() -> None:
    state = to_play(bw_game(bw_deal(RENEGE_DEAL)), "3up", "trump:H")
    state, _ = drive(state, "AH")
    with pytest.raises(IllegalActionError) as info:
        apply(state, parse_action("AS"))
    assert info.value.message == "You must follow hearts"
    assert info.value.params == {"suit": int(H)}


def test_one_renege_transfers_three_books() -> None:
    state = _renege_game()
    state, events = drive(state, "BJ 2H AD")  # seat 2 holds 4H 3H but plays a diamond
    played = [e for e in events if isinstance(e, CardPlayed)]
    assert [e.renege for e in played] == [False, False, True]
    state, events = _play_following(state)
    scored = _scored(events)
    assert scored.reneges == ((0, 2),)
    assert scored.books == (10, 3)  # 13 - 3 and 0 + 3
    assert scored.score_change == (4, 0)


def test_books_shown_during_play_leave_reneges_to_the_end_of_the_hand() -> None:
    """A renege is settled when the hand ends, so the books on the table during
    play do not give it away; the scored hand shows the penalty."""
    state = _renege_game()
    state, _ = drive(state, "BJ 2H AD")
    state, _ = drive(state, [str(a) for a in state.legal_actions()[:1]])  # seat 3 completes the trick
    taken = state.view(1).books
    assert taken == (2, 0)  # the trick and the kitty book, no penalty yet
    state, events = _play_following(state)
    assert state.view(1).books == _scored(events).books


def test_reneges_are_penalized_in_the_order_made_defenders_first() -> None:
    # The defenders (no books yet) renege first: with fewer than 3 books the
    # hand is scored as if the bidding team took all 13, which changes nothing;
    # then the bidding team's renege costs it 3 books.
    state = _renege_game()
    state, _ = drive(state, "BJ AS 4H 2D")  # trick 0: seat 1 holds 2H, plays a spade
    state, _ = drive(state, "LJ 2H AD 3D")  # trick 1: seat 2 holds 3H, plays a diamond
    state, events = _play_following(state)
    scored = _scored(events)
    assert scored.reneges == ((0, 1), (1, 2))
    assert scored.books == (10, 3)  # 13/0 -> 13/0 -> 10/3
    assert scored.score_change == (4, 0)


def test_reneges_are_penalized_in_the_order_made_bidders_first() -> None:
    # The same two reneges the other way round: after the bidding team's
    # penalty the defenders hold 3 books, and their renege gives them back.
    deal = bw_deal(
        {0: STRONG_HEARTS, 1: "3H 2H AS KS QS JS TS 9S 8S 7S 6S 5S", 2: "4H AD KD QD JD TD 9D 8D 7D 6D 5D 4D"}
    )
    state = to_play(bw_game(deal, target_score=99, renege="penalized"), "3up", "trump:H")
    state, _ = drive(state, "BJ 3H AD 2D")  # trick 0: seat 2 holds 4H, plays a diamond
    state, _ = drive(state, "LJ AS 4H 3D")  # trick 1: seat 1 holds 2H, plays a spade
    state, events = _play_following(state)
    scored = _scored(events)
    assert scored.reneges == ((0, 2), (1, 1))
    assert scored.books == (13, 0)  # 13/0 -> 10/3 -> 13/0
    assert scored.score_change == (7, 0)


def test_renege_with_fewer_than_three_books_scores_as_if_the_others_took_all() -> None:
    state = _renege_game()
    # Seat 2 holds 4H 3H and reneges in five tricks running: 13 -> 10 -> 7 ->
    # 4 -> 1 books, and with 1 book left the fifth renege scores the hand as if
    # the defenders took all 13.
    tricks = ["BJ 2H AD 2S", "LJ AS KD 3S", "AH KS QD 2D", "KH QS JD 3D", "QH JS TD 4D"]
    for trick in tricks:
        state, _ = drive(state, trick)
    state, events = _play_following(state)
    scored = _scored(events)
    assert scored.reneges == tuple((t, 2) for t in range(5))
    assert scored.books == (0, 13)
    assert scored.made is False and scored.score_change == (-3, 0)


def test_renege_in_no_trump_joker_when_able_to_follow() -> None:
    deal = bw_deal({0: "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S", 1: "BJ 2S AH KH QH JH TH 9H 8H 7H 6H 5H"})
    state = to_play(bw_game(deal, renege="penalized", target_score=99), "3nt", "uptown")
    state, events = drive(state, "AS BJ")
    last = events[-1]
    assert isinstance(last, CardPlayed) and last.renege is True
    assert state.reneges == [(0, 1)]


# ---------------------------------------------------------------- scoring and game end
SPADES_12 = "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S"


def _no_trump_made(multiplier: int, target: int = 99):
    state = to_play(
        bw_game(bw_deal({0: SPADES_12}), notrump_multiplier=multiplier, target_score=target), "3nt", "uptown"
    )
    return _play_following(state)


def _no_trump_set(multiplier: int, target: int = 99):
    # Dealer 0: seats 1, 2, 3 pass, the dealer must bid; seat 1 (left of the
    # dealer) leads its twelve top spades and takes every trick.
    state = bw_game(
        bw_deal({1: SPADES_12}),
        dealer=0,
        notrump_multiplier=multiplier,
        target_score=target,
        first_lead="left_of_dealer",
    )
    state, _ = drive(state, "pass pass pass 3nt uptown")
    for c in list(state.kitty):
        state, _ = apply(state, Action(ActionKind.DISCARD, c))
    state, _ = drive(state, "AS")
    return _play_following(state)


@pytest.mark.parametrize("multiplier", [1, 2, 3, 4])
def test_no_trump_made_is_multiplied(multiplier: int) -> None:
    state, events = _no_trump_made(multiplier)
    scored = _scored(events)
    assert scored.books == (13, 0) and scored.made is True
    assert scored.score_change == (7 * multiplier, 0)
    assert scored.contract == ContractSet(declarer=0, books=3, mode=BidMode.NOTRUMP, trump=NO_SUIT, direction=UP)


@pytest.mark.parametrize("multiplier", [1, 2, 3, 4])
def test_no_trump_set_is_multiplied(multiplier: int) -> None:
    state, events = _no_trump_set(multiplier)
    scored = _scored(events)
    assert scored.books == (1, 12) and scored.made is False
    assert scored.score_change == (-3 * multiplier, 0)


def test_suit_contract_set_loses_the_bid() -> None:
    state = bw_game(
        bw_deal({1: "BJ LJ AS KS QS JS TS 9S 8S 7S 6S 5S"}), dealer=0, first_lead="left_of_dealer", target_score=99
    )
    state, _ = drive(state, "pass pass pass 5up trump:S")
    for c in list(state.kitty):
        state, _ = apply(state, Action(ActionKind.DISCARD, c))
    state, events = _play_following(state)
    scored = _scored(events)
    assert scored.books == (1, 12)
    assert scored.score_change == (-5, 0) and state.scores == [-5, 0]


def test_made_exactly() -> None:
    # Seat 0 takes every trick; a 7 bid needs all 13 books.
    state = to_play(bw_game(bw_deal({0: STRONG_HEARTS}), target_score=99), "7up", "trump:H")
    state, events = _play_following(state)
    assert _scored(events).score_change == (7, 0)


@pytest.mark.parametrize("target,over", [(1, True), (5, True), (7, True), (8, False), (9, False), (99, False)])
def test_game_ends_at_plus_target(target: int, over: bool) -> None:
    state, events = _no_trump_made(1, target)  # +7 for team 0
    assert state.scores == [7, 0]
    assert state.is_terminal is over
    if over:
        assert state.phase == Phase.GAME_OVER and state.current_player == -1
        assert state.results() == {"final_scores": [7, 0], "winners": [0]}
        assert isinstance(events[-1], GameOver) and events[-1].winners == (0,)
        assert state.legal_actions() == []
        with pytest.raises(IllegalActionError, match="The game is over"):
            apply(state, NEXT_DEAL)
    else:
        assert state.phase == Phase.HAND_OVER and state.results()["winners"] == []


@pytest.mark.parametrize("target,over", [(5, True), (6, True), (7, False), (9, False)])
def test_game_ends_at_minus_target_and_the_other_team_wins(target: int, over: bool) -> None:
    state, events = _no_trump_set(2, target)  # -6 for team 0
    assert state.scores == [-6, 0]
    assert state.is_terminal is over
    if over:
        assert state.results() == {"final_scores": [-6, 0], "winners": [1]}


def test_scores_carry_over_to_the_next_deal() -> None:
    state, _ = _no_trump_made(1, 9)
    state, events = apply(state, NEXT_DEAL)
    assert state.scores == [7, 0] and state.deal_number == 2 and state.phase == Phase.BID
    assert isinstance(events[0], Dealt) and events[0].number == 2


# ---------------------------------------------------------------- first dealer
def test_first_diamond_deals() -> None:
    deck = cards("BJ AS LJ 2C 3H KC 5D 9D") + [c for c in BIDWHIST_DECK if c not in cards("BJ AS LJ 2C 3H KC 5D 9D")]
    draw, dealer = first_dealer_from_deck(deck)
    assert dealer == 2  # the seventh card (5D) goes to seat 6 % 4 = 2
    assert [seat for seat, _ in draw] == [0, 1, 2, 3, 0, 1, 2]
    assert [card_code(c) for _, c in draw] == ["BJ", "AS", "LJ", "2C", "3H", "KC", "5D"]


def test_a_diamond_first_card_makes_seat_zero_deal() -> None:
    draw, dealer = first_dealer_from_deck(cards("QD") + list(range(13)))
    assert (draw, dealer) == ([(0, card("QD"))], 0)


@pytest.mark.parametrize("seed", range(40))
def test_seeded_first_dealer_draw(seed: int) -> None:
    state, events = new_game(make_rules("bidwhist"), 4, seed)
    first = events[0]
    assert isinstance(first, FirstDealerDrawn)
    draw = first.draw
    assert all(SUIT_OF[c] != D for _, c in draw[:-1])  # jokers (NO_SUIT) are not diamonds
    assert SUIT_OF[draw[-1][1]] == D
    assert [seat for seat, _ in draw] == [i % 4 for i in range(len(draw))]
    assert first.dealer == draw[-1][0] == state.dealer
    assert state.current_player == (state.dealer + 1) % 4


# ---------------------------------------------------------------- the deal
@pytest.mark.parametrize("seed", range(10))
def test_deal_shape(seed: int) -> None:
    state, events = new_game(make_rules("bidwhist"), 4, seed)
    deal = [e for e in events if isinstance(e, Dealt)][0]
    assert all(len(h) == 12 for h in deal.hands) and len(deal.kitty) == 6
    everything = [c for h in deal.hands for c in h] + list(deal.kitty)
    assert sorted(everything) == sorted(BIDWHIST_DECK)
    sequence = deal.sequence
    assert len(sequence) == 54
    assert all(seat != -1 for _, seat in sequence[:4] + sequence[-4:])
    seats = [seat for _, seat in sequence if seat != -1]
    assert seats == [(state.dealer + 1 + i) % 4 for i in range(48)]
    assert [c for c, seat in sequence if seat == -1] == list(deal.kitty)
