"""Card play of the medium Bid Whist player.

The player remembers every card seen this hand (the finished tricks, the
trick on the table, and its own discards when it declared) and who showed out
of which suit. From that it knows which cards are now the top of their suit
and whether a card can still be beaten by an opponent yet to play. With that
knowledge it follows the rules club players learn first:

* leading: the declaring side draws trumps when it holds many; anyone cashes
  sure winners; defenders lead a singleton to ruff later or a suit their
  partner can ruff; otherwise lead low from the longest suit;
* second hand low, third hand high, win as cheaply as possible, never take a
  trick from a partner who is already winning it safely, trump in when void
  and the opponents are winning, and throw the lowest losers.

The direction (downtown: A, 2, 3 ... K) comes in through the power tables.
"""

from __future__ import annotations

import random

from game.ai.hand_eval import EFFECTIVE, JOKERS, POWER
from game.rules.actions import Action, ActionKind, play
from game.rules.cards import NO_SUIT
from game.rules.view import PlayerView

ALL_CARDS = frozenset(range(54))


class BidWhistTable:
    """What one seat knows about the hand in progress, from its view only."""

    def __init__(self, view: PlayerView) -> None:
        self.view = view
        self.seat = view.seat
        self.partner = (view.seat + 2) % 4
        self.opponents = ((view.seat + 1) % 4, (view.seat + 3) % 4)
        self.trump = view.trump if view.trump is not None else NO_SUIT
        self.direction = max(view.direction, 0)
        self.eff = EFFECTIVE[self.trump]
        self.power = POWER[self.direction]
        self.declaring = view.declarer >= 0 and (view.declarer - view.seat) % 2 == 0
        self.hand = list(view.hand)
        self.legal = [a.value for a in view.legal_actions if a.kind == ActionKind.PLAY]
        played = view.played_cards()
        self.unseen = ALL_CARDS.difference(self.hand, played, view.discards)
        eff, power = self.eff, self.power
        self.top_unseen = [-1, -1, -1, -1]
        self.unseen_count = [0, 0, 0, 0]
        for card in self.unseen:
            suit = eff[card]
            if suit != NO_SUIT:
                self.unseen_count[suit] += 1
                if power[card] > self.top_unseen[suit]:
                    self.top_unseen[suit] = power[card]
        self.voids: list[set[int]] = [set(), set(), set(), set()]
        for record in view.tricks:
            self._note_voids(record.plays)
        self._note_voids(view.trick)
        self.my_suits: list[list[int]] = [[], [], [], []]
        for card in self.hand:
            if eff[card] != NO_SUIT:
                self.my_suits[eff[card]].append(card)

    def _note_voids(self, plays) -> None:
        led = NO_SUIT
        for seat, card in plays:
            suit = self.eff[card]
            if led == NO_SUIT:
                led = suit
            elif suit != led:
                self.voids[seat].add(led)

    # ------------------------------------------------------------------ basics
    def led_suit(self) -> int:
        for _, card in self.view.trick:
            if self.eff[card] != NO_SUIT:
                return self.eff[card]
        return NO_SUIT

    def strength(self, card: int, led: int) -> int:
        """How strongly ``card`` stands in a trick led in ``led`` (-1: cannot win)."""
        suit = self.eff[card]
        if suit == NO_SUIT:
            return -1
        if suit == self.trump:
            return 200 + self.power[card]
        if suit == led:
            return 100 + self.power[card]
        return -1

    def is_master(self, card: int) -> bool:
        suit = self.eff[card]
        return suit != NO_SUIT and self.power[card] > self.top_unseen[suit]

    def may_hold(self, seat: int, suit: int) -> bool:
        return self.unseen_count[suit] > 0 and suit not in self.voids[seat]

    def can_be_beaten(self, card: int, led: int, later: list[int]) -> bool:
        """Could an opponent among ``later`` seats beat ``card`` in a trick led in ``led``?"""
        suit = self.eff[card]
        trump = self.trump
        for seat in later:
            if seat == self.partner:
                continue
            if suit == trump:
                if self.may_hold(seat, trump) and self.top_unseen[trump] > self.power[card]:
                    return True
                continue
            if self.may_hold(seat, led):
                if self.top_unseen[led] > self.power[card]:
                    return True
                # A nearly exhausted suit: the opponent may well be out of it and ruff.
                if trump != NO_SUIT and self.unseen_count[led] <= 1 and self.may_hold(seat, trump):
                    return True
            elif trump != NO_SUIT and self.may_hold(seat, trump):
                return True
        return False

    def later_seats(self) -> list[int]:
        played = len(self.view.trick)
        return [(self.seat + i) % 4 for i in range(1, 4 - played)]


def choose_card(view: PlayerView, rng: random.Random) -> Action:
    table = BidWhistTable(view)
    card = lead(table, rng) if not view.trick else follow(table, rng)
    return play(card)


# ---------------------------------------------------------------------- leading
def lead(t: BidWhistTable, rng: random.Random) -> int:
    legal, eff, power, trump = t.legal, t.eff, t.power, t.trump
    opponents = list(t.opponents)
    my_trumps = sorted((c for c in legal if trump != NO_SUIT and eff[c] == trump), key=lambda c: -power[c])
    side = [c for c in legal if eff[c] != NO_SUIT and eff[c] != trump]

    # Draw trumps: the declaring side with length takes the opponents' trumps away.
    if my_trumps and t.declaring and any(t.may_hold(o, trump) for o in opponents):
        holds_master = t.is_master(my_trumps[0])
        outstanding = t.unseen_count[trump]
        if holds_master and (len(my_trumps) >= 3 or 2 * len(my_trumps) >= outstanding):
            return my_trumps[0]
        if len(my_trumps) >= 4 and len(my_trumps) >= outstanding:
            return my_trumps[-1]

    # Cash sure winners, from the shortest suit first to keep long suits flowing.
    sure = [c for c in legal if eff[c] != NO_SUIT and eff[c] != trump and t.is_master(c)
            and not t.can_be_beaten(c, eff[c], opponents)]
    if sure:
        return min(sure, key=lambda c: (len(t.my_suits[eff[c]]), -power[c], c))
    if my_trumps and t.is_master(my_trumps[0]) and not side:
        return my_trumps[0]

    if trump != NO_SUIT and side:
        # Lead a suit partner can ruff, while partner may still hold trumps.
        for suit in range(4):
            if suit != trump and t.my_suits[suit] and suit in t.voids[t.partner] \
                    and t.may_hold(t.partner, trump) and not t.declaring:
                return min(t.my_suits[suit], key=lambda c: power[c])
        # A defender with trumps leads a singleton, to ruff that suit later.
        if not t.declaring and my_trumps:
            singletons = [c for c in side if len(t.my_suits[eff[c]]) == 1 and not t.is_master(c)]
            if singletons:
                return min(singletons, key=lambda c: (power[c], c))

    if side:
        return low_from_longest(t, side)
    if my_trumps:
        return my_trumps[0] if t.is_master(my_trumps[0]) else my_trumps[-1]
    return legal[0]  # only jokers in no trump


def low_from_longest(t: BidWhistTable, cards: list[int]) -> int:
    """The lowest card of the longest suit among ``cards``."""
    eff, power = t.eff, t.power
    return min(cards, key=lambda c: (-len(t.my_suits[eff[c]]), power[c], c))


# ---------------------------------------------------------------------- following
def follow(t: BidWhistTable, rng: random.Random) -> int:
    eff, trick = t.eff, t.view.trick
    led = t.led_suit()
    cards = t.legal
    following = led != NO_SUIT and any(eff[c] == led for c in t.hand)
    if following:
        # Never renege, even where the house rules would let the card be played.
        cards = [c for c in cards if eff[c] == led] or cards
    winner_seat, best = -1, -1
    for seat, card in trick:
        strength = t.strength(card, led)
        if strength > best:
            winner_seat, best = seat, strength
    later = t.later_seats()
    position = len(trick)

    def led_for(card: int) -> int:
        return led if led != NO_SUIT else eff[card]

    winners = [c for c in cards if t.strength(c, led_for(c)) > best]
    safe = [c for c in winners if not t.can_be_beaten(c, led_for(c), later)]

    if winner_seat == t.partner:
        partner_card = next(card for seat, card in trick if seat == t.partner)
        if not t.can_be_beaten(partner_card, led, later):
            return throw_away(t, cards, led, following)
        # Partner may lose the trick: take it over only with a sure, plain winner.
        plain = [c for c in safe if eff[c] == led]
        if plain:
            return cheapest(t, plain, led_for)
        return throw_away(t, cards, led, following)

    if safe:
        if position == 1 and following and len(later) > 1:
            # Second hand low, unless the card would be the top of the suit anyway.
            masters = [c for c in safe if t.is_master(c) and eff[c] == led]
            if not masters:
                return throw_away(t, cards, led, following)
        return cheapest(t, safe, led_for)
    if winners:
        if not following:
            return cheapest(t, winners, led_for)  # trump in; a cheap ruff may still stand
        if position == 2:
            return max(winners, key=lambda c: (t.power[c], -c))  # third hand high
        if position == 3:
            return cheapest(t, winners, led_for)
    return throw_away(t, cards, led, following)


def cheapest(t: BidWhistTable, cards: list[int], led_for) -> int:
    return min(cards, key=lambda c: (t.strength(c, led_for(c)), c))


def throw_away(t: BidWhistTable, cards: list[int], led: int, following: bool) -> int:
    """The card that costs least to give up: the lowest of the suit when
    following; otherwise a joker in no trump, else a low loser from a short
    side suit, keeping trumps and top cards."""
    eff, power, trump = t.eff, t.power, t.trump
    if following:
        return min(cards, key=lambda c: (power[c], c))
    jokers = [c for c in cards if c in JOKERS and trump == NO_SUIT]
    if jokers:
        return jokers[0]
    return min(cards, key=lambda c: (
        trump != NO_SUIT and eff[c] == trump,
        t.is_master(c),
        power[c],
        len(t.my_suits[eff[c]]) if eff[c] != NO_SUIT else 0,
        c,
    ))
