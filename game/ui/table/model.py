"""What the table shows right now: the presentation model."""

from __future__ import annotations

# The live game jumps from one position to the next as soon as an action is
# applied; the table must not. A trick that has just been won has to stay on
# the felt until it slides to its winner, a dealt card reaches its owner only
# when its flight lands. ``TableModel`` is the picture the player sees: the
# animation director (``game.ui.table.animations``) changes it event by event
# as each animation starts or lands, and the table view draws only from it.
# When every queued animation has finished, ``sync(view)`` sets it exactly
# from the match's view, so the two can never drift apart for long; a saved
# game can be shown the same way, by one ``sync`` without any animation.
#
# Information boundary: the model is only ever fed what one seat may know (that
# seat's filtered events and view, or the public ones between two hot-seat
# players). It never holds another seat's hidden cards or hidden bid: a card
# whose face the seat may not see is ``UNKNOWN_CARD`` (-1) here and is drawn
# face down, and another seat's hidden bid is only "placed". ``known_cards``
# and ``known_bids`` say exactly what it holds, for the tests that check this.
#
# Every game figure it shows (books, scores, the trump, the contract) is one
# the rules reported, through an event or a view; the hand order comes from the
# game's ``hand_order``. The model keeps no rules of its own, and knows no one
# game: the figures that belong to one kind of game (the contract, the kitty,
# the turn-up, hidden bids) come from the game's adapter
# (``GameDef.adapter.table_figures``).

from dataclasses import dataclass, field

from game.rules import Action, ActionKind, BidMode, GameDef, Phase, PlayerView
from game.rules.events import UNKNOWN_CARD
from game.ui.text import t

# The phases in which a hand's play has begun (or is over): plates count tricks.
PLAY_PHASES = (Phase.PLAY, Phase.HAND_OVER, Phase.GAME_OVER)


@dataclass
class FlyingCard:
    """A card in motion over the table (dealt, played, collected...)."""

    card: int  # card id, or -1 for an unknown (always face-down) card
    x: float
    y: float
    width: int  # card width in pixels (the art size to use)
    angle: float = 0.0  # degrees, counter-clockwise
    flip: float = 1.0  # 0 shows the back, 1 the face; in between it turns edge-on
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
    game_def: GameDef
    num_players: int
    # The game's house rules (a rules object): a house rule may change how the
    # game ranks, and so sorts, a hand (the ace low downtown). None sorts as
    # the default rules do.
    rules: object = None
    dealer: int = 0
    deal_number: int = 0
    turn: int = -1  # the seat whose plate glows
    # The phase of the last view synced; None from a deal until the next sync
    # (the new hand is being dealt and bid).
    phase: Phase | None = None
    hands: list[list[int]] = field(default_factory=list)  # -1 for a card this seat may not see
    trick: list[tuple[int, int]] = field(default_factory=list)
    trick_winner: int = -1  # seat whose card glows while a won trick is held
    kitty: list[int] = field(default_factory=list)  # the face-down pile in the centre
    tricks_won: list[int] = field(default_factory=list)  # per seat, this hand
    tricks_per_hand: int = 0  # tricks this hand has, as the rules dealt it
    # Books as the rules report them: per team in a partnership game, per seat otherwise.
    books: list[int] = field(default_factory=list)
    scores: list[float] = field(default_factory=list)  # shown (tweened) scores, per scoring side
    bid_labels: dict[int, str] = field(default_factory=dict)
    # Contract games
    declarer: int = -1
    contract_books: int = 0
    contract_mode: int = -1
    high_bid: tuple[int, int, int] | None = None  # (seat, books, mode) during bidding
    trump: int = -1
    direction: int = -1
    # Prediction games
    round_number: int = 0
    total_rounds: int = 0
    turn_up: int = -1
    turn_up_known: bool = False  # False while the deal is still flying
    trump_pending: bool = False
    trump_chooser: int = -1  # the seat naming trump while ``trump_pending``, else -1
    predictions: list[int] = field(default_factory=list)  # per seat, -1 unknown or not made
    # The one hidden bid the model may hold: the watching seat's own, as (seat,
    # value). It reaches the model only through that seat's filtered stream.
    own_hidden_bid: tuple[int, int] | None = None
    # Things in motion
    flying: list[FlyingCard] = field(default_factory=list)
    floaters: list[Floater] = field(default_factory=list)
    banner: str | None = None
    version: int = 0  # bumped on every change the view caches depend on

    @classmethod
    def empty(cls, game_def: GameDef, num_players: int, rules: object = None) -> TableModel:
        model = cls(game_def=game_def, num_players=num_players, rules=rules)
        model.reset_deal()
        model.scores = [0.0] * game_def.score_sides(num_players)
        return model

    def reset_deal(self) -> None:
        """Clear everything that belongs to one hand (a new deal begins)."""
        n = self.num_players
        self.phase = None
        self.hands = [[] for _ in range(n)]
        self.trick = []
        self.trick_winner = -1
        self.kitty = []
        self.tricks_won = [0] * n
        self.books = [0] * self.game_def.score_sides(n)
        self.bid_labels = {}
        self.declarer = -1
        self.contract_books = 0
        self.contract_mode = -1
        self.high_bid = None
        self.trump = -1
        self.direction = -1
        self.turn_up = -1
        self.turn_up_known = False
        self.trump_pending = False
        self.trump_chooser = -1
        self.predictions = [-1] * n
        self.own_hidden_bid = None
        self.touch()

    def touch(self) -> None:
        self.version += 1

    # ------------------------------------------------------------------ what the game is
    @property
    def declares_contract(self) -> bool:
        """One side declares a contract (the table shows the bid and contract,
        team books); otherwise everyone predicts their own tricks."""
        return self.game_def.adapter.declares_contract

    def team_of(self, seat: int) -> int:
        """The seat's team in a partnership game, -1 when everyone plays alone."""
        return self.game_def.team_of(seat) if self.game_def.partnerships else -1

    def score_side_members(self, side: int) -> tuple[int, ...]:
        """The seats a score (or book count) belongs to: a team's players, or one seat."""
        return self.game_def.team_members(side, self.num_players)

    # ------------------------------------------------------------------ hands
    def sorted_hand(self, seat: int) -> list[int]:
        """``seat``'s cards in the order the game lays out a hand under the
        current trump and ranking; cards this seat may not see go last."""
        hand = self.hands[seat] if 0 <= seat < len(self.hands) else []
        known = [card for card in hand if card != UNKNOWN_CARD]
        unknown = [card for card in hand if card == UNKNOWN_CARD]
        return self.game_def.hand_order(known, self.trump, self.direction, rules=self.rules) + unknown

    def take_from_hand(self, seat: int, card: int) -> None:
        """``card`` leaves ``seat``'s hand; a card the model only knows as
        face-down takes one unknown card away instead."""
        hand = self.hands[seat]
        if card in hand:
            hand.remove(card)
        elif UNKNOWN_CARD in hand:
            hand.remove(UNKNOWN_CARD)

    def known_cards(self) -> set[int]:
        """Every card whose face the model holds: in hands, the kitty, the
        trick, in flight, and the turned-up card."""
        cards = {card for hand in self.hands for card in hand}
        cards.update(self.kitty)
        cards.update(card for _, card in self.trick)
        cards.update(sprite.card for sprite in self.flying)
        cards.add(self.turn_up)
        cards.discard(UNKNOWN_CARD)
        return cards

    def known_bids(self) -> dict[int, int]:
        """Every bid value the model holds, by seat: the predictions shown
        to all, plus the watching seat's own hidden bid."""
        bids = {seat: value for seat, value in enumerate(self.predictions) if value >= 0}
        if self.own_hidden_bid is not None:
            seat, value = self.own_hidden_bid
            bids[seat] = value
        return bids

    # ------------------------------------------------------------------ bids
    def show_bid(self, seat: int, action: Action | None, hidden: bool) -> None:
        """Put ``seat``'s bid on its plate as the watching seat may see it.

        ``action`` is None for a bid hidden from this seat; ``hidden`` with an
        action is the watching seat's own secret bid, which its plate shows
        only to that seat's player.
        """
        if action is None or hidden:
            self.bid_labels[seat] = t("table.bid_hidden")
            if action is not None:
                self.own_hidden_bid = (seat, action.value)
        else:
            self.bid_labels[seat] = bid_label(action)
            if action.kind == ActionKind.PREDICT:
                self.predictions[seat] = action.value
            elif action.kind in (ActionKind.BID, ActionKind.TAKE):
                # A dealer's take is the contract's bid from then on.
                self.high_bid = (seat, action.value, action.mode)
        self.touch()

    def reveal_bids(self, bids: tuple[int, ...]) -> None:
        """Hidden bids turned face up together."""
        for seat, value in enumerate(bids):
            if value >= 0:
                self.predictions[seat] = value
                self.bid_labels[seat] = t("table.plate_bid", n=value)
        self.own_hidden_bid = None
        self.touch()

    # ------------------------------------------------------------------ sync
    def sync(self, view: PlayerView) -> None:
        """Set the model exactly from ``view`` (called when no animation is
        pending). ``view.seat`` -1, the public view, shows every hand face down."""
        n = self.num_players
        self.rules = view.rules
        self.dealer = view.dealer
        self.deal_number = view.deal_number
        self.phase = view.phase
        self.turn = view.current_player
        self.hands = [
            list(view.hand) if seat == view.seat else [UNKNOWN_CARD] * view.hand_sizes[seat] for seat in range(n)
        ]
        self.trick = list(view.trick)
        self.trick_winner = -1
        self.tricks_won = list(view.tricks_won)
        self.tricks_per_hand = view.tricks_per_hand
        self.books = list(view.books)
        self.scores = [float(score) for score in view.scores]
        self.trump = view.trump
        self.direction = -1
        self.bid_labels = {}
        self.high_bid = None
        self.declarer = -1
        self.contract_books = 0
        self.contract_mode = -1
        self.kitty = []
        self.predictions = [-1] * n
        self.own_hidden_bid = None
        self.turn_up = -1
        self.trump_pending = False
        self.trump_chooser = -1
        # The game's own figures, as its adapter reads them from the view.
        figures = self.game_def.adapter.table_figures(view)
        self.declarer = figures.declarer
        self.contract_mode = figures.contract_mode
        self.contract_books = figures.contract_books
        self.direction = figures.direction
        self.kitty = [UNKNOWN_CARD] * figures.kitty_lying
        if figures.shows_turn_up:
            self.round_number = figures.round_number
            self.total_rounds = figures.total_rounds
            self.turn_up = figures.turn_up
            self.turn_up_known = True
        self.trump_pending = figures.trump_pending
        self.trump_chooser = figures.trump_chooser
        for shown in figures.bids:
            self.show_bid(shown.seat, shown.action, hidden=shown.action is None or shown.secret)
        # The high bid shows while the bidding is open; then the contract does.
        self.high_bid = figures.high_bid if figures.declarer < 0 else None
        self.touch()


def bid_label(action: Action) -> str:
    """A bid as its plate shows it: "4 uptown", "Pass", "Bid 3", and a dealer's take "Take: 4 uptown"."""
    if action.kind == ActionKind.PASS:
        return t("table.bid_pass")
    if action.kind == ActionKind.PREDICT:
        return t("table.plate_bid", n=action.value)
    words = t(f"table.bid_{BidMode(action.mode).label}", n=action.value)
    if action.kind == ActionKind.TAKE:
        return t("table.bid_take", bid=words)
    return words
