"""The table logs keep the files of the tables written to last open, and lose no line."""

from __future__ import annotations

import json
import os
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from game.net import table_log
from game.net.table_log import TableLogs


def _open_descriptors() -> int:
    return len(os.listdir("/proc/self/fd"))


@pytest.mark.skipif(not Path("/proc/self/fd").exists(), reason="counts descriptors in /proc")
def test_at_most_open_logs_stay_open_and_every_line_lands_in_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(table_log, "OPEN_LOGS", 3)
    logs = TableLogs(tmp_path)
    before = _open_descriptors()
    tables: list[Any] = [SimpleNamespace(table_id=f"t{index}") for index in range(5)]
    for turn in range(4):
        for table in tables:
            logs.append(table, {"act": [turn, table.table_id]})
        assert _open_descriptors() - before == 3
    logs.release()
    assert _open_descriptors() < before  # the folder's lock went too
    for table in tables:
        lines = (tmp_path / f"{table.table_id}.jsonl").read_text().splitlines()
        assert [json.loads(line) for line in lines] == [{"act": [turn, table.table_id]} for turn in range(4)]


def test_a_new_log_never_overwrites_a_file_already_there(tmp_path: Path) -> None:
    logs = TableLogs(tmp_path)
    (tmp_path / "t0.jsonl").write_text('{"kept": true}\n')
    table: Any = SimpleNamespace(table_id="t0")
    with pytest.raises(FileExistsError):
        logs._write(table.table_id, {"format": "x"}, exclusive=True)
    assert (tmp_path / "t0.jsonl").read_text() == '{"kept": true}\n'
    logs.release()
