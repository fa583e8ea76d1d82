"""What the table shows right now: the presentation model.

The live game state jumps from one position to the next as soon as an
action is applied; the table must not. A trick that has just been won has to
stay on the felt until it slides to its winner, a dealt card reaches its
owner only when its flight lands. ``TableModel`` is the picture the player
sees: the animation director (``game.ui.table.animations``) changes it event by
event as each animation starts or lands, and the table view draws only from
it. When every queued animation has finished the model is re-synchronised
with the live state, so the two can never drift apart for long.

The model holds every seat's cards (the deal event carries them) but the
view draws other seats' cards face down; what a seat may see is decided at
drawing time, which is what lets the hot-seat mode turn the table for the
next human.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from game.rules import ActionKind, BidMode, Phase
from game.rules.cards import SUIT_OF, RANK_OF


@dataclass
class FlyingCard:
    """A card in motion over the table (dealt, played, collected...)."""

    card: int                 # card id, or -1 for an unknown (always face-down) card
    x: float
    y: float
    width: int                # card width in pixels (the art size to use)
    angle: float = 0.0        # degrees, counter-clockwise
    flip: float = 1.0         # 0 shows the back, 1 the face; in between it turns edge-on
    alpha: int = 255
    z: int = 0


@dataclass
class Floater:
    """A short text that rises and fades (a score change such as +3)."""

    text: str
    x: float
    y: float
    colour: tuple[int, int, int]
    alpha: int = 255
    size: int = 28


@dataclass
class TableModel:
    game: str
    num_players: int
    dealer: int = 0
    deal_number: int = 0
    turn: int = -1                       # the seat whose plate glows
    phase: Phase = Phase.BID
    hands: list[list[int]] = field(default_factory=list)
    trick: list[tuple[int, int]] = field(default_factory=list)
    trick_winner: int = -1               # seat whose card glows while a won trick is held
    kitty: list[int] = field(default_factory=list)   # face-down cards in the centre pile
    tricks_won: list[int] = field(default_factory=list)
    scores: list[float] = field(default_factory=list)  # shown (tweened) scores
    bid_labels: dict[int, str] = field(default_factory=dict)
    # Bid Whist contract
    declarer: int = -1
    contract_books: int = 0
    contract_mode: int = -1
    high_bid: tuple[int, int, int] | None = None     # (seat, books, mode) during bidding
    trump: int = -1
    direction: int = -1
    discarded: int = 0
    # Wizard
    round_number: int = 0
    total_rounds: int = 0
    turn_up: int = -1
    turn_up_known: bool = False   # False while a Wizard deal is still flying
    trump_pending: bool = False
    predictions: list[int] = field(default_factory=list)
    # Hidden Wizard bids by seat, known to the program but shown only to their
    # own seat's player (the plate says "Bid placed" to everyone else).
    secret_bids: dict[int, int] = field(default_factory=dict)
    # Things in motion
    flying: list[FlyingCard] = field(default_factory=list)
    floaters: list[Floater] = field(default_factory=list)
    banner: str | None = None
    version: int = 0     # bumped on every change the view caches depend on

    @classmethod
    def empty(cls, game: str, num_players: int) -> "TableModel":
        model = cls(game=game, num_players=num_players)
        model.reset_deal()
        model.scores = [0.0] * (2 if game == "bidwhist" else num_players)
        return model

    def reset_deal(self) -> None:
        n = self.num_players
        self.hands = [[] for _ in range(n)]
        self.trick = []
        self.trick_winner = -1
        self.kitty = []
        self.tricks_won = [0] * n
        self.bid_labels = {}
        self.declarer = -1
        self.contract_books = 0
        self.contract_mode = -1
        self.high_bid = None
        self.trump = -1
        self.direction = -1
        self.discarded = 0
        self.turn_up = -1
        self.turn_up_known = False
        self.trump_pending = False
        self.predictions = [-1] * n
        self.secret_bids = {}
        self.touch()

    def touch(self) -> None:
        self.version += 1

    @property
    def is_bidwhist(self) -> bool:
        return self.game == "bidwhist"

    def team_books(self, team: int) -> int:
        """Books of a Bid Whist team this hand, the kitty book included once discarded."""
        books = sum(self.tricks_won[s] for s in range(self.num_players) if s % 2 == team)
        if self.declarer >= 0 and self.declarer % 2 == team and self.discarded >= 6:
            books += 1
        return books

    def sync(self, state: Any) -> None:
        """Match the live state exactly (called when no animation is pending)."""
        n = self.num_players
        views = [state.view(seat) for seat in range(n)]
        first = views[0]
        self.dealer = first.dealer
        self.deal_number = first.deal_number
        self.phase = first.phase
        self.turn = first.current_player
        if first.phase not in (Phase.HAND_OVER, Phase.GAME_OVER):
            self.hands = [list(v.hand) for v in views]
            self.trick = list(first.trick)
            self.tricks_won = list(first.tricks_won)
        self.scores = [float(s) for s in first.scores]
        if self.is_bidwhist:
            self.declarer = first.declarer
            self.contract_books = first.contract_books
            self.contract_mode = first.contract_mode
            self.trump = first.trump
            self.direction = first.direction
            high_bidder = first.extra.get("high_bidder", -1)
            if first.phase == Phase.BID and high_bidder is not None and high_bidder >= 0:
                for seat, action in first.bids:
                    if seat == high_bidder and action is not None:
                        self.high_bid = (seat, action.value, action.mode)
            self.discarded = len(views[first.declarer].discards) if first.declarer >= 0 else 0
            if first.phase in (Phase.PLAY, Phase.HAND_OVER, Phase.GAME_OVER) and first.declarer >= 0:
                self.discarded = 6
            if first.phase not in (Phase.BID, Phase.CONTRACT):
                self.kitty = []
        else:
            self.round_number = first.round_number
            self.total_rounds = int(first.extra.get("total_rounds", self.total_rounds) or 0)
            self.turn_up = first.turn_up
            self.turn_up_known = True
            self.trump_pending = first.trump_pending
            self.trump = first.trump
        self.touch()


# --------------------------------------------------------------------------
# Sorting a hand for display

def hand_sort_key(game: str, trump: int, direction: int):
    """A key that groups a hand by suit (alternating colours, trump first) and ranks it.

    Wizards come first and Jesters last in Wizard; Bid Whist jokers lead the
    hand (they are the top trumps). Downtown hands put the ace first, then
    2 up to the king, which is how they rank.
    """
    # Alternate black and red suits so neighbours are easy to tell apart.
    base_order = [0, 1, 3, 2]  # spades, hearts, clubs, diamonds
    if trump in base_order:
        # Keep the colours alternating after moving the trump suit to the front.
        rotate = base_order.index(trump)
        base_order = base_order[rotate:] + base_order[:rotate]
    suit_rank = {suit: index for index, suit in enumerate(base_order)}

    def key(card: int) -> tuple[int, int, int]:
        suit = SUIT_OF[card]
        if suit < 0:
            if game == "wizard":
                return (-1, 0, 0) if card == 54 else (9, 0, 0)
            return (-1, 0 if card == 52 else 1, 0)  # big joker before little joker
        rank = RANK_OF[card]
        if direction == 1:
            strength = 15 if rank == 14 else 15 - rank   # A, 2, 3 ... K
            return (suit_rank[suit], -strength, 0)
        return (suit_rank[suit], -rank, 0)

    return key


def bid_label(game: str, action_or_value: Any) -> tuple[str, dict[str, Any]]:
    """The text key and parameters for a bid shown on a name plate."""
    if game == "wizard":
        return "table.plate_bid", {"n": action_or_value}
    if action_or_value is None:
        return "table.bid_hidden", {}
    if action_or_value.kind == ActionKind.PASS:
        return "table.bid_pass", {}
    mode = BidMode(action_or_value.mode)
    return f"table.bid_{mode.label}", {"n": action_or_value.value}
