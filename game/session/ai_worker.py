"""Running computer players' decisions for the table: on a thread, or inline for tests."""

from __future__ import annotations

# A computer player may think for a while; the window must keep drawing and
# answering clicks meanwhile. The session therefore takes a snapshot of the
# decision on the main thread (``Match.ai_request``: the seat's view, the RNG
# seed for this decision and the player) and hands it to a runner, which calls
# its pure ``decide()`` and reports through the returned ``AiJob``. The action is
# applied to the match on the main thread (``game.session.computers``), so the
# game state is only ever changed there.
#
# A job can be cancelled (the table was left, or the position moved on); a
# cancelled job never reports a result, even if its answer arrives later, so
# it can never be applied to a position it was not asked about.
#
# The same runners also compute hints for the human player (a ``HintRequest``
# from ``game.session.hints``): a job carries whatever its request's
# ``decide()`` returns, an action for a computer seat or a hint for a person.
#
# Two runners share one interface (``AiRunner``): ``ThreadedAiRunner`` runs
# jobs one after another on a daemon thread, as the app does; ``InlineAiRunner``
# decides at once inside ``submit``, so UI tests can drive whole games frame
# by frame without sleeping or polling for a thread.

import logging
import queue
import threading
from typing import Any, Generic, Protocol, TypeVar

log = logging.getLogger("tricktable.ai")

AnswerT = TypeVar("AnswerT")
AnswerT_co = TypeVar("AnswerT_co", covariant=True)


class AiDecision(Protocol[AnswerT_co]):
    """A decision snapshot (``game.session.match.AiRequest``, or a hint request): who decides,
    for which position, and how."""

    @property
    def seat(self) -> int: ...

    @property
    def key(self) -> tuple[int, int]: ...

    def decide(self) -> AnswerT_co: ...


class AiJob(Generic[AnswerT]):
    """One submitted decision. ``finished`` turns true once its answer (``result``)
    or failure (``error``) is in, and never for a cancelled job."""

    def __init__(self, request: AiDecision[AnswerT]) -> None:
        self.request = request
        self.key = request.key
        self.seat = request.seat
        self._result: AnswerT | None = None
        self._error: Exception | None = None
        self._cancelled = threading.Event()
        self._answered = threading.Event()

    # ------------------------------------------------------------ the table's side
    @property
    def cancelled(self) -> bool:
        return self._cancelled.is_set()

    @property
    def finished(self) -> bool:
        return self._answered.is_set() and not self._cancelled.is_set()

    @property
    def running(self) -> bool:
        """Submitted, not cancelled and not yet answered: the player is still thinking."""
        return not self._answered.is_set() and not self._cancelled.is_set()

    @property
    def result(self) -> AnswerT | None:
        """The chosen action once finished (None while thinking, after a failure or when cancelled)."""
        return self._result if self.finished else None

    @property
    def error(self) -> Exception | None:
        """What the decision raised, once finished."""
        return self._error if self.finished else None

    def cancel(self) -> None:
        """Drop this job: if it has not run it never will, and its answer is never reported."""
        self._cancelled.set()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until answered (for tests of the threaded runner); True when finished."""
        self._answered.wait(timeout)
        return self.finished

    # ------------------------------------------------------------ the runner's side
    def run(self) -> None:
        """Decide now, in the calling thread, unless the job was cancelled first."""
        if self.cancelled:
            return
        try:
            self._result = self.request.decide()
        except Exception as exc:  # handed to the table, which logs it and plays on
            self._error = exc
        self._answered.set()


class AiRunner(Protocol):
    """Where a session sends computer decisions and hints."""

    def submit(self, request: AiDecision[AnswerT]) -> AiJob[AnswerT]: ...

    def stop(self) -> None: ...


class InlineAiRunner:
    """Decides inside ``submit``: the job is finished (or failed) when it is returned."""

    def submit(self, request: AiDecision[AnswerT]) -> AiJob[AnswerT]:
        job = AiJob(request)
        job.run()
        return job

    def stop(self) -> None:
        """Nothing runs in the background, so there is nothing to stop."""


class ThreadedAiRunner:
    """Runs jobs in order on one daemon thread, started when the first job comes."""

    def __init__(self) -> None:
        self._jobs: queue.Queue[AiJob[Any] | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._current: AiJob[Any] | None = None  # the job the thread is deciding

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def submit(self, request: AiDecision[AnswerT]) -> AiJob[AnswerT]:
        job = AiJob(request)
        if not self.running:
            self._thread = threading.Thread(target=self._work, name="ai-worker", daemon=True)
            self._thread.start()
        self._jobs.put(job)
        return job

    def _work(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            self._current = job
            job.run()
            self._current = None

    def stop(self) -> None:
        """Cancel every job not yet answered and let the thread end after the one it is running.

        It does not wait: a slow decision finishes in the background and is
        then dropped, which keeps leaving the table instant.
        """
        current = self._current
        if current is not None:
            current.cancel()
        while True:
            try:
                pending = self._jobs.get_nowait()
            except queue.Empty:
                break
            if pending is not None:
                pending.cancel()
        if self.running:
            self._jobs.put(None)

    def join(self, timeout: float | None = None) -> bool:
        """Wait for a stopped runner's thread to end; True when it has."""
        if self._thread is not None:
            self._thread.join(timeout)
        return not self.running
