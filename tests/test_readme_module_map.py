"""The README's module map names every module of ``game/``, each under its own folder.

The map is the code block that opens "For developers". A line whose first word
ends in "/" starts a folder; a folder indented under another is inside it
("  table/" under "game/ui/"). Every other word ending in ".py" names a module
of the folder in force on that line.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODULE_WORD = re.compile(r"(?<![\w/.])([a-z_][a-z0-9_]*\.py)\b")


def module_map_block(readme: str) -> list[str]:
    section = readme.split("## For developers", 1)[1]
    return section.split("```", 2)[1].splitlines()


def modules_named(block: list[str]) -> set[str]:
    """Every ``folder/module.py`` the map names, as paths relative to the repository."""
    named: set[str] = set()
    folders: list[tuple[int, str]] = []  # (indent, path) of the folders in force
    for line in block:
        stripped = line.lstrip()
        if not stripped:
            continue
        indent = len(line) - len(stripped)
        first = stripped.split()[0]
        if first.endswith("/"):
            while folders and folders[-1][0] >= indent:
                folders.pop()
            parent = folders[-1][1] if folders else ""
            folders.append((indent, parent + first))
            stripped = stripped[len(first) :]
        if folders:
            for word in MODULE_WORD.findall(stripped):
                named.add(folders[-1][1] + word)
    return named


def test_the_map_reader_follows_nested_folders() -> None:
    block = [
        "game/ui/             drawing",
        "  app.py scene.py     loop",
        "  table/  the table: scene.py",
        "    view.py",
        "game/rules/  pure",
        "  cards.py (see game/ui/app.py)",
    ]
    assert modules_named(block) == {
        "game/ui/app.py",
        "game/ui/scene.py",
        "game/ui/table/scene.py",
        "game/ui/table/view.py",
        "game/rules/cards.py",
    }


def test_the_readme_names_every_module_of_the_game_package() -> None:
    named = modules_named(module_map_block((ROOT / "README.md").read_text(encoding="utf-8")))
    modules = {
        path.relative_to(ROOT).as_posix() for path in (ROOT / "game").rglob("*.py") if path.name != "__init__.py"
    }
    assert sorted(modules - named) == []
    assert sorted(named - modules) == []  # and no module that is gone
