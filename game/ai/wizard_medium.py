"""The medium Wizard player: predict from hand strength, then play to hit it."""

from __future__ import annotations

# Prediction adds up how likely each card is to take a trick: a Wizard almost
# always, a Jester never, high trumps often, side aces and kings less so, and
# every middling card less as more players sit at the table. The bids already
# seen move the total (seat position: bids under the fair share leave tricks
# to pick up, bids over it mean a fight; hidden bids say nothing). The total is
# rounded and, when the uneven-bids rule forbids that number, moved to the
# nearest allowed one. After a Wizard turn-up the seat that names trump (the
# dealer, or the player at its left under ``wizard_turn_up:
# first_bidder_chooses``) names the suit under which its hand expects the most
# tricks.
#
# Play aims at exactly the bid. A player still short of it tries to win the
# trick, with the cheapest card that will hold given the cards not yet seen and
# the players still to play, spending a Wizard only when it must; a player
# already at its bid ducks, throwing its most dangerous card that still loses
# (a Wizard under an earlier Wizard, a high card under a higher one) and keeping
# Jesters for the tricks it cannot otherwise lose. A player whose bid is lost
# short lets a trick go to an opponent already at its bid, to spoil that bid.
#
# The card choice (``card_to_play``) reads a ``WizardTable``: what the seat
# knows of the trick and of the cards still out. A real decision builds it
# from the view; a search's simulated round keeps it up to date card by card
# (``wizard_rollout``), which gives the same table faster.

import random
from collections.abc import Iterable, Sequence
from functools import cache

from game.ai.medium import MediumPlayer, later_seats
from game.rules.actions import Action, ActionKind, choose_trump, play, predict
from game.rules.cards import JESTER, NO_SUIT, RANK_OF, SUIT_OF, WIZARD, WIZARD_DECK
from game.rules.core import Phase
from game.rules.view import WizardView
from game.rules.wizard import led_suit_of, strengths, trick_winner

# Chance a trump of each rank takes a trick (index = rank), at a 3-player table.
TRUMP_WIN = {14: 0.92, 13: 0.82, 12: 0.7, 11: 0.58, 10: 0.48, 9: 0.4, 8: 0.34}
LOW_TRUMP_WIN = 0.28
SIDE_WIN = {14: 0.72, 13: 0.38, 12: 0.14}  # with a trump suit in play
NO_TRUMP_SIDE_WIN = {14: 0.8, 13: 0.5, 12: 0.25, 11: 0.1}
WIZARD_WIN = 0.97
SAFE_ENOUGH = 0.6  # a lead or a follow that holds at least this often is worth trying
STRETCH_SHARE = 0.5  # see table_scale
# Per (trump, suit led), the suits whose unseen cards may beat a card, in suit
# order: the trump suit and the suit led (NO_SUIT for either adds none).
_THREAT_SUITS = {
    (trump, led): tuple(sorted({trump, led} - {NO_SUIT})) for trump in range(NO_SUIT, 4) for led in range(NO_SUIT, 4)
}
WIZARDS_IN_DECK = WIZARD_DECK.count(WIZARD)
CARDS_OF_SUIT = tuple(tuple(card for card in WIZARD_DECK if SUIT_OF[card] == suit) for suit in range(4))


# ``WizardMediumPlayer`` is the factory the registry names for the level
# "medium" of Wizard. The rules answer what they know: whether a card would
# take the trick and who is winning it (``wizard.trick_winner``), the suit
# led (``wizard.led_suit_of``), which cards outrank which
# (``wizard.strengths``); every seat's prediction as far as this seat may see
# it and the suits each seat has shown it lacks come from the view.
class WizardMediumPlayer(MediumPlayer[WizardView]):
    view_type = WizardView

    def decide(self, view: WizardView, rng: random.Random) -> Action:
        if view.phase == Phase.PREDICT:
            return choose_prediction(view, rng)
        if view.phase == Phase.TRUMP_CHOICE:
            return choose_trump_suit(view, rng)
        if view.phase == Phase.PLAY:
            return play(choose_card(view, rng))
        return view.legal_actions[0]


# ---------------------------------------------------------------------- predicting
def card_chance(card: int, trump: int, players: int, cards_each: int, long_trumps: bool) -> float:
    """A rough chance that one card takes a trick, before any scaling to the table."""
    if card == WIZARD:
        return WIZARD_WIN
    if card == JESTER:
        return 0.0
    crowd = players - 3  # each extra player makes middling cards weaker
    rank = RANK_OF[card]
    if SUIT_OF[card] == trump:
        chance = TRUMP_WIN.get(rank, LOW_TRUMP_WIN)
        if rank < 13:
            chance -= 0.05 * crowd
        if long_trumps and rank < 12:
            chance += 0.12  # length in trumps makes low trumps ruff
        return max(0.05, chance)
    table = NO_TRUMP_SIDE_WIN if trump == NO_SUIT else SIDE_WIN
    chance = table.get(rank, 0.0)
    if not chance:
        return 0.0
    chance -= 0.06 * crowd
    if trump != NO_SUIT and cards_each >= 8:
        chance *= 0.85  # long rounds: side winners get ruffed
    return max(0.0, chance)


@cache
def table_scale(has_trump: bool, players: int, cards_each: int) -> float:
    """How much to stretch the raw card chances so that an average hand is
    worth its fair share of the tricks (cards / players).

    The raw chances fit a 5-6 player table; at 3 or 4 players middling cards
    win far more often than they suggest, since every trick is won by somebody.
    Only half the full stretch is applied: in simulation the player sheds a
    surplus trick more reliably than it wins a missing one, so erring low hits
    the bid more often (3 players: 35% with no stretch, 41% full, 44% half)."""
    trump = 0 if has_trump else NO_SUIT
    average = sum(card_chance(c, trump, players, cards_each, False) for c in WIZARD_DECK) / len(WIZARD_DECK)
    if average <= 0:
        return 1.0
    full = max(1.0, (1.0 / players) / average)
    return 1.0 + STRETCH_SHARE * (full - 1.0)


@cache
def card_chances(trump: int, players: int, cards_each: int, long_trumps: bool) -> tuple[float, ...]:
    """``card_chance`` of every card id, for one table: the search's worlds
    judge thousands of drawn hands a decision with ``expected_tricks``."""
    return tuple(card_chance(card, trump, players, cards_each, long_trumps) for card in range(len(SUIT_OF)))


def expected_tricks(hand: Iterable[int], trump: int, players: int, cards_each: int) -> float:
    """The number of tricks this hand should take, as a sum of per-card chances."""
    long_trumps = sum(1 for c in hand if c < 52 and SUIT_OF[c] == trump) >= 3
    chances = card_chances(trump, players, cards_each, long_trumps)
    raw = sum([chances[c] for c in hand])
    return min(float(cards_each), raw * table_scale(trump != NO_SUIT, players, cards_each))


KNOWN_BID_SHIFT = 0.2  # how far each trick the others bid under their share moves the estimate


def known_bids_shift(view: WizardView) -> float:
    """Tricks to add to this seat's estimate for the bids already seen.

    Seats that bid under their fair share leave tricks for the others to pick
    up; seats that bid over it will fight for the tricks this hand hoped to
    win. Bids not yet made or hidden (hidden and delayed-reveal bidding) say
    nothing, so the first bidder and those modes get no shift."""
    fair = view.tricks_per_hand / view.num_players
    known = [bid for seat, bid in enumerate(view.predictions) if seat != view.seat and bid >= 0]
    return KNOWN_BID_SHIFT * sum(fair - bid for bid in known)


def choose_prediction(view: WizardView, rng: random.Random, bias: float = 0.0) -> Action:
    """The estimate rounded, moved off a forbidden bid. ``bias`` (tricks, 0 for
    the medium player) is the easy player's misjudgement of its hand."""
    cards_each = view.tricks_per_hand
    estimate = max(
        0.0, expected_tricks(view.hand, view.trump, view.num_players, cards_each) + bias + known_bids_shift(view)
    )
    ideal = rounded_bid(estimate, cards_each)
    if ideal != view.forbidden_bid:
        return predict(ideal)
    # The uneven-bids rule forbids it: the nearest allowed number, closer to the estimate first.
    allowed = sorted(a.value for a in view.legal_actions if a.kind == ActionKind.PREDICT)
    best = min(allowed, key=lambda n: (abs(n - estimate), rng.random()))
    return predict(best)


def rounded_bid(estimate: float, cards_each: int) -> int:
    """An estimate of tricks as a bid: rounded, within 0 and the cards each."""
    return max(0, min(int(estimate + 0.5), cards_each))


def choose_trump_suit(view: WizardView, rng: random.Random) -> Action:
    """After a Wizard turn-up the seat naming trump (whichever the house rules
    say) names the suit under which its hand expects the most tricks; length
    and rank break near ties."""
    players, cards_each = view.num_players, view.tricks_per_hand

    def worth(suit: int) -> tuple[float, float, float]:
        held = [c for c in view.hand if c < 52 and SUIT_OF[c] == suit]
        length = len(held) + sum(RANK_OF[c] for c in held) / 100
        return (round(expected_tricks(view.hand, suit, players, cards_each), 6), length, rng.random())

    return choose_trump(max(range(4), key=worth))


# ---------------------------------------------------------------------- playing
# Sets of suit cards as bit masks (bit ``card`` for card ids 0..51): the
# unseen cards that may beat one are counted by ``int.bit_count`` instead of
# listed, since a search asks this for every card of every simulated move.
CARD_BIT = tuple(1 << card if card < 52 else 0 for card in range(len(SUIT_OF)))
SUIT_MASK = tuple(sum(1 << card for card in CARDS_OF_SUIT[suit]) for suit in range(4))
ALL_SUIT_CARDS = sum(SUIT_MASK)


def _outranking(led: int, trump: int) -> tuple[int, ...]:
    """Per card: the mask of the suit cards the rules rank strictly above it
    when ``led`` is the suit led and ``trump`` the trump suit."""
    strength = strengths(led, trump)
    return tuple(
        sum(1 << other for other in range(52) if strength[other] > strength[card]) for card in range(len(SUIT_OF))
    )


_BEATEN_BY = {(trump, led): _outranking(led, trump) for trump, led in _THREAT_SUITS}


def card_mask(cards: Iterable[int]) -> int:
    """The suit cards among ``cards`` as a bit mask (Wizards and Jesters add nothing)."""
    mask = 0
    for card in cards:
        mask |= CARD_BIT[card]
    return mask


_REPEATED_SUMS: dict[tuple[float, float, int], float] = {}


def distinct_cards(legal: Sequence[int], unseen: int, preferred: int) -> list[int]:
    """One of ``legal`` for each group of cards that play alike: cards of one suit with no card of
    ``unseen`` (a mask of the suit cards the seat has not seen) ranked between them win and lose to
    the same cards in every trick. A group is stood for by ``preferred`` when it holds it, else by
    its lowest card; each Wizard or Jester stands for itself. In the order of ``legal``."""
    chosen: list[int] = []
    by_suit: dict[int, list[int]] = {}
    for card in legal:
        if SUIT_OF[card] == NO_SUIT:
            chosen.append(card)
        else:
            by_suit.setdefault(SUIT_OF[card], []).append(card)
    for cards in by_suit.values():
        cards.sort(key=lambda c: RANK_OF[c])
        group = [cards[0]]
        for card in cards[1:]:
            # Suit cards' ids run up with rank within a suit, so the cards between are the ids between.
            if unseen & ((1 << card) - (1 << (group[-1] + 1))):
                chosen.append(preferred if preferred in group else group[0])
                group = []
            group.append(card)
        chosen.append(preferred if preferred in group else group[0])
    return [card for card in legal if card in chosen]


def repeated_sum(start: float, step: float, times: int) -> float:
    """``start`` with ``step`` added ``times`` times, one addition at a time.

    Not ``start + step * times``: the two can differ in the last bit, and the
    medium player's figures (its tuning, every recorded game, the search's
    rollouts) were made by adding the threats one card at a time. The few
    distinct sums are kept, so the loop runs once for each."""
    key = (start, step, times)
    total = _REPEATED_SUMS.get(key)
    if total is None:
        total = start
        for _ in range(times):
            total += step
        _REPEATED_SUMS[key] = total
    return total


class WizardTable:
    """What one seat knows about the trick in progress and the cards still
    out, as the medium player's card choice needs it.

    ``from_view`` builds it from a seat's view. A search's rollout builds it
    from what it tracks card by card (``wizard_rollout``), which is faster
    than reading a view for every simulated move; both give the same fields,
    so the player decides alike either way."""

    __slots__ = (
        "seat",
        "trump",
        "tricks_left",
        "legal",
        "trick_cards",
        "trick_seats",
        "later",
        "unseen",
        "unseen_wizards",
        "unseen_total",
        "voids",
        "held_by_later",
        "predictions",
        "tricks_won",
        "hand",
    )

    def __init__(
        self,
        seat: int,
        trump: int,
        tricks_left: int,
        legal: list[int],
        trick_cards: tuple[int, ...],
        trick_seats: Sequence[int],
        later: list[int],
        unseen: int,
        unseen_wizards: int,
        unseen_total: int,
        voids: Sequence[frozenset[int]],
        held_by_later: int,
        predictions: Sequence[int],
        tricks_won: Sequence[int],
        hand: Sequence[int],
    ) -> None:
        self.seat = seat
        self.trump = trump
        self.tricks_left = tricks_left  # the cards this seat holds
        self.legal = legal  # the legal cards, in the rules' order
        self.trick_cards = trick_cards  # the trick so far, in play order
        self.trick_seats = trick_seats  # who played them
        self.later = later  # the seats still to play to it, in turn order
        self.unseen = unseen  # mask of the suit cards this seat has not seen
        self.unseen_wizards = unseen_wizards
        self.unseen_total = unseen_total  # cards not seen, each Wizard and Jester counted
        self.voids = voids  # per seat, the suits it has shown it lacks
        self.held_by_later = held_by_later  # cards in the hands of the later seats
        self.predictions = predictions  # per seat, as this seat may see them (-1: hidden)
        self.tricks_won = tricks_won
        self.hand = hand  # the seat's own cards (the medium player reads only ``legal``)

    @classmethod
    def from_view(cls, view: WizardView) -> WizardTable:
        seen = [*view.hand, *view.played_cards()]
        if view.turn_up >= 0:
            seen.append(view.turn_up)
        later = later_seats(view)
        sizes = view.hand_sizes
        return cls(
            seat=view.seat,
            trump=view.trump,
            tricks_left=len(view.hand),
            legal=[a.value for a in view.legal_actions if a.kind == ActionKind.PLAY],
            trick_cards=tuple(card for _, card in view.trick),
            trick_seats=tuple(seat for seat, _ in view.trick),
            later=later,
            unseen=ALL_SUIT_CARDS & ~card_mask(seen),
            unseen_wizards=WIZARDS_IN_DECK - seen.count(WIZARD),
            # every card seen is one copy fewer
            unseen_total=max(1, len(WIZARD_DECK) - len(seen)),
            voids=view.voids,
            held_by_later=sum([sizes[s] for s in later]),
            predictions=view.predictions,
            tricks_won=view.tricks_won,
            hand=view.hand,
        )

    def is_trump(self, card: int) -> bool:
        return card not in (WIZARD, JESTER) and SUIT_OF[card] == self.trump

    def winning_card(self) -> int:
        """The card winning the trick so far (-1 before the lead)."""
        cards = self.trick_cards
        return cards[trick_winner(cards, self.trump)] if cards else -1

    def winning_seat(self) -> int:
        """The seat winning the trick so far (-1 before the lead)."""
        cards = self.trick_cards
        return self.trick_seats[trick_winner(cards, self.trump)] if cards else -1

    def strong_card_winning(self) -> bool:
        """Is the trick so far being won by a Wizard or a trump?"""
        card = self.winning_card()
        return card == WIZARD or (card >= 0 and self.is_trump(card))

    def hold_chance(self, card: int) -> float:
        """Chance that ``card``, played now, wins the trick: zero if it does not beat
        the table; otherwise the chance no later player holds (and plays) a card
        that beats it."""
        cards = self.trick_cards
        trick = cards + (card,)
        if cards and trick_winner(trick, self.trump) != len(cards):  # not winning so far (a lead always is)
            return 0.0
        if card == WIZARD:
            return 1.0
        later = self.later
        if not later:
            return 1.0
        led = led_suit_of(trick)
        trump = self.trump
        ruff_share = 1.0 if self.is_trump(card) else self._ruff_share(led)
        # A card played next takes the trick from ours if the rules rank it
        # strictly higher for this suit led and trump: a higher trump (from a
        # player out of the suit led, unless ours is a trump too), a higher
        # card of the suit led, or a Wizard. Jesters and side suits never do;
        # after a led Jester no suit is led yet, so only the Wizards count.
        # Each unseen trump that would beat it weighs ``ruff_share``, each
        # card of the suit led 1, added suit by suit in suit order, the
        # Wizards last (the order the figures were tuned with).
        beaten_by = _BEATEN_BY[trump, led][card] & self.unseen
        beating = 0.0
        for suit in _THREAT_SUITS[trump, led]:
            count = (beaten_by & SUIT_MASK[suit]).bit_count()
            if count:
                beating = repeated_sum(beating, ruff_share if suit == trump else 1, count)
        if self.unseen_wizards:
            beating += 0.7 * self.unseen_wizards  # a Wizard is not always spent on this trick
        per_card_safe = max(0.0, 1.0 - beating / self.unseen_total)
        return per_card_safe**self.held_by_later

    def _ruff_share(self, led: int) -> float:
        """How much of the trump threat to a side card is real: players known to be
        out of the suit led ruff; otherwise only a nearly exhausted suit invites ruffs."""
        if led == NO_SUIT:
            return 0.0
        later, voids = self.later, self.voids
        void = sum(1 for s in later if led in voids[s])
        nearly_gone = (self.unseen & SUIT_MASK[led]).bit_count() <= 2
        return max(void / len(later), 0.25 if nearly_gone else 0.08)

    def winner_sits_on_bid(self) -> bool:
        """Is the trick being won by another player who already has exactly its
        (visible) bid, so that the trick would push it over?"""
        winner = self.winning_seat()
        if winner < 0 or winner == self.seat:
            return False
        bid = self.predictions[winner]
        return bid >= 0 and self.tricks_won[winner] == bid


def card_value(card: int, trump: int) -> int:
    """How precious a card is to keep: Wizards, then trumps, then rank; Jesters least."""
    if card == WIZARD:
        return 300
    if card == JESTER:
        return -1
    return RANK_OF[card] + (100 if SUIT_OF[card] == trump else 0)


def choose_card(view: WizardView, rng: random.Random) -> int:
    return card_to_play(WizardTable.from_view(view))


def card_to_play(t: WizardTable, chances: dict[int, float] | None = None) -> int:
    """The medium player's card, from what its seat knows (``WizardTable``); ``chances``: each
    legal card's ``hold_chance``, when the caller has them already."""
    need = t.predictions[t.seat] - t.tricks_won[t.seat]
    tricks_left = t.tricks_left
    legal = t.legal
    trump = t.trump
    if chances is None:
        chances = {c: t.hold_chance(c) for c in legal}

    if need > tricks_left and t.trick_cards and t.winner_sits_on_bid():
        # The bid is lost short. Each trick still saves 10 points, but this one
        # would land on a player sitting exactly at its bid and cost that
        # player its whole bonus: let it have the trick.
        losers = [c for c in legal if chances[c] == 0.0]
        if losers:
            return max(losers, key=lambda c: (card_value(c, trump), -c))
    if need > 0:
        if need >= tricks_left:
            # Every remaining trick is needed: play the strongest card (of
            # equals the lowest id, so that the order of the hand never matters).
            return max(legal, key=lambda c: (chances[c], card_value(c, trump), -c))
        good = [c for c in legal if chances[c] >= SAFE_ENOUGH and c != WIZARD]
        if good:
            return min(good, key=lambda c: (card_value(c, trump), c))
        # A Wizard when time is running short, or when the table is already strong.
        urgent = need * 2 >= tricks_left
        if WIZARD in legal and (urgent or t.strong_card_winning()):
            if chances[WIZARD] > 0:
                return WIZARD
        return shed(t, legal, keep_jester=True)
    # At (or past) the bid: lose the trick.
    losers = [c for c in legal if chances[c] == 0.0]
    if losers:
        if t.trick_cards:
            # Throw the most dangerous card that still loses.
            return max(losers, key=lambda c: (card_value(c, trump), -c))
        return min(losers, key=lambda c: (card_value(c, trump), c))
    if not t.trick_cards:
        return min(legal, key=lambda c: (chances[c], card_value(c, trump), c))
    # Every card wins for now: the one most likely to be overtaken, or, when
    # the trick is ours for sure, the strongest card so it cannot win again later.
    if all(chances[c] >= 1.0 for c in legal):
        return max(legal, key=lambda c: (card_value(c, trump), -c))
    return min(legal, key=lambda c: (chances[c], card_value(c, trump), c))


def shed(t: WizardTable, legal: list[int], keep_jester: bool) -> int:
    """The least useful card: a low side card, keeping Jesters for ducking later."""
    trump = t.trump
    pool = [c for c in legal if c != JESTER] if keep_jester else legal
    if not pool:
        pool = legal
    return min(pool, key=lambda c: (card_value(c, trump), c))
