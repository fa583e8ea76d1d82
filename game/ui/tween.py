"""Clock-driven tweens: values that move from one number to another over time."""

from __future__ import annotations

# Everything that moves on the table is a ``Tween`` advanced by ``update(dt)``
# with the frame's elapsed seconds, so motion looks the same at 30 or 144
# frames per second and never blocks the event loop (no nested loops, no
# sleeps). A tween eases a value between a start and an end, may wait for a
# ``delay`` first, and calls ``on_finish`` once when it completes.
#
# The animation speed setting is a multiplier on durations: ``instant`` makes
# every duration zero, so a tween finishes on its first update and the table
# simply jumps to its end state.

from collections.abc import Callable, Iterable

Easing = Callable[[float], float]

SPEED_FACTORS: dict[str, float] = {"slow": 1.7, "normal": 1.0, "fast": 0.5, "instant": 0.0}


def speed_factor(speed: str) -> float:
    """Duration multiplier for an animation speed name (unknown names count as normal)."""
    return SPEED_FACTORS.get(speed, 1.0)


# --------------------------------------------------------------------------
# Easing curves: f(0) == 0 and f(1) == 1.


def linear(t: float) -> float:
    return t


def ease_in_quad(t: float) -> float:
    return t * t


def ease_out_quad(t: float) -> float:
    return 1 - (1 - t) * (1 - t)


def ease_out_cubic(t: float) -> float:
    return 1 - (1 - t) ** 3


def ease_in_out_cubic(t: float) -> float:
    return 4 * t * t * t if t < 0.5 else 1 - (-2 * t + 2) ** 3 / 2


def ease_out_back(t: float) -> float:
    """Overshoots a little and settles: a card 'landing' with some weight."""
    c1 = 1.3
    c3 = c1 + 1
    return 1 + c3 * (t - 1) ** 3 + c1 * (t - 1) ** 2


def lerp(a: float, b: float, t: float) -> float:
    return a + (b - a) * t


# --------------------------------------------------------------------------


class Tween:
    """Moves a value from ``start`` to ``end`` over ``duration`` seconds.

    ``on_update(value)`` receives the eased value each update (including the
    final one); ``on_start`` runs when the delay has passed; ``on_finish``
    runs exactly once at the end. A zero duration finishes on the first update.
    """

    __slots__ = (
        "start",
        "end",
        "duration",
        "delay",
        "easing",
        "elapsed",
        "started",
        "done",
        "on_update",
        "on_start",
        "on_finish",
    )

    def __init__(
        self,
        start: float,
        end: float,
        duration: float,
        *,
        delay: float = 0.0,
        easing: Easing = ease_in_out_cubic,
        on_update: Callable[[float], None] | None = None,
        on_start: Callable[[], None] | None = None,
        on_finish: Callable[[], None] | None = None,
    ) -> None:
        self.start = start
        self.end = end
        self.duration = max(0.0, duration)
        self.delay = max(0.0, delay)
        self.easing = easing
        self.elapsed = 0.0
        self.started = False
        self.done = False
        self.on_update = on_update
        self.on_start = on_start
        self.on_finish = on_finish

    @property
    def value(self) -> float:
        return lerp(self.start, self.end, self.easing(self.progress))

    @property
    def progress(self) -> float:
        if self.duration <= 0:
            return 1.0 if self.elapsed >= self.delay else 0.0
        return min(1.0, max(0.0, (self.elapsed - self.delay) / self.duration))

    def update(self, dt: float) -> float:
        """Advance by ``dt`` seconds; returns the time left over after finishing."""
        if self.done:
            return dt
        self.elapsed += dt
        if self.elapsed < self.delay:
            return 0.0
        if not self.started:
            self.started = True
            if self.on_start is not None:
                self.on_start()
        if self.elapsed >= self.delay + self.duration - 1e-6:
            self.elapsed = max(self.elapsed, self.delay + self.duration)
        if self.on_update is not None:
            self.on_update(self.value)
        # A small tolerance: thirty steps of 1/30 s must finish a one-second tween.
        if self.elapsed >= self.delay + self.duration - 1e-6:
            self.done = True
            if self.on_finish is not None:
                self.on_finish()
            return self.elapsed - self.delay - self.duration
        return 0.0

    def finish(self) -> None:
        """Jump to the end (running the callbacks that have not run yet)."""
        if not self.done:
            self.update(self.delay + self.duration - self.elapsed + 1e-9)


class TweenGroup:
    """Tweens that run side by side; the group is done when all of them are."""

    def __init__(self, tweens: Iterable[Tween] = ()) -> None:
        self.tweens: list[Tween] = list(tweens)

    def add(self, tween: Tween) -> Tween:
        self.tweens.append(tween)
        return tween

    @property
    def done(self) -> bool:
        return all(t.done for t in self.tweens)

    def update(self, dt: float) -> None:
        # Iterate over a copy: an on_finish callback may add follow-up tweens.
        for tween in list(self.tweens):
            tween.update(dt)
        if len(self.tweens) > 64:
            self.tweens = [t for t in self.tweens if not t.done]

    def finish_all(self) -> None:
        while not self.done:
            for tween in list(self.tweens):
                tween.finish()

    def clear(self) -> None:
        self.tweens.clear()
