"""What happened in a game: one frozen dataclass per kind of event.

The engine reports every change as a list of these events. They are plain,
typed values: the animation director turns them into motion, the hand-history
writer (``game.persistence.history_codec``, the only place that knows their JSON shape) turns
them into the history file, and nothing parses strings back out of them.
"""

from __future__ import annotations

# Events as the engine emits them are the *full* story, secrets included: every
# hand at the deal, the kitty, the declarer's discards, hidden Wizard bids.
# ``events_for(events, seat)`` is the information boundary: it returns the same
# story as ``seat`` may learn it, with other seats' cards replaced by
# ``UNKNOWN_CARD`` and hidden bids by ``None``. A *viewer* is a seat number or
# ``PUBLIC_SEAT`` (-1), the one notion that events and views (``state.view``)
# share: ``events_for(events, PUBLIC_SEAT)`` is the public stream, which is what
# a table shows between two hot-seat players and what a spectator (or, later, a
# network peer) would receive; it knows no card of any hand or of the kitty.

from dataclasses import dataclass, replace
from collections.abc import Iterable

from game.rules.actions import Action
from game.rules.cards import Card, Cards

UNKNOWN_CARD = -1  # a card whose face this seat may not know (hidden hands, the kitty, discards)
Viewer = int  # who is looking: a seat number, or PUBLIC_SEAT
PUBLIC_SEAT: Viewer = -1  # the public viewer: no hand, no hidden bid, nothing secret

Plays = tuple[tuple[int, Card], ...]  # (seat, card) in play order


def _masked(cards: tuple[int, ...]) -> tuple[int, ...]:
    return (UNKNOWN_CARD,) * len(cards)


@dataclass(frozen=True, slots=True)
class FirstDealerDrawn:
    """Cards dealt face up to find the first dealer (public)."""

    draw: Plays
    dealer: int

    def for_seat(self, seat: Viewer) -> FirstDealerDrawn:
        return self


@dataclass(frozen=True, slots=True)
class Dealt:
    """A new hand was dealt. ``sequence`` is the dealing order, card by card,
    as ``(card, seat)`` with seat -1 for a card that goes to the kitty;
    ``kitty`` is empty in games without one."""

    number: int
    dealer: int
    hands: tuple[Cards, ...]
    kitty: Cards
    sequence: tuple[tuple[Card, int], ...]

    def for_seat(self, seat: Viewer) -> Dealt:
        hands = tuple(hand if index == seat else _masked(hand) for index, hand in enumerate(self.hands))
        # The kitty's cards are dealt to owner -1, which is no viewer's own (not the public's).
        sequence = tuple(
            (card if owner == seat and seat != PUBLIC_SEAT else UNKNOWN_CARD, owner) for card, owner in self.sequence
        )
        return replace(self, hands=hands, kitty=_masked(self.kitty), sequence=sequence)


@dataclass(frozen=True, slots=True)
class TrumpTurnedUp:
    """The card turned up for trump (``card`` -1 when none is left); ``trump``
    is the suit it makes trump, -1 for none or not yet named. After a Wizard
    turn-up ``chooser`` is the seat that names the suit (the dealer, or under
    ``wizard_turn_up: first_bidder_chooses`` the player at the dealer's left),
    -1 when nobody does (any other card, or ``wizard_turn_up: no_trump``).
    ``dealer_chooses`` is kept for readers older than ``chooser``: it is true
    whenever somebody is to name trump (``chooser`` >= 0)."""

    card: Card
    trump: int
    dealer_chooses: bool
    chooser: int = -1

    def for_seat(self, seat: Viewer) -> TrumpTurnedUp:
        return self


@dataclass(frozen=True, slots=True)
class BidMade:
    """``seat`` bid ``action`` (a Bid Whist bid or pass, a Wizard prediction).
    ``hidden`` bids are known only to their maker until revealed: for
    anyone else ``action`` is None."""

    seat: int
    action: Action | None
    hidden: bool = False

    def for_seat(self, seat: Viewer) -> BidMade:
        if self.hidden and seat != self.seat:
            return replace(self, action=None)
        return self


@dataclass(frozen=True, slots=True)
class BidsRevealed:
    """Hidden bids turned face up together; ``bids[seat]`` per seat."""

    bids: tuple[int, ...]

    def for_seat(self, seat: Viewer) -> BidsRevealed:
        return self


@dataclass(frozen=True, slots=True)
class Redealt:
    """Everybody passed and the hand is thrown in; the same dealer deals again
    after ``HandScored``."""

    dealer: int

    def for_seat(self, seat: Viewer) -> Redealt:
        return self


@dataclass(frozen=True, slots=True)
class ContractSet:
    """The Bid Whist contract: the declarer, the books bid, the bid mode
    (``BidMode``), the trump suit (-1 in no trump) and the ranking (0 uptown,
    1 downtown)."""

    declarer: int
    books: int
    mode: int
    trump: int
    direction: int

    def for_seat(self, seat: Viewer) -> ContractSet:
        return self


@dataclass(frozen=True, slots=True)
class TrumpChosen:
    """``seat`` (the dealer, or the player at the dealer's left under
    ``wizard_turn_up: first_bidder_chooses``) named ``trump`` after a Wizard
    was turned up."""

    seat: int
    trump: int

    def for_seat(self, seat: Viewer) -> TrumpChosen:
        return self


@dataclass(frozen=True, slots=True)
class KittyTaken:
    """The declarer took the kitty into hand; only the declarer sees its cards."""

    seat: int
    cards: Cards

    def for_seat(self, seat: Viewer) -> KittyTaken:
        return self if seat == self.seat else replace(self, cards=_masked(self.cards))


@dataclass(frozen=True, slots=True)
class Discarded:
    """The declarer laid ``card`` aside (face down: only the declarer knows it).
    ``books`` are the books per team after the discard (the kitty counts as
    the declarer's first book once all its cards are laid aside)."""

    seat: int
    card: Card
    books: tuple[int, ...]

    def for_seat(self, seat: Viewer) -> Discarded:
        return self if seat == self.seat else replace(self, card=UNKNOWN_CARD)


@dataclass(frozen=True, slots=True)
class CardPlayed:
    """``seat`` played ``card`` to the trick. ``renege`` (a failure to follow
    that the house rules let through and penalize at the hand's end) is
    known only to the player who made it until the hand is scored."""

    seat: int
    card: Card
    renege: bool = False

    def for_seat(self, seat: Viewer) -> CardPlayed:
        return self if not self.renege or seat == self.seat else replace(self, renege=False)


@dataclass(frozen=True, slots=True)
class ClaimMade:
    """``seat``, on lead, claimed the ``tricks`` tricks left: every card it holds
    is sure to win (``GameDef.claimable``). The tricks are then played out as
    ordinary plays. Public: the whole table is told."""

    seat: int
    tricks: int

    def for_seat(self, seat: Viewer) -> ClaimMade:
        return self


@dataclass(frozen=True, slots=True)
class TrickWon:
    """A full trick went to ``winner``. ``books`` are the counts the game shows
    after it: per team in a partnership game (kitty book included, renege
    penalties not yet applied), per seat otherwise."""

    winner: int
    leader: int
    plays: Plays
    index: int
    books: tuple[int, ...]

    def for_seat(self, seat: Viewer) -> TrickWon:
        return self


@dataclass(frozen=True, slots=True)
class BidWhistHandScored:
    """A Bid Whist hand was scored (or thrown in: ``redeal``). ``books`` have
    every renege penalty applied; ``reneges`` are ``(trick index, seat)``.
    ``boston``: the bidding team holds all 13 books (after the renege
    penalties) under a house rule that plays a Boston (``boston`` not
    ``off``); ``score_change`` already includes its doubling, and under
    ``wins_game`` a ``GameOver`` for the bidding team follows."""

    number: int
    redeal: bool
    declarer: int  # -1 for a redeal
    contract: ContractSet | None
    made: bool | None
    reneges: tuple[tuple[int, int], ...]
    books: tuple[int, ...]
    score_change: tuple[int, ...]
    scores: tuple[int, ...]
    boston: bool = False

    def for_seat(self, seat: Viewer) -> BidWhistHandScored:
        return self


@dataclass(frozen=True, slots=True)
class WizardHandScored:
    """A Wizard round was scored: every seat's bid, tricks and score change."""

    number: int
    bids: tuple[int, ...]
    tricks_won: tuple[int, ...]
    score_change: tuple[int, ...]
    scores: tuple[int, ...]

    def for_seat(self, seat: Viewer) -> WizardHandScored:
        return self


@dataclass(frozen=True, slots=True)
class GameOver:
    """The game ended: final scores (per team or per seat) and the winners
    (team numbers in a partnership game, seats otherwise)."""

    final_scores: tuple[int, ...]
    winners: tuple[int, ...]

    def for_seat(self, seat: Viewer) -> GameOver:
        return self


GameEvent = (
    FirstDealerDrawn
    | Dealt
    | TrumpTurnedUp
    | BidMade
    | BidsRevealed
    | Redealt
    | ContractSet
    | TrumpChosen
    | KittyTaken
    | Discarded
    | CardPlayed
    | ClaimMade
    | TrickWon
    | BidWhistHandScored
    | WizardHandScored
    | GameOver
)
HandScored = BidWhistHandScored | WizardHandScored

# Every kind of event, for the tests that prove each has a handler wherever
# events are consumed (the animation director, the history writer).
EVENT_TYPES: tuple[type, ...] = (
    FirstDealerDrawn,
    Dealt,
    TrumpTurnedUp,
    BidMade,
    BidsRevealed,
    Redealt,
    ContractSet,
    TrumpChosen,
    KittyTaken,
    Discarded,
    CardPlayed,
    ClaimMade,
    TrickWon,
    BidWhistHandScored,
    WizardHandScored,
    GameOver,
)


def events_for(events: Iterable[GameEvent], seat: Viewer) -> list[GameEvent]:
    """``events`` as ``seat`` may learn them (``PUBLIC_SEAT``: the public stream)."""
    return [event.for_seat(seat) for event in events]


class UnhandledEventError(TypeError):
    """An event reached a consumer with no handler for its kind (a programming error)."""
