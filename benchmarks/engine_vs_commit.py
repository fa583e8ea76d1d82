"""The engines' fast path against an earlier commit's, on this machine, interleaved.

Run ``python -m benchmarks.engine --vs-commit REV [--pairs N] [--seconds S]``: both engines
play the same random games, alternately, each run a fresh process; it prints each pair's
ratio and the median ratio per game.
"""

from __future__ import annotations

# A figure of actions a second from another machine cannot be compared with this one's (the
# machines differ by tens of percent), hence a comparison on one machine. REV's files come
# from ``git archive`` into a temporary folder (the repository and its worktrees are not
# touched). Each run is a separate Python process whose import path starts at one of the
# two source trees, so both engines are measured by the same code, in CPU time (a shared
# machine's other work slows wall time more than CPU time).

import statistics
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
CASES = (("bidwhist", 4), ("wizard", 4))

# One run: random legal playouts of whole games through ``legal_actions`` and
# ``apply_in_place`` without events (a search's simulations), for a given CPU time. The
# loop is ``benchmarks.engine._playouts``'s, written out here because it runs against REV's
# tree, whose benchmarks may differ or be missing: it uses only ``game.rules``.
_RUN = """
import random, sys, time
sys.path.insert(0, sys.argv[1])
from game.rules import make_rules, new_game
rules, players, seconds = make_rules(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
rng = random.Random(1)
actions = games = 0
start = time.process_time()
while time.process_time() - start < seconds:
    state, _ = new_game(rules, players, games)
    while not state.is_terminal:
        state.apply_in_place(rng.choice(state.legal_actions()), None, False)
        actions += 1
    games += 1
print(actions / (time.process_time() - start))
"""


def source_of(revision: str, folder: Path) -> Path:
    """``revision``'s files, unpacked into ``folder`` (``git archive``)."""
    archive = subprocess.run(
        ["git", "-C", str(REPO_ROOT), "archive", "--format=tar", revision],
        capture_output=True,
        check=False,
    )
    if archive.returncode != 0:
        raise SystemExit(f"git archive {revision}: {archive.stderr.decode(errors='replace').strip()}")
    with tarfile.open(fileobj=BytesIO(archive.stdout)) as tar:
        tar.extractall(folder, filter="data")
    return folder


def actions_per_second(source: Path, game: str, players: int, seconds: float) -> float:
    result = subprocess.run(
        [sys.executable, "-c", _RUN, str(source), game, str(players), str(seconds)],
        capture_output=True,
        text=True,
        check=True,
        cwd=source,
    )
    return float(result.stdout.strip())


def compare(revision: str, pairs: int, seconds: float) -> dict[str, float]:
    """Print the interleaved pairs and each game's median ratio (this checkout over ``revision``);
    return the median ratios by game."""
    medians = {}
    with tempfile.TemporaryDirectory(prefix="tricktable-engine-") as folder:
        earlier = source_of(revision, Path(folder))
        print(f"fast path (legal_actions + apply_in_place), CPU time, {pairs} interleaved pairs of {seconds:g} s")
        print(f"{'game':<14}{'pair':>5}{revision[:12]:>16}{'this checkout':>16}{'ratio':>8}")
        for game, players in CASES:
            ratios = []
            for pair in range(1, pairs + 1):
                before = actions_per_second(earlier, game, players, seconds)
                after = actions_per_second(REPO_ROOT, game, players, seconds)
                ratios.append(after / before)
                label = f"{game} ({players}p)"
                print(f"{label:<14}{pair:>5}{before:>16,.0f}{after:>16,.0f}{after / before:>8.2f}")
            medians[game] = statistics.median(ratios)
            print(f"{game} ({players}p): median ratio {medians[game]:.2f}")
    return medians
