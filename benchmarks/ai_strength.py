"""Strength and speed of the medium computer player against the random one.

Run ``python -m benchmarks.ai_strength [--bidwhist-games N] [--wizard-games N]``.
It reports

* Bid Whist: how often team 0 (seats 0 and 2, medium) beats team 1 (random),
  and how often medium declarers make their contracts when four medium
  players meet;
* Wizard, 4 players: the share of rounds in which a player's bid equals the
  tricks it took, for medium seats (0 and 2) and random seats (1 and 3) at
  the same table, and for an all-medium table;
* the mean and the slowest time per medium decision, measured around the
  player's ``choose`` call only (the engine's own work is not counted).

Figures are printed, never asserted: the machines are shared and noisy.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from game.match import Match, Seat
from game.rules import EventKind, Phase, make_rules


class DecisionTimer:
    """Accumulates the time spent in medium players' decisions."""

    def __init__(self) -> None:
        self.count = 0
        self.total = 0.0
        self.worst = 0.0

    def play_out(self, match: Match) -> None:
        state_seats = match.seats
        while not match.is_over:
            if match.phase == Phase.HAND_OVER:
                match.next_deal()
                continue
            seat = match.current_player
            if state_seats[seat].ai_level == "medium":
                start = time.perf_counter()
                action = match.choose_ai_action(seat)
                spent = time.perf_counter() - start
                self.count += 1
                self.total += spent
                self.worst = max(self.worst, spent)
            else:
                action = match.choose_ai_action(seat)
            match.apply(action)

    @property
    def mean_ms(self) -> float:
        return 1000 * self.total / max(1, self.count)


def bidwhist_win_rate(games: int, timer: DecisionTimer) -> float:
    rules = make_rules("bidwhist")
    seats = [Seat("medium 0", "ai:medium"), Seat("random 1", "ai:random"),
             Seat("medium 2", "ai:medium"), Seat("random 3", "ai:random")]
    wins = 0
    for seed in range(games):
        match = Match(rules, seats, seed)
        timer.play_out(match)
        wins += match.state.results()["winners"] == [0]
    return wins / max(1, games)


def bidwhist_make_rate(games: int, timer: DecisionTimer) -> tuple[float, int]:
    rules = make_rules("bidwhist")
    seats = [Seat(f"medium {i}", "ai:medium") for i in range(4)]
    made = contracts = 0
    for seed in range(games):
        match = Match(rules, seats, 10_000 + seed)
        timer.play_out(match)
        for event in match.events:
            if event.kind == EventKind.HAND_SCORED and not event.data["redeal"]:
                contracts += 1
                made += bool(event.data["made"])
    return made / max(1, contracts), contracts


def wizard_hit_rates(games: int, levels: tuple[str, ...], timer: DecisionTimer) -> dict[str, float]:
    players = len(levels)
    rules = make_rules("wizard", players=players)
    seats = [Seat(f"{level} {i}", f"ai:{level}") for i, level in enumerate(levels)]
    hits: Counter[str] = Counter()
    rounds: Counter[str] = Counter()
    for seed in range(games):
        match = Match(rules, seats, seed)
        timer.play_out(match)
        for deal in match.history()["deals"]:
            bids = {b["seat"]: b["bid"] for b in deal["bids"]}
            for seat, level in enumerate(levels):
                rounds[level] += 1
                hits[level] += bids[seat] == deal["tricks_won"][seat]
    return {level: hits[level] / max(1, rounds[level]) for level in levels}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bidwhist-games", type=int, default=200)
    parser.add_argument("--wizard-games", type=int, default=100)
    args = parser.parse_args(argv)
    timer = DecisionTimer()

    rate = bidwhist_win_rate(args.bidwhist_games, timer)
    print(f"Bid Whist, medium team vs random team, {args.bidwhist_games} games: "
          f"medium wins {100 * rate:.1f}%")
    make, contracts = bidwhist_make_rate(args.bidwhist_games // 2, timer)
    print(f"Bid Whist, four medium players, {args.bidwhist_games // 2} games: "
          f"{contracts} contracts, {100 * make:.1f}% made")

    mixed = wizard_hit_rates(args.wizard_games, ("medium", "random", "medium", "random"), timer)
    print(f"Wizard, 4 players (2 medium, 2 random), {args.wizard_games} games: bid hit rate "
          f"medium {100 * mixed['medium']:.1f}%, random {100 * mixed['random']:.1f}%")
    alone = wizard_hit_rates(args.wizard_games // 4, ("medium",) * 4, timer)
    print(f"Wizard, 4 medium players, {args.wizard_games // 4} games: bid hit rate "
          f"{100 * alone['medium']:.1f}%")

    print(f"Medium decisions: {timer.count}, mean {timer.mean_ms:.3f} ms, "
          f"slowest {1000 * timer.worst:.2f} ms")


if __name__ == "__main__":
    main()
