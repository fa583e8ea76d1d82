"""``HostedTable``: one table as the server holds it, from its lobby to its last trick.

It keeps the seats and their token hashes, the seed, the whole match and its
computer players, and answers each viewer with only what that seat may know
(``step_for``). No sockets and no clock of its own: the server drives it.
"""

from __future__ import annotations

# Event numbers are the match's event indexes plus one: a network table has no
# undo, so a number never changes its event and every viewer's stream numbers
# alike (``events_for`` hides a card in place, never leaves an event out).
#
# Refusals are raised as ``TableRefusal`` (a code from the engine or the protocol,
# its parameters and an English message); the server sends them as they are.

import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from dataclasses import fields as dataclass_fields
from functools import cache
from typing import Any

from game.ai import make_player
from game.net.protocol import MAX_NAME, MAX_SEATS, new_invite_code, new_token, token_hash, tokens_match
from game.net.wire import (
    changed_field_texts,
    compact_json,
    encode_action,
    encode_inner,
    encode_value,
    field_texts,
    fields_text,
    whole_text,
)
from game.persistence.history_codec import deal_score, score_history
from game.rules import PUBLIC_SEAT, Action, IllegalActionError, Phase, PlayerView, Viewer, events_for, get_game
from game.rules.actions import NEXT_DEAL, discard, play
from game.rules.cards import card_code
from game.rules.house_rules import Rules
from game.session.match import AiRequest, Match, Seat
from game.session.names import clean_name

SEAT_KINDS = ("open", "host", "computer")


class TableRefusal(Exception):
    """A message the table will not carry out: nothing changed."""

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code, self.message, self.params = code, message, params

    def frame(self, kind: str = "error", re: int | None = None) -> dict[str, Any]:
        return {"type": kind, "re": re, "code": self.code, "params": self.params, "message": self.message}


@dataclass
class SeatPlan:
    """Who sits at a seat: ``kind`` (open, host, computer), the computer's ``level``, the
    player's ``name`` and the hash of the token that holds it (None while nobody does)."""

    kind: str
    level: str | None = None
    name: str = ""
    holder: str | None = None

    @property
    def human(self) -> bool:
        return self.kind != "computer"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "level": self.level, "name": self.name, "holder": self.holder}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SeatPlan:
        return cls(data["kind"], data.get("level"), data.get("name", ""), data.get("holder"))


@dataclass
class TableOptions:
    name: str
    spectators: bool = False
    stand_in_after: float | None = None  # seconds away before a computer plays a human's seat
    listed: bool = True  # offered (with its invite code) to players on the server's own network


@dataclass
class Presence:
    """A human seat's link: away since (the server's clock) and whether a computer stands in."""

    away_since: float | None = None
    stand_in: bool = False


@dataclass(frozen=True)
class SentStep:
    """The last step a viewer was sent at a table, for the next one to build on: the event
    number it brought the viewer to, its view (and its fields' texts), and the texts of its
    score history and finished hand."""

    number: int
    view: PlayerView
    view_texts: dict[str, str]  # the JSON text of each of the view's fields
    scores: str
    finished_hand: str


@dataclass
class HostedTable:
    table_id: str
    invite: str
    rules: Rules
    seats: list[SeatPlan]
    options: TableOptions
    host_hash: str
    seed: int = field(default_factory=lambda: secrets.randbits(62))
    match: Match | None = None
    ready: set[int] = field(default_factory=set)
    presence: dict[int, Presence] = field(default_factory=dict)
    # Seats whose computer stand-in player was built (kept for the rest of the game).
    _stand_in_players: dict[int, Any] = field(default_factory=dict)
    _public_cache: tuple[int, dict[str, Any], dict[str, str]] | None = None
    _head: tuple[str, str] | None = None  # see ``_head_text``
    # The texts of the shared view fields that changed, from an earlier position (by its event
    # number) to this one (``_shared_at``: the match's events, their count): see ``_changed_view_texts``.
    _shared_at: tuple[Any, int] = (None, -1)
    _shared_changes: dict[int, tuple[dict[str, str], str]] = field(default_factory=dict)
    # The seats' own runs that grew since an earlier position (the hand's actions), by the
    # identity of their values: see ``wire.changed_field_texts``.
    _grown_runs: dict[tuple[str, int, int], tuple[Any, Any, str]] = field(default_factory=dict)
    _scores_cache: tuple[tuple[Any, ...], dict[str, Any], str] | None = None
    _final_deals: list[dict[str, Any]] = field(default_factory=list)  # see ``_score_history_data``
    _finished_cache: tuple[tuple[int, Phase], dict[str, Any] | None, str] | None = None
    _event_texts: dict[int, tuple[Any, str]] = field(default_factory=dict)  # see ``_events_text``
    _views: tuple[int, dict[Viewer, PlayerView]] = (-1, {})  # see ``prepare_views``
    _view_memo: dict[Any, str] = field(default_factory=dict)  # see ``wire.encode_text``
    finished_at: float | None = None  # the server's clock when the game ended
    epoch: int = 0  # the table's ownership epoch in a Redis lobby (0: one server alone)

    # ------------------------------------------------------------------ making one
    @classmethod
    def create(
        cls, rules: Rules, seat_specs: Sequence[Any], options: TableOptions
    ) -> tuple[HostedTable, str, dict[int, str]]:
        """A new table in its lobby, its host token and the tokens of its ``host`` seats.
        ``TableRefusal`` (``bad_seats``) when the seats do not suit the game."""
        game_def = get_game(rules.game)
        if not isinstance(seat_specs, list) or not 2 <= len(seat_specs) <= MAX_SEATS:
            raise TableRefusal("bad_seats", "a table has 2 to 6 seats")
        counts = game_def.player_counts()
        if len(seat_specs) not in counts:
            allowed = ", ".join(str(count) for count in counts)
            raise TableRefusal("bad_seats", f"{rules.game} is played by {allowed} players", allowed=allowed)
        host_token = new_token()
        seats: list[SeatPlan] = []
        tokens: dict[int, str] = {}
        for index, spec in enumerate(seat_specs):
            plan = _seat_plan(spec, game_def.ai_levels, index)
            if plan.kind == "host":
                token = new_token()
                plan.holder = token_hash(token)
                tokens[index] = token
            seats.append(plan)
        table = cls(secrets.token_hex(4), new_invite_code(), rules, seats, options, token_hash(host_token))
        return table, host_token, tokens

    # ------------------------------------------------------------------ the lobby
    @property
    def started(self) -> bool:
        return self.match is not None

    @property
    def over(self) -> bool:
        return self.match is not None and self.match.is_over

    def is_host(self, host_token: object) -> bool:
        return tokens_match(host_token, self.host_hash)

    def free_seats(self) -> list[int]:
        return [index for index, plan in enumerate(self.seats) if plan.kind == "open" and plan.holder is None]

    def seat_of_token(self, seat: object, token: object) -> int:
        """``seat`` when ``token`` holds it, else ``TableRefusal`` (``bad_token``)."""
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(self.seats):
            raise TableRefusal("bad_token", "no such seat")
        holder = self.seats[seat].holder
        if holder is None or not tokens_match(token, holder):
            raise TableRefusal("bad_token", "that token does not hold this seat")
        return seat

    def take_seat(self, name: object, seat: object = None) -> tuple[int, str]:
        """A free open seat for ``name`` (``seat``, or the first free one) and its token."""
        if self.started:
            raise TableRefusal("started", "the game has begun")
        free = self.free_seats()
        if seat is None:
            if not free:
                raise TableRefusal("no_free_seat", "every seat is taken")
            seat = free[0]
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(self.seats):
            raise TableRefusal("bad_message", "no such seat", field="seat")
        if seat not in free:
            raise TableRefusal("seat_taken", "that seat is not free", seat=seat)
        token = new_token()
        plan = self.seats[seat]
        plan.name, plan.holder = _player_name(name, seat), token_hash(token)
        return seat, token

    def release_seats(self, seats: Sequence[int]) -> None:
        """Before the start: the player who held ``seats`` left them; open ones become free again."""
        if self.started:
            return
        for seat in seats:
            plan = self.seats[seat]
            if plan.kind == "open":
                plan.name, plan.holder = "", None

    def set_seat(self, seat: object, kind: object, level: object = None, name: object = None) -> str | None:
        """The host changes what sits at ``seat``; the token of a new ``host`` seat (else None)."""
        self._lobby_seat(seat)
        assert isinstance(seat, int)
        plan = _seat_plan({"kind": kind, "level": level, "name": name}, get_game(self.rules.game).ai_levels, seat)
        token = None
        if plan.kind == "host":
            token = new_token()
            plan.holder = token_hash(token)
        self.seats[seat] = plan
        return token

    def move_seat(self, seat: object, to: object) -> None:
        self._lobby_seat(seat)
        self._lobby_seat(to)
        assert isinstance(seat, int) and isinstance(to, int)
        self.seats[seat], self.seats[to] = self.seats[to], self.seats[seat]

    def _lobby_seat(self, seat: object) -> None:
        if self.started:
            raise TableRefusal("started", "the game has begun: the seats are set")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(self.seats):
            raise TableRefusal("bad_message", "no such seat", field="seat")

    def start(self) -> None:
        if self.started:
            raise TableRefusal("started", "the game has begun")
        if any(plan.human and plan.holder is None for plan in self.seats):
            raise TableRefusal("seats_not_filled", "a seat is still free", free=self.free_seats())
        self.match = self._new_match()

    def _new_match(self) -> Match:
        seats = [
            Seat(plan.name or f"#{index + 1}", f"ai:{plan.level}" if plan.kind == "computer" else "human")
            for index, plan in enumerate(self.seats)
        ]
        return Match(self.rules, seats, self.seed)

    def lobby_frame(self, connected: Callable[[int], bool]) -> dict[str, Any]:
        return {
            "type": "lobby",
            "table": self.table_id,
            "name": self.options.name,
            "game": self.rules.game,
            "rules": {"game": self.rules.game, "values": self.rules.to_dict()},
            "seats": [
                {
                    "seat": index,
                    "kind": plan.kind,
                    "level": plan.level,
                    "name": plan.name,
                    "taken": plan.kind == "computer" or plan.holder is not None,
                    "connected": plan.kind == "computer" or connected(index),
                }
                for index, plan in enumerate(self.seats)
            ],
            "started": self.started,
            "spectators": self.options.spectators,
            "stand_in_after": self.options.stand_in_after,
        }

    # ------------------------------------------------------------------ the game
    def _playing(self) -> Match:
        if self.match is None:
            raise TableRefusal("not_started", "the game has not begun")
        return self.match

    def _check_at(self, match: Match, at: object) -> None:
        if not isinstance(at, int) or isinstance(at, bool) or at != len(match.actions):
            raise TableRefusal("stale", "the game has moved on since", at=len(match.actions))

    def act(self, seat: int, action: Action, at: object) -> None:
        """``seat``'s ``action``, seen at ``at`` actions; ``TableRefusal`` with the engine's code."""
        match = self._playing()
        self._check_at(match, at)
        if action == NEXT_DEAL:
            raise TableRefusal("wrong_phase", "the next hand is dealt once everyone is ready")
        try:
            match.apply(action, seat)
        except IllegalActionError as error:
            raise TableRefusal(error.code, str(error), **_plain(error.params)) from None
        self.ready.clear()

    def claim(self, seat: int, at: object) -> None:
        match = self._playing()
        self._check_at(match, at)
        if match.current_player != seat:
            raise TableRefusal("not_your_turn", "It is not your turn", seat=seat)
        try:
            match.claim(seat)
        except IllegalActionError as error:
            raise TableRefusal(error.code, str(error), **_plain(error.params)) from None

    def mark_ready(self, seat: int, at: object, present: Callable[[int], bool]) -> bool:
        """``seat`` has seen the finished hand; True when that made the next hand dealt."""
        match = self._playing()
        self._check_at(match, at)
        if match.phase != Phase.HAND_OVER:
            raise TableRefusal("wrong_phase", "the hand is not over")
        self.ready.add(seat)
        return self.deal_if_ready(present)

    def deal_if_ready(self, present: Callable[[int], bool]) -> bool:
        """Deal the next hand once every human seat that is here (and not stood in for) is ready;
        with nobody here to say so, a table with stand-ins deals on by itself."""
        match = self.match
        if match is None or match.phase != Phase.HAND_OVER:
            return False
        waiting = [
            seat
            for seat, plan in enumerate(self.seats)
            if plan.human and present(seat) and not self.presence_of(seat).stand_in and seat not in self.ready
        ]
        humans = [seat for seat, plan in enumerate(self.seats) if plan.human]
        anyone_here = any(present(seat) for seat in humans)
        stand_ins = any(self.presence_of(seat).stand_in for seat in humans)
        if waiting or (humans and not anyone_here and not stand_ins):
            return False  # someone is still looking at the hand, or nobody is here to play on
        match.next_deal()
        self.ready.clear()
        return True

    def presence_of(self, seat: int) -> Presence:
        return self.presence.setdefault(seat, Presence())

    def computer_to_act(self) -> int:
        """The seat a server computer is to decide for now (a computer, or a stand-in), or -1."""
        match = self.match
        if match is None or match.is_over or match.phase == Phase.HAND_OVER:
            return -1
        seat = match.current_player
        if seat < 0:
            return -1
        if not self.seats[seat].human or self.presence_of(seat).stand_in:
            return seat
        return -1

    def ai_request(self, seat: int) -> AiRequest:
        """The decision the computer at ``seat`` (or standing in there) makes now."""
        match = self._playing()
        if not self.seats[seat].human:
            return match.ai_request(seat)
        player = self._stand_in_players.get(seat)
        if player is None:
            player = self._stand_in_players[seat] = make_player(match.game_def, _stand_in_level(match), None)
        return AiRequest(
            seat,
            match.view(seat),
            f"tricktable:{self.seed}:stand-in:{seat}:decision:{len(match.actions)}",
            player,
            match.position_key(),
        )

    # ------------------------------------------------------------------ what a viewer gets
    @property
    def last_number(self) -> int:
        return len(self.match.events) if self.match is not None else 0

    def step_for(
        self, viewer: Viewer, after: int, previous: SentStep | None = None, re: int | None = None
    ) -> dict[str, Any]:
        """The ``step`` frame for ``viewer``: the events after number ``after`` as it may know
        them, the position, its view, the score history and what it may do. When ``previous``
        (the viewer's last step) brought it to ``after``, the step builds on it (``base``): the
        view carries only the fields that changed, and the score history and the finished hand
        only when they changed. ``re``: the message of this connection the step answers."""
        match = self._playing()
        public = self._public_part(match)[0]
        view = match.view(viewer)
        builds_on = previous is not None and previous.number == after
        view_data = encode_value(view)
        frame: dict[str, Any] = {"type": "step"}
        if re is not None:
            frame["re"] = re
        frame.update(table=self.table_id, viewer=viewer, epoch=self.epoch, base=after if builds_on else None)
        frame["events"] = self._events(match, viewer, after)
        frame["state"] = public["state"]
        if previous is not None and builds_on:
            before = encode_value(previous.view)
            changed = {key: value for key, value in view_data.items() if key != "type" and before[key] != value}
            # The fields every viewer shares first, then the viewer's own (``_changed_view_texts``).
            own = match.seat_view_fields()
            view_data = {key: value for key, value in changed.items() if key not in own}
            view_data.update((key, value) for key, value in changed.items() if key in own)
        frame["view"] = view_data
        if not builds_on or previous is None or _json(public["scores"]) != previous.scores:
            frame["scores"] = public["scores"]
        frame["can_claim"] = self._can_claim(match, viewer)
        frame["refusals"] = self._refusals(match, view.hand, viewer)
        if not builds_on or previous is None or _json(public["finished_hand"]) != previous.finished_hand:
            frame["finished_hand"] = public["finished_hand"]
        return frame

    def game_over(self) -> None:
        """The game ended: what was kept to write its steps with less work is let go (a finished
        table is kept a while for players who come back, and a whole step is written for them)."""
        self._event_texts.clear()
        self._view_memo.clear()
        self._grown_runs = {}
        self._views = (-1, {})

    def prepare_views(self, viewers: Iterable[Viewer]) -> None:
        """Read the views of ``viewers`` at this position together (``Match.views``: the fields
        they all share read once), for the steps about to be written."""
        match = self._playing()
        wanted = sorted(viewers)
        self._views = (len(match.events), dict(zip(wanted, match.views(wanted), strict=True)))

    def _view(self, match: Match, viewer: Viewer) -> PlayerView:
        """``match.view(viewer)``, as ``prepare_views`` read it at this position if it did."""
        number, views = self._views
        view = views.get(viewer) if number == len(match.events) else None
        return view if view is not None else match.view(viewer)

    def step_text(
        self, viewer: Viewer, after: int, previous: SentStep | None = None, re: int | None = None
    ) -> tuple[str, SentStep]:
        """``step_for(viewer, after, previous, re)`` as the compact JSON the server sends, the
        same text, made with less work: the parts every viewer shares (the state, the scores, a
        finished hand) are written once a position, the runs the seats' views share once for all
        of them, and only the view's changed fields are compared and written. With it, what
        the viewer now has, for its next step to build on."""
        match = self._playing()
        shared = self._public_part(match)[1]
        view = self._view(match, viewer)
        if len(self._view_memo) > 512:
            self._view_memo.clear()
        scores, finished = shared["scores"], shared["finished_hand"]
        parts = ['{"type":"step",']
        if re is not None:
            parts.append(f'"re":{re},')
        parts.append(self._head_text())
        parts.append(f'"viewer":{viewer},"epoch":{self.epoch},')
        if previous is not None and previous.number == after:
            shared_changes, shared_text, own = self._changed_view_texts(match, view, previous)
            view_texts = {**previous.view_texts, **shared_changes, **own}
            if own:
                own_text = fields_text(own)
                view_text = f"{shared_text},{own_text}" if shared_text else own_text
            else:
                view_text = shared_text
            parts.append(f'"base":{after},"events":{self._events_text(match, viewer, after)},')
            parts.append(f'"state":{shared["state"]},"view":{{{view_text}}},')
            if scores != previous.scores:
                parts.append(f'"scores":{scores},')
        else:
            view_texts = field_texts(view, self._view_memo)
            parts.append(f'"base":null,"events":{self._events_text(match, viewer, after)},')
            parts.append(f'"state":{shared["state"]},"view":{whole_text(type(view), view_texts)},"scores":{scores},')
        parts.append('"can_claim":true,' if self._can_claim(match, viewer) else '"can_claim":false,')
        refusals = self._refusals(match, view.hand, viewer, view.legal_actions)
        parts.append(f'"refusals":{_json(refusals)}' if refusals else '"refusals":{}')
        if previous is None or previous.number != after or finished != previous.finished_hand:
            parts.append(f',"finished_hand":{finished}')
        parts.append("}")
        return "".join(parts), SentStep(self.last_number, view, view_texts, scores, finished)

    def _changed_view_texts(
        self, match: Match, view: PlayerView, previous: SentStep
    ) -> tuple[dict[str, str], str, dict[str, str]]:
        """``changed_field_texts(view, previous.view, previous.view_texts)`` in two parts, with
        less work: the fields every viewer of a position shares (all but
        ``match.seat_view_fields()``), which changed alike for every viewer whose last step was
        at the same position, so they are compared and written once for all of them (their
        texts, and those joined as in an object), and the viewer's own fields' texts. A step's
        view lists the shared fields first, then the viewer's own."""
        # An event number names one position for good (a network table has no undo), so the
        # changes from it are kept until this table's position moves on.
        at = self._shared_at
        if at[0] is not match.events or at[1] != len(match.events):
            self._shared_at, self._shared_changes = (match.events, len(match.events)), {}
            self._grown_runs = {}
        seat_fields = match.seat_view_fields()
        known = self._shared_changes.get(previous.number)
        if known is None:
            kind: type = type(view)
            shared = changed_field_texts(
                view, previous.view, previous.view_texts, self._view_memo, _shared_fields(kind, seat_fields)
            )
            known = self._shared_changes[previous.number] = (shared, fields_text(shared))
        own = changed_field_texts(
            view, previous.view, previous.view_texts, self._view_memo, seat_fields, self._grown_runs
        )
        return known[0], known[1], own

    def _head_text(self) -> str:
        """``"table":<id>,``, written once (a table in a Redis lobby gets its id's last part
        when it is created)."""
        if self._head is None or self._head[0] != self.table_id:
            self._head = (self.table_id, f'"table":{_json(self.table_id)},')
        return self._head[1]

    def _events(self, match: Match, viewer: Viewer, after: int) -> list[dict[str, Any]]:
        events = events_for(match.events[after:], viewer)
        return [{"n": after + 1 + index, "event": encode_value(event)} for index, event in enumerate(events)]

    def _events_text(self, match: Match, viewer: Viewer, after: int) -> str:
        """``_events(match, viewer, after)`` as JSON text: an event every viewer sees alike (its
        ``for_seat`` is itself) is written once for all of them."""
        texts = self._event_texts
        if len(texts) > 256:
            texts.clear()
        parts = []
        for index in range(after, len(match.events)):
            event = match.events[index]
            seen = event.for_seat(viewer)
            if seen is event:
                known = texts.get(index)
                if known is None or known[0] is not event:
                    known = texts[index] = (event, _json(encode_value(event)))
                text = known[1]
            else:
                text = _json(encode_value(seen))
            parts.append(f'{{"n":{index + 1},"event":{text}}}')
        return "[" + ",".join(parts) + "]"

    def _can_claim(self, match: Match, viewer: Viewer) -> bool:
        return viewer != PUBLIC_SEAT and match.current_player == viewer and match.can_claim(viewer)

    def _public_part(self, match: Match) -> tuple[dict[str, Any], dict[str, str]]:
        """What every viewer's step shares at this position, encoded once: as data, and as
        JSON text (the score history and the finished hand only when they changed)."""
        number = len(match.events)
        if self._public_cache is None or self._public_cache[0] != number:
            scores, scores_text = self._scores(match)
            finished, finished_text = self._finished(match)
            state = {
                "position": list(match.position_key()),
                "phase": match.phase.name.lower(),
                "current": match.current_player,
                "deal": match.deal_number,
                "over": match.is_over,
                "last": number,
            }
            public = {"state": state, "scores": scores, "finished_hand": finished}
            texts = {"state": _json(state), "scores": scores_text, "finished_hand": finished_text}
            self._public_cache = (number, public, texts)
        return self._public_cache[1], self._public_cache[2]

    def _scores(self, match: Match) -> tuple[dict[str, Any], str]:
        """The score history, encoded (and written) again only when it can have changed: the
        history recorder adds deals and writes only into the last one, whose score line is no
        more than its number and dealer until the hand is scored, and the game's end sets the rest."""
        record = match.history()
        deals = record.get("deals", [])
        key = (
            len(deals),
            bool(deals and deals[-1].get("scores")),
            record.get("complete"),
            len(record.get("winners", ())),
        )
        if self._scores_cache is None or self._scores_cache[0] != key:
            scores = self._score_history_data(record)
            self._scores_cache = (key, scores, _json(scores))
        return self._scores_cache[1], self._scores_cache[2]

    def _score_history_data(self, record: dict[str, Any]) -> dict[str, Any]:
        """``encode_value(score_history(record))``, the deals before the last written once: the
        history recorder writes only into the last deal, so the others never change again (a
        Wizard game's history is written again after each of its rounds)."""
        deals = record.get("deals", [])
        final = self._final_deals  # a table plays one match, so its deals only ever grow
        while len(final) < len(deals) - 1:
            final.append(encode_inner(deal_score(deals[len(final)], len(final))))
        data = encode_value(score_history({**record, "deals": []}))
        data["deals"] = final + [
            encode_inner(deal_score(deal, index)) for index, deal in enumerate(deals) if index >= len(final)
        ]
        return data

    def _finished(self, match: Match) -> tuple[dict[str, Any] | None, str]:
        """The finished hand, face up (None while a hand is played), encoded once a hand."""
        phase = match.phase
        if phase not in (Phase.HAND_OVER, Phase.GAME_OVER):
            return None, "null"
        key = (match.deal_number, phase)
        if self._finished_cache is None or self._finished_cache[0] != key:
            finished = match.finished_hand()
            data = encode_value(finished) if finished is not None else None
            self._finished_cache = (key, data, _json(data))
        return self._finished_cache[1], self._finished_cache[2]

    def _refusals(
        self, match: Match, hand: Sequence[int], viewer: Viewer, legal_actions: Sequence[Action] = ()
    ) -> dict[str, Any]:
        """Why each card of ``viewer``'s hand may not be played (or laid away) now. The cards
        whose action is among ``legal_actions`` (the viewer's view's, when given) are not asked
        about, and the rules are told them rather than working them out for every card."""
        if viewer == PUBLIC_SEAT or match.current_player != viewer or match.phase not in (Phase.PLAY, Phase.DISCARD):
            return {}
        make = discard if match.phase == Phase.DISCARD else play
        legal = frozenset(legal_actions or match.legal_actions())  # the viewer is to act: never none
        refusals: dict[str, Any] = {}
        for card in set(hand):
            action = make(card)
            if action in legal:
                continue
            error = match.explain(action, legal)
            if error is not None:
                refusals[card_code(card)] = {"code": error.code, "params": _plain(error.params), "message": str(error)}
        return refusals

    def history_record(self) -> dict[str, Any]:
        return self._playing().history()

    def action_line(self, seat: int, action: Action) -> dict[str, Any]:
        """The table log's line for an applied action."""
        return {"act": [seat, encode_action(action)]}


_json = compact_json  # compact JSON, as the server writes every frame


@cache
def _shared_fields(view_type: type, seat_fields: frozenset[str]) -> frozenset[str]:
    """The fields of ``view_type`` every viewer of a position shares."""
    return frozenset(item.name for item in dataclass_fields(view_type)) - seat_fields


def _plain(params: Any) -> dict[str, Any]:
    """An error's parameters as JSON can carry them (anything else as text)."""
    if not isinstance(params, dict):
        return {}
    return {
        str(key): value if isinstance(value, (int, str, float, bool)) or value is None else str(value)
        for key, value in params.items()
    }


def _player_name(name: object, seat: int) -> str:
    text = name if isinstance(name, str) else ""
    return clean_name(text[: MAX_NAME * 4], f"#{seat + 1}")[:MAX_NAME]


def _seat_plan(spec: object, levels: Any, index: int) -> SeatPlan:
    if not isinstance(spec, dict) or spec.get("kind") not in SEAT_KINDS:
        raise TableRefusal("bad_seats", "each seat is open, host or computer", seat=index)
    kind = spec["kind"]
    if kind == "computer":
        level = spec.get("level")
        if level not in levels:
            raise TableRefusal("bad_seats", "unknown computer level", seat=index, levels=", ".join(levels))
        return SeatPlan("computer", str(level), _player_name(spec.get("name") or f"computer {index + 1}", index))
    if kind == "host":
        return SeatPlan("host", None, _player_name(spec.get("name"), index))
    return SeatPlan("open")


def _stand_in_level(match: Match) -> str:
    """The level of a computer standing in for an absent player: the game's middle one (the
    lower of two, so easy, medium, hard, expert give medium: a server runs many tables)."""
    levels = [level for level in match.game_def.ai_levels if level != "random"]
    return levels[(len(levels) - 1) // 2] if levels else next(iter(match.game_def.ai_levels))
