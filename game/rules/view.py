"""What one seat may see of a game: the player's view.

Computer players and the table UI both work from a view; it never holds
another player's hidden cards or a hidden bid, so a computer opponent cannot
peek and a table fed with one seat's view cannot show another seat's cards.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any, TypeVar, cast

from game.rules.actions import Action
from game.rules.cards import Card, Cards
from game.rules.core import Phase

ViewT = TypeVar("ViewT", bound="PlayerView")


@dataclass(frozen=True)
class TrickRecord:
    leader: int
    plays: tuple[tuple[int, Card], ...]  # (seat, card) in the order played
    winner: int


_new_object = object.__new__


def trick_record(leader: int, plays: tuple[tuple[int, Card], ...], winner: int) -> TrickRecord:
    """``TrickRecord(leader, plays, winner)``, built faster: a frozen dataclass's
    ``__init__`` sets each field through ``object.__setattr__``, and the engine
    records a trick every few moves of every simulated hand. The fields go
    straight into the new record's ``__dict__``; the record is the same value."""
    record = _new_object(TrickRecord)
    fields_of = record.__dict__
    fields_of["leader"] = leader
    fields_of["plays"] = plays
    fields_of["winner"] = winner
    return record


# ``PlayerView`` holds what every trick-taking game shares; each game adds its
# own fields in a subclass (``BidWhistView``, ``WizardView``). The figures a
# table shows (books per team, the suit led, who is winning the trick, the
# voids each seat has shown) are computed here by the rules, so nothing above
# ``game.rules`` ever recomputes them.
@dataclass(frozen=True)
class PlayerView:
    game: str
    rules: object
    num_players: int
    seat: int
    phase: Phase
    current_player: int  # -1 when nobody is to act (hand over, game over)
    dealer: int
    deal_number: int
    hand: Cards
    hand_sizes: tuple[int, ...]
    trick: tuple[tuple[int, Card], ...]  # the trick in progress, (seat, card)
    trick_leader: int
    tricks: tuple[TrickRecord, ...]  # this hand's completed tricks
    tricks_won: tuple[int, ...]  # per seat, this hand
    scores: tuple[int, ...]  # per team in a partnership game, else per seat
    start_scores: tuple[int, ...]  # the scores when this hand was dealt
    legal_actions: tuple[Action, ...]  # empty unless this seat is to act
    trump: int  # the trump suit, -1 for none or not yet known
    led_suit: int  # the suit to follow now, -1 when anything may be played
    winning_seat: int  # who is winning the trick in progress, -1 when it is empty
    books: tuple[int, ...]  # what the table shows as taken: per team or per seat
    # Every action of this hand so far as this seat saw it, in order: (seat,
    # action), the action None where it is hidden from this seat (another
    # seat's hidden bid, the declarer's discards).
    actions: tuple[tuple[int, Action | None], ...]
    # Per seat, the suits that seat has proved it no longer holds this hand.
    # A failure to follow proves a void only where it cannot be a renege: when
    # the house rules prevent reneges, for the player's own seat, or once the
    # hand is scored and the reneges are out. Under ``renege: penalized`` the
    # other seats therefore learn no voids during the hand: a failure to
    # follow may be a renege, and the player may still hold the suit.
    voids: tuple[frozenset[int], ...]
    tricks_per_hand: int

    @classmethod
    def from_fields(cls: type[ViewT], **values: Any) -> ViewT:
        """The view with these field values, every field given and nothing
        else (``TypeError`` otherwise), built without the dataclass's
        ``__init__``. A frozen dataclass sets each of its thirty-odd fields
        through ``object.__setattr__``, which was about a third of the cost of
        building a view, and a search builds one for every move of every hand
        it plays out. The result equals the one ``cls(**values)`` gives."""
        names = _field_names(cls)
        if values.keys() != names:
            missing = sorted(names - values.keys())
            unknown = sorted(values.keys() - names)
            raise TypeError(f"{cls.__name__} fields missing {missing}, unknown {unknown}")
        view = object.__new__(cls)
        view.__dict__.update(values)
        return view

    @property
    def my_turn(self) -> bool:
        return self.current_player == self.seat

    def played_cards(self) -> list[int]:
        """Every card seen played this hand (completed tricks and the current one)."""
        cards = [card for record in self.tricks for _, card in record.plays]
        cards.extend(card for _, card in self.trick)
        return cards

    def cards_played_by_seat(self) -> list[list[int]]:
        """Per seat, the cards it has played this hand, in the order played."""
        played: list[list[int]] = [[] for _ in range(self.num_players)]
        for record in self.tricks:
            for seat, card in record.plays:
                played[seat].append(card)
        for seat, card in self.trick:
            played[seat].append(card)
        return played


@dataclass(frozen=True)
class BidWhistView(PlayerView):
    bids: tuple[tuple[int, Action], ...] = ()  # (seat, bid or pass), all public
    high_bid: tuple[int, int] | None = None  # (books, mode) of the highest bid so far
    high_bidder: int = -1
    declarer: int = -1
    contract_books: int = 0
    contract_mode: int = -1  # BidMode, -1 before the declarer has named the contract
    direction: int = -1  # 0 uptown, 1 downtown, -1 not yet known
    kitty: Cards = ()  # known only to the declarer once taken
    discards: Cards = ()  # known only to the declarer
    discard_count: int = 0  # how many cards the declarer has laid aside (public)
    redeal: bool = False
    winner_team: int = -1
    # The kitty's size under these rules: 6 with jokers, 4 without (the declarer
    # holds 12 + kitty_size cards before discarding as many).
    kitty_size: int = 6


@dataclass(frozen=True)
class WizardView(PlayerView):
    round_number: int = 0
    total_rounds: int = 0
    turn_up: Card = -1  # card id, or -1 when none
    trump_pending: bool = False  # a Wizard was turned up and trump is not named yet (current_player names it)
    predictions: tuple[int, ...] = ()  # per seat, -1 for not made or hidden from this seat
    forbidden_bid: int = -1  # the prediction this seat may not make now (uneven bids), or -1
    # Per finished round: (bids, tricks won, score changes), for the score pad.
    score_history: tuple[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...] = ()


_FIELD_NAMES: dict[type, frozenset[str]] = {}


def _field_names(cls: type) -> frozenset[str]:
    """The names of a view class's fields, read once per class."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = frozenset(field.name for field in fields(cls))
    return names


# ---------------------------------------------------------------- lazy views
FieldReader = Callable[[Any, int], Any]  # (state, seat) -> the value of one field of seat's view


class _LazyField:
    """A field of a lazy view: read from the state when first asked for,
    then kept in the view (a non-data descriptor, so the kept value wins)."""

    __slots__ = ("name", "read")

    def __init__(self, name: str, read: FieldReader) -> None:
        self.name, self.read = name, read

    def __get__(self, view: Any, owner: type | None = None) -> Any:
        if view is None:
            return self
        value = self.read(view._state, view._seat)
        view.__dict__[self.name] = value
        return value


def _lazy_init(self: Any, state: Any, seat: int, **known: Any) -> None:
    self.__dict__.update(known, _state=state, _seat=seat)


def lazy_view_type(view_type: type[ViewT], readers: Mapping[str, FieldReader]) -> type[ViewT]:
    """A subclass of ``view_type`` made as ``cls(state, seat, **known)``:
    each field is read by ``readers[name](state, seat)`` when first asked
    for (``known`` gives values the caller has already), so a player that
    reads a few fields pays for those alone. A search builds a view for every
    move of every hand it plays out, and its players read about half the
    fields. The view reads a live state: it is valid only until the state
    changes, and only a search's own simulated states should make one.

    Every field needs a reader (``TypeError`` otherwise): a field without one
    would silently show its class default."""
    names = _field_names(view_type)
    if set(readers) != names:
        raise TypeError(
            f"lazy {view_type.__name__} readers missing {sorted(names - set(readers))}, "
            f"unknown {sorted(set(readers) - names)}"
        )
    namespace: dict[str, Any] = {name: _LazyField(name, read) for name, read in readers.items()}
    namespace["__init__"] = _lazy_init
    namespace["__doc__"] = f"A {view_type.__name__} read from a live state field by field (see ``lazy_view_type``)."
    return cast(type[ViewT], type(f"Lazy{view_type.__name__}", (view_type,), namespace))
