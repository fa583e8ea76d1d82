"""Duplicate-deal tournament between two computer levels.

Run ``python -m benchmarks.ai [--game wizard|bidwhist|all] [--levels A[@T],B[@T]] [--games N] [--seed S]
[--jobs J] [--budget-seconds T] [--simulations K] [--yardstick]``.
"""

from __future__ import annotations

# Without ``--levels`` it plays the match-ups ``expert`` vs ``baseline``, ``hard`` vs ``medium`` and ``medium``
# vs ``easy`` (those the game offers; a match-up with an unregistered level is named and skipped), plus
# ``medium`` vs ``random`` with ``--yardstick``. ``baseline`` is a level only the benchmarks know: the hard
# players as they were when Expert was begun, every setting written out in ``benchmarks/baseline.py`` and
# their decisions pinned by tests/test_ai_baseline.py, so that Expert is always measured against the same
# yardstick however ``hard`` changes later (issue 29). It may meet any registered level. ``oracle`` is the
# benchmarks' other own level: the expert's search with every world the real deal (``benchmarks/oracle.py``,
# shown the real game before each of its decisions), the ceiling of what better worlds could give the expert.
#
# The output opens with the machine (platform, ``os.cpu_count()``, the CPU model from /proc/cpuinfo where
# there is one, Python), and each match-up with each level's search budget a decision. Then one table:
#
# * Wizard, 4 players, full games, one seat of level A against three of level B: A's bid-hit rate (rounds in
#   which the tricks taken equal the bid) and B's, points per round of A and of B and their difference, and
#   A's mean final rank (1 best, ties shared);
# * Bid Whist, a team of A against a team of B: the share of games A's team wins, points per hand of each team
#   and their difference;
# * per level: the contract levels it bid in Bid Whist (bids of 1 to 7 books and passes, as shares of its
#   calls); the contracts its team declared, by the books bid (1 to 7, i.e. 7 to 13 books to take): how many,
#   made, set, and the mean points the declaring team scored on them (the rules' own scoring, read from each
#   hand's ``BidWhistHandScored``), to show overbidding at a level; how many of them its team declared
#   from behind on the score (and made), and the declaring team's mean change in its chance of winning the
#   game (``bidwhist_odds``), since a contract worth few points can still win or save a game; and its
#   decision time, on the wall clock and in CPU time (median, 95th percentile, maximum; only the player's
#   ``choose`` is timed).
#
# The searching levels' time budgets read the process's CPU time here, not the wall clock (``--wall-clock``
# for the wall clock): on a machine shared with other work a decision then still gets the simulations its
# budget buys on a core of its own, so the strength measured is the level's and not the machine's load, and
# the CPU time a decision is what the player would take on that core.
#
# Each figure carries a 95% confidence interval (normal approximation). The unit of the interval is one
# duplicate set, never one game: the games of a set share their cards, so they are not independent.
#
# How the deals are duplicated. Every deal of a game comes from the game's seed and the deal number alone
# (``seeded_rng(seed, "deal N")`` in the rules), and the dealer moves one seat left each deal whatever
# happens, so with the same seed, deal N gives every *seat* the same cards in every game, however the play
# went. That is exactly what ``new_game(..., fixed_deals=...)`` would fix, without writing the cards out. A
# duplicate set is one seed played several times with the levels seated differently:
#
# * Wizard: four games, the A player in seat 0, 1, 2, then 3. Each seat's cards of every round are played
#   once by A and three times by B, against the same cards elsewhere, so a lucky seat helps A in one game and
#   B in three, exactly A's and B's shares of all seats: the deal's luck cancels in the comparison of A's
#   per-seat figures with B's.
# * Bid Whist: two games, A's team in seats 0 and 2, then in seats 1 and 3. Each team plays both sides of
#   every deal both games reach, so strong cards favour each level once. Bid Whist games end at a score, so a
#   deal that only the longer game of a set reaches is not mirrored: the luck cancels over the deals both
#   games play, and the rest only averages out over sets.
#
# The computer players' own randomness is drawn from one ``random.Random`` per game, seeded from the set's
# seed and the seating, so a run with a fixed ``--seed`` repeats exactly (apart from time-budgeted search).
#
# Run time. Without ``--games`` a match-up plays 100 duplicate sets, or 8 when a level searches under a time budget
# (``hard``, ``baseline``, ``expert``). Medium, easy and random decide in well under a millisecond, so their match-ups
# take seconds. A budgeted level spends up to its budget on each decision: about 540 decisions of one seat per Wizard
# set and 240 of a team per Bid Whist set, i.e. up to about 160 s and 70 s a set at hard's and the baseline's 0.3 s. The
# forecast reads each level's budget from its own player (``budget.max_seconds``, or the command line's
# ``--budget-seconds``, or a level's own time written ``--levels expert@2.7,baseline``, which sets that level's alone
# and names it so in the tables), so Expert's (up to 1 s a decision) counts as it is: one expert against three baseline
# seats is up to about 17 min a Wizard set, an expert team against a baseline team up to about 5 min a Bid Whist set.
# The program prints that forecast before a budgeted match-up and the time left every 30 s or so. The full ``hard``
# measurement of issue 8 takes about 1.5 h for Wizard and 2 h for Bid Whist on 2 cores (``--jobs 2`` gives each process
# one core, so the decision times stay one-core figures); issue 29's Expert measurement, Wizard (A - B points a round,
# goal at least +5) and Bid Whist (games won by Expert's team, goal at least 60%), at most about 4.5 h each::
#
#     python -m benchmarks.ai --game wizard --levels hard,medium --games 60 --jobs 2
#     python -m benchmarks.ai --game bidwhist --levels hard,medium --games 200 --jobs 2
#     python -m benchmarks.ai --levels medium,easy --games 400 --jobs 2
#     python -m benchmarks.ai --game wizard --levels expert,baseline --games 32 --jobs 2
#     python -m benchmarks.ai --game bidwhist --levels expert,baseline --games 100 --jobs 2
#
# (Bid Whist needs more sets: a set's win share is 0, 1/2 or 1, so 200 sets bound it to about ±5 points and
# 100 to about ±7, enough to tell 60% from 50%.)
#
# Figures are printed, never asserted: the machines are shared and noisy.

import argparse
import dataclasses
import math
import multiprocessing
import os
import platform
import random
import signal
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.baseline import BASELINE, baseline_factories
from benchmarks.oracle import ORACLE, oracle_factories
from game.ai import ComputerPlayer, levels, make_player
from game.ai.bidwhist_odds import chance_to_win, game_odds
from game.rules import (
    Action,
    ActionKind,
    GameDef,
    Phase,
    get_game,
    make_rules,
    new_game,
)
from game.rules.actions import NEXT_DEAL
from game.rules.bidwhist import BidWhistState, books_needed
from game.rules.engine import GameState
from game.rules.events import BidWhistHandScored, GameEvent
from game.rules.wizard import WizardState

WIZARD_PLAYERS = 4
BIDWHIST_PLAYERS = 4
DEFAULT_MATCHUPS = (("expert", BASELINE), ("hard", "medium"), ("medium", "easy"))
# The benchmarks' own levels, never offered in the game's menus: the frozen baseline, and the oracle that
# peeks at the real deal (issue 29's ceiling for better worlds). Level -> its factories by game.
BENCHMARK_LEVELS: dict[str, Callable[[], Mapping[str, Callable[..., ComputerPlayer]]]] = {
    BASELINE: baseline_factories,
    ORACLE: oracle_factories,
}
YARDSTICK = ("medium", "random")
DEFAULT_SETS = 100
DEFAULT_SEARCH_SETS = 8
Z_95 = 1.959964  # two-sided 95% quantile of the normal distribution
# Rough decisions per seat in a Bid Whist game (3 to 5 hands of 12 plays, 1-2 calls and, for a
# declarer, the trump and six discards), used only to forecast the run time of a budgeted level.
BIDWHIST_DECISIONS_PER_SEAT = 60


@dataclass(frozen=True)
class LevelSpec:
    """A level to build in each process, with the search budget asked for on the command line (if any)."""

    level: str
    budget_seconds: float | None = None
    simulations: int | None = None
    wall_clock: bool = False  # the search's deadline reads the wall clock, not the process's CPU time
    label: str | None = None  # as ``--levels`` named it when it gave the level a time of its own ("expert@2.7")

    @property
    def budgeted(self) -> bool:
        return self.budget_seconds is not None or self.simulations is not None

    @property
    def name(self) -> str:
        """The level as the tables name it (and count its decisions and contracts under)."""
        return self.label or self.level


def level_and_seconds(token: str) -> tuple[str, float | None]:
    """A ``--levels`` entry: a level, with a thinking time of its own after ``@`` ("expert@2.7")."""
    level, at, seconds = token.partition("@")
    if not at:
        return token, None
    try:
        value = float(seconds)
    except ValueError:
        value = 0.0
    if not level or not (math.isfinite(value) and value > 0):
        raise SystemExit(f"--levels: {token!r} is not LEVEL@SECONDS with a positive number of seconds")
    return level, value


def known_levels(game_def: GameDef) -> tuple[str, ...]:
    """The levels a match-up may name: the registry's, then the benchmarks' own (``BENCHMARK_LEVELS``) where
    the game has them."""
    own = tuple(name for name, factories in BENCHMARK_LEVELS.items() if game_def.name in factories())
    return levels(game_def) + own


def make_level_player(game_def: GameDef, level: str, budget: Any = None) -> ComputerPlayer:
    """The player of ``level``: a benchmarks' own level (``BENCHMARK_LEVELS``) or the registry's, built with
    ``budget`` when given (a searching player's factory takes ``budget=``, as ``make_player`` passes it)."""
    factories = BENCHMARK_LEVELS.get(level)
    own = factories().get(game_def.name) if factories is not None else None
    if own is not None:
        return own(budget)
    return make_player(game_def, level, budget)


def build_player(game_def: GameDef, spec: LevelSpec) -> ComputerPlayer:
    """The player of ``spec.level``, rebuilt with the requested search budget if one is given.

    A budgeted level's factory takes ``budget=SearchBudget(...)`` (game/ai/budget.py); the default player's
    ``budget`` supplies whichever of the two limits the command line leaves out."""
    player = on_clock(make_level_player(game_def, spec.level), spec)
    if not spec.budgeted:
        return player
    default_budget: Any = getattr(player, "budget", None)
    if default_budget is None or not dataclasses.is_dataclass(default_budget):
        raise SystemExit(f"the {spec.level!r} player of {game_def.name} has no search budget to set")
    changes: dict[str, Any] = {}
    if spec.budget_seconds is not None:
        changes["max_seconds"] = spec.budget_seconds
    if spec.simulations is not None:
        changes["max_simulations"] = spec.simulations
    fields = {f.name for f in dataclasses.fields(default_budget)}
    if not set(changes) <= fields:
        limits = " and ".join(sorted(set(changes) - fields))
        raise SystemExit(f"the {spec.level!r} player of {game_def.name} has no {limits} to set")
    return on_clock(make_level_player(game_def, spec.level, dataclasses.replace(default_budget, **changes)), spec)


def on_clock(player: ComputerPlayer, spec: LevelSpec) -> ComputerPlayer:
    """``player``, its thinking time read from the process's CPU time unless ``spec`` asks for the wall
    clock: a busy machine then gives a searching player fewer seconds of wall time, not fewer simulations."""
    if not spec.wall_clock and hasattr(player, "clock"):
        player.clock = time.process_time
    return player


def budget_seconds_of(game_def: GameDef, spec: LevelSpec) -> float | None:
    """The most time one decision of ``spec`` may take, or None for a level without a time budget."""
    budget: Any = getattr(build_player(game_def, spec), "budget", None)
    seconds = getattr(budget, "max_seconds", None)
    return float(seconds) if isinstance(seconds, (int, float)) else None


def budget_text(game_def: GameDef, spec: LevelSpec) -> str:
    """``spec``'s search budget a decision, as the table's header names it."""
    budget: Any = getattr(build_player(game_def, spec), "budget", None)
    seconds = getattr(budget, "max_seconds", None)
    simulations = getattr(budget, "max_simulations", None)
    if seconds is None and simulations is None:
        return f"{spec.name} no search"
    limits = []
    if simulations is not None:
        limits.append(f"{simulations} simulations")
    if seconds is not None:
        limits.append(f"{seconds:g} s")
    return f"{spec.name} {' or '.join(limits)}"


@dataclass
class ContractTally:
    """Bid Whist: the contracts one level's team declared at one bid, and what they scored it."""

    declared: int = 0
    made: int = 0
    points: int = 0  # the declaring team's score change over these hands (negative when set)
    behind: int = 0  # of these, declared by a team behind on the score as the hand began
    behind_made: int = 0
    # The declaring team's chance of winning the game after the hand less before it, summed over the
    # ``chance_counted`` contracts whose target ``bidwhist_odds`` tabulates (the expert's own measure).
    chance_gain: float = 0.0
    chance_counted: int = 0

    def add(self, other: ContractTally) -> None:
        for tallied in dataclasses.fields(self):  # every field is a sum
            setattr(self, tallied.name, getattr(self, tallied.name) + getattr(other, tallied.name))


@dataclass
class SetResult:
    """What one duplicate set (one seed, every seating) measured. Sums, so sets can be pooled."""

    games: int = 0
    a_rounds: int = 0  # Wizard: seat-rounds played by A (Bid Whist: hands played)
    b_rounds: int = 0  # Wizard: seat-rounds played by B
    a_hits: int = 0
    b_hits: int = 0
    a_points: int = 0  # Wizard: points of A's seat-rounds; Bid Whist: A team's points over all hands
    b_points: int = 0
    a_rank: float = 0.0  # Wizard: sum of A's final ranks
    a_wins: int = 0  # Bid Whist: games A's team won
    calls: dict[str, Counter[int]] = field(default_factory=dict)  # level -> books bid (0 = pass) -> count
    times: dict[str, list[float]] = field(default_factory=dict)  # level -> seconds per decision
    cpu_times: dict[str, list[float]] = field(default_factory=dict)  # level -> CPU seconds per decision
    # Bid Whist: level of the declarer -> books bid (1 to 7) -> its contracts
    contracts: dict[str, dict[int, ContractTally]] = field(default_factory=dict)


def _decide(player: ComputerPlayer, state: GameState, level: str, rng: random.Random, result: SetResult) -> Action:
    view = state.view(state.current)
    peek = getattr(player, "peek", None)  # the oracle (benchmarks.oracle) alone is shown the real game
    if peek is not None:
        peek(state)
    start, cpu_start = time.perf_counter(), time.process_time()
    action = player.choose(view, rng)
    result.cpu_times.setdefault(level, []).append(time.process_time() - cpu_start)
    result.times.setdefault(level, []).append(time.perf_counter() - start)
    return action


def play_game(
    state: GameState,
    seats: Sequence[ComputerPlayer],
    seat_levels: Sequence[str],
    rng: random.Random,
    result: SetResult,
    on_hand_over: Callable[[GameState], None] | None = None,
    on_event: Callable[[GameEvent], None] | None = None,
) -> None:
    """Play ``state`` to its end; ``apply_in_place`` checks every action, so an illegal one stops the run.
    ``on_event`` sees every event the players' actions cause (none are built without it)."""
    while not state.is_terminal:
        if state.phase == Phase.HAND_OVER:
            if on_hand_over is not None:
                on_hand_over(state)
            state.apply_in_place(NEXT_DEAL, None, True)
            continue
        seat = state.current
        action = _decide(seats[seat], state, seat_levels[seat], rng, result)
        if action.kind in (ActionKind.BID, ActionKind.PASS):
            books = action.value if action.kind == ActionKind.BID else 0
            result.calls.setdefault(seat_levels[seat], Counter())[books] += 1
        if on_event is None:
            state.apply_in_place(action, None, True)
        else:
            events: list[GameEvent] = []
            state.apply_in_place(action, events, True)
            for event in events:
                on_event(event)
    if on_hand_over is not None:
        on_hand_over(state)


def _ranks(scores: Sequence[int]) -> list[float]:
    """Rank 1 for the highest score; tied seats share the mean of the ranks they span."""
    return [1 + sum(o > s for o in scores) + (sum(o == s for o in scores) - 1) / 2 for s in scores]


def play_wizard_set(a: LevelSpec, b: LevelSpec, seed: int) -> SetResult:
    """Four games of one seed, A in seat 0, 1, 2 and 3 in turn, B in the other seats."""
    game_def = get_game("wizard")
    rules = make_rules("wizard")
    player_a, player_b = build_player(game_def, a), build_player(game_def, b)
    result = SetResult()
    for a_seat in range(WIZARD_PLAYERS):
        seat_levels = [a.name if s == a_seat else b.name for s in range(WIZARD_PLAYERS)]
        seats = [player_a if s == a_seat else player_b for s in range(WIZARD_PLAYERS)]
        state, _ = new_game(rules, WIZARD_PLAYERS, seed)
        assert isinstance(state, WizardState)
        play_game(state, seats, seat_levels, random.Random(seed * 8 + a_seat), result)
        result.games += 1
        for bids, taken, change in state.history:
            for s in range(WIZARD_PLAYERS):
                hit = int(bids[s] == taken[s])
                if s == a_seat:
                    result.a_rounds += 1
                    result.a_hits += hit
                    result.a_points += change[s]
                else:
                    result.b_rounds += 1
                    result.b_hits += hit
                    result.b_points += change[s]
        result.a_rank += _ranks(state.returns())[a_seat]
    return result


def play_bidwhist_set(a: LevelSpec, b: LevelSpec, seed: int) -> SetResult:
    """Two games of one seed: A's team in seats 0 and 2, then in seats 1 and 3."""
    game_def = get_game("bidwhist")
    rules = make_rules("bidwhist")
    target = rules.target_score
    odds = game_odds(target, rules.notrump_multiplier, rules.boston)
    player_a, player_b = build_player(game_def, a), build_player(game_def, b)
    result = SetResult()
    for a_team in (0, 1):
        team_of = [game_def.team_of(s) for s in range(BIDWHIST_PLAYERS)]
        seat_levels = [a.name if team_of[s] == a_team else b.name for s in range(BIDWHIST_PLAYERS)]
        seats = [player_a if team_of[s] == a_team else player_b for s in range(BIDWHIST_PLAYERS)]
        state, _ = new_game(rules, BIDWHIST_PLAYERS, seed)
        assert isinstance(state, BidWhistState)

        def hand_over(state: GameState, a_team: int = a_team) -> None:
            """The hand just scored: what it changed for each team."""
            result.a_rounds += 1
            result.a_points += state.scores[a_team] - state.start_scores[a_team]
            result.b_points += state.scores[1 - a_team] - state.start_scores[1 - a_team]

        def scored(event: GameEvent, seat_levels: list[str] = seat_levels) -> None:
            """A contract played out: counted for the level of the seat that declared it, as the rules scored it."""
            if not isinstance(event, BidWhistHandScored) or event.contract is None or event.declarer < 0:
                return  # not a hand's score, or a hand thrown in
            level = seat_levels[event.declarer]
            tally = result.contracts.setdefault(level, {}).setdefault(event.contract.books, ContractTally())
            team = team_of[event.declarer]
            tally.declared += 1
            tally.made += int(bool(event.made))
            tally.points += event.score_change[team]
            before = state.start_scores  # the scores as this hand began (this game's state, dealt above)
            if before[team] < before[1 - team]:
                tally.behind += 1
                tally.behind_made += int(bool(event.made))
            if odds is not None:
                after = [score + change for score, change in zip(before, event.score_change)]
                tally.chance_gain += chance_to_win(odds, target, after[team], after[1 - team]) - chance_to_win(
                    odds, target, before[team], before[1 - team]
                )
                tally.chance_counted += 1

        play_game(state, seats, seat_levels, random.Random(seed * 8 + a_team), result, hand_over, scored)
        result.games += 1
        result.a_wins += int(state.winner_team == a_team)
    return result


SET_PLAYERS = {"wizard": play_wizard_set, "bidwhist": play_bidwhist_set}


def _play_set(job: tuple[str, LevelSpec, LevelSpec, int]) -> SetResult:
    game, a, b, seed = job
    return SET_PLAYERS[game](a, b, seed)


@dataclass(frozen=True)
class Estimate:
    mean: float
    half_width: float

    def text(self, digits: int = 1, scale: float = 1.0, signed: bool = False) -> str:
        sign = "+" if signed else ""
        return f"{self.mean * scale:{sign}.{digits}f} ± {self.half_width * scale:.{digits}f}"


def estimate(values: Sequence[float]) -> Estimate:
    """Mean with the half-width of its 95% normal-approximation confidence interval (0 for one value)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return Estimate(mean, 0.0)
    return Estimate(mean, Z_95 * statistics.stdev(values) / math.sqrt(len(values)))


def percentile(values: Sequence[float], share: float) -> float:
    """The nearest-rank percentile: the smallest value with at least ``share`` of the values at or below it."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def report(game: str, a: str, b: str, sets: Sequence[SetResult]) -> list[str]:
    """The table of one match-up, as lines."""
    lines = []
    games = sum(s.games for s in sets)
    if game == "wizard":
        lines.append(
            f"Wizard, {WIZARD_PLAYERS} players, full games: one {a} (A) vs three {b} (B); "
            f"{len(sets)} duplicate sets, {games} games"
        )
        rows = [
            ("bid-hit rate A (%)", estimate([s.a_hits / s.a_rounds for s in sets]).text(1, 100)),
            ("bid-hit rate B (%)", estimate([s.b_hits / s.b_rounds for s in sets]).text(1, 100)),
            ("points per round A", estimate([s.a_points / s.a_rounds for s in sets]).text(2)),
            ("points per round B", estimate([s.b_points / s.b_rounds for s in sets]).text(2)),
            (
                "A - B per round",
                estimate([s.a_points / s.a_rounds - s.b_points / s.b_rounds for s in sets]).text(2, signed=True),
            ),
            ("mean final rank A (1-4)", estimate([s.a_rank / s.games for s in sets]).text(2)),
        ]
    else:
        lines.append(f"Bid Whist: team of {a} (A) vs team of {b} (B); {len(sets)} duplicate sets, {games} games")
        rows = [
            ("games won by A (%)", estimate([s.a_wins / s.games for s in sets]).text(1, 100)),
            ("points per hand A", estimate([s.a_points / s.a_rounds for s in sets]).text(2)),
            ("points per hand B", estimate([s.b_points / s.a_rounds for s in sets]).text(2)),
            ("A - B per hand", estimate([(s.a_points - s.b_points) / s.a_rounds for s in sets]).text(2, signed=True)),
            ("hands per game", estimate([s.a_rounds / s.games for s in sets]).text(1)),
        ]
    lines += [f"  {label:<26}{value:>18}" for label, value in rows]
    for level in dict.fromkeys((a, b)):
        calls: Counter[int] = Counter()
        times: list[float] = []
        cpu_times: list[float] = []
        for s in sets:
            calls.update(s.calls.get(level, Counter()))
            times += s.times.get(level, [])
            cpu_times += s.cpu_times.get(level, [])
        if game == "bidwhist":
            total = sum(calls.values()) or 1
            shares = "  ".join(
                f"{'pass' if books == 0 else books}:{100 * calls[books] / total:.1f}%" for books in range(8)
            )
            lines.append(f"  {level} calls ({sum(calls.values())}): {shares}")
            lines += contract_lines(level, [s.contracts.get(level, {}) for s in sets])
        for what, seconds in (("decision time", times), ("CPU time a decision", cpu_times)):
            if seconds:
                lines.append(
                    f"  {level} {what} ({len(seconds)} decisions): median "
                    f"{1000 * statistics.median(seconds):.3f} ms, 95th percentile "
                    f"{1000 * percentile(seconds, 0.95):.3f} ms, max {1000 * max(seconds):.3f} ms"
                )
    return lines


def contract_lines(level: str, tallies: Iterable[dict[int, ContractTally]]) -> list[str]:
    """Bid Whist: the contracts ``level``'s team declared, by the books bid: how many, made, set, mean points,
    how many (and how many made) its team declared from behind on the score, and the mean change in the
    declaring team's chance of winning the game (``bidwhist_odds``, in percentage points; "-" when the
    target is not tabulated)."""
    pooled: dict[int, ContractTally] = {}
    for tally in tallies:
        for books, contracts in tally.items():
            pooled.setdefault(books, ContractTally()).add(contracts)
    declared = sum(t.declared for t in pooled.values())
    if not declared:
        return [f"  {level} contracts: none declared"]
    lines = [
        f"  {level} contracts declared ({declared}), by the books bid (and the books to take):",
        f"    {'bid':>5}{'books':>7}{'declared':>10}{'made':>7}{'set':>7}{'mean points':>13}"
        f"{'behind (made)':>15}{'game chance':>13}",
    ]
    for books in sorted(pooled):
        t = pooled[books]
        chance = f"{100 * t.chance_gain / t.chance_counted:+.1f}" if t.chance_counted else "-"
        lines.append(
            f"    {books:>5}{books_needed(books):>7}{t.declared:>10}{t.made:>7}{t.declared - t.made:>7}"
            f"{t.points / t.declared:>+13.2f}{f'{t.behind} ({t.behind_made})':>15}{chance:>13}"
        )
    return lines


def decisions_per_set(game: str, seats_of_level: int) -> int:
    """About how many decisions ``seats_of_level`` seats of one level make in a duplicate set."""
    if game == "wizard":
        rules: Any = make_rules("wizard")
        rounds: int = rules.round_count(WIZARD_PLAYERS)
        per_seat = rounds + rounds * (rounds + 1) // 2
        return per_seat * seats_of_level * WIZARD_PLAYERS
    return BIDWHIST_DECISIONS_PER_SEAT * seats_of_level * 2


def duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def forecast_seconds(game: str, a: LevelSpec, b: LevelSpec, sets: int, jobs: int) -> float:
    """The run time the levels' time budgets allow at most (0 when neither has one): every decision of a
    searching level taking its whole budget, as each player's own ``budget`` says (hard, expert and the
    baseline alike, or the command line's), the sets shared among the processes that can be busy."""
    game_def = get_game(game)
    seats_a = 1 if game == "wizard" else 2
    total = 0.0
    for spec, seats in ((a, seats_a), (b, 4 - seats_a)):
        seconds = budget_seconds_of(game_def, spec)
        if seconds is not None:
            total += decisions_per_set(game, seats) * seconds * sets
    return total / max(1, min(jobs, sets))


def _default_sigterm() -> None:
    """A worker process dies on SIGTERM (the pool's own way to end it), whatever its parent does with one."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def run_matchup(game: str, a: LevelSpec, b: LevelSpec, seeds: Sequence[int], jobs: int) -> list[SetResult]:
    forecast = forecast_seconds(game, a, b, len(seeds), jobs)
    if forecast:
        print(f"  (expected run time, from the search budget: up to about {duration(forecast)})", flush=True)
    work = [(game, a, b, seed) for seed in seeds]
    results: list[SetResult] = []
    start = time.perf_counter()
    last_report = [start]

    def progress(done: int) -> None:
        """Every 30 s or so of a long run, how far it got and about how long the rest will take."""
        now = time.perf_counter()
        if done < len(work) and now - last_report[0] >= 30:
            last_report[0] = now
            left = (now - start) / done * (len(work) - done)
            print(f"  ... {done}/{len(work)} sets in {duration(now - start)}, about {duration(left)} left", flush=True)

    try:
        if jobs > 1:
            with multiprocessing.Pool(jobs, initializer=_default_sigterm) as pool:
                for result in pool.imap(_play_set, work):
                    results.append(result)
                    progress(len(results))
        else:
            for job in work:
                results.append(_play_set(job))
                progress(len(results))
    except KeyboardInterrupt:
        # Stopped early (Ctrl+C, or SIGTERM: see ``main``): the sets already finished are whole
        # duplicate sets, so their table is still a fair one, only with wider intervals.
        print(f"  stopped after {len(results)} of {len(work)} sets: the table counts the finished ones", flush=True)
        if not results:
            raise
    return results


def matchups(args: argparse.Namespace) -> list[tuple[str, str]]:
    if args.levels:
        a, _, b = args.levels.partition(",")
        if not a or not b:
            raise SystemExit("--levels takes two levels, as A,B")
        return [(a, b)]
    return list(DEFAULT_MATCHUPS) + ([YARDSTICK] if args.yardstick else [])


def spec_for(token: str, args: argparse.Namespace, game_def: GameDef) -> LevelSpec:
    """The level of a ``--levels`` entry with the command line's budget if it is a level with a search budget;
    a time of its own (``expert@2.7``) comes before ``--budget-seconds`` (and needs a level that searches)."""
    level, own_seconds = level_and_seconds(token)
    if own_seconds is not None:
        return LevelSpec(level, own_seconds, args.simulations, args.wall_clock, label=token)
    plain = LevelSpec(level, wall_clock=args.wall_clock)
    if args.budget_seconds is None and args.simulations is None:
        return plain
    if getattr(make_level_player(game_def, level), "budget", None) is None:
        return plain
    return LevelSpec(level, args.budget_seconds, args.simulations, args.wall_clock)


def cpu_model(cpuinfo: Path = Path("/proc/cpuinfo")) -> str | None:
    """The processor's name as Linux reports it (x86's "model name", else an ARM board's "Hardware" or
    "Model"), or None where there is no such file or line."""
    try:
        text = cpuinfo.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    found: dict[str, str] = {}
    for line in text.splitlines():
        key, colon, value = line.partition(":")
        if colon and value.strip():
            found.setdefault(key.strip().lower(), value.strip())
    return next((found[key] for key in ("model name", "hardware", "model", "cpu model") if key in found), None)


def machine_text(cpuinfo: Path = Path("/proc/cpuinfo")) -> str:
    """The machine a run measured, for the header: the platform, the logical processors and the CPU model."""
    model = cpu_model(cpuinfo) or platform.processor() or "CPU model unknown"
    return (
        f"Machine: {platform.platform()}; {os.cpu_count() or 'unknown number of'} logical processors "
        f"(os.cpu_count); {model}; Python {platform.python_version()}"
    )


def main(argv: Iterable[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.ai", description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=("wizard", "bidwhist", "all"), default="all")
    parser.add_argument(
        "--levels",
        help=f"one match-up A,B (default: expert,{BASELINE}, hard,medium and medium,easy; {BASELINE} is the "
        "frozen hard player of benchmarks/baseline.py); LEVEL@SECONDS gives a searching level a thinking time of "
        "its own (expert@2.7,baseline)",
    )
    parser.add_argument(
        "--games",
        type=int,
        help=f"duplicate sets per match-up and game (Wizard 4 games each, Bid Whist 2; default "
        f"{DEFAULT_SETS}, or {DEFAULT_SEARCH_SETS} when a level searches)",
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the first set; set i uses seed + i")
    parser.add_argument("--jobs", type=int, default=1, help="processes to play sets in (default 1)")
    parser.add_argument("--budget-seconds", type=float, help="time budget per decision of a search level")
    parser.add_argument("--simulations", type=int, help="simulation budget per decision of a search level")
    parser.add_argument("--yardstick", action="store_true", help="also play medium vs random")
    parser.add_argument(
        "--wall-clock",
        action="store_true",
        help="searching levels' time budgets read the wall clock (default: the process's CPU time)",
    )
    args = parser.parse_args(None if argv is None else list(argv))
    before = signal.signal(signal.SIGTERM, signal.default_int_handler)  # a TERM stops a run as Ctrl+C does
    try:
        run(args)
    finally:
        signal.signal(signal.SIGTERM, before)


def run(args: argparse.Namespace) -> None:
    """The match-ups the command line asks for, each printed as its table."""
    if (args.games is not None and args.games < 1) or args.jobs < 1:
        raise SystemExit("--games and --jobs must be at least 1")
    games = ("wizard", "bidwhist") if args.game == "all" else (args.game,)
    print(machine_text())
    print(
        f"{args.jobs} process(es); duplicate sets from seed {args.seed} on; 95% confidence intervals "
        "(normal approximation over sets)"
    )
    for a, b in matchups(args):
        for game in games:
            game_def = get_game(game)
            named = [level_and_seconds(token)[0] for token in (a, b)]
            missing = [level for level in named if level not in known_levels(game_def)]
            print()
            if missing:
                print(
                    f"{game_def.name}: {a} vs {b} skipped: no {' or '.join(missing)} level registered "
                    f"(known: {', '.join(known_levels(game_def))})"
                )
                continue
            spec_a, spec_b = spec_for(a, args, game_def), spec_for(b, args, game_def)
            budgets = "; ".join(budget_text(game_def, spec) for spec in dict.fromkeys((spec_a, spec_b)))
            print(f"{game_def.name}: {a} vs {b} (budget a decision: {budgets})", flush=True)
            searching = any(budget_seconds_of(game_def, spec) is not None for spec in (spec_a, spec_b))
            count = args.games or (DEFAULT_SEARCH_SETS if searching else DEFAULT_SETS)
            seeds = [args.seed + i for i in range(count)]
            sets = run_matchup(game, spec_a, spec_b, seeds, args.jobs)
            print("\n".join(report(game, spec_a.name, spec_b.name, sets)), flush=True)


if __name__ == "__main__":
    main()
