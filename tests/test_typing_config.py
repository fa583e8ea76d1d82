"""Every module of the program is type-checked with --strict's flags.

The screens in game/ui ran for a while with three of those checks switched
off (untyped app and history parameters, bare generics) until the session
seam gave them real types. The check reads pyproject.toml's mypy overrides:
none may switch a strict flag off for a module of game/ or for main.py,
beyond the exception named here with its reason.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

STRICT_FLAGS = {
    "disallow_untyped_defs",
    "disallow_incomplete_defs",
    "disallow_untyped_calls",
    "disallow_untyped_decorators",
    "disallow_any_generics",
    "disallow_subclassing_any",
    "warn_return_any",
    "no_implicit_reexport",
    "extra_checks",
    "check_untyped_defs",
}

# The guarded YAML loader extends PyYAML's, whose stubs leave some of the
# methods it calls unannotated (pyproject.toml says so beside the override).
ALLOWED = {("game.settings.yaml_files", "disallow_untyped_calls")}


def _program_module(name: str) -> bool:
    return name == "main" or name == "game" or name.startswith("game.")


def test_no_override_switches_a_strict_check_off_for_the_program() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    overrides = config["tool"]["mypy"]["overrides"]
    loosened = []
    for override in overrides:
        modules = override["module"]
        for module in [modules] if isinstance(modules, str) else modules:
            if not _program_module(module):
                continue
            for flag, value in override.items():
                off = (flag in STRICT_FLAGS and value is False) or (flag == "ignore_errors" and value is True)
                if off and (module, flag) not in ALLOWED:
                    loosened.append(f"{module}: {flag} = {value}")
    assert not loosened, "mypy checks switched off for the program: " + ", ".join(loosened)
