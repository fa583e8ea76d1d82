"""Reading the YAML files a user can edit, so that no file can hurt the program.

Every YAML text Trick Table reads (house-rule files, the bundled config
files, the user's ``settings.yaml`` and ``last_setup.yaml``, the values of
``--set KEY=VALUE``) goes through ``read_yaml_file`` or ``parse_yaml_text``
here. They build plain data the way ``yaml.safe_load`` does (no Python
objects, ever) and refuse what a file of ours never needs and a hostile
file uses to exhaust memory or time:

- a file over ``MAX_YAML_BYTES`` (256 KB), found before the file is read
  whole: at most one byte more than the limit is ever read;
- anchors and aliases (``&name`` / ``*name``): an alias repeats a value
  without repeating its text, which is how a few hundred bytes can expand to
  gigabytes ("billion laughs"). Our files have no use for them, so they are
  refused outright rather than counted;
- a key given twice in one mapping (YAML would silently keep the last);
- nesting deeper than ``MAX_YAML_DEPTH`` levels.

Each refusal, like a syntax error, raises ``YamlFileError`` with one
sentence naming the line. ``quote`` gives the short form of a bad value for
an error message (at most ``QUOTE_LIMIT`` characters of it), so a 50 MB
string is never echoed back.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Hashable

import yaml

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
    """A YAML text that cannot be used; ``reason`` says why (with the line where there is one)."""

    def __init__(self, source: str, reason: str) -> None:
        super().__init__(f"{source}: {reason}")
        self.source = source
        self.reason = reason


class _Refused(yaml.YAMLError):
    """Raised inside the loader for a construct we refuse; carries the finished reason."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _line(mark: yaml.Mark | None) -> str:
    return f"line {mark.line + 1}" if mark is not None else "an unknown line"


class _GuardedLoader(yaml.SafeLoader):
    """``yaml.SafeLoader`` that refuses anchors, aliases, duplicate keys and deep nesting."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node | None:
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent):
            raise _Refused(f"alias *{quote_text(event.anchor or '')} at {_line(event.start_mark)}: "
                           "anchors and aliases (&name, *name) are not allowed in Trick Table files")
        anchor = getattr(event, "anchor", None)
        if anchor is not None:
            raise _Refused(f"anchor &{quote_text(anchor)} at {_line(event.start_mark)}: "
                           "anchors and aliases (&name, *name) are not allowed in Trick Table files")
        self._depth += 1
        try:
            if self._depth > MAX_YAML_DEPTH:
                raise _Refused(f"nesting deeper than {MAX_YAML_DEPTH} levels at {_line(event.start_mark)}")
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

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
                raise _Refused(f"duplicate key {quote_text(str(key))} at line {line} "
                               f"(already given at line {first_line[key]})")
            first_line[key] = line


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
        raise YamlFileError(source, exc.reason) from None
    except yaml.MarkedYAMLError as exc:
        raise YamlFileError(source, _describe_yaml_error(exc)) from None
    except yaml.YAMLError as exc:
        raise YamlFileError(source, f"YAML error: {quote_text(str(exc), QUOTE_LIMIT * 2)}") from None
    except (ValueError, OverflowError, RecursionError) as exc:
        # safe_load raises these for values it recognizes but cannot build,
        # e.g. a timestamp like 2024-13-45 or an integer of 5,000 digits.
        problem = quote_text(str(exc), QUOTE_LIMIT * 2)
        raise YamlFileError(source, f"YAML value that cannot be read: {problem}") from None
    finally:
        if loader is not None:
            loader.dispose()


def read_limited_text(path: str | Path, source: str | None = None) -> str:
    """The text of the file ``path``, read only if it is at most ``MAX_YAML_BYTES``.

    ``OSError`` when it cannot be read at all; ``YamlFileError`` when it is too
    big or not UTF-8 text.
    """
    source = source or str(path)
    with open(path, "rb") as handle:
        data = handle.read(MAX_YAML_BYTES + 1)
    if len(data) > MAX_YAML_BYTES:
        raise YamlFileError(source, _too_big(None))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise YamlFileError(source, "cannot read the file: it is not UTF-8 text") from None


def read_yaml_file(path: str | Path, source: str | None = None) -> Any:
    """The YAML document in the file ``path`` (see ``read_limited_text`` and ``parse_yaml_text``)."""
    source = source or str(path)
    try:
        text = read_limited_text(path, source)
    except OSError as exc:
        raise YamlFileError(source, f"cannot read the file: {exc.strerror or exc}") from None
    return parse_yaml_text(text, source)


def _too_big(size: int | None) -> str:
    actual = f" ({size:,} bytes)" if size is not None else ""
    return f"the file is larger than {MAX_YAML_BYTES // 1024} KB{actual}; it cannot be a Trick Table file"


def _describe_yaml_error(exc: yaml.MarkedYAMLError) -> str:
    mark = exc.problem_mark or exc.context_mark
    where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
    problem = quote_text(exc.problem or exc.context or "invalid YAML", QUOTE_LIMIT * 2)
    # A constructor error is well-formed YAML asking for something safe_load
    # refuses to build (such as a !!python tag), not a typing mistake.
    kind = "unsupported YAML value" if isinstance(exc, yaml.constructor.ConstructorError) else "YAML syntax error"
    return f"{kind}{where}: {problem}"


def quote_text(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` as it is if short, else its first ``limit`` characters and a count of the rest."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text):,} characters)"


def quote(value: Any, limit: int = QUOTE_LIMIT) -> str:
    """A bad value for an error message: its ``repr`` if short, else a prefix and its size."""
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int) and value.bit_length() > QUOTE_INT_BITS:
        # Python refuses to print an int of over 4,300 digits; say how long it is.
        return f"a number of about {int(value.bit_length() * 0.30103):,} digits"
    if isinstance(value, str) and len(value) > limit:
        return f"{value[:limit]!r}... ({len(value):,} characters)"
    if isinstance(value, (list, tuple, dict)) and len(value) > limit:
        kind = "mapping" if isinstance(value, dict) else "list"
        return f"a {kind} of {len(value):,} entries"
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"
