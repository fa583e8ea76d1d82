"""Reading the YAML files a user can edit, so that no file can hurt the program."""

from __future__ import annotations

# Every YAML text Trick Table reads (house-rule files, the bundled config
# files, the user's ``settings.yaml`` and ``last_setup.yaml``, the values of
# ``--set KEY=VALUE``) goes through ``read_yaml_file`` or ``parse_yaml_text``
# here. They build plain data the way ``yaml.safe_load`` does (no Python
# objects, ever) and refuse what a file of ours never needs and a hostile
# file uses to exhaust memory or time:
#
# - a file over ``MAX_YAML_BYTES`` (256 KB), found before the file is read
#   whole: at most one byte more than the limit is ever read;
# - anchors and aliases (``&name`` / ``*name``): an alias repeats a value
#   without repeating its text, which is how a few hundred bytes can expand to
#   gigabytes ("billion laughs"). Our files have no use for them, so they are
#   refused outright rather than counted;
# - a key given twice in one mapping (YAML would silently keep the last);
# - nesting deeper than ``MAX_YAML_DEPTH`` levels.
#
# One YAML 1.1 reading is left out rather than refused: numbers in base 60
# (``1:30`` is 90 to ``yaml.safe_load``, a time of day to anyone else). Such a
# value is read as the text it is, so a setting or house rule that wants a
# number refuses it, quoting it as written.
#
# Each refusal, like a syntax error, raises ``YamlFileError`` with one
# sentence naming the line; its ``problem`` is that sentence as a code and
# parameters (``game.rules.problems``) for the window to word in the player's
# language. ``quote`` gives the short form of a bad value for
# an error message (at most ``QUOTE_LIMIT`` characters of it), so a 50 MB
# string is never echoed back; ``quoted`` and ``quoted_text`` give the same
# as a problem parameter, so that the words around a shortened value
# ("... (70,000 characters)") are in the player's language too.

import datetime
import re
from collections.abc import Hashable
from pathlib import Path
from typing import Any

import yaml

from game.rules.problems import Grouped, Problem
from game.settings.paths import open_regular_file
from game.settings.problem_texts import line_problem

MAX_YAML_BYTES = 256 * 1024
# Our deepest file nests five levels (presets -> name -> rules -> key -> value);
# the margin leaves room for a list value or two without letting a line of
# thousands of '[' reach the parser's recursion.
MAX_YAML_DEPTH = 32
QUOTE_LIMIT = 60
# An integer with more bits than this is shown by its length, not its digits.
QUOTE_INT_BITS = 200

_MERGE_TAG = "tag:yaml.org,2002:merge"


class YamlFileError(ValueError):
    """A YAML text that cannot be used; ``reason`` says why in English (with the line where
    there is one), ``problem`` is the same as a code and parameters."""

    def __init__(self, source: str, problem: Problem) -> None:
        super().__init__(f"{source}: {problem}")
        self.source = source
        self.problem = problem
        self.reason = str(problem)


class _Refused(yaml.YAMLError):
    """Raised inside the loader for a construct we refuse; carries the finished problem."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem))
        self.problem = problem


def _line(mark: yaml.Mark | None) -> Problem:
    return line_problem(mark.line + 1 if mark is not None else None)


_INT_TAG = "tag:yaml.org,2002:int"
_FLOAT_TAG = "tag:yaml.org,2002:float"
# YAML 1.1's integers and floats as ``yaml.SafeLoader`` resolves them, but for the
# base-60 forms (``1:30``, ``1:30.5``), which are left to be text.
_NUMBERS_WITHOUT_BASE_60 = {
    _INT_TAG: re.compile(
        r"""^(?:[-+]?0b[0-1_]+
                    |[-+]?0[0-7_]+
                    |[-+]?(?:0|[1-9][0-9_]*)
                    |[-+]?0x[0-9a-fA-F_]+)$""",
        re.X,
    ),
    _FLOAT_TAG: re.compile(
        r"""^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?
                    |\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?
                    |[-+]?\.(?:inf|Inf|INF)
                    |\.(?:nan|NaN|NAN))$""",
        re.X,
    ),
}


def _resolvers_without_base_60() -> dict[Any, list[tuple[str, re.Pattern[str]]]]:
    """``yaml.SafeLoader``'s table of implicit types with the number patterns above."""
    return {
        first: [(tag, _NUMBERS_WITHOUT_BASE_60.get(tag, pattern)) for tag, pattern in entries]
        for first, entries in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }


class _GuardedLoader(yaml.SafeLoader):
    """``yaml.SafeLoader`` that refuses anchors, aliases, duplicate keys and deep nesting,
    and reads no number in base 60."""

    yaml_implicit_resolvers = _resolvers_without_base_60()

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node | None:
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent):
            raise _Refused(
                Problem("yaml.alias", {"name": quoted_text(event.anchor or ""), "where": _line(event.start_mark)})
            )
        anchor = getattr(event, "anchor", None)
        if anchor is not None:
            raise _Refused(Problem("yaml.anchor", {"name": quoted_text(anchor), "where": _line(event.start_mark)}))
        self._depth += 1
        try:
            if self._depth > MAX_YAML_DEPTH:
                raise _Refused(Problem("yaml.too_deep", {"levels": MAX_YAML_DEPTH, "where": _line(event.start_mark)}))
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

    def construct_whole_number(self, node: yaml.ScalarNode) -> Any:
        """``safe_load``'s integer, or a refusal that says how long a number is that Python
        will not convert (more than 4,300 digits) instead of Python's own words."""
        try:
            return self.construct_yaml_int(node)
        except ValueError:
            digits = sum(character.isalnum() for character in str(node.value))
            raise _Refused(
                Problem("yaml.long_number", {"digits": Grouped(digits), "where": _line(node.start_mark)})
            ) from None

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Hashable, Any]:
        if isinstance(node, yaml.MappingNode):
            self._refuse_duplicate_keys(node)
        return super().construct_mapping(node, deep=deep)

    def _refuse_duplicate_keys(self, node: yaml.MappingNode) -> None:
        first_line: dict[Any, int] = {}
        for key_node, _ in node.value:
            # A merge key (<<) is meant to be overridden by the keys beside it.
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag == _MERGE_TAG:
                continue
            key = self.construct_object(key_node)
            line = key_node.start_mark.line + 1
            if key in first_line:
                raise _Refused(
                    Problem(
                        "yaml.duplicate_key", {"entry": quoted_text(str(key)), "line": line, "first": first_line[key]}
                    )
                )
            first_line[key] = line


_GuardedLoader.add_constructor(_INT_TAG, _GuardedLoader.construct_whole_number)


def parse_yaml_text(text: str, source: str) -> Any:
    """The YAML document in ``text`` as plain data; ``YamlFileError`` for anything refused."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_YAML_BYTES:
        raise YamlFileError(source, _too_big(size))
    loader = None
    try:
        # The reader already refuses some text (control characters) here.
        loader = _GuardedLoader(text)
        return loader.get_single_data()
    except _Refused as exc:
        raise YamlFileError(source, exc.problem) from None
    except yaml.MarkedYAMLError as exc:
        raise YamlFileError(source, _describe_yaml_error(exc)) from None
    except yaml.YAMLError as exc:
        detail = quoted_text(str(exc), QUOTE_LIMIT * 2)
        raise YamlFileError(source, Problem("yaml.error", {"detail": detail})) from None
    except (ValueError, OverflowError, RecursionError) as exc:
        # safe_load raises these for values it recognizes but cannot build,
        # e.g. a timestamp like 2024-13-45 or an integer of 5,000 digits.
        detail = quoted_text(str(exc), QUOTE_LIMIT * 2)
        raise YamlFileError(source, Problem("yaml.bad_value", {"detail": detail})) from None
    finally:
        if loader is not None:
            loader.dispose()


class SalvagedText(str):
    """The text of a file, and the first line (from 1) that held bytes which are not UTF-8
    text, each read as U+FFFD (None when every byte was text)."""

    not_utf8_line: int | None = None


def read_limited_text(
    path: str | Path, source: str | None = None, ordinary_only: bool = False, salvage: bool = False
) -> SalvagedText:
    """The text of the file ``path``, read only if it is at most ``MAX_YAML_BYTES``.

    ``OSError`` when it cannot be read at all; ``YamlFileError`` when it is too
    big or not UTF-8 text. ``ordinary_only``: a pipe or device is refused
    unopened (``NotRegularFileError``), for the player's own files the program
    reads by itself (a file named on the command line may well be a pipe). With
    ``salvage`` a byte that is not UTF-8 is read as a replacement character
    instead (``not_utf8_line`` names its line), so that a reader can keep the
    rest of the file.
    """
    source = source or str(path)
    with open_regular_file(path) if ordinary_only else open(path, "rb") as handle:
        data = handle.read(MAX_YAML_BYTES + 1)
    if len(data) > MAX_YAML_BYTES:
        raise YamlFileError(source, _too_big(None))
    try:
        return SalvagedText(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        if not salvage:
            raise YamlFileError(source, Problem("file.not_utf8")) from None
        text = SalvagedText(data.decode("utf-8", errors="replace"))
        text.not_utf8_line = data.count(b"\n", 0, exc.start) + 1
        return text


def read_yaml_file(path: str | Path, source: str | None = None, ordinary_only: bool = False) -> Any:
    """The YAML document in the file ``path`` (see ``read_limited_text`` and ``parse_yaml_text``)."""
    source = source or str(path)
    try:
        text = read_limited_text(path, source, ordinary_only)
    except OSError as exc:
        # The OS's own words for why (its strerror) follow the translated sentence.
        raise YamlFileError(source, unreadable_file(exc)) from None
    return parse_yaml_text(text, source)


def unreadable_file(exc: OSError) -> Problem:
    """A file the OS would not let us read; the reason is the OS's own text (its ``strerror``)."""
    return Problem("file.unreadable", {"reason": exc.strerror or str(exc)})


def _too_big(size: int | None) -> Problem:
    limit = MAX_YAML_BYTES // 1024
    if size is None:
        return Problem("file.too_big_unmeasured", {"limit": limit})
    return Problem("file.too_big", {"limit": limit, "size": Grouped(size)})


def _describe_yaml_error(exc: yaml.MarkedYAMLError) -> Problem:
    mark = exc.problem_mark or exc.context_mark
    # The detail is PyYAML's own English ("could not find expected ':'"): the
    # translated sentence around it names the line and column a player looks at.
    detail = quoted_text(exc.problem or exc.context or "invalid YAML", QUOTE_LIMIT * 2)
    # A constructor error is well-formed YAML asking for something safe_load
    # refuses to build (such as a !!python tag), not a typing mistake.
    kind = "yaml.unsupported" if isinstance(exc, yaml.constructor.ConstructorError) else "yaml.syntax"
    if mark is None:
        return Problem(kind, {"detail": detail})
    return Problem(f"{kind}_at", {"line": mark.line + 1, "column": mark.column + 1, "detail": detail})


def key_text(key: Any) -> str:
    """A mapping key as a message names it: as it was written in the file. YAML reads some
    keys as other things than text (``~`` or ``null`` as nothing, ``2024-01-01`` as a
    date, ``yes`` as true); Python's names for those (``None``, ``True``) were never written."""
    if key is None:
        return "null"
    if isinstance(key, bool):
        return "true" if key else "false"
    if isinstance(key, datetime.date):
        return key.isoformat()
    return str(key)  # (a number too long for ``str`` is refused when the file is read)


def quote_text(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` as it is if short, else its first ``limit`` characters and a count of the rest."""
    return str(quoted_text(text, limit))


def quoted_text(text: str, limit: int = QUOTE_LIMIT) -> str | Problem:
    """``quote_text`` as a problem parameter: ``text`` itself, or a problem that words its cut form."""
    if len(text) <= limit:
        return text
    return _cut(text[:limit], len(text))


def quote(value: Any, limit: int = QUOTE_LIMIT) -> str:
    """A bad value for an error message: its ``repr`` if short, else a prefix and its size."""
    return str(quoted(value, limit))


def quoted(value: Any, limit: int = QUOTE_LIMIT) -> str | Problem:
    """``quote`` as a problem parameter: the short ``repr`` itself, or a problem that words the
    shortened form (a prefix and a size) in the player's language."""
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, datetime.date):
        return value.isoformat()  # as it was written (2024-01-01), not as Python's datetime.date(...)
    if isinstance(value, int) and value.bit_length() > QUOTE_INT_BITS:
        # Python refuses to print an int of over 4,300 digits; say how long it is.
        return Problem("value.long_number", {"digits": Grouped(int(value.bit_length() * 0.30103))})
    if isinstance(value, str) and len(value) > limit:
        return _cut(repr(value[:limit]), len(value))
    if isinstance(value, (list, tuple, dict)) and len(value) > limit:
        kind = "value.long_mapping" if isinstance(value, dict) else "value.long_list"
        return Problem(kind, {"entries": Grouped(len(value))})
    text = repr(value)
    return text if len(text) <= limit else _cut(text[:limit], len(text))


def _cut(start: str, length: int) -> Problem:
    return Problem("value.cut", {"start": start, "length": Grouped(length)})
