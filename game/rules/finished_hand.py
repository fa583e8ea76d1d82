"""Every card of a hand, face up, once the hand is over: the hand's review."""

from __future__ import annotations

# While a hand is played each seat sees only its own cards (``view``), the
# kitty only its taker and the discards only the declarer. Once the hand is
# scored the players may turn every hand over and look back at it, as people
# at a real table do; ``finished_hand`` is that moment. It refuses a hand still
# in play (``HandInProgressError``), so whoever serves it (the table today, a
# network session later) can hand it to a seat only when the hand is over.
#
# It is read from the finished state and nothing else: the hands as dealt
# (what each seat played, what it still holds after a thrown-in deal, and for
# the declarer the kitty taken in and the cards laid away), the kitty, the
# discards, the turned-up card and the tricks with who took each.

from dataclasses import dataclass
from typing import Any

from game.rules.core import Phase
from game.rules.cards import Card, Cards
from game.rules.errors import RulesError
from game.rules.view import TrickRecord


class HandInProgressError(RulesError, ValueError):
    """The hand is not over: its hidden cards are still secret."""


@dataclass(frozen=True)
class FinishedHand:
    """A finished hand with every card face up.

    ``hands[seat]`` is every card the seat was dealt; ``kitty``
    the kitty as dealt and ``discards`` the cards the declarer laid away in
    the order laid (both empty in a game without a kitty, and the discards
    empty when no contract was played). ``turn_up`` is the card turned up for
    trump (-1 for none), ``trump`` the trump suit played (-1 for none) and
    ``direction`` the Bid Whist ranking (0 uptown, 1 downtown, -1 none).
    ``tricks`` are the hand's tricks in order, each with its leader and who
    took it; ``redeal`` is true for a Bid Whist deal thrown in unplayed.
    """

    game: str
    deal_number: int
    dealer: int
    hands: tuple[Cards, ...]
    tricks: tuple[TrickRecord, ...]
    tricks_won: tuple[int, ...]
    trump: int
    kitty: Cards = ()
    discards: Cards = ()
    declarer: int = -1
    direction: int = -1
    turn_up: Card = -1
    redeal: bool = False

    def winning_cards(self, seat: int) -> tuple[int, ...]:
        """The cards ``seat`` took its tricks with, trick by trick."""
        return tuple(dict(record.plays)[seat] for record in self.tricks if record.winner == seat)


def finished_hand(state: Any) -> FinishedHand:
    """The hand ``state`` has just finished, every card face up.

    Raises ``HandInProgressError`` unless the hand is scored (the state's
    phase is ``HAND_OVER`` or ``GAME_OVER``)."""
    if state.phase not in (Phase.HAND_OVER, Phase.GAME_OVER):
        raise HandInProgressError("the hand is still being played: its cards are not shown yet")
    hand: FinishedHand = state.finished_hand()
    return hand


def played_by_seat(state: Any) -> list[list[int]]:
    """Per seat, the cards it played this hand, in the order played."""
    played: list[list[int]] = [[] for _ in range(state.num_players)]
    for record in state.tricks:
        for seat, card in record.plays:
            played[seat].append(card)
    return played
