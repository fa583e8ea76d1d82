"""The runners that carry computer players' decisions for the table.

The threaded runner is the one the app uses; its tests wait on the job's
own event (with a timeout, so a broken runner fails instead of hanging),
never on a clock. The inline runner is the one UI tests inject. A real
``Match.ai_request`` snapshot is decided once through each runner, so the
table's actual request type is covered too.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from collections.abc import Callable

import pytest

from game.session.match import Match, Seat
from game.rules import Action, ActionKind, make_rules
from game.rules.actions import PASS, play
from game.session.ai_worker import AiJob, InlineAiRunner, ThreadedAiRunner

TIMEOUT = 10.0


@dataclass
class FakeRequest:
    """A decision that answers with ``answer()``, optionally only once ``gate`` opens."""

    answer: Callable[[], Action]
    seat: int = 1
    key: tuple[int, int] = (0, 1)
    gate: threading.Event | None = None
    started: threading.Event = field(default_factory=threading.Event)
    calls: int = 0

    def decide(self) -> Action:
        self.calls += 1
        self.started.set()
        if self.gate is not None:
            assert self.gate.wait(TIMEOUT), "the test never opened the gate"
        return self.answer()


def _failing() -> Action:
    raise RuntimeError("the computer player fell over")


@pytest.fixture
def runner():
    threaded = ThreadedAiRunner()
    yield threaded
    threaded.stop()
    threaded.join(TIMEOUT)


def test_threaded_result_is_delivered(runner: ThreadedAiRunner) -> None:
    job = runner.submit(FakeRequest(lambda: play(12), seat=2, key=(7, 1)))
    assert job.wait(TIMEOUT)
    assert job.finished and job.result == play(12) and job.error is None
    assert (job.seat, job.key) == (2, (7, 1))


def test_threaded_error_is_delivered_not_raised(runner: ThreadedAiRunner) -> None:
    job = runner.submit(FakeRequest(_failing))
    assert job.wait(TIMEOUT)
    assert job.result is None
    assert isinstance(job.error, RuntimeError) and "fell over" in str(job.error)
    # The thread survives a failing decision and answers the next one.
    assert runner.submit(FakeRequest(lambda: PASS)).wait(TIMEOUT)


def test_a_job_is_running_until_answered_or_cancelled(runner: ThreadedAiRunner) -> None:
    gate = threading.Event()
    job = runner.submit(FakeRequest(lambda: play(3), gate=gate))
    assert job.running and not job.finished
    gate.set()
    assert job.wait(TIMEOUT) and not job.running
    dropped = AiJob(FakeRequest(lambda: play(4)))
    assert dropped.running
    dropped.cancel()
    assert not dropped.running


def test_threaded_jobs_run_in_order(runner: ThreadedAiRunner) -> None:
    gate = threading.Event()
    first = runner.submit(FakeRequest(lambda: play(1), gate=gate))
    second = runner.submit(FakeRequest(lambda: play(2)))
    assert not second.finished  # queued behind the first, which waits for the gate
    gate.set()
    assert first.wait(TIMEOUT) and second.wait(TIMEOUT)
    assert (first.result, second.result) == (play(1), play(2))


def test_cancelled_job_while_thinking_never_reports(runner: ThreadedAiRunner) -> None:
    gate = threading.Event()
    request = FakeRequest(lambda: play(5), gate=gate)
    job = runner.submit(request)
    assert request.started.wait(TIMEOUT)
    job.cancel()
    gate.set()
    # The answer arrives but is dropped: the job is cancelled, not finished.
    assert job.wait(TIMEOUT) is False
    follow_up = runner.submit(FakeRequest(lambda: PASS))
    assert follow_up.wait(TIMEOUT)  # the cancelled decision has certainly ended by now
    assert job.cancelled and not job.finished and job.result is None and job.error is None


def test_cancelled_queued_job_is_never_decided(runner: ThreadedAiRunner) -> None:
    gate = threading.Event()
    runner.submit(FakeRequest(lambda: play(1), gate=gate))
    queued_request = FakeRequest(lambda: play(2))
    queued = runner.submit(queued_request)
    queued.cancel()
    gate.set()
    assert runner.submit(FakeRequest(lambda: PASS)).wait(TIMEOUT)
    assert queued_request.calls == 0
    assert not queued.finished and queued.result is None


def test_stop_cancels_pending_jobs_and_ends_the_thread() -> None:
    runner = ThreadedAiRunner()
    gate = threading.Event()
    running_request = FakeRequest(lambda: play(1), gate=gate)
    running = runner.submit(running_request)
    assert running_request.started.wait(TIMEOUT)
    queued_request = FakeRequest(lambda: play(2))
    queued = runner.submit(queued_request)
    assert runner.running
    runner.stop()
    gate.set()
    assert runner.join(TIMEOUT), "the worker thread ended"
    assert not runner.running
    assert running.cancelled and running.result is None
    assert queued.cancelled and queued_request.calls == 0


def test_stop_without_any_job_is_harmless() -> None:
    runner = ThreadedAiRunner()
    runner.stop()
    assert runner.join(TIMEOUT) and not runner.running


def test_a_stopped_runner_starts_again_for_a_new_job() -> None:
    runner = ThreadedAiRunner()
    assert runner.submit(FakeRequest(lambda: PASS)).wait(TIMEOUT)
    runner.stop()
    assert runner.join(TIMEOUT)
    job = runner.submit(FakeRequest(lambda: play(3)))
    assert job.wait(TIMEOUT) and job.result == play(3)
    runner.stop()
    assert runner.join(TIMEOUT)


def test_inline_runner_answers_inside_submit() -> None:
    runner = InlineAiRunner()
    request = FakeRequest(lambda: play(9))
    job = runner.submit(request)
    assert job.finished and job.result == play(9) and request.calls == 1
    failed = runner.submit(FakeRequest(_failing))
    assert failed.finished and failed.result is None and isinstance(failed.error, RuntimeError)
    runner.stop()


def test_inline_result_cancelled_before_it_is_used_is_dropped() -> None:
    job = InlineAiRunner().submit(FakeRequest(lambda: play(4)))
    job.cancel()
    assert job.cancelled and not job.finished and job.result is None


def test_job_cancelled_before_running_is_skipped() -> None:
    request = FakeRequest(lambda: play(4))
    job = AiJob(request)
    job.cancel()
    job.run()
    assert request.calls == 0 and not job.finished


@pytest.mark.parametrize("game, players", [("bidwhist", 4), ("wizard", 3)])
def test_a_real_match_request_is_decided_by_both_runners(game: str, players: int) -> None:
    """The snapshot taken on the main thread decides the same legal action on either runner."""
    rules = make_rules(game, {}, players=players)
    match = Match(rules, [Seat(f"P{i}", "ai:medium") for i in range(players)], seed=11)
    request = match.ai_request()
    inline = InlineAiRunner().submit(request)
    threaded_runner = ThreadedAiRunner()
    try:
        threaded = threaded_runner.submit(request)
        assert threaded.wait(TIMEOUT)
    finally:
        threaded_runner.stop()
        threaded_runner.join(TIMEOUT)
    assert inline.result is not None and inline.result == threaded.result
    assert inline.result in match.legal_actions()
    assert inline.result.kind in (ActionKind.PASS, ActionKind.BID, ActionKind.PREDICT, ActionKind.TRUMP)
    assert (inline.seat, inline.key) == (match.current_player, match.position_key())
