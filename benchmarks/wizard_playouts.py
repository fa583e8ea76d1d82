"""Card choices for Wizard play-outs compared: one seat of a policy against three medium seats.

Run ``python -m benchmarks.wizard_playouts [--policies medium,sharp,...] [--games N] [--seed S] [--jobs J]``.
"""

from __future__ import annotations

# A searching player scores each candidate by playing the round out with a fast policy
# (``search_pimc``), so a policy that makes more of its bids makes the search's scores truer. These
# policies decide in microseconds, so thousands of games measure them in a minute or two:
#
# * Each seed is one 4-player game (default rules) played four times, the policy in seat 0, 1, 2,
#   then 3 and the medium player in the other seats, every seat bidding as the medium player does.
#   A Wizard round's cards come from the seed and the round alone, so each seat's cards are played
#   once by the policy and three times by the medium player: the deal's luck cancels.
# * Printed per policy: its points a round less the medium seats' (95% interval over seeds, one
#   seed being one sample), the bids it hit against theirs, and the CPU time to play a round out
#   from its first bid with the policy in every seat (``play_out``, as the search does).
#
# The medium policy against itself plays the same games as the medium seats, so it shows +0 exactly.
# Figures are printed, never asserted.

import argparse
import multiprocessing
import platform
import random
import statistics
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from game.ai.wizard_medium import WizardMediumPlayer, WizardTable, card_to_play
from game.ai.wizard_rollout import WizardRolloutPlayer
from game.ai.wizard_sharp import SHARP_SAFE_ENOUGH, SharpWizardRolloutPlayer, sharp_card_to_play
from game.rules import GameState, Phase, make_rules, new_game
from game.rules.actions import NEXT_DEAL, play
from game.rules.cards import WIZARD

PLAYERS = 4

# A policy's card: (what the seat knows, the hand it holds) -> card.
CardPolicy = Callable[[WizardTable, list[int]], int]


def _wizard_now_only(table: WizardTable, hand: list[int]) -> int:
    """The sharp policy's first mend alone: the medium player's threshold kept."""
    need = table.predictions[table.seat] - table.tricks_won[table.seat]
    if 0 < need <= hand.count(WIZARD) and WIZARD not in table.trick_cards:
        return WIZARD
    return card_to_play(table)


POLICIES: dict[str, CardPolicy] = {
    "medium": lambda table, hand: card_to_play(table),
    "sharp": lambda table, hand: sharp_card_to_play(table, hand.count(WIZARD)),
    "wizard-now": _wizard_now_only,
    "try-from-50": lambda table, hand: card_to_play(table, SHARP_SAFE_ENOUGH),
}
# The play-out players whose speed is timed, by policy (the others have no player of their own).
PLAY_OUT_PLAYERS: dict[str, Callable[[], WizardRolloutPlayer]] = {
    "medium": WizardRolloutPlayer,
    "sharp": SharpWizardRolloutPlayer,
}


@dataclass(frozen=True)
class SeedResult:
    """One seed's four games: the policy's points a round less the medium seats', and the bids hit."""

    lead: float
    policy_hits: float
    medium_hits: float


def play_seed(seed: int, policy: CardPolicy) -> SeedResult:
    """The seed's game four times, ``policy`` choosing the cards of seat 0, 1, 2 and then 3."""
    rules = make_rules("wizard", players=PLAYERS)
    medium = WizardMediumPlayer()
    own = [0, 0, 0]  # points, rounds, hits of the policy's seat
    others = [0, 0, 0]
    for policy_seat in range(PLAYERS):
        state, _ = new_game(rules, PLAYERS, seed)
        rng = random.Random(seed * 8 + policy_seat)
        while not state.is_terminal:
            if state.phase == Phase.HAND_OVER:
                state.apply_in_place(NEXT_DEAL, None, check=True)
                continue
            seat = state.current
            view = state.view(seat)
            if state.phase == Phase.PLAY and seat == policy_seat:
                action = play(policy(WizardTable.from_view(view), list(view.hand)))
            else:
                action = medium.choose(view, rng)
            state.apply_in_place(action, None, check=True)  # an illegal card stops the run
        for bids, taken, change in state.history:
            for seat in range(PLAYERS):
                tally = own if seat == policy_seat else others
                tally[0] += change[seat]
                tally[1] += 1
                tally[2] += int(bids[seat] == taken[seat])
    # One division of whole numbers: a policy that plays as the medium seats leads by exactly 0.
    lead = (own[0] * others[1] - others[0] * own[1]) / (own[1] * others[1])
    return SeedResult(lead, own[2] / own[1], others[2] / others[1])


def _play_seed_job(job: tuple[int, str]) -> SeedResult:
    seed, name = job
    return play_seed(seed, POLICIES[name])


def round_starts(seeds: Iterable[int]) -> list[GameState]:
    """Each round of each seed's medium game at its first decision: where a play-out is timed from."""
    medium, starts = WizardMediumPlayer(), []
    for seed in seeds:
        state, _ = new_game(make_rules("wizard", players=PLAYERS), PLAYERS, seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            if state.phase == Phase.HAND_OVER:
                state.apply_in_place(NEXT_DEAL, None, check=False)
                continue
            if not starts or starts[-1].deal_number != state.deal_number:
                starts.append(state.clone())
            state.apply_in_place(medium.choose(state.view(state.current), rng), None, check=False)
    return starts


def play_out_ms(player: WizardRolloutPlayer, starts: Sequence[GameState], repeats: int = 3) -> float:
    """The CPU milliseconds to play a round out from its first decision, every seat ``player``
    (the best of ``repeats`` passes over ``starts``, a mean over rounds 1 to 15)."""
    best = float("inf")
    for _ in range(repeats):
        states = [start.clone() for start in starts]
        began = time.process_time()
        for index, state in enumerate(states):
            player.play_out(state, random.Random(index))
        best = min(best, time.process_time() - began)
    return best / len(starts) * 1000


def report_line(name: str, results: Sequence[SeedResult]) -> str:
    leads = [result.lead for result in results]
    half = 1.96 * statistics.stdev(leads) / len(leads) ** 0.5 if len(leads) > 1 else float("nan")
    hits = statistics.mean(result.policy_hits for result in results)
    medium_hits = statistics.mean(result.medium_hits for result in results)
    return (
        f"{name:<12} {statistics.mean(leads):+6.2f} ± {half:.2f} points a round over the medium seats; "
        f"bids hit {hits:.1%} against {medium_hits:.1%}"
    )


def main(argv: Iterable[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--policies", default=",".join(POLICIES), help=f"comma-separated, of {', '.join(POLICIES)}")
    parser.add_argument("--games", type=int, default=800, help="seeds (4 games each) per policy (default 800)")
    parser.add_argument("--seed", type=int, default=5000, help="the first seed (default 5000)")
    parser.add_argument("--jobs", type=int, default=2, help="processes (default 2)")
    args = parser.parse_args(list(argv) if argv is not None else None)
    names = [name for name in args.policies.split(",") if name]
    unknown = [name for name in names if name not in POLICIES]
    if unknown or not names:
        parser.error(f"unknown policies {unknown}: choose among {', '.join(POLICIES)}")
    if args.games < 1 or args.jobs < 1:
        parser.error("--games and --jobs must be at least 1")
    print(f"Machine: {platform.platform()}; {multiprocessing.cpu_count()} logical processors; ", end="")
    print(f"Python {platform.python_version()}")
    print(f"{args.games} seeds from {args.seed} on, 4 games each, a policy's seat against three medium seats")
    seeds = range(args.seed, args.seed + args.games)
    with multiprocessing.Pool(args.jobs) as pool:
        for name in names:
            print(report_line(name, pool.map(_play_seed_job, [(seed, name) for seed in seeds])), flush=True)
    starts = round_starts(range(args.seed, args.seed + 4))
    for name, make in PLAY_OUT_PLAYERS.items():
        if name in names:
            print(f"play-out, every seat {name}: {play_out_ms(make(), starts):.2f} ms CPU a round (rounds 1 to 15)")


if __name__ == "__main__":
    main()
