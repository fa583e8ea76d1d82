"""A finished game from the hand history as a row of positions to step through."""

from __future__ import annotations

# ``ReplayTimeline(record)`` replays one recorded game through the engine,
# exactly as ``replay --check`` does (``game.persistence.history_replay.replay_start``, then
# ``NEXT_DEAL`` and ``recorded_actions`` deal by deal), and keeps the engine's
# state after every step: the deal, every bid, the trump or contract choice,
# every discard and every card played. The replay viewer shows these states;
# it never rebuilds a position itself, so what it shows is what the engine
# says the position was.
#
# Besides single steps the timeline knows two larger strides: a *trick* mark
# (the deal, the end of the bidding and the discards, the last card of each
# trick) and a *deal* mark (the first position of each deal), which the viewer
# uses for Page Up/Down and for the "deal" buttons.
#
# A record the engine cannot replay raises ``ReplayError`` with a sentence
# saying where it went wrong, as a ``Problem`` (``game.rules.problems``): the
# command line prints its English, the viewer words it in the player's
# language instead of showing a traceback. The engine's refusal of a move is
# coded (a ``Refusal``) and worded like a refused move at the table; what a
# library said in English (a field the record check names) is the problem's
# ``detail``, shown only in English. No pygame here: the
# timeline is plain data, tested against the engine.

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from game.persistence.history_codec import HistoryError
from game.persistence.history_reader import read_history
from game.persistence.history_replay import recorded_actions, replay_start
from game.rules import GameDef, IllegalActionError, ParseError, Phase, RuleConfigError, apply
from game.rules.actions import NEXT_DEAL, Action, ActionKind
from game.rules.events import GameEvent
from game.rules.problems import Problem, ProblemValueError, Refusal


class ReplayError(ProblemValueError):
    """A recorded game the engine cannot replay (its ``problem`` says why)."""


def _cannot_set_up(exc: Exception) -> ReplayError:
    """Why a record cannot start a game: a house rule worded as such, anything else in the English it came with."""
    if isinstance(exc, RuleConfigError):
        coded = exc.located_problem()
        if coded is not None:
            return ReplayError(Problem("replay.rules_refused", {"reason": coded}))
    return ReplayError(Problem("replay.cannot_set_up", {"detail": str(exc)}))


# What a step did, for the viewer's caption and for the strides.
STEP_DEAL = "deal"
STEP_BID = "bid"
STEP_CHOICE = "choice"  # trump suit or no-trump direction
STEP_DISCARD = "discard"
STEP_PLAY = "play"
STEP_TRICK = "trick"  # the card that completed a trick

_KIND_OF_ACTION = {
    ActionKind.BID: STEP_BID,
    ActionKind.PASS: STEP_BID,
    ActionKind.PREDICT: STEP_BID,
    ActionKind.TRUMP: STEP_CHOICE,
    ActionKind.DIRECTION: STEP_CHOICE,
    ActionKind.DISCARD: STEP_DISCARD,
    ActionKind.PLAY: STEP_PLAY,
}


@dataclass(frozen=True)
class ReplayStep:
    """One position of the replay: the engine state after ``action`` by ``seat``.

    ``deal_index`` indexes the record's ``deals``; ``seat`` is -1 and
    ``action`` None for the position right after a deal.
    """

    kind: str
    deal_index: int
    seat: int
    action: Action | None
    state: Any
    events: tuple[GameEvent, ...] = ()

    @property
    def is_trick_mark(self) -> bool:
        """A stop for Page Up/Down: a deal, the last bid or discard before play, a finished trick."""
        return self.kind in (STEP_DEAL, STEP_TRICK) or (self.kind != STEP_PLAY and self.state.phase == Phase.PLAY)

    @property
    def is_deal_mark(self) -> bool:
        return self.kind == STEP_DEAL


class ReplayTimeline:
    """Every position of one recorded game, in order (see the module docstring)."""

    def __init__(self, record: dict[str, Any]) -> None:
        self.record = record
        try:
            game, _, state, events = replay_start(record)
        except (KeyError, TypeError, ValueError, RuleConfigError) as exc:
            raise _cannot_set_up(exc) from None
        self.game: GameDef = game
        self.players = len(record["players"])
        deals = record.get("deals")
        if not isinstance(deals, list) or not deals or not all(isinstance(deal, dict) for deal in deals):
            raise ReplayError(Problem("replay.no_deals"))
        self.steps: list[ReplayStep] = [ReplayStep(STEP_DEAL, 0, -1, None, state, tuple(events))]
        for index, deal in enumerate(deals):
            if index > 0:
                if state.phase != Phase.HAND_OVER:
                    raise ReplayError(Problem("replay.over_early", {"deal": index + 1}))
                state, events = apply(state, NEXT_DEAL)
                self.steps.append(ReplayStep(STEP_DEAL, index, -1, None, state, tuple(events)))
            state = self._replay_deal(index, deal, state)

    def _replay_deal(self, index: int, deal: dict[str, Any], state: Any) -> Any:
        try:
            actions = recorded_actions(self.game, deal)
        except (KeyError, TypeError, ValueError, ParseError) as exc:
            raise ReplayError(Problem("replay.deal_unreadable", {"deal": index + 1, "detail": str(exc)})) from None
        for action in actions:
            seat = state.current_player
            tricks_before = len(state.view(seat).tricks) if seat >= 0 else 0
            try:
                state, events = apply(state, action)
            except IllegalActionError as exc:
                # The engine's reason is coded: the viewer words it as the table words a refused move.
                raise ReplayError(
                    Problem("replay.move_illegal", {"deal": index + 1, "reason": Refusal.of(exc)})
                ) from None
            except ValueError as exc:
                raise ReplayError(Problem("replay.move_refused", {"deal": index + 1, "detail": str(exc)})) from None
            kind = _KIND_OF_ACTION.get(action.kind, STEP_PLAY)
            if kind == STEP_PLAY and len(state.view(seat).tricks) > tricks_before:
                kind = STEP_TRICK
            if kind == STEP_PLAY and state.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
                kind = STEP_TRICK  # the last card of the hand (the engine has already scored it)
            self.steps.append(ReplayStep(kind, index, seat, action, state, tuple(events)))
        return state

    def __len__(self) -> int:
        return len(self.steps)

    def __getitem__(self, index: int) -> ReplayStep:
        return self.steps[index]

    @property
    def last(self) -> int:
        return len(self.steps) - 1

    def clamp(self, index: int) -> int:
        return max(0, min(self.last, index))

    def next_mark(self, index: int, deal: bool = False) -> int:
        """The next trick mark (or deal mark) after ``index``; the end when there is none."""
        for later in range(index + 1, len(self.steps)):
            step = self.steps[later]
            if step.is_deal_mark or (not deal and step.is_trick_mark):
                return later
        return self.last

    def previous_mark(self, index: int, deal: bool = False) -> int:
        """The trick mark (or deal mark) before ``index``; the start when there is none."""
        for earlier in range(index - 1, -1, -1):
            step = self.steps[earlier]
            if step.is_deal_mark or (not deal and step.is_trick_mark):
                return earlier
        return 0

    def deal_start(self, deal_index: int) -> int:
        """The position right after deal ``deal_index`` (0-based) was dealt."""
        for index, step in enumerate(self.steps):
            if step.is_deal_mark and step.deal_index == deal_index:
                return index
        raise IndexError(deal_index)


def load_recorded_game(
    path: str | Path, number: int = 1, on_damage: Callable[[HistoryError], None] | None = None
) -> dict[str, Any]:
    """Game ``number`` (from 1) of the history file ``path``, read through ``read_history``.

    Games are numbered as the statistics number them: a damaged line is no
    game, so it is skipped (and handed to ``on_damage``, which may name it) and
    the games after it are still found. Every problem (no such file, too few
    games) raises ``ReplayError`` with a sentence that names the file; a file
    whose every line is damaged names its first damaged line.
    """
    if number < 1:
        raise ReplayError(Problem("replay.game_number", {"number": number}))
    count = 0
    damaged: list[HistoryError] = []

    def skip(damage: HistoryError) -> None:
        if not damaged:
            damaged.append(damage)
        if on_damage is not None:
            on_damage(damage)

    try:
        for count, record in enumerate(read_history(path, on_damage=skip), 1):
            if count == number:
                return record
    except HistoryError as exc:  # the file could not be opened at all
        raise ReplayError(exc.problem) from None
    if count == 0:
        raise ReplayError(damaged[0].problem if damaged else Problem("replay.no_games", {"source": str(path)}))
    raise ReplayError(Problem("replay.no_such_game", {"source": str(path), "number": number, "games": count}))
