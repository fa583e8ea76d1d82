"""Two settings of the hard Wizard player compared round by round on the same cards.

Run ``python -m benchmarks.wizard_paired --base sims=200 --variant sims=400 [--seeds 1401-1412] [--jobs 2]``.

The tournament (``benchmarks.ai``) plays whole games, so two settings of one player differ by the luck of
every round their different choices lead to, and a difference of one or two points a round hides in an
interval of ±2. This comparison removes most of that luck:

* Each seed's game is dealt and played by four medium players, only to reach each round's deal (a
  Wizard round's cards come from the seed and the round number alone, and nothing a player does within a
  round depends on the game score, so the round is the same whoever played the ones before).
* Every round is then played from its deal once for each seat with the hard player in that seat and
  medium players in the others: once with the base setting and once with the variant.
* Every decision draws on its own RNG, seeded by the seed, the round, the seat and the decision's number,
  and the search's time cap reads CPU time, not the wall clock. So the two plays of a round are identical
  up to the first decision the settings make differently, and other work on the machine changes nothing
  but a decision cut short by the time cap.

For each setting it prints the share of bids hit and the hard seat's points a round over the mean of the
three medium seats of the same round; then the variant's gain over the base with its 95% confidence
interval, counting the four seats of one deal as one sample (they share the cards), and how many rounds
came out differently; and each setting's CPU time a decision (median, 95th percentile, maximum).

A setting is comma-separated ``key=value`` pairs: ``sims`` (simulations a decision, default the player's
own), ``seconds`` (CPU-time cap a decision, default the player's own). Twelve seeds are 180 deals and 720
rounds, each played once per setting: 200 against 400 simulations took 24 minutes with ``--jobs 2`` on two
cores, and the interval on the gain came out at about ±2 points a round.
Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import multiprocessing
import platform
import random
import statistics
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from benchmarks.ai import estimate, percentile
from game.ai.budget import DEFAULT_BUDGET, SearchBudget
from game.ai.hard import WizardHardPlayer
from game.ai.search_pimc import HAND_ENDS
from game.ai.wizard_medium import WizardMediumPlayer
from game.rules import GameState, Phase, make_rules, new_game
from game.rules.actions import NEXT_DEAL

PLAYERS = 4


@dataclass(frozen=True)
class Setting:
    """One setting of the hard player: its search budget (the time cap read as CPU time)."""

    budget: SearchBudget = DEFAULT_BUDGET

    @classmethod
    def parse(cls, text: str) -> Setting:
        budget = DEFAULT_BUDGET
        for pair in filter(None, text.split(",")):
            key, _, value = pair.partition("=")
            if key == "sims":
                budget = dataclasses.replace(budget, max_simulations=int(value))   # checked by SearchBudget
            elif key == "seconds":
                budget = dataclasses.replace(budget, max_seconds=float(value))
            else:
                raise SystemExit(f"unknown setting {key!r} in {text!r} (known: sims, seconds)")
        return cls(budget)

    def player(self) -> WizardHardPlayer:
        return WizardHardPlayer(self.budget, clock=time.process_time)

    def label(self) -> str:
        return f"{self.budget.max_simulations} simulations, {self.budget.max_seconds:g} s CPU"


@dataclass(frozen=True)
class RoundResult:
    """The hard seat's bid and tricks, its points less the medium seats' mean, and its decisions' CPU times."""

    bid: int
    taken: int
    lead: float
    decision_seconds: tuple[float, ...]


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
    while state.phase not in HAND_ENDS:
        seat = state.current
        view = state.view(seat)
        rng = decision_rng(seed, deal, seat, decisions[seat])
        decisions[seat] += 1
        if seat == hard_seat:
            began = time.process_time()
            action = hard.choose(view, rng)
            times.append(time.process_time() - began)
        else:
            action = medium.choose(view, rng)
        state.apply_in_place(action, None, check=False)
    returns = state.hand_returns()
    others = (sum(returns) - returns[hard_seat]) / (PLAYERS - 1)
    return RoundResult(state.bids[hard_seat], state.tricks_won[hard_seat], returns[hard_seat] - others,
                       tuple(times))


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
            starts.append(state.clone())   # the deal's first decision: a trump choice or the first bid
        state.apply_in_place(medium.choose(state.view(state.current), rng), None, check=False)
    return starts


def compare_seed(job: tuple[int, Setting, Setting]) -> list[tuple[RoundResult, RoundResult]]:
    """(base, variant) results of every round and seat of one seed, deal by deal, seat by seat."""
    seed, base, variant = job
    base_player, variant_player = base.player(), variant.player()
    return [(play_round(start, seat, base_player, seed), play_round(start, seat, variant_player, seed))
            for start in round_starts(seed) for seat in range(PLAYERS)]


def report(pairs: Sequence[tuple[RoundResult, RoundResult]], base: Setting, variant: Setting) -> list[str]:
    lines = []
    for name, setting, side in (("base", base, 0), ("variant", variant, 1)):
        results = [pair[side] for pair in pairs]
        hit = estimate([1.0 if r.bid == r.taken else 0.0 for r in results])
        lead = estimate([r.lead for r in results])
        times = [t for r in results for t in r.decision_seconds]
        lines.append(f"{name:8} {setting.label()}: bids hit {hit.text(1, 100)}%, points a round over the "
                     f"medium seats {lead.text(2, signed=True)}; CPU a decision median "
                     f"{statistics.median(times):.3f} s, 95th percentile {percentile(times, 0.95):.3f} s, "
                     f"maximum {max(times):.3f} s")
    # The four seats of a deal share its cards: one sample per deal, the mean of its seats' gains.
    gains = [statistics.fmean(v.lead - b.lead for b, v in pairs[i:i + PLAYERS])
             for i in range(0, len(pairs), PLAYERS)]
    differing = sum(1 for b, v in pairs if (b.bid, b.taken, b.lead) != (v.bid, v.taken, v.lead))
    lines.append(f"variant - base: {estimate(gains).text(2, signed=True)} points a round (95%, over "
                 f"{len(gains)} deals); {differing} of {len(pairs)} rounds came out differently")
    return lines


def parse_seeds(text: str) -> list[int]:
    """``1401-1412`` or ``5,7,9``."""
    seeds: list[int] = []
    for part in text.split(","):
        first, _, last = part.partition("-")
        seeds.extend(range(int(first), int(last or first) + 1))
    return seeds


def main(argv: Iterable[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.wizard_paired",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", default="", help="the base setting (default: the player's default budget)")
    parser.add_argument("--variant", required=True, help="the setting to compare with it, e.g. sims=400")
    parser.add_argument("--seeds", default="1401-1412", help="game seeds, e.g. 1401-1412 (default) or 5,7")
    parser.add_argument("--jobs", type=int, default=1, help="processes to play seeds in (default 1)")
    args = parser.parse_args(None if argv is None else list(argv))
    base, variant = Setting.parse(args.base), Setting.parse(args.variant)
    seeds = parse_seeds(args.seeds)
    print(f"Python {platform.python_version()} on {platform.machine()}; {args.jobs} process(es); "
          f"seeds {args.seeds}; the hard player in each of {PLAYERS} seats against medium players", flush=True)
    jobs = [(seed, base, variant) for seed in seeds]
    pairs: list[tuple[RoundResult, RoundResult]] = []
    began = time.perf_counter()

    def collect(seed_pairs: list[tuple[RoundResult, RoundResult]], done: int) -> None:
        pairs.extend(seed_pairs)
        print(f"  ... {done}/{len(jobs)} seeds in {(time.perf_counter() - began) / 60:.0f} min", flush=True)

    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            for done, seed_pairs in enumerate(pool.imap(compare_seed, jobs), 1):
                collect(seed_pairs, done)
    else:
        for done, job in enumerate(jobs, 1):
            collect(compare_seed(job), done)
    print("\n".join(report(pairs, base, variant)))


if __name__ == "__main__":
    main()
