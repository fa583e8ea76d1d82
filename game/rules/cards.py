"""Cards of both games as small integers, with their short string codes.

The engine's hot path (legal moves, apply, trick winner) works on plain ints
and lookup tuples because the search AI plays thousands of hands per decision;
the string codes of ``HAND_HISTORY.md`` (``AS``, ``TH``, ``BJ``, ``WZ``, ``JE``)
are for people, files and tests.
"""

from __future__ import annotations

# Encoding: a suit card is ``suit * 13 + (rank - 2)`` (0..51), then the big
# joker (52), the little joker (53), a Wizard (54) and a Jester (55). Wizard's
# four Wizards and four Jesters are alike, so the Wizard deck holds 54 and 55
# four times each.

from collections.abc import Iterable
from enum import IntEnum

from game.rules.errors import ParseError, short_repr


class Suit(IntEnum):
    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def letter(self) -> str:
        return SUIT_LETTERS[self]

    @property
    def label(self) -> str:
        return self.name.lower()


SUIT_LETTERS = "SHDC"
SUIT_LABELS = tuple(suit.name.lower() for suit in Suit)  # ``Suit(n).label``, read without an enum
RANK_LETTERS = "23456789TJQKA"  # index = rank - 2
ACE = 14

BIG_JOKER = 52
LITTLE_JOKER = 53
WIZARD = 54
JESTER = 55
# Annotations name a card as ``Card`` (an id above) so that readers of the dataclasses (the
# network's wire codec) can tell a card from another number by the annotation alone.
Card = int
Cards = tuple[Card, ...]
NO_SUIT = -1  # the suit of jokers, Wizards and Jesters

SUIT_CARDS = tuple(range(52))
BIDWHIST_DECK = SUIT_CARDS + (BIG_JOKER, LITTLE_JOKER)
WIZARD_DECK = SUIT_CARDS + (WIZARD,) * 4 + (JESTER,) * 4

# Lookup tables indexed by card id: faster than arithmetic in the hot path.
SUIT_OF: tuple[int, ...] = tuple(c // 13 for c in SUIT_CARDS) + (NO_SUIT,) * 4
RANK_OF: tuple[int, ...] = tuple(c % 13 + 2 for c in SUIT_CARDS) + (0,) * 4


def card_of(suit: int, rank: int) -> int:
    """The card id of a suit card (rank 2 to 14, the ace high): the inverse of SUIT_OF and RANK_OF."""
    return suit * 13 + rank - 2


_SPECIAL_CODES = {BIG_JOKER: "BJ", LITTLE_JOKER: "LJ", WIZARD: "WZ", JESTER: "JE"}
_CODES: tuple[str, ...] = tuple(RANK_LETTERS[c % 13] + SUIT_LETTERS[c // 13] for c in SUIT_CARDS) + tuple(
    _SPECIAL_CODES[c] for c in (BIG_JOKER, LITTLE_JOKER, WIZARD, JESTER)
)
_BY_CODE = {code: card for card, code in enumerate(_CODES)}
# "10H" is accepted as a friendly spelling of "TH" when parsing.
_BY_CODE.update({"10" + SUIT_LETTERS[s]: s * 13 + 8 for s in range(4)})


def card_code(card: int) -> str:
    """The short code of a card id, e.g. ``12`` -> ``"AS"``."""
    return _CODES[card]


def parse_card(code: str) -> int:
    """The card id of a short code such as ``"AS"``, ``"th"``, ``"BJ"``, ``"WZ"``.

    Anything that is not such a code, a non-string included, raises ``ParseError``."""
    if not isinstance(code, str):
        raise ParseError(f"{short_repr(code)} is not a card: a card is written as a code such as AS, TH, BJ")
    card = _BY_CODE.get(code.strip().upper())
    if card is None:
        raise ParseError(f"{short_repr(code)} is not a card: use rank then suit, like AS, TH, 2C, or BJ, LJ, WZ, JE")
    return card


def codes(cards: Iterable[int]) -> list[str]:
    return [_CODES[c] for c in cards]


def card_name(card: int) -> str:
    """A card's name in English words, for messages ("the ace of spades")."""
    if card == BIG_JOKER:
        return "the big joker"
    if card == LITTLE_JOKER:
        return "the little joker"
    if card == WIZARD:
        return "a Wizard"
    if card == JESTER:
        return "a Jester"
    rank_names = {11: "jack", 12: "queen", 13: "king", 14: "ace"}
    rank = RANK_OF[card]
    return f"the {rank_names.get(rank, str(rank))} of {Suit(SUIT_OF[card]).label}"


def display_suit_order(trump: int) -> dict[int, int]:
    """Position of each suit when a hand is laid out: black and red suits
    alternate (spades, hearts, clubs, diamonds) so neighbours are easy to
    tell apart, and the trump suit comes first without breaking the
    alternation."""
    order = [Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS]
    if trump in order:
        turn = order.index(Suit(trump))
        order = order[turn:] + order[:turn]
    return {int(suit): index for index, suit in enumerate(order)}
