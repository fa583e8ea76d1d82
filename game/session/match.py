"""One game in progress: rules, seed, seats, state and the action log."""

from __future__ import annotations

# Information boundary: ``apply`` returns the full events (the history needs
# them), but a table asks ``events_for(events, seat)`` and ``view(seat)`` for
# what the seat it shows may know; ``view(PUBLIC_SEAT)`` and
# ``events_for(events, PUBLIC_SEAT)`` are what anyone watching may know.
#
# Undo takes back a seat's last decision of the current hand together with
# everything played after it. It never edits the engine state: the match is
# rebuilt from its seed and the actions that remain, which is exactly how a
# save is loaded, so an undone position is the very position the game had
# before (``undo_used`` then marks the game, in its save and its history).
#
# A save (``to_save``) is the rules, the seed, the seats and the action list,
# with ``SAVE_VERSION``. Version 1 had no ``undo_used``; ``from_save`` reads
# only the current version (``game.persistence.savegame`` migrates older ones first).

import random
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from game.ai import ComputerPlayer, make_player
from game.ai.budget import SearchBudget
from game.persistence.history_codec import HistoryRecorder
from game.rules import (
    Action,
    ActionKind,
    GameDef,
    GameEvent,
    IllegalActionError,
    Phase,
    PlayerView,
    apply,
    events_for,
    get_game,
    new_game,
)
from game.rules.actions import NEXT_DEAL, action_to_str, parse_action
from game.rules.claims import claim_play
from game.rules.events import ClaimMade
from game.rules.finished_hand import FinishedHand, finished_hand
from game.rules.house_rules import Rules, rules_from_dict
from game.rules.problems import Problem, ProblemValueError
from game.rules.tricks import PUBLIC_SEAT, is_well_formed
from game.session.names import clean_name

SAVE_FORMAT = "trick-table-save"
SAVE_VERSION = 2

__all__ = ["AiRequest", "Match", "PUBLIC_SEAT", "Seat"]


@dataclass(frozen=True)
class Seat:
    """Who sits at a seat: a name and ``human`` or ``ai:<level>``. ``name_role`` is
    set when the name is a default the player never typed ("you", "player:2",
    "computer:1"; see ``game.ui.seat_names``), so that it can be worded in the
    language of the moment; ``name`` is then its words when the game began."""

    name: str
    controller: str = "human"
    name_role: str = ""

    @property
    def is_human(self) -> bool:
        return self.controller == "human"

    @property
    def ai_level(self) -> str | None:
        return self.controller.split(":", 1)[1] if self.controller.startswith("ai:") else None

    @property
    def controller_known(self) -> bool:
        """``human`` or ``ai:<level>`` (whether the game has that level ``make_player`` says)."""
        return self.is_human or bool(self.ai_level)


def clean_role(role: str) -> str:
    """A default name's role as a save may hold it: a short word and seat number
    ("you", "player:2", "computer:1"), or nothing (the name then stays as written)."""
    kind, _, number = role.partition(":")
    if kind == "you":
        return role if not number else ""
    if kind in ("player", "computer") and number.isascii() and number.isdigit() and len(number) <= 2:
        return role
    return ""


@dataclass(frozen=True)
class AiRequest:
    """Everything a computer player's decision depends on, taken on the main
    thread: the seat's view, the RNG seed for this decision and the player.
    ``decide()`` is then a pure function that any thread may run."""

    seat: int
    view: PlayerView
    rng_seed: str
    player: ComputerPlayer
    key: tuple[int, int]  # (actions applied, deal number) when asked

    def decide(self) -> Action:
        return self.player.choose(self.view, random.Random(self.rng_seed))


# A ``Match`` is the facade that the window and the headless commands both
# drive. It owns the engine state (nobody else touches it), applies actions
# (checking that the right seat is acting), keeps the action log that
# reproduces the game, records the hand history from the engine's events, and
# prepares computer players' decisions. It never draws and never waits.
class Match:
    def __init__(self, rules: Rules, seats: list[Seat], seed: int, *, ai_budget: SearchBudget | None = None) -> None:
        """``ai_budget`` is the thinking time of the computer players that search
        (the settings' "computer thinking time"); None keeps their default."""
        self.rules = rules
        for index, seat in enumerate(seats):
            if not seat.controller_known:
                raise ProblemValueError(
                    Problem("save.controller", {"seat": index + 1, "value": repr(seat.controller)[:40]})
                )
        # Every name the match holds is one it can save, record and show (game.session.names);
        # the seats whose name had to be cleaned are kept so the reader can say so.
        self.seats = [
            Seat(clean_name(s.name, f"#{i + 1}"), s.controller, clean_role(s.name_role)) for i, s in enumerate(seats)
        ]
        self.renamed_seats = [i for i, (old, new) in enumerate(zip(seats, self.seats)) if old.name != new.name]
        self.seed = seed
        self.ai_budget = ai_budget
        self.undo_used = False
        self.game_def: GameDef = get_game(rules.game)
        self._state, events = new_game(rules, len(seats), seed)
        self.actions: list[tuple[int, Action]] = []
        self.events: list[GameEvent] = list(events)
        self.recorder = HistoryRecorder(
            self.game_def,
            seed,
            rules.to_dict(),
            [{"seat": i, "name": s.name, "controller": s.controller} for i, s in enumerate(self.seats)],
        )
        self.recorder.feed(events)
        # Each computer seat's player is built once; its RNG is made afresh for
        # every decision from (seed, seat, actions so far), so a decision
        # depends only on the game position: a game resumed from a save (or
        # replayed for a bug report) goes on exactly as the uninterrupted one.
        self._ai_players = {
            i: make_player(self.game_def, s.ai_level, ai_budget) for i, s in enumerate(seats) if s.ai_level is not None
        }

    # ------------------------------------------------------------------ queries
    @property
    def game(self) -> str:
        return self.game_def.name

    @property
    def phase(self) -> Phase:
        return self._state.phase

    @property
    def current_player(self) -> int:
        return self._state.current_player

    @property
    def deal_number(self) -> int:
        return self._state.deal_number

    @property
    def is_over(self) -> bool:
        return self._state.is_terminal

    @property
    def num_players(self) -> int:
        return len(self.seats)

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may see now (``PUBLIC_SEAT``: what anyone may see)."""
        return self._state.view(seat)

    def views(self, seats: Sequence[int]) -> list[PlayerView]:
        """``[self.view(seat) for seat in seats]``, with less work."""
        return self._state.views(seats)

    def seat_view_fields(self) -> frozenset[str]:
        """The fields of the views that may differ between viewers of one position."""
        return self._state.seat_view_fields()

    def finished_hand(self) -> FinishedHand | None:
        """The hand just finished with every card face up, for its review; None while a hand
        is being played (its hidden cards are secret until it is scored)."""
        if self._state.phase not in (Phase.HAND_OVER, Phase.GAME_OVER):
            return None
        return finished_hand(self._state)

    def events_for(self, events: Iterable[GameEvent], seat: int) -> list[GameEvent]:
        """``events`` as ``seat`` may learn them (``PUBLIC_SEAT``: the public stream)."""
        return events_for(events, seat)

    def is_human_turn(self) -> bool:
        seat = self._state.current_player
        return seat >= 0 and self.seats[seat].is_human

    def legal_actions(self) -> list[Action]:
        return self._state.legal_actions()

    def explain(self, action: Action, legal: Collection[Action] | None = None) -> IllegalActionError | None:
        """Why ``action`` would be refused now, or None if it is legal. ``legal``: the legal
        actions now, when the caller has them (a server explaining every card of a hand)."""
        if legal is None:
            try:
                self._state.check_legal(action)
            except IllegalActionError as error:
                return error
            return None
        if is_well_formed(action) and action in legal:
            return None
        return self._state.explain_illegal(action, legal)

    def history(self) -> dict[str, Any]:
        """The hand history of the game so far (``complete`` false until it ends)."""
        return self.recorder.record

    def position_key(self) -> tuple[int, int]:
        """Changes with every action: (actions applied, deal number)."""
        return (len(self.actions), self._state.deal_number)

    # ------------------------------------------------------------------ acting
    def apply(self, action: Action, seat: int | None = None) -> list[GameEvent]:
        """Apply ``action``; with ``seat`` given, refuse it unless that seat is to act.
        Returns the full events (secrets included): filter them per seat to show them."""
        current = self._state.current_player
        if seat is not None and seat != current:
            raise IllegalActionError("It is not your turn", "not_your_turn", seat=seat)
        self._state, events = apply(self._state, action)
        self.actions.append((current, action))
        self.events.extend(events)
        self.recorder.feed(events)
        return events

    # ------------------------------------------------------------------ undo
    def hand_start(self) -> int:
        """How many actions were applied before this hand was dealt (0 in the first hand):
        undo never goes back past this point."""
        for index in range(len(self.actions) - 1, -1, -1):
            if self.actions[index][1] == NEXT_DEAL:
                return index + 1
        return 0

    def undo_point(self, seat: int) -> int | None:
        """How many actions remain once ``seat`` takes back its last decision of this hand
        (and whatever others played after it), or None when there is nothing to take back.

        A decision is one action, except that a run of discards counts as one
        (the kitty is put down as a whole). A finished hand is scored and stays.
        """
        if self._state.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
            return None
        start = self.hand_start()
        index = len(self.actions) - 1
        while index >= start and self.actions[index][0] != seat:
            index -= 1  # the others' replies go with it
        if index < start:
            return None
        kind = self.actions[index][1].kind
        if kind == ActionKind.DISCARD:
            while (
                index - 1 >= start
                and self.actions[index - 1][0] == seat
                and self.actions[index - 1][1].kind == ActionKind.DISCARD
            ):
                index -= 1
        return index

    def undo(self, seat: int) -> bool:
        """Take back ``seat``'s last decision of this hand (see ``undo_point``) by rebuilding
        the match from its seed and the actions before it; False when there is none."""
        keep = self.undo_point(seat)
        if keep is None:
            return False
        rebuilt = Match(self.rules, self.seats, self.seed, ai_budget=self.ai_budget)
        for actor, action in self.actions[:keep]:
            rebuilt.apply(action, actor)
        self._state, self.actions, self.events = rebuilt._state, rebuilt.actions, rebuilt.events
        self.recorder = rebuilt.recorder
        self.undo_used = True
        self.recorder.mark_undo_used()
        return True

    # ------------------------------------------------------------------ claims
    def can_claim(self, seat: int) -> bool:
        """Whether ``seat`` may claim every trick left now: on lead, with every card it
        holds sure to win, as the game's rules decide from the full state."""
        claimable = self.game_def.claimable
        return claimable is not None and 0 <= seat < self.num_players and claimable(self._state, seat)

    def claim(self, seat: int) -> list[GameEvent]:
        """``seat`` claims the tricks left: ``ClaimMade`` is told to everyone, then the
        hand is played out to its end, each card an ordinary play (``claim_play``), so
        the action log, the save and the hand history need nothing new for it.
        Returns the full events; ``IllegalActionError`` when the claim is not allowed."""
        if not self.can_claim(seat):
            raise IllegalActionError(
                "You cannot claim the rest: not every card you hold is sure to win", "claim_refused", seat=seat
            )
        claimed = ClaimMade(seat, len(self._state.hands[seat]))
        self.events.append(claimed)
        self.recorder.feed([claimed])
        events: list[GameEvent] = [claimed]
        while self._state.phase == Phase.PLAY:
            events.extend(self.apply(claim_play(self._state)))
        return events

    def next_deal(self) -> list[GameEvent]:
        """Deal the next hand once the finished one has been shown."""
        return self.apply(NEXT_DEAL)

    def ai_request(self, seat: int | None = None) -> AiRequest:
        """The decision a computer seat must make now (default: the seat to act)."""
        seat = self._state.current_player if seat is None else seat
        player = self._ai_players.get(seat)
        if player is None:
            raise ValueError(f"seat {seat} is not a computer player")
        done = len(self.actions)
        return AiRequest(
            seat,
            self._state.view(seat),
            f"tricktable:{self.seed}:seat:{seat}:decision:{done}",
            player,
            self.position_key(),
        )

    def choose_ai_action(self, seat: int | None = None) -> Action:
        """The computer player's decision for ``seat`` (default: the seat to act)."""
        return self.ai_request(seat).decide()

    def play_out(self) -> None:
        """Play to the end with computer players everywhere (headless)."""
        while not self._state.is_terminal:
            if self._state.phase == Phase.HAND_OVER:
                self.next_deal()
            else:
                self.apply(self.choose_ai_action())

    # ------------------------------------------------------------------ saves
    def to_save(self) -> dict[str, Any]:
        """A save is the triple (rules, seed, actions) plus the seats, and whether undo was used."""
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "game": self.game,
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "seats": [
                {"name": s.name, "controller": s.controller, **({"name_role": s.name_role} if s.name_role else {})}
                for s in self.seats
            ],
            "actions": [action_to_str(a) for _, a in self.actions],
            "undo_used": self.undo_used,
        }

    @classmethod
    def from_save(cls, data: dict[str, Any], ai_budget: SearchBudget | None = None) -> Match:
        """Rebuild a match by replaying its actions; raises ``ValueError`` with a
        clear message when the save is damaged."""
        try:
            if data.get("format") != SAVE_FORMAT or data.get("version") != SAVE_VERSION:
                raise ValueError("not a Trick Table save of a version this program reads")
            rules = rules_from_dict(data["game"], data["rules"])
            # A save from before default names kept their role has none: the name stays as saved.
            seats = [
                Seat(
                    s["name"] if isinstance(s["name"], str) else "", str(s["controller"]), str(s.get("name_role") or "")
                )
                for s in data["seats"]
            ]
            undo_used = data["undo_used"]
            if not isinstance(undo_used, bool):
                raise TypeError(f"undo_used must be true or false, not {undo_used!r}")
            match = cls(rules, seats, int(data["seed"]), ai_budget=ai_budget)
            for text in data["actions"]:
                match.apply(parse_action(text))
            if undo_used:
                match.undo_used = True
                match.recorder.mark_undo_used()
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"the save is damaged ({exc})") from None
        return match
