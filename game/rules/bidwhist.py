"""Bid Whist: the complete rules as a state machine (see ``RULES.md``).

``BidWhistState`` holds one whole game: scores, the dealer, and the hand in
progress. It is plain data (lists and ints) so that ``clone()`` is cheap and
``apply_in_place`` is fast enough for a search AI; the public ``apply`` in
``game.rules.engine`` copies first and returns events.
"""

from __future__ import annotations

# Phases of a hand: BID -> CONTRACT (trump suit or no-trump direction) ->
# DISCARD (declarer takes the kitty and discards as many cards as it holds,
# one action per card) -> PLAY (12 tricks) -> HAND_OVER (scored; NEXT_DEAL
# deals again) or GAME_OVER.
#
# The house variants of ``RULES.md`` ("More house variants") live here too:
# without jokers (``jokers: false``) the deck is the 52 French cards and the
# kitty 4 (``kitty_size``, ``deck_of``); a dealer may take the high bid
# (``dealer_takes``, the TAKE action); a Boston (all 13 books to the bidding
# team) may double the hand or win the game (``boston``); and the ace may be
# the lowest card downtown (``downtown_ace: low``, in ``rank_power``).

from bisect import bisect_right
from collections.abc import Callable, Collection, Hashable, Sequence
from functools import cache, lru_cache
from random import Random
from typing import Any, cast

from game.rules.actions import (
    DIRECTION_ACTIONS,
    DISCARD_ACTIONS,
    NEXT_DEAL,
    PASS,
    PLAY_ACTIONS,
    TRUMP_ACTIONS,
    Action,
    ActionKind,
    BidMode,
    bid,
    choose_direction,
    choose_trump,
    discard,
    take,
)
from game.rules.cards import (
    ACE,
    BIDWHIST_DECK,
    BIG_JOKER,
    LITTLE_JOKER,
    NO_SUIT,
    RANK_OF,
    SUIT_CARDS,
    SUIT_LABELS,
    SUIT_OF,
    Suit,
    card_name,
    display_suit_order,
)
from game.rules.core import Phase, seeded_rng, shuffled
from game.rules.errors import IllegalActionError
from game.rules.events import (
    BidMade,
    BidWhistHandScored,
    CardPlayed,
    ContractSet,
    Dealt,
    Discarded,
    GameEvent,
    GameOver,
    PUBLIC_SEAT,
    KittyTaken,
    Redealt,
)
from game.rules.finished_hand import FinishedHand
from game.rules.hidden import HiddenCards, HiddenLayout
from game.rules.house_rules import BidWhistRules
from game.rules.tricks import (
    SEAT_VIEW_FIELDS,
    SHARED_VIEW_FIELDS,
    TrickGameState,
    allowed_action,
    is_well_formed,
    malformed_action,
)
from game.rules.view import BidWhistView, FieldReader, PlayerView, lazy_view_type

PLAYERS = 4
HAND_SIZE = 12
KITTY_SIZE = 6  # with the jokers (the default); ``kitty_size(rules)`` answers for any rules
KITTY_SIZE_WITHOUT_JOKERS = 4
TRICKS_PER_HAND = 12
TOTAL_BOOKS = 13


def kitty_size(rules: BidWhistRules) -> int:
    """How many cards the kitty holds (and the declarer discards) under ``rules``:
    6 with the jokers, 4 without. Each player is dealt 12 cards either way."""
    return KITTY_SIZE if rules.jokers else KITTY_SIZE_WITHOUT_JOKERS


def deck_of(rules: BidWhistRules) -> tuple[int, ...]:
    """The deck ``rules`` play with: 54 cards with the jokers, the 52 French cards without."""
    return BIDWHIST_DECK if rules.jokers else SUIT_CARDS


def books_needed(bid_books: int) -> int:
    """The books a side that bid ``bid_books`` must take to make its contract:
    the six before the bid plus its number (the discards count as one)."""
    return BOOKS_BEFORE_BID + bid_books


def books_to_set(bid_books: int) -> int:
    """The books the defenders must take to set a contract of ``bid_books``:
    one more than the declarers can afford to lose."""
    return TOTAL_BOOKS - books_needed(bid_books) + 1


BOOKS_BEFORE_BID = 6  # a bid of n books promises the first six books plus n
KITTY_CLEAR_EDGE = 4  # no kitty card among the first or last four cards dealt

_MODE_WORDS = ("uptown", "downtown", "no trump")

# The phases and action kinds the hot path compares with, read once: an enum
# member read from its class costs a class attribute lookup every time.
_BID, _CONTRACT, _DISCARD, _PLAY, _HAND_OVER = Phase.BID, Phase.CONTRACT, Phase.DISCARD, Phase.PLAY, Phase.HAND_OVER
_PLAY_KIND, _DISCARD_KIND = ActionKind.PLAY, ActionKind.DISCARD
# The seat of each card dealt in turn after ``dealer``, the kitty's cards aside: clockwise from its left.
_DEAL_SEATS = tuple(
    tuple((dealer + 1 + index) % PLAYERS for index in range(PLAYERS * HAND_SIZE)) for dealer in range(PLAYERS)
)


def team_of(seat: int) -> int:
    """Partners sit opposite: seats 0 and 2 are team 0, seats 1 and 3 team 1."""
    return seat & 1


def team_members(team: int) -> tuple[int, ...]:
    return (team, team + 2)


def ace_low(rules: BidWhistRules | None) -> bool:
    """Whether the ace is the lowest card downtown under ``rules`` (default: high)."""
    return rules is not None and rules.downtown_ace == "low"


def rank_power(direction: int, rules: BidWhistRules | None = None) -> tuple[int, ...]:
    """Card strength within its suit for a ranking (0 uptown, 1 downtown).

    Uptown the ace is high. Downtown the rest run 2 (high) .. K (low), and
    the ace is above the 2 unless ``rules`` make it low (``downtown_ace:
    low``: below the king). Jokers are stronger than any ace; they only
    matter when they are trumps.
    """
    return _POWER[direction == 1, ace_low(rules) and direction == 1]


def _rank_power_table(downtown: bool, low_ace: bool) -> tuple[int, ...]:
    powers = []
    for card in range(54):
        rank = RANK_OF[card]
        if card == BIG_JOKER:
            powers.append(17)
        elif card == LITTLE_JOKER:
            powers.append(16)
        elif not downtown:
            powers.append(rank)
        elif rank == ACE:
            powers.append(1 if low_ace else ACE)
        else:
            powers.append(15 - rank)
    return tuple(powers)


_POWER = {
    (downtown, low_ace): _rank_power_table(downtown, low_ace) for downtown in (False, True) for low_ace in (False, True)
}


def effective_suits(trump: int) -> tuple[int, ...]:
    """The suit each card belongs to under a contract: jokers join the trump suit,
    and have no suit in no trump (``trump`` is NO_SUIT)."""
    return tuple(SUIT_OF[:52]) + (trump, trump)


_EFFECTIVE = {t: effective_suits(t) for t in (0, 1, 2, 3, NO_SUIT)}


def card_suit(card: int, trump: int) -> int:
    """The suit ``card`` follows as under a contract with ``trump``: its own
    suit, the trump suit for a joker, or NO_SUIT for a joker in no trump."""
    return _EFFECTIVE[trump][card]


def led_suit_of(cards: Sequence[int], trump: int) -> int:
    """The suit led in a trick holding ``cards`` (in play order) under a
    contract with ``trump`` (NO_SUIT for no trump): the suit of the first card
    that has one, or NO_SUIT when none does yet (a joker led in no trump)."""
    return _led_suit(cards, _EFFECTIVE[trump])


def trick_winner(cards: Sequence[int], trump: int, direction: int, rules: BidWhistRules | None = None) -> int:
    """Index of the card that wins a full trick under a contract: ``trump`` is
    the trump suit or NO_SUIT, ``direction`` 0 uptown or 1 downtown, ranked
    as ``rules`` say (the default rules when None)."""
    downtown = direction == 1
    return _winner_by_rows(cards, _EFFECTIVE[trump], _strength_rows(trump, downtown, downtown and ace_low(rules)))


def _led_suit(cards: Sequence[int], eff: Sequence[int]) -> int:
    for card in cards:
        suit = eff[card]
        if suit != NO_SUIT:
            return suit
    return NO_SUIT


def _strength(card: int, led: int, eff: Sequence[int], power: Sequence[int], trump: int) -> int:
    """How strongly ``card`` contends for a trick led in ``led``: a trump by its power above
    any card of the suit led, which rank by power; -1 for a card that cannot win (another
    suit, or a joker in no trump)."""
    suit = eff[card]
    if suit == NO_SUIT:  # a joker in no trump never wins
        return -1
    if suit == trump:
        return 200 + power[card]
    if suit == led:
        return 100 + power[card]
    return -1


# ``_strength`` of every card for one contract, a row per suit led (NO_SUIT first): built
# once per contract, so that a trick's winner is a lookup per card.
StrengthRows = tuple[tuple[int, ...], ...]


@cache
def _strength_rows(trump: int, downtown: bool, low_ace: bool) -> StrengthRows:
    eff, power = _EFFECTIVE[trump], _POWER[downtown, low_ace]
    return tuple(tuple(_strength(card, led, eff, power, trump) for card in range(54)) for led in range(NO_SUIT, 4))


def _winner_by_rows(cards: Sequence[int], eff: Sequence[int], rows: StrengthRows) -> int:
    """Index of the card that wins ``cards`` (in play order) under the contract whose
    ``_strength_rows`` are ``rows``: the strongest (the first of equal ones), or the first
    card when none can win (a trick of jokers alone in no trump)."""
    if not cards:
        return 0
    led = eff[cards[0]]
    if led == NO_SUIT:
        led = _led_suit(cards, eff)
    strength = rows[led + 1]
    best_index, best = 0, -1
    for index, card in enumerate(cards):
        if strength[card] > best:
            best, best_index = strength[card], index
    return best_index


def hand_order(cards: Sequence[int], trump: int, direction: int, rules: BidWhistRules | None = None) -> list[int]:
    """``cards`` sorted for display: jokers first (big, then little: they are
    the top trumps), then by suit (see ``display_suit_order``), strongest first
    under the ranking of ``rules`` (downtown: A, 2, 3 ... K, or 2, 3 ... K, A
    with the ace low)."""
    suit_position = display_suit_order(trump)
    power = rank_power(1 if direction == 1 else 0, rules)

    def key(card: int) -> tuple[int, int]:
        if card >= 52:
            return (-1, -power[card])
        return (suit_position[SUIT_OF[card]], -power[card])

    return sorted(cards, key=key)


def claimable(state: BidWhistState, seat: int) -> bool:
    """Whether ``seat`` may claim every trick left: it is on lead, and every card
    it holds wins whatever the others hold and play.

    Decided from the full state, conservatively: no trump (jokers included in a
    trump contract) left in any other hand unless every card of ``seat`` is a
    trump, and each of its cards higher, in the contract's ranking, than every
    card of the same suit left in the other hands. In no trump a joker never
    wins a trick, so a hand holding one cannot claim; the jokers others hold
    cannot win either. Any player on lead may claim, the declarer included.
    """
    if state.phase != Phase.PLAY or state.trick or state.current != seat or not state.hands[seat]:
        return False
    eff, power, trump = state._eff, state._power, state.trump
    best_outside: dict[int, int] = {}  # suit -> the strongest card of it in another hand
    for other, hand in enumerate(state.hands):
        if other == seat:
            continue
        for card in hand:
            suit = eff[card]
            if suit != NO_SUIT and power[card] > best_outside.get(suit, -1):
                best_outside[suit] = power[card]
    trump_outside = trump != NO_SUIT and trump in best_outside
    for card in state.hands[seat]:
        suit = eff[card]
        if suit == NO_SUIT:
            return False  # a joker in no trump
        if best_outside.get(suit, -1) > power[card]:
            return False
        if suit != trump and trump_outside:
            return False  # someone void in the suit could trump it
    return True


def trick_values(state: BidWhistState, seat: int) -> tuple[int, ...] | None:
    """What each number of tricks ``seat``'s team may take in this hand (index: its tricks
    over the whole hand, the kitty's book aside) is worth to it, for a search that plays the
    hand out: the books themselves. None where a renege may be played (``renege:
    penalized``): the hand's result then depends on more than the tricks taken."""
    if state.rules.renege == "penalized":
        return None
    return tuple(range(TRICKS_PER_HAND + 1))


def bid_key(books: int, mode: int, rules: BidWhistRules) -> int:
    """Ordering of bids: higher number first; at one number no trump beats
    both suit modes, and downtown beats uptown only under the variant."""
    if mode == BidMode.NOTRUMP:
        mode_rank = 2
    elif mode == BidMode.DOWNTOWN and rules.downtown_outranks_uptown:
        mode_rank = 1
    else:
        mode_rank = 0
    return books * 3 + mode_rank


@lru_cache(maxsize=64)
def bid_ladder(rules: BidWhistRules) -> tuple[tuple[int, ...], tuple[Action, ...]]:
    """Every bid ``rules`` allow, lowest first, and its ranking key (``bid_key``):
    the keys never fall along the ladder, so the bids above a key are the
    ladder's tail from ``bisect_right(keys, key)``. Built once per rules
    (a search starts thousands of games under one set) and shared."""
    bids = [(bid_key(books, mode, rules), bid(books, mode)) for books in range(rules.min_bid, 8) for mode in (0, 1, 2)]
    return tuple(key for key, _ in bids), tuple(action for _, action in bids)


def bid_words(books: int, mode: int) -> str:
    return f"{books} {_MODE_WORDS[mode]}"


def create_state(
    rules: BidWhistRules, players: int, seed: int, first_dealer: int | None, fixed_deals: dict[int, Any] | None
) -> BidWhistState:
    """A game before its first deal; the first dealer is drawn unless given."""
    if players != PLAYERS:
        raise ValueError(f"Bid Whist is played by 4 players, not {players}")
    draw, dealer = first_dealer_draw(seed, deck_of(rules)) if first_dealer is None else ([], first_dealer)
    return BidWhistState(rules, seed, dealer, draw, fixed_deals)


def check_fixed_deal(number: int, deal: Any, players: int, rules: BidWhistRules | None = None) -> None:
    """Raise ``ValueError`` unless ``deal`` is ``(hands, kitty)`` holding one
    Bid Whist deck of ``rules`` (the default rules when None): 12 cards a
    hand, a kitty of 6 (4 without jokers), no card twice."""
    rules = rules or BidWhistRules()
    try:
        hands, kitty = deal
        hands = [list(h) for h in hands]
        kitty = list(kitty)
    except (TypeError, ValueError):
        raise ValueError(f"deal {number}: expected (hands, kitty)") from None
    size = kitty_size(rules)
    if len(hands) != PLAYERS or any(len(h) != HAND_SIZE for h in hands) or len(kitty) != size:
        raise ValueError(f"deal {number}: a Bid Whist deal is 4 hands of 12 cards and a kitty of {size}")
    cards = [c for h in hands + [kitty] for c in h]
    if any(type(c) is not int for c in cards) or sorted(cards) != sorted(deck_of(rules)):
        deck = "Bid Whist deck" if rules.jokers else "Bid Whist deck without jokers"
        raise ValueError(
            f"deal {number}: the hands and kitty are not one {deck} (a card is missing, repeated or not a card)"
        )


def first_dealer_draw(seed: int, deck: Sequence[int] = BIDWHIST_DECK) -> tuple[list[tuple[int, int]], int]:
    """Deal face up from seat 0 clockwise until someone receives a diamond
    (from the deck the game plays with: without jokers, the 52 French cards)."""
    return first_dealer_from_deck(shuffled(deck, seeded_rng(seed, "first dealer")))


def first_dealer_from_deck(deck: list[int]) -> tuple[list[tuple[int, int]], int]:
    """The first-dealer draw from a deck in a given order: ``(draw, dealer)``.

    Kept apart from the shuffle so the rule (the first diamond deals; jokers
    are not diamonds) can be checked on a deck arranged by hand.
    """
    draw = []
    for index, card in enumerate(deck):
        seat = index % PLAYERS
        draw.append((seat, card))
        if SUIT_OF[card] == Suit.DIAMONDS:
            return draw, seat
    raise ValueError("the deck holds no diamond")


class BidWhistState(TrickGameState):
    """A whole game of Bid Whist. Mutate only through ``apply_in_place``."""

    __slots__ = (
        "kitty",
        "deal_sequence",
        "bids",
        "high_key",
        "high_bidder",
        "high_books",
        "high_mode",
        "declarer",
        "direction",
        "discards",
        "reneges",
        "redeal",
        "winner_team",
        "boston",
        "_eff",
        "_power",
        "_strengths",
        "_ladder",
        "_kitty_size",
    )

    game = "bidwhist"
    num_players = PLAYERS

    def __init__(
        self,
        rules: BidWhistRules,
        seed: int,
        dealer: int,
        first_draw: list[tuple[int, int]] | None = None,
        fixed_deals: dict[int, tuple[list[list[int]], list[int]]] | None = None,
    ) -> None:
        self.rules = rules
        self.seed = seed
        self.dealer = dealer
        self.deal_number = 0
        self.scores = [0, 0]
        self.start_scores = [0, 0]
        self.first_draw = first_draw or []
        # Deals given explicitly (tests, replays of histories without a seed):
        # deal number -> (hands, kitty). Shared between clones; never mutated.
        self.fixed_deals = fixed_deals or {}
        self.winner_team = -1
        # Every bid these house rules allow and its ranking key, lowest first
        # (``bid_ladder``); depends only on the rules, so states share it.
        self._ladder = bid_ladder(rules)
        self._kitty_size = kitty_size(rules)
        self.phase = Phase.BID
        self.current = -1
        self.hands: list[list[int]] = [[], [], [], []]
        self.kitty: list[int] = []
        self.deal_sequence: list[tuple[int, int]] = []
        self._reset_hand()

    # ------------------------------------------------------------------ setup
    def _reset_hand(self) -> None:
        self.bids: list[tuple[int, Action]] = []
        self.high_key = -1
        self.high_bidder = -1
        self.high_books = 0
        self.high_mode = -1
        self.declarer = -1
        self.trump = NO_SUIT
        self.direction = -1
        self.discards: list[int] = []
        self._reset_tricks()
        self.reneges: list[tuple[int, int]] = []
        self.redeal = False
        self.boston = False
        self._eff = _EFFECTIVE[NO_SUIT]
        self._power = rank_power(0)
        self._strengths = _strength_rows(NO_SUIT, False, False)

    def deal(self, events: list[GameEvent] | None) -> None:
        """Deal the next hand: 12 cards each, one at a time from the dealer's
        left, with the kitty cards (6, or 4 without jokers) placed anywhere but
        among the first or last four."""
        self.deal_number += 1
        self._reset_hand()
        fixed = self.fixed_deals.get(self.deal_number)
        rng = seeded_rng(self.seed, f"deal {self.deal_number}")
        if fixed is not None:
            hands = [list(h) for h in fixed[0]]
            kitty = list(fixed[1])
            sequence = _sequence_for(hands, kitty, self.dealer, rng)
        else:
            deck = shuffled(deck_of(self.rules), rng)
            kitty_positions = sorted(
                rng.sample(range(KITTY_CLEAR_EDGE, len(deck) - KITTY_CLEAR_EDGE), self._kitty_size)
            )
            # The kitty takes the cards at its positions; the others go one at a time
            # clockwise from the dealer's left, so the seat ``offset`` places after it
            # gets every fourth of them from ``offset`` on. The dealing order records
            # each card's seat, -1 for the kitty's.
            kitty = [deck[position] for position in kitty_positions]
            to_hands = deck[:]
            seats = list(_DEAL_SEATS[self.dealer])
            for position in reversed(kitty_positions):
                del to_hands[position]
            for position in kitty_positions:  # rising, so each lands at its own position
                seats.insert(position, -1)
            hands = [[], [], [], []]
            for offset in range(PLAYERS):
                hands[(self.dealer + 1 + offset) % PLAYERS] = to_hands[offset::PLAYERS]
            sequence = list(zip(deck, seats))
        self.hands = hands
        self.kitty = kitty
        self.deal_sequence = sequence
        self.start_scores = self.scores[:]
        self.phase = Phase.BID
        self.current = (self.dealer + 1) % PLAYERS
        if events is not None:
            events.append(
                Dealt(self.deal_number, self.dealer, tuple(tuple(h) for h in hands), tuple(kitty), tuple(sequence))
            )

    # ------------------------------------------------------------------ copy
    def copy(self) -> BidWhistState:
        new = object.__new__(BidWhistState)
        self._copy_shared(new)
        new.kitty = self.kitty[:]
        new.deal_sequence = self.deal_sequence  # immutable once dealt
        new.bids = self.bids[:]
        new.high_key = self.high_key
        new.high_bidder = self.high_bidder
        new.high_books = self.high_books
        new.high_mode = self.high_mode
        new.declarer = self.declarer
        new.direction = self.direction
        new.discards = self.discards[:]
        new.reneges = self.reneges[:]
        new.redeal = self.redeal
        new.winner_team = self.winner_team
        new.boston = self.boston
        new._eff = self._eff
        new._power = self._power
        new._strengths = self._strengths
        new._ladder = self._ladder
        new._kitty_size = self._kitty_size
        return new

    # ------------------------------------------------------------------ queries
    def tricks_per_hand(self) -> int:
        return TRICKS_PER_HAND

    def bid_key(self, books: int, mode: int) -> int:
        """Ordering of bids under this game's rules (see ``bid_key``)."""
        return bid_key(books, mode, self.rules)

    def _dealer_must_bid(self) -> bool:
        return self.current == self.dealer and self.high_bidder < 0 and self.rules.all_pass == "dealer_must_bid"

    def _dealer_may_take(self) -> bool:
        """Under ``dealer_takes``, the dealer may take a bid someone has made."""
        return self.rules.dealer_takes and self.current == self.dealer and self.high_bidder >= 0

    def led_suit(self) -> int:
        """The suit players must follow, or NO_SUIT when anything may be played."""
        return _led_suit(self.trick, self._eff)

    # ``legal_actions`` and ``apply_in_place`` are the search's hot path: a simulated
    # hand asks each once per move, so they read module constants and tables
    # (``_PLAY``, ``PLAY_ACTIONS``) rather than enum attributes and helper calls.
    def legal_actions(self) -> list[Action]:
        phase = self.phase
        if phase == _PLAY:  # ``legal_cards`` as actions, in one pass
            hand = self.hands[self.current]
            trick = self.trick
            if trick and self.rules.renege != "penalized":  # see ``_suit_to_follow``
                eff = self._eff
                led = eff[trick[0]]
                if led == NO_SUIT:
                    led = _led_suit(trick, eff)
                if led != NO_SUIT:
                    follow = [PLAY_ACTIONS[card] for card in hand if eff[card] == led]
                    if follow:
                        return follow
            return [PLAY_ACTIONS[card] for card in hand]
        if phase == _DISCARD:
            return [DISCARD_ACTIONS[card] for card in self.hands[self.declarer]]
        if phase == _BID:
            actions = [] if self._dealer_must_bid() else [PASS]
            keys, bids = self._ladder
            actions.extend(bids[bisect_right(keys, self.high_key) :])  # the bids above the high one
            if self._dealer_may_take():
                actions.extend(take(self.high_books, mode) for mode in (0, 1, 2))
            return actions
        if phase == _CONTRACT:
            if self.high_mode == BidMode.NOTRUMP:
                return list(DIRECTION_ACTIONS)
            return list(TRUMP_ACTIONS)
        if phase == _HAND_OVER:
            return [NEXT_DEAL]
        return []

    def legal_cards(self) -> list[int]:
        """Cards the current player may play (the hot path of every playout; ``legal_actions``
        lists the same cards as actions)."""
        hand = self.hands[self.current]
        led = self._suit_to_follow()
        if led != NO_SUIT:
            eff = self._eff
            follow = [card for card in hand if eff[card] == led]
            if follow:
                return follow
        return hand[:]

    def _suit_to_follow(self) -> int:
        """The suit the player to play must follow if it can, or NO_SUIT when any card
        may be played: on lead, after a joker led in no trump alone, or where the house
        rules let a renege through (``renege: penalized``)."""
        trick = self.trick
        if not trick:
            return NO_SUIT
        eff = self._eff
        led = eff[trick[0]]
        if led == NO_SUIT:  # a joker led in no trump: the next card sets the suit
            led = _led_suit(trick, eff)
        if self.rules.renege == "penalized":
            return NO_SUIT
        return led

    # ------------------------------------------------------------------ apply
    def apply_in_place(self, action: Action, events: list[GameEvent] | None = None, check: bool = True) -> None:
        """Apply ``action`` for the current player. With ``check`` an illegal
        action raises ``IllegalActionError`` and leaves the state unchanged."""
        if check:
            self.check_legal(action)
        kind = action.kind
        if kind == _PLAY_KIND:
            # A card, the hot path: ``_lay_card``'s steps with Bid Whist's led suit, renege
            # and trick winner, inline.
            card = action.value
            seat = self.current
            hand = self.hands[seat]
            renege = False
            trick = self.trick
            if trick:
                eff = self._eff
                led = eff[trick[0]]
                if led == NO_SUIT:
                    led = _led_suit(trick, eff)
                if led != NO_SUIT and eff[card] != led:  # a failure to follow suit
                    if self.rules.renege == "penalized" and any(eff[c] == led for c in hand):
                        renege = True
                        self.reneges.append((len(self.tricks), seat))
                    self.follow_failures.append((len(self.tricks), seat, led))
            hand.remove(card)
            self.hand_plays.append((seat, PLAY_ACTIONS[card]))
            trick.append(card)
            self.trick_seats.append(seat)
            if events is not None:
                events.append(CardPlayed(seat, card, renege))
            if len(trick) < PLAYERS:
                self.current = (seat + 1) % PLAYERS
            else:
                self._close_trick(_winner_by_rows(trick, self._eff, self._strengths), TRICKS_PER_HAND, events)
        elif kind == _DISCARD_KIND:
            self._discard(action.value, events)
        elif kind == ActionKind.PASS or kind == ActionKind.BID or kind == ActionKind.TAKE:
            self._bid(action, events)
        elif kind == ActionKind.TRUMP or kind == ActionKind.DIRECTION:
            self._contract(action, events)
        elif kind == ActionKind.NEXT_DEAL:
            self.dealer = (self.dealer + 1) % PLAYERS
            self.deal(events)

    def explain_illegal(self, action: Action, legal: Collection[Action] | None = None) -> IllegalActionError:
        """The reason ``action`` is not allowed now, worded for the player.

        Any value at all gets an answer, never an exception: a malformed
        action is named so, and a legal one is answered ``allowed``."""
        if not is_well_formed(action):
            return malformed_action()
        phase, kind = self.phase, action.kind
        if phase == Phase.GAME_OVER:
            return IllegalActionError("The game is over", "game_over")
        if action in (self.legal_actions() if legal is None else legal):
            return allowed_action()
        if kind not in _EXPECTED_KINDS[phase]:
            return IllegalActionError(
                _PHASE_PROMPTS[phase].format(kitty=self._kitty_size), "wrong_phase", phase=int(phase)
            )
        if phase == Phase.BID:
            if kind == ActionKind.TAKE:
                return self._explain_take(action)
            if kind == ActionKind.PASS:
                return IllegalActionError("The dealer must bid: the other three passed", "dealer_must_bid")
            books, mode = action.value, action.mode
            if books > 7 or books < 1 or mode not in (0, 1, 2):
                return IllegalActionError(
                    f"Bid must be from {self.rules.min_bid} to 7", "bid_range", min=self.rules.min_bid
                )
            if books < self.rules.min_bid:
                return IllegalActionError(
                    f"Bid must be at least {self.rules.min_bid}", "bid_min", min=self.rules.min_bid
                )
            high = bid_words(self.high_books, self.high_mode)
            return IllegalActionError(
                f"Bid must be higher than {high}", "bid_too_low", books=self.high_books, mode=self.high_mode
            )
        if phase == Phase.CONTRACT:
            if self.high_mode == BidMode.NOTRUMP:
                return IllegalActionError("Choose uptown or downtown for no trump", "choose_direction")
            return IllegalActionError("Choose the trump suit", "choose_trump")
        if phase == Phase.HAND_OVER:
            return IllegalActionError("The hand is over", "hand_over")
        card = action.value
        hand = self.hands[self.declarer if phase == Phase.DISCARD else self.current]
        if not 0 <= card < 54 or card not in hand:
            name = card_name(card) if 0 <= card < 54 else "that card"
            return IllegalActionError(f"You do not hold {name}", "not_in_hand", card=card)
        led = self.led_suit()
        if led == NO_SUIT:  # unreachable: with nothing to follow any card held is legal
            return allowed_action()
        suit_name = SUIT_LABELS[led]
        if card in (BIG_JOKER, LITTLE_JOKER):
            return IllegalActionError(
                f"You must follow {suit_name}: a joker may be played only when you cannot follow",
                "must_follow",
                suit=led,
            )
        return IllegalActionError(f"You must follow {suit_name}", "must_follow", suit=led)

    def _explain_take(self, action: Action) -> IllegalActionError:
        """Why the dealer's take ``action`` is refused now."""
        if not self.rules.dealer_takes:
            return IllegalActionError("These house rules do not let the dealer take the bid", "take_not_allowed")
        if self.current != self.dealer:
            return IllegalActionError("Only the dealer may take the bid", "take_dealer_only")
        if self.high_bidder < 0:
            return IllegalActionError("Nobody has bid: there is no bid to take", "take_no_bid")
        return IllegalActionError(
            f"The dealer takes the bid at its number, {self.high_books}", "take_books", books=self.high_books
        )

    def _bid(self, action: Action, events: list[GameEvent] | None) -> None:
        seat = self.current
        self.bids.append((seat, action))
        if action.kind != ActionKind.PASS:  # a bid, or the dealer taking the high bid
            self.high_key = self.bid_key(action.value, action.mode)
            self.high_bidder = seat
            self.high_books = action.value
            self.high_mode = action.mode
        if events is not None:
            events.append(BidMade(seat, action))
        if len(self.bids) < PLAYERS:
            self.current = (seat + 1) % PLAYERS
            return
        if self.high_bidder < 0:  # all four passed under all_pass: redeal
            self.redeal = True
            if events is not None:
                events.append(Redealt(self.dealer))
            self._finish_hand(events)
            return
        self.declarer = self.high_bidder
        self.phase = Phase.CONTRACT
        self.current = self.declarer

    def _contract(self, action: Action, events: list[GameEvent] | None) -> None:
        if self.high_mode == BidMode.NOTRUMP:
            self.trump = NO_SUIT
            self.direction = action.value
        else:
            self.trump = action.value
            self.direction = 0 if self.high_mode == BidMode.UPTOWN else 1
        self._eff = _EFFECTIVE[self.trump]
        self._power = rank_power(self.direction, self.rules)
        downtown = self.direction == 1
        self._strengths = _strength_rows(self.trump, downtown, downtown and ace_low(self.rules))
        declarer = self.declarer
        self.hands[declarer].extend(self.kitty)
        self.phase = Phase.DISCARD
        if events is not None:
            contract = self.contract()
            assert contract is not None
            events.append(contract)
            events.append(KittyTaken(declarer, tuple(self.kitty)))

    def contract(self) -> ContractSet | None:
        """The contract of this hand, once the declarer has named it."""
        if self.declarer < 0 or self.direction < 0:
            return None
        return ContractSet(self.declarer, self.high_books, self.high_mode, self.trump, self.direction)

    def _discard(self, card: int, events: list[GameEvent] | None) -> None:
        hand = self.hands[self.declarer]
        hand.remove(card)
        self.discards.append(card)
        if len(self.discards) == self._kitty_size:
            self.phase = Phase.PLAY
            lead = self.declarer if self.rules.first_lead == "declarer" else (self.dealer + 1) % PLAYERS
            self.leader = lead
            self.current = lead
        if events is not None:
            events.append(Discarded(self.declarer, card, self.table_books()))

    def trick_winner_index(self) -> int:
        """Index in the trick of the winning card: highest trump, else highest
        of the suit led; jokers in no trump never win."""
        return _winner_by_rows(self.trick, self._eff, self._strengths)

    # ------------------------------------------------------------------ scoring
    def hand_books(self, with_penalties: bool = True) -> list[int]:
        """Books per team with the kitty book (once it is laid aside) and, unless
        told otherwise, every renege penalty applied in order (penalties are
        settled at the hand's end)."""
        books = [self.tricks_won[0] + self.tricks_won[2], self.tricks_won[1] + self.tricks_won[3]]
        if self.declarer >= 0 and len(self.discards) == self._kitty_size:
            books[team_of(self.declarer)] += 1
        if not with_penalties:
            return books
        for _, seat in self.reneges:
            offender = team_of(seat)
            other = 1 - offender
            if books[offender] < 3:
                books[offender], books[other] = 0, TOTAL_BOOKS
            else:
                books[offender] -= 3
                books[other] += 3
        return books

    def _finish_hand(self, events: list[GameEvent] | None) -> None:
        change = [0, 0]
        books = [0, 0]
        made = None
        if not self.redeal:
            books = self.hand_books()
            team = team_of(self.declarer)
            multiplier = self.rules.notrump_multiplier if self.high_mode == BidMode.NOTRUMP else 1
            made = books[team] >= books_needed(self.high_books)
            change[team] = (books[team] - BOOKS_BEFORE_BID if made else -self.high_books) * multiplier
            # A Boston counts only where the house plays it (after the renege penalties above).
            self.boston = self.rules.boston != "off" and books[team] == TOTAL_BOOKS
            if self.boston and self.rules.boston == "double":
                change[team] *= 2
            self.scores[0] += change[0]
            self.scores[1] += change[1]
        target = self.rules.target_score
        for side in (0, 1):
            if self.scores[side] >= target:
                self.winner_team = side
            elif self.scores[side] <= -target:
                self.winner_team = 1 - side
        if self.boston and self.rules.boston == "wins_game":
            self.winner_team = team_of(self.declarer)
        self.phase = Phase.GAME_OVER if self.winner_team >= 0 else Phase.HAND_OVER
        self.current = -1
        if events is not None:
            events.append(
                BidWhistHandScored(
                    self.deal_number,
                    self.redeal,
                    -1 if self.redeal else self.declarer,
                    self.contract(),
                    made,
                    tuple(self.reneges),
                    tuple(books),
                    tuple(change),
                    tuple(self.scores),
                    self.boston,
                )
            )
            if self.winner_team >= 0:
                events.append(GameOver(tuple(self.scores), (self.winner_team,)))

    def results(self) -> dict[str, Any]:
        return {"final_scores": self.scores[:], "winners": [self.winner_team] if self.winner_team >= 0 else []}

    def hand_returns(self) -> tuple[int, ...]:
        """Per seat, what the hand just scored changed for that seat's team."""
        change = [0, 0]
        if self.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
            change = [s - b for s, b in zip(self.scores, self.start_scores)]
        return tuple(change[team_of(seat)] for seat in range(PLAYERS))

    def returns(self) -> tuple[int, ...]:
        """Per seat, its team's score (final once the game is over)."""
        return tuple(self.scores[team_of(seat)] for seat in range(PLAYERS))

    # ------------------------------------------------------------------ shared hooks
    def table_books(self) -> tuple[int, ...]:
        # Reneges are found out and penalized when the hand ends; until then
        # the books on the table are the books taken.
        return tuple(self.hand_books(self.phase in (Phase.HAND_OVER, Phase.GAME_OVER)))

    def led_suit_of(self, cards: tuple[int, ...] | list[int]) -> int:
        return _led_suit(cards, self._eff)

    def reveals_void(self, card: int, led: int) -> bool:
        return self._eff[card] != led

    def reneged(self, trick_index: int, seat: int) -> bool:
        return (trick_index, seat) in self.reneges

    def failure_proves_void(self, player: int, viewer: int) -> bool:
        # Under "penalized" a failure to follow may be a renege, which only its
        # maker knows until the hand is scored and the reneges are revealed.
        return self.rules.renege != "penalized" or player == viewer or self.phase in (Phase.HAND_OVER, Phase.GAME_OVER)

    def seat_view_fields(self) -> frozenset[str]:
        return _SEAT_BIDWHIST_VIEW_FIELDS

    def actions_sight(self, seat: int) -> Hashable:
        return seat >= 0 and seat == self.declarer  # only the declarer sees the discards

    def hand_actions_before_play(self, seat: int) -> list[tuple[int, Action | None]]:
        actions: list[tuple[int, Action | None]] = list(self.bids)
        if self.direction >= 0:
            choice = choose_direction(self.direction) if self.high_mode == BidMode.NOTRUMP else choose_trump(self.trump)
            actions.append((self.declarer, choice))
        mine = seat >= 0 and seat == self.declarer
        actions.extend((self.declarer, discard(c) if mine else None) for c in self.discards)
        return actions

    def finished_hand(self) -> FinishedHand:
        """The hand as dealt (read from the deal itself, before the declarer took the kitty in
        and laid cards away), the kitty, the discards and the tricks."""
        hands: list[list[int]] = [[] for _ in range(PLAYERS)]
        for card, seat in self.deal_sequence:
            if seat >= 0:
                hands[seat].append(card)
        return FinishedHand(
            game=self.game,
            deal_number=self.deal_number,
            dealer=self.dealer,
            hands=tuple(tuple(hand) for hand in hands),
            tricks=tuple(self.tricks),
            tricks_won=tuple(self.tricks_won),
            trump=self.trump,
            kitty=tuple(self.kitty),
            discards=tuple(self.discards),
            declarer=self.declarer,
            direction=self.direction,
            redeal=self.redeal,
        )

    # ------------------------------------------------------------------ views
    def view(self, seat: int) -> BidWhistView:
        return BidWhistView.from_fields(
            **self.shared_view_fields(seat), **self._public_bidwhist_fields(), **self._seat_bidwhist_fields(seat)
        )

    def views(self, seats: Sequence[int]) -> list[PlayerView]:
        public = self._public_bidwhist_fields()
        return [
            BidWhistView.from_fields(**shared, **public, **self._seat_bidwhist_fields(seat))
            for seat, shared in zip(seats, self.shared_views_fields(seats), strict=True)
        ]

    def _public_bidwhist_fields(self) -> dict[str, Any]:
        """The Bid Whist fields of a view that every viewer sees alike."""
        return {name: read(self, PUBLIC_SEAT) for name, read in _PUBLIC_BIDWHIST_FIELDS.items()}

    def _seat_bidwhist_fields(self, seat: int) -> dict[str, Any]:
        """The Bid Whist fields of ``seat``'s view only the declarer sees filled: the kitty (once
        the contract is named) and the discards."""
        return {name: read(self, seat) for name, read in _SEAT_BIDWHIST_FIELDS.items()}

    def rollout_view(self, seat: int, legal: Sequence[Action]) -> BidWhistView:
        """A ``LazyBidWhistView``: a search builds one for every simulated move, and the
        medium players read only some of the fields (the voids, the bids and the actions
        of the hand least often)."""
        self._check_viewer(seat)
        return LazyBidWhistView(self, seat, legal_actions=tuple(legal) if seat == self.current else ())


# How each Bid Whist field of a view is read from a state for a seat (see ``SHARED_VIEW_FIELDS``):
# those every viewer sees alike, and those only the declarer sees filled.
_PUBLIC_BIDWHIST_FIELDS: dict[str, FieldReader] = {
    "bids": lambda state, seat: tuple(state.bids),
    "high_bid": lambda state, seat: (state.high_books, state.high_mode) if state.high_bidder >= 0 else None,
    "high_bidder": lambda state, seat: state.high_bidder,
    "declarer": lambda state, seat: state.declarer,
    "contract_books": lambda state, seat: state.high_books,
    "contract_mode": lambda state, seat: state.high_mode if state.declarer >= 0 else -1,
    "direction": lambda state, seat: state.direction,
    "discard_count": lambda state, seat: len(state.discards),
    "redeal": lambda state, seat: state.redeal,
    "winner_team": lambda state, seat: state.winner_team,
    "kitty_size": lambda state, seat: state._kitty_size,
}
_SEAT_BIDWHIST_FIELDS: dict[str, FieldReader] = {
    # The kitty once the declarer has named the contract and taken it; the discards as laid aside.
    "kitty": lambda state, seat: (
        tuple(state.kitty) if seat >= 0 and seat == state.declarer and state.phase != Phase.CONTRACT else ()
    ),
    "discards": lambda state, seat: tuple(state.discards) if seat >= 0 and seat == state.declarer else (),
}
_SEAT_BIDWHIST_VIEW_FIELDS = SEAT_VIEW_FIELDS | frozenset(_SEAT_BIDWHIST_FIELDS)
BIDWHIST_VIEW_FIELDS: dict[str, FieldReader] = {
    **SHARED_VIEW_FIELDS,
    **_PUBLIC_BIDWHIST_FIELDS,
    **_SEAT_BIDWHIST_FIELDS,
}
# Called as LazyBidWhistView(state, seat, **known), not with the fields.
LazyBidWhistView: Callable[..., BidWhistView] = lazy_view_type(BidWhistView, BIDWHIST_VIEW_FIELDS)


# The kinds of action each phase takes (a server asks why each card of a hand is refused).
_EXPECTED_KINDS = {
    Phase.BID: (ActionKind.BID, ActionKind.PASS, ActionKind.TAKE),
    Phase.CONTRACT: (ActionKind.TRUMP, ActionKind.DIRECTION),
    Phase.DISCARD: (ActionKind.DISCARD,),
    Phase.PLAY: (ActionKind.PLAY,),
    Phase.HAND_OVER: (ActionKind.NEXT_DEAL,),
}
_PHASE_PROMPTS = {
    Phase.BID: "It is time to bid or pass",
    Phase.CONTRACT: "The declarer must first choose the contract",
    Phase.DISCARD: "The declarer must first discard {kitty} cards",
    Phase.PLAY: "It is time to play a card",
    Phase.HAND_OVER: "The hand is over",
}


def _sequence_for(hands: list[list[int]], kitty: list[int], dealer: int, rng: Random) -> list[tuple[int, int]]:
    """A dealing order for given hands: round-robin from the dealer's left with
    the kitty cards placed at seeded positions away from both ends."""
    total = PLAYERS * HAND_SIZE + len(kitty)
    positions = set(rng.sample(range(KITTY_CLEAR_EDGE, total - KITTY_CLEAR_EDGE), len(kitty)))
    queues = [list(h) for h in hands]
    kitty_queue = list(kitty)
    sequence = []
    seat = dealer
    for position in range(total):
        if position in positions:
            sequence.append((kitty_queue.pop(0), -1))
        else:
            seat = (seat + 1) % PLAYERS
            sequence.append((queues[seat].pop(0), seat))
    return sequence


class BidWhistHiddenInfo:
    """What a Bid Whist seat cannot see (see ``game.rules.hidden``): the other
    hands, the kitty until it is the declarer's and taken, and the
    declarer's discards, which only the declarer knows. Bids are public."""

    def layout(self, view: PlayerView) -> HiddenLayout:
        bw = cast(BidWhistView, view)
        taken = bw.declarer >= 0 and bw.direction >= 0  # the kitty goes to hand with the contract
        return HiddenLayout(
            seen=bw.discards,
            kitty=bw.kitty,
            discards=bw.discards,
            kitty_size=bw.kitty_size,
            kitty_taker=bw.declarer if taken else -1,
            hidden_discards=0 if bw.discards else bw.discard_count,
        )

    def card_suit(self, card: int, trump: int) -> int:
        return card_suit(card, trump)

    def fixed_deal(self, view: PlayerView, hands: Sequence[Sequence[int]], kitty: Sequence[int]) -> Any:
        return ([list(hand) for hand in hands], list(kitty))

    def hand_actions(self, view: PlayerView, hidden: HiddenCards) -> list[tuple[int, Action]]:
        # Only the declarer's discards are ever hidden, in the order laid aside.
        unseen = iter(hidden.discards)
        return [(seat, action if action is not None else discard(next(unseen))) for seat, action in view.actions]

    def restore_record(self, state: Any, view: PlayerView) -> None:
        """A Bid Whist state keeps nothing of earlier hands but the scores."""


HIDDEN_INFO = BidWhistHiddenInfo()
