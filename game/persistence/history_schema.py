"""The shape a hand-history record must have before the engine replays it."""

from __future__ import annotations

# ``HAND_HISTORY.md`` describes one game as a JSON object; this module holds
# that description as data and checks a decoded record against it, so a line
# that was edited by hand, damaged, or written by a newer Trick Table is
# refused with one sentence naming the field at fault ("deals[2].bids[0].bid:
# expected a whole number, not 1e400") before any of it reaches the engine.
#
# Two kinds of fault are told apart. A value of the wrong type (a card given as
# a number, ``"rules": []``, a bid of ``1e400``, nesting where a card belongs)
# makes the record unreadable. A field or house-rule key this program does not
# know is refused too, rather than ignored: it was written by a newer program
# whose game this one would misread. Whether the values make a legal game is
# not asked here: that is the engine's answer, given by ``check_game``.
#
# The fields of a deal depend on how the game is scored (``GameDef.scoring``),
# as in ``game.persistence.history_codec.DEAL_SHAPES``; nothing here compares game names.
# Messages quote at most a short prefix of a bad value (``short_repr``), so a
# 50 MB string or a deeply nested list is never echoed whole.

import reprlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from game.rules import game_names, get_game
from game.session.names import LONGEST_NAME, name_fault

# The largest whole number accepted in a field that counts something (seats,
# books, scores, trick numbers). Seeds may be larger (any integer JSON reads).
LARGEST_COUNT = 10**9
# The most entries of any list in a record: a deal has at most 60 cards, a
# game at most a few hundred deals; anything longer is damage.
LONGEST_LIST = 10_000

_SHORT = reprlib.Repr()
_SHORT.maxstring = 60
_SHORT.maxother = 60
_SHORT.maxlong = 40
_SHORT.maxlevel = 3
# A Bid Whist hand, a six-player score list: whole, so a difference can be read.
_SHORT.maxlist = 13
_SHORT.maxdict = 8
# How much of a value a message quotes.
QUOTED_CHARS = 60


def short_repr(value: Any, limit: int = QUOTED_CHARS) -> str:
    """``repr(value)`` cut to a prefix of about ``limit`` characters, safe for huge or
    deeply nested values (they are never written out whole first)."""
    text = _SHORT.repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


def field_name(name: Any) -> str:
    """A field name from a record as a message shows it: cut short, without quotes."""
    return short_repr(name)[1:-1] if isinstance(name, str) else short_repr(name)


class RecordShapeError(ValueError):
    """A record that does not have the shape of a hand history; the message names the field."""


# ---------------------------------------------------------------------- the shape language
@dataclass(frozen=True)
class Whole:
    """A whole number (``true``/``false`` and ``1.0`` are not), between ``low`` and ``high``."""

    low: int | None = -LARGEST_COUNT
    high: int | None = LARGEST_COUNT

    def check(self, value: Any, where: str) -> None:
        if type(value) is not int:
            raise RecordShapeError(f"{where}: expected a whole number, not {short_repr(value)}")
        if (self.low is not None and value < self.low) or (self.high is not None and value > self.high):
            raise RecordShapeError(f"{where}: {short_repr(value)} is out of range")


@dataclass(frozen=True)
class Text:
    """A string of at most ``longest`` characters."""

    longest: int = 200

    def check(self, value: Any, where: str) -> None:
        if not isinstance(value, str):
            raise RecordShapeError(f"{where}: expected text, not {short_repr(value)}")
        if len(value) > self.longest:
            raise RecordShapeError(f"{where}: text longer than {self.longest} characters ({short_repr(value)})")


@dataclass(frozen=True)
class Name(Text):
    """A seat's name: text without the characters no name keeps (``game.session.names``)."""

    def check(self, value: Any, where: str) -> None:
        super().check(value, where)
        fault = name_fault(value)
        if fault is not None:
            raise RecordShapeError(f"{where}: not a player's name: it {fault}")


@dataclass(frozen=True)
class Flag:
    """``true`` or ``false``."""

    def check(self, value: Any, where: str) -> None:
        if type(value) is not bool:
            raise RecordShapeError(f"{where}: expected true or false, not {short_repr(value)}")


@dataclass(frozen=True)
class Maybe:
    """``null`` or a value of ``shape``."""

    shape: Any

    def check(self, value: Any, where: str) -> None:
        if value is not None:
            self.shape.check(value, where)


@dataclass(frozen=True)
class ListOf:
    """A list whose every entry has ``shape``."""

    shape: Any

    def check(self, value: Any, where: str) -> None:
        if not isinstance(value, list):
            raise RecordShapeError(f"{where}: expected a list, not {short_repr(value)}")
        if len(value) > LONGEST_LIST:
            raise RecordShapeError(f"{where}: a list of {len(value)} entries is too long")
        for index, entry in enumerate(value):
            self.shape.check(entry, f"{where}[{index}]")


@dataclass(frozen=True)
class Either:
    """A value of the first of ``shapes`` it fits (the message is the last shape's)."""

    shapes: tuple[Any, ...]

    def check(self, value: Any, where: str) -> None:
        for shape in self.shapes[:-1]:
            try:
                shape.check(value, where)
                return
            except RecordShapeError:
                continue
        self.shapes[-1].check(value, where)


@dataclass(frozen=True)
class Exactly:
    """One given text (such as ``"pass"``)."""

    text: str

    def check(self, value: Any, where: str) -> None:
        if not isinstance(value, str) or value != self.text:
            raise RecordShapeError(f"{where}: expected {self.text!r}, not {short_repr(value)}")


@dataclass(frozen=True)
class Obj:
    """A JSON object with ``required`` and ``optional`` fields (name -> shape) and no others.

    A field nobody here knows is refused: it was written by a newer program."""

    required: Mapping[str, Any]
    optional: Mapping[str, Any] = field(default_factory=dict)

    def check(self, value: Any, where: str) -> None:
        if not isinstance(value, dict):
            raise RecordShapeError(f"{where}: expected an object, not {short_repr(value)}")
        prefix = f"{where}." if where else ""
        for name in value:
            if name not in self.required and name not in self.optional:
                raise RecordShapeError(
                    f"{prefix}{field_name(name)}: "
                    f"a field this program does not know (was the game written by a newer "
                    f"Trick Table?); known fields: {', '.join([*self.required, *self.optional])}"
                )
        for name, shape in self.required.items():
            if name not in value:
                raise RecordShapeError(f"{prefix}{name}: missing")
            shape.check(value[name], prefix + name)
        for name, shape in self.optional.items():
            if name in value:
                shape.check(value[name], prefix + name)


class AnyObject:
    """A JSON object whose fields are checked elsewhere (against the game, once it is known)."""

    def check(self, value: Any, where: str) -> None:
        if not isinstance(value, dict):
            raise RecordShapeError(f"{where}: expected an object, not {short_repr(value)}")


# ---------------------------------------------------------------------- a hand history
SEAT = Whole(0, 63)
COUNT = Whole()
CARD = Text(4)
SUIT = Maybe(Text(1))
CARDS = ListOf(CARD)
PLAY = Obj({"seat": SEAT, "card": CARD})
TRICK = Obj({"leader": SEAT, "plays": ListOf(PLAY), "winner": SEAT})
# Names up to 200 characters are read (older versions wrote them); the program writes at most LONGEST_NAME.
PLAYER = Obj({"seat": SEAT, "name": Name(max(200, LONGEST_NAME)), "controller": Text(60)})

# A house rule's value: the rules say which of these each key takes.
RULE_VALUE = Either((Flag(), Whole(), Text(60)))
CONTRACT_BID = Either((Exactly("pass"), Obj({"books": COUNT, "mode": Text(20)}, {"take": Flag()})))

# The fields of one deal per scoring style (``GameDef.scoring``), as
# ``game.persistence.history_codec.DealShape.new_deal`` writes them; the optional ones are
# written only on some deals.
DEAL_FIELDS: dict[str, Obj] = {
    "contract": Obj(
        {
            "number": COUNT,
            "dealer": SEAT,
            "hands": ListOf(CARDS),
            "kitty": CARDS,
            "bids": ListOf(Obj({"seat": SEAT, "bid": CONTRACT_BID})),
            "redeal": Flag(),
            "declarer": Maybe(SEAT),
            "contract": Maybe(Obj({"books": COUNT, "mode": Text(20), "trump": SUIT, "direction": Text(20)})),
            "discard": CARDS,
            "tricks": ListOf(TRICK),
            "reneges": ListOf(Obj({"trick": COUNT, "seat": SEAT})),
            "books": ListOf(COUNT),
            "score_change": ListOf(COUNT),
            "scores": ListOf(COUNT),
        },
        {"boston": Flag()},
    ),
    "prediction": Obj(
        {
            "number": COUNT,
            "dealer": SEAT,
            "hands": ListOf(CARDS),
            "turn_up": Maybe(CARD),
            "trump": SUIT,
            "bids": ListOf(Obj({"seat": SEAT, "bid": COUNT})),
            "tricks": ListOf(TRICK),
            "tricks_won": ListOf(COUNT),
            "score_change": ListOf(COUNT),
            "scores": ListOf(COUNT),
        },
        {"trump_chosen_by": SEAT},
    ),
}

# The top level of a record; ``format`` and ``version`` are checked when the
# line is read (``game.persistence.history_reader``), the rules against the game's own keys below.
RECORD_FIELDS = Obj(
    {
        "format": Text(40),
        "version": Whole(),
        "game": Text(40),
        "seed": Maybe(Whole(low=None, high=None)),
        "rules": AnyObject(),
        "players": ListOf(PLAYER),
        "first_dealer": Obj({"draw": ListOf(PLAY), "dealer": Maybe(SEAT)}),
        "deals": ListOf(AnyObject()),
        "complete": Flag(),
        "final_scores": ListOf(COUNT),
        "winners": ListOf(SEAT),
    },
    {"undo_used": Flag()},
)


HUMAN_CONTROLLER = "human"
AI_PREFIX = "ai:"


def _check_players(game: Any, players: list[dict[str, Any]]) -> None:
    """Each seat once, in order, and each seat's controller a person or one of the game's
    computer levels: a record that says otherwise was edited, and a replay or the
    statistics would misread who sat where or at what level."""
    for index, player in enumerate(players):
        if player["seat"] != index:
            raise RecordShapeError(
                f"players[{index}].seat: {player['seat']} where seat {index} belongs "
                f"(each seat is listed once, in order from 0)"
            )
        controller = player["controller"]
        if controller != HUMAN_CONTROLLER and not (
            controller.startswith(AI_PREFIX) and controller[len(AI_PREFIX) :] in game.ai_levels
        ):
            known = ", ".join([HUMAN_CONTROLLER, *(AI_PREFIX + level for level in game.ai_levels)])
            raise RecordShapeError(
                f"players[{index}].controller: {short_repr(controller)} is neither a person "
                f"nor a computer level of {game.name} ({known})"
            )


def check_record_shape(record: Any) -> None:
    """``RecordShapeError`` naming the first field of ``record`` that is not as ``HAND_HISTORY.md`` says.

    Beyond the types: the game must be one this program knows, each seat
    listed once and in order with a known controller (``human`` or
    ``ai:<level>`` of the game), every
    house-rule key one of that game's (a key from a newer program is
    refused, never dropped), and every deal must have its scoring style's
    fields. The rule values themselves are checked by the rules
    (``rules_from_dict``) when the game is replayed.
    """
    RECORD_FIELDS.check(record, "")
    name = record["game"]
    if name not in game_names():
        raise RecordShapeError(f"game: {short_repr(name)} is not a game this program knows ({', '.join(game_names())})")
    game = get_game(name)
    _check_players(game, record["players"])
    for key in record["rules"]:
        if game.spec(key) is None:
            known = ", ".join(spec.key for spec in game.rule_specs)
            raise RecordShapeError(
                f"rules.{field_name(key)}: a house rule this program does not know "
                f"for {game.name} (was the game written by a newer Trick Table?); "
                f"known rules: {known}"
            )
        RULE_VALUE.check(record["rules"][key], f"rules.{key}")
    deal_fields = DEAL_FIELDS.get(game.scoring)
    if deal_fields is None:
        raise RecordShapeError(f"game: this program cannot read deals of games scored by {game.scoring!r}")
    for index, deal in enumerate(record["deals"]):
        deal_fields.check(deal, f"deals[{index}]")
