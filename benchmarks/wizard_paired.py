"""Settings of the hard Wizard player compared round by round on the same cards.

Run ``python -m benchmarks.wizard_paired --base sims=200 --variant sims=400 [--variant ...] [--seeds 1401-1412]
[--jobs 2]``.
"""

from __future__ import annotations

# The tournament (``benchmarks.ai``) plays whole games, so two settings of one player differ by the luck of
# every round their different choices lead to, and a difference of one or two points a round hides in an
# interval of ±2. This comparison removes most of that luck:
#
# * Each seed's game is dealt and played by four medium players, only to reach each round's deal (a
#   Wizard round's cards come from the seed and the round number alone, and nothing a player does within a
#   round depends on the game score, so the round is the same whoever played the ones before).
# * Every round is then played from its deal once for each seat with the hard player in that seat and
#   medium players in the others: once with the base setting and once with each variant.
# * Every decision draws on its own RNG, seeded by the seed, the round, the seat and the decision's number,
#   and the search's time cap reads CPU time, not the wall clock. So the two plays of a round are identical
#   up to the first decision the settings make differently, and other work on the machine changes nothing
#   but a decision cut short by the time cap.
#
# For each setting it prints the share of bids hit and the hard seat's points a round over the mean of the
# three medium seats of the same round; then each variant's gain over the base with its 95% confidence
# interval, counting the four seats of one deal as one sample (they share the cards), and how many rounds
# came out differently; and each setting's CPU time a decision (median, 95th percentile, maximum) and
# simulations a searched decision (mean, median).
#
# A setting is comma-separated ``key=value`` pairs: ``sims`` (simulations a decision) and ``seconds`` (CPU-time
# cap a decision), by default the player's own budget; ``spoil``, how much the medium seats' mean score counts
# against the hard seat's own in a simulation (default ``hard.SPOIL_WEIGHT``); ``play_z``, the standard errors
# of gain a card needs to replace the medium player's card (default that of bids, 0); ``play_fit``, how many
# bid-fitted worlds card play draws per world to explain the cards played (default
# ``wizard_worlds.PLAY_FIT_TRIES``, 1 for none). Twelve seeds are 180
# deals and 720 rounds, each played once per setting: 200 against 400 simulations took 24 minutes with
# ``--jobs 2`` on two cores, and the interval on the gain came out at about ±2 points a round.
# Figures are printed, never asserted.

import argparse
import dataclasses
import hashlib
import multiprocessing
import platform
import random
import statistics
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from benchmarks.ai import estimate, percentile
from game.ai.budget import DEFAULT_BUDGET, SearchBudget
from game.ai.hard import SPOIL_WEIGHT, WizardHardPlayer
from game.ai.search_pimc import HAND_ENDS
from game.ai.wizard_medium import WizardMediumPlayer
from game.ai.wizard_worlds import PLAY_FIT_TRIES
from game.rules import GameState, Phase, make_rules, new_game
from game.rules.actions import NEXT_DEAL

PLAYERS = 4


@dataclass(frozen=True)
class Setting:
    """One setting of the hard player: its search budget (the time cap read as CPU time), how much the
    other seats' scores count against its own, the deviation threshold of its card play, and how many
    worlds its card play draws to explain the cards played."""

    budget: SearchBudget = DEFAULT_BUDGET
    spoil_weight: float = SPOIL_WEIGHT
    play_deviation_z: float = WizardHardPlayer.deviation_z
    play_fit_tries: int = PLAY_FIT_TRIES

    @classmethod
    def parse(cls, text: str) -> Setting:
        setting, budget = cls(), dict[str, Any]()
        for pair in filter(None, text.split(",")):
            key, _, value = pair.partition("=")
            if key in BUDGET_KEYS:
                field, kind = BUDGET_KEYS[key]
                budget[field] = kind(value)
            elif key in PLAYER_KEYS:
                field, kind = PLAYER_KEYS[key]
                setting = dataclasses.replace(setting, **{field: kind(value)})
            else:
                raise SystemExit(f"unknown setting {key!r} in {text!r} (known: {', '.join(SETTING_KEYS)})")
        if setting.spoil_weight < 0 or setting.play_deviation_z < 0 or setting.play_fit_tries < 1:
            raise SystemExit(f"spoil and play_z cannot be negative, nor play_fit below 1: {text!r}")
        # SearchBudget rejects a budget no search could run on.
        return dataclasses.replace(setting, budget=dataclasses.replace(setting.budget, **budget))

    def player(self) -> WizardHardPlayer:
        return WizardHardPlayer(
            self.budget,
            clock=time.process_time,
            spoil_weight=self.spoil_weight,
            play_deviation_z=self.play_deviation_z,
            play_fit_tries=self.play_fit_tries,
        )

    def label(self) -> str:
        return (
            f"{self.budget.max_simulations} simulations, {self.budget.max_seconds:g} s CPU, "
            f"spoil {self.spoil_weight:g}, play z {self.play_deviation_z:g}, play fit {self.play_fit_tries}"
        )


# A setting's keys: (the field it sets, how its value is read).
KeyReader = tuple[str, Callable[[str], Any]]
BUDGET_KEYS: dict[str, KeyReader] = {"sims": ("max_simulations", int), "seconds": ("max_seconds", float)}
PLAYER_KEYS: dict[str, KeyReader] = {
    "spoil": ("spoil_weight", float),
    "play_z": ("play_deviation_z", float),
    "play_fit": ("play_fit_tries", int),
}
SETTING_KEYS = (*BUDGET_KEYS, *PLAYER_KEYS)


@dataclass(frozen=True)
class RoundResult:
    """The hard seat's bid and tricks, its points less the medium seats' mean, its decisions' CPU times and
    the simulations of each decision it searched."""

    bid: int
    taken: int
    lead: float
    decision_seconds: tuple[float, ...]
    simulations: tuple[int, ...] = ()

    @property
    def outcome(self) -> tuple[int, int, float]:
        """What the round came to, leaving out how long the decisions took."""
        return self.bid, self.taken, self.lead


def decision_rng(*key: object) -> random.Random:
    """An RNG for one decision, the same in every play of the round that reaches it."""
    return random.Random(int.from_bytes(hashlib.sha256(repr(key).encode()).digest()[:8], "big"))


def play_round(start: GameState, hard_seat: int, hard: WizardHardPlayer, seed: int) -> RoundResult:
    """Play one round from its deal, ``hard`` in ``hard_seat`` and the medium player elsewhere."""
    medium = WizardMediumPlayer()
    state = start.clone()
    deal = state.deal_number
    decisions = [0] * PLAYERS
    times: list[float] = []
    simulations: list[int] = []
    while state.phase not in HAND_ENDS:
        seat = state.current
        view = state.view(seat)
        rng = decision_rng(seed, deal, seat, decisions[seat])
        decisions[seat] += 1
        if seat == hard_seat:
            began = time.process_time()
            decision = hard.decide(view, rng)
            times.append(time.process_time() - began)
            action = decision.action
            if decision.search is not None:
                simulations.append(decision.search.simulations)
        else:
            action = medium.choose(view, rng)
        state.apply_in_place(action, None, check=False)
    returns = state.hand_returns()
    others = (sum(returns) - returns[hard_seat]) / (PLAYERS - 1)
    return RoundResult(
        state.bids[hard_seat],
        state.tricks_won[hard_seat],
        returns[hard_seat] - others,
        tuple(times),
        tuple(simulations),
    )


def round_starts(seed: int) -> list[GameState]:
    """Every round of the seed's game at its deal, before its first decision (reached by medium play)."""
    state, _ = new_game(make_rules("wizard", players=PLAYERS), PLAYERS, seed)
    medium, rng = WizardMediumPlayer(), random.Random(seed)
    starts: list[GameState] = []
    while not state.is_terminal:
        if state.phase == Phase.HAND_OVER:
            state.apply_in_place(NEXT_DEAL, None, check=False)
            continue
        if not starts or starts[-1].deal_number != state.deal_number:
            starts.append(state.clone())  # the deal's first decision: a trump choice or the first bid
        state.apply_in_place(medium.choose(state.view(state.current), rng), None, check=False)
    return starts


def compare_seed(job: tuple[int, Sequence[Setting]]) -> list[tuple[RoundResult, ...]]:
    """The results of every round and seat of one seed (deal by deal, seat by seat), one per setting."""
    seed, settings = job
    players = [setting.player() for setting in settings]
    return [
        tuple(play_round(start, seat, player, seed) for player in players)
        for start in round_starts(seed)
        for seat in range(PLAYERS)
    ]


def report(rows: Sequence[tuple[RoundResult, ...]], settings: Sequence[Setting]) -> list[str]:
    """Each setting's figures, then each variant's gain over the base (the first setting)."""
    names = ["base"] + (["variant"] if len(settings) == 2 else [f"variant {n}" for n in range(1, len(settings))])
    lines = []
    for side, (name, setting) in enumerate(zip(names, settings)):
        results = [row[side] for row in rows]
        hit = estimate([1.0 if r.bid == r.taken else 0.0 for r in results])
        lead = estimate([r.lead for r in results])
        times = [t for r in results for t in r.decision_seconds]
        simulations = [n for r in results for n in r.simulations]
        searched = (
            f"; {statistics.fmean(simulations):.0f} simulations a searched decision on average, median "
            f"{statistics.median(simulations):g}"
            if simulations
            else ""
        )
        lines.append(
            f"{name:9} {setting.label()}: bids hit {hit.text(1, 100)}%, points a round over the "
            f"medium seats {lead.text(2, signed=True)}; CPU a decision median "
            f"{statistics.median(times):.3f} s, 95th percentile {percentile(times, 0.95):.3f} s, "
            f"maximum {max(times):.3f} s{searched}"
        )
    for side in range(1, len(settings)):
        # The four seats of a deal share its cards: one sample per deal, the mean of its seats' gains.
        gains = [
            statistics.fmean(row[side].lead - row[0].lead for row in rows[i : i + PLAYERS])
            for i in range(0, len(rows), PLAYERS)
        ]
        differing = sum(1 for row in rows if row[0].outcome != row[side].outcome)
        lines.append(
            f"{names[side]} - base: {estimate(gains).text(2, signed=True)} points a round (95%, over "
            f"{len(gains)} deals); {differing} of {len(rows)} rounds came out differently"
        )
    return lines


def parse_seeds(text: str) -> list[int]:
    """``1401-1412`` or ``5,7,9``."""
    seeds: list[int] = []
    for part in text.split(","):
        first, _, last = part.partition("-")
        seeds.extend(range(int(first), int(last or first) + 1))
    return seeds


def main(argv: Iterable[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.wizard_paired", description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", default="", help="the base setting (default: the player's default budget)")
    parser.add_argument(
        "--variant",
        required=True,
        action="append",
        help="a setting to compare with it, e.g. sims=400; give it again for more variants",
    )
    parser.add_argument("--seeds", default="1401-1412", help="game seeds, e.g. 1401-1412 (default) or 5,7")
    parser.add_argument("--jobs", type=int, default=1, help="processes to play seeds in (default 1)")
    args = parser.parse_args(None if argv is None else list(argv))
    settings = [Setting.parse(args.base)] + [Setting.parse(text) for text in args.variant]
    seeds = parse_seeds(args.seeds)
    print(
        f"Python {platform.python_version()} on {platform.machine()}; {args.jobs} process(es); "
        f"seeds {args.seeds}; the hard player in each of {PLAYERS} seats against medium players",
        flush=True,
    )
    jobs = [(seed, settings) for seed in seeds]
    rows: list[tuple[RoundResult, ...]] = []
    began = time.perf_counter()

    def collect(seed_rows: list[tuple[RoundResult, ...]], done: int) -> None:
        rows.extend(seed_rows)
        print(f"  ... {done}/{len(jobs)} seeds in {(time.perf_counter() - began) / 60:.0f} min", flush=True)

    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            for done, seed_rows in enumerate(pool.imap(compare_seed, jobs), 1):
                collect(seed_rows, done)
    else:
        for done, job in enumerate(jobs, 1):
            collect(compare_seed(job), done)
    print("\n".join(report(rows, settings)))


if __name__ == "__main__":
    main()
