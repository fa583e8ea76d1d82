"""The clairvoyant Wizard play-outs (``game.ai.wizard_clairvoyant``): a seat short of its bid plays its
cheapest card sure to take the trick, one with its tricks its dearest card sure to lose it, each
checked against every reply the later seats' hands allow; else the medium player's card."""

from __future__ import annotations

import itertools
import random

from conftest import medium_wizard_positions
from game.ai import search_pimc
from game.ai.medium import seats_after
from game.ai.wizard_clairvoyant import ClairvoyantRolloutPlayer, steered_card, sure_cards
from game.ai.wizard_medium import choose_card
from game.rules import Phase
from game.rules.cards import JESTER, NO_SUIT
from game.rules.wizard import WizardState, legal_cards_of, strengths, trick_winner


def _takes_the_trick_always(state: WizardState, seat: int, card: int) -> bool | None:
    """True when ``card`` takes the trick whatever the later seats play, False when it never does,
    None when it depends on them: every combination of their legal replies tried."""
    trick = [*state.trick, card]
    later = seats_after(seat, state.num_players, len(state.trick))
    outcomes = set()
    replies = [legal_cards_of(state.hands[other], trick) for other in later]
    for combination in itertools.product(*replies):
        outcomes.add(trick_winner([*trick, *combination], state.trump) == len(state.trick))
    return outcomes.pop() if len(outcomes) == 1 else None


def _positions_with_a_choice(seed: int, rounds: int = 6):
    for _step, state in medium_wizard_positions(4, {"rounds": rounds}, seed=seed):
        if state.phase == Phase.PLAY and len(state.legal_cards()) > 1:
            yield state


def test_sure_winners_and_losers_are_what_every_reply_of_the_later_seats_makes_them() -> None:
    checked = 0
    for seed in range(3):
        for state in _positions_with_a_choice(seed):
            seat, legal = state.current, state.legal_cards()
            winners, losers = sure_cards(state, seat, legal)
            for card in legal:
                always = _takes_the_trick_always(state, seat, card)
                assert card not in winners or always is True, (seed, card)  # sound: never a wrong "sure"
                assert card not in losers or always is False, (seed, card)
                if all(c == JESTER for c in [*state.trick, card]):
                    continue  # a trick of Jesters so far: the suit to follow is still open (left to the medium card)
                assert (card in winners) == (always is True), (seed, card)
                # A sure loser is one not ahead when played; one ahead that a later seat can only beat
                # is left to the medium card.
                ahead = trick_winner([*state.trick, card], state.trump) == len(state.trick)
                assert (card in losers) == (not ahead), (seed, card)
            checked += 1
    assert checked > 100


def test_a_seat_short_of_its_bid_takes_the_trick_cheaply_and_one_with_its_tricks_sheds_its_dearest_loser() -> None:
    steered = {"short": 0, "made": 0, "medium": 0}
    for seed in range(3, 6):
        for state in _positions_with_a_choice(seed):
            seat, legal = state.current, state.legal_cards()
            medium = choose_card(state.view(seat), random.Random(0))
            card = steered_card(state, seat, legal, medium)
            assert card in legal
            winners, losers = sure_cards(state, seat, legal)
            value = strengths(NO_SUIT, state.trump)
            short = state.bids[seat] > state.tricks_won[seat]
            if short and winners:
                assert card in winners and value[card] == min(value[c] for c in winners)
                steered["short"] += 1
            elif not short and losers:
                assert card in losers and value[card] == max(value[c] for c in losers)
                steered["made"] += 1
            else:
                assert card == medium
                steered["medium"] += 1
    assert min(steered.values()) > 10, steered


def test_its_play_outs_steer_every_seat_and_play_only_legal_cards() -> None:
    """Whole play-outs by the search's fast path, replayed card by card through the rules (which
    check each card): every choice a seat had is the steered card of that moment."""
    player, replayed = ClairvoyantRolloutPlayer(), 0
    for seed in range(2):
        starts = [state.clone() for state in _positions_with_a_choice(seed + 10, rounds=5)]  # the live state moves on
        for start in starts[::3]:
            played_before = len(start.hand_plays)
            trial = start.clone()
            search_pimc.play_out(trial, player, random.Random(seed))
            assert trial.phase in search_pimc.HAND_ENDS
            replay = start.clone()
            for seat, action in trial.hand_plays[played_before:]:  # the round's cards, kept to its end
                legal = replay.legal_cards()
                if len(legal) > 1:
                    medium = choose_card(replay.view(seat), random.Random(0))
                    assert action.value == steered_card(replay, seat, legal, medium)
                    replayed += 1
                replay.apply_in_place(action, None, check=True)
    assert replayed > 50
