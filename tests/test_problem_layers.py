"""Each layer's problem codes live in that layer (issue 26, item 3).

``game.rules.problems`` holds the mechanism and only the codes the rules
raise; each package above that raises problems registers its own codes from
its ``problem_texts`` module, which its ``__init__`` imports, so a code is
registered whenever a module that can raise it has been imported. Which code
a module raises is read from the source with ``ast`` (``codes_made``, the same
reading the catalogue checks of ``test_i18n_problems`` use).
"""

from __future__ import annotations

import ast
import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from game.rules.problems import PROBLEMS, RULE_PROBLEMS, WITHOUT_DETAIL, register_problems
from test_i18n_problems import CodesMade, game_codes_made, unknown_codes, unmade_codes

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "game"
RULES = GAME / "rules"
# What the program's front doors are: main.py's entry, the command line and the window.
FRONT_DOORS = ("game.program.entry", "game.program.cli", "game.ui.app")


def made_under(folder: Path) -> CodesMade:
    """The codes the modules under ``folder`` make (read once from the whole of ``game/``, so that a
    helper of another module that passes its caller's code on counts where it is called)."""
    made = game_codes_made()
    return CodesMade(
        [(pattern, where) for pattern, where in made.made if (ROOT / where).is_relative_to(folder)],
        [where for where in made.unreadable if (ROOT / where).is_relative_to(folder)],
    )


def layer_tables() -> dict[Path, dict[str, str]]:
    """Each package above the rules that has a table of problems: its folder and its table."""
    tables = {}
    for path in sorted(GAME.rglob("problem_texts.py")):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        tables[path.parent] = importlib.import_module(module).PROBLEM_TEXTS
    return tables


def test_the_rules_hold_exactly_the_codes_the_rules_raise():
    made = made_under(RULES)
    assert not made.unreadable
    assert unmade_codes(RULE_PROBLEMS, made) == [], "codes in game/rules/problems.py the rules never raise"
    assert unknown_codes(RULE_PROBLEMS, made) == [], "codes the rules raise that are not the rules' own"
    assert 10 <= len(RULE_PROBLEMS) <= 20


def test_each_layer_table_holds_the_codes_that_layer_raises():
    tables = layer_tables()
    assert {folder.name for folder in tables} >= {"settings", "persistence"}
    for folder, table in tables.items():
        made = made_under(folder)
        assert unmade_codes(table, made) == [], f"{folder.name}: codes no module of the layer raises"


def test_every_code_is_raised_only_where_its_table_is_registered():
    """A module raises the rules' codes or those of the table of a package it lies in (whose ``__init__``
    imports that table before the module runs); nothing else, so no code can be raised unregistered."""
    tables = layer_tables()
    made = game_codes_made()
    assert not made.unreadable
    for pattern, where in made.made:
        path = ROOT / where.partition(":")[0]
        known = dict(RULE_PROBLEMS)
        for folder, table in tables.items():
            if folder in path.parents:
                known.update(table)
        assert unknown_codes(known, CodesMade([(pattern, where)])) == [], (
            f"{where} raises a code its package does not register"
        )
    for folder in tables:
        init = ast.parse((folder / "__init__.py").read_text(encoding="utf-8"))
        imported = {alias.name for node in ast.walk(init) if isinstance(node, ast.ImportFrom) for alias in node.names}
        assert "problem_texts" in imported, f"{folder.name}/__init__.py does not register its problems"


def test_no_code_is_in_two_tables_and_the_front_doors_register_them_all():
    tables = [RULE_PROBLEMS, *layer_tables().values()]
    every = [code for table in tables for code in table]
    assert len(every) == len(set(every)), "a code in two tables"
    script = (
        f"import json, {', '.join(FRONT_DOORS)}\n"
        "from game.rules.problems import PROBLEMS\n"
        "print(json.dumps(sorted(PROBLEMS)))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1"},
    )
    assert done.returncode == 0, done.stderr
    registered = json.loads(done.stdout)
    assert registered == sorted(every)
    made = game_codes_made()
    assert unknown_codes({code: "" for code in registered}, made) == [], "codes raised but never registered"


def test_a_code_registered_twice_is_refused_and_nothing_of_its_table_is_added():
    before = dict(PROBLEMS), dict(WITHOUT_DETAIL)
    with pytest.raises(ValueError, match="registered twice: located"):
        register_problems({"test.fresh": "a", "test.fresh.no_detail": "b", "located": "{source}: {reason}"})
    assert (PROBLEMS, WITHOUT_DETAIL) == before
