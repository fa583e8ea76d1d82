"""Computer moves computed off the main thread.

A computer player may think for a while; the window must keep drawing and
answering clicks meanwhile. ``AiWorker`` runs each decision on one daemon
thread and hands the result back through ``poll``. The decision function
(``Match.choose_ai_action``) reads only an immutable player view and that
seat's own RNG, and the table applies the returned action on the main
thread, so the game state is only ever changed there.

Each job carries a key (the number of actions applied when it was asked);
a result whose key no longer matches the table's position is simply
dropped, which is how leaving a game mid-thought stays harmless.
"""

from __future__ import annotations

import queue
import threading
from dataclasses import dataclass, field
from typing import Any, Callable


@dataclass
class AiJob:
    key: Any
    seat: int
    done: bool = False
    result: Any = None
    error: BaseException | None = None
    _event: threading.Event = field(default_factory=threading.Event, repr=False)

    def wait(self, timeout: float | None = None) -> bool:
        return self._event.wait(timeout)


class AiWorker:
    def __init__(self) -> None:
        self._jobs: queue.Queue[tuple[AiJob, Callable[[], Any]] | None] = queue.Queue()
        self._thread: threading.Thread | None = None

    def _ensure_thread(self) -> None:
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._run, name="ai-worker", daemon=True)
            self._thread.start()

    def submit(self, key: Any, seat: int, decide: Callable[[], Any]) -> AiJob:
        job = AiJob(key, seat)
        self._ensure_thread()
        self._jobs.put((job, decide))
        return job

    def _run(self) -> None:
        while True:
            item = self._jobs.get()
            if item is None:
                return
            job, decide = item
            try:
                job.result = decide()
            except BaseException as exc:  # reported to the table, which logs it
                job.error = exc
            job.done = True
            job._event.set()

    def stop(self) -> None:
        if self._thread is not None and self._thread.is_alive():
            self._jobs.put(None)
