"""The medium Wizard player as a search's rollout: the same decisions, faster."""

from __future__ import annotations

# The hard player plays every simulated round out with the medium players
# (``search_pimc``), and in the long rounds that is nearly all of its thinking
# time: the medium player's card choice is most of a simulated move, and most
# of that went into rebuilding, from a fresh view, what the seat knows (the
# cards it has seen, the voids shown) for every move. ``WizardRolloutPlayer``
# plays the round out instead with a ``RoundTracker`` that keeps this knowledge
# up to date card by card and hands the medium player's card choice
# (``card_to_play``) the same ``WizardTable`` a view would give.
#
# What the tracker keeps is what every seat sees: the cards played, the
# turn-up, the suits shown void (every failure to follow in Wizard proves a
# void: there is no renege), and each seat's own hand. The bids each seat may
# see are read once, as play begins, from the rules (``bids_visible_to``); they
# do not change during play. So a seat decides from its own view's knowledge
# and no more: a test checks that at every simulated move its card equals the
# medium player's choice from ``state.view(seat)``.
#
# Bids and the trump choice of a simulated round go through the medium player
# and a view as before (a handful per round). No card choice draws on the RNG,
# so a rollout consumes it exactly as the view-by-view loop did and a search
# gives the same result either way. ``UnsureRolloutPlayer`` (an expert
# setting, off) does draw on it, in the same order on either path.

import random
from typing import Any

from game.ai.medium import seats_after
from game.ai.search_pimc import HAND_ENDS, play_one_move
from game.ai.wizard_medium import (
    ALL_SUIT_CARDS,
    CARD_BIT,
    WIZARDS_IN_DECK,
    WizardMediumPlayer,
    WizardTable,
    card_mask,
    card_to_play,
)
from game.rules.actions import play
from game.rules.cards import WIZARD, WIZARD_DECK
from game.rules.core import Phase

__all__ = ["MediumCards", "RoundTracker", "UnsureRolloutPlayer", "WizardRolloutPlayer"]

_NO_VOIDS: frozenset[int] = frozenset()


class RoundTracker:
    """What each seat knows of a round in play, kept up to date card by card
    (``saw``) for a simulated round. A seat's hand and the bids it may see
    are read when it first has a card to choose: near the end of a round most
    moves are forced, and a rollout from there should not pay for them."""

    __slots__ = ("public_seen", "public_wizards", "public_count", "hand_masks", "voids", "failures_read", "predictions")

    def __init__(self, state: Any) -> None:
        played = [action.value for _, action in state.hand_plays]
        if state.turn_up >= 0:
            played.append(state.turn_up)
        self.public_seen = card_mask(played)  # suit cards every seat has seen
        self.public_wizards = played.count(WIZARD)
        self.public_count = len(played)
        seats = state.num_players
        self.hand_masks: list[int | None] = [None] * seats
        self.predictions: list[tuple[int, ...] | None] = [None] * seats
        self.voids: list[frozenset[int]] = [_NO_VOIDS] * seats
        self.failures_read = 0
        self._read_failures(state)

    def _read_failures(self, state: Any) -> None:
        failures = state.follow_failures
        for _, seat, led in failures[self.failures_read :]:
            self.voids[seat] = self.voids[seat] | {led}
        self.failures_read = len(failures)

    def table(self, state: Any, seat: int, legal: list[int]) -> WizardTable:
        """What ``seat``, to play now, knows: the ``WizardTable`` its view would give."""
        hand = state.hands[seat]
        hand_mask = self.hand_masks[seat]
        if hand_mask is None:
            hand_mask = self.hand_masks[seat] = card_mask(hand)
        predictions = self.predictions[seat]
        if predictions is None:
            # Fixed during play: hidden bids stay hidden, revealed ones shown.
            predictions = self.predictions[seat] = state.bids_visible_to(seat)
        trick_cards = tuple(state.trick)
        later = seats_after(seat, state.num_players, len(trick_cards))
        hands = state.hands
        return WizardTable(
            seat=seat,
            trump=state.trump,
            tricks_left=len(hand),
            legal=legal,
            trick_cards=trick_cards,
            trick_seats=state.trick_seats,
            later=later,
            unseen=ALL_SUIT_CARDS & ~(self.public_seen | hand_mask),
            unseen_wizards=WIZARDS_IN_DECK - self.public_wizards - hand.count(WIZARD),
            unseen_total=max(1, len(WIZARD_DECK) - self.public_count - len(hand)),
            voids=self.voids,
            held_by_later=sum([len(hands[s]) for s in later]),
            predictions=predictions,
            tricks_won=state.tricks_won,
            hand=hand,
        )

    def saw(self, state: Any, seat: int, card: int) -> None:
        """``seat`` has just played ``card`` (and ``state`` has moved on)."""
        bit = CARD_BIT[card]
        self.public_seen |= bit
        hand_mask = self.hand_masks[seat]
        if hand_mask is not None:
            self.hand_masks[seat] = hand_mask & ~bit
        self.public_count += 1
        if card == WIZARD:
            self.public_wizards += 1
        if len(state.follow_failures) != self.failures_read:
            self._read_failures(state)


class MediumCards:
    """The medium player's card for whichever seat is to play in a round in play, every card
    played told to it (``saw``), as a ``RoundTracker`` keeps a simulated round."""

    def __init__(self, state: Any) -> None:
        self._tracker = RoundTracker(state)

    def card(self, state: Any) -> int:
        return card_to_play(self._tracker.table(state, state.current, state.legal_cards()))

    def saw(self, state: Any, seat: int, card: int) -> None:
        self._tracker.saw(state, seat, card)


class WizardRolloutPlayer(WizardMediumPlayer):
    """The medium Wizard player, with a faster way to play a simulated round out."""

    def medium_cards(self, state: Any) -> MediumCards:
        """Its card choices from ``state`` on without a view a move (``EndgamePlayOut``'s ties)."""
        return MediumCards(state)

    def _card(self, table: WizardTable, rng: random.Random) -> int:
        """The card of a simulated seat with a choice (the medium player's: no RNG drawn)."""
        return card_to_play(table)

    def _card_in(self, state: Any, table: WizardTable, rng: random.Random) -> int:
        """The card ``_card`` chooses, for a play-out that may also read the simulated ``state``."""
        return self._card(table, rng)

    def play_out(self, state: Any, rng: random.Random) -> None:
        """Play ``state`` on to the end of the round, every seat as the medium
        player (the search's ``play_out`` hands the round here)."""
        self.play_out_until(state, rng, 0)

    def play_out_until(self, state: Any, rng: random.Random, tricks_left: int) -> None:
        """Play ``state`` on as ``play_out`` does, but stop in the play once at most
        ``tricks_left`` tricks are unfinished (0: play to the round's end);
        ``EndgamePlayOut`` then plays the rest perfectly."""
        tracker: RoundTracker | None = None
        while state.phase not in HAND_ENDS:
            if state.phase != Phase.PLAY:
                play_one_move(state, self, rng)  # a bid or a trump choice: through a view
                continue
            if tricks_left and max(len(hand) for hand in state.hands) <= tricks_left:
                return
            seat = state.current
            legal = state.legal_cards()
            if len(legal) == 1:
                card = legal[0]
            else:
                if tracker is None:  # the first choice of the round's play: catch up once
                    tracker = RoundTracker(state)
                card = self._card_in(state, tracker.table(state, seat, legal), rng)
            state.apply_in_place(play(card), None, check=False)
            if tracker is not None:
                tracker.saw(state, seat, card)


class UnsureRolloutPlayer(WizardRolloutPlayer):
    """The medium player's play-outs, except that every seat but ``seat`` (the one deciding), when it
    has a choice of card, plays one drawn at random from its legal cards ``unsure`` of the time: the
    searching player is not sure the others play as the medium player does."""

    def __init__(self, seat: int, unsure: float) -> None:
        super().__init__()
        self.seat = seat
        self.unsure = unsure

    def choose(self, view: Any, rng: random.Random) -> Any:
        action = super().choose(view, rng)
        legal = view.legal_actions
        if view.phase == Phase.PLAY and view.seat != self.seat and len(legal) > 1 and rng.random() < self.unsure:
            return rng.choice(legal)
        return action

    def _card(self, table: WizardTable, rng: random.Random) -> int:
        card = card_to_play(table)
        if table.seat != self.seat and rng.random() < self.unsure:
            return rng.choice(table.legal)
        return card
