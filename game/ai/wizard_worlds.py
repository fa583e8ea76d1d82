"""The worlds the hard Wizard player simulates: hidden hands that fit the bids
and the cards seen.
"""

from __future__ import annotations

# A bid says much about a hand (a seat that bid 3 of 4 tricks most likely holds
# Wizards or high trumps), and the uniform draws of ``HiddenSampler`` ignore
# it. ``draw_wizard_hands`` draws a few worlds and keeps the one whose hands
# best explain the bids shown, judged as the medium player judges a hand
# (``bid_misfit``). Bids still face down for this seat (hidden and delayed
# bidding) are guessed as the medium player would have bid the drawn hand
# (``guess_face_down_bids``), not uniformly, since the rollout players aim at
# them.
#
# So does a card played: a seat that ducked under the queen most likely had no
# card to take the trick cheaply. In play, a ``PlayFitter`` draws up to
# ``PLAY_FIT_TRIES`` such bid-fitted worlds and keeps the first in which the
# medium player, holding the drawn hands, would have played every card the
# others chose this round, else the one it explains best (``misfit``). One
# fitter serves all the worlds of a decision, so the round is dealt through
# the rules once and then dealt again with each guess's hands.
# The rollouts play every seat as the medium player, so a world in which that
# player would not have played as the table did describes a table the search
# is not at. In round 8, once three cards are down, only about one bid-fitted
# world in twelve explains every card (37 of 440 positions); the real hands of
# medium players always do.
#
# Everything here reads the view and the draws only: nothing can peek.

import math
import random
from collections.abc import Callable, Sequence

from game.ai.wizard_medium import card_to_play, expected_tricks, rounded_bid
from game.ai.wizard_rollout import RoundTracker
from game.rules.actions import ActionKind, predict
from game.rules.engine import new_game
from game.rules.hidden import HiddenCards
from game.rules.house_rules import WizardRules
from game.rules.search import HiddenSampler
from game.rules.view import PlayerView, WizardView
from game.rules.wizard import WizardState

__all__ = [
    "BID_FIT_TRIES",
    "PLAY_FIT_TRIES",
    "PlayFitter",
    "bid_misfit",
    "draw_wizard_hands",
    "guess_face_down_bids",
    "others_have_played",
]

BID_FIT_TRIES = 8  # Wizard: hidden-card draws tried per world for hands that fit the bids seen
# Best of 4 fitted draws beat both none and best of 12 (whose worlds cost too much for the time
# cap); those measurements and the variants tried and not kept: docs/BENCHMARKS.md, "Wizard worlds fitted
# to bids and play".
PLAY_FIT_TRIES = 4  # Wizard, in play: bid-fitted worlds tried per world for hands that explain the cards played


def draw_wizard_hands(view: PlayerView, sampler: HiddenSampler, rng: random.Random) -> HiddenCards:
    """One world's hidden cards for a Wizard view: hands that fit the bids
    the other seats have shown, and face-down bids guessed from the hands.

    A bid says much about a hand (a seat that bid 3 of 4 tricks most likely
    holds Wizards or high trumps), and uniform draws ignore it. Up to
    ``BID_FIT_TRIES`` draws are made and the first is kept whose hands the
    medium player's estimate (before it weighs the bids it saw) rounds to
    the bids the seats made, else the one that misses them by least: the
    medium player stands for how a player judges a hand. Each seat's hand
    is read as dealt: the cards it holds in the draw plus those it has
    played this round."""
    if not isinstance(view, WizardView):
        return sampler.sample(rng)
    played = view.cards_played_by_seat()  # the same for every draw of this view
    return _draw_bid_fitted(view, sampler, rng, played)


def _draw_bid_fitted(
    view: WizardView, sampler: HiddenSampler, rng: random.Random, played: list[list[int]]
) -> HiddenCards:
    """``draw_wizard_hands`` for a Wizard view whose played cards the caller has read."""
    shown = [seat for seat, bid in enumerate(view.predictions) if seat != view.seat and bid >= 0]
    best = _fewest_misses(
        lambda: sampler.sample(rng),
        lambda hidden, _bound: bid_misfit(view, hidden, shown, played),
        BID_FIT_TRIES if shown else 1,
    )
    return guess_face_down_bids(view, best, played)


def _fewest_misses(
    draw: Callable[[], HiddenCards], misfit: Callable[[HiddenCards, float], float], tries: int
) -> HiddenCards:
    """Of up to ``tries`` draws, the first that ``misfit`` finds nothing
    wrong with, else the one it finds least wrong with. ``misfit(hidden,
    bound)`` may stop counting at ``bound``, the best so far: a draw that
    reaches it is not kept anyway."""
    best = draw()
    best_miss = misfit(best, math.inf)
    for _ in range(1, tries):
        if best_miss == 0:
            break
        hidden = draw()
        miss = misfit(hidden, best_miss)
        if miss < best_miss:
            best, best_miss = hidden, miss
    return best


def _dealt(hidden: HiddenCards, played: list[list[int]], seat: int) -> list[int]:
    """``seat``'s hand as dealt this round: held in the draw plus played."""
    return list(hidden.hands[seat]) + played[seat]


def bid_misfit(
    view: WizardView, hidden: HiddenCards, seats: Sequence[int], played: list[list[int]] | None = None
) -> float:
    """How far the medium player's estimates for the drawn hands of ``seats``
    are from the bids those seats made: 0 when every estimate rounds to the
    bid, else the summed squares of the distances beyond that. ``played``:
    the view's ``cards_played_by_seat()``, when the caller has it already."""
    if not seats:
        return 0.0
    played = view.cards_played_by_seat() if played is None else played
    cards_each, players = view.tricks_per_hand, view.num_players
    miss = 0.0
    for seat in seats:
        estimate = expected_tricks(_dealt(hidden, played, seat), view.trump, players, cards_each)
        distance = max(0.0, abs(estimate - view.predictions[seat]) - 0.5)
        miss += distance * distance
    return miss


def guess_face_down_bids(view: PlayerView, hidden: HiddenCards, played: list[list[int]] | None = None) -> HiddenCards:
    """``hidden`` with each face-down bid replaced by the bid a medium player
    would have made with that seat's sampled cards (held now or played this
    round): the rollout players aim at their bids, so a uniformly random bid
    would make them play nothing like the real table. ``played``: as for
    ``bid_misfit``."""
    if not hidden.bids or not isinstance(view, WizardView):
        return hidden
    played = view.cards_played_by_seat() if played is None else played
    cards_each = view.tricks_per_hand
    bids = {}
    for seat in hidden.bids:
        estimate = expected_tricks(_dealt(hidden, played, seat), view.trump, view.num_players, cards_each)
        bids[seat] = rounded_bid(estimate, cards_each)
    return HiddenCards(hands=hidden.hands, kitty=hidden.kitty, discards=hidden.discards, bids=bids)


class PlayFitter:
    """Draws the worlds of one Wizard view in play: like
    ``draw_wizard_hands``, and the best of up to ``tries`` such worlds at
    explaining the cards the others chose this round (``misfit``): the first
    that explains them all, else the one that misses fewest. Worth using
    only once another seat has chosen a card this round (see
    ``others_have_played``): before that every world explains everything.

    One fitter serves every world of one decision: it reads the view's
    played cards once, and deals the round afresh through the rules only
    for its first guess, then deals the same round start again with each
    guess's hands (``WizardState.redealt``)."""

    def __init__(self, view: WizardView, tries: int = PLAY_FIT_TRIES) -> None:
        rules = view.rules
        if not isinstance(rules, WizardRules):
            raise TypeError(f"a Wizard view carries WizardRules, not {type(rules).__name__}")
        self.rules = rules
        self.view = view
        self.tries = tries
        self.played = view.cards_played_by_seat()
        self._round_start: WizardState | None = None

    def draw(self, view: PlayerView, sampler: HiddenSampler, rng: random.Random) -> HiddenCards:
        """A ``DrawHidden`` for the search: one world's hidden cards."""
        if view is not self.view:
            raise ValueError("a PlayFitter draws worlds for the view it was made for only")
        return _fewest_misses(lambda: _draw_bid_fitted(self.view, sampler, rng, self.played), self.misfit, self.tries)

    def misfit(self, hidden: HiddenCards, stop_at: float = math.inf) -> int:
        """How many of the cards the other seats chose this round (from more
        than one legal card) the medium player would not have played, had
        the seats held the hands ``hidden`` gives them (its cards now plus
        those played since the deal). The round is dealt with those hands and
        replayed action by action through the rules; face-down bids are the
        guesses in ``hidden``. 0 for the real hands of medium players.

        The count stops at ``stop_at``, for a caller that only asks whether
        it is below that."""
        view, played = self.view, self.played
        hands = [
            [*(view.hand if seat == view.seat else hidden.hands[seat]), *played[seat]]
            for seat in range(view.num_players)
        ]
        state = self._deal(hands)
        tracker: RoundTracker | None = None
        misses = 0
        for seat, action in view.actions:
            if action is None:  # a bid still face down for this seat
                action = predict(hidden.bids[seat])
            if action.kind != ActionKind.PLAY:
                state.apply_in_place(action, None, check=False)
                continue
            if seat != view.seat:
                legal = state.legal_cards()
                if len(legal) > 1:
                    if tracker is None:
                        tracker = RoundTracker(state)
                    if card_to_play(tracker.table(state, seat, legal)) != action.value:
                        misses += 1
                        if misses >= stop_at:
                            return misses
            state.apply_in_place(action, None, check=False)
            if tracker is not None:
                tracker.saw(state, seat, action.value)
        return misses

    def _deal(self, hands: list[list[int]]) -> WizardState:
        """The round at its deal, before any action, with ``hands`` dealt."""
        if self._round_start is not None:
            return self._round_start.redealt(hands)
        view = self.view
        state, _ = new_game(
            self.rules,
            view.num_players,
            0,
            first_dealer=view.dealer,
            start_deal=view.round_number,
            fixed_deals={view.round_number: (hands, view.turn_up)},
            start_scores=view.start_scores,
        )
        if not isinstance(state, WizardState):
            raise TypeError(f"a Wizard view's rules dealt a {type(state).__name__}")
        self._round_start = state.copy()
        return state


def others_have_played(view: WizardView) -> bool:
    """Whether a seat other than the view's has played a card this round."""
    return any(
        action is not None and action.kind == ActionKind.PLAY and seat != view.seat for seat, action in view.actions
    )
