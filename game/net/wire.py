"""The JSON shape of the game's values on the network: events, views, finished hands, scores.

Cards travel as the hand history's codes (``AS``, ``BJ``, ``WZ``; ``null`` for a card
this viewer may not see) and actions as its action strings (``4up``, ``-AS``,
``trump:H``), so a frame reads like the hand history and a card in it is easy to find.
"""

from __future__ import annotations

# The codec reads each dataclass's own field annotations (the rules annotate a card
# as ``Card``, a run of cards as ``Cards``): it knows no game, so a third game's
# view travels as soon as its class is registered. A value is written by its
# annotation, and read back only into the classes listed here: a frame can never
# make the reader build anything else. Every reading error is a ``WireError``.

import dataclasses
import json
import re
import sys
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from operator import attrgetter
from typing import Any

from game.rules import GameEvent, Phase, game_names, get_game
from game.rules.actions import Action, action_to_str, parse_action
from game.rules.cards import card_code, parse_card
from game.rules.errors import ParseError
from game.rules.events import EVENT_TYPES, UNKNOWN_CARD
from game.rules.finished_hand import FinishedHand
from game.rules.house_rules import Rules, rules_from_dict
from game.rules.view import PlayerView, TrickRecord
from game.session.scores import ContractLine, DealScore, ScoreHistory

__all__ = ["WireError", "compact_json", "decode_value", "encode_value", "encode_text", "encode_action", "decode_action"]


class WireError(ValueError):
    """A frame's value does not have the shape its type needs."""


# ---------------------------------------------------------------- annotations
_TOKEN = re.compile(r"\s*([A-Za-z_][A-Za-z_0-9.]*|\.\.\.|[\[\],|])")


@dataclasses.dataclass(frozen=True)
class _Type:
    """A parsed annotation: a name with its arguments (``tuple[int, ...]``)."""

    name: str
    args: tuple[_Type, ...] = ()


def _parse(text: str) -> _Type:
    tokens = [match.group(1) for match in _TOKEN.finditer(text)]
    position = 0

    def union() -> _Type:
        nonlocal position
        options = [single()]
        while position < len(tokens) and tokens[position] == "|":
            position += 1
            options.append(single())
        return options[0] if len(options) == 1 else _Type("|", tuple(options))

    def single() -> _Type:
        nonlocal position
        name = tokens[position]
        position += 1
        if position < len(tokens) and tokens[position] == "[":
            position += 1
            args = [union()]
            while tokens[position] == ",":
                position += 1
                args.append(union())
            position += 1  # "]"
            return _Type(name, tuple(args))
        return _Type(name)

    return union()


# The aliases the rules use in annotations, spelled out.
_ALIASES = {"Cards": "tuple[Card, ...]", "Plays": "tuple[tuple[int, Card], ...]"}


def _wire_classes() -> dict[str, type]:
    """Every class a frame may name: the events, each registered game's view, and what the
    table reads besides (finished hands, the score history and their parts)."""
    classes: list[type] = [*EVENT_TYPES, FinishedHand, TrickRecord, ScoreHistory, DealScore, ContractLine]
    classes.extend(get_game(name).view_type for name in game_names())
    return {cls.__name__: cls for cls in classes}


@cache
def _fields(cls: type) -> tuple[tuple[str, _Type], ...]:
    """``cls``'s fields with their parsed annotations."""
    result = []
    for field in dataclasses.fields(cls):
        text = field.type if isinstance(field.type, str) else getattr(field.type, "__name__", str(field.type))
        result.append((field.name, _parse(_ALIASES.get(text, text))))
    return tuple(result)


def _expand(kind: _Type) -> _Type:
    alias = _ALIASES.get(kind.name)
    return _parse(alias) if alias is not None and not kind.args else kind


def _dataclass_named(name: str, owner: type) -> type | None:
    """The dataclass an annotation names, looked up where ``owner`` was written."""
    found = vars(sys.modules[owner.__module__]).get(name)
    return found if isinstance(found, type) and dataclasses.is_dataclass(found) else None


# ---------------------------------------------------------------- writing
def encode_action(action: Action | None) -> str | None:
    if action is None:
        return None
    text = _ACTION_TEXT.get(action)
    if text is None:
        text = action_to_str(action)
        if len(_ACTION_TEXT) < 4096:  # actions are few (a deck's cards, bids, suits): kept once written
            _ACTION_TEXT[action] = text
    return text


_ACTION_TEXT: dict[Action, str] = {}


def _encode_card(card: int) -> str | None:
    return None if card == UNKNOWN_CARD else card_code(card)


def _encode(value: Any, kind: _Type, owner: type) -> Any:
    return _encoder(kind, owner)(value)


# A value is written by a function made once per annotation (and cached): the codec walks
# each annotation once, not once per value, so the server encodes every viewer's frame of
# every action without re-reading the field types (``benchmarks/server.py``).
_Encoder = Callable[[Any], Any]


def _same(value: Any) -> Any:
    return value


@cache
def _encoder(kind: _Type, owner: type) -> _Encoder:
    """The function that writes a value of annotation ``kind`` (``None`` always as null)."""
    kind = _expand(kind)
    name = kind.name
    if name == "|":
        non_none = [option for option in kind.args if option.name != "None"]
        return _encoder(non_none[0], owner)  # every encoder writes None as null
    if name == "Card":
        return _encode_card_or_none
    if name == "Action":
        return encode_action
    if name == "Phase":
        return _encode_phase
    if name in ("int", "bool", "str"):
        return _same
    if name == "tuple":
        if len(kind.args) == 2 and kind.args[1].name == "...":
            return _tuple_encoder(kind.args[0], owner)
        parts = tuple(_encoder(part, owner) for part in kind.args)
        if len(parts) == 2:
            first, second = parts
            return lambda value: None if value is None else _pair(value, first, second)
        return lambda value: None if value is None else [write(item) for item, write in zip(value, parts, strict=True)]
    if name == "frozenset":
        return lambda value: None if value is None else sorted(value)
    if name == "Mapping":
        return lambda value: None if value is None else [[key, item] for key, item in sorted(value.items())]
    if name == "object":  # the rules a view was made under
        return lambda value: None if value is None else {"game": value.game, "values": _rule_values(value)}
    nested = _dataclass_named(name, owner)
    if nested is not None:
        return lambda value: None if value is None else _encode_fields(value, nested)

    def cannot(value: Any) -> Any:
        if value is None:
            return None
        raise TypeError(f"the wire codec cannot write a {name} ({owner.__name__})")

    return cannot


def _tuple_encoder(item_kind: _Type, owner: type) -> _Encoder:
    """A run of values (``tuple[X, ...]``); a run of pairs, such as (seat, card), in one loop."""
    item_kind = _expand(item_kind)
    if item_kind.name == "tuple" and len(item_kind.args) == 2 and item_kind.args[1].name != "...":
        first, second = (_encoder(part, owner) for part in item_kind.args)
        return lambda value: None if value is None else [[first(a), second(b)] for a, b in value]
    item = _encoder(item_kind, owner)
    if item is _same:
        return lambda value: None if value is None else list(value)
    return lambda value: None if value is None else [item(part) for part in value]


def _pair(value: Any, first: _Encoder, second: _Encoder) -> list[Any]:
    a, b = value  # exactly two, as the annotation says
    return [first(a), second(b)]


def _encode_card_or_none(card: int | None) -> str | None:
    return None if card is None or card == UNKNOWN_CARD else card_code(card)


def _encode_phase(phase: Any) -> str | None:
    if phase is None:
        return None
    name = _PHASE_NAMES.get(phase)
    return name if name is not None else Phase(phase).name.lower()


_PHASE_NAMES = {phase: phase.name.lower() for phase in Phase}


def _rule_values(rules: Any) -> dict[str, Any]:
    """``rules.to_dict()``, kept per rules value (they are frozen): every view carries them."""
    try:
        values = _RULE_VALUES.get(rules)
        if values is None:
            values = _RULE_VALUES[rules] = rules.to_dict()
            if len(_RULE_VALUES) > 256:
                _RULE_VALUES.pop(next(iter(_RULE_VALUES)))
    except TypeError:  # rules that cannot be a key
        values = rules.to_dict()
    return dict(values)


_RULE_VALUES: dict[Any, dict[str, Any]] = {}


@cache
def _field_encoders(cls: type) -> tuple[tuple[str, _Encoder], ...]:
    return tuple((field, _encoder(kind, cls)) for field, kind in _fields(cls))


def _encode_fields(value: Any, cls: type) -> dict[str, Any]:
    return {field: write(getattr(value, field)) for field, write in _field_encoders(cls)}


@cache
def _wire_class(cls: type) -> type:
    """The class a value of ``cls`` travels as (a lazily read view as the view it stands for)."""
    names = _wire_classes()
    while cls.__name__ not in names and cls.__bases__ and cls.__bases__[0] is not object:
        cls = cls.__bases__[0]
    return cls


def encode_value(value: Any) -> dict[str, Any]:
    """``value`` (an event, a view, a finished hand, a score history) as JSON data with its ``type``."""
    kind: type = type(value)
    cls = _wire_class(kind)
    return {"type": cls.__name__, **_encode_fields(value, cls)}


def encode_inner(value: Any) -> dict[str, Any]:
    """``value`` as JSON data the way it is written inside another value: its fields, no ``type``."""
    kind: type = type(value)
    return _encode_fields(value, _wire_class(kind))


def _compact_json_writer() -> Callable[[Any], str]:
    """Compact JSON, as every frame is written: ``json.dumps(value, separators=(",", ":"))``.
    The C encoder is made once here rather than for every call (a server writes tens of
    thousands of small values a second); the values are the codec's own, never circular."""
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:  # a Python without the C encoder
        return json.JSONEncoder(separators=(",", ":")).encode
    encoder = make(None, _not_json, json.encoder.encode_basestring_ascii, None, ":", ",", False, False, True)
    return lambda value: "".join(encoder(value, 0))


def _not_json(value: Any) -> Any:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


compact_json = _compact_json_writer()
_JSON = compact_json


def encode_text(value: Any, memo: dict[Any, str] | None = None) -> str:
    """``encode_value(value)`` as compact JSON text, the same text. ``memo`` keeps the text
    of each field that is a run of values (a trick, the tricks, the scores ...) by the field's
    name and value: the views of one table's seats share most of theirs, so a server that
    writes every seat's view of a position writes each shared run once."""
    kind: type = type(value)
    return whole_text(kind, field_texts(value, memo))


def whole_text(kind: type, texts: Mapping[str, str]) -> str:
    """A value of type ``kind`` as JSON text, from the texts of all its fields (``field_texts``)."""
    return f'{{"type":{_JSON(_wire_class(kind).__name__)},' + fields_text(texts) + "}"


def fields_text(texts: Mapping[str, str]) -> str:
    """``"field":text`` for each field, joined with commas (an object's inside)."""
    return ",".join(f'"{field}":{text}' for field, text in texts.items())


def field_texts(value: Any, memo: dict[Any, str] | None = None) -> dict[str, str]:
    """The JSON text of each field of ``value`` (a dataclass the codec knows), in field order."""
    kind: type = type(value)
    cls = _wire_class(kind)
    return {field: _field_text(cls, field, write, getattr(value, field), memo) for field, write in _field_encoders(cls)}


def changed_field_texts(
    value: Any,
    before: Any,
    before_texts: Mapping[str, str],
    memo: dict[Any, str] | None = None,
    among: frozenset[str] | None = None,
    grown: dict[tuple[str, int, int], tuple[Any, Any, str]] | None = None,
) -> dict[str, str]:
    """The texts of the fields of ``value`` whose value differs from ``before``'s (a value of the
    same type, whose field texts are ``before_texts``), in field order. A run that only grew (a
    hand's actions, the tricks, a trick) is written as the text it had with its new values added.
    ``among``: only those fields are compared (None: all). ``grown`` keeps the text of each run
    that grew by the identity of its old and new values: the viewers of a position who see a
    run alike hold the very same objects (``TrickGameState.seat_views_fields``), so it is
    compared and written once for all of them."""
    kind: type = type(value)
    cls = _wire_class(kind)
    runs = _run_fields(cls)
    changed = {}
    encoders, read = _fields_reading(cls, among)  # every field's value in one call
    for (field, write), item, old in zip(encoders, read(value), read(before), strict=True):
        if item is old or (type(item) is type(old) and item == old):
            continue
        if field in runs and type(item) is tuple and type(old) is tuple and len(item) > len(old) > 0:
            key = (field, id(item), id(old))
            known = grown.get(key) if grown is not None else None
            if known is not None and known[0] is item and known[1] is old:
                changed[field] = known[2]
                continue
            if item[: len(old)] == old:
                added = _JSON(write(item[len(old) :]))
                text = changed[field] = before_texts[field][:-1] + "," + added[1:]
                if grown is not None:
                    grown[key] = (item, old, text)  # the values are held, so their ids stay theirs
                continue
        changed[field] = _field_text(cls, field, write, item, memo)
    return changed


@cache
def _fields_reading(
    cls: type, among: frozenset[str] | None
) -> tuple[tuple[tuple[str, _Encoder], ...], Callable[[Any], tuple[Any, ...]]]:
    """The encoders of ``cls``'s fields (those ``among``, or all), in field order, and what
    reads their values as a tuple."""
    encoders = tuple(pair for pair in _field_encoders(cls) if among is None or pair[0] in among)
    if len(encoders) == 1:
        one = attrgetter(encoders[0][0])
        return encoders, lambda value: (one(value),)
    return encoders, attrgetter(*(field for field, _ in encoders))


def _field_text(cls: type, field: str, write: _Encoder, item: Any, memo: dict[Any, str] | None) -> str:
    if item is None:
        return "null"
    if write is _same and (item is True or item is False):
        return "true" if item else "false"
    if write is _same and type(item) is int:
        return str(item)
    if memo is not None and type(item) is tuple and item:
        key = (cls, field, item)
        try:
            return memo[key]
        except KeyError:
            text = memo[key] = _JSON(write(item))
            return text
        except TypeError:  # a value that cannot be a key
            pass
    return _JSON(write(item))


@cache
def _run_fields(cls: type) -> frozenset[str]:
    """The fields of ``cls`` that are runs of values (``tuple[X, ...]``, or None)."""
    runs = set()
    for field, kind in _fields(cls):
        kind = _expand(kind)
        if kind.name == "|":
            kind = next(_expand(option) for option in kind.args if option.name != "None")
        if kind.name == "tuple" and len(kind.args) == 2 and kind.args[1].name == "...":
            runs.add(field)
    return frozenset(runs)


def encode_events(events: Iterable[GameEvent]) -> list[dict[str, Any]]:
    return [encode_value(event) for event in events]


# ---------------------------------------------------------------- reading
def decode_action(text: Any) -> Action | None:
    """An action string read back (``WireError`` if it is not one)."""
    if text is None:
        return None
    if not isinstance(text, str) or len(text) > 16:
        raise WireError("an action is a short string such as AS, 4up or pass")
    try:
        return parse_action(text)
    except ParseError as error:
        raise WireError(str(error)) from None


def _need(condition: bool, what: str) -> None:
    if not condition:
        raise WireError(f"expected {what}")


def _decode_card(value: Any) -> int:
    if value is None:
        return UNKNOWN_CARD
    try:
        return parse_card(value)
    except ParseError as error:
        raise WireError(str(error)) from None


def _decode(value: Any, kind: _Type, owner: type) -> Any:
    kind = _expand(kind)
    name = kind.name
    if name == "|":
        if value is None and any(option.name == "None" for option in kind.args):
            return None
        non_none = [option for option in kind.args if option.name != "None"]
        return _decode(value, non_none[0], owner)
    if name == "Card":
        return _decode_card(value)
    if name == "Action":
        return decode_action(value)
    if name == "Phase":
        _need(isinstance(value, str) and value.upper() in Phase.__members__, "a phase name")
        return Phase[value.upper()]
    if name == "int":
        _need(isinstance(value, int) and not isinstance(value, bool), "a whole number")
        return value
    if name == "bool":
        _need(isinstance(value, bool), "true or false")
        return value
    if name == "str":
        _need(isinstance(value, str), "a string")
        return value
    if name == "tuple":
        _need(isinstance(value, list), "a list")
        if len(kind.args) == 2 and kind.args[1].name == "...":
            return tuple(_decode(item, kind.args[0], owner) for item in value)
        _need(len(value) == len(kind.args), f"a list of {len(kind.args)}")
        return tuple(_decode(item, part, owner) for item, part in zip(value, kind.args))
    if name == "frozenset":
        _need(isinstance(value, list), "a list")
        return frozenset(_decode(item, kind.args[0], owner) for item in value)
    if name == "Mapping":
        _need(isinstance(value, list), "a list of pairs")
        pairs = [_decode(item, _Type("tuple", kind.args), owner) for item in value]
        return dict(pairs)
    if name == "object":
        return decode_rules(value)
    nested = _dataclass_named(name, owner)
    if nested is not None and _wire_classes().get(nested.__name__) is nested:
        _need(isinstance(value, dict), f"a {name} object")
        return _decode_fields(value, nested)
    raise WireError(f"cannot read a {name}")


def decode_rules(value: Any) -> Rules:
    """Rules as a frame carries them, ``{"game": ..., "values": {...}}``; ``WireError`` when they
    name no game this program plays or cannot be read."""
    _need(isinstance(value, dict) and isinstance(value.get("game"), str), "rules with their game")
    if value["game"] not in game_names():
        raise WireError(f"unknown game {value['game'][:40]!r}")
    try:
        return rules_from_dict(value["game"], value.get("values", {}))
    except Exception as error:  # a rules problem is a malformed frame, never a crash
        raise WireError(f"rules not readable: {error}") from None


def _decode_fields(data: Mapping[str, Any], cls: type) -> Any:
    values = {}
    for field, kind in _fields(cls):
        _need(field in data, f"the field {field!r} of {cls.__name__}")
        values[field] = _decode(data[field], kind, cls)
    if issubclass(cls, PlayerView):
        return cls.from_fields(**values)
    return cls(**values)


def decode_value(data: Any, expected: type | tuple[type, ...] = object) -> Any:
    """A value written by ``encode_value`` read back; ``WireError`` unless it is a known class
    (and an instance of ``expected``) with every field in shape."""
    _need(isinstance(data, dict) and isinstance(data.get("type"), str), "an object with a type")
    cls = _wire_classes().get(data["type"])
    if cls is None:
        raise WireError(f"unknown type {data['type'][:40]!r}")
    if not issubclass(cls, expected):
        raise WireError(f"a {data['type']} is not expected here")
    try:
        return _decode_fields(data, cls)
    except (KeyError, IndexError, TypeError, ValueError) as error:
        if isinstance(error, WireError):
            raise
        raise WireError(f"{cls.__name__}: {error}") from None
