"""Failover: a server of a Redis lobby SIGKILLed mid-hand, its tables finish on the other one.

A real ``redis-server``, two real ``serve --redis`` processes and real WebSocket
bots (``benchmarks/failover.py``, run small): every game equals, action for
action, its fault-free twin, and ``replay --check`` passes on every history.
"""

from __future__ import annotations

import shutil

import pytest

from benchmarks import failover


@pytest.mark.skipif(shutil.which("redis-server") is None, reason="redis-server is not installed (CI installs it)")
def test_a_killed_server_s_tables_finish_on_the_other_as_the_same_games() -> None:
    # Without the benchmark's latency measurement (two more servers: python -m benchmarks.failover).
    result = failover.run_failover(tables=6, rounds=2, lease=0.5, pace=0.01, timeout=60.0, latency_tables=0)
    assert result.killed_tables == 3  # every table of the killed server was mid-game at the kill
    assert result.moved_tables == 3  # ... and ended on the other server (the table's epoch went to 2)
    assert len(result.takeover_seconds) == 3  # each saw its next event after the kill
    assert all(0.0 < seconds < 30.0 for seconds in result.takeover_seconds)  # no timing asserted: shared machine
    assert result.unfinished == []
    assert result.different == []  # each game is its fault-free twin, action for action
    assert result.replay_check == 0
    assert "takeover (kill to the next event): p50" in failover.describe(result)
