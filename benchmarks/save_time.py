"""Autosave, resume and undo costs for the largest game state.

Run ``python -m benchmarks.save_time [--repeats N] [--folder DIR]``. The game
is a six-player Wizard game in its last round (ten rounds, the most actions
any game reaches before its end), played by random computers. It reports, as
median and 95th percentile over the repeats:

* the snapshot, the only part of an autosave that runs on the frame loop
  (``game.savegame.snapshot_of``: the action list as text);
* the encoding and the atomic write (temporary file, fsync, rename) that the
  autosave worker does off the frame loop, in ``--folder`` (default: a
  temporary folder, which sits on the same disk as the user's data here);
* the whole save done synchronously, for comparison with a frame (16.7 ms);
* loading the save back (read, check, rebuild the match by replaying every
  action), which is what Continue and each undo cost.

Figures are printed, never asserted: the machines are shared and noisy.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import tempfile
import time
from pathlib import Path
from typing import Callable

from game.match import Match, Seat
from game.paths import UserPaths, atomic_write_bytes
from game.rules import Phase, make_rules
from game.savegame import encode_save, load_saved_game, save_path, snapshot_of


def last_round_match(seed: int = 5) -> Match:
    """Six random players in the middle of the last round of a full Wizard game."""
    match = Match(make_rules("wizard", players=6), [Seat(f"P{i}", "ai:random") for i in range(6)], seed)
    while match.deal_number < 10 or match.phase == Phase.HAND_OVER:
        if match.phase == Phase.HAND_OVER:
            match.next_deal()
        else:
            match.apply(match.choose_ai_action())
    for _ in range(6 + 30):  # the bids and five tricks of the last round
        match.apply(match.choose_ai_action())
    return match


def timed(action: Callable[[], object], repeats: int) -> tuple[float, float]:
    """Median and 95th percentile in milliseconds."""
    times = []
    for _ in range(repeats):
        began = time.perf_counter()
        action()
        times.append((time.perf_counter() - began) * 1000)
    times.sort()
    return statistics.median(times), times[min(len(times) - 1, round(len(times) * 0.95))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=200)
    parser.add_argument("--folder", type=Path, default=None, help="where to write (default: a temporary folder)")
    args = parser.parse_args()
    match = last_round_match()
    with tempfile.TemporaryDirectory() as temp:
        paths = UserPaths.from_data_dir(args.folder or temp)
        path = save_path(paths)
        snapshot = snapshot_of(match)
        data = encode_save(snapshot)
        print(f"python {platform.python_version()}, {platform.machine()}; six-player Wizard, round "
              f"{match.deal_number} of 10, {len(match.actions)} actions, save file {len(data)} bytes; "
              f"writing to {path.parent}")
        rows = [
            ("snapshot (on the frame loop)", lambda: snapshot_of(match)),
            ("encode (worker)", lambda: encode_save(snapshot)),
            ("atomic write with fsync (worker)", lambda: atomic_write_bytes(path, data)),
            ("whole save, synchronously", lambda: atomic_write_bytes(path, encode_save(snapshot_of(match)))),
            ("load and rebuild (Continue, undo)", lambda: load_saved_game(paths)),
        ]
        for label, action in rows:
            median, p95 = timed(action, args.repeats if "load" not in label else max(5, args.repeats // 10))
            print(f"  {label:36s} median {median:7.3f} ms   p95 {p95:7.3f} ms")


if __name__ == "__main__":
    main()
