"""What one seat may see of a game: the player's view.

Computer players and the table UI both work from a ``PlayerView``; it never
holds another player's hidden cards or a hidden bid, so a computer opponent
cannot peek. Both games share the class; fields that belong to one game only
are ``None`` (or empty) in the other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from game.rules.actions import Action
from game.rules.core import Phase


@dataclass(frozen=True)
class TrickRecord:
    leader: int
    plays: tuple[tuple[int, int], ...]  # (seat, card) in the order played
    winner: int


@dataclass(frozen=True)
class PlayerView:
    game: str
    rules: Any
    num_players: int
    seat: int
    phase: Phase
    current_player: int          # -1 when nobody is to act (hand over, game over)
    dealer: int
    deal_number: int
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    trick: tuple[tuple[int, int], ...]   # the trick in progress, (seat, card)
    trick_leader: int
    tricks: tuple[TrickRecord, ...]      # this hand's completed tricks
    tricks_won: tuple[int, ...]          # per seat, this hand
    scores: tuple[int, ...]              # Bid Whist per team, Wizard per seat
    legal_actions: tuple[Action, ...]    # empty unless this seat is to act
    # Bid Whist
    bids: tuple[tuple[int, Action | None], ...] = ()  # (seat, bid); None = hidden from this seat
    declarer: int = -1
    contract_books: int = 0
    contract_mode: int = -1       # BidMode, -1 before bidding ends
    trump: int = -1               # suit, or -1 for none / not yet known
    direction: int = -1           # 0 uptown, 1 downtown, -1 not yet known
    books: tuple[int, ...] = ()   # per team, kitty book included
    kitty: tuple[int, ...] = ()   # known only to the declarer once taken
    discards: tuple[int, ...] = ()  # known only to the declarer
    # Wizard
    round_number: int = 0
    cards_per_player: int = 0
    turn_up: int = -1             # card id, or -1 when none
    trump_pending: bool = False   # a Wizard was turned up and the dealer has not chosen yet
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def my_turn(self) -> bool:
        return self.current_player == self.seat

    def played_cards(self) -> list[int]:
        """Every card seen played this hand (completed tricks and the current one)."""
        cards = [card for record in self.tricks for _, card in record.plays]
        cards.extend(card for _, card in self.trick)
        return cards
