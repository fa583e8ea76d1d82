"""The seam between a table and a game: ``TableSession``, all a screen may ask and do.

A table and its dialogs reach a game only through it: its seats, a numbered event
stream per viewer (``events_since``: catch up from the last number seen), the
viewer's view with the score history (``view``), ``submit`` (raising the engine's
coded refusal), and undo, claims, the next deal, hints, saving and leaving.
"""

from __future__ import annotations

# * ``seats``, ``game_def``, ``rules``: who plays what.
# * A numbered event stream per viewer: ``events_since(number, viewer)`` gives the
#   events after ``number`` as ``viewer`` may learn them (a seat, or ``PUBLIC_SEAT``:
#   the same viewer notion the views use), so a client catches up from the last
#   number it saw. ``epoch`` changes when the game went back (undo): the old
#   numbers then no longer tell the story, and a client sets itself from the view.
# * ``view(viewer)``: that viewer's ``SeatView``, the engine's view with the score
#   history (``ScoreHistory``) in it.
# * ``submit(seat, action)``: the engine's coded refusal (``IllegalActionError``,
#   ``.code``) is raised; ``refusal(action)`` returns it without acting.
# * What the table offers besides: undo, claims, the next deal, hints, whose turn,
#   the end, the hand's review, saving and leaving, as session operations.
#
# ``LocalSession`` (``game.session.local``) is a match in this process, its computer
# players, undo, autosave, hints and the hand history. ``RemoteSession``
# (``game.net.remote_session``) is a network table: the server holds the deck and
# each client gets only its seats' streams and views. The table treats both alike:
# an action a remote session sends is "in flight" (nobody is to act) until
# ``poll`` takes in its answer, and the other seats' moves arrive through
# ``advance_computers``, paced as a local computer's.

from dataclasses import dataclass, field
from enum import Enum
from typing import Protocol
from collections.abc import Callable, Mapping, Sequence

from game.ai.budget import SearchBudget
from game.session.match import Seat
from game.rules import PUBLIC_SEAT, Action, GameDef, GameEvent, IllegalActionError, Phase, PlayerView, Viewer
from game.rules.finished_hand import FinishedHand
from game.rules.house_rules import Rules
from game.session.ai_worker import AiJob
from game.session.hints import HintLike
from game.session.scores import ScoreHistory

__all__ = [
    "Answer",
    "Away",
    "ComputerStep",
    "NumberedEvent",
    "PUBLIC_SEAT",
    "Position",
    "Seat",
    "SeatView",
    "TableSession",
    "Viewer",
]

Position = tuple[int, int]  # (actions applied, deal number): changes with every action


@dataclass(frozen=True)
class NumberedEvent:
    """One event of the stream with its number: numbers only grow, one per event."""

    number: int
    event: GameEvent


@dataclass(frozen=True)
class SeatView:
    """What one viewer may see now: the engine's view and the score history.

    The score history is read only when asked for: most questions a table asks want the view alone."""

    game: PlayerView
    read_scores: Callable[[], ScoreHistory] = field(repr=False, compare=False)

    @property
    def scores(self) -> ScoreHistory:
        return self.read_scores()


@dataclass(frozen=True)
class Answer:
    """What ``poll`` took in: a change of the game to show (``applied``; ``actor`` the seat that
    acted, -1 for the next deal; ``deal_before`` the deal number before it), or this screen's
    action refused (``refusal``: the engine's coded reason; None for an action lost with the
    link, which its player is simply asked for again)."""

    applied: bool
    actor: int = -1
    deal_before: int = 0
    refusal: IllegalActionError | None = None


@dataclass(frozen=True)
class Away:
    """A seat whose player has dropped: for how many seconds now, and whether a computer
    stands in for them meanwhile."""

    seconds: float
    stand_in: bool = False


class ComputerStep(Enum):
    """What ``advance_computers`` did this frame."""

    IDLE = "idle"  # no computer is to act
    STARTED = "started"  # a computer began thinking about this position
    THINKING = "thinking"  # still thinking, or its answer waits for the table's pause
    PLAYED = "played"  # a computer's move (or claim) was applied


class TableSession(Protocol):
    """One game as a table sees it (see the module docstring)."""

    @property
    def seats(self) -> Sequence[Seat]: ...

    @property
    def game_def(self) -> GameDef: ...

    @property
    def rules(self) -> Rules: ...

    @property
    def num_players(self) -> int: ...

    @property
    def local_seats(self) -> Sequence[int]:
        """The seats whose decisions are made at this screen: a local game's humans, or the
        seats this program holds at a network table (the others play elsewhere)."""
        ...

    @property
    def spectating(self) -> bool:
        """This screen only watches (a network table's spectator): it sees what the public
        sees, never a hand, where a local game with no human shows seat 0's hand face up."""
        ...

    # ---------------------------------------------------------------- the position
    @property
    def position(self) -> Position: ...

    @property
    def phase(self) -> Phase: ...

    @property
    def current_player(self) -> int:
        """Whose turn it is (-1: nobody's, between hands or at the end)."""
        ...

    @property
    def deal_number(self) -> int: ...

    @property
    def is_over(self) -> bool: ...

    # ---------------------------------------------------------------- events and views
    @property
    def last_number(self) -> int:
        """The number of the latest event (0 before any)."""
        ...

    @property
    def epoch(self) -> int:
        """Changes whenever the game went back (undo): numbers seen before may mean other events."""
        ...

    def events_since(self, number: int, viewer: Viewer) -> Sequence[NumberedEvent]: ...

    def hand_events(self, viewer: Viewer) -> Sequence[GameEvent]:
        """The events of the hand under way (or just finished), from its deal, as ``viewer`` may know them."""
        ...

    def view(self, viewer: Viewer) -> SeatView: ...

    def finished_hand(self) -> FinishedHand | None:
        """The hand just finished with every card face up (None while one is played)."""
        ...

    # ---------------------------------------------------------------- acting
    def submit(self, seat: int, action: Action) -> int:
        """Apply ``seat``'s ``action``; the number of the last event it made. Raises the
        engine's coded refusal (``IllegalActionError``)."""
        ...

    def refusal(self, action: Action) -> IllegalActionError | None:
        """Why ``action`` would be refused now, or None."""
        ...

    def next_deal(self) -> int: ...

    def can_claim(self, seat: int) -> bool: ...

    def claim(self, seat: int) -> int: ...

    @property
    def offers_undo(self) -> bool:
        """Undo exists at this table at all (a network table has none: the others saw the move)."""
        ...

    def can_undo(self, seat: int) -> bool: ...

    def undo(self, seat: int) -> bool: ...

    def poll(self) -> Answer | None:
        """Take in what arrived for this screen: the answer to its action in flight (applied, or
        refused), or a change it did not ask for that is not a move to pace (a catch-up after a
        reconnection). A local session has nothing to take in."""
        ...

    def waiting_on_others(self) -> bool:
        """The next change can only come from elsewhere (a player or server on the network) and
        has not arrived: the table may sleep until something arrives."""
        ...

    def away_seats(self) -> Mapping[int, Away]:
        """The seats whose players have dropped from the table, with the time away (ticking)."""
        ...

    @property
    def link_down(self) -> bool:
        """The connection to the game is lost (and being made again)."""
        ...

    @property
    def table_closed(self) -> bool:
        """The game is gone for good (its host closed the network table): it will not go on."""
        ...

    @property
    def seat_taken_elsewhere(self) -> bool:
        """A seat played here was taken back by its player from another window or computer
        (with its seat token): this screen no longer plays it."""
        ...

    # ---------------------------------------------------------------- computers and hints
    def advance_computers(self, may_play: bool) -> ComputerStep:
        """Let a computer to act think, and play its answer once ``may_play`` (the table's
        pacing: nothing moves and the pause is over)."""
        ...

    def thinking_seat(self) -> int:
        """The computer seat thinking about the position now, or -1."""
        ...

    def request_hint(self, seat: int, budget: SearchBudget | None) -> AiJob[HintLike]: ...

    # ---------------------------------------------------------------- saving and leaving
    @property
    def saved(self) -> bool:
        """The game as it stands is kept (it can be continued after leaving)."""
        ...

    @property
    def kept_on_server(self) -> bool:
        """The game is kept by a server: leaving the table keeps this player's seats."""
        ...

    def take_save_error(self) -> OSError | None: ...

    def record_finished(self) -> bool:
        """Add the ended game to the player's history (once); False if that failed."""
        ...

    def open(self) -> None:
        """A table is shown on this session (a local one saves the game as it stands)."""
        ...

    def close(self) -> None:
        """The table is left: drop what computers and hints are thinking, without waiting."""
        ...
