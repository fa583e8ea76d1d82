"""Full states from a seat's view (``game.rules.search``, issue 7 item 5).

The truth round-trips: a state built from ``view(seat)`` and the real
hidden cards looks, to every seat, exactly like the real game. Guesses
drawn by ``sample_hidden`` always fit the view, and the state built from
one looks to the seat exactly like its own view. Assignments that do not
fit are refused with ``HiddenInfoError`` naming the problem. Sampling is
uniform: its count of the consistent assignments matches an enumeration, and
the frequencies pass a chi-square test (fixed seed, so never flaky).
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace

import pytest

from benchmarks.oracle import true_hidden

from game.rules import BidWhistView, Phase, PlayerView, WizardView, make_rules, new_game
from game.rules.bidwhist import BidWhistState
from game.rules.engine import GameState
from game.rules.registry import game_of
from game.rules.search import (
    HiddenCards,
    HiddenInfoError,
    HiddenSampler,
    check_hidden,
    sample_hidden,
    state_from_view,
)
from game.rules.tricks import PUBLIC_SEAT

CASES = [
    ("bidwhist", 4, {}),
    ("bidwhist", 4, {"renege": "penalized"}),
    ("bidwhist", 4, {"renege": "penalized", "all_pass": "redeal", "first_lead": "left_of_dealer"}),
    ("wizard", 3, {}),
    ("wizard", 4, {"bidding": "hidden"}),
    ("wizard", 5, {"bidding": "delayed_reveal"}),
    ("wizard", 6, {"uneven_bids": "leader_only"}),
]


def random_positions(game: str, players: int, overrides: dict, seed: int, count: int) -> Iterator[GameState]:
    """``count`` positions of one random game, at random points of random hands."""
    rng = random.Random(seed)
    state, _ = new_game(make_rules(game, overrides, players=players), players, seed)
    for _ in range(count):
        for _ in range(rng.randrange(1, 40)):
            if state.is_terminal:
                return
            state.apply_in_place(rng.choice(state.legal_actions()), None, check=False)
        yield state.copy()


# ---------------------------------------------------------------- round trip
@pytest.mark.parametrize("game,players,overrides", CASES)
def test_the_truth_round_trips_for_every_seat(game: str, players: int, overrides: dict) -> None:
    built_count = 0
    for seed in range(8):
        for state in random_positions(game, players, overrides, seed, 6):
            real_views = [state.view(other) for other in range(PUBLIC_SEAT, players)]
            for seat in range(PUBLIC_SEAT, players):
                rng = random.Random(seed * 100 + seat)
                built = state_from_view(state.view(seat), true_hidden(state, seat), rng)
                assert [built.view(other) for other in range(PUBLIC_SEAT, players)] == real_views
                assert built.legal_actions() == state.legal_actions()
                assert (built.phase, built.current_player, built.scores) == (
                    state.phase,
                    state.current_player,
                    state.scores,
                )
                assert built.seed != state.seed  # its future is its own
                built_count += 1
    assert built_count > 100


@pytest.mark.parametrize("game,players", [("bidwhist", 4), ("wizard", 4)])
def test_a_built_state_does_not_know_the_real_next_deal(game: str, players: int) -> None:
    state, _ = new_game(make_rules(game, players=players), players, 11)
    state.apply_in_place(state.legal_actions()[0], None, check=False)
    real = state.copy()
    built = state_from_view(state.view(0), true_hidden(state, 0), random.Random(3))
    for world in (real, built):
        while world.deal_number == 1:
            world.apply_in_place(world.legal_actions()[0], None, check=False)
    assert built.hands != real.hands


def test_a_seed_builds_the_same_state_twice() -> None:
    state, _ = new_game(make_rules("bidwhist"), 4, 4)
    hidden = true_hidden(state, 2)
    one = state_from_view(state.view(2), hidden, 99)
    two = state_from_view(state.view(2), hidden, 99)
    assert one.seed == two.seed == 99 and one.hands == two.hands


# ---------------------------------------------------------------- sampling
@pytest.mark.parametrize("game,players,overrides", CASES)
def test_samples_fit_the_view_and_replay(game: str, players: int, overrides: dict) -> None:
    rng = random.Random(2024)
    for seed in range(6):
        for state in random_positions(game, players, overrides, seed, 6):
            for seat in range(PUBLIC_SEAT, players):
                view = state.view(seat)
                sampler = HiddenSampler(view)
                for guess in (sample_hidden(view, rng), sampler.sample(rng)):
                    check_hidden(view, guess)
                    built = state_from_view(view, guess, rng)
                    assert built.view(seat) == view  # a guess never changes what the seat sees
                    for _ in range(30):  # and the guessed world plays on
                        if built.is_terminal:
                            break
                        built.apply_in_place(rng.choice(built.legal_actions()), None, check=False)


def test_hidden_bids_are_drawn_from_the_legal_bids() -> None:
    rules = make_rules("wizard", {"bidding": "hidden"}, players=4)
    state, _ = new_game(rules, 4, 6, first_dealer=0, start_deal=5)
    state.apply_in_place(state.legal_actions()[0], None, check=False)  # seat 1 bids
    state.apply_in_place(state.legal_actions()[-1], None, check=False)  # seat 2 bids
    view = state.view(3)
    rng = random.Random(1)
    seen: Counter[tuple[int, int]] = Counter()
    for _ in range(600):
        guess = sample_hidden(view, rng)
        assert set(guess.bids) == {1, 2}
        seen.update(guess.bids.items())
    assert {value for _, value in seen} == set(range(6))  # every bid 0..5 comes up
    assert min(seen.values()) > 40


def _brute_force(view: PlayerView) -> list[HiddenCards]:
    """Every consistent assignment of a small view's unseen hands, by enumeration of
    card positions (copies of a card are distinct cards, as the sampler counts them)."""
    pool = _unseen(view)
    seats = [seat for seat in range(view.num_players) if seat != view.seat]
    found = []

    def place(index: int, left: list[int], hands: dict[int, tuple[int, ...]]) -> None:
        if index == len(seats):
            guess = HiddenCards(hands=dict(hands))
            try:
                check_hidden(view, guess)
            except HiddenInfoError:
                return
            found.append(guess)
            return
        seat = seats[index]
        for chosen in itertools.combinations(range(len(left)), view.hand_sizes[seat]):
            rest = [card for position, card in enumerate(left) if position not in chosen]
            place(index + 1, rest, {**hands, seat: tuple(left[position] for position in chosen)})

    place(0, pool, {})
    return found


def _unseen(view: PlayerView) -> list[int]:
    """The cards ``view``'s seat has not seen (copies of a card repeated)."""
    seen = Counter(view.hand) + Counter(view.played_cards())
    if isinstance(view, WizardView) and view.turn_up >= 0:
        seen[view.turn_up] += 1
    if isinstance(view, BidWhistView):
        seen.update(view.discards)  # the declarer's, which it knows
    return list((Counter(game_of(view).deck) - seen).elements())


def _constraining(view: PlayerView) -> int:
    """How many other seats lack a suit of which some card is still unseen."""
    unseen_suits = {card // 13 for card in _unseen(view) if card < 52}
    if isinstance(view, BidWhistView) and view.trump >= 0 and any(card >= 52 for card in _unseen(view)):
        unseen_suits.add(view.trump)  # jokers follow as trumps
    return sum(1 for seat, voids in enumerate(view.voids) if seat != view.seat and voids & unseen_suits)


def _late_view(game: str, players: int, overrides: dict, tricks_left: int, seats_void: int) -> PlayerView:
    """The view of a seat near the end of a hand, where at least ``seats_void``
    other seats lack a suit of which cards are unseen, so that the voids
    shape the guesses (searched over seeds, so the case is a real one)."""
    for seed in range(2000):
        rng = random.Random(seed)
        state, _ = new_game(
            make_rules(game, overrides, players=players),
            players,
            seed,
            first_dealer=0,
            start_deal=20 if game == "wizard" else 1,
        )
        while not state.is_terminal and state.phase != Phase.HAND_OVER:
            if (
                state.phase == Phase.PLAY
                and not state.trick
                and len(state.tricks) == state.tricks_per_hand() - tricks_left
            ):
                seat = state.declarer if isinstance(state, BidWhistState) else state.current
                view = state.view(seat)
                if _constraining(view) >= seats_void and HiddenSampler(view).count() > 1:
                    return view
                break
            state.apply_in_place(rng.choice(state.legal_actions()), None, check=False)
    raise AssertionError("no such position found")


@pytest.mark.parametrize(
    "game,players,tricks_left,seats_void",
    [
        ("bidwhist", 4, 2, 2),
        ("bidwhist", 4, 3, 3),
        ("wizard", 3, 3, 2),
        ("wizard", 3, 4, 1),
    ],
)
def test_the_count_matches_an_enumeration(game: str, players: int, tricks_left: int, seats_void: int) -> None:
    view = _late_view(game, players, {}, tricks_left, seats_void)
    assignments = _brute_force(view)
    assert len(assignments) == HiddenSampler(view).count() > 1


def test_sampling_is_uniform() -> None:
    """Chi-square of the sample frequencies over every consistent assignment of a
    late Bid Whist hand with void-constrained seats (the declarer's view)."""
    view = _late_view("bidwhist", 4, {}, 3, 2)
    assignments = _brute_force(view)
    cells = len(assignments)
    assert 10 <= cells <= 2000
    key = {
        tuple(sorted((seat, tuple(sorted(hand))) for seat, hand in guess.hands.items())): index
        for index, guess in enumerate(assignments)
    }
    assert len(key) == cells  # Bid Whist cards are all distinct: each assignment once
    per_cell = 60
    rng = random.Random(12345)
    sampler = HiddenSampler(view)
    observed = [0] * cells
    for _ in range(per_cell * cells):
        guess = sampler.sample(rng)
        observed[key[tuple(sorted((seat, tuple(sorted(hand))) for seat, hand in guess.hands.items()))]] += 1
    chi_square = sum((count - per_cell) ** 2 / per_cell for count in observed)
    # Wilson-Hilferty: the chi-square value exceeded with probability 1e-4.
    df = cells - 1
    critical = df * (1 - 2 / (9 * df) + 3.72 * math.sqrt(2 / (9 * df))) ** 3
    assert chi_square < critical, (chi_square, critical)
    assert min(observed) > 0


def test_a_taken_kitty_is_guessed_from_the_declarers_cards() -> None:
    state = _bid_whist_in_play(3)
    seat = (state.declarer + 1) % 4
    view = state.view(seat)
    rng = random.Random(5)
    played_by_declarer = [card for record in state.tricks for s, card in record.plays if s == state.declarer]
    played_by_declarer += [card for s, card in zip(state.trick_seats, state.trick) if s == state.declarer]
    for _ in range(200):
        guess = sample_hidden(view, rng)
        held = set(guess.hands[state.declarer]) | set(guess.discards) | set(played_by_declarer)
        assert len(guess.kitty) == 6 and set(guess.kitty) <= held
        assert len(guess.discards) == 6


# ---------------------------------------------------------------- refusals
def _bid_whist_in_play(tricks: int = 2) -> BidWhistState:
    """A Bid Whist hand of random play with ``tricks`` tricks done and the next not led."""
    rng = random.Random(1)
    state, _ = new_game(make_rules("bidwhist", {"target_score": 99}), 4, 1)
    assert isinstance(state, BidWhistState)
    while not (state.phase == Phase.PLAY and len(state.tricks) == tricks):
        state.apply_in_place(rng.choice(state.legal_actions()), None, check=False)
    return state


def _refused(view: PlayerView, hidden: HiddenCards) -> str:
    with pytest.raises(HiddenInfoError) as info:
        state_from_view(view, hidden, 1)
    with pytest.raises(HiddenInfoError):
        check_hidden(view, hidden)
    assert isinstance(info.value, ValueError) and str(info.value)
    return info.value.code


def test_inconsistent_hands_are_refused() -> None:
    state = _bid_whist_in_play()
    seat = (state.declarer + 1) % 4
    view = state.view(seat)
    truth = true_hidden(state, seat)
    others = [other for other in range(4) if other != seat]
    a, b = others[0], others[1]

    def with_hands(**changes: tuple[int, ...]) -> HiddenCards:
        hands = dict(truth.hands)
        hands.update({int(key[1:]): value for key, value in changes.items()})
        return replace(truth, hands=hands)

    assert _refused(view, with_hands(**{f"s{a}": truth.hands[a][1:]})) == "hand_size"
    assert _refused(view, with_hands(**{f"s{a}": (view.hand[0],) + truth.hands[a][1:]})) == "seen_card"
    played = view.tricks[0].plays[0][1]
    assert _refused(view, with_hands(**{f"s{a}": (played,) + truth.hands[a][1:]})) == "seen_card"
    assert _refused(view, with_hands(**{f"s{a}": (truth.hands[b][0],) + truth.hands[a][1:]})) == "duplicate_card"
    for not_a_card in (99, 54, -1, "AS", 1.0, True, None):
        bad = (not_a_card,) + truth.hands[a][1:]
        assert _refused(view, with_hands(**{f"s{a}": bad})) == "not_a_card"  # type: ignore[arg-type]
    missing = {other: hand for other, hand in truth.hands.items() if other != a}
    assert _refused(view, replace(truth, hands=missing)) == "hands"
    assert _refused(view, replace(truth, hands={**truth.hands, seat: tuple(view.hand)})) == "hands"
    assert _refused(view, replace(truth, hands=list(truth.hands.values()))) == "hands"  # type: ignore[arg-type]


def test_kitty_and_discards_are_refused_where_the_seat_knows_them_or_they_cannot_be() -> None:
    state = _bid_whist_in_play()
    declarer = state.declarer
    mine = true_hidden(state, declarer)
    assert mine.kitty == () and mine.discards == ()
    view = state.view(declarer)
    assert _refused(view, replace(mine, kitty=tuple(state.kitty))) == "kitty_known"
    assert _refused(view, replace(mine, discards=tuple(state.discards))) == "discards_known"
    seat = (declarer + 1) % 4
    view = state.view(seat)
    truth = true_hidden(state, seat)
    assert _refused(view, replace(truth, kitty=truth.kitty[:5])) == "kitty_size"
    assert _refused(view, replace(truth, discards=truth.discards[1:])) == "discards_size"
    # A kitty the declarer took must be among its cards, not another seat's.
    partner = (declarer + 2) % 4
    stranger = truth.hands[partner][0]
    assert _refused(view, replace(truth, kitty=(stranger,) + truth.kitty[1:])) == "kitty_not_held"
    # Swapping a discard with a card of another hand breaks nothing but which cards lie where... unless
    # the card is seen: a discard cannot be a card the seat holds.
    assert _refused(view, replace(truth, discards=(view.hand[0],) + truth.discards[1:])) == "seen_card"


def test_a_void_suit_is_refused() -> None:
    """Moving one unseen card of a suit a seat has shown void into that seat's
    hand (swapping it with one of its cards) breaks only the void."""
    refused = 0
    for seed in range(30):
        for state in random_positions("bidwhist", 4, {}, seed, 8):
            assert isinstance(state, BidWhistState)
            if state.phase != Phase.PLAY:
                continue
            seat = state.declarer
            view = state.view(seat)
            truth = true_hidden(state, seat)
            for void_seat, suits in enumerate(view.voids):
                if void_seat == seat or not truth.hands.get(void_seat):
                    continue
                for donor, hand in truth.hands.items():
                    lacking = [card for card in hand if card < 52 and card // 13 in suits]
                    if donor == void_seat or not lacking:
                        continue
                    moved, back = lacking[0], truth.hands[void_seat][0]
                    hands = dict(truth.hands)
                    hands[void_seat] = (moved,) + hands[void_seat][1:]
                    hands[donor] = tuple(back if card == moved else card for card in hand)
                    assert _refused(view, replace(truth, hands=hands)) == "void_suit"
                    refused += 1
    assert refused >= 10


def test_wrong_bids_are_refused() -> None:
    rules = make_rules("wizard", {"bidding": "delayed_reveal"}, players=4)
    state, _ = new_game(rules, 4, 6, first_dealer=0, start_deal=3)
    for _ in range(2):
        state.apply_in_place(state.legal_actions()[1], None, check=False)  # seats 1 and 2 bid 1
    view = state.view(3)
    truth = true_hidden(state, 3)
    assert truth.bids == {1: 1, 2: 1}
    assert _refused(view, replace(truth, bids={1: 1})) == "bids"
    assert _refused(view, replace(truth, bids={1: 1, 2: 1, 3: 0})) == "bids"
    assert _refused(view, replace(truth, bids={1: 1, 2: 4})) == "bid_value"
    assert _refused(view, replace(truth, bids={1: 1, 2: -1})) == "bid_value"
    assert _refused(view, replace(truth, bids={1: 1, 2: True})) == "bid_value"
    own = state.view(1)
    assert _refused(own, replace(true_hidden(state, 1), bids={1: 1, 2: 1})) == "bids"  # its own bid is no secret
    # Open bidding hides nothing.
    open_state, _ = new_game(make_rules("wizard", players=4), 4, 6, first_dealer=0, start_deal=3)
    open_state.apply_in_place(open_state.legal_actions()[0], None, check=False)
    assert _refused(open_state.view(3), replace(true_hidden(open_state, 3), bids={1: 0})) == "bids"


def test_random_garbage_is_refused_with_hidden_info_errors_only() -> None:
    rng = random.Random(8)
    for game, players, overrides in CASES:
        for state in random_positions(game, players, overrides, 4, 5):
            seat = rng.randrange(players)
            view = state.view(seat)
            truth = true_hidden(state, seat)
            for _ in range(25):
                hands = {
                    other: tuple(rng.choice([card, rng.randrange(-2, 60)]) for card in hand)
                    for other, hand in truth.hands.items()
                }
                guess = replace(truth, hands=hands)
                try:
                    built = state_from_view(view, guess, rng)
                except HiddenInfoError:
                    continue
                assert built.view(seat) == view


def test_a_view_is_required() -> None:
    with pytest.raises(TypeError):
        sample_hidden("not a view", random.Random(1))  # type: ignore[arg-type]
    state, _ = new_game(make_rules("wizard", players=3), 3, 1)
    with pytest.raises(TypeError):
        state_from_view(state.view(0), true_hidden(state, 0), "seed")  # type: ignore[arg-type]
