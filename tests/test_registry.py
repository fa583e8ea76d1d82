"""The game registry is the one source of what a game is.

Two kinds of checks:

* Above ``game/rules`` nothing compares game names. ``game_name_comparisons``
  reads each module's syntax tree and reports every place that decides by a
  game's name: a comparison (``==``, ``!=``, ``is``, ``in``) with a game name
  written out or held in a constant (also one imported from another module,
  however many re-exports away), a ``match`` case on one, and a table keyed
  or indexed by one. ``game/rules`` (where the games are defined) and
  ``game/settings/house_rule_files.py`` (which names the bundled files' games in messages) are
  the only places allowed to. A self-test proves the counter finds each
  form on a small source text, so a zero from it means something.
* Every registered ``GameDef`` is complete: its interface text exists in the
  English catalog, its computer levels resolve and play, its presets file
  exists and is for it, its rule specs are its rules class's fields, and its
  state, view, deck, teams and scoring style fit together.
"""

from __future__ import annotations

import ast
import dataclasses
import random
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any, cast

import pytest

from game.ai import make_player
from game.persistence.history_codec import DEAL_SHAPES, HistoryRecorder
from game.rules import GameDef, PlayerView, all_games, game_names, new_game
from game.rules.adapter import GameAdapter, TableFigures
from game.settings.house_rule_files import ConfigError, load_rule_file
from game.settings.paths import resource_path
from game.settings.yaml_files import read_yaml_file

ROOT = Path(__file__).resolve().parent.parent
GAME_PACKAGE = ROOT / "game"
# Where game names may be compared: the rules (which define the games, the
# registry included). The house-rule file reader asks the registry for a
# game's English title (``GameDef.adapter.english_title``), so it is counted too.
ALLOWED = ("game/rules/",)
REQUIRED_TEXT_KEYS = ("title", "deal", "next_deal")
ENGLISH_CATALOG = ROOT / "assets" / "i18n" / "en.yaml"


# ---------------------------------------------------------------------- the counter
def _module_file(module: str) -> Path | None:
    """The source file of a module of this repository, or None for any other module."""
    base = ROOT.joinpath(*module.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _literal(node: ast.expr) -> Any:
    """The value of a literal expression; for a dict, the tuple of its literal keys."""
    if isinstance(node, ast.Dict):
        keys = [key.value for key in node.keys if isinstance(key, ast.Constant)]
        return tuple(keys)
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None


@cache
def module_values(module: str) -> dict[str, Any]:
    """The module-level names of a repository module bound to literal values,
    following ``from ... import`` to other repository modules; a submodule
    imported by name maps to ``("module", its dotted name)``."""
    path = _module_file(module)
    if path is None:
        return {}
    values: dict[str, Any] = {}
    # Modules being read are skipped by the imports they reach, so an import
    # cycle ends instead of recursing.
    _IN_PROGRESS.add(module)
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for node in tree.body:
            values.update(_bindings(node, package))
    finally:
        _IN_PROGRESS.discard(module)
    return values


_IN_PROGRESS: set[str] = set()


def _bindings(node: ast.stmt, package: str) -> dict[str, Any]:
    """What one statement binds to literal values (or to modules)."""
    found: dict[str, Any] = {}
    if isinstance(node, ast.Assign) or (isinstance(node, ast.AnnAssign) and node.value is not None):
        assert node.value is not None
        value = _literal(node.value)
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for target in targets:
            if isinstance(target, ast.Name) and value is not None:
                found[target.id] = value
    elif isinstance(node, ast.Import):
        for alias in node.names:
            if alias.asname:
                found[alias.asname] = ("module", alias.name)
    elif isinstance(node, ast.ImportFrom):
        source = _absolute(node, package)
        for alias in node.names:
            local = alias.asname or alias.name
            if _module_file(f"{source}.{alias.name}") is not None:
                found[local] = ("module", f"{source}.{alias.name}")
            elif source not in _IN_PROGRESS and alias.name in module_values(source):
                found[local] = module_values(source)[alias.name]
    return found


def _absolute(node: ast.ImportFrom, package: str) -> str:
    if not node.level:
        return node.module or ""
    parts = package.split(".")
    base = ".".join(parts[: len(parts) - node.level + 1])
    return f"{base}.{node.module}" if node.module else base


def _is_module(value: Any) -> bool:
    return isinstance(value, tuple) and len(value) == 2 and value[0] == "module"


class _GameNameFinder:
    """Collects the lines of one module that decide by a game's name."""

    def __init__(self, names: frozenset[str], bound: dict[str, Any]) -> None:
        self.names = names
        self.bound = bound
        self.found: list[int] = []

    # What an expression stands for, as far as literals and constants tell.
    def _value(self, node: ast.expr) -> Any:
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            return self.bound.get(node.id)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            owner = self.bound.get(node.value.id)
            if isinstance(owner, tuple) and _is_module(owner):
                return module_values(owner[1]).get(node.attr)
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            return tuple(self._value(element) for element in node.elts)
        if isinstance(node, ast.Subscript):
            collection, index = self._value(node.value), self._value(node.slice)
            in_range = isinstance(index, int) and -len(collection or ()) <= index < len(collection or ())
            if isinstance(collection, tuple) and in_range:
                return collection[index]
        return None

    def _names_a_game(self, value: Any) -> bool:
        if isinstance(value, str):
            return value in self.names
        if isinstance(value, (tuple, frozenset, set, list)) and not _is_module(value):
            return any(self._names_a_game(element) for element in value)
        return False

    # Each node is looked at once, by ``look_at`` (the caller walks the whole tree).
    def visit_Compare(self, node: ast.Compare) -> None:
        if any(self._names_a_game(self._value(operand)) for operand in [node.left, *node.comparators]):
            self.found.append(node.lineno)

    def visit_match_case(self, node: ast.match_case) -> None:
        values = [self._value(sub.value) for sub in ast.walk(node.pattern) if isinstance(sub, ast.MatchValue)]
        if any(self._names_a_game(value) for value in values):
            self.found.append(node.pattern.lineno)

    def visit_Dict(self, node: ast.Dict) -> None:
        if any(key is not None and self._names_a_game(self._value(key)) for key in node.keys):
            self.found.append(node.lineno)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        if self._names_a_game(self._value(node.slice)):
            self.found.append(node.lineno)

    def look_at(self, nodes: list[ast.AST]) -> None:
        """Look at every node of a tree (all of them, in any order)."""
        checks: dict[type, Callable[[Any], None]] = {
            ast.Compare: self.visit_Compare,
            ast.match_case: self.visit_match_case,
            ast.Dict: self.visit_Dict,
            ast.Subscript: self.visit_Subscript,
        }
        for node in nodes:
            check = checks.get(type(node))
            if check is not None:
                check(node)


def game_name_comparisons(source: str, package: str, names: frozenset[str]) -> list[int]:
    """The lines of ``source`` (a module of ``package``) that decide by a game name."""
    nodes = list(ast.walk(ast.parse(source)))
    bound: dict[str, Any] = {}
    # Constants bound anywhere in the module count (a function's local
    # ``BIDWHIST = "bidwhist"`` is as much a name check as a module's).
    for node in nodes:
        if isinstance(node, ast.stmt):
            bound.update(_bindings(node, package))
    finder = _GameNameFinder(names, bound)
    finder.look_at(nodes)
    return sorted(set(finder.found))


def _modules_above_the_rules() -> Iterator[Path]:
    for path in sorted(GAME_PACKAGE.rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        if not any(relative == allowed or relative.startswith(allowed) for allowed in ALLOWED):
            yield path


SELF_TEST_SOURCE = """\
from game.rules.house_rules import WIZARD
import game.rules.house_rules as hr
from game.rules import registry
BW = "bidwhist"
BOTH = ("bidwhist", "wizard")
def decide(game, rules, view, game_def):
    if game == "bidwhist": pass
    if "wizard" != game: pass
    if rules.game in ("bidwhist", "cribbage"): pass
    if view.game == WIZARD: pass
    if view.game is hr.BIDWHIST: pass
    if game == BW: pass
    if game not in BOTH: pass
    if game == BOTH[1]: pass
    match game:
        case "wizard": pass
        case "cribbage" | "bidwhist": pass
        case hr.WIZARD: pass
    table = {"bidwhist": 1, "other": 2}
    chosen = table["wizard"]
    fine = registry.get_game("bidwhist"), game_def.scoring == "contract", game == "cribbage"
    also_fine = game_def.name == view.game, "a wizard" == game, {"title": 1}["title"]
"""
SELF_TEST_LINES = [7, 8, 9, 10, 11, 12, 13, 14, 16, 17, 18, 19, 20]


def test_the_counter_finds_every_form_of_name_check() -> None:
    names = frozenset({"bidwhist", "wizard"})
    assert game_name_comparisons(SELF_TEST_SOURCE, "game.ui", names) == SELF_TEST_LINES
    clean = SELF_TEST_SOURCE.splitlines()[20:]  # only the lookups and non-game comparisons
    assert game_name_comparisons("\n".join(["def f(game, view, game_def, registry):"] + clean), "game.ui", names) == []


def test_the_counter_looks_at_the_modules_above_the_rules() -> None:
    checked = {path.relative_to(ROOT).as_posix() for path in _modules_above_the_rules()}
    assert {"game/session/match.py", "game/persistence/history_codec.py", "game/program/cli.py"} <= checked
    assert any(path.startswith("game/ui/") for path in checked)
    assert any(path.startswith("game/ai/") for path in checked)
    assert (
        not any(path.startswith("game/rules/") for path in checked) and "game/settings/house_rule_files.py" in checked
    )


def test_no_game_name_comparisons_above_the_rules() -> None:
    names = frozenset(game_names())
    found = []
    for path in _modules_above_the_rules():
        relative = path.relative_to(ROOT)
        package = ".".join(relative.with_suffix("").parts[:-1] if path.name != "__init__.py" else relative.parent.parts)
        source = path.read_text(encoding="utf-8")
        lines = source.splitlines()
        for line in game_name_comparisons(source, package, names):
            found.append(f"{relative.as_posix()}:{line}: {lines[line - 1].strip()}")
    assert not found, f"{len(found)} game-name comparison(s) above game/rules:\n" + "\n".join(found)


# ---------------------------------------------------------------------- complete games
def english_catalog() -> dict[str, str]:
    """Every key of the English catalogue (``assets/i18n/en.yaml``), read as data."""
    catalog = read_yaml_file(ENGLISH_CATALOG)
    assert isinstance(catalog, dict), "the English catalogue is one mapping of keys to texts"
    return catalog


def _text_problems(game: GameDef) -> list[str]:
    catalog = english_catalog()
    problems = [f"text key {key!r}: not given" for key in REQUIRED_TEXT_KEYS if key not in game.text_keys]
    problems += [
        f"text key {key!r}: {value!r} is not in the English catalog"
        for key, value in game.text_keys.items()
        if value not in catalog
    ]
    return problems


def _ai_problems(game: GameDef) -> list[str]:
    if not game.ai_levels:
        return ["ai levels: none registered"]
    problems = []
    rules = game.rules_class()
    state, _ = new_game(rules, game.default_players, 1)
    view = state.view(state.current_player)
    for level in game.ai_levels:
        try:
            player = make_player(game, level)
            action = player.choose(view, random.Random(1))
        except Exception as exc:  # any failure to build or run the player is the finding
            problems.append(f"ai level {level!r}: {type(exc).__name__}: {exc}")
            continue
        if action not in view.legal_actions:
            problems.append(f"ai level {level!r}: chose {action}, which is not legal")
    return problems


def _presets_problems(game: GameDef) -> list[str]:
    path = resource_path("config", f"{game.config_name}.yaml")
    if not path.is_file():
        return [f"presets file {path} does not exist"]
    try:
        rule_file = load_rule_file(path)
    except ConfigError as exc:
        return [f"presets file {path}: {exc}"]
    problems = []
    if rule_file.game != game.name:
        problems.append(f"presets file {path} is for {rule_file.game}")
    if not rule_file.presets:
        problems.append(f"presets file {path} has no presets")
    return problems


def _spec_problems(game: GameDef) -> list[str]:
    problems = []
    fields = dataclasses.fields(game.rules_class)
    if [spec.key for spec in game.rule_specs] != [f.name for f in fields]:
        problems.append(
            f"rule specs {[s.key for s in game.rule_specs]} are not the fields of "
            f"{game.rules_class.__name__} {[f.name for f in fields]}"
        )
    for spec, field in zip(game.rule_specs, fields):
        if spec.default != field.default:
            problems.append(f"rule specs: {spec.key} defaults to {spec.default!r}, the field to {field.default!r}")
        try:
            spec.check(spec.default)
        except ValueError as exc:
            problems.append(f"rule specs: the default of {spec.key} is refused: {exc}")
    if getattr(game.rules_class, "game", None) != game.name:
        problems.append(f"rule specs: {game.rules_class.__name__}.game is not {game.name!r}")
    return problems


def _shape_problems(game: GameDef) -> list[str]:
    problems = []
    if not 1 <= game.min_players <= game.default_players <= game.max_players:
        problems.append(f"players: {game.min_players} <= {game.default_players} <= {game.max_players} fails")
    for players in game.player_counts():
        sides = [game.team_members(side, players) for side in range(game.score_sides(players))]
        if sorted(seat for members in sides for seat in members) != list(range(players)):
            problems.append(f"teams: the sides of {players} players are not one seat each: {sides}")
    if game.scoring not in DEAL_SHAPES:
        problems.append(f"scoring: {game.scoring!r} has no hand-history shape")
    else:
        HistoryRecorder(game, 1, {}, [{"seat": seat} for seat in range(game.default_players)])
    if not (isinstance(game.view_type, type) and issubclass(game.view_type, PlayerView)):
        problems.append(f"view: {game.view_type!r} is not a PlayerView")
    for players in game.player_counts():
        state, _ = new_game(game.rules_class(), players, 2)
        if getattr(state, "game", None) != game.name:
            problems.append(f"view: the state of {game.name} says it is {getattr(state, 'game', None)!r}")
        view = state.view(state.current_player)
        if type(view) is not game.view_type:
            problems.append(f"view: {type(view).__name__} instead of {game.view_type.__name__}")
        if any(card not in game.deck for card in view.hand):
            problems.append(f"deck: a card dealt to seat {view.seat} is not in the deck")
        if sorted(game.hand_order(view.hand, view.trump, 0)) != sorted(view.hand):
            problems.append("hand order: sorting a hand changed its cards")
    return problems


def _adapter_problems(game: GameDef) -> list[str]:
    """The adapter must be one, read the game's own views, and the hints must have a player."""
    problems = []
    if not isinstance(game.adapter, GameAdapter) or not game.adapter.english_title:
        problems.append(f"adapter: {game.adapter!r} is not a GameAdapter with an English title")
    else:
        state, _ = new_game(game.rules_class(), game.default_players, 3)
        for seat in (-1, state.current_player):
            if not isinstance(game.adapter.table_figures(state.view(seat)), TableFigures):
                problems.append(f"adapter: no table figures for seat {seat}'s view")
    try:
        game.hint_player_level()
    except ValueError as error:
        problems.append(f"hint level: {error}")
    return problems


def registry_problems(game: GameDef) -> list[str]:
    """Everything incomplete or inconsistent in ``game``'s registry entry."""
    return (
        _text_problems(game)
        + _ai_problems(game)
        + _presets_problems(game)
        + _spec_problems(game)
        + _shape_problems(game)
        + _adapter_problems(game)
    )


@pytest.mark.parametrize("game", all_games(), ids=lambda game: game.name)
def test_every_registered_game_is_complete(game: GameDef) -> None:
    assert registry_problems(game) == []


def test_the_completeness_check_finds_gaps() -> None:
    wizard = next(game for game in all_games() if game.scoring == "prediction")
    broken = dataclasses.replace(
        wizard,
        text_keys={"title": "no.such.key"},
        config_name="no_such_file",
        rule_specs=wizard.rule_specs[1:],
        ai_levels={"genius": "game.ai:NoSuchPlayer"},
        scoring="auction",
        min_players=7,
        adapter=cast(GameAdapter, object()),
        hint_level="grandmaster",
    )
    found = registry_problems(broken)
    for start in (
        "text key 'deal': not given",
        "text key 'title': 'no.such.key'",
        "ai level 'genius'",
        "presets file",
        "rule specs",
        "scoring: 'auction'",
        "players:",
        "adapter:",
        "hint level:",
    ):
        assert any(problem.startswith(start) for problem in found), (start, found)


def test_the_english_catalog_is_read() -> None:
    catalog = english_catalog()
    assert len(catalog) > 100 and all(isinstance(text, str) for text in catalog.values())
