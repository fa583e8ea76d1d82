"""Bid Whist hand evaluation: how many books a hand is worth under a contract."""

from __future__ import annotations

# These are the estimates a club player makes at a glance, expressed as numbers:
#
# * **Top cards** count by how many higher cards of their suit are missing (the
#   "gap"): a card with nothing higher outstanding is a sure winner, one with a
#   single higher card missing wins about half the time if it is guarded by a
#   smaller card, and so on.
# * **Trump length** wins books after the opponents' trumps are drawn, and spare
#   trumps ruff the declarer's short side suits.
# * **Side suits** in a trump contract are worth at most three rounds before
#   someone ruffs; in no trump a long suit with solid tops runs to the end, but
#   a suit the opponents can run (no stopper) costs books.
#
# Which suit a card belongs to under a contract and how cards rank come from
# the rules (``bidwhist.effective_suits``, ``bidwhist.rank_power`` and
# ``bidwhist.hand_order``); this module only caches their tables. Everything
# works on card ints and those tables, so a full evaluation of all modes of a
# 12-card hand takes well under a millisecond.
#
# The house rules that change the cards reach the evaluation through a
# ``rules`` argument (None: the default rules): without jokers no joker is
# feared above the trump ace, and with the ace low downtown it is the last
# card of its suit, not the first.

from collections.abc import Iterable, Sequence

from game.rules.actions import DOWNTOWN, UPTOWN
from game.rules.bidwhist import ace_low, effective_suits, hand_order, rank_power
from game.rules.cards import BIDWHIST_DECK, BIG_JOKER, LITTLE_JOKER, NO_SUIT, SUIT_OF
from game.rules.house_rules import BidWhistRules
from game.rules.view import PlayerView

JOKERS = (BIG_JOKER, LITTLE_JOKER)
# Value of a card by its gap (higher cards missing): sure, often, sometimes.
TRUMP_GAP_VALUE = (1.0, 0.55, 0.25)
SIDE_GAP_VALUE = (1.0, 0.5, 0.2)
NOTRUMP_GAP_VALUE = (1.0, 0.45, 0.15)
# A side-suit card in a trump contract is worth less on later rounds (ruffs).
SIDE_ROUND_FACTOR = (1.0, 0.9, 0.6)
TRUMP_LENGTH_VALUE = 0.85  # each trump beyond the fourth, once trumps are drawn
RUFF_VALUE = 0.7  # each ruff of a short side suit with a spare trump
NOTRUMP_LENGTH_VALUE = 0.7  # each card beyond the fourth of an established suit
NO_STOPPER_COST = 0.4  # a suit the opponents may run in no trump
NOTRUMP_VOID_COST = 0.6


# The rules' tables, built once: evaluations look them up thousands of times per decision.
POWER: tuple[tuple[int, ...], tuple[int, ...]] = (rank_power(UPTOWN), rank_power(DOWNTOWN))
EFFECTIVE: dict[int, tuple[int, ...]] = {trump: effective_suits(trump) for trump in (0, 1, 2, 3, NO_SUIT)}


_ACE_LOW_RULES = BidWhistRules(downtown_ace="low")


def suit_ranking(suit: int, direction: int, with_jokers: bool, low_ace: bool = False) -> tuple[int, ...]:
    """All cards of a suit, highest first under ``direction`` (the jokers on top
    when they are trumps; the ace last downtown when ``low_ace``), in the
    rules' own order."""
    cards = [card for card in BIDWHIST_DECK if SUIT_OF[card] == suit]
    if with_jokers:
        cards += [BIG_JOKER, LITTLE_JOKER]
    return tuple(hand_order(cards, suit, direction, _ACE_LOW_RULES if low_ace else None))


# Keyed (suit, direction, jokers on top): the rankings of the default rules.
RANKINGS: dict[tuple[int, int, bool], tuple[int, ...]] = {
    (s, d, j): suit_ranking(s, d, j) for s in range(4) for d in (UPTOWN, DOWNTOWN) for j in (False, True)
}
_LOW_ACE_RANKINGS: dict[tuple[int, int, bool], tuple[int, ...]] = {
    (s, d, j): suit_ranking(s, d, j, low_ace=True) for s in range(4) for d in (UPTOWN, DOWNTOWN) for j in (False, True)
}


def rules_of(view: PlayerView) -> BidWhistRules | None:
    """The Bid Whist rules of ``view`` (None, the default rules, for anything else)."""
    return view.rules if isinstance(view.rules, BidWhistRules) else None


def ranking(suit: int, direction: int, trumps: bool, rules: BidWhistRules | None = None) -> tuple[int, ...]:
    """The cards of ``suit`` highest first under ``rules``: with the jokers on
    top when the suit is ``trumps`` and the deck holds them."""
    table = _LOW_ACE_RANKINGS if ace_low(rules) else RANKINGS
    return table[(suit, direction, trumps and (rules is None or rules.jokers))]


def power_table(direction: int, rules: BidWhistRules | None = None) -> tuple[int, ...]:
    """Card strengths under ``direction`` as ``rules`` rank them (the rules' own table)."""
    return rank_power(direction, rules)


def gap_values(
    held: set[int],
    ranking: Sequence[int],
    gone: set[int] | frozenset[int],
    values: Sequence[float],
    round_factors: Sequence[float] | None = None,
) -> list[float]:
    """The trick value of each held card of one suit, best first.

    ``gone`` holds cards out of play (discards, played cards): they are not
    higher cards to fear. A card with gap g is worth ``values[g]`` only if it is
    guarded by at least g smaller cards of the suit (else the opponents'
    higher cards fall on it).
    """
    length = len(held)
    result = []
    mine_above = 0  # my cards ranked higher than the current one
    missing = 0  # outstanding cards ranked higher than the current one
    for card in ranking:
        if card in held:
            gap = missing
            below = length - mine_above - 1
            value = values[gap] if gap < len(values) and below >= gap else 0.0
            if round_factors is not None:
                value *= round_factors[mine_above] if mine_above < len(round_factors) else 0.0
            result.append(value)
            mine_above += 1
            if mine_above == length:
                break
        elif card not in gone:
            missing += 1
    return result


def split_by_suit(hand: Iterable[int], trump: int) -> list[list[int]]:
    """Cards per effective suit (index 0..3); jokers go with the trump suit, and
    are left out entirely in no trump."""
    eff = EFFECTIVE[trump]
    suits: list[list[int]] = [[], [], [], []]
    for card in hand:
        suit = eff[card]
        if suit != NO_SUIT:
            suits[suit].append(card)
    return suits


def trump_contract_books(
    hand: Sequence[int],
    trump: int,
    direction: int,
    gone: frozenset[int] = frozenset(),
    rules: BidWhistRules | None = None,
) -> float:
    """Books the hand itself should take with ``trump`` as trump in ``direction``."""
    suits = split_by_suit(hand, trump)
    trumps = suits[trump]
    length = len(trumps)
    honours = gap_values(set(trumps), ranking(trump, direction, True, rules), gone, TRUMP_GAP_VALUE)
    honour_sum = sum(honours)
    # Long trumps win once the opponents' trumps are gone; never count a card twice.
    trump_books = max(honour_sum, min(float(length), honour_sum + TRUMP_LENGTH_VALUE * max(0, length - 4)))
    side_books = 0.0
    shortness = 0.0
    for suit in range(4):
        if suit == trump:
            continue
        cards = suits[suit]
        side_books += sum(
            gap_values(set(cards), ranking(suit, direction, False, rules), gone, SIDE_GAP_VALUE, SIDE_ROUND_FACTOR)
        )
        shortness += (2.0, 1.0, 0.5)[len(cards)] if len(cards) < 3 else 0.0
    spare_trumps = max(0, length - 3)
    ruffs = RUFF_VALUE * min(float(spare_trumps), shortness) if length >= 3 else 0.0
    return trump_books + side_books + ruffs


def notrump_books(
    hand: Sequence[int], direction: int, gone: frozenset[int] = frozenset(), rules: BidWhistRules | None = None
) -> float:
    """Books the hand itself should take in no trump ranked ``direction``; jokers are worthless."""
    suits = split_by_suit(hand, NO_SUIT)
    books = 0.0
    for suit in range(4):
        cards = suits[suit]
        if not cards:
            books -= NOTRUMP_VOID_COST
            continue
        values = gap_values(set(cards), ranking(suit, direction, False, rules), gone, NOTRUMP_GAP_VALUE)
        tops = sum(1 for v in values if v >= 1.0)
        books += sum(values)
        if len(cards) > 4 and (tops >= 2 or sum(values) >= 1.5):
            # An established long suit keeps winning after the others run out.
            books += NOTRUMP_LENGTH_VALUE * (len(cards) - max(4, tops))
        if not any(v >= 0.45 for v in values):
            books -= NO_STOPPER_COST
    return books


def best_trump(
    hand: Sequence[int], direction: int, gone: frozenset[int] = frozenset(), rules: BidWhistRules | None = None
) -> tuple[int, float]:
    """The trump suit worth most books in ``direction``, and that value.

    Ties go to the longer suit, then the lower suit index (deterministic)."""
    best_suit, best_key, best_books = 0, -1e9, 0.0
    for suit in range(4):
        value = trump_contract_books(hand, suit, direction, gone, rules)
        length = sum(1 for c in hand if SUIT_OF[c] == suit)
        key = value + 0.01 * length
        if key > best_key + 1e-9:
            best_suit, best_key, best_books = suit, key, value
    return best_suit, best_books  # kept from the loop: valuing the best suit again cost a fifth of a bid


def best_notrump_direction(
    hand: Sequence[int], gone: frozenset[int] = frozenset(), rules: BidWhistRules | None = None
) -> tuple[int, float]:
    up, down = notrump_books(hand, UPTOWN, gone, rules), notrump_books(hand, DOWNTOWN, gone, rules)
    return (UPTOWN, up) if up >= down else (DOWNTOWN, down)


def mode_estimates(hand: Sequence[int], rules: BidWhistRules | None = None) -> tuple[float, float, float]:
    """The hand's own books in each bid mode (uptown, downtown, no trump),
    each with its best trump suit or direction, under ``rules``."""
    return (
        best_trump(hand, UPTOWN, rules=rules)[1],
        best_trump(hand, DOWNTOWN, rules=rules)[1],
        best_notrump_direction(hand, rules=rules)[1],
    )
