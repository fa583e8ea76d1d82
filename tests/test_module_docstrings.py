"""Module docstrings say in a few lines what the module is for (issue 26, item 4).

The design notes a developer needs sit as comments next to the code they
explain; measurements and experiment logs are in ``docs/``.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("game", "tools", "benchmarks")
MOST_LINES = 6


def modules() -> list[Path]:
    return [path for folder in FOLDERS for path in sorted((ROOT / folder).rglob("*.py"))]


def test_every_module_says_what_it_is_for_in_a_few_lines():
    too_long, missing = [], []
    for path in modules():
        source = path.read_text(encoding="utf-8")
        docstring = ast.get_docstring(ast.parse(source), clean=False)
        place = str(path.relative_to(ROOT))
        if docstring is None:
            if source.strip():  # an empty package marker needs none
                missing.append(place)
        elif len(docstring.strip("\n").splitlines()) > MOST_LINES:
            too_long.append(f"{place} ({len(docstring.strip().splitlines())} lines)")
    assert len(modules()) > 100
    assert not missing, f"modules without a docstring: {missing}"
    assert not too_long, f"module docstrings over {MOST_LINES} lines: {too_long}"
