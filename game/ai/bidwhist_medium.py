"""The medium Bid Whist player: bidding, the contract, the discard, and play.

Bidding turns the hand evaluation of ``hand_eval`` into an estimate of the
team's books for each mode: the hand's own books, the kitty book, about one
more book that the six kitty cards add, and what the partner is likely to
contribute (more if the partner bid, less if the partner passed). The player
bids the lowest legal bid of its best mode when that estimate covers it, and
needs a clearly better hand to overcall its own partner. A dealer forced to
bid bids the minimum in its best mode.

The discard keeps trumps and jokers in a trump contract, throws whole short
side suits without a sure winner first (voids to ruff later), then the lowest
losers; in no trump it throws the jokers first and keeps long runs and tops.
Card play lives in ``bidwhist_play``.

``BidWhistMediumPlayer`` is the factory the registry names for the level
"medium" of Bid Whist. Partners and opponents come from the game's
``GameDef``, the bidding so far from the view.
"""

from __future__ import annotations

import random
from typing import Sequence

from game.ai import bidwhist_play
from game.ai.hand_eval import (
    EFFECTIVE, JOKERS, POWER, RANKINGS, best_notrump_direction, best_trump, gap_values,
    mode_estimates, split_by_suit,
)
from game.ai.medium import MediumPlayer
from game.rules.actions import (
    DOWNTOWN, PASS, UPTOWN, Action, ActionKind, BidMode, choose_direction, choose_trump, discard,
)
from game.rules.bidwhist import KITTY_SIZE
from game.rules.cards import NO_SUIT
from game.rules.core import Phase
from game.rules.house_rules import BidWhistRules
from game.rules.registry import game_of
from game.rules.view import BidWhistView

KITTY_BOOK = 1.0        # the six discards are the bidding team's first book
KITTY_GAIN = 1.0        # six fresh cards usually improve the hand by about a book
PARTNER_HELP = 2.0      # partner not heard from yet
PARTNER_HELP_BID = 2.6  # partner showed strength by bidding
PARTNER_HELP_PASS = 1.5
PARTNER_SAME_MODE = 0.4  # partner's bid in this mode fits this contract
OPPONENT_BID_COST = 0.3  # the strength an opponent showed is not in partner's hand
OVERCALL_PARTNER_MARGIN = 1.0
NOTRUMP_PREFERENCE = 0.3  # no trump scores double: prefer it when it is as safe


class BidWhistMediumPlayer(MediumPlayer[BidWhistView]):
    view_type = BidWhistView

    def decide(self, view: BidWhistView, rng: random.Random) -> Action:
        phase = view.phase
        if phase == Phase.BID:
            return choose_bid(view, rng)
        if phase == Phase.CONTRACT:
            return choose_contract(view)
        if phase == Phase.DISCARD:
            return choose_discard(view)
        if phase == Phase.PLAY:
            return bidwhist_play.choose_card(view, rng)
        return view.legal_actions[0]


# ---------------------------------------------------------------------- bidding
def team_estimates(view: BidWhistView) -> list[float]:
    """Expected books of this seat's team in each mode if it declares."""
    seat = view.seat
    game = game_of(view)
    partner_bid: Action | None = None
    partner_acted = False
    opponent_bids = 0
    for bidder, action in view.bids:
        if bidder == seat:
            continue
        if game.partners(bidder, seat):
            partner_acted = True
            if action.kind == ActionKind.BID:
                partner_bid = action
        elif action.kind == ActionKind.BID:
            opponent_bids += 1
    if partner_bid is not None:
        help_ = PARTNER_HELP_BID
    elif partner_acted:
        help_ = PARTNER_HELP_PASS
    else:
        help_ = PARTNER_HELP
    help_ -= OPPONENT_BID_COST * opponent_bids
    estimates = []
    for mode, own in enumerate(mode_estimates(view.hand)):
        books = own + KITTY_BOOK + KITTY_GAIN + help_
        if partner_bid is not None and partner_bid.mode == mode:
            books += PARTNER_SAME_MODE
        estimates.append(books)
    return estimates


def choose_bid(view: BidWhistView, rng: random.Random) -> Action:
    legal = view.legal_actions
    lowest: dict[int, int] = {}
    for action in legal:
        if action.kind == ActionKind.BID:
            if action.mode not in lowest or action.value < lowest[action.mode]:
                lowest[action.mode] = action.value
    estimates = team_estimates(view)
    high_bidder = view.high_bidder
    partner_holds_high = (high_bidder >= 0 and high_bidder != view.seat
                          and game_of(view).partners(high_bidder, view.seat))
    needed = OVERCALL_PARTNER_MARGIN if partner_holds_high else 0.0
    rules = view.rules
    multiplier = rules.notrump_multiplier if isinstance(rules, BidWhistRules) else 2

    def key(mode: int) -> float:
        margin = estimates[mode] - 6 - lowest[mode]
        if mode == BidMode.NOTRUMP and multiplier > 1:
            margin += NOTRUMP_PREFERENCE
        return margin + rng.random() * 1e-6  # exact ties broken by the seat's RNG

    modes = sorted(lowest, key=key, reverse=True)
    if not modes:
        return PASS
    best = modes[0]
    margin = estimates[best] - 6 - lowest[best]
    if margin >= needed or PASS not in legal:
        # A forced dealer lands here too: the minimum bid of its best mode.
        return Action(ActionKind.BID, lowest[best], best)
    return PASS


# ---------------------------------------------------------------------- contract
def choose_contract(view: BidWhistView) -> Action:
    """Name the trump suit worth most in the bid direction, or the better
    no-trump direction, judged from the 12 cards held (the kitty is unseen)."""
    if view.contract_mode == BidMode.NOTRUMP:
        return choose_direction(best_notrump_direction(view.hand)[0])
    direction = DOWNTOWN if view.contract_mode == BidMode.DOWNTOWN else UPTOWN
    return choose_trump(best_trump(view.hand, direction)[0])


# ---------------------------------------------------------------------- discard
def choose_discard(view: BidWhistView) -> Action:
    needed = KITTY_SIZE - len(view.discards)
    plan = plan_discards(view.hand, needed, view.trump, view.direction, frozenset(view.discards))
    return discard(plan[0])


def plan_discards(hand: Sequence[int], count: int, trump: int, direction: int,
                  gone: frozenset[int] = frozenset()) -> list[int]:
    """The ``count`` cards to throw from ``hand``, in the order to throw them."""
    if trump == NO_SUIT:
        return _plan_notrump(hand, count, direction, gone)
    return _plan_trump(hand, count, trump, direction, gone)


def _plan_trump(hand: Sequence[int], count: int, trump: int, direction: int, gone: frozenset[int]) -> list[int]:
    power = POWER[direction]
    suits = split_by_suit(hand, trump)
    values = {}
    for suit in range(4):
        if suit == trump:
            continue
        ranking = RANKINGS[(suit, direction, False)]
        held = sorted(suits[suit], key=lambda c: ranking.index(c))
        for card, value in zip(held, gap_values(set(held), ranking, gone, (1.0, 0.5, 0.2))):
            values[card] = value
    plan: list[int] = []
    # 1. Void short side suits that hold no sure winner: each void is a future ruff.
    voidable = [s for s in range(4) if s != trump and suits[s] and all(values[c] < 1.0 for c in suits[s])]
    voidable.sort(key=lambda s: (len(suits[s]), sum(values[c] for c in suits[s]), s))
    for suit in voidable:
        if len(suits[suit]) <= count - len(plan):
            plan.extend(sorted(suits[suit], key=lambda c: power[c]))
    # 2. Then the cheapest losers, from the shorter suits first.
    side = [c for c in hand if EFFECTIVE[trump][c] != trump and c not in plan]
    side.sort(key=lambda c: (values[c] >= 1.0, values[c], len(suits[EFFECTIVE[trump][c]]), power[c], c))
    for card in side:
        if len(plan) >= count:
            break
        plan.append(card)
    # 3. Only with a hand of nearly all trumps: the lowest trumps.
    if len(plan) < count:
        trumps = sorted(suits[trump], key=lambda c: (power[c], c))
        plan.extend(trumps[:count - len(plan)])
    return plan[:count]


def _plan_notrump(hand: Sequence[int], count: int, direction: int, gone: frozenset[int]) -> list[int]:
    power = POWER[direction]
    suits = split_by_suit(hand, NO_SUIT)
    keep_value: dict[int, float] = {}
    for suit in range(4):
        ranking = RANKINGS[(suit, direction, False)]
        held = sorted(suits[suit], key=lambda c: ranking.index(c))
        values = gap_values(set(held), ranking, gone, (1.0, 0.45, 0.15))
        tops = sum(1 for v in values if v >= 1.0)
        runnable = len(held) > 4 and tops >= 2
        for card, value in zip(held, values):
            # Length keeps a suit alive: every card of a long run is a future winner.
            keep_value[card] = value + (0.8 if runnable else 0.1 * len(held)) + power[card] / 100
    jokers = [c for c in hand if c in JOKERS]
    others = sorted((c for c in hand if c not in JOKERS), key=lambda c: (keep_value[c], c))
    return (jokers + others)[:count]
