"""The game adapter: what the screens, the hints and the settings need to show one game.

Every ``GameDef`` carries one (``GameDef.adapter``). It answers in data
(numbers, card lists, text keys with parameters as ``Phrase``), never in
pixels or sentences; the interface words a ``Phrase`` in the player's language.
"""

from __future__ import annotations

# The adapter holds the answers the layers above the rules used to work out
# for themselves by testing a view's type, importing one game's rules module
# or comparing the scoring style. The built-in games' adapters live beside
# their rules (``bidwhist_adapter``, ``wizard_adapter``); a new game writes one.

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Union
from collections.abc import Mapping, Sequence

from game.rules.actions import Action
from game.rules.view import PlayerView

if TYPE_CHECKING:  # the registry imports this module
    from game.rules.registry import GameDef


@dataclass(frozen=True)
class Word:
    """A parameter the interface puts into words: ``kind`` "suit" (0-3),
    "direction" (0 uptown, 1 downtown), "cards" (card ids, strongest first)
    or "side" (a scoring side: a team by its players' names, or a player)."""

    kind: str
    value: Any


# A phrase's parameter: a number or text as it is, a word, or a phrase within the phrase.
PhraseParam = Union[int, str, Word, "Phrase"]


@dataclass(frozen=True)
class Phrase:
    """A line of interface text as data: a catalogue key and its parameters."""

    key: str
    params: Mapping[str, PhraseParam] = field(default_factory=dict)


# How a line of the rules help's ranking section is shown: a quiet note, the
# label above a row of cards, or the row itself (a ``Word("cards", ...)``).
NOTE, LABEL, CARDS = "note", "label", "cards"


@dataclass(frozen=True)
class RankingLine:
    style: str  # NOTE, LABEL or CARDS
    phrase: Phrase | Word


@dataclass(frozen=True)
class BidShown:
    """One bid as a seat may see it: ``action`` None for a bid hidden from it;
    ``secret`` for the seat's own bid that its plate shows to its player alone."""

    seat: int
    action: Action | None
    secret: bool = False


@dataclass(frozen=True)
class TableFigures:
    """The figures of a deal that belong to one kind of game, read from a view
    by its adapter; the table shows them as they are (defaults: not this game's)."""

    bids: tuple[BidShown, ...] = ()
    # A contract game: the bidding's high bid (seat, books, mode), the
    # declarer once the bidding is won, and the contract once named.
    high_bid: tuple[int, int, int] | None = None
    declarer: int = -1
    contract_books: int = 0
    contract_mode: int = -1
    direction: int = -1
    # Cards lying face down in the middle (a kitty nobody has taken yet), and
    # the cards this seat has laid aside (known to it alone).
    kitty_lying: int = 0
    laid_aside: tuple[int, ...] = ()
    # A game of rounds with a turned-up card: which round of how many, the
    # card (-1 for none), whether trump is still to be named and by whom.
    round_number: int = 0
    total_rounds: int = 0
    turn_up: int = -1
    shows_turn_up: bool = False
    trump_pending: bool = False
    trump_chooser: int = -1
    # A prediction game: each seat's prediction as this seat sees it (-1 for
    # none yet or hidden), and the prediction the seat to act may not make now
    # (uneven bids), or -1.
    predictions: tuple[int, ...] = ()
    forbidden_bid: int = -1
    # The catalogue key of the note saying how the bids are kept from the
    # others (a house rule), None while bids are made in the open.
    secret_bids_note: str | None = None


@dataclass(frozen=True)
class KittyChoice:
    """A hand that has taken a kitty and must lay cards aside: the kitty's
    cards (marked in the hand), how many cards are still to go, and the suit
    each card id belongs to under the contract (its own, or the trump's for a
    card that joins it; NO_SUIT for none), to group the hand by."""

    kitty: tuple[int, ...]
    to_lay_aside: int
    suits: tuple[int, ...]


@dataclass(frozen=True)
class HandStanding:
    """How the deal on the table stands, as the table shows it at this moment
    (its figures follow the cards as they land, ahead of any view)."""

    players: int
    trump: int
    books: tuple[int, ...]  # per scoring side
    tricks_per_hand: int
    over: bool  # the hand has been scored (or thrown in)
    figures: TableFigures


@dataclass(frozen=True)
class ProgressLine:
    """A line of the table's progress panel: in a scoring side's colour
    (``side`` >= 0), highlighted (a verdict), or plain."""

    phrase: Phrase
    side: int = -1
    highlight: bool = False


@dataclass(frozen=True)
class ContractTargets:
    """What a contract of some books asks: the books the declaring side must
    take to make it, and the books the defenders must take to set it."""

    needed: int
    to_set: int


class GameAdapter(ABC):
    """What the screens need to show one game (see the module docstring).

    ``declares_contract``: one side wins the bidding, names a contract and
    scores with its partner (the table shows the bidding, the contract, team
    books and a kitty); otherwise every seat predicts its own tricks (the
    table shows the round, the turned-up card and the bids against the
    tricks)."""

    english_title: str  # the game's name in English messages (the command line, the logs)
    declares_contract: bool

    @abstractmethod
    def table_figures(self, view: PlayerView) -> TableFigures:
        """This game's own figures in ``view``."""

    def contract_targets(self, books: int) -> ContractTargets:
        """What a contract of ``books`` asks (a game with contracts only)."""
        raise ValueError(f"{self.english_title} has no contracts")

    def contract_bids(self, rules: Any) -> range:
        """The numbers of books a bid may name under ``rules``, lowest first
        (none in a game without contracts)."""
        return range(0)

    def kitty_choice(self, view: PlayerView) -> KittyChoice | None:
        """The kitty the seat of ``view`` lays cards aside from, None in a game without one."""
        return None

    def took_contract(self, view: PlayerView) -> bool:
        """Whether the seat of ``view`` took the contract as dealer rather
        than winning it in the bidding (a house rule)."""
        return False

    @abstractmethod
    def progress_lines(self, game: GameDef, standing: HandStanding) -> list[ProgressLine]:
        """How the hand stands, in a few lines for the table's progress panel
        (none while there is nothing to say yet)."""

    @abstractmethod
    def help_numbers(self, rules: Any) -> dict[str, int]:
        """The numbers the rules help's paragraphs quote under ``rules``."""

    @abstractmethod
    def help_ranking(self, deck: Sequence[int], rules: Any, trump: int | None, direction: int) -> list[RankingLine]:
        """The cards of ``deck`` ranked for the rules help: for ``trump``
        (NO_SUIT for none) and ``direction`` (0 uptown, 1 downtown), or, with
        ``trump`` None, before the deal's trump is known."""
