"""The medium Bid Whist player: bidding, the contract, the discard, and play."""

from __future__ import annotations

# Bidding turns the hand evaluation of ``hand_eval`` (the hand's own books in
# each mode with its best trump or direction) into the team's expected books
# through a line fitted on seeded games, moved by what the partner showed (a
# bid shows the strength it takes to make it, a pass shows weakness) and by the
# opponents' bids. With one round of bidding and overtricks counted, the player
# bids its best mode at the full level the team supports (up to 7), which also
# overcalls an opponent's lower bid; the last bidder only tops the high bid. It
# overcalls its own partner only to block an opponent still to bid or with a
# clearly higher contract. A dealer forced to bid bids the minimum in its best
# mode. A dealer allowed to take the high bid (``dealer_takes``) takes it in its
# best mode when the team supports that number, which costs less than any
# overcall; from its own partner only with a clearly stronger hand.
#
# The discard keeps trumps and jokers in a trump contract, throws whole short
# side suits without a sure winner first (voids to ruff later), then the lowest
# losers; in no trump it throws the jokers first and keeps long runs and tops.
# Card play lives in ``bidwhist_play``.

import random
from collections.abc import Sequence

from game.ai import bidwhist_play
from game.ai.hand_eval import (
    EFFECTIVE,
    JOKERS,
    best_notrump_direction,
    best_trump,
    gap_values,
    mode_estimates,
    power_table,
    ranking,
    rules_of,
    split_by_suit,
)
from game.ai.medium import MediumPlayer
from game.rules.actions import (
    DOWNTOWN,
    PASS,
    UPTOWN,
    Action,
    ActionKind,
    BidMode,
    choose_direction,
    choose_trump,
    discard,
)
from game.rules.bidwhist import BOOKS_BEFORE_BID
from game.rules.cards import NO_SUIT
from game.rules.core import Phase
from game.rules.house_rules import BidWhistRules
from game.rules.registry import game_of
from game.rules.view import BidWhistView

# The team's books when this seat declares, as a straight line in the hand's own
# estimate. Fitted on the declarers of 100 seeded medium games: a team takes
# about 7.6 books plus half its declarer's own estimate (the kitty book, the six
# fresh cards and an average partner are all inside the intercept; a strong hand
# leaves less for the partner, hence a slope under one).
TEAM_BASE = 7.6
OWN_WEIGHT = 0.5
AVERAGE_OWN = 3.5  # the own estimate of a hand of average strength
# Books kept below the expected count before bidding. The floor of the count
# already leaves some; against the previous medium player a team bidding with
# a margin of 0.6 won 57.6% of 800 games, with none 67.6%, with -0.4 64.5%.
BID_SAFETY = 0.0
PASS_SHOWS = -0.5  # a partner who passed holds a weaker than average hand
OTHER_MODE_SHARE = 0.5  # partner's strength shown in another mode helps half as much
OPPONENT_BID_COST = 0.3  # the strength an opponent showed is not in partner's hand
NOTRUMP_PREFERENCE = 0.3  # no trump scores double: prefer it when it is as safe
MAX_BOOKS = 7


# ``BidWhistMediumPlayer`` is the factory the registry names for the level
# "medium" of Bid Whist. Partners and opponents come from the game's
# ``GameDef``, the bidding so far from the view.
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
def implied_own_estimate(books: int) -> float:
    """The own estimate a medium bidder holds when it bids ``books``: a bid is
    made at the level the team is expected to make with ``BID_SAFETY`` to spare,
    so it shows a hand a little above that level's threshold."""
    threshold = (books + BOOKS_BEFORE_BID + BID_SAFETY - TEAM_BASE) / OWN_WEIGHT
    return threshold + 1.0


def team_estimates(view: BidWhistView) -> list[float]:
    """Expected books of this seat's team in each mode if it declares.

    The hand's own estimate per mode goes through the fitted line; what the
    partner showed moves it (a bid shows the strength it takes to bid it, in its
    mode, a pass shows weakness), and each opponent's bid takes a little off."""
    seat = view.seat
    game = game_of(view)
    partner_bid: Action | None = None
    partner_passed = False
    opponent_bids = 0
    for bidder, action in view.bids:
        if bidder == seat:
            continue
        if game.partners(bidder, seat):
            if action.kind == ActionKind.BID:
                partner_bid = action
            else:
                partner_passed = True
        elif action.kind == ActionKind.BID:
            opponent_bids += 1
    estimates = []
    for mode, own in enumerate(mode_estimates(view.hand, rules_of(view))):
        books = TEAM_BASE + OWN_WEIGHT * own - OPPONENT_BID_COST * opponent_bids
        if partner_bid is not None:
            shown = OWN_WEIGHT * (implied_own_estimate(partner_bid.value) - AVERAGE_OWN)
            books += shown if partner_bid.mode == mode else OTHER_MODE_SHARE * shown
        elif partner_passed:
            books += PASS_SHOWS
        estimates.append(books)
    return estimates


def supported_books(team_books: float) -> int:
    """The highest bid (books over six) the team should make with ``team_books`` expected."""
    return min(MAX_BOOKS, int(team_books - BID_SAFETY - BOOKS_BEFORE_BID + 1e-9))


def lowest_bids(legal: Sequence[Action]) -> dict[int, int]:
    """The lowest legal bid (books) of each bid mode among ``legal``."""
    lowest: dict[int, int] = {}
    for action in legal:
        if action.kind == ActionKind.BID and (action.mode not in lowest or action.value < lowest[action.mode]):
            lowest[action.mode] = action.value
    return lowest


def choose_bid(view: BidWhistView, rng: random.Random, bias: float = 0.0) -> Action:
    """Bid the best mode at the level the team supports, or pass.

    ``bias`` (books, 0 for the medium player) is added to every estimate: the
    easy player's misjudgement of its hand.

    With one round of bidding and overtricks counted, a bid at the full
    supported level costs nothing when made and keeps the opponents from
    taking the contract cheaply; the last bidder only needs to top the high bid.
    The partner's high bid is overcalled only to block an opponent still to
    bid, or when this hand supports a clearly higher contract.
    """
    legal = view.legal_actions
    takes = {a.mode: a for a in legal if a.kind == ActionKind.TAKE}
    if takes:
        return choose_take(view, takes, bias)
    legal_bids = {(a.value, a.mode) for a in legal if a.kind == ActionKind.BID}
    lowest = lowest_bids(legal)
    if not lowest:
        return PASS
    estimates = [books + bias for books in team_estimates(view)]
    rules = view.rules
    multiplier = rules.notrump_multiplier if isinstance(rules, BidWhistRules) else 2

    def key(mode: int) -> float:
        margin = estimates[mode] - BOOKS_BEFORE_BID - lowest[mode]
        if mode == BidMode.NOTRUMP and multiplier > 1:
            margin += NOTRUMP_PREFERENCE
        return margin + rng.random() * 1e-6  # exact ties broken by the seat's RNG

    best = max(lowest, key=key)
    if PASS not in legal:
        return Action(ActionKind.BID, lowest[best], best)  # a forced dealer: the minimum
    supported = supported_books(estimates[best])
    if supported < lowest[best]:
        return PASS
    game = game_of(view)
    bidders = {bidder for bidder, _ in view.bids}
    opponents_to_bid = any(
        seat not in bidders and seat != view.seat and not game.partners(seat, view.seat)
        for seat in range(view.num_players)
    )
    high_bidder = view.high_bidder
    if high_bidder >= 0 and high_bidder != view.seat and game.partners(high_bidder, view.seat):
        high = view.high_bid[0] if view.high_bid is not None else 0
        if not opponents_to_bid and supported < high + 2:
            return PASS
    books = supported if opponents_to_bid else lowest[best]
    if (books, best) not in legal_bids:
        books = lowest[best]
    return Action(ActionKind.BID, books, best)


def choose_take(view: BidWhistView, takes: dict[int, Action], bias: float = 0.0) -> Action:
    """The dealer's turn under ``dealer_takes``: take the high bid at its number
    in the mode the team supports best, or pass.

    Taking needs no more books than the bid already promised, so it beats any
    overcall whenever the team supports that number in some mode. A partner's
    bid is taken over only with a hand that would have overcalled it by two.
    """
    if view.high_bid is None:
        return PASS
    high = view.high_bid[0]
    estimates = [books + bias for books in team_estimates(view)]
    rules = rules_of(view)
    multiplier = rules.notrump_multiplier if rules is not None else 2

    def margin(mode: int) -> float:
        extra = NOTRUMP_PREFERENCE if mode == BidMode.NOTRUMP and multiplier > 1 else 0.0
        return estimates[mode] - BOOKS_BEFORE_BID - high + extra

    best = max(sorted(takes), key=margin)
    supported = supported_books(estimates[best])
    if supported < high:
        return PASS
    game = game_of(view)
    if game.partners(view.high_bidder, view.seat) and supported < high + 2:
        return PASS
    return takes[best]


# ---------------------------------------------------------------------- contract
def choose_contract(view: BidWhistView) -> Action:
    """Name the trump suit worth most in the bid direction, or the better
    no-trump direction, judged from the 12 cards held (the kitty is unseen)."""
    rules = rules_of(view)
    if view.contract_mode == BidMode.NOTRUMP:
        return choose_direction(best_notrump_direction(view.hand, rules=rules)[0])
    direction = DOWNTOWN if view.contract_mode == BidMode.DOWNTOWN else UPTOWN
    return choose_trump(best_trump(view.hand, direction, rules=rules)[0])


# ---------------------------------------------------------------------- discard
def choose_discard(view: BidWhistView) -> Action:
    needed = view.kitty_size - len(view.discards)
    plan = plan_discards(view.hand, needed, view.trump, view.direction, frozenset(view.discards), rules_of(view))
    return discard(plan[0])


def plan_discards(
    hand: Sequence[int],
    count: int,
    trump: int,
    direction: int,
    gone: frozenset[int] = frozenset(),
    rules: BidWhistRules | None = None,
) -> list[int]:
    """The ``count`` cards to throw from ``hand``, in the order to throw them."""
    if trump == NO_SUIT:
        return _plan_notrump(hand, count, direction, gone, rules)
    return _plan_trump(hand, count, trump, direction, gone, rules)


def _plan_trump(
    hand: Sequence[int], count: int, trump: int, direction: int, gone: frozenset[int], rules: BidWhistRules | None
) -> list[int]:
    power = power_table(direction, rules)
    suits = split_by_suit(hand, trump)
    values = {}
    for suit in range(4):
        if suit == trump:
            continue
        order = ranking(suit, direction, False, rules)
        held = sorted(suits[suit], key=lambda c: order.index(c))
        for card, value in zip(held, gap_values(set(held), order, gone, (1.0, 0.5, 0.2))):
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
        plan.extend(trumps[: count - len(plan)])
    return plan[:count]


def _plan_notrump(
    hand: Sequence[int], count: int, direction: int, gone: frozenset[int], rules: BidWhistRules | None
) -> list[int]:
    power = power_table(direction, rules)
    suits = split_by_suit(hand, NO_SUIT)
    keep_value: dict[int, float] = {}
    for suit in range(4):
        order = ranking(suit, direction, False, rules)
        held = sorted(suits[suit], key=lambda c: order.index(c))
        values = gap_values(set(held), order, gone, (1.0, 0.45, 0.15))
        tops = sum(1 for v in values if v >= 1.0)
        runnable = len(held) > 4 and tops >= 2
        for card, value in zip(held, values):
            # Length keeps a suit alive: every card of a long run is a future winner.
            keep_value[card] = value + (0.8 if runnable else 0.1 * len(held)) + power[card] / 100
    jokers = [c for c in hand if c in JOKERS]
    others = sorted((c for c in hand if c not in JOKERS), key=lambda c: (keep_value[c], c))
    return (jokers + others)[:count]
