"""A snapshot of what the program does, to prove a refactor changed nothing a player sees.

``python -m tools.behaviour_snapshot --out DIR`` writes seeded hand histories and the
screenshot sets; ``--compare BEFORE AFTER`` lists every file that differs (exit 1 if any).
"""

# What goes in a snapshot:
# * hand histories of seeded ``simulate`` runs at the levels whose decisions do not
#   depend on the clock (random, easy, medium), under presets and house variants;
# * the hard players' decisions on seeded games with a budget of simulations only
#   (the time cap never binds), since the default budget's 0.3 s cap makes them vary
#   with the machine's load;
# * the screenshot tour, the house-variant pictures and the tour in Dutch, taken
#   with ``tools.screenshots --xvfb`` (Xvfb and ImageMagick needed; ``--no-screens``
#   leaves them out).
# One exception is known: the glow around the name plate of the seat to act pulses
# with the wall clock, so a picture of a table waiting for the player can differ in
# that glow alone between two runs of the same code.

from __future__ import annotations

import argparse
import filecmp
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# (file name, simulate arguments)
SIMULATIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("bidwhist_easy", ("--game", "bidwhist", "--games", "3", "--seed", "7", "--ai", "easy")),
    ("bidwhist_medium", ("--game", "bidwhist", "--games", "3", "--seed", "11", "--ai", "medium,random,medium,easy")),
    (
        "bidwhist_variants",
        ("--game", "bidwhist", "--games", "2", "--seed", "3", "--ai", "medium")
        + ("--set", "jokers=false", "--set", "dealer_takes=true"),
    ),
    ("wizard_easy", ("--game", "wizard", "--players", "5", "--games", "2", "--seed", "7", "--ai", "easy")),
    ("wizard_medium", ("--game", "wizard", "--players", "4", "--games", "2", "--seed", "9", "--ai", "medium")),
    (
        "wizard_uneven",
        ("--game", "wizard", "--players", "6", "--games", "1", "--seed", "2", "--preset", "uneven", "--ai", "medium"),
    ),
    (
        "wizard_delayed_reveal",
        ("--game", "wizard", "--players", "3", "--games", "1", "--seed", "5", "--ai", "medium")
        + ("--set", "bidding=delayed_reveal"),
    ),
)
# (name, screenshot tool arguments)
SCREEN_SETS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("screens_tour", ()),
    ("screens_variants", ("--set", "variants")),
    ("screens_nl", ("--language", "nl", "--sizes", "1280x720")),
)


def hard_games() -> list[dict[str, object]]:
    """Seeded games with hard players on a budget of simulations only: each game's save."""
    from game.ai.budget import SearchBudget
    from game.rules import Phase, make_rules
    from game.session.match import Match, Seat

    budget = SearchBudget(max_simulations=30, max_seconds=1e6)  # the time cap never binds
    saves = []
    for players, seed, rules in (
        (4, 5, make_rules("bidwhist", {"target_score": 3})),
        (4, 3, make_rules("wizard", {"rounds": 4}, players=4)),
    ):
        seats = [Seat(f"P{seat}", "ai:hard" if seat % 2 == 0 else "ai:medium") for seat in range(players)]
        match = Match(rules, seats, seed, ai_budget=budget)
        for _ in range(2000):  # a bound: every game here ends long before
            if match.is_over:
                break
            if match.phase is Phase.HAND_OVER:
                match.next_deal()
            else:
                match.apply(match.choose_ai_action())
        saves.append(match.to_save())
    return saves


def take(out: Path, screens: bool, display: str) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as data:
        for name, arguments in SIMULATIONS:
            history = out / f"{name}.jsonl"
            command = [sys.executable, "main.py", "simulate", *arguments, "--history", str(history)]
            result = subprocess.run(
                [*command, "--data-dir", data], cwd=ROOT, capture_output=True, text=True, check=True
            )
            (out / f"{name}.txt").write_text(result.stdout, encoding="utf-8")
    (out / "hard_games.json").write_text(json.dumps(hard_games(), sort_keys=True), encoding="utf-8")
    if screens:
        environment = {**os.environ, "SDL_AUDIODRIVER": "dummy"}
        for name, arguments in SCREEN_SETS:
            folder = out / name
            folder.mkdir(exist_ok=True)
            command = [sys.executable, "-m", "tools.screenshots", "--xvfb", "--display", display, *arguments]
            subprocess.run([*command, "--out", str(folder)], cwd=ROOT, env=environment, check=True)


def differences(before: Path, after: Path) -> list[str]:
    """Every file (relative path) that is in one snapshot only or differs in a byte."""
    found: list[str] = []
    names = {p.relative_to(before) for p in before.rglob("*") if p.is_file()}
    names |= {p.relative_to(after) for p in after.rglob("*") if p.is_file()}
    for name in sorted(names):
        one, two = before / name, after / name
        if not (one.is_file() and two.is_file() and filecmp.cmp(one, two, shallow=False)):
            found.append(name.as_posix())
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, help="take a snapshot into this folder")
    parser.add_argument("--no-screens", action="store_true", help="histories only (no Xvfb needed)")
    parser.add_argument("--display", default=":97", help="the X display the screenshots use (default :97)")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    args = parser.parse_args(argv)
    if args.compare:
        found = differences(*args.compare)
        for name in found:
            print(f"differs: {name}")
        count = sum(1 for p in args.compare[0].rglob("*") if p.is_file())
        print(f"{count} files compared, {len(found)} differ")
        return 1 if found else 0
    if args.out is None:
        parser.error("give --out DIR or --compare BEFORE AFTER")
    take(args.out, not args.no_screens, args.display)
    return 0


if __name__ == "__main__":
    sys.exit(main())
