"""``RemoteSession``: a ``TableSession`` over a ``NetClient``, for the seats held at one table.

It mirrors what the server told this program (``step`` frames: per viewer the
numbered events, the view, scores, claims, refusals), sends this screen's actions,
and lets the table take each change in at its own pace, as it would a local game.
"""

from __future__ import annotations

# Changes: every ``step`` is decoded (``game.net.wire``) and queued; the steps of
# one change (one per viewer, the same ``state``) are one entry of the queue, taken
# in once every viewer held here has its step. The table takes the entries in one
# at a time: its own action's answer through ``poll``
# (and a change nobody here paces: a catch-up after a reconnection, the next deal),
# the other seats' moves through ``advance_computers`` once its pause is over. So
# the mirror the table reads is always one consistent position, and the cards of
# a move arrive on the table as a local computer's would.
#
# Flight: ``submit`` checks the action against the mirror (whose turn, the step's
# refusals, the view's legal actions) and raises the engine's coded refusal at
# once; otherwise it sends ``act`` and the action is in flight: nobody is to act
# (``current_player`` -1) until the answer is taken in. An answer lost with the
# link (the next step after a reconnection shows the same position) ends the
# flight and its player is asked again; the server's ``at`` check means a move is
# never applied twice.
#
# The public viewer: with two or more seats at this screen (hot seat) the server
# sends viewer -1's steps too; with one seat the screen never turns public, and
# what the table asks the public of (the cards played, the hand's result) is
# public in the seat's own view and stream (``_public``).
#
# Nothing a server sends can crash the table: a frame that does not decode is
# logged and dropped, and refusal texts are read as plain codes and short values.

import bisect
import logging
import re
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from game.ai.budget import SearchBudget
from game.net.client import CONNECTED, LINK, NetClient
from game.net.wire import WireError, decode_rules, decode_value, encode_action
from game.persistence.history_schema import RecordShapeError
from game.persistence.savegame import record_received_game
from game.rules import (
    EVENT_TYPES,
    PUBLIC_SEAT,
    Action,
    ActionKind,
    GameDef,
    GameEvent,
    IllegalActionError,
    Phase,
    PlayerView,
    Viewer,
    get_game,
)
from game.rules.cards import parse_card
from game.rules.errors import ParseError
from game.rules.events import Dealt
from game.rules.finished_hand import FinishedHand
from game.rules.house_rules import Rules
from game.session.ai_worker import AiJob, AiRunner, ThreadedAiRunner
from game.session.hints import HintFunction, HintLike, HintRequest, lazy_hint_for
from game.session.match import Seat
from game.session.names import clean_name
from game.session.scores import ScoreHistory
from game.session.session import (
    Answer,
    Away,
    ComputerStep,
    NumberedEvent,
    Position,
    SeatView,
    TableSession,
)
from game.settings.network_seats import forget as forget_table
from game.settings.network_seats import remember, remembered
from game.settings.paths import UserPaths

log = logging.getLogger("tricktable.net")

_CODE = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
_SHORT_TEXT = 200  # characters of a refusal's English message or parameter kept
LATE_STEP_SECONDS = 0.5


class NetworkTableError(ValueError):
    """The messages a remote session was made from do not describe a table it can show."""


@dataclass(frozen=True)
class StepState:
    """A step's ``state``: the position key, phase, seat to act, deal, end and latest event."""

    position: Position
    phase: Phase
    current: int
    deal: int
    over: bool
    last: int

    @property
    def key(self) -> tuple[Position, int]:
        return (self.position, self.last)


@dataclass(frozen=True)
class Step:
    """One decoded ``step`` frame for one viewer."""

    viewer: Viewer
    state: StepState
    events: tuple[NumberedEvent, ...]
    view: PlayerView
    scores: ScoreHistory
    can_claim: bool
    refusals: Mapping[int, IllegalActionError]
    finished_hand: FinishedHand | None


@dataclass
class _Mirror:
    """What one viewer knows, as of the last change taken in."""

    numbers: list[int] = field(default_factory=list)
    events: list[GameEvent] = field(default_factory=list)
    step: Step | None = None

    def take(self, step: Step) -> None:
        last = self.numbers[-1] if self.numbers else 0
        for numbered in step.events:
            if numbered.number > last:
                self.numbers.append(numbered.number)
                self.events.append(numbered.event)
                last = numbered.number
        self.step = step


@dataclass
class _Change:
    """The steps of one change of the game, one per viewer, waiting to be taken in."""

    state: StepState
    steps: dict[Viewer, Step]
    arrived: float  # when its first step came (the clock's time)


@dataclass
class _Flight:
    """This screen's action sent and not yet answered."""

    ids: tuple[int, ...]
    seat: int
    unsure: bool = False  # the link dropped meanwhile: the answer may never come


class RemoteSession:
    """The seats this program holds at one network table; see the module docstring."""

    def __init__(
        self,
        client: NetClient,
        table: str,
        seats: Mapping[int, str],
        lobby: Mapping[str, Any],
        *,
        messages: Sequence[Mapping[str, Any]] = (),
        user_paths: UserPaths | None = None,
        ai_runner: AiRunner | None = None,
        hint_for: HintFunction | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``seats``: each seat held here and its seat token; ``lobby``: the table's last
        ``lobby`` message (its game, rules and seats); ``messages``: what the screen before
        the table drained from ``client`` already (the first steps). The game as it stands
        is taken in at once: the table opens on it. ``user_paths``: where the finished game is
        recorded (None: nowhere). ``NetworkTableError`` if ``lobby`` names no game this
        program can show."""
        self.client = client
        self.table = table
        self.tokens = dict(seats)
        self.user_paths = user_paths
        self._clock = clock
        self._rules, self._seats = _read_lobby(lobby)
        self._game_def = get_game(self._rules.game)
        self._runner = ai_runner
        self._hint_for: HintFunction = hint_for if hint_for is not None else lazy_hint_for
        self._mirrors: dict[Viewer, _Mirror] = {}
        self._public_seen: list[GameEvent] = []  # the public stream made from a seat's, as it grows
        self._state: StepState | None = None
        self._queue: deque[_Change] = deque()
        self._flight: _Flight | None = None
        self._answer: Answer | None = None
        self._away: dict[int, tuple[float, float, bool]] = {}  # seat -> (seconds away when told, told at, stand-in)
        self._record: dict[str, Any] | None = None
        self._record_wanted = False
        self._recorded = False
        self._sync_marker: int | None = None  # the message whose answer says a reconnection has caught up
        self.table_closed = False  # the host closed the table: it will not come back
        self.seats_taken_elsewhere: set[int] = set()  # resumed by another program with their tokens
        self._table_name = str(lobby.get("name") or "")
        self._server_url = client.url  # where the table is (it moves with a takeover in a lobby)
        for seat, token in self.tokens.items():
            client.hold_seat(table, seat, token)
        self.take_in(messages)

    def take_in(self, messages: Sequence[Mapping[str, Any]]) -> None:
        """Take in ``messages`` the screen before the table drained from the client (a lobby
        reads the client itself until the game starts; the table's ``poll`` reads it after).
        The first change is applied at once: it is the game as it stands when the table opens."""
        self._take_in(messages)
        if self._state is None and self._queue:
            self._apply(self._queue.popleft())

    # ------------------------------------------------------------------ who plays what
    @property
    def has_game(self) -> bool:
        """A step has been taken in: there is a game to show (a table may be opened on it)."""
        return self._state is not None

    @property
    def seats(self) -> Sequence[Seat]:
        return self._seats

    @property
    def game_def(self) -> GameDef:
        return self._game_def

    @property
    def rules(self) -> Rules:
        return self._rules

    @property
    def num_players(self) -> int:
        return len(self._seats)

    @property
    def local_seats(self) -> list[int]:
        return sorted(self.tokens)

    @property
    def spectating(self) -> bool:
        """No seat is held here: the server sends this program the public stream alone."""
        return not self.tokens

    def _playing_seats(self) -> set[int]:
        """The seats this program plays: those it holds, but for any taken back elsewhere."""
        return set(self.tokens) - self.seats_taken_elsewhere

    # ------------------------------------------------------------------ the position
    @property
    def _now(self) -> StepState:
        if self._state is None:
            raise NetworkTableError("no step of the game has arrived yet")
        return self._state

    @property
    def position(self) -> Position:
        return self._now.position

    @property
    def phase(self) -> Phase:
        return self._now.phase

    @property
    def current_player(self) -> int:
        return -1 if self._flight is not None else self._now.current

    @property
    def deal_number(self) -> int:
        return self._now.deal

    @property
    def is_over(self) -> bool:
        return self._now.over

    # ------------------------------------------------------------------ events and views
    @property
    def last_number(self) -> int:
        return self._now.last

    @property
    def epoch(self) -> int:
        return 0  # a network table has no undo

    def _mirror(self, viewer: Viewer) -> _Mirror:
        """``viewer``'s mirror: its own, else the public's (the server's, or one made from a
        held seat's: see the notes)."""
        mirror = self._mirrors.get(viewer)
        if mirror is not None and mirror.step is not None:
            return mirror
        public = self._mirrors.get(PUBLIC_SEAT)
        if public is not None and public.step is not None:
            return public
        held = [seat for seat in self.local_seats if seat in self._mirrors]
        if held:
            return self._public(self._mirrors[held[0]])
        raise NetworkTableError(f"no view for viewer {viewer} has arrived")

    def _public(self, seat_mirror: _Mirror) -> _Mirror:
        """The public's mirror made from one seat's: its events as the public learns them (the
        rules' own filter), its view without the hand or the moves only the seat may make."""
        seen = self._public_seen
        if len(seen) < len(seat_mirror.events):
            seen.extend(event.for_seat(PUBLIC_SEAT) for event in seat_mirror.events[len(seen) :])
        step = seat_mirror.step
        assert step is not None
        public_view = replace(step.view, seat=PUBLIC_SEAT, hand=(), legal_actions=())
        public_step = replace(step, viewer=PUBLIC_SEAT, view=public_view, can_claim=False, refusals={})
        return _Mirror(seat_mirror.numbers, seen, public_step)

    def events_since(self, number: int, viewer: Viewer) -> list[NumberedEvent]:
        mirror = self._mirror(viewer)
        start = bisect.bisect_right(mirror.numbers, number)
        return [NumberedEvent(mirror.numbers[i], mirror.events[i]) for i in range(start, len(mirror.events))]

    def hand_events(self, viewer: Viewer) -> list[GameEvent]:
        events = self._mirror(viewer).events
        for index in range(len(events) - 1, -1, -1):
            if isinstance(events[index], Dealt):
                return events[index:]
        return list(events)

    def _step(self, viewer: Viewer) -> Step:
        step = self._mirror(viewer).step
        assert step is not None
        return step

    def view(self, viewer: Viewer) -> SeatView:
        step = self._step(viewer)
        return SeatView(step.view, lambda: step.scores)

    def finished_hand(self) -> FinishedHand | None:
        return self._step(self.local_seats[0] if self.local_seats else PUBLIC_SEAT).finished_hand

    # ------------------------------------------------------------------ acting
    def refusal(self, action: Action) -> IllegalActionError | None:
        """Why the mirror says ``action`` would be refused now (for the seat to act here), or None."""
        return self._check(self._now.current, action)

    def _check(self, seat: int, action: Action) -> IllegalActionError | None:
        if self._flight is not None or seat not in self._playing_seats() or seat != self._now.current:
            return IllegalActionError("It is not your turn", "not_your_turn", seat=seat)
        step = self._step(seat)
        if action.kind in (ActionKind.PLAY, ActionKind.DISCARD) and action.value in step.refusals:
            return step.refusals[action.value]
        if action not in step.view.legal_actions:
            return IllegalActionError("That is not allowed now", "illegal")
        return None

    def submit(self, seat: int, action: Action) -> int:
        """Send ``seat``'s ``action`` (the engine's coded refusal at once when the mirror knows
        it is not allowed); the answer is taken in by ``poll``. Returns the last event number."""
        error = self._check(seat, action)
        if error is not None:
            raise error
        self._send_flight(seat, [{"type": "act", "seat": seat, "action": encode_action(action)}])
        return self.last_number

    def next_deal(self) -> int:
        """Every seat held here is ready for the next deal (it comes once every player is)."""
        if self._flight is not None or self._now.phase != Phase.HAND_OVER:
            raise IllegalActionError("The hand is not over", "wrong_phase")
        self._send_flight(-1, [{"type": "ready", "seat": seat} for seat in self.local_seats])
        return self.last_number

    def can_claim(self, seat: int) -> bool:
        if self._flight is not None or seat not in self._playing_seats() or seat != self._now.current:
            return False
        return self._step(seat).can_claim

    def claim(self, seat: int) -> int:
        if not self.can_claim(seat):
            raise IllegalActionError(
                "You cannot claim the rest: not every card you hold is sure to win", "claim_refused", seat=seat
            )
        self._send_flight(seat, [{"type": "claim", "seat": seat}])
        return self.last_number

    def _send_flight(self, seat: int, messages: list[dict[str, Any]]) -> None:
        at = self._now.position[0]
        ids = tuple(self.client.send({**message, "table": self.table, "at": at}) for message in messages)
        self._flight = _Flight(ids, seat, unsure=self.client.status.state != CONNECTED)

    @property
    def offers_undo(self) -> bool:
        return False  # a network table has no undo: the others have seen the move

    def can_undo(self, seat: int) -> bool:
        return False

    def undo(self, seat: int) -> bool:
        return False

    # ------------------------------------------------------------------ taking in what arrived
    def poll(self) -> Answer | None:
        """The answer to this screen's action (applied or refused), or a change nobody here
        paces (a catch-up, the next deal), taken in; None when there is none."""
        self._take_in(self.client.messages())
        self._follow_server()
        if self._answer is not None:
            answer, self._answer = self._answer, None
            return answer
        if not self._change_ready() or self._state is None:
            return None
        state = self._state
        flight = self._flight
        if flight is None and not (
            state.current < 0 or state.current in self.tokens or state.phase in (Phase.HAND_OVER, Phase.GAME_OVER)
        ):
            return None  # another seat's move: ``advance_computers`` paces it
        actor = flight.seat if flight is not None else state.current
        self._flight = None
        self._apply(self._queue.popleft())
        return Answer(applied=True, actor=actor, deal_before=state.deal)

    def waiting_on_others(self) -> bool:
        return not self._queue and self._answer is None

    def away_seats(self) -> dict[int, Away]:
        now = self._clock()
        return {
            seat: Away(seconds + (now - told), stand_in)
            for seat, (seconds, told, stand_in) in self._away.items()
            if seat not in self.tokens
        }

    @property
    def link_down(self) -> bool:
        every_seat_gone = bool(self.tokens) and self.seats_taken_elsewhere >= set(self.tokens)
        return self.client.status.state != CONNECTED and not self.table_closed and not every_seat_gone

    def _take_in(self, messages: Sequence[Mapping[str, Any]]) -> None:
        for message in messages:
            try:
                self._take(message)
            except (WireError, ValueError, TypeError, KeyError, IndexError, AttributeError) as error:
                log.warning("a %.20s message from the server was dropped: %s", message.get("type"), error)

    def _take(self, message: Mapping[str, Any]) -> None:
        kind = message.get("type")
        if kind == LINK:
            self._link_news(message.get("status"))
            return
        if message.get("table", self.table) != self.table:
            return  # about another table this connection is at
        if kind == "tables" and self._sync_marker is not None and message.get("re") == self._sync_marker:
            self._sync_marker = None
            self._synced()
        elif kind == "step":
            self._take_step(_read_step(message, self._game_def))
        elif kind in ("refused", "error"):
            self._take_refusal(message)
        elif kind == "presence":
            self._take_presence(message)
        elif kind == "table_closed":
            self.table_closed = True
            self.client.close()  # nothing to reconnect to
        elif kind == "seat_lost":
            self._seat_lost(message.get("seat"))
        elif kind == "game_over":
            record = message.get("history")
            if isinstance(record, dict) and self._record is None:
                self._record = record
                if self._record_wanted:
                    self.record_finished()

    def _follow_server(self) -> None:
        """The table went to another server of its lobby (a takeover): the seats this program
        keeps for rejoining it (``network_seats``) are kept with the new address."""
        url = self.client.url
        if url == self._server_url:
            return
        self._server_url = url
        if self.user_paths is None or self._recorded:
            return
        if any(entry.table == self.table for entry in remembered(self.user_paths)):
            seats = {seat: token for seat, token in self.tokens.items() if seat not in self.seats_taken_elsewhere}
            remember(self.user_paths, url, self.table, seats, self._table_name, self._rules.game)

    def _seat_lost(self, seat: object) -> None:
        """Another program took ``seat`` back with its token (the player rejoined from another
        window or computer): this one lets it go, and never takes it back when it reconnects."""
        if not isinstance(seat, int) or seat not in self.tokens or seat in self.seats_taken_elsewhere:
            return
        self.seats_taken_elsewhere.add(seat)
        self.client.release_seat(self.table, seat)
        if self._flight is not None and self._flight.seat == seat:
            self._flight = None
        if self.seats_taken_elsewhere >= set(self.tokens):
            self.client.close()  # every seat is played elsewhere: nothing is left to do here

    @property
    def seat_taken_elsewhere(self) -> bool:
        return bool(self.seats_taken_elsewhere)

    def _link_news(self, status: object) -> None:
        if status == "lost" and self._flight is not None:
            self._flight.unsure = True
        elif status == CONNECTED and self._flight is not None and self._flight.unsure:
            # The seats are taken back (the client's resumes went first) and the server answers
            # in order: once this is answered, whatever the resumes brought has arrived.
            self._sync_marker = self.client.send({"type": "list_tables"})

    def _synced(self) -> None:
        """Everything the reconnection brought has arrived: an action still in flight was lost
        with the link (had it been applied, its change would be queued), so it is asked again."""
        flight = self._flight
        if flight is not None and flight.unsure and not self._queue:
            self._flight = None
            lost = IllegalActionError("Your move did not reach the table in time: please make it again", "stale")
            self._answer = Answer(applied=False, actor=flight.seat, refusal=lost)

    def _take_step(self, step: Step) -> None:
        viewer = step.viewer
        if viewer != PUBLIC_SEAT and viewer not in self.tokens:
            raise ValueError(f"a step for seat {viewer}, not held here")
        latest = self._latest_state(viewer)
        if latest is not None and step.state.key == latest.key:
            return  # nothing new for this viewer (a resume that caught up with nothing)
        for change in self._queue:
            if change.state.key == step.state.key and viewer not in change.steps:
                change.steps[viewer] = step
                return
        if self._state is not None and step.state.key == self._state.key:
            self._mirrors.setdefault(viewer, _Mirror()).take(step)  # a late viewer of the change shown
            return
        self._queue.append(_Change(step.state, {viewer: step}, self._clock()))

    def _latest_state(self, viewer: Viewer) -> StepState | None:
        """The newest state ``viewer`` has had a step for, queued or taken in."""
        for change in reversed(self._queue):
            if viewer in change.steps:
                return change.state
        mirror = self._mirrors.get(viewer)
        return mirror.step.state if mirror is not None and mirror.step is not None else None

    def _take_refusal(self, message: Mapping[str, Any]) -> None:
        flight = self._flight
        re_id = message.get("re")
        if flight is None or re_id not in flight.ids:
            log.info("the server: %s %.40s", message.get("type"), message.get("code"))
            return
        self._flight = None
        self._answer = Answer(applied=False, actor=flight.seat, refusal=_read_refusal(message))

    def _take_presence(self, message: Mapping[str, Any]) -> None:
        seats = message.get("seats")
        if not isinstance(seats, list):
            raise ValueError("presence without its seats")
        now = self._clock()
        for entry in seats:
            seat = entry.get("seat") if isinstance(entry, dict) else None
            if not isinstance(seat, int) or not 0 <= seat < self.num_players:
                continue
            away = entry.get("away")
            if entry.get("connected") is True or not isinstance(away, (int, float)):
                self._away.pop(seat, None)
            else:
                self._away[seat] = (max(0.0, min(float(away), 1e7)), now, entry.get("stand_in") is True)

    def _change_ready(self) -> bool:
        """The next change may be taken in: every viewer held here has its step (the table reads
        them all at once), or a later change has begun to arrive; a viewer whose step does not
        come (a server that sends no public steps) holds it up for ``LATE_STEP_SECONDS`` at most."""
        if not self._queue:
            return False
        head = self._queue[0]
        expected = set(self.tokens) | ({PUBLIC_SEAT} if len(self.tokens) >= 2 else set())
        if len(self._queue) > 1 or expected <= head.steps.keys():
            return True
        return self._clock() - head.arrived >= LATE_STEP_SECONDS

    def _apply(self, change: _Change) -> None:
        """Take ``change`` in: its viewers' mirrors and the position move on together."""
        for viewer, step in change.steps.items():
            self._mirrors.setdefault(viewer, _Mirror()).take(step)
            if viewer in self.tokens:
                self.client.seen(self.table, viewer, step.state.last)
        self._state = change.state

    # ------------------------------------------------------------------ the other seats
    def advance_computers(self, may_play: bool) -> ComputerStep:
        """The other seats' moves (computers and people elsewhere): THINKING until the next
        change has arrived, PLAYED once it is taken in (when ``may_play``)."""
        self._take_in(self.client.messages())
        state = self._state
        if state is None or self._flight is not None or state.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
            return ComputerStep.IDLE
        if state.current < 0 or state.current in self.tokens:
            return ComputerStep.IDLE
        if not self._change_ready() or not may_play:
            return ComputerStep.THINKING
        self._apply(self._queue.popleft())
        return ComputerStep.PLAYED

    def thinking_seat(self) -> int:
        """The seat to act when a computer plays it on the server (a computer seat, or one
        standing in for a player away) and its move has not arrived."""
        state = self._state
        if state is None or self._flight is not None or self._change_ready():
            return -1
        seat = state.current
        if seat < 0 or seat in self.tokens or state.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
            return -1
        away = self._away.get(seat)
        if self._seats[seat].ai_level is not None or (away is not None and away[2]):
            return seat
        return -1

    def request_hint(self, seat: int, budget: SearchBudget | None) -> AiJob[HintLike]:
        """A hint computed here from the seat's own view (the server is never asked); its RNG
        seed is made from the table and the position, since the game's seed is the server's."""
        position = self.position
        request = HintRequest(
            seat,
            position,
            self._game_def,
            self._step(seat).view,
            f"tricktable:net:{self.table}:hint:{seat}:{position[0]}:{position[1]}",
            budget,
            self._hint_for,
        )
        if self._runner is None:
            self._runner = ThreadedAiRunner()
        return self._runner.submit(request)

    # ------------------------------------------------------------------ saving and leaving
    @property
    def saved(self) -> bool:
        return True  # the server keeps the game: leaving keeps the seat, to come back to

    @property
    def kept_on_server(self) -> bool:
        return True

    def take_save_error(self) -> OSError | None:
        return None

    def record_finished(self) -> bool:
        """Add the game the server recorded (its ``game_over`` record) to this player's history,
        once; if it has not arrived yet, it is added when it does. False if writing failed."""
        self._record_wanted = True
        if self._recorded or self._record is None or self.user_paths is None:
            return True
        self._recorded = True  # once, also when it fails: a failure is reported, not retried each frame
        forget_table(self.user_paths, self.table)  # the game is over: its seats take nothing back now
        try:
            record_received_game(self.user_paths, self._record)
        except RecordShapeError as error:
            log.error("the server's record of the game was not added to the history: %s", error)
            return False
        except Exception:
            log.exception("could not write the hand history")
            return False
        return True

    def open(self) -> None:
        pass  # the server keeps the game

    def close(self) -> None:
        """Leave the table screen, keeping the seats (the player can come back to them): stop
        the connection and any hint being thought about, without waiting."""
        self.client.close()
        if self._runner is not None:
            self._runner.stop()


def _is_a_table_session(session: RemoteSession) -> TableSession:
    """Never called: mypy proves here that a ``RemoteSession`` is a ``TableSession``."""
    return session


# ---------------------------------------------------------------- reading messages
def _read_lobby(lobby: Mapping[str, Any]) -> tuple[Rules, list[Seat]]:
    """The rules and the seats a ``lobby`` message describes."""
    try:
        rules = decode_rules(lobby.get("rules"))
    except WireError as error:  # a rules problem means the table cannot be shown, never a crash
        raise NetworkTableError(f"the table's rules cannot be read: {error}") from None
    entries = lobby.get("seats")
    if not isinstance(entries, list) or not entries:
        raise NetworkTableError("the table has no seats")
    seats = []
    for index, entry in enumerate(entries):
        entry = entry if isinstance(entry, dict) else {}
        level = entry.get("level")
        if entry.get("kind") == "computer" and isinstance(level, str) and level in get_game(rules.game).ai_levels:
            name = clean_name(entry.get("name"))
            # A computer the host did not name (the server calls it "computer 3") is named as the
            # start screen names one, in the language of the moment (``game.ui.seat_names``).
            default = not name or name == f"computer {index + 1}"
            seats.append(Seat(name or f"#{index + 1}", f"ai:{level}", f"computer:{index}" if default else ""))
        else:
            name = clean_name(entry.get("name"))
            seats.append(Seat(name or f"#{index + 1}", "human", "" if name else f"player:{index + 1}"))
    return rules, seats


def _read_step(message: Mapping[str, Any], game_def: GameDef) -> Step:
    """A ``step`` frame decoded (``WireError`` or ``ValueError`` when it is not one)."""
    viewer = message["viewer"]
    state = message["state"]
    if not isinstance(viewer, int) or not isinstance(state, dict):
        raise ValueError("a step needs its viewer and state")
    position = state["position"]
    numbers = [position[0], position[1], state["current"], state["deal"], state["last"]]
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in numbers) or len(position) != 2:
        raise ValueError("a step's state needs whole numbers")
    phase = state["phase"]
    if not isinstance(phase, str) or phase.upper() not in Phase.__members__:
        raise ValueError("a step's state needs a phase")
    step_state = StepState(
        (position[0], position[1]),
        Phase[phase.upper()],
        state["current"],
        state["deal"],
        state["over"] is True,
        state["last"],
    )
    events = []
    for entry in message["events"]:
        number = entry["n"]
        if not isinstance(number, int):
            raise ValueError("an event needs its number")
        events.append(NumberedEvent(number, decode_value(entry["event"], EVENT_TYPES)))
    view = decode_value(message["view"], game_def.view_type)
    scores = decode_value(message["scores"], ScoreHistory)
    finished = message.get("finished_hand")
    return Step(
        viewer,
        step_state,
        tuple(events),
        view,
        scores,
        message.get("can_claim") is True,
        _read_refusals(message.get("refusals")),
        None if finished is None else decode_value(finished, FinishedHand),
    )


def _read_refusals(data: Any) -> dict[int, IllegalActionError]:
    """A step's ``refusals``: card code -> refusal, as an object or a list of pairs."""
    if data is None:
        return {}
    pairs = data.items() if isinstance(data, dict) else data
    refusals = {}
    for code, refusal in pairs:
        try:
            card = parse_card(code)
        except (ParseError, TypeError, AttributeError):
            raise ValueError(f"a refusal for {str(code)[:10]!r}, no card") from None
        refusals[card] = _read_refusal(refusal)
    return refusals


def _read_refusal(message: Any) -> IllegalActionError:
    """The engine's refusal a message carries: a code, short plain parameters and the English
    sentence (whatever a server sends, what is kept is safe to put into words)."""
    message = message if isinstance(message, dict) else {}
    code = message.get("code")
    english = message.get("message")
    english = english[:_SHORT_TEXT] if isinstance(english, str) else "The server refused that."
    params_in = message.get("params")
    params: dict[str, int | str] = {}
    if isinstance(params_in, dict):
        for key, value in list(params_in.items())[:8]:
            if isinstance(key, str) and _CODE.match(key):
                if isinstance(value, int) and not isinstance(value, bool) and abs(value) < 10**9:
                    params[key] = value
                elif isinstance(value, str):
                    params[key] = value[:_SHORT_TEXT]
    return IllegalActionError(english, code if isinstance(code, str) and _CODE.match(code) else "illegal", **params)
