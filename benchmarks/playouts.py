"""The test suite's random-playout checks over many more seeds (1,000 a game by default).

Run ``python -m benchmarks.playouts [--seeds N] [--game bidwhist|wizard]``. A failed check
stops the run with its seed; the figures say how often each rare situation came up.
"""
# ``tests/test_playouts.py`` plays a sample of random games (random house rules, random
# legal moves) against plain restatements of RULES.md; this plays the same games, with
# the same checks, for the first N seeds of each game (what the suite itself played
# before it was trimmed for time). The counts of redeals, Bostons, reneges, the dealer
# taking the bid and a turned-up Wizard's trump chosen by a player let a sample be
# judged: the suite's seeds should meet each at least once.

from __future__ import annotations

import argparse
import importlib
import sys
import time
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from game.rules.actions import Action, ActionKind
from game.rules.events import BidWhistHandScored, CardPlayed, GameEvent, TrumpTurnedUp, WizardHandScored

# The checks live with the tests (and read the reference rules of tests/conftest.py).
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
test_playouts: Any = importlib.import_module("test_playouts")


def _tally(counts: Counter[str], events: Iterable[GameEvent]) -> None:
    for event in events:
        if isinstance(event, BidWhistHandScored):
            counts["hands"] += 1
            counts["redeals (all passed)"] += bool(event.redeal)
            counts["Bostons"] += bool(event.boston)
            counts["hands with a renege"] += bool(event.reneges)
            counts["contracts set"] += event.made is False
        elif isinstance(event, WizardHandScored):
            counts["rounds"] += 1
            counts["rounds with every bid made"] += all(b == t for b, t in zip(event.bids, event.tricks_won))
        elif isinstance(event, CardPlayed):
            counts["cards played"] += 1
        elif isinstance(event, TrumpTurnedUp):
            counts["trump named by a player (Wizard turned up)"] += event.chooser >= 0
            counts["no trump (Jester, or the last round)"] += event.trump == -1


def run(game: str, seeds: int) -> None:
    counts: Counter[str] = Counter()
    original_step = test_playouts.step

    def counting_step(state: Any, action: Action, full: bool) -> tuple[Any, list[GameEvent]]:
        if action.kind == ActionKind.TAKE:
            counts["takes (dealer takes the bid)"] += 1
        state, events = original_step(state, action, full)
        _tally(counts, events)
        return state, events

    test_playouts.step = counting_step
    play = test_playouts.play_bidwhist if game == "bidwhist" else test_playouts.play_wizard
    start = time.perf_counter()
    try:
        for seed in range(seeds):
            try:
                play(seed, full=seed % test_playouts.FULL_CHECK_EVERY == 0)
            except AssertionError:
                print(f"{game}: the checks failed on seed {seed}", file=sys.stderr)
                raise
    finally:
        test_playouts.step = original_step
    seconds = time.perf_counter() - start
    print(
        f"{game}: {seeds} games checked in {seconds:.1f} s ({seeds / seconds:.1f} games/s; every "
        f"{test_playouts.FULL_CHECK_EVERY}th through the checked apply and the views)"
    )
    for name, count in sorted(counts.items()):
        print(f"  {name:45} {count:8,}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=1000, help="games per game type (default 1000)")
    parser.add_argument(
        "--game",
        choices=("bidwhist", "wizard"),
        action="append",
        help="only this game (may be given twice); default both",
    )
    args = parser.parse_args(argv)
    for game in args.game or ["bidwhist", "wizard"]:
        run(game, args.seeds)


if __name__ == "__main__":
    main()
