"""The installable package (pyproject.toml): its pins, its command, and an
installed copy finding its bundled files without a checkout around it.

`.ci/run` installs the package with pip into a fresh environment and runs
`tricktable --self-test` from another folder; these tests keep the pieces
that install relies on honest without building anything."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import game
import game.settings.paths as paths_module
from game.settings.paths import resource_path

REPO_ROOT = Path(__file__).resolve().parent.parent


def _pyproject_table(*keys: str) -> dict[str, object]:
    """The table of pyproject.toml under ``keys``, e.g. ``("project", "scripts")``."""
    with open(REPO_ROOT / "pyproject.toml", "rb") as handle:
        table: object = tomllib.load(handle)
    for key in keys:
        assert isinstance(table, dict), keys
        table = table[key]
    assert isinstance(table, dict), keys
    return table


def test_the_package_pins_what_requirements_txt_pins() -> None:
    lines = (REPO_ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines()
    pinned = sorted(line.split("#")[0].strip() for line in lines if line.split("#")[0].strip())
    dependencies = _pyproject_table("project")["dependencies"]
    assert isinstance(dependencies, list)
    assert sorted(dependencies) == pinned


def test_the_tricktable_command_runs_what_main_py_runs() -> None:
    command_target = _pyproject_table("project", "scripts")["tricktable"]
    assert isinstance(command_target, str)
    module_name, function_name = command_target.split(":")
    command = getattr(importlib.import_module(module_name), function_name)
    main_module = importlib.import_module("main")
    assert command is main_module.run


def test_an_installed_copy_reads_the_files_bundled_inside_the_package(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    installed = tmp_path / "site-packages" / "game" / "bundled"
    (installed / "config").mkdir(parents=True)
    monkeypatch.setattr(paths_module, "_INSTALLED_ROOT", installed)
    assert resource_path("config", "wizard.yaml") == installed / "config" / "wizard.yaml"


def test_a_checkout_reads_the_files_beside_the_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(paths_module, "_INSTALLED_ROOT", tmp_path / "no-such-folder")
    assert resource_path("config", "wizard.yaml") == REPO_ROOT / "config" / "wizard.yaml"


def test_the_wheel_carries_the_bundled_folders_where_paths_looks() -> None:
    """The wheel maps the checkout's assets/ and config/ to the folder that
    game.settings.paths reads in an installed copy."""
    force_include = _pyproject_table("tool", "hatch", "build", "targets", "wheel", "force-include")
    installed_root = paths_module._INSTALLED_ROOT.relative_to(Path(game.__file__).resolve().parent.parent)
    for folder in ("assets", "config"):
        assert (REPO_ROOT / folder).is_dir()
        assert force_include[folder] == (installed_root / folder).as_posix()


def test_the_command_hides_pygames_greeting(tmp_path: Path) -> None:
    """main.py and the installed ``tricktable`` both start through ``run``, so
    ``run`` itself asks pygame not to print its greeting when the window (or
    anything else) imports it. A child process, as the command would be."""
    child = (
        "import sys; from game.program.entry import run; "
        "run(['--data-dir', sys.argv[1], 'replay', '--check', sys.argv[2]]); import pygame"
    )
    env = {key: value for key, value in os.environ.items() if key != "PYGAME_HIDE_SUPPORT_PROMPT"}
    result = subprocess.run(
        [sys.executable, "-c", child, str(tmp_path / "data"), str(tmp_path / "none.jsonl")],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "none.jsonl" in result.stderr  # the command ran: it names the missing file
    assert "pygame-ce" not in result.stdout + result.stderr
