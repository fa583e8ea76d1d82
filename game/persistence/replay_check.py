"""``replay --check``: replay hand-history files through the engine, line by line."""

from __future__ import annotations

# Every line of every file given is accounted for, by its line number in the
# file (counting from 1, blank lines included, as an editor shows them): it is
# a game that agrees with the engine, a game the engine disagrees with, a line
# that cannot be read as a game (damaged JSON, a key given twice in one object,
# a field of the wrong type, a controller or seat list no game has, a
# field or house rule written by a newer program, a line too long to be a
# game), or a blank line. One bad line never stops the run: the lines after it
# and the files after it are still checked, and a file that cannot be opened at
# all is named and skipped.
#
# For each file the output has one line per game the engine disagrees with
# (and its first differences), an ``error:`` line on standard error per line
# that cannot be read, and a summary that adds the lines up. A file without
# games says so; it is never reported as agreeing.
#
# Exit status: 0 when every game of every file agrees; 1 when the engine
# disagrees with a game and everything could be read; 2 when any line or
# file could not be read. Unreadable input wins over a disagreement: the
# check was incomplete, and 2 is what a script must notice first (the output
# still names the disagreements).

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TextIO

from game.persistence import line_reader
from game.persistence.history_codec import HistoryError
from game.persistence.history_reader import parse_history_line
from game.persistence.history_replay import check_game, replay_start
from game.persistence.history_schema import short_repr
from game.persistence.line_reader import capped_lines, open_lines_file
from game.program.log_setup import log_file
from game.rules import RuleConfigError

EXIT_AGREE, EXIT_DISAGREE, EXIT_UNREADABLE = 0, 1, 2
# Differences shown per disagreeing game, and line numbers per list in a summary.
SHOWN_DIFFERENCES = 10
SHOWN_LINES = 10

log = logging.getLogger("tricktable.replay_check")


@dataclass
class FileReport:
    """What the check found in one file: line numbers per outcome."""

    path: str
    lines: int = 0
    agree: int = 0
    blank: int = 0
    disagree: list[int] = field(default_factory=list)
    unreadable: list[int] = field(default_factory=list)
    # Why the file could not be opened, or why reading it stopped part-way.
    read_problem: str | None = None

    @property
    def games(self) -> int:
        return self.agree + len(self.disagree)

    def summary(self) -> str:
        """One line adding up every line of the file."""
        if self.read_problem is not None and self.lines == 0:
            return f"{self.path}: not checked: {self.read_problem}"
        if self.read_problem is not None:
            return self._line_counts() + f"; {self.read_problem}"
        return self._line_counts()

    def _line_counts(self) -> str:
        if self.lines == self.blank:
            what = "the file is empty" if self.lines == 0 else f"{_count(self.blank, 'blank line')} only"
            return f"{self.path}: holds no games ({what})"
        parts = [_count(self.lines, "line")]
        if not self.disagree and not self.unreadable:
            parts.append(f"every game agrees with the engine ({_count(self.agree, 'game')})")
        else:
            parts.append(f"{_count(self.agree, 'game')} agree with the engine")
            if self.disagree:
                parts.append(f"{len(self.disagree)} disagree ({_line_list(self.disagree)})")
            if self.unreadable:
                parts.append(f"{len(self.unreadable)} unreadable ({_line_list(self.unreadable)})")
        if self.blank:
            parts.append(_count(self.blank, "blank line"))
        return f"{self.path}: " + ", ".join(parts)


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _line_list(numbers: list[int]) -> str:
    shown = ", ".join(str(number) for number in numbers[:SHOWN_LINES])
    more = len(numbers) - SHOWN_LINES
    return f"line{'s' if len(numbers) > 1 else ''} {shown}" + (f" and {more} more" if more > 0 else "")


def run_check(paths: Sequence[str], out: TextIO, err: TextIO) -> int:
    """Check every file of ``paths`` in turn, writing the report; the exit status (see the module)."""
    reports = [check_file_lines(path, out, err) for path in paths]
    if any(report.unreadable or report.read_problem is not None for report in reports):
        return EXIT_UNREADABLE
    return EXIT_DISAGREE if any(report.disagree for report in reports) else EXIT_AGREE


def check_file_lines(path: str, out: TextIO, err: TextIO) -> FileReport:
    """Check one file line by line, writing what each bad line is and the file's summary."""
    report = FileReport(path)
    try:
        # A device such as /dev/zero never ends and is refused; a file or a pipe does.
        handle = open_lines_file(path)
    except OSError as exc:
        report.read_problem = f"cannot read: {exc.strerror or exc}"
        print(f"error: {path}: {report.read_problem}", file=err)
        print(report.summary(), file=out)
        return report
    with handle:
        try:
            for line in capped_lines(handle):
                report.lines = line.number
                _check_line(report, line.number, line.raw, out, err)
        except OSError as exc:  # the file went away or the disk failed part-way
            report.read_problem = f"reading stopped after line {report.lines}: {exc.strerror or exc}"
            print(f"error: {path}: {report.read_problem}", file=err)
    print(report.summary(), file=out)
    return report


def _check_line(report: FileReport, number: int, raw: bytes | None, out: TextIO, err: TextIO) -> None:
    """Sort line ``number`` of the file into the report, writing why when it is not a good game."""
    where = f"{report.path}: line {number}"
    if raw is None:
        report.unreadable.append(number)
        limit = line_reader.MAX_LINE_BYTES // (1024 * 1024)
        print(f"error: {where}: longer than {limit} MB; no game is that long", file=err)
        return
    try:
        record = parse_history_line(report.path, number, raw, strict=True)
        if record is None:
            report.blank += 1
            return
        # Whether the record can start a game at all: a record that cannot
        # (a field of the wrong type, a rule a newer program wrote) is
        # unreadable, not a game the engine disagrees with.
        replay_start(record)
        problems = check_game(record)
    except HistoryError as exc:  # already names the file and line
        report.unreadable.append(number)
        print(f"error: {exc}", file=err)
        return
    except (KeyError, TypeError, ValueError, RuleConfigError) as exc:
        report.unreadable.append(number)
        print(f"error: {where}: unreadable: {_reason(exc)}", file=err)
        return
    except Exception as exc:
        # A record this checker has no answer for is a fault of the program,
        # not of the file: the details go to the log, the run goes on.
        log.exception("replay --check: %s: the checker failed", where)
        report.unreadable.append(number)
        details = log_file()
        print(
            f"error: {where}: the checker itself failed on this game ({type(exc).__name__}); this is a "
            f"fault of Trick Table, please report it" + (f" (details in {details})" if details else ""),
            file=err,
        )
        return
    if not problems:
        report.agree += 1
        return
    report.disagree.append(number)
    print(f"{where}: the engine disagrees ({len(problems)} difference{'s' if len(problems) > 1 else ''})", file=out)
    for problem in problems[:SHOWN_DIFFERENCES]:
        print(f"  {problem}", file=out)


def _reason(exc: Exception) -> str:
    """The sentence an exception carries, cut short (a ``KeyError`` quotes its key)."""
    text = str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc)
    if isinstance(exc, KeyError):
        return f"missing {short_repr(text)}"
    return text if len(text) <= 300 else text[:300] + "..."
