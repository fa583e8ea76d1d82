"""The Redis capacity benchmark, run tiny against a real redis-server: it writes and reports."""

from __future__ import annotations

import re
import shutil

import pytest

from benchmarks import redis_capacity


@pytest.mark.skipif(shutil.which("redis-server") is None, reason="redis-server is not installed (CI installs it)")
def test_the_journal_lines_reach_redis_and_the_figures_are_read_off_it() -> None:
    report = redis_capacity.run(tables=6, writers=2, seconds=0.3, appendfsync="everysec", lead_seconds=1.0)
    written = re.search(r"lines written: (\d+) in ([\d.]+) s", report)
    assert written is not None, report
    lines = int(written.group(1))
    assert lines >= 6 and lines % 3 == 0  # each writer writes a line for each of its three tables a round
    assert "6 tables over 2 writer(s)" in report
    # Redis's CPU is read in the kernel's 10 ms ticks: over this short window it may be none.
    cpu_line = report.splitlines()[3]
    assert re.fullmatch(r"Redis CPU: ([\d.]+ s = \d+% of one core; [\d.]+ us a line|too little .*)", cpu_line), report
