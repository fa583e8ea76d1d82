"""Random playouts: hundreds of games under random house rules, with invariants.

Each game is played with uniformly random legal actions through the fast path
(``apply_in_place(..., check=False)``, as the search AI uses it) while the
events are checked against plain restatements of RULES.md (see conftest):
cards are conserved, every card is played once per hand, a player to act
always has a legal action, trick winners, books, tricks and scores follow the
rules, and the game ends when and how the rules say. Every tenth game also
goes through the checked public ``apply`` and the player views.
``python -m benchmarks.playouts`` runs the same checks over 1,000 seeds a game
and counts the rare situations (redeals, Bostons, reneges...) the sample meets.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from conftest import (
    reference_bidwhist_books,
    reference_bidwhist_winner,
    reference_wizard_score,
    reference_wizard_winner,
)
from game.rules import Phase, WizardView, apply, make_rules, new_game
from game.rules.actions import Action, ActionKind, BidMode
from game.rules.bidwhist import BidWhistState, led_suit_of as bidwhist_led_suit
from game.rules.cards import BIDWHIST_DECK, NO_SUIT, SUIT_CARDS, SUIT_OF, WIZARD_DECK, card_code
from game.rules.events import (
    BidMade,
    BidWhistHandScored,
    CardPlayed,
    Dealt,
    TrickWon,
    TrumpTurnedUp,
    WizardHandScored,
)
from game.rules.wizard import led_suit_of as wizard_led_suit

SEEDS_PER_GAME = 200  # meets every rare case the checks guard; more: python -m benchmarks.playouts
FULL_CHECK_EVERY = 10
SHARDS = 4  # the seeds are split into a few tests so a failure names a smaller range
MAX_BIDWHIST_HANDS = 60  # a random game to 99 could wander for long; stop checking there


def random_bidwhist_rules(rng: random.Random):
    return make_rules(
        "bidwhist",
        {
            "min_bid": rng.randint(1, 7),
            "downtown_outranks_uptown": rng.random() < 0.5,
            "all_pass": rng.choice(["dealer_must_bid", "redeal"]),
            "first_lead": rng.choice(["declarer", "left_of_dealer"]),
            "renege": rng.choice(["prevented", "penalized"]),
            "notrump_multiplier": rng.randint(1, 4),
            "target_score": rng.choice([1, 3, 5, 7, 7, 9, 12, 99]),
            "jokers": rng.random() < 0.5,
            "dealer_takes": rng.random() < 0.5,
            "boston": rng.choice(["off", "double", "wins_game"]),
            "downtown_ace": rng.choice(["high", "low"]),
        },
    )


def reference_winner(trick: list[int], trump: int, direction: int, rules) -> int:
    """The winner of a full trick as RULES.md ranks it under ``rules``: the
    shared reference, except that with ``downtown_ace: low`` the ace is the
    lowest card of its suit in a downtown ranking (jokers stay the top trumps)."""
    if direction == 0 or rules.downtown_ace == "high":
        return reference_bidwhist_winner(trick, trump, direction)
    order = "23456789TJQKA"  # strongest first: ace low

    def suit(c: int) -> int:
        return trump if c >= 52 else c // 13

    def strength(c: int) -> int:
        return 100 - (c - 52) if c >= 52 else 50 - order.index(card_code(c)[0])

    led = next((suit(c) for c in trick if suit(c) != -1), -1)
    wanted = trump if trump != -1 and any(suit(c) == trump for c in trick) else led
    return max((i for i, c in enumerate(trick) if suit(c) == wanted), key=lambda i: strength(trick[i]))


def random_wizard_rules(rng: random.Random, players: int):
    bidding = rng.choice(["open", "open", "hidden", "delayed_reveal"])
    uneven = rng.choice(["off", "always", "leader_only"]) if bidding == "open" else "off"
    rounds = "full" if rng.random() < 0.5 else rng.randint(1, 60 // players)
    turn_up = rng.choice(["dealer_chooses", "first_bidder_chooses", "no_trump"])
    return make_rules(
        "wizard",
        {"rounds": rounds, "bidding": bidding, "uneven_bids": uneven, "wizard_turn_up": turn_up},
        players=players,
    )


def choose(state, actions: list[Action], rng: random.Random) -> Action:
    """A random legal action, biased so that rare situations still come up:
    players often pass (so all four sometimes pass and the hand is redealt),
    and under ``renege: penalized`` they usually follow suit (so hands see a
    few reneges rather than a dozen)."""
    if state.phase == Phase.BID and rng.random() < 0.7:
        return Action(ActionKind.PASS) if Action(ActionKind.PASS) in actions else rng.choice(actions)
    if isinstance(state, BidWhistState) and state.phase == Phase.PLAY and state.trick and rng.random() < 0.9:
        led = bidwhist_led_suit(state.trick, state.trump)
        follow = [a for a in actions if (state.trump if a.value >= 52 else SUIT_OF[a.value]) == led]
        if follow:
            return rng.choice(follow)
    return rng.choice(actions)


def step(state, action: Action, full: bool):
    """Apply ``action``: through the public checked ``apply`` on full-check
    games, else through the fast path. Returns (state, events)."""
    if full:
        return apply(state, action)
    events: list = []
    state.apply_in_place(action, events, check=False)
    return state, events


# ---------------------------------------------------------------- Bid Whist
def _check_bidwhist_views(state) -> None:
    for seat in range(4):
        view = state.view(seat)
        assert list(view.hand) == state.hands[seat]
        assert view.legal_actions == (tuple(state.legal_actions()) if seat == state.current else ())
        if seat != state.declarer:
            assert view.kitty == () and view.discards == ()
        assert view.scores == tuple(state.scores)


def play_bidwhist(seed: int, full: bool) -> None:
    rng = random.Random(f"bidwhist playout {seed}")
    rules = random_bidwhist_rules(rng)
    state, events = new_game(rules, 4, seed)
    deck = list(BIDWHIST_DECK if rules.jokers else SUIT_CARDS)
    assert all(card in deck for _, card in state.first_draw)
    total = [0, 0]
    hands_played = 0
    boston_won = False
    played: list[int] = []
    trick_plays: list[tuple[int, int]] = []
    expected_reneges: list[tuple[int, int]] = []
    renege_expected = False  # whether the card just played fails to follow when it could
    while True:
        for event in events:
            if isinstance(event, Dealt):
                dealt = [c for h in event.hands for c in h] + list(event.kitty)
                assert sorted(dealt) == deck
                assert all(len(h) == 12 for h in event.hands) and len(event.kitty) == len(deck) - 48
                played, trick_plays, expected_reneges = [], [], []
            elif isinstance(event, CardPlayed):
                played.append(event.card)
                trick_plays.append((event.seat, event.card))
                assert event.renege is renege_expected
            elif isinstance(event, TrickWon):
                plays = event.plays
                assert list(plays) == trick_plays and len(plays) == 4
                assert [s for s, _ in plays] == [(event.leader + k) % 4 for k in range(4)]
                assert isinstance(state, BidWhistState)
                winner = plays[reference_winner([c for _, c in plays], state.trump, state.direction, rules)][0]
                assert event.winner == winner
                trick_plays = []
                _check_bidwhist_cards(state, played, deck)
            elif isinstance(event, BidWhistHandScored):
                hands_played += 1
                _check_bidwhist_score(state, event, played, expected_reneges, rules, deck)
                boston_won = event.boston and rules.boston == "wins_game"
                total = [t + c for t, c in zip(total, event.score_change)]
                assert list(event.scores) == total == state.scores
        if state.is_terminal:
            assert state.legal_actions() == [] and state.current_player == -1
            target = rules.target_score
            winner = state.results()["winners"]
            assert len(winner) == 1
            team = winner[0]
            if boston_won:  # the bidding team wins at once, whatever the scores
                assert isinstance(state, BidWhistState) and team == state.declarer % 2
            else:
                assert state.scores[team] >= target or state.scores[1 - team] <= -target
            return
        if hands_played >= MAX_BIDWHIST_HANDS:
            return
        # Not over yet: nobody has reached the target either way.
        assert max(abs(s) for s in state.scores) < rules.target_score
        actions = state.legal_actions()
        assert actions, f"no legal action in {state.phase.label}"
        if full:
            _check_bidwhist_views(state)
        action = choose(state, actions, rng)
        renege_expected = False
        if action.kind == ActionKind.PLAY and state.trick:
            seat = state.current
            led = bidwhist_led_suit(state.trick, state.trump)
            effective = [state.trump if c >= 52 else SUIT_OF[c] for c in state.hands[seat]]
            mine = state.trump if action.value >= 52 else SUIT_OF[action.value]
            renege_expected = led != -1 and mine != led and led in effective
            if renege_expected:
                # Only the penalized variant offers such a card at all.
                assert rules.renege == "penalized"
                expected_reneges.append((len(state.tricks), seat))
        state, events = step(state, action, full)


def _check_bidwhist_cards(state, played: list[int], deck: list[int]) -> None:
    """Cards are conserved: hands + undiscarded kitty + discards + played = the deck."""
    in_hands = [c for h in state.hands for c in h]
    everything = in_hands + state.discards + played
    if state.phase == Phase.DISCARD or (state.declarer < 0):
        everything += state.kitty
    assert sorted(everything) == deck
    assert len(set(played)) == len(played)  # each card played once


def _check_bidwhist_score(state, data: BidWhistHandScored, played, expected_reneges, rules, deck: list[int]) -> None:
    if data.redeal:
        assert data.books == (0, 0) and data.score_change == (0, 0) and not played
        assert data.declarer == -1 and data.contract is None and data.made is None
        assert rules.all_pass == "redeal" and all(a.kind == ActionKind.PASS for _, a in state.bids)
        assert not data.boston
        return
    assert len(played) == 48 and len(state.tricks) == 12
    assert sum(state.tricks_won) == 12
    assert sorted(played + state.discards) == deck and len(state.discards) == len(deck) - 48
    assert list(data.reneges) == expected_reneges
    books = reference_bidwhist_books(state.tricks_won, state.declarer, [s for _, s in expected_reneges])
    assert list(data.books) == books and sum(books) == 13
    team = state.declarer % 2
    contract = data.contract
    assert contract is not None and contract.declarer == data.declarer == state.declarer
    bid = contract.books
    made = books[team] >= 6 + bid
    multiplier = rules.notrump_multiplier if contract.mode == BidMode.NOTRUMP else 1
    change = [0, 0]
    change[team] = (books[team] - 6 if made else -bid) * multiplier
    # A Boston: all 13 books to the bidding team after the penalties, where the house plays it.
    boston = rules.boston != "off" and books[team] == 13
    if boston and rules.boston == "double":
        change[team] *= 2
    assert data.made is made and list(data.score_change) == change and data.boston is boston
    # The winning bid was the highest one made, and every bid beat the one
    # before; a take (the dealer's, last) is at the number of the bid before it.
    bids = [a for _, a in state.bids if a.kind in (ActionKind.BID, ActionKind.TAKE)]
    assert bids and (bids[-1].value, bids[-1].mode) == (bid, contract.mode)
    for low, high in zip(bids, bids[1:]):
        if high.kind == ActionKind.TAKE:
            assert rules.dealer_takes and high.value == low.value and state.bids[-1] == (state.dealer, high)
            continue
        assert high.value > low.value or (
            high.value == low.value
            and (
                high.mode == 2 and low.mode != 2 or rules.downtown_outranks_uptown and high.mode == 1 and low.mode == 0
            )
        )
    assert all(a.value >= rules.min_bid for a in bids) and bids[0].kind == ActionKind.BID


@pytest.mark.parametrize("shard", range(SHARDS))
def test_bidwhist_random_playouts(shard: int) -> None:
    for seed in range(shard, SEEDS_PER_GAME, SHARDS):
        play_bidwhist(seed, full=seed % FULL_CHECK_EVERY == 0)


# ---------------------------------------------------------------- Wizard
def _check_wizard_views(state) -> None:
    mode = state.rules.bidding
    for seat in range(state.num_players):
        view = state.view(seat)
        assert list(view.hand) == state.hands[seat]
        assert view.legal_actions == (tuple(state.legal_actions()) if seat == state.current else ())
        assert isinstance(view, WizardView)
        shown = view.predictions
        for other, value in enumerate(shown):
            if other == seat or mode == "open":
                assert value == state.bids[other]
            elif mode == "hidden" and state.phase == Phase.PREDICT:
                assert value == -1
            elif mode == "delayed_reveal" and state.phase in (Phase.PREDICT, Phase.PLAY, Phase.TRUMP_CHOICE):
                assert value == -1


def play_wizard(seed: int, full: bool) -> None:
    rng = random.Random(f"wizard playout {seed}")
    players = 3 + seed % 4
    rules = random_wizard_rules(rng, players)
    rounds = rules.round_count(players)
    state, events = new_game(rules, players, seed)
    total = [0] * players
    start_scores = [0] * players
    rounds_seen = 0
    dealt: Counter = Counter()
    played: list[int] = []
    trick_plays: list[tuple[int, int]] = []
    bids_order: list[int] = []
    while True:
        for event in events:
            if isinstance(event, Dealt):
                r = event.number
                assert r == rounds_seen + 1 <= rounds
                assert [len(h) for h in event.hands] == [r] * players
                dealt = Counter(c for h in event.hands for c in h)
                played, trick_plays, bids_order = [], [], []
            elif isinstance(event, TrumpTurnedUp):
                turn_up = event.card
                with_turn_up = dealt + Counter([turn_up] if turn_up >= 0 else [])
                assert not with_turn_up - Counter(WIZARD_DECK)  # a sub-multiset of the deck
                assert (turn_up == -1) == (state.deal_number * players == 60)
                if turn_up == 54 and rules.wizard_turn_up != "no_trump":
                    chooser = state.dealer if rules.wizard_turn_up == "dealer_chooses" else (state.dealer + 1) % players
                    assert state.phase == Phase.TRUMP_CHOICE and state.current == chooser == event.chooser
                    assert event.dealer_chooses and event.trump == NO_SUIT
                else:
                    expected = NO_SUIT if turn_up in (-1, 55) else SUIT_OF[turn_up]
                    assert event.trump == expected and not event.dealer_chooses and event.chooser == -1
            elif isinstance(event, BidMade):
                bids_order.append(event.seat)
            elif isinstance(event, CardPlayed):
                played.append(event.card)
                trick_plays.append((event.seat, event.card))
            elif isinstance(event, TrickWon):
                plays = event.plays
                assert list(plays) == trick_plays and len(plays) == players
                winner = plays[reference_wizard_winner([c for _, c in plays], state.trump)][0]
                assert event.winner == winner
                trick_plays = []
                remaining = Counter(c for h in state.hands for c in h)
                assert remaining + Counter(played) == dealt  # conserved
            elif isinstance(event, WizardHandScored):
                rounds_seen += 1
                r = event.number
                assert Counter(played) == dealt and len(played) == r * players  # each card once
                assert sum(event.tricks_won) == r
                assert bids_order == [(state.dealer + 1 + k) % players for k in range(players)]
                change = [reference_wizard_score(b, t) for b, t in zip(event.bids, event.tricks_won)]
                assert list(event.score_change) == change
                total = [t + c for t, c in zip(total, change)]
                assert list(event.scores) == total == state.scores
                _check_uneven(rules, event.bids, r, state.dealer, start_scores)
                start_scores = total[:]
        if state.is_terminal:
            assert rounds_seen == rounds and state.legal_actions() == []
            best = max(state.scores)
            assert state.results()["winners"] == [s for s in range(players) if state.scores[s] == best]
            return
        actions = state.legal_actions()
        assert actions, f"no legal action in {state.phase.label}"
        if state.phase == Phase.PLAY and state.trick:
            led = wizard_led_suit(state.trick)
            hand = state.hands[state.current]
            if led != -1 and any(SUIT_OF[c] == led for c in hand):
                assert all(SUIT_OF[a.value] == led or a.value >= 54 for a in actions)
            else:
                assert sorted(a.value for a in actions) == sorted(set(hand))
        if full:
            _check_wizard_views(state)
        state, events = step(state, rng.choice(actions), full)


def _check_uneven(rules, bids, r, dealer: int, start_scores: list[int]) -> None:
    """The bids never add up to the cards dealt when the uneven-bids rule
    applied to the dealer: always, or under leader_only when the dealer was the
    sole leader before the round."""
    sole_leader = all(score < start_scores[dealer] for seat, score in enumerate(start_scores) if seat != dealer)
    if rules.uneven_bids == "always" or (rules.uneven_bids == "leader_only" and sole_leader):
        assert sum(bids) != r


@pytest.mark.parametrize("shard", range(SHARDS))
def test_wizard_random_playouts(shard: int) -> None:
    for seed in range(shard, SEEDS_PER_GAME, SHARDS):
        play_wizard(seed, full=seed % FULL_CHECK_EVERY == 0)


# ---------------------------------------------------------------- fast path agrees with the checked path
@pytest.mark.parametrize("game,players", [("bidwhist", 4), ("wizard", 3), ("wizard", 6)])
def test_fast_path_equals_checked_apply(game: str, players: int) -> None:
    for seed in range(20):
        rng = random.Random(seed)
        rules = random_bidwhist_rules(rng) if game == "bidwhist" else random_wizard_rules(rng, players)
        checked, _ = new_game(rules, players, seed)
        fast = checked.copy()
        for _ in range(400):
            if checked.is_terminal:
                break
            action = rng.choice(checked.legal_actions())
            checked, events = apply(checked, action)
            fast.apply_in_place(action, None, check=False)
            assert fast.legal_actions() == checked.legal_actions()
            assert fast.scores == checked.scores and fast.hands == checked.hands
            assert fast.phase == checked.phase and fast.current_player == checked.current_player
