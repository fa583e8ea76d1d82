"""``LocalSession``: a ``TableSession`` over a match played in this process.

It holds the ``Match`` with everything around it that is not drawing: the
computer players and their scheduling, undo, hints, the autosave after every
change and the hand history, written once the game has ended.
"""

from __future__ import annotations

# The autosave is handed to the app's ``Autosaver``, which writes off the frame loop.
#
# Events are numbered in the order they happened, from 1; the numbers only grow.
# Undo rebuilds the match from its seed and the actions kept (``Match.undo``): the
# events kept keep their numbers, the next new one is numbered after every number
# ever given, and ``epoch`` counts up so that a reader knows to set itself from the
# view. Each viewer's filtered stream is kept as it grows, so a frame's question
# costs no re-filtering of the whole game.

import bisect
import logging
from typing import Protocol
from collections.abc import Sequence

from game.ai.budget import SearchBudget
from game.session.match import Match, Seat
from game.rules import (
    Action,
    GameDef,
    GameEvent,
    IllegalActionError,
    Phase,
    Viewer,
    events_for,
)
from game.rules.actions import NEXT_DEAL
from game.rules.events import Dealt
from game.rules.finished_hand import FinishedHand
from game.settings.paths import UserPaths
from game.rules.house_rules import Rules
from game.persistence.savegame import Autosaver, record_finished_game
from game.session.ai_worker import AiJob, AiRunner, ThreadedAiRunner
from game.session.computers import ComputerTurns
from game.session.hints import HintFunction, HintLike, HintRequest, lazy_hint_for
from game.persistence.history_codec import score_history
from game.session.scores import ScoreHistory
from game.session.session import Answer, Away, ComputerStep, NumberedEvent, Position, SeatView, TableSession

log = logging.getLogger("tricktable.table")


class LocalSession:
    """One game played here; see the module docstring."""

    def __init__(
        self,
        match: Match,
        *,
        ai_runner: AiRunner | None = None,
        hint_for: HintFunction | None = None,
        autosaver: Autosaver | None = None,
        user_paths: UserPaths | None = None,
    ) -> None:
        """``ai_runner``: where computer decisions and hints are computed (a thread by default;
        tests pass an inline one). ``autosaver`` and ``user_paths``: the app's, to keep the game
        saved and to record it in the player's history once it ends (None: neither)."""
        self.match = match
        self.autosaver = autosaver
        self.user_paths = user_paths
        self.computers = ComputerTurns(lambda: self.match, ai_runner if ai_runner is not None else ThreadedAiRunner())
        self._hint_for: HintFunction = hint_for if hint_for is not None else lazy_hint_for
        self.epoch = 0
        # The number of each of match.events; the next one given is past every number ever given.
        self._numbers: list[int] = []
        self._next_number = 1
        self._seen: dict[Viewer, list[GameEvent]] = {}
        self._scores: tuple[tuple[Position, int], ScoreHistory] | None = None

    # ------------------------------------------------------------------ who plays what
    @property
    def seats(self) -> Sequence[Seat]:
        return self.match.seats

    @property
    def game_def(self) -> GameDef:
        return self.match.game_def

    @property
    def rules(self) -> Rules:
        return self.match.rules

    @property
    def num_players(self) -> int:
        return self.match.num_players

    @property
    def local_seats(self) -> list[int]:
        """Every human seat: they all play at this screen."""
        return [index for index, seat in enumerate(self.match.seats) if seat.is_human]

    @property
    def spectating(self) -> bool:
        return False

    @property
    def table_closed(self) -> bool:
        return False

    @property
    def seat_taken_elsewhere(self) -> bool:
        return False

    # ------------------------------------------------------------------ the position
    @property
    def position(self) -> Position:
        return self.match.position_key()

    @property
    def phase(self) -> Phase:
        return self.match.phase

    @property
    def current_player(self) -> int:
        return self.match.current_player

    @property
    def deal_number(self) -> int:
        return self.match.deal_number

    @property
    def is_over(self) -> bool:
        return self.match.is_over

    # ------------------------------------------------------------------ events and views
    def _numbered(self) -> list[int]:
        """The numbers of the match's events, the new ones numbered now."""
        numbers = self._numbers
        while len(numbers) < len(self.match.events):
            numbers.append(self._next_number)
            self._next_number += 1
        return numbers

    @property
    def last_number(self) -> int:
        numbers = self._numbered()
        return numbers[-1] if numbers else 0

    def _stream(self, viewer: Viewer) -> list[GameEvent]:
        """``viewer``'s filtered events, extended with what happened since it was last asked."""
        events = self.match.events
        seen = self._seen.setdefault(viewer, [])
        if len(seen) < len(events):
            seen.extend(events_for(events[len(seen) :], viewer))
        return seen

    def events_since(self, number: int, viewer: Viewer) -> list[NumberedEvent]:
        stream = self._stream(viewer)
        numbers = self._numbered()
        start = bisect.bisect_right(numbers, number)
        return [NumberedEvent(numbers[index], stream[index]) for index in range(start, len(stream))]

    def hand_events(self, viewer: Viewer) -> list[GameEvent]:
        stream = self._stream(viewer)
        for index in range(len(stream) - 1, -1, -1):
            if isinstance(stream[index], Dealt):
                return stream[index:]
        return list(stream)

    def view(self, viewer: Viewer) -> SeatView:
        return SeatView(self.match.view(viewer), self.score_history)

    def score_history(self) -> ScoreHistory:
        """The game's score history (public: the same for every viewer), cached per position."""
        key = (self.position, self.epoch)
        if self._scores is None or self._scores[0] != key:
            self._scores = (key, score_history(self.match.history()))
        return self._scores[1]

    def finished_hand(self) -> FinishedHand | None:
        return self.match.finished_hand()

    # ------------------------------------------------------------------ acting
    def submit(self, seat: int, action: Action) -> int:
        self.match.apply(action, seat)
        self._acted()
        return self.last_number

    def refusal(self, action: Action) -> IllegalActionError | None:
        return self.match.explain(action)

    def next_deal(self) -> int:
        return self.submit(self.match.current_player, NEXT_DEAL)

    def can_claim(self, seat: int) -> bool:
        return self.match.can_claim(seat)

    def claim(self, seat: int) -> int:
        self.match.claim(seat)
        self._acted()
        return self.last_number

    @property
    def offers_undo(self) -> bool:
        return True

    def can_undo(self, seat: int) -> bool:
        return self.match.undo_point(seat) is not None

    def undo(self, seat: int) -> bool:
        """Take back ``seat``'s last decision of this hand (``Match.undo``); the computers'
        thinking about the later position is dropped."""
        self._numbered()
        before = list(self.match.events)
        if not self.match.undo(seat):
            return False
        self.computers.cancel()
        # The events the rebuilt match shares with the old one keep their numbers.
        after = self.match.events
        kept = 0
        while kept < min(len(before), len(after)) and before[kept] == after[kept]:
            kept += 1
        del self._numbers[kept:]
        self._seen.clear()
        self.epoch += 1
        self.autosave()
        return True

    def _acted(self) -> None:
        self._numbered()
        self.autosave()

    # ------------------------------------------------------------------ nothing from elsewhere
    def poll(self) -> Answer | None:
        return None  # every action is applied as it is submitted

    def waiting_on_others(self) -> bool:
        return False

    def away_seats(self) -> dict[int, Away]:
        return {}

    @property
    def link_down(self) -> bool:
        return False

    # ------------------------------------------------------------------ computers and hints
    def advance_computers(self, may_play: bool) -> ComputerStep:
        if self.computers.seat_to_act() < 0:
            return ComputerStep.IDLE
        if self.computers.start():
            return ComputerStep.STARTED
        if not may_play or not self.computers.answer_ready():
            return ComputerStep.THINKING
        self.computers.play(self.submit, self.claim)
        return ComputerStep.PLAYED

    def thinking_seat(self) -> int:
        return self.computers.thinking_seat()

    def request_hint(self, seat: int, budget: SearchBudget | None) -> AiJob[HintLike]:
        """What the hint level (the strongest) would do in ``seat``'s place now, computed by the AI runner;
        its RNG seed is fixed by the game and the position, so a hint asked again is the same."""
        position = self.position
        request = HintRequest(
            seat,
            position,
            self.game_def,
            self.match.view(seat),
            f"tricktable:{self.match.seed}:hint:{seat}:{position[0]}:{position[1]}",
            budget,
            self._hint_for,
        )
        return self.computers.runner.submit(request)

    # ------------------------------------------------------------------ saving and leaving
    def autosave(self) -> None:
        """Hand the match to the autosaver (written off the frame loop). The last action is
        saved too: the save is removed only once the finished game is in the history."""
        if self.autosaver is not None:
            self.autosaver.save(self.match)

    @property
    def saved(self) -> bool:
        return self.autosaver is not None and self.autosaver.saved

    @property
    def kept_on_server(self) -> bool:
        return False

    def take_save_error(self) -> OSError | None:
        return self.autosaver.take_error() if self.autosaver is not None else None

    def record_finished(self) -> bool:
        """Append the ended game to the player's history (once: a game replayed to its end from
        a save that outlived its first ending is not added again), then remove its save. If the
        history could not be written the save stays, so the game is not lost and can be recorded
        next time."""
        if self.user_paths is None:
            return True
        try:
            record_finished_game(self.user_paths, self.match)
        except Exception:
            log.exception("could not write the hand history")
            return False
        if self.autosaver is not None:
            self.autosaver.discard(self.user_paths)
        return True

    def open(self) -> None:
        """The table is shown: keep the game saved as it stands (a continued save is written
        again only once a table could be opened on it)."""
        self.autosave()

    def close(self) -> None:
        self.computers.stop()


def _is_a_table_session(session: LocalSession) -> TableSession:
    """Never called: mypy proves here that a ``LocalSession`` is a ``TableSession``."""
    return session


class SessionHome(Protocol):
    """Where a local session keeps its game: the app's autosaver (None: another window owns
    the saves) and the player's folders, whose history the finished game is added to."""

    @property
    def autosaver(self) -> Autosaver | None: ...

    @property
    def user_paths(self) -> UserPaths: ...


def local_session(
    match: Match,
    home: SessionHome | None = None,
    *,
    ai_runner: AiRunner | None = None,
    hint_for: HintFunction | None = None,
) -> LocalSession:
    """A session over ``match`` kept in ``home`` (saved there, recorded there once over)."""
    return LocalSession(
        match,
        ai_runner=ai_runner,
        hint_for=hint_for,
        autosaver=home.autosaver if home is not None else None,
        user_paths=home.user_paths if home is not None else None,
    )


def new_local_session(
    rules: Rules,
    seats: Sequence[Seat],
    seed: int,
    home: SessionHome | None = None,
    *,
    ai_budget: SearchBudget | None = None,
    ai_runner: AiRunner | None = None,
) -> LocalSession:
    """A new game of ``rules`` at ``seats``, game number ``seed``, its computers thinking for ``ai_budget``."""
    return local_session(Match(rules, list(seats), seed, ai_budget=ai_budget), home, ai_runner=ai_runner)
