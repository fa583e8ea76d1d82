"""What Bid Whist contracts score among the medium players: the model of a hand behind the expert's
game-win table (``game/ai/bidwhist_odds.py``).

Run ``python -m benchmarks.bidwhist_outcomes [--games N] [--seed S]`` (defaults: 3,000 games from 70000).
"""

from __future__ import annotations

# Four medium players play whole games under the default rules (``benchmarks.ai.play_game``); every
# scored hand adds the declaring team's score change to its contract kind's count (trump contracts,
# uptown and downtown together, and no-trump contracts divided by the no-trump multiplier, which the
# table applies itself). It prints the hands a game, each change's count and share, and the two
# counts as ``HAND_OUTCOMES`` reads them.
# 3,000 games take about 50 s on one core.

import argparse
import random
from collections import Counter

from benchmarks.ai import SetResult, play_game
from game.ai.bidwhist_medium import BidWhistMediumPlayer
from game.rules import BidMode, make_rules, new_game
from game.rules.bidwhist import team_of
from game.rules.events import BidWhistHandScored, GameEvent


def count_outcomes(games: int, first_seed: int) -> tuple[Counter[int], Counter[int], int, int]:
    """(trump contracts' changes, no-trump contracts' changes before the multiplier, hands, hands thrown in)."""
    rules = make_rules("bidwhist")
    seats = [BidWhistMediumPlayer()] * 4
    trump: Counter[int] = Counter()
    notrump: Counter[int] = Counter()
    hands = thrown_in = 0

    def scored(event: GameEvent) -> None:
        nonlocal hands, thrown_in
        if not isinstance(event, BidWhistHandScored):
            return
        hands += 1
        if event.redeal or event.contract is None:
            thrown_in += 1
        elif event.contract.mode == BidMode.NOTRUMP:
            notrump[event.score_change[team_of(event.declarer)] // rules.notrump_multiplier] += 1
        else:
            trump[event.score_change[team_of(event.declarer)]] += 1

    for index in range(games):
        state, _ = new_game(rules, 4, first_seed + index)
        # The players' choices: seeded by the game's place in the run.
        play_game(state, seats, ["medium"] * 4, random.Random(index), SetResult(), on_event=scored)
    return trump, notrump, hands, thrown_in


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=70000)
    args = parser.parse_args(argv)
    trump, notrump, hands, thrown_in = count_outcomes(args.games, args.seed)
    per_game = hands / args.games
    print(f"{args.games} games from seed {args.seed}: {hands} hands ({per_game:.2f} a game), {thrown_in} thrown in")
    for name, counts in (("trump", trump), ("no trump (before the multiplier)", notrump)):
        print(f"{name}:")
        for change in sorted(counts):
            print(f"  {change:+3d}  {counts[change]:6d}  {counts[change] / hands:6.2%}")
    print("HAND_OUTCOMES =", (dict(sorted(trump.items())), dict(sorted(notrump.items()))))


if __name__ == "__main__":
    main()
