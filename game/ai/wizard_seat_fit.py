"""The expert Wizard player's worlds: hands fitted to the bids and the cards played one seat at a time."""

from __future__ import annotations

# The hard player's worlds (``wizard_worlds``) redraw whole worlds: the best
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
#
# Everything here reads the view and the draws only: nothing can peek.

import random
from collections.abc import Sequence
from dataclasses import dataclass

from game.ai.medium import seats_after
from game.ai.wizard_medium import (
    ALL_SUIT_CARDS,
    WIZARDS_IN_DECK,
    WizardTable,
    card_mask,
    card_to_play,
    expected_tricks,
)
from game.ai.wizard_rollout import RoundTracker
from game.ai.wizard_worlds import PlayFitter, draw_wizard_hands
from game.rules.actions import ActionKind
from game.rules.cards import JESTER, NO_SUIT, SUIT_OF, WIZARD, WIZARD_DECK
from game.rules.core import Phase
from game.rules.hidden import HiddenCards
from game.rules.search import HiddenSampler
from game.rules.view import PlayerView, WizardView
from game.rules.wizard import led_suit_of

__all__ = ["SEAT_TRIES", "SeatFitter"]

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
        self._whole_world: PlayFitter | None = None
        if not self.face_down and view.phase == Phase.PLAY and _others_chose(view):
            self._whole_world = PlayFitter(view, 1)
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
            legal = _legal_cards(held, turn.trick_cards)
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
        )

    def _read_turns(self) -> dict[int, list[_Turn]]:
        """Per other seat, what the table showed it at each card it chose this round: read by
        replaying the round once through the rules (the hands dealt for it are the seat's own and,
        for the others, any cards: only public facts are read)."""
        view, fitter = self.view, self._whole_world
        assert fitter is not None
        pool = _unseen_cards(view, self.played)
        hands = []
        for seat in range(view.num_players):
            if seat == view.seat:
                hands.append([*view.hand, *self.played[seat]])
                continue
            size = view.hand_sizes[seat]
            hands.append([*pool[:size], *self.played[seat]])
            del pool[:size]
        state = fitter._deal(hands)
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


def _others_chose(view: WizardView) -> bool:
    return any(
        action is not None and action.kind == ActionKind.PLAY and seat != view.seat for seat, action in view.actions
    )


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


def _legal_cards(hand: list[int], trick: Sequence[int]) -> list[int]:
    """The cards of ``hand`` that may be played to ``trick``, in the order the rules list them."""
    if trick:
        first = trick[0]
        led = SUIT_OF[first] if first != JESTER else led_suit_of(trick)
        if led != NO_SUIT:
            follow = [card for card in hand if SUIT_OF[card] == led]
            if follow:
                if WIZARD in hand:
                    follow.append(WIZARD)
                if JESTER in hand:
                    follow.append(JESTER)
                return follow
    return list(dict.fromkeys(hand)) if hand.count(WIZARD) > 1 or hand.count(JESTER) > 1 else hand[:]
