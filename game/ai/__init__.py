"""Computer players.

A computer player is built by level name with its own RNG and answers one
question: ``choose(view) -> Action``, from that seat's ``PlayerView`` only
(never the full state, so it cannot peek at hidden cards). New levels plug
in by adding a factory to ``LEVELS``.
"""

from __future__ import annotations

import random
from typing import Callable, Protocol

from game.rules import Action, PlayerView


class ComputerPlayer(Protocol):
    def choose(self, view: PlayerView) -> Action: ...


class RandomPlayer:
    """Plays a uniformly random legal action: a yardstick for tests and benchmarks."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: PlayerView) -> Action:
        return self.rng.choice(view.legal_actions)


def _medium(rng: random.Random) -> ComputerPlayer:
    from game.ai.medium import MediumPlayer
    return MediumPlayer(rng)


LEVELS: dict[str, Callable[[random.Random], ComputerPlayer]] = {
    "random": RandomPlayer,
    "medium": _medium,
}


def make_player(level: str, rng: random.Random) -> ComputerPlayer:
    try:
        factory = LEVELS[level]
    except KeyError:
        raise ValueError(f"unknown computer level {level!r}; known levels: {', '.join(LEVELS)}") from None
    return factory(rng)
