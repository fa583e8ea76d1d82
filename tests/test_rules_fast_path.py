"""The search's fast path (``legal_actions`` + ``apply_in_place(action, None, False)``): cheap per
card, and the same games as before it was made cheap.

Timings are never asserted (the machines are shared); what is asserted is the work a card costs in
Python function calls, which the old path spent on helpers (the led suit, one ``play()`` per legal
card, the void check) and the fast path does inline, and that seeded games are unchanged: their
shuffles draw exactly as ``random.shuffle`` and their whole course hashes to what the engine
produced before (``benchmarks.engine`` measures the speed).
"""

from __future__ import annotations

import hashlib
import random
import sys
from typing import Any

import pytest

from game.rules import Phase, make_rules, new_game
from game.rules.core import seeded_rng, shuffled


@pytest.mark.parametrize("size", [0, 1, 2, 3, 13, 52, 54, 60, 70])
def test_the_shuffle_draws_exactly_as_random_shuffle(size: int) -> None:
    deck = list(range(size))
    for seed in range(40):
        ours, theirs = random.Random(seed), random.Random(seed)
        expected = deck[:]
        theirs.shuffle(expected)
        assert shuffled(deck, ours) == expected
        assert ours.random() == theirs.random()  # and leaves the generator where the shuffle would


def test_the_shuffle_of_a_seeded_deal_is_unchanged() -> None:
    ours, theirs = seeded_rng(7, "deal 3"), seeded_rng(7, "deal 3")
    expected = list(range(54))
    theirs.shuffle(expected)
    assert shuffled(range(54), ours) == expected


def test_a_generator_subclass_shuffles_its_own_way() -> None:
    class Reversing(random.Random):
        def shuffle(self, x: Any) -> None:
            x.reverse()

    assert shuffled([1, 2, 3], Reversing(1)) == [3, 2, 1]


def _python_calls_per_card(game: str, players: int, seed: int) -> float:
    """The Python function calls the fast path makes per card played, over one random game:
    ``legal_actions`` and ``apply_in_place`` of every card, with whatever they call."""
    state, _ = new_game(make_rules(game), players, seed)
    rng = random.Random(seed)
    calls = cards = 0

    def count(frame: Any, event: str, arg: Any) -> None:
        nonlocal calls
        if event == "call":
            calls += 1

    while not state.is_terminal:
        playing = state.phase == Phase.PLAY
        if playing:
            sys.setprofile(count)
        legal = state.legal_actions()
        sys.setprofile(None)
        action = legal[rng.randrange(len(legal))]
        if playing:
            sys.setprofile(count)
        state.apply_in_place(action, None, False)
        sys.setprofile(None)
        cards += playing
    return calls / cards


@pytest.mark.parametrize(("game", "players"), [("bidwhist", 4), ("wizard", 4)])
def test_a_card_on_the_fast_path_costs_a_few_python_calls(game: str, players: int) -> None:
    # Listing the cards, the list itself and playing one: three calls, plus a trick's end (its
    # winner and record) every few cards and a hand's end now and then. The old path made
    # about 19 a card.
    assert _python_calls_per_card(game, players, seed=3) <= 5


# Rules under which the fast path takes every branch: reneges let through and penalized,
# the dealer's take, no jokers, all passing, the ace low, a Boston; hidden and delayed
# bids, the uneven-bids rule, the trump named by either seat or by nobody.
_CASES: tuple[tuple[str, int, dict[str, Any]], ...] = (
    ("bidwhist", 4, {}),
    ("bidwhist", 4, {"renege": "penalized", "dealer_takes": True, "jokers": False}),
    ("bidwhist", 4, {"all_pass": "redeal", "downtown_ace": "low", "boston": "wins_game", "min_bid": 1}),
    ("wizard", 3, {"bidding": "hidden"}),
    ("wizard", 4, {"uneven_bids": "always", "wizard_turn_up": "first_bidder_chooses"}),
    ("wizard", 6, {"bidding": "delayed_reveal", "wizard_turn_up": "no_trump"}),
)
# The digest of these games as the engine played them before its fast path was rewritten.
_DIGEST_BEFORE = "5f85f8da4ee7d044af664b47759771526643cded6d545edc6ba4300870fc8d60"


def _fast_path_digest() -> str:
    digest = hashlib.sha256()
    for game, players, overrides in _CASES:
        state, _ = new_game(make_rules(game, overrides), players, 11)
        rng = random.Random(5)
        while not state.is_terminal:
            legal = state.legal_actions()
            digest.update(repr(legal).encode())
            if state.phase == Phase.PLAY and not state.trick and state.tricks:
                digest.update(repr((state.tricks[-1], state.follow_failures, state.hand_plays[-1])).encode())
            state.apply_in_place(rng.choice(legal), None, False)
        digest.update(repr((state.scores, state.results(), state.returns(), state.view(0))).encode())
    return digest.hexdigest()


def test_seeded_games_on_the_fast_path_are_the_games_they_were() -> None:
    assert _fast_path_digest() == _DIGEST_BEFORE
