"""Reading history files in spans (game.persistence.stats_spans): the same statistics as one reader.

A file is cut into spans of whole lines that worker processes summarize; the
stitched result must be exactly what one reader going from the first line to
the last gives, whatever the cut: the same summaries with the same game
numbers, the same problems naming the same lines and games, and the same
point to resume from. The files here hold what makes that hard: a blank
line, a game that cannot be summarized, and a damaged line that is skipped.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from game.persistence import stats, stats_spans
from game.persistence.history_files import encode_record
from game.persistence.stats import load_stats, summarize
from game.persistence.stats_spans import Span, plan_spans, stitch, summarize_span, summarize_spans
from game.session.match import Match, Seat
from game.settings.house_rule_files import resolve_rules

SEATS = [Seat("Ann", "ai:random"), Seat("Ben", "ai:random"), Seat("Cy", "ai:random")]


@pytest.fixture(scope="module")
def records() -> list[dict]:
    rules = resolve_rules("wizard", None, None, ["rounds=4"], players=3)
    games = []
    for seed in range(1, 9):
        match = Match(rules, SEATS, seed)
        match.play_out()
        games.append(match.history())
    return games


def unsummarizable(record: dict) -> dict:
    """A record the reader accepts but ``summarize`` cannot count (no player list)."""
    return {**record, "players": 7}


def history_file(folder: Path, records: list[dict], damaged: bool) -> Path:
    lines = [encode_record(record) for record in records]
    lines.insert(3, b"\n")  # a blank line
    lines.insert(5, encode_record(unsummarizable(records[0])))
    if damaged:
        lines.insert(9, b"{this is not a game\n")
    path = folder / "wizard.jsonl"
    path.write_bytes(b"".join(lines))
    return path


def read_whole(path: Path):
    return stitch(path, [summarize_span(Span(str(path), 0, None, 1), summarize)], 0, 0, 1, None)


def summary_in_worker(record: dict, source: str, index: int) -> dict:
    """``summarize``, marked with the process that ran it."""
    return {**summarize(record, source, index), "pid": os.getpid()}


@pytest.mark.parametrize("damaged", [False, True])
@pytest.mark.parametrize("pieces", [2, 3, 7])
def test_spans_stitched_together_read_exactly_as_one_reader(tmp_path, records, damaged, pieces):
    path = history_file(tmp_path, records, damaged)
    whole = read_whole(path)
    assert whole.game_problem and "game 5" in str(whole.game_problem)
    # A damaged line is skipped and named; the games after it are read.
    assert whole.stopped is None and whole.damage.count == int(damaged) and whole.records == len(records) + 1
    spans = plan_spans(path, 0, 1, path.stat().st_size, pieces)
    assert len(spans) > 1 and all(span.start < (span.end or path.stat().st_size) for span in spans)
    stitched = stitch(path, summarize_spans(spans, summarize, workers=2), 0, 0, 1, None)
    assert stitched == whole


def test_a_span_plan_starts_every_span_at_a_line_with_its_number(tmp_path, records):
    path = history_file(tmp_path, records, damaged=False)
    data = path.read_bytes()
    for span in plan_spans(path, 0, 1, len(data), 5):
        assert span.start == 0 or data[span.start - 1 : span.start] == b"\n"
        assert span.first_line == data[: span.start].count(b"\n") + 1


def test_spans_after_a_resume_point_number_their_games_after_it(tmp_path, records):
    path = history_file(tmp_path, records, damaged=False)
    whole = read_whole(path)
    # Resume after the first two games, as the cache would.
    first_two = sum(len(encode_record(record)) for record in records[:2])
    spans = plan_spans(path, first_two, 3, path.stat().st_size, 3)
    resumed = stitch(path, summarize_spans(spans, summarize, workers=2), 2, first_two, 3, None)
    assert resumed.summaries == whole.summaries[2:]
    assert (resumed.records, resumed.end_offset, resumed.game_problem) == (
        whole.records,
        whole.end_offset,
        whole.game_problem,
    )


def test_spans_are_summarized_in_other_processes(tmp_path, records):
    path = history_file(tmp_path, records, damaged=False)
    spans = plan_spans(path, 0, 1, path.stat().st_size, 4)
    results = summarize_spans(spans, summary_in_worker, workers=2)
    pids = {summary["pid"] for result in results for summary in result.summaries}
    assert pids and os.getpid() not in pids


def test_load_stats_in_parallel_builds_the_same_statistics_and_cache(tmp_path, records, monkeypatch):
    folder = tmp_path / "histories"
    folder.mkdir()
    history_file(folder, records, damaged=True)
    (folder / "other.jsonl").write_bytes(b"".join(encode_record(record) for record in records[:3]))
    alone = load_stats(folder, tmp_path / "alone.json", parallel=False)
    # Two workers whatever this machine has (the choice itself is tested below).
    monkeypatch.setattr(stats, "worker_count", lambda total: 2)
    together = load_stats(folder, tmp_path / "together.json")
    assert json.loads((tmp_path / "alone.json").read_text()) == json.loads((tmp_path / "together.json").read_text())
    assert together.problems == alone.problems and len(together.problems) == 2
    assert "line 10" in str(together.problems[0]) and "game 5" in str(together.problems[1])
    assert together.book.games == alone.book.games > 0
    assert {key: (p.games, p.wins, p.scores) for key, p in together.book.players.items()} == {
        key: (p.games, p.wins, p.scores) for key, p in alone.book.players.items()
    }


def test_few_bytes_are_read_in_this_process():
    assert stats_spans.worker_count(stats_spans.PARALLEL_MIN_BYTES - 1) == 1


def test_no_process_is_forked_while_another_thread_runs():
    # A fork copies only the calling thread: a lock another thread holds would
    # stay locked in the child for ever.
    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        assert stats_spans.worker_count(10 * stats_spans.PARALLEL_MIN_BYTES) == 1
    finally:
        release.set()
        other.join()
