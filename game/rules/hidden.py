"""What one seat cannot see, and how each game says where those cards may lie."""

from __future__ import annotations

# A search player knows its own view and must guess the rest: the other
# hands, a kitty it has not seen, the declarer's discards, bids still face
# down. ``HiddenCards`` is one such guess (an *assignment*);
# ``game.rules.search`` checks it against the view, builds a full state from
# it and samples guesses uniformly.
#
# The search code is the same for every game. What differs (whether there is a
# kitty, who took it, which cards lie face up, which bids are hidden, how an
# explicit deal is written) each game states once in a ``HiddenInfoModel``,
# which its ``GameDef`` carries as ``hidden_info``. The model only reads a
# view; it never sees the real state.

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from game.rules.actions import Action
from game.rules.errors import RulesError

if TYPE_CHECKING:  # the states import this module; only the type checker needs them here
    from game.rules.view import PlayerView


class HiddenInfoError(RulesError, ValueError):
    """An assignment of the unseen cards that does not fit a seat's view.

    ``code`` names the problem for tests and callers (``hand_size``,
    ``seen_card``, ``duplicate_card``, ``not_a_card``, ``void_suit``,
    ``hands``, ``kitty_known``, ``kitty_size``, ``kitty_not_held``,
    ``discards_known``, ``discards_size``, ``bids``, ``bid_value``,
    ``view``); the message says it in words.
    """

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class HiddenCards:
    """One assignment of what a seat cannot see.

    ``hands`` maps every other seat (every seat, for the public view) to the
    cards it holds now, in any order. ``kitty`` is the kitty as dealt and
    ``discards`` the declarer's discards in the order laid aside, both given
    only when the seat has not seen them (else empty). ``bids`` maps each
    seat whose bid is still face down for this seat to that bid.
    """

    hands: Mapping[int, tuple[int, ...]]
    kitty: tuple[int, ...] = ()
    discards: tuple[int, ...] = ()
    bids: Mapping[int, int] = field(default_factory=dict)


@dataclass(frozen=True)
class HiddenLayout:
    """Where the cards a seat cannot see may lie, as its game reads one view.

    ``seen`` are cards whose place the seat knows besides its own hand and
    the cards played this hand (a turn-up card, its own discards).
    ``kitty`` and ``discards`` are the kitty and discards the seat has seen
    (empty otherwise). ``kitty_size`` is the size of the kitty under the
    view's house rules (0 for none) and ``kitty_taker`` the seat that took it into hand (-1 while it
    lies apart). ``hidden_discards`` is how many discards the seat has not
    seen. ``hidden_bids`` are the seats whose bid is face down for this seat;
    ``bid_choices`` the values such a bid may have.
    """

    seen: tuple[int, ...] = ()
    kitty: tuple[int, ...] = ()
    discards: tuple[int, ...] = ()
    kitty_size: int = 0
    kitty_taker: int = -1
    hidden_discards: int = 0
    hidden_bids: tuple[int, ...] = ()
    bid_choices: range = range(0)

    @property
    def kitty_hidden(self) -> bool:
        """Whether the seat must guess the kitty."""
        return self.kitty_size > 0 and not self.kitty


class HiddenInfoModel(Protocol):
    """A game's answers to the questions the search code asks of a view."""

    def layout(self, view: PlayerView) -> HiddenLayout:
        """Where the unseen cards of ``view`` may lie."""
        ...

    def card_suit(self, card: int, trump: int) -> int:
        """The suit ``card`` belongs to for following suit under ``trump``
        (-1 when it belongs to none and so is never barred by a void)."""
        ...

    def fixed_deal(self, view: PlayerView, hands: Sequence[Sequence[int]], kitty: Sequence[int]) -> Any:
        """The deal of ``view``'s hand, written as ``new_game``'s ``fixed_deals``
        expects it, from every seat's cards as dealt and the kitty."""
        ...

    def hand_actions(self, view: PlayerView, hidden: HiddenCards) -> list[tuple[int, Action]]:
        """``view.actions`` with each hidden action filled in from ``hidden``."""
        ...

    def restore_record(self, state: Any, view: PlayerView) -> None:
        """Copy into a freshly started ``state`` what the view records of the
        deals before this one (a score pad), which replaying this hand
        cannot rebuild."""
        ...
