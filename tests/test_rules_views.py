"""The information boundary and the search-ready engine (issue 7, items 4 and 5).

What each seat may learn (``events_for``, the views' voids and actions),
the table figures the rules compute for the UI (led suit, who is winning),
starting a game at a later deal with its scores, explicit deals checked,
clones that keep the future secret, and ``returns()`` per seat.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from conftest import bw_deal, bw_game, card, drive, to_play, wz_deal
from game.rules import (
    UNKNOWN_CARD,
    DealError,
    GameEvent,
    IllegalActionError,
    Phase,
    WizardView,
    apply,
    bidwhist,
    events_for,
    make_rules,
    new_game,
    wizard,
)
from game.rules.actions import NEXT_DEAL, Action, ActionKind, predict
from game.rules.bidwhist import BidWhistState
from game.rules.cards import NO_SUIT, WIZARD, WIZARD_DECK, Suit
from game.rules.engine import GameState
from game.rules.events import BidMade, CardPlayed, Dealt, Discarded, KittyTaken, WizardHandScored
from game.rules.tricks import PUBLIC_SEAT

S, H, D, C = Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS

RULE_CASES: list[tuple[str, int, dict]] = [
    ("bidwhist", 4, {}),
    ("bidwhist", 4, {"renege": "penalized", "all_pass": "redeal"}),
    ("wizard", 3, {"rounds": 6}),
    ("wizard", 4, {"bidding": "hidden", "rounds": 6}),
    ("wizard", 5, {"bidding": "delayed_reveal", "rounds": 5}),
    ("wizard", 6, {"uneven_bids": "always", "rounds": 4}),
]


def choose(state: GameState, rng: random.Random) -> Action:
    """A random legal action; under ``renege: penalized`` players mostly
    follow suit, so hands hold some reneges and some true voids."""
    actions = state.legal_actions()
    if isinstance(state, BidWhistState) and state.phase == Phase.PLAY and state.trick and rng.random() < 0.85:
        led = bidwhist.led_suit_of(state.trick, state.trump)
        follow = [a for a in actions if bidwhist.card_suit(a.value, state.trump) == led]
        if follow:
            return rng.choice(follow)
    return rng.choice(actions)


def whole_game(game: str, players: int, overrides: dict, seed: int) -> tuple[GameState, list[GameEvent]]:
    """A whole game of random legal play (Bid Whist stopped after 6 hands) and its full event stream."""
    rng = random.Random(seed)
    state, events = new_game(make_rules(game, overrides, players=players), players, seed)
    while not state.is_terminal and state.deal_number <= 6:
        more: list[GameEvent] = []
        state.apply_in_place(choose(state, rng), more)
        events.extend(more)
    return state, events


def positions(game: str, players: int, overrides: dict, seed: int, every: int = 1):
    """Every ``every``-th position of a random game, with this hand's actions so far as (seat, action)."""
    rng = random.Random(seed)
    state, _ = new_game(make_rules(game, overrides, players=players), players, seed)
    hand_actions: list[tuple[int, Action]] = []
    step = 0
    while not state.is_terminal and state.deal_number <= 4:
        if step % every == 0:
            yield state, hand_actions
        action = choose(state, rng)
        if action.kind == ActionKind.NEXT_DEAL:
            hand_actions = []
        else:
            hand_actions = hand_actions + [(state.current, action)]
        state.apply_in_place(action, None, check=False)
        step += 1
    yield state, hand_actions


# ---------------------------------------------------------------- events_for
@pytest.mark.parametrize("game,players,overrides", RULE_CASES)
def test_events_for_hides_what_a_seat_may_not_know(game: str, players: int, overrides: dict) -> None:
    for seed in range(3):
        _, events = whole_game(game, players, overrides, seed)
        for seat in [None, *range(players)]:
            seen = events_for(events, seat)
            assert len(seen) == len(events)
            for full, shown in zip(events, seen):
                assert type(shown) is type(full)
                if isinstance(full, Dealt):
                    assert isinstance(shown, Dealt)
                    for owner, hand in enumerate(full.hands):
                        expected = hand if owner == seat else (UNKNOWN_CARD,) * len(hand)
                        assert shown.hands[owner] == expected
                    assert shown.kitty == (UNKNOWN_CARD,) * len(full.kitty)  # nobody sees the kitty dealt
                    for (card, owner), (shown_card, shown_owner) in zip(full.sequence, shown.sequence):
                        assert shown_owner == owner
                        assert shown_card == (card if owner == seat else UNKNOWN_CARD)
                elif isinstance(full, KittyTaken):
                    assert isinstance(shown, KittyTaken)
                    assert shown.cards == (full.cards if seat == full.seat else (UNKNOWN_CARD,) * 6)
                elif isinstance(full, Discarded):
                    assert isinstance(shown, Discarded)
                    assert shown.card == (full.card if seat == full.seat else UNKNOWN_CARD)
                    assert shown.books == full.books
                elif isinstance(full, BidMade):
                    assert isinstance(shown, BidMade)
                    visible = not full.hidden or seat == full.seat
                    assert shown.action == (full.action if visible else None)
                    assert full.hidden == (game == "wizard" and overrides.get("bidding", "open") != "open")
                elif isinstance(full, CardPlayed):
                    assert isinstance(shown, CardPlayed)
                    assert shown.card == full.card
                    assert shown.renege == (full.renege and seat == full.seat)
                else:
                    assert shown == full  # everything else is public


def test_events_for_a_seat_keeps_its_own_secrets() -> None:
    _, events = whole_game("bidwhist", 4, {"renege": "penalized"}, 5)
    reneges = [e for e in events if isinstance(e, CardPlayed) and e.renege]
    assert reneges, "the seed should give a renege to check"
    for event in reneges:
        assert event.for_seat(event.seat) == event
        assert all(not event.for_seat(other).renege for other in (PUBLIC_SEAT, *range(4)) if other != event.seat)
    kitties = [e for e in events if isinstance(e, KittyTaken)]
    assert kitties and all(e.for_seat(e.seat) == e and UNKNOWN_CARD not in e.cards for e in kitties)


def test_the_public_stream_shows_no_card_but_the_played_and_turned_up() -> None:
    # The public viewer is the same PUBLIC_SEAT the views take: the kitty's cards in the
    # deal's sequence (dealt to owner -1) are hidden from it like every hand.
    for game, players, overrides in RULE_CASES:
        assert isinstance(overrides, dict)
        _, events = whole_game(game, players, overrides, 1)
        for event in events_for(events, PUBLIC_SEAT):
            if isinstance(event, Dealt):
                assert all(c == UNKNOWN_CARD for hand in event.hands for c in hand)
                assert all(c == UNKNOWN_CARD for c in event.kitty)
                assert all(c == UNKNOWN_CARD for c, _ in event.sequence)
            elif isinstance(event, (KittyTaken,)):
                assert set(event.cards) == {UNKNOWN_CARD}
            elif isinstance(event, Discarded):
                assert event.card == UNKNOWN_CARD
            elif isinstance(event, BidMade) and event.hidden:
                assert event.action is None
            elif isinstance(event, CardPlayed):
                assert not event.renege


# ---------------------------------------------------------------- voids
def _failures(state: GameState) -> list[tuple[int, int, int]]:
    """(trick index, seat, suit) of every failure to follow this hand, read from the plays."""
    found = []
    records = [record.plays for record in state.tricks] + [tuple(zip(state.trick_seats, state.trick))]
    for index, plays in enumerate(records):
        for position, (seat, played) in enumerate(plays):
            before = [c for _, c in plays[:position]]
            if isinstance(state, BidWhistState):
                led = bidwhist.led_suit_of(before, state.trump)
                fails = led != NO_SUIT and bidwhist.card_suit(played, state.trump) != led
            else:
                led = wizard.led_suit_of(before)
                fails = led != NO_SUIT and played < 52 and wizard.card_suit(played) != led
            if before and fails:
                found.append((index, seat, led))
    return found


@pytest.mark.parametrize("game,players,overrides", RULE_CASES)
def test_voids_are_the_failures_to_follow_a_seat_can_read(game: str, players: int, overrides: dict) -> None:
    penalized = overrides.get("renege") == "penalized"
    checked = 0
    for seed in range(4):
        for state, _ in positions(game, players, overrides, seed, every=3):
            failures = _failures(state)
            reneges = set(getattr(state, "reneges", []))
            scored = state.phase in (Phase.HAND_OVER, Phase.GAME_OVER)
            for viewer in range(PUBLIC_SEAT, players):
                voids = state.view(viewer).voids
                expected: list[set[int]] = [set() for _ in range(players)]
                for index, seat, suit in failures:
                    if (index, seat) in reneges:
                        continue  # a renege never shows a void: the player still held the suit
                    if penalized and not scored and seat != viewer:
                        continue  # others cannot tell it from a renege until the hand is scored
                    expected[seat].add(suit)
                assert voids == tuple(frozenset(v) for v in expected)
                # Sound: a seat shown void holds no card of the suit (nor a joker of a trump suit).
                for seat in range(players):
                    for held in state.hands[seat]:
                        suit = (
                            bidwhist.card_suit(held, state.trump)
                            if isinstance(state, BidWhistState)
                            else wizard.card_suit(held)
                        )
                        assert suit not in voids[seat]
                checked += 1
    assert checked > 50


def test_renege_is_not_a_void_and_stays_secret_until_the_hand_is_scored() -> None:
    # Seat 2 holds 4H 3H but plays a diamond on a heart lead: a renege, not a void.
    deal = bw_deal(
        {
            0: "BJ LJ AH KH QH JH TH 9H 8H 7H 6H 5H",
            1: "2H AS KS QS JS TS 9S 8S 7S 6S 5S 4S",
            2: "4H 3H AD KD QD JD TD 9D 8D 7D 6D 5D",
        }
    )
    state = to_play(bw_game(deal, target_score=99, renege="penalized"), "3up", "trump:H")
    state, _ = drive(state, "BJ 2H AD")
    assert state.reneges == [(0, 2)]
    for viewer in (PUBLIC_SEAT, 0, 1, 2, 3):
        assert state.view(viewer).voids[2] == frozenset()
    # Seat 1 has no heart left: a real void, but under "penalized" only seat 1 knows it is not a renege.
    state, _ = drive(state, [str(state.legal_actions()[0])])  # seat 3 ends the trick
    state, _ = drive(state, "LJ AS")
    assert state.view(1).voids[1] == {H}
    assert all(state.view(viewer).voids[1] == frozenset() for viewer in (PUBLIC_SEAT, 0, 2, 3))
    while state.phase == Phase.PLAY:
        state, _ = apply(state, state.legal_actions()[0])
    assert state.phase == Phase.HAND_OVER and (0, 2) in state.reneges
    # Scored, the reneges are public: seat 1's void is everyone's to read.
    assert all(H in state.view(viewer).voids[1] for viewer in (PUBLIC_SEAT, 0, 1, 2, 3))


def test_voids_under_prevented_reneges_are_public() -> None:
    deal = bw_deal(
        {
            0: "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H",
            1: "2H AS KS QS JS TS 9S 8S 7S 6S 5S 4S",
            2: "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D",
        }
    )
    state = to_play(bw_game(deal, target_score=99), "3up", "trump:H")
    state, _ = drive(state, "AH 2H AD")
    for viewer in (PUBLIC_SEAT, 0, 1, 2, 3):
        voids = state.view(viewer).voids
        assert voids[2] == {H} and voids[1] == frozenset()  # seat 1 followed with its last heart


# ---------------------------------------------------------------- actions, led suit, winning seat
@pytest.mark.parametrize("game,players,overrides", RULE_CASES)
def test_view_actions_are_this_hands_actions_as_the_seat_saw_them(game: str, players: int, overrides: dict) -> None:
    for seed in range(3):
        for state, done in positions(game, players, overrides, seed, every=2):
            for viewer in range(PUBLIC_SEAT, players):
                shown = state.view(viewer).actions
                assert [seat for seat, _ in shown] == [seat for seat, _ in done]
                for (seat, action), (_, seen) in zip(done, shown):
                    if seen is not None:
                        assert seen == action
                        continue
                    assert seat != viewer  # a seat always sees its own actions
                    if game == "bidwhist":
                        assert action.kind == ActionKind.DISCARD
                    else:
                        assert action.kind == ActionKind.PREDICT
                        assert overrides.get("bidding", "open") != "open"
                        assert not (overrides.get("bidding") == "hidden" and state.phase != Phase.PREDICT)
                        assert state.phase not in (Phase.HAND_OVER, Phase.GAME_OVER)


@pytest.mark.parametrize("game,players,overrides", RULE_CASES)
def test_every_viewers_view_read_at_once_is_each_view(game: str, players: int, overrides: dict) -> None:
    """``views`` (a server's every viewer at one position) reads the fields all viewers share
    once: it must still give each seat exactly its own view, secrets and all."""
    viewers = list(range(PUBLIC_SEAT, players))
    seen_secret = False
    for seed in range(3):
        for state, _ in positions(game, players, overrides, seed):
            together = state.views(viewers)
            assert together == [state.view(viewer) for viewer in viewers]
            assert [view.seat for view in together] == viewers
            seen_secret = seen_secret or len({view.hand for view in together}) > 1
            assert state.views(viewers[::-1]) == together[::-1]
    assert seen_secret


@pytest.mark.parametrize("game,players,overrides", RULE_CASES)
def test_led_suit_and_winning_seat_are_the_rules_answers(game: str, players: int, overrides: dict) -> None:
    trick_positions = 0
    for seed in range(3):
        for state, _ in positions(game, players, overrides, seed):
            view = state.view(PUBLIC_SEAT)
            if not state.trick:
                assert (view.led_suit, view.winning_seat) == (NO_SUIT, -1)
                continue
            trick_positions += 1
            if isinstance(state, BidWhistState):
                led = bidwhist.led_suit_of(state.trick, state.trump)
                index = bidwhist.trick_winner(state.trick, state.trump, state.direction)
            else:
                led = wizard.led_suit_of(state.trick)
                index = wizard.trick_winner(state.trick, state.trump)
            assert view.led_suit == led
            assert view.winning_seat == state.trick_seats[index]
            assert view.trick == tuple(zip(state.trick_seats, state.trick))
    assert trick_positions > 20


# ---------------------------------------------------------------- starting at a later deal
def test_wizard_started_at_round_15_with_scores_applies_leader_only() -> None:
    rules = make_rules("wizard", {"uneven_bids": "leader_only"}, players=4)
    # Seat 0 deals round 15 and leads on 100: the last bidder may not even the bids.
    state, events = new_game(rules, 4, 5, first_dealer=0, start_deal=15, start_scores=[100, 50, 60, 70])
    assert state.deal_number == 15 and state.dealer == 0
    assert [len(hand) for hand in state.hands] == [15] * 4
    assert [e.number for e in events if isinstance(e, Dealt)] == [15]
    view = state.view(0)
    assert isinstance(view, WizardView)
    assert view.start_scores == (100, 50, 60, 70) and view.scores == (100, 50, 60, 70)
    assert view.round_number == 15 == view.total_rounds
    state, _ = drive(state, "4 3 5")
    assert state.current_player == 0
    assert predict(3) not in state.legal_actions()
    with pytest.raises(IllegalActionError) as info:
        apply(state, predict(3))
    assert info.value.code == "uneven_bids" and info.value.params == {"bid": 3, "total": 15}
    # Not the sole leader: no restriction.
    tied, _ = new_game(rules, 4, 5, first_dealer=0, start_deal=15, start_scores=[100, 100, 60, 70])
    tied, _ = drive(tied, "4 3 5")
    assert predict(3) in tied.legal_actions()
    # The last round ends the game, its scores added to the ones it started with.
    state, _ = drive(state, "2")
    events = []
    while not state.is_terminal:
        state, more = apply(state, state.legal_actions()[0])
        events.extend(more)
    scored = [e for e in events if isinstance(e, WizardHandScored)][0]
    assert state.scores == [s + c for s, c in zip([100, 50, 60, 70], scored.score_change)]
    assert state.returns() == tuple(state.scores)


def test_bid_whist_started_at_a_later_hand_keeps_its_scores() -> None:
    rules = make_rules("bidwhist", {"target_score": 7})
    started, _ = new_game(rules, 4, 3, first_dealer=2, start_deal=4, start_scores=[6, -3])
    assert isinstance(started, BidWhistState)
    state = started
    assert (state.deal_number, state.dealer, state.current_player) == (4, 2, 3)
    assert state.view(0).scores == (6, -3) and state.view(0).start_scores == (6, -3)
    rng = random.Random(2)
    while state.deal_number == 4 and not state.is_terminal:
        state, _ = apply(state, rng.choice(state.legal_actions()))
    assert state.scores != [6, -3] or state.redeal


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"start_deal": 3}, "needs the dealer"),
        ({"start_deal": 16, "first_dealer": 0}, "past the last round"),
        ({"start_deal": 0, "first_dealer": 0}, "start_deal must be"),
        ({"start_scores": [1, 2, 3]}, "start_scores must be 4"),
        ({"start_scores": [1, 2, 3, 4.5]}, "start_scores must be 4"),
    ],
)
def test_a_later_start_is_checked(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        new_game(make_rules("wizard", players=4), 4, 1, **kwargs)


# ---------------------------------------------------------------- explicit deals
def _good_bid_whist_deal() -> tuple[list[list[int]], list[int]]:
    return bw_deal({})


@pytest.mark.parametrize(
    "spoil",
    [
        "duplicate",
        "short_hand",
        "long_kitty",
        "not_a_card",
        "string_card",
        "float_card",
        "bool_card",
        "three_hands",
        "not_a_pair",
    ],
)
def test_impossible_bid_whist_deals_are_refused(spoil: str) -> None:
    hands, kitty = _good_bid_whist_deal()
    deal: object = (hands, kitty)
    if spoil == "duplicate":
        hands[1][0] = hands[0][0]
    elif spoil == "short_hand":
        kitty.append(hands[0].pop())
    elif spoil == "long_kitty":
        deal = (hands, kitty + [kitty[0]])
    elif spoil == "not_a_card":
        hands[2][3] = 99
    elif spoil == "string_card":
        hands[2][3] = "AS"  # type: ignore[call-overload]
    elif spoil == "float_card":
        hands[2][3] = float(hands[2][3])  # type: ignore[call-overload]
    elif spoil == "bool_card":
        hands[2][3] = True
    elif spoil == "three_hands":
        deal = (hands[:3], kitty)
    elif spoil == "not_a_pair":
        deal = hands
    with pytest.raises(DealError) as info:
        new_game(make_rules("bidwhist"), 4, 1, first_dealer=0, fixed_deals={1: deal})
    assert "deal 1" in str(info.value)


@pytest.mark.parametrize("spoil", ["wrong_size", "five_wizards", "joker", "turn_up_type", "turn_up_dup"])
def test_impossible_wizard_deals_are_refused(spoil: str) -> None:
    hands, turn_up = wz_deal(3, 2, {0: "WZ WZ", 1: "WZ WZ"}, "2D")
    deal: tuple = (hands, turn_up)
    if spoil == "wrong_size":
        hands[2].append(card("AC"))
    elif spoil == "five_wizards":
        hands[2][0] = WIZARD
        deal = (hands, WIZARD)
    elif spoil == "joker":
        hands[2][0] = 52
    elif spoil == "turn_up_type":
        deal = (hands, "2D")
    elif spoil == "turn_up_dup":
        deal = (hands, hands[2][0])
    with pytest.raises(DealError):
        new_game(
            make_rules("wizard", players=3), 3, 1, first_dealer=0, fixed_deals={2: deal, 1: wz_deal(3, 1, {}, "3D")}
        )


@pytest.mark.parametrize("fixed", [[(1, 2)], {0: None}, {True: None}, {"1": None}])
def test_fixed_deals_must_map_deal_numbers(fixed: object) -> None:
    with pytest.raises(DealError):
        new_game(make_rules("bidwhist"), 4, 1, first_dealer=0, fixed_deals=fixed)  # type: ignore[arg-type]


def test_a_real_deal_is_accepted_and_dealt() -> None:
    hands, kitty = _good_bid_whist_deal()
    state, _ = new_game(make_rules("bidwhist"), 4, 1, first_dealer=0, fixed_deals={1: (hands, kitty)})
    assert isinstance(state, BidWhistState)
    assert state.hands == hands and state.kitty == kitty
    deck = list(WIZARD_DECK)
    w_hands = [deck[seat::4] for seat in range(4)]  # the last round deals every card: none to turn up
    wizard_state, _ = new_game(
        make_rules("wizard", players=4), 4, 1, first_dealer=0, start_deal=15, fixed_deals={15: (w_hands, -1)}
    )
    assert wizard_state.hands == w_hands and wizard_state.trump == NO_SUIT


# ---------------------------------------------------------------- clone and copy
def _to_next_deal(state: GameState) -> GameState:
    """Play the hand in progress out with first legal actions and deal the next one."""
    number = state.deal_number
    while state.deal_number == number:
        state.apply_in_place(state.legal_actions()[0], None, check=False)
    return state


@pytest.mark.parametrize("game,players", [("bidwhist", 4), ("wizard", 3), ("wizard", 5)])
def test_clone_does_not_reveal_the_next_deal_and_copy_does(game: str, players: int) -> None:
    # Seed -1 too: no game seed, negative ones included, may equal a sealed clone's.
    for seed in (-1, 0, 1, 2, 3, 4):
        state, _ = new_game(make_rules(game, players=players), players, seed)
        state, _ = apply(state, state.legal_actions()[0])
        real_next = _to_next_deal(state.copy()).hands
        cloned = state.clone()
        assert cloned.seed != state.seed
        assert cloned.hands == state.hands  # the position itself is the same
        assert _to_next_deal(cloned).hands != real_next
        assert _to_next_deal(state.copy()).hands == real_next
        # A chosen future seed makes clones reproducible, and still not the real future.
        one = _to_next_deal(state.clone(future_seed=77)).hands
        assert one == _to_next_deal(state.clone(future_seed=77)).hands != real_next


def test_clone_forgets_explicit_future_deals() -> None:
    later = bw_deal({0: "BJ LJ AH KH QH JH TH 9H 8H 7H 6H 5H"})
    state, _ = new_game(
        make_rules("bidwhist", {"target_score": 99}), 4, 1, first_dealer=0, fixed_deals={1: bw_deal({}), 2: later}
    )
    assert _to_next_deal(state.copy()).hands == later[0]
    assert _to_next_deal(state.clone()).hands != later[0]


# ---------------------------------------------------------------- returns
def test_bid_whist_returns_per_seat() -> None:
    state = to_play(
        bw_game(bw_deal({0: "BJ LJ AH KH QH JH TH 9H 8H 7H 6H 5H"}), dealer=3, target_score=99), "3up", "trump:H"
    )
    assert state.hand_returns() == (0, 0, 0, 0)
    while state.phase == Phase.PLAY:
        state, _ = apply(state, state.legal_actions()[0])
    assert state.scores == [7, 0]
    assert state.hand_returns() == (7, 0, 7, 0)  # partners share their team's change
    assert state.returns() == (7, 0, 7, 0)
    state, _ = apply(state, NEXT_DEAL)
    assert state.hand_returns() == (0, 0, 0, 0) and state.returns() == (7, 0, 7, 0)


def test_bid_whist_returns_at_game_over() -> None:
    state = to_play(
        bw_game(bw_deal({0: "BJ LJ AH KH QH JH TH 9H 8H 7H 6H 5H"}), dealer=3, target_score=5), "3up", "trump:H"
    )
    while not state.is_terminal:
        state, _ = apply(state, state.legal_actions()[0])
    assert state.returns() == (7, 0, 7, 0) and state.hand_returns() == (7, 0, 7, 0)


def test_wizard_returns_per_seat() -> None:
    rules = make_rules("wizard", {"rounds": 2}, players=3)
    deals = {1: wz_deal(3, 1, {0: "AS", 1: "2S", 2: "3S"}, "2D"), 2: wz_deal(3, 2, {0: "AS AH", 1: "2S 2H"}, "2D")}
    state, _ = new_game(rules, 3, 1, first_dealer=2, fixed_deals=deals)
    state, _ = drive(state, "1 0 0 AS 2S 3S")
    assert state.phase == Phase.HAND_OVER
    assert state.hand_returns() == (30, 20, 20) == state.returns()
    state, _ = drive(state, "next")
    assert state.hand_returns() == (0, 0, 0)
    state, _ = drive(state, "0 2 1")  # dealer 0 bids last; seat 0 takes both tricks
    while not state.is_terminal:
        state, _ = apply(state, state.legal_actions()[0])
    change = state.hand_returns()
    assert state.returns() == tuple(s + c for s, c in zip((30, 20, 20), change))
    assert state.returns() == tuple(state.results()["final_scores"])


def test_views_are_frozen_and_carry_no_extra() -> None:
    state, _ = new_game(make_rules("wizard", players=3), 3, 1)
    view = state.view(0)
    assert not hasattr(view, "extra")
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.seat = 1  # type: ignore[misc]


@pytest.mark.parametrize("game,players,overrides", RULE_CASES)
def test_a_view_built_from_its_fields_equals_the_constructed_one(game: str, players: int, overrides: dict) -> None:
    """``state.view`` builds views with ``from_fields`` (fast, no per-field
    ``__setattr__``): each equals, hashes like and stays as frozen as the view
    the dataclass constructor gives, at every position of a game."""
    for state, _ in positions(game, players, overrides, seed=5, every=3):
        for seat in range(players):
            view = state.view(seat)
            values = {field.name: getattr(view, field.name) for field in dataclasses.fields(view)}
            built = type(view)(**values)
            assert view == built and hash(view) == hash(built)
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.seat = 0


def test_from_fields_refuses_a_missing_or_unknown_field() -> None:
    state, _ = new_game(make_rules("wizard", players=3), 3, 1)
    values = {field.name: getattr(state.view(0), field.name) for field in dataclasses.fields(WizardView)}
    del values["trump"]
    with pytest.raises(TypeError, match=r"missing \['trump'\]"):
        WizardView.from_fields(**values)
    values["trump"], values["colour"] = 0, 1
    with pytest.raises(TypeError, match=r"unknown \['colour'\]"):
        WizardView.from_fields(**values)


@pytest.mark.parametrize("game,players,overrides", RULE_CASES)
def test_a_rollout_view_equals_the_view_field_for_field(game: str, players: int, overrides: dict) -> None:
    """Searches build ``rollout_view``s (Wizard's reads each field from the
    state when first asked for); each field equals the real view's, for the
    seat to move at every position, and it is a view of the game's type."""
    for state, _ in positions(game, players, overrides, seed=9, every=2):
        if state.current < 0:
            continue
        view = state.view(state.current)
        quick = state.rollout_view(state.current, state.legal_actions())
        assert isinstance(quick, type(view))
        for field in dataclasses.fields(view):
            assert getattr(quick, field.name) == getattr(view, field.name), field.name
        assert quick.played_cards() == view.played_cards()


def test_a_lazy_wizard_view_reads_only_the_fields_asked_for() -> None:
    state, _ = new_game(make_rules("wizard", players=4), 4, 2)
    view = wizard.LazyWizardView(state, 1)
    assert view.hand == tuple(state.hands[1])
    assert "hand" in view.__dict__ and "actions" not in view.__dict__ and "voids" not in view.__dict__


def test_a_bid_whist_rollout_view_reads_only_the_fields_asked_for() -> None:
    # A search builds one for every simulated move: the fields its players never read cost nothing.
    state, _ = new_game(make_rules("bidwhist"), 4, 2)
    assert isinstance(state, BidWhistState)
    view = state.rollout_view(state.current, state.legal_actions())
    assert view.hand == tuple(state.hands[state.current]) and view.bids == ()
    assert "hand" in view.__dict__ and "actions" not in view.__dict__ and "voids" not in view.__dict__


def test_a_lazy_view_type_needs_a_reader_for_every_field() -> None:
    from game.rules.view import lazy_view_type

    readers = dict(wizard.WIZARD_VIEW_FIELDS)
    del readers["turn_up"]  # without a reader it would show the class default, -1
    with pytest.raises(TypeError, match=r"missing \['turn_up'\]"):
        lazy_view_type(WizardView, readers)
