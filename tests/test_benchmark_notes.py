"""Measurements live in docs/BENCHMARKS.md: the README keeps a short table of
the latest figures, and the game's code keeps no experiment logs."""

from __future__ import annotations

import re
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
NOTES = REPO_ROOT / "docs" / "BENCHMARKS.md"
# A figure in a table cell: 207,161 or 0.49 or 77.4 (a plain small count such
# as a year or a size like 1920x1080 is not one).
FIGURE = re.compile(r"(?<![\w.,])\d{1,3}(?:,\d{3})+(?![\d,])|(?<![\w.])\d+\.\d+(?![\d.])")


def _readme_benchmarks_section() -> str:
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    start = readme.index("### Benchmarks")
    return readme[start : readme.index("\n#", start + 1)]


def test_the_readme_keeps_a_short_table_of_the_latest_figures_and_points_to_the_notes() -> None:
    section = _readme_benchmarks_section()
    assert len(section.splitlines()) <= 60, "the benchmark notebook belongs in docs/BENCHMARKS.md"
    assert "(docs/BENCHMARKS.md)" in section and NOTES.is_file()
    assert "python -m benchmarks.engine" in section, "how to run the benchmarks stays in the README"
    assert re.search(r"measured \d{4}-\d{2}-\d{2} on a .*(vCPU|core)", section.replace("\n", " ")), (
        "the figures name the day and the machine they came from"
    )


def test_every_figure_the_readme_quotes_is_in_the_notes() -> None:
    notes = NOTES.read_text(encoding="utf-8")
    table_rows = [line for line in _readme_benchmarks_section().splitlines() if line.startswith("| ")]
    quoted = {figure for row in table_rows[1:] for figure in FIGURE.findall(row)}
    assert len(quoted) >= 10
    assert sorted(figure for figure in quoted if figure not in notes) == []


def test_the_game_code_keeps_no_experiment_logs() -> None:
    """A confidence interval (±) is the mark of a measurement history; the
    code says what a setting does and points to docs/BENCHMARKS.md."""
    logged = [
        str(path.relative_to(REPO_ROOT))
        for path in sorted((REPO_ROOT / "game").rglob("*.py"))
        if "±" in path.read_text(encoding="utf-8")
    ]
    assert logged == []
