"""Statistics per player name and game, computed from the hand-history files."""

from __future__ import annotations

# Two layers keep a rebuild fast:
#
# * ``summarize(record)`` boils one recorded game (read by
#   ``game.persistence.history_reader.read_history``, the only reader of the file format) down to
#   a small JSON-able summary: who sat where at what level, the final scores
#   and winners, the running scores after each deal, each contract (declarer,
#   mode, made or set) and each prediction hit or missed by hand size.
# * ``StatsBook`` adds summaries up, one game at a time (``add``), into a
#   ``PlayerStats`` per (game, player name). Adding is incremental: a new game
#   is one more ``add``.
#
# Parsing the JSON of thousands of full games is the slow part (a three-player
# Wizard game is about 30 kB), so ``load_stats`` keeps the summaries in a small
# cache file keyed by each history file's size and modification time: a file
# that has not changed is not read again. A history file only ever grows by
# whole games appended at its end, so the cache also keeps, per file, the byte
# offset up to which its lines were read (a damaged line is skipped and named,
# never a stop: the games after it count) and a fingerprint of the bytes
# before it (``prefix_fingerprint``). A changed file that still starts with
# those same bytes has only its new games read (``game.persistence.history_reader``'s
# ``read_history_from``, from that offset) and added to the cached ones; a file
# that shrank or was rewritten, edited or repaired inside that part is
# summarized again from its start. The fingerprint samples the part rather than
# reading all of it (reading it all would cost much of what the shortcut
# saves), so an edit by hand that keeps the file's length and every sampled
# block goes unseen, as one that also kept the modification time always did.
#
# When many games must be read (no cache yet, or a file read again whole),
# they are read without their cards (``read_history_from(without_cards=True)``),
# with Python's cycle collector paused, and, on a machine with processors to
# spare, in spans of whole lines by worker processes (``game.persistence.stats_spans``),
# whose results are stitched back into exactly what one reader gives.
#
# Counting conventions (the statistics screen says them in words):
#
# * A player's *side* is their team in a partnership game, else their seat;
#   their score is their side's final score, and they won when their side is
#   among the winners.
# * A finished game marked ``"undo_used": true`` is one of its players' games
#   (listed, its scores charted, replayable) but is counted apart: each of its
#   players' ``undo_games``, and no win, score, record, contract, bid or
#   opponent figure, so a taken-back card never makes a best score. A game not
#   played to the end (undo used or not) is only counted, per player
#   (``StatsBook.unfinished_of``) and per game (``unfinished_games``).
# * Contracts are those the player declared, by mode and by the level the
#   player's seat had (``human`` or the computer's level).
# * A prediction is hit when the seat took exactly the tricks it bid; round
#   size is the number of cards each seat was dealt.
# * Wins by opponent level: a game counts once for every distinct level among
#   the player's opponents (the seats on other sides).
# * A contract is made when it scores its side points and set when it costs
#   them (``score_change`` of the declaring side): the format's own record of
#   what the engine decided, so no rule is worked out again here.
#
# No pygame here; the statistics screen only draws what this module computes.

import gc
import hashlib
import json
import logging
import math
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game.persistence.stats_spans import (
    SPANS_PER_WORKER,
    Damage,
    FileReading,
    Span,
    plan_spans,
    stitch,
    summarize_spans,
    worker_count,
)
from game.rules import get_game
from game.rules.problems import Problem, ProblemValueError, problem_from_json, problem_to_json
from game.settings.paths import open_regular_file

log = logging.getLogger("tricktable.stats")

#: Bumped whenever the summary shape changes, so an old cache is ignored.
SUMMARY_VERSION = 3
CACHE_FORMAT = "trick-table-stats-cache"
HUMAN = "human"
MADE, SET = "made", "set"


def level_of(controller: Any) -> str:
    """``human`` or the computer's level of a seat's ``controller`` (``ai:hard`` -> ``hard``)."""
    text = str(controller or HUMAN)
    return text.split(":", 1)[1] if text.startswith("ai:") else HUMAN


# ---------------------------------------------------------------------- one game
def summarize(record: dict[str, Any], source: str = "", index: int = 0) -> dict[str, Any]:
    """The summary of one recorded game (see the module docstring); ``source`` and
    ``index`` (from 1) say where the game is, so the viewer can open it again.

    The lists are flat, a few per game rather than one per deal, seat or
    contract: a rebuild keeps tens of thousands of summaries, and every list
    kept is one more object to build, encode into the cache, pass back from
    a worker process and have the cycle collector walk. ``summary_players``
    and ``summary_rounds`` give them back in their natural shape:

    * ``players``: name, level, name, level, ... seat by seat;
    * ``rounds``: the running scores after each deal, ``sides`` numbers a deal;
    * ``contracts``: declarer, books, mode, made (1) or set (0), a contract after another;
    * ``hits``: hand size, then a bit mask of the seats that hit their bid, deal by deal.

    A record too damaged to summarize raises ``ValueError``.
    """
    try:
        game = get_game(record["game"])
        players: list[str] = []
        for player in record["players"]:
            players += (str(player.get("name", "")), level_of(player.get("controller")))
        seats = len(players) // 2
        sides = game.score_sides(seats)
        deals = record.get("deals") or []
        rounds: list[int] = []
        contracts: list[Any] = []
        hits: list[int] = []
        by_contract = game.adapter.declares_contract
        by_prediction = not by_contract  # every seat predicts its own tricks
        for deal in deals:
            scores = deal.get("scores")
            if scores:
                if len(scores) != sides:
                    raise ValueError(f"deal {deal.get('number')} has {len(scores)} scores, not {sides}")
                rounds += map(int, scores)
            if by_contract:
                contract, declarer = deal.get("contract"), deal.get("declarer")
                if contract and isinstance(declarer, int) and scores:
                    change = deal.get("score_change") or []
                    side = game.team_of(declarer)
                    made = side < len(change) and change[side] > 0
                    contracts += (declarer, int(contract.get("books", 0)), str(contract.get("mode")), int(made))
            elif by_prediction:
                taken = deal.get("tricks_won")
                if taken:
                    mask, seats_taken = 0, len(taken)
                    for entry in deal.get("bids", ()):
                        seat = entry["seat"]
                        if 0 <= seat < seats_taken and taken[seat] == int(entry["bid"]):
                            mask |= 1 << seat
                    # Every trick goes to somebody: the tricks taken add up to the cards each was dealt.
                    hits += (sum(taken), mask)
        return {
            "game": game.name,
            "source": source,
            "index": index,
            "complete": bool(record.get("complete")),
            "undo": bool(record.get("undo_used")),
            "players": players,
            "sides": sides,
            "final": [int(s) for s in record.get("final_scores") or []],
            "winners": [int(w) for w in record.get("winners") or []],
            "rounds": rounds,
            "contracts": contracts,
            "hits": hits,
        }
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        raise ProblemValueError(Problem("stats.not_summarized", {"detail": str(exc)})) from None


def summary_players(summary: dict[str, Any]) -> list[tuple[str, str]]:
    """(name, level) of each seat of a summarized game."""
    flat = summary["players"]
    return list(zip(flat[0::2], flat[1::2]))


def summary_rounds(summary: dict[str, Any]) -> list[list[int]]:
    """The running scores after each deal of a summarized game, one list per deal."""
    flat, sides = summary["rounds"], summary["sides"]
    return [flat[start : start + sides] for start in range(0, len(flat), sides)] if sides else []


# ---------------------------------------------------------------------- totals
@dataclass
class PlayerStats:
    """Everything counted for one player name in one game (see the module docstring).

    Games, wins, scores, contracts and opponents are added up as each game is
    added; the prediction figures, needed only for the player on screen, are
    worked out from the player's games when first asked for.
    """

    game: str
    name: str
    games: int = 0
    wins: int = 0
    scores: list[int] = field(default_factory=list)  # the side's final score, game by game
    contracts: Counter[tuple[str, str, str]] = field(default_factory=Counter)  # (mode, level, "made"/"set") -> count
    against: dict[str, list[int]] = field(default_factory=dict)  # opponent level -> [games, wins]
    undo_games: int = 0  # finished games with undo used: listed in ``summaries``, in no figure
    #: The player's finished games, oldest first, those with undo used included, and
    #: the player's seat in each (two lists rather than one of pairs: a pair per
    #: game is one more object kept).
    summaries: list[dict[str, Any]] = field(default_factory=list)
    seats: list[int] = field(default_factory=list)
    _hits: tuple[dict[int, list[int]], list[tuple[int, int]]] | None = field(default=None, repr=False)

    @property
    def average(self) -> float | None:
        return sum(self.scores) / len(self.scores) if self.scores else None

    @property
    def best(self) -> int | None:
        return max(self.scores) if self.scores else None

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.games if self.games else None

    def contract_totals(self, by: str) -> dict[str, tuple[int, int, int]]:
        """Contracts ``by`` "mode" or "level": key -> (bid, made, set)."""
        position = 0 if by == "mode" else 1
        totals: dict[str, list[int]] = {}
        for key, count in self.contracts.items():
            row = totals.setdefault(key[position], [0, 0, 0])
            row[0] += count
            row[1 if key[2] == MADE else 2] += count
        return {key: (row[0], row[1], row[2]) for key, row in totals.items()}

    def _hit_figures(self) -> tuple[dict[int, list[int]], list[tuple[int, int]]]:
        if self._hits is None:
            by_size: dict[int, list[int]] = {}
            per_game: list[tuple[int, int]] = []
            for summary, seat in zip(self.summaries, self.seats):
                flat = summary["hits"]
                if not flat or summary["undo"]:
                    continue
                hit_count = 0
                for size, mask in zip(flat[0::2], flat[1::2]):
                    hit = (mask >> seat) & 1
                    cell = by_size.setdefault(size, [0, 0])
                    cell[0] += hit
                    cell[1] += 1
                    hit_count += hit
                per_game.append((hit_count, len(flat) // 2))
            self._hits = (by_size, per_game)
        return self._hits

    @property
    def hit_by_size(self) -> dict[int, list[int]]:
        """Predictions by cards dealt: size -> [hit, made]."""
        return self._hit_figures()[0]

    @property
    def hit_per_game(self) -> list[tuple[int, int]]:
        """(predictions hit, predictions made) of each game, oldest first."""
        return self._hit_figures()[1]

    @property
    def hits(self) -> tuple[int, int]:
        """All predictions: (hit, made)."""
        cells = self.hit_by_size.values()
        return (sum(hit for hit, _ in cells), sum(made for _, made in cells))

    def recent_hit_rates(self, last: int) -> list[float]:
        """The bid-hit rate of each of the last ``last`` games (oldest first)."""
        return [hit / bids for hit, bids in self.hit_per_game[-last:] if bids]

    def list_apart(self, summary: dict[str, Any], seat: int) -> None:
        """Add one finished game with undo used in which the player sat at ``seat``:
        listed with the player's games, counted in no figure but ``undo_games``."""
        self.undo_games += 1
        self.summaries.append(summary)
        self.seats.append(seat)

    def count(self, summary: dict[str, Any], seat: int, side: int, won: bool, opponents: set[str]) -> None:
        """Add one game in which the player sat at ``seat``."""
        self.games += 1
        self.wins += won
        final = summary["final"]
        if side < len(final):
            self.scores.append(final[side])
        self.summaries.append(summary)
        self.seats.append(seat)
        self._hits = None
        for opponent in opponents:
            cell = self.against.setdefault(opponent, [0, 0])
            cell[0] += 1
            cell[1] += won


class StatsBook:
    """Statistics of every (game, player name), added up one game summary at a time."""

    def __init__(self) -> None:
        self.players: dict[tuple[str, str], PlayerStats] = {}
        self.games = 0
        self.undo_games: Counter[str] = Counter()  # game -> finished games with undo used (listed, not counted)
        self.unfinished_games: Counter[str] = Counter()  # game -> games stopped before the end
        self._unfinished_of: Counter[tuple[str, str]] = Counter()  # (game, player name) -> games stopped before the end
        self.problems: list[Problem] = []  # files or games that could not be read

    @property
    def finished_games(self) -> int:
        """Every finished game, those with undo used (listed, not counted) included."""
        return self.games + sum(self.undo_games.values())

    def unfinished_of(self, game: str, name: str) -> int:
        """The games of ``game`` that ``name`` sat in and that stopped before the end."""
        return self._unfinished_of[(game, name)]

    def _player(self, game: str, name: str) -> PlayerStats:
        stats = self.players.get((game, name))
        if stats is None:
            stats = self.players[(game, name)] = PlayerStats(game, name)
        return stats

    def add(self, summary: dict[str, Any]) -> None:
        """Count one game (its summary from ``summarize``)."""
        name = summary["game"]
        flat = summary["players"]
        names, levels = flat[0::2], flat[1::2]
        if not summary["complete"]:
            self.unfinished_games[name] += 1
            for player in set(names):
                self._unfinished_of[(name, player)] += 1
            return
        if summary["undo"]:
            self.undo_games[name] += 1
            for seat, player in enumerate(names):
                self._player(name, player).list_apart(summary, seat)
            return
        self.games += 1
        game = get_game(name)
        sides = [game.team_of(seat) for seat in range(len(names))]
        winners = set(summary["winners"])
        levels_against = {
            side: {levels[other] for other, their_side in enumerate(sides) if their_side != side} for side in set(sides)
        }
        contracts = summary["contracts"]
        for seat, player in enumerate(names):
            stats = self._player(name, player)
            side = sides[seat]
            stats.count(summary, seat, side, side in winners, levels_against[side])
            for at in range(0, len(contracts), 4):
                if contracts[at] == seat:
                    stats.contracts[(contracts[at + 2], levels[seat], MADE if contracts[at + 3] else SET)] += 1

    def add_all(self, summaries: Iterable[dict[str, Any]]) -> StatsBook:
        for summary in summaries:
            self.add(summary)
        return self

    def games_played(self) -> list[str]:
        """The games with any player statistics, by name."""
        return sorted({game for game, _ in self.players})

    def names(self, game: str) -> list[str]:
        """The player names seen in finished games of ``game``, most games first (then by name)."""
        found = [stats for (name, _), stats in self.players.items() if name == game]
        return [stats.name for stats in sorted(found, key=lambda s: (-len(s.summaries), s.name.lower()))]

    def get(self, game: str, name: str) -> PlayerStats | None:
        return self.players.get((game, name))


# ---------------------------------------------------------------------- files and cache
#: The fingerprint of a file's summarized part hashes this many blocks of
#: ``FINGERPRINT_BLOCK`` bytes, spread evenly from its first to its last byte:
#: a few small reads however long the history has grown.
FINGERPRINT_BLOCKS = 16
FINGERPRINT_BLOCK = 4096


@dataclass
class LoadedStats:
    """The statistics of a history folder, and what could not be read."""

    book: StatsBook
    files: int = 0
    read_again: int = 0  # files parsed this time, whole or in part (the others came from the cache)
    resumed: int = 0  # of those, files only whose games added since the cache was written were parsed
    games_read: int = 0  # games parsed this time
    problems: list[Problem] = field(default_factory=list)


def history_files(folder: Path) -> list[Path]:
    """The hand-history files of a folder (``<game>.jsonl``), by name."""
    try:
        return sorted(path for path in Path(folder).glob("*.jsonl") if path.is_file())
    except OSError:
        return []


def _file_key(path: Path) -> list[int] | None:
    try:
        info = path.stat()
    except OSError:
        return None
    return [info.st_size, info.st_mtime_ns]


def prefix_fingerprint(path: Path, offset: int) -> str | None:
    """A fingerprint of the first ``offset`` bytes of ``path``: a hash of ``offset`` and of
    ``FINGERPRINT_BLOCKS`` blocks spread over those bytes, the first and the last included.

    None when those bytes cannot be resumed after: the file cannot be read, is
    shorter than ``offset``, or the bytes do not end a line (a last game
    written without its newline gets one before the next game is appended).
    """
    digest = hashlib.blake2b(offset.to_bytes(8, "little"), digest_size=16)
    last_block = max(0, offset - FINGERPRINT_BLOCK)
    starts = sorted({last_block * step // (FINGERPRINT_BLOCKS - 1) for step in range(FINGERPRINT_BLOCKS)})
    block = b""
    try:
        with open(path, "rb") as handle:
            for start in starts:
                handle.seek(start)
                wanted = min(FINGERPRINT_BLOCK, offset - start)
                block = handle.read(wanted)
                if len(block) != wanted:
                    return None
                digest.update(block)
    except OSError:
        return None
    if offset and not block.endswith(b"\n"):
        return None
    return digest.hexdigest()


@dataclass
class _ReadPoint:
    """Where reading a history file stopped, so that it can go on from there:
    the byte offset and line number after the last whole line read, the games
    read (their count numbers the next one), the last game that could not be
    summarized and the damaged lines skipped before that point."""

    offset: int = 0
    line: int = 1
    records: int = 0
    game_problem: Problem | None = None
    damage: Damage = field(default_factory=Damage)

    def to_json(self, fingerprint: str) -> dict[str, Any]:
        return {
            "offset": self.offset,
            "line": self.line,
            "records": self.records,
            "game_problem": _problem_json(self.game_problem),
            "fingerprint": fingerprint,
            "damage": [problem_to_json(problem) for problem in self.damage.named],
            "damaged": self.damage.count,
        }

    @staticmethod
    def from_json(data: Any) -> _ReadPoint | None:
        """The point a cache entry kept; None for a missing or damaged one."""
        if not isinstance(data, dict):
            return None
        numbers = [data.get(name) for name in ("offset", "line", "records", "damaged")]
        problem, named = data.get("game_problem"), data.get("damage")
        if not all(type(number) is int and number >= 0 for number in numbers) or not isinstance(named, list):
            return None
        offset, line, records, count = (int(number) for number in numbers)  # type: ignore[arg-type]
        if len(named) > count:
            return None
        try:
            return _ReadPoint(
                offset,
                line,
                records,
                None if problem is None else problem_from_json(problem),
                Damage([problem_from_json(item) for item in named], count),
            )
        except ValueError:
            return None


def _problem_json(problem: Problem | None) -> dict[str, Any] | None:
    return None if problem is None else problem_to_json(problem)


def _cached_entry(entry: Any) -> dict[str, Any] | None:
    """A cache entry fit to use, or None."""
    if (
        isinstance(entry, dict)
        and isinstance(entry.get("key"), list)
        and isinstance(entry.get("games"), list)
        and isinstance(entry.get("problems"), list)
    ):
        try:
            for problem in entry["problems"]:
                problem_from_json(problem)
        except ValueError:
            return None
        return entry
    return None


def _resume_point(path: Path, key: list[int], entry: dict[str, Any] | None) -> _ReadPoint | None:
    """Where to go on reading a file that changed since ``entry`` (None: not cached):
    after the part summarized before when the file still starts with it, else
    None (the file is read again from its start)."""
    if entry is not None:
        point = _ReadPoint.from_json(entry.get("resume"))
        if (
            point is not None
            and point.offset <= key[0]
            and prefix_fingerprint(path, point.offset) == entry["resume"].get("fingerprint")
        ):
            return point
    return None


def _read_files(starts: list[tuple[Path, list[int], _ReadPoint]], parallel: bool) -> list[FileReading]:
    """Each file's games from its point on (the files' sizes in their keys), read in
    spans by as many processes as pay (see ``game.persistence.stats_spans``) when ``parallel``."""
    total = sum(max(0, key[0] - point.offset) for _, key, point in starts)
    workers = worker_count(total) if parallel else 1
    plans = [
        plan_spans(
            path,
            point.offset,
            point.line,
            key[0],
            math.ceil(workers * SPANS_PER_WORKER * (key[0] - point.offset) / total),
        )
        if workers > 1
        else [Span(str(path), point.offset, None, point.line)]
        for path, key, point in starts
    ]
    results = iter(summarize_spans([span for plan in plans for span in plan], summarize, workers))
    return [
        stitch(
            path,
            [next(results) for _ in plan],
            point.records,
            point.offset,
            point.line,
            point.game_problem,
            point.damage,
        )
        for (path, _, point), plan in zip(starts, plans)
    ]


def _new_entry(path: Path, key: list[int], kept: list[Any], reading: FileReading) -> dict[str, Any]:
    """The cache entry of a file: the games kept from the cache, then those just read."""
    for summary in reading.summaries:
        summary.pop("source", None)  # the cache names the file once, not per game
    fingerprint = prefix_fingerprint(path, reading.end_offset)
    after = _ReadPoint(reading.end_offset, reading.next_line, reading.records, reading.game_problem, reading.damage)
    # Every damaged line skipped (the first few named), then a torn last line, then the
    # last game that could not be summarized: each is one line of the statistics' warning.
    problems = [reading.stopped] if reading.stopped is not None else []
    problems += reading.damage.problems(str(path))
    problems += [problem for problem in (reading.torn, reading.game_problem) if problem is not None]
    return {
        "key": key,
        "games": kept + reading.summaries,
        "problems": [problem_to_json(problem) for problem in problems],
        "resume": None if fingerprint is None else after.to_json(fingerprint),
    }


#: The cache is ignored when it is larger than this and than the histories it summarizes
#: (a summary is a small part of its game): it is damaged, or no cache of ours.
CACHE_MIN_LIMIT = 1024 * 1024


def _read_cache(cache_path: Path | None, histories_size: int) -> dict[str, Any]:
    """The files a cache keeps; nothing when there is no cache, or a damaged one (it is
    only a shortcut, so the statistics are built again and the cache written anew)."""
    if cache_path is None:
        return {}
    limit = max(CACHE_MIN_LIMIT, histories_size)
    try:
        # Only an ordinary file is read, and no further than the limit: a device or a pipe in its
        # place (opening a pipe waits for a writer, forever) cannot hold the statistics up or fill memory.
        with open_regular_file(cache_path) as handle:
            raw = handle.read(limit + 1)
    except OSError:
        return {}
    if len(raw) > limit:
        log.warning("the statistics cache %s is larger than the histories it summarizes; built again", cache_path)
        return {}
    try:
        data = json.loads(raw.decode("utf-8"))
    except (ValueError, RecursionError):
        log.warning("the statistics cache %s cannot be read; built again", cache_path)
        return {}
    if not isinstance(data, dict) or data.get("format") != CACHE_FORMAT or data.get("version") != SUMMARY_VERSION:
        return {}
    files = data.get("files")
    return files if isinstance(files, dict) else {}


def _write_cache(cache_path: Path, files: dict[str, Any]) -> None:
    from game.settings.paths import atomic_write_text

    text = json.dumps(
        {"format": CACHE_FORMAT, "version": SUMMARY_VERSION, "files": files}, separators=(",", ":"), ensure_ascii=False
    )
    try:
        atomic_write_text(cache_path, text)
    except OSError as exc:  # a read-only or full disk costs the shortcut, never the statistics
        log.warning("could not save the statistics cache %s: %s", cache_path, exc)


def load_stats(folder: Path, cache_path: Path | None = None, parallel: bool = True) -> LoadedStats:
    """Statistics of every history file in ``folder``; ``cache_path`` keeps summaries
    of the files between runs, so that only games added since are read (None:
    read every file). ``parallel``: many games to read are shared out among
    worker processes where that pays (``game.persistence.stats_spans``); False reads them
    all in this process."""
    with _collector_paused():
        return _load_stats(folder, cache_path, parallel)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector held off while the statistics are built.

    A rebuild creates hundreds of thousands of small lists and dicts, all
    kept, and none in a reference cycle: each time enough of them pile up,
    the collector walks them all again and frees nothing (measured: an eighth
    of a cold rebuild of 10,000 games). Reference counting still frees what
    is dropped; the collector runs again as usual afterwards."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _load_stats(folder: Path, cache_path: Path | None, parallel: bool) -> LoadedStats:
    keys = {path: _file_key(path) for path in history_files(folder)}
    cached = _read_cache(cache_path, sum(key[0] for key in keys.values() if key is not None))
    fresh: dict[str, Any] = {}
    loaded = LoadedStats(StatsBook())
    changed: list[tuple[Path, list[int], _ReadPoint]] = []
    kept_games: list[list[Any] | None] = []  # per changed file: the cached games kept, None: read again whole
    for path, key in keys.items():
        if key is None:
            continue
        entry = _cached_entry(cached.get(str(path)))
        fresh[str(path)] = entry
        if entry is None or entry["key"] != key:
            point = _resume_point(path, key, entry)
            changed.append((path, key, point or _ReadPoint()))
            kept_games.append(None if point is None or entry is None else list(entry["games"]))
    for (path, key, point), kept, reading in zip(changed, kept_games, _read_files(changed, parallel)):
        fresh[str(path)] = _new_entry(path, key, kept or [], reading)
        loaded.read_again += 1
        loaded.resumed += kept is not None
        loaded.games_read += reading.records - point.records
    # Written before the games are counted, which names each game's file in its summary.
    if cache_path is not None and (loaded.read_again or set(fresh) != set(cached)):
        _write_cache(Path(cache_path), fresh)
    for name, entry in fresh.items():
        loaded.files += 1
        loaded.problems.extend(problem_from_json(problem) for problem in entry["problems"])
        for summary in entry["games"]:
            try:
                summary["source"] = name
                loaded.book.add(summary)
            except (KeyError, TypeError, ValueError, IndexError) as exc:
                where = summary.get("index", "?") if isinstance(summary, dict) else "?"
                loaded.problems.append(
                    Problem("stats.not_counted", {"source": name, "number": where, "detail": str(exc)})
                )
    loaded.book.problems = loaded.problems
    return loaded


def stats_cache_path(data_dir: Path) -> Path:
    """Where the summary cache lives: beside the history folder, not in it."""
    return Path(data_dir) / "stats_cache.json"
