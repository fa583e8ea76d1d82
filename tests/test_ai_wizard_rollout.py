"""The hard Wizard player's rollout (``wizard_rollout``) decides exactly as
the medium player does from each seat's view, only faster.

``RoundTracker`` keeps what every seat has seen card by card; the table it
hands the medium player's card choice must equal, field for field, the one a
fresh view gives, at every move of rounds played every which way (random
legal cards, so Jester and Wizard leads, ruffs and shown voids all occur),
under each bidding mode and table size. And a round played out by
``WizardRolloutPlayer.play_out`` ends exactly as the view-by-view loop ends
it, having drawn the same numbers from the RNG.
"""

from __future__ import annotations

import random

import pytest

from conftest import cards, drive, medium_wizard_positions, wz_deal, wz_round
from game.ai import search_pimc
from game.ai.wizard_fitted import FittedRolloutPlayer
from game.ai.wizard_medium import WizardMediumPlayer, WizardTable, card_to_play, choose_card
from game.ai.wizard_rollout import RoundTracker, UnsureRolloutPlayer, WizardRolloutPlayer
from game.rules import Phase, make_rules, new_game
from game.rules.actions import NEXT_DEAL, play
from game.rules.cards import card_code

WIZARD_CASES = [
    (3, {"rounds": 8}),
    (4, {"bidding": "hidden", "rounds": 8}),
    (5, {"bidding": "delayed_reveal", "rounds": 7}),
    (6, {"uneven_bids": "always", "rounds": 6}),
]


def _table_fields(table: WizardTable) -> dict:
    fields = {name: getattr(table, name) for name in WizardTable.__slots__}
    # The view holds tuples where the tracker shares the state's lists.
    for name in ("trick_seats", "voids", "tricks_won", "predictions", "hand"):
        fields[name] = tuple(fields[name])
    return fields


def _rounds_of_random_play(players: int, overrides: dict, seed: int):
    """Every position of a game of random legal actions where a seat has a
    card to choose among several, with a tracker kept since play began and
    one built afresh from the position."""
    rng = random.Random(seed)
    state, _ = new_game(make_rules("wizard", overrides, players=players), players, seed)
    tracker = None
    while not state.is_terminal:
        if state.phase == Phase.HAND_OVER:
            state.apply_in_place(NEXT_DEAL, None, check=False)
            tracker = None
            continue
        if state.phase != Phase.PLAY:
            state.apply_in_place(rng.choice(state.legal_actions()), None, check=False)
            continue
        if tracker is None:
            tracker = RoundTracker(state)
        seat, legal = state.current, state.legal_cards()
        if len(legal) > 1:
            yield state, seat, legal, tracker
        card = rng.choice(legal)
        state.apply_in_place(play(card), None, check=False)
        tracker.saw(state, seat, card)


@pytest.mark.parametrize("players,overrides", WIZARD_CASES)
def test_the_tracked_table_is_the_one_the_view_gives(players: int, overrides: dict) -> None:
    checked = 0
    for seed in (1, 2):
        for state, seat, legal, tracker in _rounds_of_random_play(players, overrides, seed):
            from_view = WizardTable.from_view(state.view(seat))
            expected = _table_fields(from_view)
            assert _table_fields(tracker.table(state, seat, legal)) == expected
            assert _table_fields(RoundTracker(state).table(state, seat, legal)) == expected
            assert card_to_play(tracker.table(state, seat, legal)) == choose_card(state.view(seat), random.Random(0))
            checked += 1
    assert checked > 100


def test_the_tracked_table_shows_voids_and_ruffs_as_the_view_does() -> None:
    """The random games above reach voids and played Wizards: the comparison covers them."""
    voids = wizards = 0
    for state, seat, legal, tracker in _rounds_of_random_play(4, {"rounds": 10}, 5):
        table = tracker.table(state, seat, legal)
        voids += any(table.voids)
        wizards += table.unseen_wizards < 4
    assert voids > 20 and wizards > 20


def _starts(players: int, overrides: dict, seed: int, every: int = 5):
    """Positions of a medium-played game to play out from: bids and cards, mid-trick included."""
    for step, state in medium_wizard_positions(players, overrides, seed):
        if step % every == 0:
            yield state.clone(future_seed=step)


# name -> (the rollout player, the player whose choices it must make from each seat's view)
PLAY_OUT_PAIRS = {
    "medium": (WizardRolloutPlayer, WizardMediumPlayer),
    "unsure": (lambda: UnsureRolloutPlayer(seat=1, unsure=0.4), lambda: UnsureRolloutPlayer(seat=1, unsure=0.4)),
    "fitted": (FittedRolloutPlayer, FittedRolloutPlayer),
}


@pytest.mark.parametrize("pair", sorted(PLAY_OUT_PAIRS))
@pytest.mark.parametrize("players,overrides", WIZARD_CASES)
def test_a_round_played_out_ends_as_the_view_by_view_loop_ends_it(players: int, overrides: dict, pair: str) -> None:
    fast_player, view_player = PLAY_OUT_PAIRS[pair]
    starts = 0
    for start in _starts(players, overrides, seed=3):
        fast, slow = start.clone(), start.clone()
        fast_rng, slow_rng = random.Random(starts), random.Random(starts)
        search_pimc.play_out(fast, fast_player(), fast_rng)
        while slow.phase not in search_pimc.HAND_ENDS:  # search_pimc's own loop, a view a move
            search_pimc.play_one_move(slow, view_player(), slow_rng)
        assert fast.phase in search_pimc.HAND_ENDS
        assert (fast.history, fast.scores, fast.tricks) == (slow.history, slow.scores, slow.tricks)
        assert fast_rng.random() == slow_rng.random()
        starts += 1
    assert starts > 20


def test_only_the_other_seats_are_unsure_and_only_as_often_as_asked() -> None:
    """From positions of medium games, the deciding seat always plays the medium card; the others play
    another card about as often as a random legal card differs from it at the share asked."""
    seat_cards = other_cards = other_changed = 0
    expected_changes = 0.0
    rng = random.Random(8)
    policy = UnsureRolloutPlayer(seat=0, unsure=0.5)
    for _step, state in medium_wizard_positions(4, {"rounds": 10}, seed=13):
        legal = state.legal_cards() if state.phase == Phase.PLAY else []
        if len(legal) < 2:
            continue
        view = state.view(state.current)
        medium = choose_card(view, random.Random(0))
        for _ in range(20):
            chosen = policy.choose(view, rng).value
            if state.current == 0:
                assert chosen == medium
                seat_cards += 1
            else:
                assert chosen in legal
                other_cards += 1
                other_changed += chosen != medium
                expected_changes += 0.5 * (len(legal) - 1) / len(legal)
    assert seat_cards > 100 and other_cards > 300
    assert abs(other_changed - expected_changes) < 4 * expected_changes**0.5


def test_the_hard_player_plays_its_rounds_out_with_the_tracker() -> None:
    from game.ai.hard import WizardHardPlayer

    assert isinstance(WizardHardPlayer().rollout_policy(), WizardRolloutPlayer)


@pytest.mark.parametrize("hand", ["AS AC", "AC AS"])
def test_of_two_equal_cards_the_medium_player_picks_the_same_whatever_their_order(hand: str) -> None:
    # Round 2, trump diamonds: seat 1 bid both tricks and leads; its two side
    # aces hold equally well, so only a tie-break tells them apart.
    deal = wz_deal(4, 2, {1: hand}, "2D")
    state, _ = drive(wz_round(4, 2, deal, dealer=0), "2 0 0 0")
    assert state.hands[1] == cards(hand)
    assert card_code(choose_card(state.view(1), random.Random(0))) == "AS"


def test_the_order_of_the_hand_never_changes_the_medium_card() -> None:
    """The same cards in another order give the same card: a world built from
    a view (a search's, or a replay of the round) cannot know in which order
    another seat holds its cards."""
    checked = 0
    shuffler = random.Random(6)
    for _step, state in medium_wizard_positions(4, {"rounds": 10}, seed=12):
        if state.phase != Phase.PLAY or len(state.legal_cards()) < 2:
            continue
        seat = state.current
        expected = choose_card(state.view(seat), random.Random(0))
        for _ in range(3):
            other = state.clone()
            shuffler.shuffle(other.hands[seat])
            assert choose_card(other.view(seat), random.Random(0)) == expected
        checked += 1
    assert checked > 100
