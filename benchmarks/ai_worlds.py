"""How well the Bid Whist worlds a search draws match the true hidden hands: uniform against fitted to the table.

Run ``python -m benchmarks.ai_worlds [--deals 30] [--worlds 20] [--every 3] [--seed 1] [--strictness 1.5]``.
"""

from __future__ import annotations

# Each deal is the first hand of a seeded game of four medium players. At
# seat 0's card-play decisions (every ``--every``-th trick, from the first),
# ``--worlds`` worlds are drawn from seat 0's view with today's sampler (the
# uniform ``HiddenSampler`` the hard player uses) and with
# ``bidwhist_worlds.BiddingFit`` in four settings (``FITTED``: fitted to the
# bids alone; the declarer's discards read too; the best of ``PLAY_TRIES``
# at explaining the cards played; and the bids and discards fitted seat by
# seat, as the expert player draws them), each from the same RNG
# seeded by the deal and the decision. Per deal it averages:
#
# * the probability the sampler gives the true place of each unseen card (the
#   other seat holding it, or the declarer's discards when seat 0 is not the
#   declarer): the share of worlds that put it there;
# * the share of (world, other bidding seat) pairs in which that seat's drawn
#   hand, as dealt, would have made the bid (and, for the declarer, the trump
#   or direction) the medium player made: the real hands always would;
# * the time per world, counting the sampler's set-up for the decision.
#
# ``--strictness`` and ``--tries`` set ``BiddingFit``'s strictness and its
# draws per world (``STRICTNESS``, ``MAX_TRIES`` by default).
#
# Intervals are 95% normal intervals over deals (the decisions of one deal
# share its cards); the gain is paired by deal. Figures are printed, never asserted.

import argparse
import platform
import random
import statistics
import time
from dataclasses import dataclass, field

from benchmarks.ai import estimate
from game.ai.bidwhist_medium import BidWhistMediumPlayer
from game.ai.bidwhist_worlds import MAX_TRIES, PLAY_TRIES, STRICTNESS, BiddingFit
from game.ai.hand_eval import JOKERS
from game.rules import Phase, make_rules, new_game
from game.rules.bidwhist import BidWhistState
from game.rules.cards import RANK_OF
from game.rules.hidden import HiddenCards
from game.rules.search import HiddenSampler
from game.rules.view import BidWhistView

SEAT = 0
# Each fitted sampler: (read the declarer's discards, bid-fitted worlds tried per world to explain the play,
# judge the seats one at a time: the expert player's).
FITTED = {
    "bids only": (False, 1, False),
    "+ discards": (True, 1, False),
    "+ play": (True, PLAY_TRIES, False),
    "seat by seat": (True, 1, True),
}
SAMPLERS = ("uniform", *FITTED)
KING = 13
DISCARDS = -1  # the place of a card among the declarer's unseen discards


@dataclass
class DealFigures:
    """One deal's measurements for one sampler, summed over its decisions."""

    true_place: list[float] = field(default_factory=list)  # per decision: mean share of worlds at the true place
    honours: list[float] = field(default_factory=list)  # the same for the aces, kings and jokers alone
    fits: int = 0
    seat_worlds: int = 0
    seconds: float = 0.0
    worlds: int = 0


def true_places(state: BidWhistState, view: BidWhistView) -> dict[int, int]:
    """Each card seat ``SEAT`` cannot see, with where it really lies."""
    places = {card: seat for seat in range(4) if seat != SEAT for card in state.hands[seat]}
    if view.declarer != SEAT:
        places.update(dict.fromkeys(state.discards, DISCARDS))
    return places


def world_places(hidden: HiddenCards) -> dict[int, int]:
    places = {card: seat for seat, hand in hidden.hands.items() for card in hand}
    places.update(dict.fromkeys(hidden.discards, DISCARDS))
    return places


def measure_decision(
    state: BidWhistState, worlds: int, seed: int, figures: dict[str, DealFigures], fit_strictness: float, tries: int
) -> None:
    """Draw ``worlds`` worlds with each sampler from ``SEAT``'s view of ``state`` and add up how well they fit."""
    view = state.view(SEAT)
    assert isinstance(view, BidWhistView)
    truth = true_places(state, view)
    judge = BiddingFit(view)  # the misfit of every sampler's worlds is judged the same way
    honours = {card for card in truth if card in JOKERS or RANK_OF[card] >= KING}
    for name in SAMPLERS:
        rng = random.Random(seed)
        started = time.perf_counter()
        sampler = HiddenSampler(view)
        if name == "uniform":
            drawn = [sampler.sample(rng) for _ in range(worlds)]
        else:
            read, play_tries, by_seat = FITTED[name]
            fit = BiddingFit(
                view, fit_strictness, tries, read_declarer_discards=read, play_tries=play_tries, by_seat=by_seat
            )
            drawn = [fit.draw(view, sampler, rng) for _ in range(worlds)]
        elapsed = time.perf_counter() - started
        result = figures[name]
        result.seconds += elapsed
        result.worlds += worlds
        hits = honour_hits = 0
        for hidden in drawn:
            places = world_places(hidden)
            hits += sum(1 for card, place in truth.items() if places.get(card) == place)
            honour_hits += sum(1 for card, place in truth.items() if card in honours and places.get(card) == place)
            misses = judge.seat_misfits(hidden)
            result.fits += sum(1 for miss in misses.values() if miss == 0)
            result.seat_worlds += len(misses)
        result.true_place.append(hits / (len(truth) * worlds))
        if honours:
            result.honours.append(honour_hits / (len(honours) * worlds))


def measure_deal(seed: int, worlds: int, every: int, strictness: float, tries: int) -> dict[str, DealFigures]:
    """The first hand of seed ``seed``'s game of medium players, measured at ``SEAT``'s chosen decisions."""
    state, _ = new_game(make_rules("bidwhist", {}), 4, seed)
    assert isinstance(state, BidWhistState)
    medium, rng = BidWhistMediumPlayer(), random.Random(seed)
    figures = {name: DealFigures() for name in SAMPLERS}
    while state.phase not in (Phase.HAND_OVER, Phase.GAME_OVER):
        trick = len(state.view(SEAT).tricks)
        if state.phase == Phase.PLAY and state.current == SEAT and trick % every == 0 and trick < 11:
            measure_decision(state, worlds, seed * 100 + trick, figures, strictness, tries)
        state.apply_in_place(medium.choose(state.view(state.current), rng), None, check=False)
    return figures


def report(results: list[dict[str, DealFigures]], args: argparse.Namespace) -> list[str]:
    lines = [
        f"Bid Whist worlds from seat {SEAT}'s view in play, {len(results)} deals of medium players "
        f"(seeds {args.seed}-{args.seed + args.deals - 1}), {args.worlds} worlds per decision, "
        f"every {args.every} tricks; fitted: strictness {args.strictness}, at most {args.tries} draws a world",
        f"{'':38}{'uniform (today)':>20}{'fitted: bids only':>20}{'+ discards':>20}"
        f"{f'+ play (best of {PLAY_TRIES})':>20}{'seat by seat':>20}",
    ]

    def row(label: str, per_deal: dict[str, list[float]], digits: int, scale: float) -> str:
        cells = "".join(f"{estimate(per_deal[name]).text(digits, scale):>20}" for name in SAMPLERS)
        return f"{label:38}{cells}"

    true_place = {name: [statistics.fmean(r[name].true_place) for r in results] for name in SAMPLERS}
    honours = {name: [statistics.fmean(r[name].honours) for r in results if r[name].honours] for name in SAMPLERS}
    fits = {name: [r[name].fits / r[name].seat_worlds for r in results if r[name].seat_worlds] for name in SAMPLERS}
    ms = {name: [1000 * r[name].seconds / r[name].worlds for r in results] for name in SAMPLERS}
    lines.append(row("P(true holder) per unseen card (%)", true_place, 1, 100))
    lines.append(row("  of aces, kings and jokers (%)", honours, 1, 100))
    lines.append(row("seats whose hand fits its bids (%)", fits, 1, 100))
    lines.append(row("time per world (ms)", ms, 2, 1))
    gains = "".join(
        f"{estimate([f - u for u, f in zip(true_place['uniform'], true_place[name])]).text(2, 100, signed=True):>20}"
        for name in SAMPLERS[1:]
    )
    lines.append(f"{'gain in P(true holder), paired (pts)':58}{gains}")
    lines.append(f"machine: {platform.platform()}, Python {platform.python_version()}, {platform.processor() or '?'}")
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--worlds", type=int, default=20)
    parser.add_argument("--every", type=int, default=3, help="measure at every n-th trick (1: every trick)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--strictness", type=float, default=STRICTNESS)
    parser.add_argument("--tries", type=int, default=MAX_TRIES, help="uniform draws tried per fitted world at most")
    args = parser.parse_args(argv)
    if min(args.deals, args.worlds, args.every, args.tries) < 1:
        parser.error("--deals, --worlds, --every and --tries must be at least 1")
    started = time.perf_counter()
    results = [
        measure_deal(seed, args.worlds, args.every, args.strictness, args.tries)
        for seed in range(args.seed, args.seed + args.deals)
    ]
    for line in report(results, args):
        print(line)
    print(f"run time {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
