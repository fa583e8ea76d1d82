"""Who acts next at the table, and who may look: the table's turn flow as plain logic."""

from __future__ import annotations

# The table scene asks this controller once per frame what to do next. It
# hands over the facts of the moment (``TableFacts``: the game's phase and
# position, the seat to act, whether animations are still playing, whether
# something is open over the table) and gets back one typed decision: show the
# hot-seat cover, prompt a human, play a human's forced card (the only one they
# may play, when the settings say so, after a pause and never before their
# cover), let a computer take its turn, show the finished hand, deal the next
# one, end the game, or wait. A computer's thinking is the session's
# (``game.session.computers``); the controller keeps only the pacing a player
# sees: nothing moves behind an open menu or under moving cards, and a computer's
# move waits out the settings' pause (``ComputerTurn.paced``). The scene carries the decision out; the controller
# remembers only what the turn flow itself needs (which position was already
# prompted, whether the hand-over pad was shown, how long the table has been
# waiting at this position).
#
# The controller also keeps the table's *viewer*: the one seat whose private
# information the screen may show.
#
# * With exactly one human, the viewer is always that human.
# * With no human at the table, it is seat 0, whose hand lies face up at the
#   bottom, so a game between computers can be watched.
# * With two or more humans sharing the screen (hot seat), the viewer is a
#   human only while that human acts, after passing a "Pass to <name>" cover;
#   while computers play, between two humans and after every new deal it is
#   ``PUBLIC_SEAT``, so nobody's cards are face up for the wrong person. A
#   human who is to act again straight after their own action (the declarer
#   naming trump and then discarding, the winner of a trick leading the next)
#   keeps the screen without a new cover, since nobody else acted meanwhile.
#
# It is pure: no pygame, no threads, no clock (the frame's ``dt`` is passed
# in), so every rule above is checked by unit tests without a window.

from collections.abc import Sequence
from dataclasses import dataclass

from game.rules import PUBLIC_SEAT, Phase

Position = tuple[int, int]  # ``TableSession.position``: (actions applied, deal number)


@dataclass(frozen=True)
class TableFacts:
    """What the controller needs to know about the table this frame."""

    position: Position
    phase: Phase
    current_seat: int  # -1 when nobody is to act (hand over, game over)
    animating: bool  # the animation director still has something to show
    covered: bool  # a dialog, menu, score pad or cover is open over the table
    ai_pause: float = 0.0  # seconds a computer move is held back, so a player can follow it
    auto_next_delay: float = 0.0  # seconds a finished hand stays up when no human has to close it
    # The human to act, at the screen, may play exactly one card and the settings let it play
    # itself (auto-play): it does after ``auto_play_delay`` seconds of the table standing still.
    forced_play: bool = False
    auto_play_delay: float = 0.0


# ---------------------------------------------------------------- decisions


@dataclass(frozen=True)
class Wait:
    """Nothing to do this frame."""


@dataclass(frozen=True)
class ShowCover:
    """Hot seat: hide the table until ``seat``'s player says they are at the screen."""

    seat: int


@dataclass(frozen=True)
class Prompt:
    """Ask the human at ``seat`` for their decision in ``phase`` (in the play phase the hand itself asks)."""

    seat: int
    phase: Phase


@dataclass(frozen=True)
class AutoPlay:
    """The human at ``seat`` has only one card they may play, and has seen it for the pause: play it."""

    seat: int
    position: Position


@dataclass(frozen=True)
class ComputerTurn:
    """The computer at ``seat`` is to act: the session may let it think, and play its
    answer once ``paced`` (the table has stood still for the settings' pause)."""

    seat: int
    paced: bool


@dataclass(frozen=True)
class ShowHandOver:
    """The hand is over: show the score pad whose button deals the next hand."""

    position: Position


@dataclass(frozen=True)
class AutoNextDeal:
    """No human needs to close the finished hand: deal the next one."""


@dataclass(frozen=True)
class GameOver:
    """The game has ended: record it and show the end screen (decided once)."""


Decision = Wait | ShowCover | Prompt | AutoPlay | ComputerTurn | ShowHandOver | AutoNextDeal | GameOver

WAIT = Wait()


class TurnController:
    """The turn flow of one table; ``humans`` are the seats people play."""

    def __init__(self, humans: Sequence[int], *, spectator: bool = False) -> None:
        """``spectator``: nobody plays here and nobody's hand may be shown (a network
        table's spectator), where a local game of computers shows seat 0's."""
        self.humans: tuple[int, ...] = tuple(humans)
        if len(self.humans) == 1:
            self._viewer = self.humans[0]
        elif not self.humans:
            self._viewer = PUBLIC_SEAT if spectator else 0
        else:
            self._viewer = PUBLIC_SEAT
        self._position: Position | None = None
        self._waited = 0.0  # seconds idle and uncovered at this position
        self._prompted: Position | None = None
        self._auto_played: Position | None = None
        self._hand_over_shown: Position | None = None
        self._game_over_handled = False

    # ------------------------------------------------------------ the viewer
    @property
    def hot_seat(self) -> bool:
        """Two or more people share the screen, so it must be handed over between them."""
        return len(self.humans) > 1

    @property
    def viewer(self) -> int:
        """The seat whose private information the screen may show, or ``PUBLIC_SEAT``."""
        return self._viewer

    def cover_passed(self, seat: int) -> None:
        """``seat``'s player has passed their cover: the screen is theirs until they have acted."""
        if seat not in self.humans:
            raise ValueError(f"seat {seat} has no human player to pass the cover to")
        self._viewer = seat
        self._prompted = None  # now prompt them, behind the cover they just passed
        self._waited = 0.0  # and a forced card's pause starts now that they can see it

    def action_applied(self, actor: int, next_seat: int, new_deal: bool) -> None:
        """An action (or the next deal, ``actor`` -1) was applied; in hot seat the screen
        goes public again unless the same human is to act straight away in the same deal."""
        if not self.hot_seat:
            return
        if new_deal or actor != self._viewer or next_seat != actor:
            self._viewer = PUBLIC_SEAT

    def position_rewound(self, position: Position | None = None) -> None:
        """The game went back to an earlier position (undo): forget what was prompted or
        shown, since a position key may now come round again with a different game behind it.
        A forced card at the restored ``position`` waits for its player: they went back on
        purpose, and must be able to undo further than that card."""
        self._position = None
        self._waited = 0.0
        self._prompted = None
        self._auto_played = position
        self._hand_over_shown = None
        self._game_over_handled = False

    def action_refused(self) -> None:
        """The human's choice was refused (the reason is shown): ask them again."""
        self._prompted = None

    def awaiting_next_deal(self, position: Position) -> bool:
        """The finished hand at ``position`` was shown and waits for a human to deal on."""
        return self._hand_over_shown == position

    # ------------------------------------------------------------ the flow
    def next_step(self, facts: TableFacts, dt: float) -> Decision:
        """What the table does this frame (``dt``: the seconds since the last frame)."""
        if facts.position != self._position:
            self._position = facts.position
            self._waited = 0.0
        if facts.animating or facts.covered:
            # Nothing starts while cards move or something is open over the
            # table: a computer does not move behind an open menu.
            return WAIT
        self._waited += dt
        if facts.phase == Phase.GAME_OVER:
            if self._game_over_handled:
                return WAIT
            self._game_over_handled = True
            return GameOver()
        if facts.phase == Phase.HAND_OVER:
            return self._hand_over(facts)
        seat = facts.current_seat
        if seat < 0:
            return WAIT  # nobody is to act (the rules are between two steps)
        if seat in self.humans:
            return self._human_turn(facts, seat)
        return self._computer_turn(facts, seat)

    def _hand_over(self, facts: TableFacts) -> Decision:
        if self.humans:
            if self._hand_over_shown == facts.position:
                return WAIT
            self._hand_over_shown = facts.position
            return ShowHandOver(facts.position)
        return AutoNextDeal() if self._waited >= facts.auto_next_delay else WAIT

    def _human_turn(self, facts: TableFacts, seat: int) -> Decision:
        if self._prompted == facts.position:
            # Prompted already. A forced card plays itself once its player has had the
            # pause to see it, and only behind their own cover (the viewer is theirs).
            if (
                facts.forced_play
                and self._viewer == seat
                and self._auto_played != facts.position
                and self._waited >= facts.auto_play_delay
            ):
                self._auto_played = facts.position
                return AutoPlay(seat, facts.position)
            return WAIT
        self._prompted = facts.position
        if self._viewer != seat:
            # Only in hot seat: the screen is handed over, and shows nobody's
            # cards until this player has passed the cover.
            self._viewer = PUBLIC_SEAT
            return ShowCover(seat)
        return Prompt(seat, facts.phase)

    def _computer_turn(self, facts: TableFacts, seat: int) -> Decision:
        return ComputerTurn(seat, paced=self._waited >= facts.ai_pause)
