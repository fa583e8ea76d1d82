"""The hard computer players (issue 8): determinized search over the seat's view.

Budgets here are small simulation counts so the file stays fast; the time
cap is set high so that it never binds, which makes every decision
reproducible, except in the tests that prove the time cap stops a search,
where a fake clock advances on every reading.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator

import pytest

from conftest import bw_deal, bw_game, card, drive, to_play, wz_deal, wz_round
from game.ai.bidwhist_medium import BidWhistMediumPlayer
from game.ai.budget import DEFAULT_BUDGET, Deadline, SearchBudget
from game.ai.hard import (
    SPOIL_WEIGHT,
    BidWhistHardPlayer,
    WizardHardPlayer,
    bid_candidates,
    discard_sets,
    distinct_plays,
)
from game.ai.search_pimc import search
from game.ai.wizard_medium import WizardMediumPlayer
from game.rules import Phase, make_rules, new_game
from game.rules.actions import action_to_str, discard, play
from game.rules.engine import GameState
from game.rules.search import HiddenSampler, state_from_view
from game.rules.view import BidWhistView, WizardView

SMALL = SearchBudget(max_simulations=24, max_seconds=1000.0)

CASES = [
    ("bidwhist", 4, {}),
    ("bidwhist", 4, {"renege": "penalized", "all_pass": "redeal", "first_lead": "left_of_dealer"}),
    ("bidwhist", 4, {"downtown_outranks_uptown": True, "min_bid": 4}),
    ("wizard", 3, {}),
    ("wizard", 4, {"bidding": "hidden"}),
    ("wizard", 5, {"bidding": "delayed_reveal"}),
    ("wizard", 4, {"uneven_bids": "always", "rounds": 5}),
    ("wizard", 6, {"uneven_bids": "leader_only"}),
]


def hard_for(game: str, budget: SearchBudget = SMALL, **kwargs) -> BidWhistHardPlayer | WizardHardPlayer:
    return BidWhistHardPlayer(budget, **kwargs) if game == "bidwhist" else WizardHardPlayer(budget, **kwargs)


def decisions(game: str, players: int, overrides: dict, seed: int, count: int) -> Iterator[GameState]:
    """``count`` positions where a seat has a real choice, from one random game."""
    rng = random.Random(seed)
    state, _ = new_game(make_rules(game, overrides, players=players), players, seed)
    found = 0
    while found < count and not state.is_terminal:
        for _ in range(rng.randrange(1, 12)):
            if state.is_terminal:
                return
            state.apply_in_place(rng.choice(state.legal_actions()), None, check=False)
        if state.current >= 0 and len(state.legal_actions()) > 1:
            found += 1
            yield state.copy()


def fake_clock(step: float = 1.0):
    """A clock that advances ``step`` seconds every time it is read."""
    ticks = [0.0]

    def read() -> float:
        ticks[0] += step
        return ticks[0]

    return read


# ---------------------------------------------------------------------- legality, determinism
@pytest.mark.parametrize("game,players,overrides", CASES)
def test_always_legal_across_random_states(game, players, overrides):
    player = hard_for(game, SearchBudget(max_simulations=6, max_seconds=1000.0))
    seen_phases = set()
    for index, state in enumerate(decisions(game, players, overrides, seed=11, count=14)):
        view = state.view(state.current)
        action = player.choose(view, random.Random(index))
        assert action in view.legal_actions, (view.phase, action)
        seen_phases.add(view.phase)
    assert Phase.PLAY in seen_phases


@pytest.mark.parametrize("game,players,overrides", [CASES[0], CASES[4]])
def test_the_same_view_and_seed_give_the_same_action(game, players, overrides):
    player = hard_for(game)
    for index, state in enumerate(decisions(game, players, overrides, seed=5, count=5)):
        view = state.view(state.current)
        first = player.choose(view, random.Random(index))
        again = hard_for(game).choose(view, random.Random(index))
        assert first == again


def test_a_single_legal_action_is_returned_without_searching():
    # A clock that fails when read proves no search starts.
    def no_clock() -> float:
        raise AssertionError("a forced move must not start a search")

    state, _ = new_game(make_rules("wizard", players=4), 4, 3)
    while len(state.legal_actions()) != 1:
        state.apply_in_place(state.legal_actions()[0], None, check=False)
    view = state.view(state.current)
    assert WizardHardPlayer(SMALL, clock=no_clock).choose(view, random.Random(0)) == view.legal_actions[0]


# ---------------------------------------------------------------------- the budget
def mid_hand_wizard_view():
    state = next(
        s for s in decisions("wizard", 4, {}, seed=2, count=40) if s.phase == Phase.PLAY and len(s.legal_actions()) >= 2
    )
    return state.view(state.current)


def search_mid_hand(view: WizardView, simulations: int, **options):
    """A search of every legal card of ``view`` with the medium play-outs, ``simulations`` at most, no time limit."""
    return search(
        view,
        list(view.legal_actions),
        lambda s, a: s.apply_in_place(a, None, check=False),
        WizardMediumPlayer(),
        random.Random(1),
        SearchBudget(simulations, 1000.0),
        fake_clock(0.0),
        **options,
    )


def test_max_simulations_caps_the_count_exactly():
    view = mid_hand_wizard_view()
    for cap in (1, 5, 17):
        result = search_mid_hand(view, cap)
        assert result.simulations == cap
        assert sum(r.simulations for r in result.candidates) == cap


def test_the_preferred_candidate_is_left_only_on_evidence():
    view = mid_hand_wizard_view()
    candidates = list(view.legal_actions)

    def run(preferred, z):
        return search(
            view,
            candidates,
            lambda s, a: s.apply_in_place(a, None, check=False),
            WizardMediumPlayer(),
            random.Random(1),
            SearchBudget(80, 1000.0),
            fake_clock(0.0),
            preferred=preferred,
            deviation_z=z,
        )

    for preferred in candidates:
        # Evidence no search can reach: the preferred candidate stays.
        assert run(preferred, 1e9).best == preferred
    worst = min(run(candidates[0], 1e9).candidates, key=lambda r: r.mean_score).candidate
    loose = run(worst, 0.0)
    means = {r.candidate: r.mean_score for r in loose.candidates}
    assert loose.best != worst and means[loose.best] > means[worst]


def test_racing_spends_the_budget_on_the_contenders():
    # A card that loses for sure against one that may win: once the paired
    # differences show it, the loser stops being simulated.
    result = search_mid_hand(mid_hand_wizard_view(), 300)
    counts = sorted(r.simulations for r in result.candidates)
    assert len(counts) >= 2 and counts[-1] >= 3 * counts[0]  # round robin alone would split them evenly


def test_without_racing_every_candidate_is_simulated_in_every_world():
    # The same position as above: with race_z infinite nobody drops out, so the 300 simulations
    # split evenly (the long search of benchmarks.ai_regret values every candidate alike).
    view = mid_hand_wizard_view()
    cards = len(view.legal_actions)
    result = search_mid_hand(view, 100 * cards, race_z=math.inf)
    assert [r.simulations for r in result.candidates] == [100] * cards


def test_the_deadline_stops_the_search():
    # The clock advances one second per reading; with 7 seconds the deadline
    # (read once at the start) allows six simulations, however many the cap allows.
    view = mid_hand_wizard_view()
    result = search(
        view,
        list(view.legal_actions),
        lambda s, a: s.apply_in_place(a, None, check=False),
        WizardMediumPlayer(),
        random.Random(1),
        SearchBudget(1000, 7.0),
        fake_clock(1.0),
    )
    assert result.simulations == 6


def test_a_player_out_of_time_still_returns_a_legal_action():
    view = mid_hand_wizard_view()
    decision = WizardHardPlayer(SearchBudget(1000, 0.5), clock=fake_clock(1.0)).decide(view, random.Random(3))
    assert decision.search is not None and decision.search.simulations == 0
    assert decision.action in view.legal_actions
    # With no simulation at all it plays what the medium player would.
    assert decision.action == WizardMediumPlayer().choose(view, random.Random(3))


def test_the_players_count_simulations_against_the_budget():
    view = mid_hand_wizard_view()
    decision = WizardHardPlayer(SearchBudget(9, 1000.0)).decide(view, random.Random(3))
    assert decision.search is not None and decision.search.simulations == 9
    assert WizardHardPlayer().budget == DEFAULT_BUDGET == BidWhistHardPlayer().budget
    assert BidWhistHardPlayer(budget=SMALL).budget == SMALL


def test_budget_and_deadline_refuse_nonsense_and_read_the_clock():
    with pytest.raises(ValueError):
        SearchBudget(0, 1.0)
    with pytest.raises(ValueError):
        SearchBudget(10, 0.0)
    deadline = Deadline(2.0, fake_clock(1.0))  # starts at 1, ends at 3
    assert not deadline.passed()  # 2
    assert deadline.passed()  # 3


# ---------------------------------------------------------------------- no peeking
@pytest.mark.parametrize("game,players,overrides", [CASES[1], CASES[5]])
def test_no_peeking_other_hidden_cards_same_decision(game, players, overrides):
    """Two full states that show the deciding seat the same view, with the
    other hands (and kitty, discards, hidden bids) dealt differently, give the
    same action for the same RNG."""
    checked = 0
    for index, state in enumerate(decisions(game, players, overrides, seed=21, count=6)):
        seat = state.current
        view = state.view(seat)
        sampler = HiddenSampler(view)
        sample_rng = random.Random(index)
        one = state_from_view(view, sampler.sample(sample_rng), 1)
        other = state_from_view(view, sampler.sample(sample_rng), 2)
        assert one.view(seat) == view == other.view(seat)
        if one.hands != other.hands:
            checked += 1
        action_one = hard_for(game).choose(one.view(seat), random.Random(99))
        action_other = hard_for(game).choose(other.view(seat), random.Random(99))
        assert action_one == action_other
    assert checked >= 3


# ---------------------------------------------------------------------- constructed positions
# Named positions, shared with test_ai_hints (the hint for each must agree with the move).
def wizard_needing_its_trick():
    """Round 2, trump clubs; seat 0 (the dealer) plays last to a heart trick and
    needs its one trick: the 8 of hearts takes this trick for sure, while the
    3 would leave it hoping that a card it leads later wins."""
    deal = wz_deal(4, 2, {1: "5H 4D", 2: "6H 5D", 3: "7H 6D", 0: "8H 3H"}, "2C")
    state, _ = drive(wz_round(4, 2, deal, dealer=0), "0 0 0 1 5H 6H 7H")
    return state


def wizard_at_its_bid():
    """Round 2: seat 0 bid 0 and plays last to a heart trick it would win with
    the king. The Jester loses it for sure; the king would break the bid."""
    deal = wz_deal(4, 2, {1: "9H 4D", 2: "5H 5D", 3: "3H 6D", 0: "KH JE"}, "2C")
    state, _ = drive(wz_round(4, 2, deal, dealer=0), "1 0 1 0 9H 5H 3H")
    return state


def wizard_with_two_wizards():
    """Round 2: seat 1 (first to bid) holds both of its cards as Wizards."""
    return wz_round(4, 2, wz_deal(4, 2, {1: "WZ WZ"}, "5S"), dealer=0)


def bid_whist_book_to_take():
    """Seat 1 declared 3 uptown in spades and leads the queen of hearts; seat 2
    (seat 0's partner) and seat 3 follow low. Seat 0 plays last with the king
    and three low hearts: only the king takes the book, and it does for sure."""
    deal = bw_deal(
        {
            1: "QH 5H AS KS QS JS TS 9S AD KD QD JD",
            2: "2H 7H 8H 2S 3S 4S 2D 3D 4D 2C 3C 4C",
            3: "3H 9H TH 5S 6S 7S 5D 6D 7D 5C 6C 7C",
            0: "KH 4H 6H JH AC 8S 8D 9D TD 8C BJ LJ",
        },
        kitty="AH KC QC JC TC 9C",
    )
    state = to_play(bw_game(deal, dealer=0), bid="3up", contract="trump:S")
    state, _ = drive(state, "QH 2H 3H")
    return state


def test_wizard_takes_the_trick_it_still_needs():
    state = wizard_needing_its_trick()
    action = WizardHardPlayer(SearchBudget(60, 1000.0)).choose(state.view(0), random.Random(4))
    assert action_to_str(action) == "8H"


def test_wizard_ducks_while_its_bid_is_made():
    state = wizard_at_its_bid()
    action = WizardHardPlayer(SearchBudget(60, 1000.0)).choose(state.view(0), random.Random(4))
    assert action_to_str(action) == "JE"


def test_wizard_bids_its_two_wizards():
    state = wizard_with_two_wizards()
    action = WizardHardPlayer(SearchBudget(60, 1000.0)).choose(state.view(1), random.Random(2))
    assert action.value == 2


def test_wizard_predictions_respect_the_uneven_bids_rule():
    deal = wz_deal(4, 2, {1: "WZ WZ"}, "5S")
    state = wz_round(4, 2, deal, dealer=1, uneven_bids="always")
    state, _ = drive(state, "0 0 0")  # the dealer (seat 1) may not bid 2
    view = state.view(1)
    action = WizardHardPlayer(SearchBudget(30, 1000.0)).choose(view, random.Random(2))
    assert action in view.legal_actions and action.value != 2


def test_bid_whist_takes_the_trick_from_the_opponents():
    view = bid_whist_book_to_take().view(0)
    assert set(view.legal_actions) == {play(card(code)) for code in ("KH", "4H", "6H", "JH")}
    action = BidWhistHardPlayer(SearchBudget(40, 1000.0)).choose(view, random.Random(1))
    assert action_to_str(action) == "KH"


def test_bid_whist_plays_what_its_search_found_best():
    # The search's best candidate is an action, or a set of discards whose
    # first card is laid aside now; the player must act on it, also where it
    # is not the medium player's choice. The positions come from a game the
    # medium players play, the first twelve real choices of it.
    player, medium = BidWhistHardPlayer(SearchBudget(30, 1000.0)), BidWhistMediumPlayer()
    state, _ = new_game(make_rules("bidwhist"), 4, 11)
    departures = checked = 0
    phases = set()
    while checked < 12:
        view = state.view(state.current)
        if len(view.legal_actions) > 1:
            phases.add(view.phase)
            decision = player.decide(view, random.Random(checked))
            assert decision.search is not None
            best = decision.search.best
            assert decision.action == (best if view.phase != Phase.DISCARD else discard(best[0]))
            departures += decision.action != medium.choose(view, random.Random(checked))
            checked += 1
        state.apply_in_place(medium.choose(view, random.Random(checked)), None, check=False)
    assert departures > 0 and Phase.DISCARD in phases  # discards laid aside from a plan too


def test_a_bid_whist_defender_scores_the_contract_by_the_margin():
    # Only the bidding team scores, so a defender's own change is nought
    # whatever it plays. Scored by the margin, a contract of 3 set by the
    # defenders is worth +3 to them and a made one a loss: the simulations
    # must see the difference (with the team's own change every mean here
    # would be 0).
    view = bid_whist_book_to_take().view(0)
    decision = BidWhistHardPlayer(SearchBudget(40, 1000.0)).decide(view, random.Random(1))
    assert decision.search is not None
    means = [r.mean_score for r in decision.search.candidates if r.simulations]
    assert means and all(mean != 0 for mean in means)


def test_a_wizard_simulation_counts_the_others_rounds_against_the_seat():
    # A simulation scores the seat's own round less half the others' mean, so
    # that a card which no longer changes its own round is spent on spoiling
    # another seat's bid. Played out on a real round (4 players, round 3).
    state, _ = new_game(make_rules("wizard", players=4), 4, 5, first_dealer=0, start_deal=3)
    view = state.view(state.current)
    medium = WizardMediumPlayer()
    while state.phase not in (Phase.HAND_OVER, Phase.GAME_OVER):
        state.apply_in_place(medium.choose(state.view(state.current), random.Random(1)), None, check=False)
    returns = state.hand_returns()
    assert len(set(returns)) > 1
    seat = view.seat
    others = [returns[s] for s in range(4) if s != seat]
    value = WizardHardPlayer()._value(view)
    assert value(state) == pytest.approx(returns[seat] - SPOIL_WEIGHT * sum(others) / 3)
    assert 0 < SPOIL_WEIGHT < 1
    own_only = WizardHardPlayer(spoil_weight=0.0)._value(view)
    assert own_only(state) == returns[seat]


def test_a_wizard_card_play_threshold_leaves_bids_and_trump_on_the_shared_one():
    player = WizardHardPlayer(play_deviation_z=2.0)
    state, _ = new_game(make_rules("wizard", players=4), 4, 5, first_dealer=0, start_deal=3)
    bidding = state.view(state.current)
    assert bidding.phase == Phase.PREDICT
    playing = mid_hand_wizard_view()
    assert player._deviation_z(playing) == 2.0
    assert player._deviation_z(bidding) == WizardHardPlayer.deviation_z == WizardHardPlayer()._deviation_z(playing)


def test_bid_whist_bid_candidates_and_discard_sets_are_legal_and_distinct():
    for state in decisions("bidwhist", 4, {}, seed=8, count=40):
        view = state.view(state.current)
        assert isinstance(view, BidWhistView)
        if view.phase == Phase.BID:
            preferred = BidWhistMediumPlayer().choose(view, random.Random(0))
            candidates = bid_candidates(view, preferred)
            assert candidates[0] == preferred
            assert len(set(candidates)) == len(candidates)
            assert all(a in view.legal_actions for a in candidates)
        if view.phase == Phase.DISCARD:
            sets = discard_sets(view)
            count = 6 - view.discard_count
            assert sets and all(len(set(s)) == count and set(s) <= set(view.hand) for s in sets)
            assert len({frozenset(s) for s in sets}) == len(sets)


def test_cards_that_play_alike_are_searched_once():
    # Round 4, seat 1 leads holding the 9, 10 and king of hearts and the
    # 2 of spades. Nobody else can hold a heart between the 9 and the 10, so
    # they play alike; the queen of hearts is unseen, so the king stands alone.
    deal = wz_deal(4, 4, {1: "9H TH KH 2S", 2: "QH 3S 4S 5S"}, "5C")
    state = wz_round(4, 4, deal, dealer=0)
    state, _ = drive(state, "1 1 1 1")
    view = state.view(1)
    assert view.phase == Phase.PLAY and view.current_player == 1

    def codes(cards):
        return {action_to_str(play(c)) for c in cards}

    assert codes(distinct_plays(view, card("KH"))) == {"9H", "KH", "2S"}
    assert codes(distinct_plays(view, card("TH"))) == {"TH", "KH", "2S"}  # the medium card stands for its group
    # With the queen turned up (out of play) and the jack in hand, all four hearts play alike.
    later = wz_round(4, 4, wz_deal(4, 4, {1: "9H TH JH KH"}, "QH"), dealer=0)
    later, _ = drive(later, "1 1 1 1")
    assert codes(distinct_plays(later.view(1), card("JH"))) == {"JH"}
