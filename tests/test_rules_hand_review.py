"""Looking back over a hand, as the rules allow it (issue 24, item 7).

* ``finished_hand`` turns every card of a finished hand face up (the hands as
  dealt, the kitty, the declarer's discards, the turned-up card, the tricks)
  and refuses a hand still in play, so nobody is handed another seat's cards
  before the hand is over;
* ``played_cards`` tallies what has fallen (per suit, the cards of no suit,
  the trumps not yet played) from what every seat sees, and is the same
  whichever seat's view it is given: it holds no card the viewer may not see.
"""

from __future__ import annotations

import random

import pytest

from game.rules import BidWhistView, Phase, WizardView, apply, make_rules, new_game
from game.rules.actions import PASS
from game.rules.cards import BIG_JOKER, JESTER, LITTLE_JOKER, SUIT_OF, WIZARD
from game.rules.events import Dealt, Discarded, KittyTaken
from game.rules.finished_hand import HandInProgressError, finished_hand
from game.rules.played_cards import played_cards
from game.rules.tricks import PUBLIC_SEAT
from game.session.match import Match, Seat


def _match(game: str, players: int, seed: int, **rules) -> Match:
    seats = [Seat(f"P{i}", "ai:random") for i in range(players)]
    return Match(make_rules(game, rules, players=players), seats, seed)


def _play_to_hand_end(match: Match, check=None) -> None:
    """Let the computers play the hand in progress to its end, calling ``check`` after each action."""
    while match.phase not in (Phase.HAND_OVER, Phase.GAME_OVER):
        match.apply(match.choose_ai_action())
        if check is not None:
            check(match)


def _this_deal(match: Match) -> list:
    start = max(index for index, event in enumerate(match.events) if isinstance(event, Dealt))
    return match.events[start:]


@pytest.mark.parametrize(
    "game, players, seed, rules",
    [
        ("bidwhist", 4, 3, {}),
        ("bidwhist", 4, 8, {"jokers": False}),
        ("wizard", 4, 5, {"rounds": 5}),
        ("wizard", 3, 6, {"rounds": 4}),
    ],
)
def test_the_finished_hand_shows_the_true_hands_kitty_discards_and_tricks(game, players, seed, rules):
    match = _match(game, players, seed, **rules)
    for _ in range(2):  # the first deal and the next, so later deals are read right too
        assert match.finished_hand() is None, "nothing is revealed while the hand is played"
        _play_to_hand_end(match)
        shown = match.finished_hand()
        assert shown is not None
        events = _this_deal(match)
        dealt = events[0]
        assert shown.deal_number == dealt.number == match.deal_number and shown.dealer == dealt.dealer
        assert [sorted(hand) for hand in shown.hands] == [sorted(hand) for hand in dealt.hands]
        assert shown.kitty == dealt.kitty
        assert shown.discards == tuple(e.card for e in events if isinstance(e, Discarded))
        assert shown.tricks == match.view(0).tricks and len(shown.tricks) == len(dealt.hands[0])
        assert shown.tricks_won == match.view(0).tricks_won
        assert shown.trump == match.view(0).trump
        for seat in range(players):
            took = shown.winning_cards(seat)
            assert len(took) == shown.tricks_won[seat] and set(took) <= set(dealt.hands[seat] + dealt.kitty)
        if game == "bidwhist":
            taken = next(e for e in events if isinstance(e, KittyTaken))
            view = match.view(0)
            assert isinstance(view, BidWhistView)
            assert shown.declarer == taken.seat and shown.direction == view.direction
        else:
            view = match.view(0)
            assert isinstance(view, WizardView)
            assert shown.turn_up == view.turn_up
        if match.is_over:
            break
        match.next_deal()


def test_a_thrown_in_deal_shows_the_hands_it_dealt():
    match = _match("bidwhist", 4, 2, all_pass="redeal")
    for _ in range(4):
        match.apply(PASS)
    shown = match.finished_hand()
    dealt = _this_deal(match)[0]
    assert shown is not None and shown.redeal and shown.tricks == () and shown.declarer == -1
    assert shown.hands == dealt.hands and shown.kitty == dealt.kitty


def test_a_hand_in_play_is_not_revealed():
    state, _ = new_game(make_rules("wizard", {"rounds": 3}, players=4), 4, seed=1)
    with pytest.raises(HandInProgressError):
        finished_hand(state)
    state, _ = new_game(make_rules("bidwhist", {}), 4, seed=1)
    while state.phase != Phase.PLAY:
        state, _ = apply(state, state.legal_actions()[-1])
    with pytest.raises(HandInProgressError):
        finished_hand(state)


# --------------------------------------------------------------------------
# The played-cards tally


@pytest.mark.parametrize(
    "game, players, seed, rules",
    [
        ("bidwhist", 4, 4, {}),
        ("bidwhist", 4, 9, {"jokers": False}),
        ("wizard", 5, 7, {"rounds": 6, "bidding": "hidden"}),
    ],
)
def test_the_played_cards_are_the_same_for_every_seat_and_the_public(game, players, seed, rules):
    """The tally of any seat's view equals the public view's at every step of a hand, though
    the seats' views differ in their hands, the kitty and the discards: it holds nothing else."""
    match = _match(game, players, seed, **rules)
    if game == "wizard":
        while match.deal_number < 6:  # a round with a few tricks
            _play_to_hand_end(match)
            match.next_deal()
    steps = []

    def check(match: Match) -> None:
        public = played_cards(match.view(PUBLIC_SEAT))
        for seat in range(players):
            assert played_cards(match.view(seat)) == public
        steps.append(public)

    _play_to_hand_end(match, check)
    assert len(steps) > 10
    final = steps[-1]
    played = [card for record in match.view(PUBLIC_SEAT).tricks for _, card in record.plays]
    assert sum(len(tally.gone) for tally in final.suits) == len({c for c in played if SUIT_OF[c] >= 0})
    for tally in final.suits:
        assert len(tally.cards) == 13 and tally.gone <= set(tally.cards)
        assert tally.cards[0] % 13 == 12, "highest rank first"


def _bid_whist_in_play(seed: int, **rules) -> Match:
    match = _match("bidwhist", 4, seed, **rules)
    while match.phase != Phase.PLAY:
        match.apply(match.choose_ai_action())
    return match


def test_bid_whist_counts_the_jokers_as_trump_in_a_trump_contract():
    for seed in range(1, 40):
        match = _bid_whist_in_play(seed)
        if match.view(0).trump >= 0:
            break
    trump = match.view(0).trump
    tally = played_cards(match.view(PUBLIC_SEAT))
    assert tally.has_trump and tally.trumps == 15 and tally.trumps_unplayed == 15
    assert {card for card, _, _ in tally.specials} == {BIG_JOKER, LITTLE_JOKER}
    rng = random.Random(0)
    while match.phase == Phase.PLAY:
        match.apply(rng.choice(match.legal_actions()))
        played = [c for r in match.view(0).tricks for _, c in r.plays] + [c for _, c in match.view(0).trick]
        trumps_played = sum(1 for c in played if SUIT_OF[c] == trump or c in (BIG_JOKER, LITTLE_JOKER))
        assert played_cards(match.view(0)).trumps_unplayed == 15 - trumps_played


def test_bid_whist_no_trump_has_no_trump_count():
    for seed in range(1, 60):
        match = _bid_whist_in_play(seed)
        if match.view(0).trump < 0:
            break
    tally = played_cards(match.view(0))
    assert not tally.has_trump and tally.trumps == tally.trumps_unplayed == 0


def test_wizard_trumps_are_the_suit_alone_less_the_turned_up_card():
    match = _match("wizard", 4, 11, rounds=6)
    while True:
        view = match.view(PUBLIC_SEAT)
        assert isinstance(view, WizardView)
        if view.trump >= 0 and 0 <= view.turn_up < 52 and match.phase == Phase.PREDICT:
            break
        _play_to_hand_end(match)
        match.next_deal()
    tally = played_cards(view)
    assert tally.trumps == 13 and tally.trumps_unplayed == 12, "the turn-up is a trump everyone sees"
    specials = {card: (played, total) for card, played, total in tally.specials}
    assert specials == {WIZARD: (0, 4), JESTER: (0, 4)}
    _play_to_hand_end(match)
    tally = played_cards(match.view(PUBLIC_SEAT))
    played = [c for r in match.view(0).tricks for _, c in r.plays]
    assert tally.trumps_unplayed == 12 - sum(1 for c in played if SUIT_OF[c] == view.trump)
    assert dict((card, played) for card, played, _ in tally.specials) == {
        WIZARD: played.count(WIZARD),
        JESTER: played.count(JESTER),
    }
