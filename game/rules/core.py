"""What both games share: phases, events and seeded shuffles.

Randomness comes only from ``random.Random`` objects seeded from the game's
seed and a label (the deal number, the first-dealer draw), so a game is fully
determined by (rules, seed, actions) and nothing here touches the global RNG.
"""

from __future__ import annotations

from random import Random  # a private generator class; the global RNG is never used
from dataclasses import dataclass, field
from enum import Enum, IntEnum
from typing import Any, Mapping, Sequence


class Phase(IntEnum):
    BID = 0            # Bid Whist bidding
    CONTRACT = 1       # Bid Whist declarer names trump or no-trump direction
    DISCARD = 2        # Bid Whist declarer discards 6 after taking the kitty
    PLAY = 3
    HAND_OVER = 4      # the hand is scored; NEXT_DEAL deals the next one
    GAME_OVER = 5
    PREDICT = 6        # Wizard bidding
    TRUMP_CHOICE = 7   # Wizard: a Wizard was turned up, the dealer names trump

    @property
    def label(self) -> str:
        return self.name.lower()


class EventKind(str, Enum):
    FIRST_DEALER = "first_dealer"   # data: draw [(seat, card)], dealer
    DEAL = "deal"                   # data: number, dealer, hands, kitty, sequence, turn_up
    TRUMP_TURNED = "trump_turned"   # card; data: trump (suit or None), dealer_chooses
    BID = "bid"                     # seat; data: action (hidden bids carry action None for others)
    BIDS_REVEALED = "bids_revealed"  # data: bids [(seat, n)]
    REDEAL = "redeal"               # data: dealer
    CONTRACT = "contract"           # seat = declarer; data: books, mode, trump, direction
    TRUMP_CHOSEN = "trump_chosen"   # seat; data: trump
    KITTY_TAKEN = "kitty_taken"     # seat; data: cards
    DISCARD = "discard"             # seat, card
    CARD_PLAYED = "card_played"     # seat, card; data: renege
    TRICK_WON = "trick_won"         # seat = winner; data: leader, plays [(seat, card)], index
    HAND_SCORED = "hand_scored"     # data: the scored deal (game specific)
    GAME_OVER = "game_over"         # data: final_scores, winners


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, for the UI to animate and the history to record."""

    kind: EventKind
    seat: int = -1
    card: int = -1
    data: Mapping[str, Any] = field(default_factory=dict)


def seeded_rng(seed: int, label: str) -> Random:
    """A private RNG for one purpose (``"deal 3"``, ``"first dealer"``) of one game.

    Seeding with a string is stable across Python runs and platforms, unlike
    ``hash()``, so a seed reproduces the same game everywhere.
    """
    return Random(f"tricktable:{seed}:{label}")


def shuffled(deck: Sequence[int], rng: Random) -> list[int]:
    cards = list(deck)
    rng.shuffle(cards)
    return cards
