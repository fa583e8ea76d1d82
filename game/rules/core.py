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
    without its two method calls per card (``tests/test_rules_fast_path.py`` checks the two agree).
    """
    cards = list(deck)
    if type(rng) is not Random:  # a subclass may draw otherwise: let it shuffle
        rng.shuffle(cards)
        return cards
    getrandbits = rng.getrandbits
    for i, bits in _shuffle_steps(len(cards)):
        j = getrandbits(bits)  # below 2 ** bits; drawn again until at most i
        while j > i:
            j = getrandbits(bits)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


_STEPS: dict[int, tuple[tuple[int, int], ...]] = {}


def _shuffle_steps(size: int) -> tuple[tuple[int, int], ...]:
    """The steps of a shuffle of ``size`` cards: each index from the last down to 1 with
    the bit length of the number of places it may swap with (its own and those below)."""
    steps = _STEPS.get(size)
    if steps is None:
        steps = _STEPS[size] = tuple((i, (i + 1).bit_length()) for i in range(size - 1, 0, -1))
    return steps
