"""Reading hand-history files line by line, each line capped, a damaged line reported, not fatal."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

from game.persistence import line_reader
from game.persistence.history_codec import FORMAT, VERSION, HistoryError, _line_error
from game.persistence.history_schema import short_repr
from game.persistence.line_reader import capped_lines, open_lines_file
from game.rules.problems import Problem, located
from game.session.names import unkept_character


def read_history(path: str | Path, on_damage: Callable[[HistoryError], None] | None = None) -> Iterator[dict[str, Any]]:
    """Yield each game of a history file; a bad line raises ``HistoryError``.

    With ``on_damage``, a bad line is handed to it instead and reading goes
    on with the next line, so one damaged game does not hide the games after
    it (``replay --check`` reports them all). A file that cannot be opened
    always raises.
    """
    for placed in read_history_from(path, on_damage=on_damage):
        yield placed.record


class PlacedRecord(NamedTuple):
    """One game read from a history file and where its line is: ``line`` is its
    line number (from 1) and ``end`` the byte offset just after its line."""

    record: dict[str, Any]
    line: int
    end: int


def read_history_from(
    path: str | Path,
    offset: int = 0,
    first_line: int = 1,
    on_damage: Callable[[HistoryError], None] | None = None,
    without_cards: bool = False,
    end: int | None = None,
) -> Iterator[PlacedRecord]:
    """Yield each game of a history file from byte ``offset`` on, with where its line ends.

    ``offset`` must be the start of a line (0, or just after a newline) and
    ``first_line`` the number of that line, so that a damaged line is named
    as ``read_history`` would name it; ``on_damage`` works as there (the
    error's ``line`` and ``end`` say which line it was and where it ends). Because
    games are only ever appended, a reader that kept the ``end`` of the last
    game it read (``game.persistence.stats``' cache) can later read just the games added
    since. ``read_history`` is this function from the start of the file.

    Lines are read with a cap (``game.persistence.line_reader``): a line longer than any
    game is damage, read past without being held, so no file, however long
    or without newlines, costs more memory than one game. A device such as
    ``/dev/zero``, which never ends, is refused as a file that cannot be read.

    ``without_cards``: every deal's ``hands`` and ``tricks`` come back
    empty. The cards dealt and played are four fifths of a history's bytes,
    and a reader that needs only the bids, contracts and scores (the
    statistics) decodes several times faster without them.

    ``end``: only the lines that start before this byte offset are read (a
    span of the file, as ``game.persistence.stats_spans`` reads one per process).
    """
    try:
        handle = open_lines_file(path)
    except OSError as exc:
        # The operating system's own words, after the sentence that introduces them.
        reason = exc.strerror or str(exc)
        raise HistoryError(located(str(path), "", Problem("history.unreadable", {"reason": reason}))) from None
    with handle:
        if offset:
            handle.seek(offset)
        position = offset
        for line in capped_lines(handle, offset, first_line):
            if end is not None and position >= end:
                return
            position = line.end
            try:
                if line.raw is None:
                    raise _line_error(
                        path, line.number, "history.too_long", limit=line_reader.MAX_LINE_BYTES // (1024 * 1024)
                    )
                record = _parse_line(path, line.number, _without_cards(line.raw) if without_cards else line.raw)
            except HistoryError as damage:
                if on_damage is None:
                    raise
                damage.line, damage.end = line.number, (line.end if line.complete else None)
                on_damage(damage)
                continue
            if record is not None:
                yield PlacedRecord(record, line.number, line.end)


# The lists ``_without_cards`` empties, each with the mark that ends it as
# ``encode_record`` writes it. These lists hold only card codes, seats and
# fixed keys, never text a player wrote, so the first such mark after the
# key is the list's end: a deal's hands are lists of card codes (closed by
# the first "]]"), its tricks close with the last trick's winner. The tricks
# are emptied first: they are the bulk, and the hands are then sought in what
# is left.
_CARD_LISTS = (
    (b'"tricks":[', re.compile(rb'"winner":-?\d+\}\]')),
    (b'"hands":[', re.compile(rb"\]\]")),
)


def _without_cards(raw: bytes) -> bytes:
    """``raw`` (one game's line) with each deal's ``hands`` and ``tricks`` emptied.

    Only the compact form this program writes is recognised; a line written
    otherwise (by hand, with spaces) is returned unchanged and decoded whole,
    so the result is the same game either way, but for the cards."""
    for key, end_mark in _CARD_LISTS:
        raw = _emptied(raw, key, end_mark)
    return raw


def _emptied(raw: bytes, key: bytes, end_mark: re.Pattern[bytes]) -> bytes:
    """``raw`` with every list that follows ``key`` emptied (see ``_without_cards``);
    ``raw`` unchanged when a list's end cannot be found."""
    parts: list[bytes] = []
    position = 0
    while True:
        start = raw.find(key, position)
        if start < 0:
            parts.append(raw[position:])
            return b"".join(parts)
        body = start + len(key)
        if raw[body : body + 1] == b"]":  # already empty (a redeal's tricks)
            parts.append(raw[position : body + 1])
            position = body + 1
            continue
        end = end_mark.search(raw, body)
        if end is None:
            return raw
        parts.append(raw[position:body])
        parts.append(b"]")
        position = end.end()


class _DuplicateKey(ValueError):
    """A JSON object that gives one key twice (``json`` would silently keep the last)."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _refuse_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``json``'s ``object_pairs_hook`` for a strict reading: the object, or ``_DuplicateKey``."""
    found = dict(pairs)
    if len(found) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKey(key)
            seen.add(key)
    return found


def _parse_line(path: str | Path, number: int, raw: bytes, strict: bool = False) -> dict[str, Any] | None:
    """The game on one line of a file (None for a blank line); ``HistoryError`` naming the line.

    ``strict`` (``replay --check``) also refuses a key given twice in one object: which
    of the two the game meant cannot be told. Other readers do without the check,
    which would make reading the statistics several times slower."""
    # Decoded line by line so a damaged file names its bad line instead of crashing.
    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise _line_error(path, number, "history.not_utf8") from None
    if not line.strip():
        return None
    try:
        record = json.loads(line, object_pairs_hook=_refuse_duplicate_keys) if strict else json.loads(line)
    except _DuplicateKey as exc:
        raise _line_error(path, number, "history.duplicate_key", entry=short_repr(exc.key)) from None
    except json.JSONDecodeError as exc:
        if not line.endswith("\n"):
            # Only the last line can lack its newline: a write that was cut short.
            raise _line_error(path, number, "history.incomplete") from None
        # json's own words ("Expecting value") are English: only an English sentence shows them.
        raise _line_error(path, number, "history.not_json", detail=exc.msg) from None
    except RecursionError:
        raise _line_error(path, number, "history.too_deep") from None
    except ValueError:
        # JSON itself has no limit, but Python refuses to read a number of
        # more than 4,300 digits; no field of a history holds one.
        raise _line_error(path, number, "history.long_number") from None
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise _line_error(path, number, "history.foreign")
    version = record.get("version")
    # ``type(...) is int``: JSON's true and 1.0 are equal to 1 in Python, but no version.
    if type(version) is not int or version != VERSION:
        raise _line_error(path, number, "history.version", version=short_repr(version), supported=VERSION)
    _check_names(path, number, record.get("players"))
    return record


def _check_names(path: str | Path, number: int, players: Any) -> None:
    """A name no reader could show or write back (NUL, half a surrogate pair: ``game.session.names``)
    refuses the line here, before the statistics or the replay viewer meet it."""
    if not isinstance(players, list):
        return  # the shape check says what is wrong with it
    for seat, player in enumerate(players):
        name = player.get("name") if isinstance(player, dict) else None
        bad = unkept_character(name) if isinstance(name, str) else None
        if bad is not None:
            raise _line_error(path, number, "history.bad_name", seat=seat + 1, character=bad)


def parse_history_line(path: str | Path, number: int, raw: bytes, strict: bool = False) -> dict[str, Any] | None:
    """The game on line ``number`` of ``path`` given its bytes ``raw`` (None for a blank line);
    ``HistoryError`` naming the file and line when it is no game of this program's version
    (``strict``: or when an object in it gives a key twice)."""
    return _parse_line(path, number, raw, strict)
