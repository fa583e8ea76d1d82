"""A Bid Whist team's chance of winning the game from the score, for a search that plays to win the
game rather than to gain points."""

from __future__ import annotations

# A game to 7 lasts about three hands (2.85 among the medium players), and a made no-trump contract
# scores double, so one hand often decides it: the points a hand are worth depend on the score. Two
# points matter little to a team at 0 against 0 and decide the game for a team at 5; being set for
# 4 costs a team at 6 much less than one at -3. So the expert searches for the chance its team wins
# the game after the hand, read from a table over the two scores, rather than for the hand's margin.
#
# The table comes from a model of one hand: either team declares, equally often, and the declaring
# team's score changes by an amount drawn from what the medium players' contracts scored
# (``HAND_OUTCOMES``: 3,000 games from seed 70000 on, 8,558 hands; ``python -m
# benchmarks.bidwhist_outcomes`` measures it again). The chances are solved by repeated sweeps over
# the scores until they settle (a set can send a score back down, so there is no order to solve
# them in one pass). The model's players are equal, so the table is fair: a team's chance and the
# other's always add up to one. A made contract scores 7 before the multiplier only when its team
# took all 13 books, a Boston (8.4% of the medium players' hands), so the house's ``boston`` rule is
# modelled on those: doubled under ``double``, the game won under ``wins_game``.

from collections.abc import Sequence
from functools import lru_cache

# What a declaring team's contract scored among the medium players, before the no-trump multiplier:
# (trump contracts, no-trump contracts), each {score change: hands}. Uptown and downtown trump
# contracts are pooled (they scored alike); no hand was thrown in.
HAND_OUTCOMES: tuple[dict[int, int], dict[int, int]] = (
    {-7: 15, -6: 49, -5: 206, -4: 572, -3: 622, 3: 615, 4: 1244, 5: 1446, 6: 1271, 7: 549},
    {-6: 2, -5: 13, -4: 167, -3: 558, 3: 250, 4: 360, 5: 268, 6: 183, 7: 168},
)
BOSTON_CHANGE = 7  # a contract's score before the multiplier when its team took all 13 books
# Above this target the table would be slow to solve inside a decision's second (0.05 s at 11 on
# one core, 0.11 s at 15), and a hand decides less of so long a game: the search keeps to the hand's
# margin there (``game_odds`` returns None).
LARGEST_TARGET = 11
SWEEP_TOLERANCE = 1e-9
MAX_SWEEPS = 500


def hand_outcomes(target: int, notrump_multiplier: int, boston: str = "off") -> list[tuple[int, float]]:
    """The declaring team's score change a hand and its chance in a game to ``target``, no-trump
    contracts multiplied and a Boston scored as the ``boston`` house rule says."""
    counts: dict[int, int] = {}
    for multiplier, outcomes in zip((1, notrump_multiplier), HAND_OUTCOMES):
        for change, hands in outcomes.items():
            scaled = change * multiplier
            if change == BOSTON_CHANGE and boston == "double":
                scaled *= 2
            elif change == BOSTON_CHANGE and boston == "wins_game":
                scaled = target  # the game is won whatever the score
            counts[scaled] = counts.get(scaled, 0) + hands
    total = sum(counts.values())
    return sorted((change, hands / total) for change, hands in counts.items())


@lru_cache(maxsize=8)
def game_odds(target: int, notrump_multiplier: int, boston: str = "off") -> tuple[tuple[float, ...], ...] | None:
    """``odds[ours + target][theirs + target]``: the chance a team wins a game to ``target`` from
    ``ours`` against ``theirs``, both scores above ``-target`` and below ``target``, under the house's
    no-trump multiplier and ``boston`` rule. None when the target is above ``LARGEST_TARGET``."""
    if target > LARGEST_TARGET:
        return None
    outcomes = hand_outcomes(target, notrump_multiplier, boston)
    size = 2 * target + 1  # indexes 0 and 2 * target are the ended games, kept for the lookups
    odds = [[0.5] * size for _ in range(size)]

    for _ in range(MAX_SWEEPS):
        largest_step = 0.0
        for ours in range(1 - target, target):
            for theirs in range(1 - target, target):
                new = 0.5 * sum(
                    p * (chance_to_win(odds, target, ours + c, theirs) + chance_to_win(odds, target, ours, theirs + c))
                    for c, p in outcomes
                )
                largest_step = max(largest_step, abs(new - odds[ours + target][theirs + target]))
                odds[ours + target][theirs + target] = new
        if largest_step < SWEEP_TOLERANCE:
            break
    return tuple(tuple(row) for row in odds)


def chance_to_win(odds: Sequence[Sequence[float]], target: int, ours: int, theirs: int) -> float:
    """The chance from ``odds`` (``game_odds``) that a team at ``ours`` against ``theirs`` wins,
    1 or 0 when the scores have ended the game (only the declaring team scores, so at most one
    score crosses a limit in a hand)."""
    if ours >= target or theirs <= -target:
        return 1.0
    if theirs >= target or ours <= -target:
        return 0.0
    return odds[ours + target][theirs + target]
