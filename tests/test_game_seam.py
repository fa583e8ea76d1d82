"""One seam per game: nothing above ``game/rules`` knows one game (issue 26 item 1).

Every module under ``game/`` outside ``game/rules`` is read with ``ast`` and
refused if it imports Bid Whist's or Wizard's rules module (or a name from
one), tests a value against one game's view, state or rules type, or
compares anything with a game's name or a scoring style's. Such code asks
the game's registry entry and its adapter instead (``GameDef.adapter``).

The exception is the computer players of one game. A player reasons about
its own game's cards and view fields, so it is game knowledge by nature,
like the rules; the registry names those players by import path, so nothing
above the rules imports them. ``PER_GAME_PLAYERS`` is exactly the modules
that hold one game's players or their game-specific helpers, and the tests
check that set: each of its modules is reached only from the players the
registry names (never from the hints, the interface or anything else), and
the shared player code (the package, the search, the budget, the medium
base) stays under the rule like every other module.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from game.rules.registry import all_games

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "game"

GAME_RULES_MODULES = {"game.rules.bidwhist", "game.rules.wizard"}
GAME_TYPES = {"BidWhistView", "WizardView", "BidWhistState", "WizardState", "BidWhistRules", "WizardRules"}
GAME_LITERALS = {"contract", "prediction", "bidwhist", "wizard"}

# One game's computer players and their helpers (see the module docstring).
PER_GAME_PLAYERS = {
    "game.ai.easy",
    "game.ai.hard",  # both games' players, side by side
    "game.ai.bidwhist_medium",
    "game.ai.bidwhist_play",  # Bid Whist's medium player and its card play
    "game.ai.hand_eval",  # Bid Whist's hand strength, for its players
    "game.ai.wizard_medium",  # Wizard's medium player
    "game.ai.wizard_worlds",  # Wizard's hidden hands, drawn for its hard player
    "game.ai.wizard_clairvoyant",  # Wizard's play-outs that read the drawn deal, for its expert player
    "game.ai.bidwhist_worlds",  # Bid Whist's hidden hands fitted to the table, for its expert player
    "game.ai.expert",  # both games' expert players, side by side
}
# Per-game player modules built ahead of the level that is to use them: no registered player
# reaches them yet. Each leaves this set when its level lands (a test says so), and nothing but
# a registered player may import them meanwhile either.
AWAITING_THEIR_PLAYER: set[str] = set()


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@lru_cache(maxsize=1)
def modules_above_the_rules() -> dict[str, tuple[Path, ast.Module]]:
    """Every module under game/ but game/rules, by name: its file and its parsed source."""
    return {
        module_name(path): (path, ast.parse(path.read_text(encoding="utf-8")))
        for path in sorted(GAME.rglob("*.py"))
        if "rules" not in path.relative_to(GAME).parts[:1]
    }


@dataclass(frozen=True)
class Scan:
    """What one walk over a module finds: its offences ("line N: what"), every
    module it imports (for ``from m import n`` also ``m.n``) and the lines that
    read a game's ``scoring``."""

    offences: list[str]
    imports: set[str]
    scoring_lines: list[int]


def scan(source: str | ast.Module) -> Scan:
    tree = ast.parse(source) if isinstance(source, str) else source
    found: list[str] = []
    imports: set[str] = set()
    scoring: set[int] = set()
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Import):
            imports.update(alias.name for alias in node.names)
            found += [f"line {line}: imports {alias.name}" for alias in node.names if alias.name in GAME_RULES_MODULES]
        elif isinstance(node, ast.ImportFrom) and node.module:
            imports.add(node.module)
            for alias in node.names:
                imports.add(f"{node.module}.{alias.name}")
                if node.module in GAME_RULES_MODULES or f"{node.module}.{alias.name}" in GAME_RULES_MODULES:
                    found.append(f"line {line}: imports {alias.name} from {node.module}")
                elif alias.name in GAME_TYPES:
                    found.append(f"line {line}: imports the type {alias.name}")
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("isinstance", "issubclass", "type")
            and len(node.args) >= 1
        ):
            tested = {name.id for arg in node.args[1:] for name in ast.walk(arg) if isinstance(name, ast.Name)}
            tested |= {attr.attr for arg in node.args[1:] for attr in ast.walk(arg) if isinstance(attr, ast.Attribute)}
            found += [f"line {line}: {node.func.id}(..., {name})" for name in sorted(tested & GAME_TYPES)]
        elif isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            literals = {
                operand.value
                for operand in operands
                if isinstance(operand, ast.Constant) and isinstance(operand.value, str)
            }
            literals |= {
                element.value
                for operand in operands
                if isinstance(operand, (ast.Tuple, ast.List, ast.Set))
                for element in operand.elts
                if isinstance(element, ast.Constant) and isinstance(element.value, str)
            }
            found += [f"line {line}: compares with {literal!r}" for literal in sorted(literals & GAME_LITERALS)]
        elif (
            isinstance(node, ast.MatchValue)
            and isinstance(node.value, ast.Constant)
            and node.value.value in GAME_LITERALS
        ):
            found.append(f"line {line}: matches {node.value.value!r}")
        elif isinstance(node, ast.Name) and node.id in GAME_TYPES:
            # A game's type used at all (an annotation, a cast, an ``is`` test): named, so known.
            found.append(f"line {line}: names the type {node.id}")
        elif isinstance(node, ast.Attribute):
            if node.attr in GAME_TYPES:
                found.append(f"line {line}: names the type {node.attr}")
            elif node.attr == "scoring":
                scoring.add(line)
    offences = sorted(set(found), key=lambda text: (int(text.split()[1].rstrip(":")), text))
    return Scan(offences, imports, sorted(scoring))


def offences(source: str | ast.Module) -> list[str]:
    """What in ``source`` knows one game, one line each: "line N: what"."""
    return scan(source).offences


@lru_cache(maxsize=1)
def scans() -> dict[str, tuple[Path, Scan]]:
    """Every module above the rules, walked once."""
    return {name: (path, scan(tree)) for name, (path, tree) in modules_above_the_rules().items()}


def test_the_checker_catches_each_kind_of_offence() -> None:
    source = """
import game.rules.wizard
from game.rules.bidwhist import books_needed
from game.rules import bidwhist, BidWhistView
if isinstance(view, WizardView) or type(state) is rules.BidWhistState:
    pass
if game.scoring == "contract" or name != 'wizard' or kind in ("prediction", "other"):
    pass
match game.name:
    case "bidwhist":
        pass
    case WizardState():
        pass
"""
    assert offences(source) == [
        "line 2: imports game.rules.wizard",
        "line 3: imports books_needed from game.rules.bidwhist",
        "line 4: imports bidwhist from game.rules",
        "line 4: imports the type BidWhistView",
        "line 5: isinstance(..., WizardView)",
        "line 5: names the type BidWhistState",
        "line 5: names the type WizardView",
        "line 7: compares with 'contract'",
        "line 7: compares with 'prediction'",
        "line 7: compares with 'wizard'",
        "line 10: matches 'bidwhist'",
        "line 12: names the type WizardState",
    ]
    assert offences('scores = {"contract": 1}\nif mode == "uptown":\n    pass\n') == []


def test_no_module_above_the_rules_knows_one_game() -> None:
    problems = []
    for name, (path, found) in scans().items():
        if name in PER_GAME_PLAYERS:
            continue
        problems += [f"{path.relative_to(ROOT)} {offence}" for offence in found.offences]
    assert problems == [], "\n".join(problems)


def test_only_the_hand_history_format_reads_the_scoring_style() -> None:
    """``GameDef.scoring`` names the shape a deal is written in (HAND_HISTORY.md):
    the record's writer and its schema choose by it; everything else asks
    the adapter what it needs to know (a table of builders keyed by the
    scoring style is the same branch as a comparison, so reading it at all
    is refused)."""
    readers = {name for name, (_, found) in scans().items() if found.scoring_lines}
    assert {name.rpartition(".")[2] for name in readers} <= {"history_codec", "history_schema"}, readers
    assert scan("if game.scoring in SHAPES:\n    pass\n").scoring_lines == [1]


def _player_modules_named_by_the_registry() -> set[str]:
    return {path.partition(":")[0] for game in all_games() for path in game.ai_levels.values()}


def test_the_per_game_players_are_reached_only_from_the_players_the_registry_names() -> None:
    modules = scans()
    imports = {name: found.imports for name, (_, found) in modules.items()}
    # Every module the registry's players need, following imports within game.ai.
    reached, todo = set(), list(_player_modules_named_by_the_registry())
    while todo:
        name = todo.pop()
        if name in reached or name not in modules:
            continue
        reached.add(name)
        todo += [other for other in imports[name] if other.startswith("game.ai")]
    assert PER_GAME_PLAYERS - AWAITING_THEIR_PLAYER <= reached
    assert AWAITING_THEIR_PLAYER <= PER_GAME_PLAYERS
    assert not AWAITING_THEIR_PLAYER & reached, "a registered player uses it now: drop it from AWAITING_THEIR_PLAYER"
    assert "game.ai.hints" not in reached
    # Nothing the registry's players do not need imports one of them: the
    # hints ask the registry for their player, the interface never reaches them.
    for name, names in imports.items():
        if name not in reached and name not in AWAITING_THEIR_PLAYER:
            assert not names & PER_GAME_PLAYERS, f"{name} imports {sorted(names & PER_GAME_PLAYERS)}"
    # Each exempt module does know its game (else it needs no exemption).
    for name in PER_GAME_PLAYERS:
        assert modules[name][1].offences, f"{name} needs no exemption"
