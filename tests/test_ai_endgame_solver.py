"""The endgame solver: exact against a plain minimax, right on positions with a known answer."""

from __future__ import annotations

import random
from typing import Any, cast

import pytest

from game.ai.endgame_solver import (
    EndgameSolver,
    NodeLimitReached,
    NotInPlayError,
    UnsupportedPositionError,
    action_values,
    solve,
    tricks_left,
)
from game.rules import Phase, game_of, make_rules, new_game, parse_card
from game.rules.actions import PASS, ActionKind, Action, play
from game.rules.cards import JESTER, NO_SUIT, WIZARD, Suit


# ---------------------------------------------------------------------- positions
def bidwhist_endgame(
    seed: int, tricks: int, mode: int, on_trick: int, rules_values: dict[str, Any] | None = None
) -> Any:
    """A Bid Whist hand of random play with ``tricks`` tricks left and ``on_trick`` cards
    of the next one played; the first bidder bids ``mode`` (0 uptown, 1 downtown, 2 no
    trump), everyone else passes, and the contract is chosen at random."""
    rng = random.Random(seed)
    state: Any = new_game(make_rules("bidwhist", rules_values), 4, seed)[0]
    while state.phase != Phase.PLAY:
        legal = state.legal_actions()
        if state.phase == Phase.BID:
            if state.high_bidder < 0:
                action = next(a for a in legal if a.kind == ActionKind.BID and a.mode == mode)
            else:
                action = PASS
        else:
            action = rng.choice(legal)
        state.apply_in_place(action, None, False)
    while not (len(state.tricks) == 12 - tricks and len(state.trick) == on_trick):
        state.apply_in_place(rng.choice(state.legal_actions()), None, False)
    return state


def wizard_endgame(seed: int, players: int, tricks: int, on_trick: int, round_number: int) -> Any:
    rng = random.Random(seed)
    state, _ = new_game(make_rules("wizard"), players, seed, first_dealer=0, start_deal=round_number)
    while not (
        state.phase == Phase.PLAY and len(state.tricks) == round_number - tricks and len(state.trick) == on_trick
    ):
        state.apply_in_place(rng.choice(state.legal_actions()), None, False)
    return state


def cards(codes: str) -> list[int]:
    return [parse_card(code) for code in codes.split()]


# ---------------------------------------------------------------------- the yardstick
def serving_books(state: Any, seat: int) -> int:
    game = game_of(state)
    return sum(won for other, won in enumerate(state.tricks_won) if game.partners(other, seat))


def minimax(state: Any, seat: int) -> int:
    """The value by plain minimax on the rules' own moves (no pruning, no table, no
    merging), read at the hand's end from the rules: the serving team's books, or the
    seat's round score in Wizard."""
    if state.phase != Phase.PLAY:
        return serving_books(state, seat) if state.game == "bidwhist" else state.hand_returns()[seat]
    values = []
    for action in state.legal_actions():
        child = state.clone()
        child.apply_in_place(action, None, check=True)
        values.append(minimax(child, seat))
    return max(values) if game_of(state).partners(state.current, seat) else min(values)


def minimax_actions(state: Any, seat: int) -> dict[Action, int]:
    """Each legal action's minimax value."""
    values = {}
    for action in state.legal_actions():
        child = state.clone()
        child.apply_in_place(action, None, check=True)
        values[action] = minimax(child, seat)
    return values


def assert_exact(state: Any, seat: int) -> None:
    expected = minimax_actions(state, seat)
    assert action_values(state, seat) == expected
    solution = solve(state, seat)
    best = max(expected.values()) if game_of(state).partners(state.current, seat) else min(expected.values())
    assert solution.value == best
    assert set(solution.best_actions) == {a for a, v in expected.items() if v == best}
    assert EndgameSolver(state, seat).best_action() in solution.best_actions


def test_a_preferred_card_is_played_exactly_when_it_is_one_of_the_best() -> None:
    # Both games, every legal card preferred in turn: the answer is that card when it is one
    # of the best (equal cards the search merges included), else another best card.
    positions = [(wizard_endgame(seed, 4, 3, seed % 4, 6), seed % 4) for seed in range(6)]
    positions += [(bidwhist_endgame(seed, 3, seed % 3, seed % 4), seed % 4) for seed in range(4)]
    preferred_kept = preferred_overruled = 0
    for state, seat in positions:
        solution = solve(state, seat)
        for action in state.legal_actions():
            chosen = EndgameSolver(state, seat).best_action(action.value)
            if action in solution.best_actions:
                assert chosen == action
                preferred_kept += 1
            else:
                assert chosen in solution.best_actions
                preferred_overruled += 1
    assert preferred_kept and preferred_overruled


# ---------------------------------------------------------------------- exact against minimax
@pytest.mark.parametrize(
    "rules_values", [None, {"jokers": False}, {"downtown_ace": "low"}], ids=["jokers", "no-jokers", "ace-low"]
)
def test_bidwhist_values_match_plain_minimax(rules_values: dict[str, Any] | None) -> None:
    modes = set()
    for seed in range(9):
        state = bidwhist_endgame(seed, 2 + seed % 2, seed % 3, seed % 4, rules_values)
        modes.add((state.trump == NO_SUIT, state.direction))
        assert_exact(state, seed % 4)
    assert {(False, 0), (False, 1)} <= modes and any(no_trump for no_trump, _ in modes)


def test_bidwhist_jokers_in_no_trump_and_in_trump_are_valued_exactly() -> None:
    seen = {"no trump": 0, "trump": 0}
    seed = 0
    while min(seen.values()) < 2:
        seed += 1
        state = bidwhist_endgame(seed, 3, (0, 2)[seed % 2], seed % 3)
        if not any(card in (52, 53) for hand in state.hands for card in hand):
            continue
        seen["no trump" if state.trump == NO_SUIT else "trump"] += 1
        assert_exact(state, seed % 4)


def test_wizard_values_match_plain_minimax_with_wizards_and_jesters() -> None:
    specials = 0
    for seed in range(14):
        players = 3 + seed % 4
        state = wizard_endgame(seed, players, 2 + seed % 2, seed % players, 6)
        specials += sum(card in (WIZARD, JESTER) for hand in state.hands for card in hand)
        assert_exact(state, seed % players)
    assert specials >= 4


def test_wizard_four_tricks_left_at_three_players() -> None:
    state = wizard_endgame(3, 3, 4, 1, 8)
    assert tricks_left(state) == 4
    assert_exact(state, 2)


# ---------------------------------------------------------------------- known answers
def bidwhist_position(hands: list[str], leader: int, trump: int, mode: int = 0) -> Any:
    """A Bid Whist hand near its end with the given hands, ``leader`` to lead, under a
    contract of ``trump`` (a suit, or NO_SUIT for no trump uptown)."""
    state = _with_trump(trump, mode)
    left = len(hands[0].split())
    state.hands = [cards(hand) for hand in hands]
    state.tricks = state.tricks + [None] * (12 - left)  # placeholders: only their count matters
    state.leader = state.current = leader
    return state


def _with_trump(trump: int, mode: int) -> Any:
    state: Any = new_game(make_rules("bidwhist"), 4, 2)[0]
    while state.phase != Phase.PLAY:
        legal = state.legal_actions()
        if state.phase == Phase.BID:
            action = (
                next(a for a in legal if a.kind == ActionKind.BID and a.mode == (2 if trump == NO_SUIT else mode))
                if state.high_bidder < 0
                else PASS
            )
        elif state.phase == Phase.CONTRACT:
            action = legal[0] if trump == NO_SUIT else next(a for a in legal if a.value == trump)
        else:
            action = legal[0]
        state.apply_in_place(action, None, False)
    return state


def test_the_finesse_against_the_king_is_found() -> None:
    # No trump. South leads a low heart; West plays low; North, holding the ace and queen
    # over West's king, must play the queen (the finesse) to take both tricks.
    state = bidwhist_position(["2H 3H", "KH 4H", "AH QH", "5H 6H"], leader=0, trump=NO_SUIT)
    assert solve(state, 0).value == 2
    state.apply_in_place(play(parse_card("2H")), None)
    state.apply_in_place(play(parse_card("4H")), None)
    solution = solve(state, 2)
    assert (solution.value, solution.best_actions) == (2, (play(parse_card("QH")),))
    # Led from North's own hand, the king always takes one.
    assert solve(bidwhist_position(["2H 3H", "KH 4H", "AH QH", "5H 6H"], 2, NO_SUIT), 0).value == 1


def test_a_void_hand_ruffs_rather_than_discards() -> None:
    # Spades trump. East leads the ace of hearts; South, void in hearts, must trump it with
    # the two: discarding the club gives that trick away.
    state = bidwhist_position(["2S 3C", "4H 5D", "6H 7D", "AH KD"], leader=3, trump=Suit.SPADES)
    state.apply_in_place(play(parse_card("AH")), None)
    values = action_values(state, 0)
    assert values == {play(parse_card("2S")): 2, play(parse_card("3C")): 1}
    assert solve(state, 0).best_actions == (play(parse_card("2S")),)
    # The defenders' view of the same position: they hold South to two books.
    assert solve(state, 1).value == 0


def test_a_wizard_takes_the_trick_it_must() -> None:
    # Round 2, hearts trump, seat 0 bid one. Seat 1 leads the ace of clubs and holds a
    # Wizard for the last trick: seat 0 must take this trick with its own Wizard now.
    hands = [[WIZARD, parse_card("2C")], [parse_card("AC"), WIZARD], cards("KC 4H"), cards("QC 5H")]
    state, _ = new_game(
        make_rules("wizard"), 4, 1, first_dealer=0, start_deal=2, fixed_deals={2: (hands, parse_card("6H"))}
    )
    for bid_value in (2, 0, 0, 1):  # seats 1, 2, 3 and the dealer, seat 0
        state.apply_in_place(_predict(state, bid_value), None)
    assert state.trump == Suit.HEARTS and state.bids[0] == 1
    for code in ("AC", "KC", "QC"):
        state.apply_in_place(play(parse_card(code)), None)
    assert action_values(state, 0) == {play(WIZARD): 30, play(parse_card("2C")): -10}
    assert solve(state, 0).best_actions == (play(WIZARD),)


def _predict(state: Any, value: int) -> Action:
    return next(a for a in state.legal_actions() if a.value == value)


# ---------------------------------------------------------------------- what it reads and refuses
def test_the_solver_reads_only_the_cards_in_play_and_changes_nothing() -> None:
    state = bidwhist_endgame(4, 3, 0, 1)
    expected = action_values(state, 1)
    before = (
        [hand[:] for hand in state.hands],
        state.trick[:],
        state.trick_seats[:],
        state.current,
        state.tricks_won[:],
    )
    # Cards out of play (the kitty, the discards, the tricks already played) replaced by
    # things that are not cards: reading any of them as a card would fail.
    state.kitty = ["not a card"] * 6
    state.discards = ["not a card"] * 6
    state.tricks = ["not a trick"] * len(state.tricks)
    state.hand_plays = []
    state.deal_sequence = ()
    assert action_values(state, 1) == expected
    assert ([hand[:] for hand in state.hands], state.trick, state.trick_seats, state.current, state.tricks_won) == (
        before
    )


def test_a_position_outside_the_play_phase_is_refused() -> None:
    bidding, _ = new_game(make_rules("bidwhist"), 4, 3)
    with pytest.raises(NotInPlayError, match="not phase bid"):
        solve(bidding, 0)
    predicting, _ = new_game(make_rules("wizard"), 4, 3)
    with pytest.raises(NotInPlayError, match="not phase (predict|trump_choice)"):
        EndgameSolver(predicting, 0)
    finished = wizard_endgame(2, 4, 1, 0, 3)
    while finished.phase == Phase.PLAY:
        finished.apply_in_place(finished.legal_actions()[0], None)
    with pytest.raises(NotInPlayError):
        solve(finished, 0)


def test_unsupported_positions_are_refused_clearly() -> None:
    state = bidwhist_endgame(1, 3, 0, 0)
    with pytest.raises(UnsupportedPositionError, match="no seat 4"):
        solve(state, 4)
    penalized = bidwhist_endgame(1, 3, 0, 0, {"renege": "penalized"})
    with pytest.raises(UnsupportedPositionError, match="renege"):
        solve(penalized, 0)


def test_a_node_limit_stops_the_search() -> None:
    state = wizard_endgame(5, 4, 5, 0, 7)
    with pytest.raises(NodeLimitReached):
        solve(state, 0, max_nodes=50)
    assert solve(state, 0, max_nodes=10_000_000).nodes > 50


def test_the_engine_benchmark_reports_the_solver_for_both_games(capsys: pytest.CaptureFixture[str]) -> None:
    from benchmarks.engine import _solver_table

    _solver_table([3], repeats=1)
    rows = [line.split() for line in capsys.readouterr().out.splitlines() if line.endswith(tuple("0123456789"))]
    assert [(row[0], row[2]) for row in rows] == [("bidwhist", "3"), ("wizard", "3")]
    assert all(float(row[3].replace(",", "")) > 0 and float(row[4].replace(",", "")) > 0 for row in rows)


def test_a_game_whose_rules_give_no_trick_values_is_refused() -> None:
    from ohhell import OhHellRules, oh_hell_registered

    with oh_hell_registered():
        state: Any = new_game(cast(Any, OhHellRules()), 4, 1)[0]
        rng = random.Random(1)
        while state.phase != Phase.PLAY:
            state.apply_in_place(rng.choice(state.legal_actions()), None)
        with pytest.raises(UnsupportedPositionError, match="no values to play for"):
            solve(state, 0)


def test_the_rules_say_what_each_side_plays_for() -> None:
    def values(state: Any, seat: int) -> tuple[int, ...] | None:
        trick_values = game_of(state).trick_values
        assert trick_values is not None
        return trick_values(state, seat)

    assert values(bidwhist_endgame(3, 5, 0, 0), 1) == tuple(range(13))  # a team's books
    assert values(bidwhist_endgame(3, 5, 0, 0, {"renege": "penalized"}), 1) is None
    wizard = wizard_endgame(3, 4, 2, 0, 3)
    wizard.bids[2] = 1
    assert values(wizard, 2) == (-10, 30, -10, -20)  # the round score for a bid of one
    assert values(new_game(make_rules("wizard"), 4, 3, first_dealer=0)[0], 1) is None  # no bid yet
