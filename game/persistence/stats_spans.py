"""Summarizing history files in spans of whole lines, in parallel where it pays."""

from __future__ import annotations

# Rebuilding the statistics without a cache means decoding every game of every
# history file: 10,000 games are about 120 MB, and one process spends over a
# second on them, almost all of it decoding JSON. Each game is one line, and a
# line can be summarized without the others, so the files are cut into spans
# of whole lines (``plan_spans``), the spans are summarized in worker
# processes (``summarize_spans``), and the results are stitched back together
# in file order (``stitch``) into exactly what one process reading the file
# from start to end gives: the same summaries with the same game numbers, the
# same problems naming the same lines and games, and the same point to resume
# from. A damaged line is skipped and named, and the reading goes on: the
# games after it count (``Damage`` names the first few damaged lines of a file
# and counts the rest, so a file of a million damaged lines costs no memory).
#
# Worker processes are used only where they are cheap and safe to start:
# with the ``fork`` start method (Linux), more than one processor, no other
# thread running in this process (a fork copies only the calling thread), and
# enough bytes to read that starting them is repaid. Everywhere else, and if
# a worker cannot be started, the same spans are read here one after another.

import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from game.persistence.history_codec import HistoryError
from game.persistence.history_reader import read_history_from
from game.rules.problems import Grouped, Problem, ProblemValueError

#: Below this many bytes to read, starting worker processes costs more than it saves.
PARALLEL_MIN_BYTES = 16 * 1024 * 1024
#: Spans per worker: more than one, so that a worker that finishes early takes another.
SPANS_PER_WORKER = 4
READ_BLOCK = 1 << 22  # bytes per read when counting the lines before each span


@dataclass(frozen=True)
class Span:
    """The lines of ``path`` that start at or after byte ``start`` and before
    ``end`` (None: to the end of the file); ``first_line`` numbers the first."""

    path: str
    start: int
    end: int | None
    first_line: int


#: Damaged lines named per file; those after them are only counted.
NAMED_DAMAGE = 10


@dataclass
class Damage:
    """The damaged lines of a file that were skipped: the first ``NAMED_DAMAGE`` as the
    problems that name them, and how many there were in all."""

    named: list[Problem] = field(default_factory=list)
    count: int = 0

    def add(self, problem: Problem) -> None:
        self.count += 1
        if len(self.named) < NAMED_DAMAGE:
            self.named.append(problem)

    def extend(self, other: Damage) -> None:
        for problem in other.named:
            self.add(problem)
        self.count += other.count - len(other.named)

    def problems(self, source: str) -> list[Problem]:
        """The named lines, and one problem counting the others when there were more."""
        more = self.count - len(self.named)
        if more <= 0:
            return list(self.named)
        return [*self.named, Problem("stats.more_damage", {"source": source, "count": Grouped(more)})]


@dataclass
class SpanResult:
    """What one span held: its games' summaries, numbered from 1 within the
    span; the games that could not be summarized, as (number within the span,
    reason); how many games were read; the offset and line number after the
    last whole line read (a game or a damaged line), and whether any was; the
    damaged lines skipped; a damaged last line without its newline (``torn``:
    it may yet be set aside, so it is read again next time); and why the file
    could not be read at all, if it could not."""

    summaries: list[dict[str, Any]] = field(default_factory=list)
    problems: list[tuple[int, Problem]] = field(default_factory=list)
    records: int = 0
    end_offset: int = 0
    next_line: int = 1
    moved: bool = False
    damage: Damage = field(default_factory=Damage)
    torn: Problem | None = None
    stopped: Problem | None = None


Summarize = Callable[[dict[str, Any], str, int], dict[str, Any]]


def summarize_span(span: Span, summarize: Summarize) -> SpanResult:
    """Summarize the games of one span (``summarize`` raises ``ValueError`` for a game it cannot read)."""
    result = SpanResult(end_offset=span.start, next_line=span.first_line)

    def skip(damage: HistoryError) -> None:
        if damage.end is None or damage.line is None:
            result.torn = damage.problem
            return
        result.damage.add(damage.problem)
        result.end_offset, result.next_line, result.moved = damage.end, damage.line + 1, True

    try:
        for placed in read_history_from(
            span.path, span.start, span.first_line, on_damage=skip, without_cards=True, end=span.end
        ):
            result.records += 1
            try:
                result.summaries.append(summarize(placed.record, span.path, result.records))
            except ValueError as exc:
                result.problems.append((result.records, unsummarized(exc)))
            result.end_offset, result.next_line, result.moved = placed.end, placed.line + 1, True
    except HistoryError as exc:  # the file could not be opened
        result.stopped = exc.problem
    return result


def unsummarized(error: ValueError) -> Problem:
    """Why a game could not be summarized: the summarizer's problem, or its error's words."""
    if isinstance(error, ProblemValueError):
        return error.problem
    return Problem("stats.not_summarized", {"detail": str(error)})


def plan_spans(path: Path, start: int, first_line: int, size: int, pieces: int) -> list[Span]:
    """``path`` from byte ``start`` (line ``first_line``) to ``size`` cut into up to ``pieces``
    spans of about equal length, each beginning at the start of a line."""
    if pieces <= 1 or size - start < 2:
        return [Span(str(path), start, None, first_line)]
    cuts = [start]
    with open(path, "rb") as handle:
        for piece in range(1, pieces):
            cut = _next_line_start(handle, start + (size - start) * piece // pieces, size)
            if cuts[-1] < cut < size:
                cuts.append(cut)
        # Each span's first line number: the lines before it, counted a block at a time.
        lines_before = [first_line]
        handle.seek(start)
        position, counted = start, first_line
        for cut in cuts[1:]:
            while position < cut:
                block = handle.read(min(READ_BLOCK, cut - position))
                if not block:
                    break
                counted += block.count(b"\n")
                position += len(block)
            lines_before.append(counted)
    ends: list[int | None] = [*cuts[1:], None]
    return [Span(str(path), cut, end, line) for cut, end, line in zip(cuts, ends, lines_before)]


def _next_line_start(handle: BinaryIO, position: int, size: int) -> int:
    """Where the first line that starts after ``position`` begins (``size`` if none does),
    sought a block at a time: a file may hold no newline for hundreds of megabytes."""
    handle.seek(position)
    while position < size:
        block = handle.read(READ_BLOCK)
        if not block:
            break
        newline = block.find(b"\n")
        if newline >= 0:
            return position + newline + 1
        position += len(block)
    return size


def worker_count(total_bytes: int) -> int:
    """How many worker processes to read ``total_bytes`` with (1: read them here)."""
    processors = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    if (
        total_bytes < PARALLEL_MIN_BYTES
        or processors < 2
        or threading.active_count() > 1
        or "fork" not in multiprocessing.get_all_start_methods()
    ):
        return 1
    return processors


def summarize_spans(spans: list[Span], summarize: Summarize, workers: int) -> list[SpanResult]:
    """Every span's result, in the order given; in ``workers`` processes when more than one."""
    if workers > 1 and len(spans) > 1:
        try:
            with ProcessPoolExecutor(
                max_workers=min(workers, len(spans)), mp_context=multiprocessing.get_context("fork")
            ) as pool:
                return list(pool.map(summarize_span, spans, [summarize] * len(spans)))
        except (OSError, BrokenProcessPool):
            pass  # no process to be had: read them here instead
    return [summarize_span(span, summarize) for span in spans]


@dataclass
class FileReading:
    """One file's games after stitching its spans: the summaries (numbered in
    the file), the last game that could not be summarized, the games read,
    where the reading ended (after the last whole line read), the damaged
    lines skipped before that point, a torn last line after it, and why the
    file could not be read at all."""

    summaries: list[dict[str, Any]]
    game_problem: Problem | None
    records: int
    end_offset: int
    next_line: int
    stopped: Problem | None
    damage: Damage = field(default_factory=Damage)
    torn: Problem | None = None


def stitch(
    path: Path,
    results: list[SpanResult],
    records_before: int,
    offset: int,
    line: int,
    game_problem: Problem | None,
    damage_before: Damage | None = None,
) -> FileReading:
    """The spans of one file, in order, as one reading of it after ``records_before``
    games (``offset``, ``line``: where the first span begins; ``damage_before``:
    the damaged lines skipped before it)."""
    summaries: list[dict[str, Any]] = []
    records, stopped, torn = records_before, None, None
    damage = Damage()
    if damage_before is not None:
        damage.extend(damage_before)
    for result in results:
        for summary in result.summaries:
            summary["index"] += records
            summaries.append(summary)
        if result.problems:
            number, reason = result.problems[-1]
            game_problem = Problem("stats.game", {"source": str(path), "number": records + number, "reason": reason})
        records += result.records
        damage.extend(result.damage)
        torn = result.torn or torn
        if result.moved:
            offset, line = result.end_offset, result.next_line
        if result.stopped is not None:
            stopped = result.stopped
            break
    return FileReading(summaries, game_problem, records, offset, line, stopped, damage, torn)
