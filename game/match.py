"""One game in progress: rules, seed, seats, state and the action log.

A ``Match`` is what the window and the headless commands both drive. It owns
the current engine state, applies actions (checking that the right seat is
acting), keeps the action log that reproduces the game, records the hand
history from the engine's events, and asks computer seats for their moves.
It never draws and never waits: the caller decides when to ask a computer
player and when to deal the next hand.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from game.ai import make_player
from game.history import HistoryRecorder
from game.rules import Action, Event, IllegalActionError, Phase, PlayerView, apply, new_game
from game.rules.actions import NEXT_DEAL, action_to_str, parse_action
from game.rules.house_rules import Rules, rules_from_dict

SAVE_FORMAT = "trick-table-save"
SAVE_VERSION = 1


@dataclass(frozen=True)
class Seat:
    """Who sits at a seat: a name and ``human`` or ``ai:<level>``."""

    name: str
    controller: str = "human"

    @property
    def is_human(self) -> bool:
        return self.controller == "human"

    @property
    def ai_level(self) -> str | None:
        return self.controller.split(":", 1)[1] if self.controller.startswith("ai:") else None


class Match:
    def __init__(self, rules: Rules, seats: list[Seat], seed: int) -> None:
        self.rules = rules
        self.seats = list(seats)
        self.seed = seed
        self.state, events = new_game(rules, len(seats), seed)
        self.actions: list[tuple[int, Action]] = []
        self.events: list[Event] = list(events)
        self.recorder = HistoryRecorder(rules.game, seed, rules.to_dict(), [
            {"seat": i, "name": s.name, "controller": s.controller} for i, s in enumerate(seats)])
        self.recorder.feed(events)
        # Each computer seat keeps one RNG, reseeded before every decision from
        # (seed, seat, actions so far): a decision then depends only on the game
        # position, so a game resumed from a save (or replayed for a bug report)
        # goes on exactly as the uninterrupted one would have.
        self._ai_rngs = {i: random.Random(f"{seed}:seat:{i}") for i, s in enumerate(seats)
                         if s.ai_level is not None}
        self._ai_players = {i: make_player(s.ai_level, self._ai_rngs[i])
                            for i, s in enumerate(seats) if s.ai_level is not None}

    # ------------------------------------------------------------------ queries
    @property
    def game(self) -> str:
        return self.rules.game

    @property
    def phase(self) -> Phase:
        return self.state.phase

    @property
    def current_player(self) -> int:
        return self.state.current_player

    @property
    def is_over(self) -> bool:
        return self.state.is_terminal

    def view(self, seat: int) -> PlayerView:
        return self.state.view(seat)

    def is_human_turn(self) -> bool:
        seat = self.state.current_player
        return seat >= 0 and self.seats[seat].is_human

    def legal_actions(self) -> list[Action]:
        return self.state.legal_actions()

    def history(self) -> dict[str, Any]:
        """The hand history of the game so far (``complete`` false until it ends)."""
        return self.recorder.record

    # ------------------------------------------------------------------ acting
    def apply(self, action: Action, seat: int | None = None) -> list[Event]:
        """Apply ``action``; with ``seat`` given, refuse it unless that seat is to act."""
        current = self.state.current_player
        if seat is not None and seat != current:
            raise IllegalActionError("It is not your turn", "not_your_turn", seat=seat)
        self.state, events = apply(self.state, action)
        self.actions.append((current, action))
        self.events.extend(events)
        self.recorder.feed(events)
        return events

    def next_deal(self) -> list[Event]:
        """Deal the next hand once the finished one has been shown."""
        return self.apply(NEXT_DEAL)

    def choose_ai_action(self, seat: int | None = None) -> Action:
        """The computer player's decision for ``seat`` (default: the seat to act),
        from that seat's view only. Safe to call from a worker thread: it reads
        an immutable view and touches no shared state except that seat's RNG."""
        # Read the position once: the main thread may move on meanwhile.
        state, done = self.state, len(self.actions)
        seat = state.current_player if seat is None else seat
        self._ai_rngs[seat].seed(f"tricktable:{self.seed}:seat:{seat}:decision:{done}")
        return self._ai_players[seat].choose(state.view(seat))

    def play_out(self) -> None:
        """Play to the end with computer players everywhere (headless)."""
        while not self.state.is_terminal:
            if self.state.phase == Phase.HAND_OVER:
                self.next_deal()
            else:
                self.apply(self.choose_ai_action())

    # ------------------------------------------------------------------ saves
    def to_save(self) -> dict[str, Any]:
        """A save is the triple (rules, seed, actions) plus the seats."""
        return {"format": SAVE_FORMAT, "version": SAVE_VERSION, "game": self.game,
                "rules": self.rules.to_dict(), "seed": self.seed,
                "seats": [{"name": s.name, "controller": s.controller} for s in self.seats],
                "actions": [action_to_str(a) for _, a in self.actions]}

    @classmethod
    def from_save(cls, data: dict[str, Any]) -> "Match":
        """Rebuild a match by replaying its actions; raises ``ValueError`` with a
        clear message when the save is damaged."""
        try:
            if data.get("format") != SAVE_FORMAT or data.get("version") != SAVE_VERSION:
                raise ValueError("not a Trick Table save of a version this program reads")
            rules = rules_from_dict(data["game"], data["rules"])
            seats = [Seat(str(s["name"]), str(s["controller"])) for s in data["seats"]]
            match = cls(rules, seats, int(data["seed"]))
            for text in data["actions"]:
                match.apply(parse_action(text))
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"the save is damaged ({exc})") from None
        return match

