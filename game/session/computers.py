"""The computer players' turns: think off the frame loop, play once the table lets them."""

from __future__ import annotations

# A computer to act gets a snapshot of its decision (``Match.ai_request``: its
# view, the RNG seed of this decision, its player), taken on the main thread
# and handed to an AI runner (a thread in the app, inline in tests); the answer
# is applied on the main thread, so the game state only ever changes there.
#
# One step at a time, as the table's frames ask (``LocalSession.advance_computers``): the first call at a
# position starts the thinking; later ones wait until the answer is in and the
# table says its move may be shown (``may_play``: nothing is moving, nothing is
# open over the table, its pause is over); then the move is applied. A job for a
# position the game has left (undo, or the table was left) is cancelled and its
# answer, should it come, is never applied. Nothing here waits or sleeps.
#
# A computer on lead whose every card is sure to win claims the rest, as a
# human may. A failed or refused decision never stalls the game: the first legal
# action is played instead (and the failure logged).

import logging
from collections.abc import Callable

from game.session.match import Match
from game.rules import Action, IllegalActionError, Phase
from game.session.ai_worker import AiJob, AiRunner

log = logging.getLogger("tricktable.table")


class ComputerTurns:
    """The thinking of the computer seats of one match."""

    def __init__(self, match: Callable[[], Match], runner: AiRunner) -> None:
        self._match = match
        self.runner = runner
        self._job: AiJob[Action] | None = None

    @property
    def job(self) -> AiJob[Action] | None:
        """The decision out (or answered and not yet played), if any."""
        return self._job

    def seat_to_act(self) -> int:
        """The computer seat that is to act now, or -1."""
        match = self._match()
        seat = match.current_player
        if match.phase in (Phase.HAND_OVER, Phase.GAME_OVER) or seat < 0 or match.seats[seat].is_human:
            return -1
        return seat

    def thinking_seat(self) -> int:
        """The computer seat whose decision for this position is being computed, or -1."""
        job = self._job
        if job is None or not job.running or job.key != self._match().position_key():
            return -1
        return job.seat

    def start(self) -> bool:
        """Start thinking for the seat to act, unless a job for this position is out; True if started."""
        seat = self.seat_to_act()
        match = self._match()
        if seat < 0 or (self._job is not None and self._job.key == match.position_key()):
            return False
        self.cancel()  # asked about a position the game has left
        self._job = self.runner.submit(match.ai_request(seat))
        return True

    def answer_ready(self) -> bool:
        job = self._job
        return job is not None and job.finished and job.key == self._match().position_key()

    def play(self, apply: Callable[[int, Action], object], claim: Callable[[int], object]) -> bool:
        """Apply the answer that is in (through ``apply``/``claim``, the session's own acting,
        so that saving and recording follow); False when there is none."""
        job = self._job
        if not self.answer_ready() or job is None:
            return False
        self._job = None
        match = self._match()
        seat = job.seat
        if job.error is not None:
            log.error("computer player at seat %d failed: %r", seat, job.error)
        if match.phase == Phase.PLAY and len(match.view(seat).hand) >= 2 and match.can_claim(seat):
            claim(seat)
            return True
        action = job.result
        if action is not None:
            try:
                apply(seat, action)
                return True
            except IllegalActionError as error:
                log.error("computer player at seat %d chose a refused action: %s", seat, error)
        legal = match.legal_actions()
        if legal:
            apply(seat, legal[0])
        return True

    def cancel(self) -> None:
        if self._job is not None:
            self._job.cancel()
            self._job = None

    def stop(self) -> None:
        """Drop what is being thought about and stop the runner, without waiting."""
        self.cancel()
        self.runner.stop()
