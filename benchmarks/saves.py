"""How long saving takes: ``python -m benchmarks.saves [--saves N] [--loads N] [--appends N] [--dir DIR]``."""

from __future__ import annotations

# Two writes happen while a person plays, and neither may delay a frame
# (16.7 ms at 60 frames a second):
#
# * the autosave after every action. The largest game state there is, a
#   6-player Wizard game in its last round (60 cards, 10 rounds, hundreds of
#   actions), is built by playing a seeded game with medium computer players
#   to the last action before the game ends. The autosave's steps are timed
#   apart, as the game runs them:
#
#   - the snapshot (``game.persistence.savegame.snapshot_of``), the only part that runs on
#     the frame loop;
#   - the encoding (``encode_save``) and the atomic write
#     (``atomic_write_bytes``: temporary file, write, fsync, rename, fsync of
#     the folder), which the autosave worker does off the frame loop;
#   - the whole save done synchronously, for comparison with a frame;
#   - loading the save back (``load_saved_game``: read, check, rebuild the
#     match by replaying every action), which is what Continue and each undo
#     cost, ``--loads`` times since each load replays the whole game;
#
# * the hand-history append when a game ends (``write_history(...,
#   append=True)``: open, check the file's tail, one write, fsync, close), of
#   that same game's finished record, ``--appends`` times onto a growing file;
#   and the append of ``simulate --history`` (one write, fsync at most once a
#   second) for comparison.
#
# Each step is reported as median, 95th percentile and maximum. The files go
# to a fresh temporary folder unless ``--dir`` names one: fsync costs whatever
# the disk under it costs, so the report names the folder. Figures are
# printed, never asserted: the machines are shared and noisy.

import argparse
import json
import platform
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from game.persistence.history_files import HistoryWriter, write_history
from game.persistence.savegame import encode_save, load_saved_game, save_path, snapshot_of
from game.rules import Phase, make_rules
from game.session.match import Match, Seat
from game.settings.paths import UserPaths, atomic_write_bytes

GAME, PLAYERS, SEED = "wizard", 6, 2024


def last_round_match() -> tuple[Match, dict[str, Any]]:
    """A 6-player Wizard match at its last action, and the finished game's history record."""
    rules = make_rules(GAME, {}, players=PLAYERS)
    seats = [Seat(f"Computer {seat + 1}", "ai:medium") for seat in range(PLAYERS)]
    played = Match(rules, seats, SEED)
    played.play_out()
    save = played.to_save()
    save["actions"] = save["actions"][:-1]  # one action before the end: the game is still on
    match = Match.from_save(save)
    assert match.phase != Phase.GAME_OVER and not match.is_over
    return match, played.history()


def timed(action: Callable[[], object], repeats: int) -> list[float]:
    """The wall-clock seconds of each of ``repeats`` calls of ``action``."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return times


def summary(label: str, seconds: list[float]) -> str:
    ordered = sorted(seconds)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return (
        f"  {label:<44} median {statistics.median(ordered) * 1000:7.3f} ms   "
        f"p95 {p95 * 1000:7.3f} ms   max {ordered[-1] * 1000:7.3f} ms"
    )


def bench_autosave(match: Match, folder: Path, saves: int, loads: int) -> None:
    paths = UserPaths.from_data_dir(folder)
    target = save_path(paths)
    snapshot = snapshot_of(match)
    blob = encode_save(snapshot)
    print(
        f"autosave of a {PLAYERS}-player {GAME} game in round {match.deal_number} "
        f"({len(match.actions)} actions, {len(blob):,} bytes), {saves} saves, {loads} loads:"
    )
    print(summary("snapshot_of (on the frame loop)", timed(lambda: snapshot_of(match), saves)))
    print(summary("encode_save (worker)", timed(lambda: encode_save(snapshot), saves)))
    print(summary("atomic_write_bytes with fsync (worker)", timed(lambda: atomic_write_bytes(target, blob), saves)))
    print(
        summary(
            "whole save, synchronously",
            timed(lambda: atomic_write_bytes(target, encode_save(snapshot_of(match))), saves),
        )
    )
    # A save that failed to load would be set aside and the later loads would time an empty
    # folder, so the timing is only worth printing once the file is known to load back.
    loaded, problem = load_saved_game(paths)
    if loaded is None or len(loaded.match.actions) != len(match.actions):
        raise SystemExit(f"the save did not load back as the same game: {problem}")
    print(summary("load and rebuild (Continue, undo)", timed(lambda: load_saved_game(paths), loads)))


def bench_history(record: dict[str, Any], folder: Path, appends: int) -> None:
    line = len(json.dumps(record, separators=(",", ":"), ensure_ascii=False)) + 1
    print(f"hand-history append of that finished game ({line:,} bytes a line), {appends} appends:")
    table_file = folder / "table.jsonl"
    print(
        summary(
            "table: write_history(append=True), fsync",
            timed(lambda: write_history(table_file, [record], append=True), appends),
        )
    )
    with HistoryWriter(folder / "simulate.jsonl", replace=True, sync_seconds=1.0) as writer:
        print(summary("simulate --history: HistoryWriter.append", timed(lambda: writer.append(record), appends)))
    print(
        f"  (the table's file grew to {table_file.stat().st_size / 1e6:.1f} MB; each append only "
        f"reads the file's last line)"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.saves", description=__doc__.split("\n\n")[0])
    parser.add_argument("--saves", type=int, default=500, help="autosaves to time (default 500)")
    parser.add_argument("--loads", type=int, default=50, help="loads to time; each replays the whole game (default 50)")
    parser.add_argument("--appends", type=int, default=200, help="history appends to time (default 200)")
    parser.add_argument("--dir", help="the folder to write in (default: a fresh temporary folder)")
    args = parser.parse_args(argv)
    print(f"Python {platform.python_version()} on {platform.platform()}")
    started = time.perf_counter()
    match, record = last_round_match()
    print(f"(built the game in {time.perf_counter() - started:.1f} s)")
    with tempfile.TemporaryDirectory(prefix="tricktable-saves-", dir=args.dir) as name:
        folder = Path(name)
        print(f"writing in {folder}")
        bench_autosave(match, folder, args.saves, args.loads)
        bench_history(record, folder, args.appends)


if __name__ == "__main__":
    main()
