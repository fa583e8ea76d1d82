"""``benchmarks.engine --vs-commit``: an earlier commit's engine measured beside this one's."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks import engine_vs_commit


def test_a_commit_is_unpacked_and_its_engine_measured(tmp_path: Path) -> None:
    source = engine_vs_commit.source_of("HEAD", tmp_path)
    assert (source / "game" / "rules" / "__init__.py").is_file()
    rate = engine_vs_commit.actions_per_second(source, "bidwhist", 4, 0.05)
    assert rate > 1000  # whole random games were played through the earlier tree's engine


def test_an_unknown_revision_is_a_clear_message(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="git archive no-such-revision"):
        engine_vs_commit.source_of("no-such-revision", tmp_path)
