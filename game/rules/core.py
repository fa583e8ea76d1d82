"""What both games share: phases and seeded shuffles.

Randomness comes only from ``random.Random`` objects seeded from the game's
seed and a label (the deal number, the first-dealer draw), so a game is fully
determined by (rules, seed, actions) and nothing here touches the global RNG.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from random import Random  # a private generator class; the global RNG is never used


class Phase(IntEnum):
    BID = 0  # Bid Whist bidding
    CONTRACT = 1  # Bid Whist declarer names trump or no-trump direction
    DISCARD = 2  # Bid Whist declarer discards 6 after taking the kitty
    PLAY = 3
    HAND_OVER = 4  # the hand is scored; NEXT_DEAL deals the next one
    GAME_OVER = 5
    PREDICT = 6  # Wizard bidding
    TRUMP_CHOICE = 7  # Wizard: a Wizard was turned up, the dealer names trump

    @property
    def label(self) -> str:
        return self.name.lower()


def seeded_rng(seed: int | str, label: str) -> Random:
    """A private RNG for one purpose (``"deal 3"``, ``"first dealer"``) of one game.

    Seeding with a string is stable across Python runs and platforms, unlike
    ``hash()``, so a seed reproduces the same game everywhere.
    """
    return Random(f"tricktable:{seed}:{label}")


def shuffled(deck: Sequence[int], rng: Random) -> list[int]:
    """``deck`` in the order ``rng.shuffle`` puts it in, as a new list.

    Every deal shuffles, and whole games of random play (a search's, a
    benchmark's) deal thousands of times a second, so for a plain ``Random``
    the shuffle is done here with the same steps and the same draws as
    CPython's ``Random.shuffle`` (a Fisher-Yates pass drawing each index with
    ``_randbelow``: ``getrandbits`` of the bound's bit length until below it),
    without its two method calls per card. ``test_core`` checks the two agree.
    """
    cards = list(deck)
    if type(rng) is not Random:  # a subclass may draw otherwise: let it shuffle
        rng.shuffle(cards)
        return cards
    getrandbits = rng.getrandbits
    bits = _BIT_LENGTHS
    for i in range(len(cards) - 1, 0, -1):
        bound = i + 1
        k = bits[bound] if bound < _BIT_TABLE_SIZE else bound.bit_length()
        j = getrandbits(k)
        while j >= bound:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


# The bit length of every bound a deck of up to 64 cards shuffles with.
_BIT_TABLE_SIZE = 65
_BIT_LENGTHS = tuple(n.bit_length() for n in range(_BIT_TABLE_SIZE))
