"""Statistics rebuild time from a large hand history."""

from __future__ import annotations

# Run ``python -m benchmarks.stats [--games N] [--distinct D] [--repeats R]``.
# It writes N games (default 10,000: half Bid Whist, half four-player Wizard)
# to history files in a temporary folder, then times these rebuilds of the
# statistics:
#
# * *cold*: no summary cache yet, so every game's JSON is parsed and summarized
#   (``game.persistence.stats.load_stats`` through ``read_history``), and the cache written;
#   once as the program does it (the files cut into spans read by one worker
#   process per processor, ``game.persistence.stats_spans``, where the machine allows it;
#   the line says how many), once in one process;
# * *warm*: the cache is up to date, as when the statistics screen opens again
#   with no new game (the files are not parsed);
# * *one more game*: a game is appended to one history file before each load,
#   as when the screen opens after a game was played: only the new game is
#   parsed, the rest comes from the cache (``game.persistence.stats``' resume points);
# * *one more game, whole file*: the same with the cache's resume points taken
#   out, so the changed file is parsed whole, as before the cache kept them;
# * *count only*: adding up the summaries already in memory (``StatsBook``).
#
# The games are real engine games recorded by ``Match``'s ``HistoryRecorder``,
# played by the "random" computer level so that writing 10,000 of them takes
# seconds rather than hours: D distinct games (default 400) are simulated and
# written over and over, each copy under other player names and seat levels
# (and one game in 40 marked ``undo_used``), so the statistics have many
# players, levels and opponents to count. ``--distinct N`` simulates every
# game. Figures are printed, never asserted.

import argparse
import json
import platform
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from game.persistence.history_files import write_history
from game.persistence.history_reader import read_history
from game.persistence.stats import LoadedStats, StatsBook, load_stats, summarize
from game.persistence.stats_spans import worker_count
from game.session.match import Match, Seat
from game.settings.house_rule_files import resolve_rules

CASES = (("bidwhist", 4), ("wizard", 4))
NAMES = ("You", "Ada", "Bruno", "Cleo", "Dmitri", "Esme", "Farid", "Gus", "Hana", "Ivo")
LEVELS = ("human", "ai:easy", "ai:medium", "ai:hard")
UNDO_EVERY = 40


def simulate_pool(game: str, players: int, count: int, first_seed: int) -> list[dict[str, Any]]:
    """``count`` finished games of ``game`` between random players, as history records."""
    rules = resolve_rules(game, None, None, [], players=players)
    seats = [Seat(f"Seat {seat + 1}", "ai:random") for seat in range(players)]
    pool = []
    for index in range(count):
        match = Match(rules, seats, first_seed + index)
        match.play_out()
        pool.append(match.history())
    return pool


def relabelled(record: dict[str, Any], copy: int) -> dict[str, Any]:
    """``record`` under other names and levels (and now and then marked as undone)."""
    players = []
    for seat, entry in enumerate(record["players"]):
        name = NAMES[(copy + seat * 3) % len(NAMES)]
        controller = "human" if seat == 0 else LEVELS[1 + (copy + seat) % (len(LEVELS) - 1)]
        players.append({**entry, "name": name, "controller": controller})
    changed = {**record, "players": players}
    if copy % UNDO_EVERY == UNDO_EVERY - 1:
        changed["undo_used"] = True
    return changed


def write_games(folder: Path, games: int, distinct: int) -> tuple[float, int]:
    """Write ``games`` games over the CASES into ``folder``; (seconds simulating, bytes written)."""
    simulated = 0.0
    per_case = games // len(CASES)
    for case_index, (game, players) in enumerate(CASES):
        want = per_case if case_index < len(CASES) - 1 else games - per_case * (len(CASES) - 1)
        began = time.perf_counter()
        pool = simulate_pool(game, players, max(1, min(want, distinct // len(CASES))), 1000 * case_index)
        simulated += time.perf_counter() - began
        write_history(folder / f"{game}.jsonl", (relabelled(pool[i % len(pool)], i) for i in range(want)))
    size = sum(path.stat().st_size for path in folder.glob("*.jsonl"))
    return simulated, size


def timed(action: Callable[[], Any], repeats: int) -> tuple[float, float, Any]:
    times, result = [], None
    for _ in range(repeats):
        began = time.perf_counter()
        result = action()
        times.append(time.perf_counter() - began)
    return min(times), statistics.median(times), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--distinct", type=int, default=400, help="games actually simulated (copies fill the rest)")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}")
    with tempfile.TemporaryDirectory(prefix="tricktable-stats-") as temp:
        root = Path(temp)
        histories = root / "histories"
        histories.mkdir()
        simulated, size = write_games(histories, args.games, args.distinct)
        print(
            f"wrote {args.games} games ({min(args.games, args.distinct)} simulated in {simulated:.1f} s), "
            f"{size / 1e6:.1f} MB of history"
        )
        cache = root / "stats_cache.json"

        def cold(parallel: bool) -> Any:
            cache.unlink(missing_ok=True)
            return load_stats(histories, cache, parallel=parallel)

        workers = worker_count(size)
        best, median, loaded = timed(lambda: cold(True), args.repeats)
        print(
            f"cold rebuild (parse every game, write the cache; {workers} process{'es' * (workers > 1)}): "
            f"best {best:.3f} s, median {median:.3f} s"
        )
        print(f"  summary cache: {cache.stat().st_size / 1e6:.2f} MB")
        best, median, _ = timed(lambda: cold(False), args.repeats)
        print(f"cold rebuild in one process: best {best:.3f} s, median {median:.3f} s")
        best, median, warm = timed(lambda: load_stats(histories, cache), args.repeats)
        print(f"warm rebuild (unchanged files, from the cache): best {best:.3f} s, median {median:.3f} s")
        grown = histories / f"{CASES[-1][0]}.jsonl"
        template = next(iter(read_history(grown)))
        appended = iter(range(args.games, args.games * 2))

        def load_after_one_more_game(forget_resume_points: bool) -> tuple[float, LoadedStats]:
            write_history(grown, [relabelled(template, next(appended))], append=True)
            if forget_resume_points:
                data = json.loads(cache.read_text(encoding="utf-8"))
                for entry in data["files"].values():
                    entry.pop("resume", None)
                cache.write_text(json.dumps(data), encoding="utf-8")
            began = time.perf_counter()
            after = load_stats(histories, cache)
            return time.perf_counter() - began, after

        for label, forget in (
            ("one more game (only the new game parsed)", False),
            ("one more game, whole file (no resume points)", True),
        ):
            runs = [load_after_one_more_game(forget) for _ in range(args.repeats)]
            times = [elapsed for elapsed, _ in runs]
            last = runs[-1][1]
            print(
                f"{label}: best {min(times):.3f} s, median {statistics.median(times):.3f} s "
                f"(games parsed: {last.games_read}, files resumed: {last.resumed})"
            )
        summaries = [
            summary
            for path in sorted(histories.glob("*.jsonl"))
            for summary in (summarize(record, str(path), index) for index, record in enumerate(read_history(path), 1))
        ]
        best, median, book = timed(lambda: StatsBook().add_all(summaries), args.repeats)
        print(f"count only (summaries in memory): best {best:.3f} s, median {median:.3f} s")
        undone = sum(warm.book.undo_games.values())
        print(
            f"counted {book.games} games, {undone} with undo set apart, {len(book.players)} (game, player) "
            f"totals; problems: {len(loaded.problems)}"
        )


if __name__ == "__main__":
    main()
