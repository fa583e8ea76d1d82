"""The worlds the hard and expert Wizard players simulate: hidden hands that fit the bids
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
from dataclasses import dataclass

from game.ai.medium import seats_after
from game.ai.wizard_medium import (
    ALL_SUIT_CARDS,
    WIZARDS_IN_DECK,
    WizardTable,
    card_mask,
    card_to_play,
    expected_tricks,
    rounded_bid,
)
from game.ai.wizard_rollout import RoundTracker
from game.rules.actions import ActionKind, predict
from game.rules.cards import NO_SUIT, SUIT_OF, WIZARD, WIZARD_DECK
from game.rules.core import Phase
from game.rules.engine import new_game
from game.rules.hidden import HiddenCards
from game.rules.house_rules import WizardRules
from game.rules.search import HiddenSampler
from game.rules.view import PlayerView, WizardView
from game.rules.wizard import WizardState, legal_cards_of

__all__ = [
    "BID_FIT_TRIES",
    "PLAY_FIT_TRIES",
    "PlayFitter",
    "SEAT_TRIES",
    "SeatFitter",
    "bid_misfit",
    "draw_wizard_hands",
    "guess_face_down_bids",
    "others_have_played",
    "round_at_deal",
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
        state = round_at_deal(self.view, hands)
        self._round_start = state.copy()
        return state


def round_at_deal(view: WizardView, hands: list[list[int]]) -> WizardState:
    """The round of ``view`` at its deal, before any action, with ``hands`` dealt (each seat's
    cards now and those it played since)."""
    rules = view.rules
    if not isinstance(rules, WizardRules):
        raise TypeError(f"a Wizard view carries WizardRules, not {type(rules).__name__}")
    state, _ = new_game(
        rules,
        view.num_players,
        0,
        first_dealer=view.dealer,
        start_deal=view.round_number,
        fixed_deals={view.round_number: (hands, view.turn_up)},
        start_scores=view.start_scores,
    )
    if not isinstance(state, WizardState):
        raise TypeError(f"a Wizard view's rules dealt a {type(state).__name__}")
    return state


def others_have_played(view: WizardView) -> bool:
    """Whether a seat other than the view's has played a card this round."""
    return any(
        action is not None and action.kind == ActionKind.PLAY and seat != view.seat for seat, action in view.actions
    )


# ---------------------------------------------------------------- seat by seat (the expert player's)
# The hard player's worlds (above) are whole worlds redrawn: the best
# of 8 uniform draws at explaining the bids, and in play the best of 4 such
# worlds at explaining the cards played, each judged by replaying the round
# through the rules. Whole worlds rarely fit every seat at once, so nearly
# every world costs all 4 x 8 draws and 4 replays: about half of a decision's
# time. Yet each part of the misfit reads one seat's hand alone: the medium
# player's estimate of the bid it made, and the card it would have played at
# each of its turns, which hangs on its own hand and on what the whole table
# saw (the trick, the cards seen, the voids shown, the bids, the tricks won).
# ``SeatFitter`` therefore reads, once per decision, what the table saw at
# each turn of the other seats this round (``_Turn``), and draws the hands
# seat by seat: each seat's hand is drawn from the cards no seat kept before
# it (respecting its voids) until one fits its bid and every card it chose,
# or ``tries`` are spent and the best is kept. Like Bid Whist's seat-by-seat
# fit, a seat's hand is kept without asking how well the cards left can fit
# the later seats. Rounds with face-down bids go to the whole-world fitters.
# Measured at the expert's 0.9 s (round 10 after 1, 3 and 6 tricks, 10
# decisions each, the two run in turn): 17 to 27% more simulations a decision
# than with ``PlayFitter``, and worlds that miss less (1.4 cards and 0.35 of
# bid a world against 2.1 and 0.50).

SEAT_TRIES = 8  # hands drawn per seat for one that fits its bid and its cards; else the best is kept
RESTARTS = 3  # fresh starts when the seats drawn first left a later seat too few cards it may hold


@dataclass(frozen=True)
class _Turn:
    """What the table showed one other seat when it chose a card this round (from its own
    hand aside): enough to rebuild the ``WizardTable`` the medium player would have read."""

    seat: int
    played_before: int  # how many cards this seat had played this round
    card: int  # the card it chose
    trick_cards: tuple[int, ...]
    trick_seats: tuple[int, ...]
    public_seen: int
    public_wizards: int
    public_count: int
    voids: tuple[frozenset[int], ...]
    held_by_later: int
    predictions: tuple[int, ...]
    tricks_won: tuple[int, ...]


class SeatFitter:
    """Draws the worlds of one Wizard view seat by seat (see the module comment); one fitter
    serves every world of one decision."""

    def __init__(self, view: WizardView, tries: int = SEAT_TRIES) -> None:
        self.view = view
        self.tries = tries
        self.played = view.cards_played_by_seat()
        self.face_down = any(action is None for _, action in view.actions)
        self.bid_seats = [seat for seat, bid in enumerate(view.predictions) if seat != view.seat and bid >= 0]
        self.turns: dict[int, list[_Turn]] = {}
        if not self.face_down and view.phase == Phase.PLAY and others_have_played(view):
            self.turns = self._read_turns()
        self.pool = _unseen_cards(view, self.played)

    # ------------------------------------------------------------ drawing
    def draw(self, view: PlayerView, sampler: HiddenSampler, rng: random.Random) -> HiddenCards:
        """A ``DrawHidden`` for the search: one world's hidden cards."""
        if view is not self.view:
            raise ValueError("a SeatFitter draws worlds for the view it was made for only")
        if self.face_down or not isinstance(view, WizardView):
            return draw_wizard_hands(view, sampler, rng)
        for _ in range(RESTARTS):
            hands = self._draw_hands(rng)
            if hands is not None:
                return HiddenCards(hands=hands)
        return sampler.sample(rng)

    def _draw_hands(self, rng: random.Random) -> dict[int, tuple[int, ...]] | None:
        """Every other seat's hand, the fitted seats first (the most voids first), or None when a
        seat is left too few cards it may hold."""
        view = self.view
        others = [seat for seat in range(view.num_players) if seat != view.seat]
        judged = sorted(
            (s for s in others if s in self.bid_seats or s in self.turns), key=lambda s: -len(view.voids[s])
        )
        order = judged + sorted((s for s in others if s not in judged), key=lambda s: -len(view.voids[s]))
        pool = self.pool[:]
        hands: dict[int, tuple[int, ...]] = {}
        for seat in order:
            allowed = [i for i, card in enumerate(pool) if _may_hold(card, view.voids[seat])]
            size = view.hand_sizes[seat]
            if len(allowed) < size:
                return None
            best: list[int] = []
            best_miss = float("inf")
            for _ in range(self.tries if seat in judged else 1):
                picked = rng.sample(allowed, size)
                hand = [pool[i] for i in picked]
                miss = self.seat_misfit(seat, hand, best_miss)
                if miss < best_miss:
                    best, best_miss = picked, miss
                if miss == 0:
                    break
            hands[seat] = tuple(pool[i] for i in best)
            for i in sorted(best, reverse=True):
                pool[i] = pool[-1]
                pool.pop()
        return hands

    # ------------------------------------------------------------ judging
    def seat_misfit(self, seat: int, hand: Sequence[int], stop_at: float = float("inf")) -> float:
        """How badly ``hand`` (the cards ``seat`` holds now) explains what it showed: the squared
        distance of the medium player's estimate beyond rounding to its bid (as ``bid_misfit``), plus
        each card it chose this round from more than one legal card that the medium player would not
        have played (as ``PlayFitter.misfit``). Counting stops once ``stop_at`` is reached."""
        view = self.view
        dealt = [*hand, *self.played[seat]]
        miss = 0.0
        if seat in self.bid_seats:
            estimate = expected_tricks(dealt, view.trump, view.num_players, view.tricks_per_hand)
            distance = max(0.0, abs(estimate - view.predictions[seat]) - 0.5)
            miss = distance * distance
        for turn in self.turns.get(seat, ()):
            if miss >= stop_at:
                break
            held = dealt[:]
            for card in self.played[seat][: turn.played_before]:
                held.remove(card)
            legal = legal_cards_of(held, turn.trick_cards)
            if len(legal) > 1 and card_to_play(self._table(turn, held, legal)) != turn.card:
                miss += 1
        return miss

    def _table(self, turn: _Turn, held: list[int], legal: list[int]) -> WizardTable:
        """The ``WizardTable`` the medium player would read at ``turn`` holding ``held``."""
        return WizardTable(
            seat=turn.seat,
            trump=self.view.trump,
            tricks_left=len(held),
            legal=legal,
            trick_cards=turn.trick_cards,
            trick_seats=turn.trick_seats,
            later=seats_after(turn.seat, self.view.num_players, len(turn.trick_cards)),
            unseen=ALL_SUIT_CARDS & ~(turn.public_seen | card_mask(held)),
            unseen_wizards=WIZARDS_IN_DECK - turn.public_wizards - held.count(WIZARD),
            unseen_total=max(1, len(WIZARD_DECK) - turn.public_count - len(held)),
            voids=turn.voids,
            held_by_later=turn.held_by_later,
            predictions=turn.predictions,
            tricks_won=turn.tricks_won,
            hand=held,
        )

    def _read_turns(self) -> dict[int, list[_Turn]]:
        """Per other seat, what the table showed it at each card it chose this round: read by
        replaying the round once through the rules (the hands dealt for it are the seat's own and,
        for the others, any cards: only public facts are read)."""
        view = self.view
        pool = _unseen_cards(view, self.played)
        hands = []
        for seat in range(view.num_players):
            if seat == view.seat:
                hands.append([*view.hand, *self.played[seat]])
                continue
            size = view.hand_sizes[seat]
            hands.append([*pool[:size], *self.played[seat]])
            del pool[:size]
        state = round_at_deal(view, hands)
        tracker: RoundTracker | None = None
        counts = [0] * view.num_players
        turns: dict[int, list[_Turn]] = {}
        for seat, action in view.actions:
            assert action is not None  # no face-down bids here
            if action.kind != ActionKind.PLAY:
                state.apply_in_place(action, None, check=False)
                continue
            if tracker is None:
                tracker = RoundTracker(state)
            if seat != view.seat:
                later = seats_after(seat, view.num_players, len(state.trick))
                turns.setdefault(seat, []).append(
                    _Turn(
                        seat=seat,
                        played_before=counts[seat],
                        card=action.value,
                        trick_cards=tuple(state.trick),
                        trick_seats=tuple(state.trick_seats),
                        public_seen=tracker.public_seen,
                        public_wizards=tracker.public_wizards,
                        public_count=tracker.public_count,
                        voids=tuple(tracker.voids),
                        held_by_later=sum(len(state.hands[s]) for s in later),
                        predictions=tuple(state.bids_visible_to(seat)),
                        tricks_won=tuple(state.tricks_won),
                    )
                )
            counts[seat] += 1
            state.apply_in_place(action, None, check=False)
            tracker.saw(state, seat, action.value)
        return turns


def _unseen_cards(view: WizardView, played: list[list[int]]) -> list[int]:
    """The cards this seat has not seen (Wizards and Jesters once for each copy)."""
    pool = list(WIZARD_DECK)
    seen = [*view.hand, *(card for cards in played for card in cards)]
    if view.turn_up >= 0:
        seen.append(view.turn_up)
    for card in seen:
        pool.remove(card)
    return pool


def _may_hold(card: int, voids: frozenset[int]) -> bool:
    suit = SUIT_OF[card]
    return suit == NO_SUIT or suit not in voids
