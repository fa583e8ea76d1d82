"""Peak memory of ``simulate --history`` against the number of games: ``python -m benchmarks.history_io``."""

from __future__ import annotations

# ``simulate --history`` writes each game to the file as it finishes, so its
# memory must not grow with the number of games (it used to keep every game
# until the end: about 30 KB per Bid Whist game). For each ``--games`` count
# this runs the real command (``game.program.cli.main``) in a fresh child process and
# reads the child's own peak resident memory (``resource.getrusage``,
# ``ru_maxrss``) when it is done, with the time taken and the size of the file
# written. Flat peaks from the smallest count to the largest are the result.
#
# The default counts finish in a few minutes with the ``random`` computer
# level, which plays whole legal games fastest; the history written per game
# is the same whatever the level. ``--games 1000,100000`` is the full check
# (100,000 Bid Whist games take several minutes even with random players).
# Figures are printed, never asserted. POSIX only (``resource``).

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

# Runs in the child: the simulation, then the child's own figures as one JSON line.
CHILD = """
import contextlib, io, json, resource, sys, time
from game.program.cli import main
started = time.perf_counter()
with contextlib.redirect_stdout(io.StringIO()):
    status = main(sys.argv[1:])
peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # kilobytes on Linux
print(json.dumps({"status": status, "seconds": time.perf_counter() - started, "peak_kb": peak_kb}))
"""


def run_one(game: str, games: int, level: str, folder: Path) -> dict[str, Any]:
    history = folder / f"{game}-{games}.jsonl"
    command = [
        sys.executable,
        "-c",
        CHILD,
        "simulate",
        "--game",
        game,
        "--games",
        str(games),
        "--seed",
        "1",
        "--ai",
        level,
        "--history",
        str(history),
    ]
    done = subprocess.run(
        command, capture_output=True, text=True, check=False, cwd=Path(__file__).resolve().parent.parent
    )
    if done.returncode != 0:
        raise SystemExit(f"the simulation failed: {done.stderr.strip()}")
    figures: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    figures["bytes"] = history.stat().st_size
    history.unlink()  # the next run needs the room, not this file
    return figures


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.history_io", description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="bidwhist")
    parser.add_argument(
        "--games", default="1000,5000,20000", help="comma-separated game counts (default 1000,5000,20000)"
    )
    parser.add_argument("--ai", default="random", help="computer level for every seat (default random)")
    parser.add_argument("--dir", help="the folder to write the histories in (default: a temporary folder)")
    args = parser.parse_args(argv)
    counts = [int(part) for part in args.games.split(",")]
    print(f"simulate --game {args.game} --ai {args.ai} --history FILE, one fresh process per run")
    print(f"{'games':>8} {'peak RSS':>10} {'history file':>14} {'seconds':>9} {'games/s':>8}")
    with tempfile.TemporaryDirectory(prefix="tricktable-history-io-", dir=args.dir) as name:
        for games in counts:
            figures = run_one(args.game, games, args.ai, Path(name))
            print(
                f"{games:>8,} {figures['peak_kb'] / 1024:>7.1f} MB {figures['bytes'] / 1e6:>11.1f} MB "
                f"{figures['seconds']:>9.1f} {games / figures['seconds']:>8.0f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
