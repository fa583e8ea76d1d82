"""Strength and speed of a computer level (default: medium) against the random one.

Run ``python -m benchmarks.ai_strength [--level L] [--bidwhist-games N] [--wizard-games N]``.
"""

from __future__ import annotations

# What it reports:
#
# * Bid Whist: how often team 0 (seats 0 and 2, the level measured) beats
#   team 1 (random), and how often declarers make their contracts when four
#   players of the level meet;
# * Wizard, 4 players: the share of rounds in which a player's bid equals the
#   tricks it took, for the measured seats (0 and 2) and random seats (1 and 3)
#   at the same table, and for a table of four measured players;
# * the mean and the slowest time per decision of the measured level, taken
#   around the player's pure ``choose(view, rng)`` only (the engine's work,
#   building the view included, is not counted).
#
# Figures are printed, never asserted: the machines are shared and noisy.

import argparse
import random
import time
from collections import Counter

from game.ai import levels
from game.rules import Phase, get_game, make_rules
from game.rules.events import BidWhistHandScored, GameOver, WizardHandScored
from game.session.match import Match, Seat


class DecisionTimer:
    """Plays matches out and accumulates the time one level spends deciding."""

    def __init__(self, level: str) -> None:
        self.level = level
        self.count = 0
        self.total = 0.0
        self.worst = 0.0

    def play_out(self, match: Match) -> None:
        while not match.is_over:
            if match.phase == Phase.HAND_OVER:
                match.next_deal()
                continue
            request = match.ai_request()
            if match.seats[request.seat].ai_level == self.level:
                # What ``request.decide()`` does, with the seeded RNG built before the
                # clock starts: seeding from the request's string costs several
                # microseconds, a sizeable share of a medium decision.
                rng = random.Random(request.rng_seed)
                start = time.perf_counter()
                action = request.player.choose(request.view, rng)
                spent = time.perf_counter() - start
                self.count += 1
                self.total += spent
                self.worst = max(self.worst, spent)
            else:
                action = request.decide()
            match.apply(action)

    @property
    def mean_ms(self) -> float:
        return 1000 * self.total / max(1, self.count)


def bidwhist_win_rate(games: int, timer: DecisionTimer) -> float:
    rules = make_rules("bidwhist")
    level = timer.level
    seats = [
        Seat(f"{level} 0", f"ai:{level}"),
        Seat("random 1", "ai:random"),
        Seat(f"{level} 2", f"ai:{level}"),
        Seat("random 3", "ai:random"),
    ]
    wins = 0
    for seed in range(games):
        match = Match(rules, seats, seed)
        timer.play_out(match)
        wins += any(isinstance(e, GameOver) and e.winners == (0,) for e in match.events)
    return wins / max(1, games)


def bidwhist_make_rate(games: int, timer: DecisionTimer) -> tuple[float, int]:
    rules = make_rules("bidwhist")
    seats = [Seat(f"{timer.level} {i}", f"ai:{timer.level}") for i in range(4)]
    made = contracts = 0
    for seed in range(games):
        match = Match(rules, seats, 10_000 + seed)
        timer.play_out(match)
        for event in match.events:
            if isinstance(event, BidWhistHandScored) and not event.redeal:
                contracts += 1
                made += bool(event.made)
    return made / max(1, contracts), contracts


def wizard_hit_rates(games: int, seat_levels: tuple[str, ...], timer: DecisionTimer) -> dict[str, float]:
    players = len(seat_levels)
    rules = make_rules("wizard", players=players)
    seats = [Seat(f"{level} {i}", f"ai:{level}") for i, level in enumerate(seat_levels)]
    hits: Counter[str] = Counter()
    rounds: Counter[str] = Counter()
    for seed in range(games):
        match = Match(rules, seats, seed)
        timer.play_out(match)
        for event in match.events:
            if isinstance(event, WizardHandScored):
                for seat, level in enumerate(seat_levels):
                    rounds[level] += 1
                    hits[level] += event.bids[seat] == event.tricks_won[seat]
    return {level: hits[level] / max(1, rounds[level]) for level in seat_levels}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    known = sorted((set(levels(get_game("bidwhist"))) & set(levels(get_game("wizard")))) - {"random"})
    parser.add_argument("--level", default="medium", choices=known, help="the computer level to measure")
    parser.add_argument("--bidwhist-games", type=int, default=200)
    parser.add_argument("--wizard-games", type=int, default=100)
    args = parser.parse_args(argv)
    level = args.level
    timer = DecisionTimer(level)

    rate = bidwhist_win_rate(args.bidwhist_games, timer)
    print(f"Bid Whist, {level} team vs random team, {args.bidwhist_games} games: {level} wins {100 * rate:.1f}%")
    make, contracts = bidwhist_make_rate(args.bidwhist_games // 2, timer)
    print(
        f"Bid Whist, four {level} players, {args.bidwhist_games // 2} games: "
        f"{contracts} contracts, {100 * make:.1f}% made"
    )

    mixed = wizard_hit_rates(args.wizard_games, (level, "random", level, "random"), timer)
    print(
        f"Wizard, 4 players (2 {level}, 2 random), {args.wizard_games} games: bid hit rate "
        f"{level} {100 * mixed[level]:.1f}%, random {100 * mixed['random']:.1f}%"
    )
    alone = wizard_hit_rates(args.wizard_games // 4, (level,) * 4, timer)
    print(f"Wizard, 4 {level} players, {args.wizard_games // 4} games: bid hit rate {100 * alone[level]:.1f}%")

    print(
        f"{level.capitalize()} decisions: {timer.count}, mean {timer.mean_ms:.3f} ms, "
        f"slowest {1000 * timer.worst:.2f} ms"
    )


if __name__ == "__main__":
    main()
