"""Which cards of the hand are gone: the table's played-cards panel."""

from __future__ import annotations

# Card players keep count of what has fallen (the trumps above all); the
# panel does it for them. ``played_cards(view)`` reads only what every seat
# sees (the cards played to the tricks, the turned-up card, the trump suit and
# the house rules) and never the viewer's own hand, a kitty or discards, so it
# is the same for every seat and shows nobody anything they could not have
# counted themselves.
#
# What counts as trump is the game's own rule (``GameDef.hidden_info``'s
# ``card_suit``): in Bid Whist the jokers join the trump suit of a trump
# contract, and in Wizard the Wizards and Jesters belong to no suit.

from collections import Counter
from dataclasses import dataclass

from game.rules.cards import SUIT_CARDS, SUIT_OF
from game.rules.registry import get_game
from game.rules.view import PlayerView

SUITS = (0, 1, 2, 3)


@dataclass(frozen=True)
class SuitTally:
    """One suit: its cards from the highest rank down, and those of them already played."""

    suit: int
    cards: tuple[int, ...]
    gone: frozenset[int]


@dataclass(frozen=True)
class PlayedCards:
    """What has fallen this hand, per suit and for the cards of no suit.

    ``specials`` are ``(card, played, in the deck)`` for the jokers, Wizards
    and Jesters of the deck in play. ``trump`` is the trump suit (-1: none, or
    not named yet); ``trumps`` how many cards are trump under it (the jokers
    with it in Bid Whist) and ``trumps_unplayed`` how many of them nobody has
    played or turned face up yet (both 0 without a trump).
    """

    suits: tuple[SuitTally, ...]
    specials: tuple[tuple[int, int, int], ...]
    trump: int
    trumps: int
    trumps_unplayed: int

    @property
    def has_trump(self) -> bool:
        return self.trump >= 0 and self.trumps > 0


def played_cards(view: PlayerView) -> PlayedCards:
    """The played-cards tally of the hand ``view`` shows, from its public part only."""
    game = get_game(view.game)
    deck = game.deck_for(view.rules)
    played = Counter(card for record in view.tricks for _, card in record.plays)
    played.update(card for _, card in view.trick)
    suits = tuple(
        SuitTally(
            suit,
            tuple(card for card in reversed(SUIT_CARDS) if SUIT_OF[card] == suit),
            frozenset(card for card in played if SUIT_OF[card] == suit),
        )
        for suit in SUITS
    )
    in_deck = Counter(deck)
    specials = tuple((card, played[card], count) for card, count in sorted(in_deck.items()) if SUIT_OF[card] < 0)
    trump = view.trump
    trumps = unplayed = 0
    if trump >= 0:
        suit_of = game.hidden_info.card_suit if game.hidden_info is not None else (lambda card, _: SUIT_OF[card])
        trump_cards = [card for card in deck if suit_of(card, trump) == trump]
        trumps = len(trump_cards)
        turn_up = getattr(view, "turn_up", -1)  # Wizard's turned-up card lies face up for all
        shown = played + Counter([turn_up] if turn_up >= 0 else [])
        unplayed = trumps - sum(min(shown[card], count) for card, count in Counter(trump_cards).items())
    return PlayedCards(suits, specials, trump, trumps, unplayed)
