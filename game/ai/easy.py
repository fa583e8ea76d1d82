"""The "easy" computer players: the medium players with a beginner's mistakes."""

from __future__ import annotations

# An easy player makes the decisions a medium player makes, but errs the way a
# casual human does, with every mistake drawn from the RNG it is handed:
#
# * it misjudges its hand when bidding: each bid or prediction is made on the
#   medium player's estimate moved by a random bias (books in Bid Whist, tricks
#   in Wizard), so it sometimes overbids and sometimes passes up a good hand;
# * in play it sometimes (``MISTAKE_RATE`` of its card choices) plays another
#   legal card than the medium player would: a card a person might pick in a
#   hurry, so it follows suit when it can even where the house rules would let
#   a renege through.
#
# The contract, the trump choice and the discard stay the medium player's: a
# beginner knows its long suit. Like every computer player it is stateless and
# pure: the same view and RNG state give the same action, and it decides from
# the seat's view alone.

import random
from abc import ABC, abstractmethod
from typing import Generic

from game.ai import ComputerPlayer
from game.ai.bidwhist_medium import BidWhistMediumPlayer, choose_bid
from game.ai.hand_eval import EFFECTIVE
from game.ai.medium import ViewT
from game.ai.wizard_medium import WizardMediumPlayer, choose_prediction
from game.rules.actions import Action, ActionKind
from game.rules.cards import NO_SUIT
from game.rules.core import Phase
from game.rules.view import BidWhistView, PlayerView, WizardView

MISTAKE_RATE = 0.2  # share of card choices where a different card is played
BIDWHIST_BIAS_BOOKS = 1.2  # spread (standard deviation) of the misjudged team books
WIZARD_BIAS_TRICKS = 0.9  # spread of the misjudged trick count


class EasyPlayer(ABC, Generic[ViewT]):
    """A medium player whose bids are misjudged and whose play slips.

    Subclasses name their view type and say how a biased bid is made and
    which other cards are plausible slips."""

    view_type: type[ViewT]

    def __init__(self, medium: ComputerPlayer, bias_spread: float, bidding_phase: Phase) -> None:
        self.medium = medium
        self.bias_spread = bias_spread
        self.bidding_phase = bidding_phase

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        legal = view.legal_actions
        if len(legal) <= 1:
            return self.medium.choose(view, rng)  # nothing to decide (or the medium's error)
        if view.phase == self.bidding_phase:
            if not isinstance(view, self.view_type):
                raise TypeError(
                    f"{type(self).__name__} plays from a {self.view_type.__name__}, not a {type(view).__name__}"
                )
            bias = rng.gauss(0.0, self.bias_spread)
            action = self.biased_bid(view, rng, bias)
            return action if action in legal else self.medium.choose(view, rng)
        if view.phase == Phase.PLAY and rng.random() < MISTAKE_RATE:
            best = self.medium.choose(view, rng)
            slips = [a for a in self.plausible_cards(view) if a != best]
            return rng.choice(slips) if slips else best
        return self.medium.choose(view, rng)

    @abstractmethod
    def biased_bid(self, view: ViewT, rng: random.Random, bias: float) -> Action:
        """The medium bid made on an estimate moved by ``bias``."""

    def plausible_cards(self, view: PlayerView) -> list[Action]:
        """The cards a hurried player might pick instead: any legal card."""
        return [a for a in view.legal_actions if a.kind == ActionKind.PLAY]


# ``BidWhistEasyPlayer`` and ``WizardEasyPlayer`` are the factories the
# registry names for the level "easy".
class BidWhistEasyPlayer(EasyPlayer[BidWhistView]):
    view_type = BidWhistView

    def __init__(self) -> None:
        super().__init__(BidWhistMediumPlayer(), BIDWHIST_BIAS_BOOKS, Phase.BID)

    def biased_bid(self, view: BidWhistView, rng: random.Random, bias: float) -> Action:
        return choose_bid(view, rng, bias)

    def plausible_cards(self, view: PlayerView) -> list[Action]:
        """Legal cards, of the suit led when the hand holds it: a slip, not a renege."""
        cards = super().plausible_cards(view)
        led = view.led_suit
        if led == NO_SUIT:
            return cards
        effective = EFFECTIVE[view.trump]
        following = [a for a in cards if effective[a.value] == led]
        return following or cards


class WizardEasyPlayer(EasyPlayer[WizardView]):
    view_type = WizardView

    def __init__(self) -> None:
        super().__init__(WizardMediumPlayer(), WIZARD_BIAS_TRICKS, Phase.PREDICT)

    def biased_bid(self, view: WizardView, rng: random.Random, bias: float) -> Action:
        return choose_prediction(view, rng, bias)
