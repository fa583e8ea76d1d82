"""Card play of the medium Bid Whist player."""

from __future__ import annotations

# The player remembers every card seen this hand (the finished tricks, the
# trick on the table, and its own discards when it declared) and who showed out
# of which suit. From that it knows which cards are now the top of their suit
# and whether a card can still be beaten by an opponent yet to play. With that
# knowledge it follows the rules club players learn first:
#
# * leading: the declaring side draws trumps when it holds many; anyone cashes
#   sure winners, then returns the side suit its partner led; defenders lead a singleton to ruff later or a suit their
#   partner can ruff; otherwise lead low from the longest suit;
# * second hand low, third hand high, win as cheaply as possible, never take a
#   trick from a partner who is already winning it safely, trump in when void
#   and the opponents are winning, and throw the lowest losers.
#
# The direction (downtown: A, 2, 3 ... K, or 2 ... K, A with the ace low)
# comes in through the rules' power tables, and the deck (with or without
# jokers) from the game's ``GameDef.deck_for``. What the rules know is asked
# of them: the suit led and who is winning
# the trick come from the view, whether a card would take the trick from
# ``bidwhist.trick_winner``, partners from the game's ``GameDef``, and the suits
# each seat has shown it lacks from ``view.voids``, which holds only what this
# seat may rely on: a failure to follow that may have been a renege the house
# rules let through proves no void, as the player may still hold the suit.

import random
from collections.abc import Sequence
from functools import cache

from game.ai.hand_eval import EFFECTIVE, JOKERS, power_table, rules_of
from game.ai.medium import later_seats
from game.rules.actions import Action, ActionKind, play
from game.rules.bidwhist import led_suit_of, trick_winner
from game.rules.cards import NO_SUIT
from game.rules.registry import game_of
from game.rules.view import BidWhistView


@cache
def card_set(deck: tuple[int, ...]) -> frozenset[int]:
    """The cards of a deck as a set, built once per deck."""
    return frozenset(deck)


class BidWhistTable:
    """What one seat knows about the hand in progress, from its view only."""

    def __init__(self, view: BidWhistView) -> None:
        self.view = view
        game = game_of(view)
        team = game.team_members(game.team_of(view.seat), view.num_players)
        self.partner = next(seat for seat in team if seat != view.seat)
        self.opponents = tuple(seat for seat in range(view.num_players) if not game.partners(seat, view.seat))
        self.trump = view.trump
        self.direction = max(view.direction, 0)
        self.eff = EFFECTIVE[self.trump]
        self.rules = rules_of(view)
        self.power = power_table(self.direction, self.rules)
        self.declaring = view.declarer >= 0 and game.partners(view.declarer, view.seat)
        self.hand = list(view.hand)
        self.legal = [a.value for a in view.legal_actions if a.kind == ActionKind.PLAY]
        self.trick_cards = tuple(card for _, card in view.trick)
        self.voids = view.voids
        self.unseen = card_set(game.deck_for(view.rules)).difference(self.hand, view.played_cards(), view.discards)
        eff, power = self.eff, self.power
        # Per suit: how many cards are still unseen, and the highest of them
        # (its power, and the card itself; -1 when none is left).
        self.unseen_count = [0, 0, 0, 0]
        self.top_unseen = [-1, -1, -1, -1]
        self.top_card = [-1, -1, -1, -1]
        for card in self.unseen:
            suit = eff[card]
            if suit != NO_SUIT:
                self.unseen_count[suit] += 1
                if power[card] > self.top_unseen[suit]:
                    self.top_unseen[suit] = power[card]
                    self.top_card[suit] = card
        self.my_suits: list[list[int]] = [[], [], [], []]
        for card in self.hand:
            if eff[card] != NO_SUIT:
                self.my_suits[eff[card]].append(card)

    # ------------------------------------------------------------------ basics
    def takes_trick_now(self, card: int) -> bool:
        """Would ``card``, played now, be winning the trick (so far)?"""
        cards = self.trick_cards
        return trick_winner(cards + (card,), self.trump, self.direction, self.rules) == len(cards)

    def led_with(self, card: int) -> int:
        """The suit led once ``card`` is on the table (it sets it if none is yet)."""
        return led_suit_of(self.trick_cards + (card,), self.trump)

    def beats(self, card: int, threat: int) -> bool:
        """Would ``threat``, played after ``card``, take the trick from it?"""
        return trick_winner((card, threat), self.trump, self.direction, self.rules) == 1

    def is_master(self, card: int) -> bool:
        suit = self.eff[card]
        return suit != NO_SUIT and self.power[card] > self.top_unseen[suit]

    def may_hold(self, seat: int, suit: int) -> bool:
        return self.unseen_count[suit] > 0 and suit not in self.voids[seat]

    def can_be_beaten(self, card: int, led: int, later: Sequence[int]) -> bool:
        """Could an opponent among ``later`` seats beat ``card`` (a card of the suit
        led, or a trump) in a trick led in ``led``? Each opponent is feared to
        hold the highest unseen card of any suit it has not shown it lacks."""
        suit = self.eff[card]
        trump = self.trump
        top_trump = self.top_card[trump] if trump != NO_SUIT else -1
        for seat in later:
            if seat == self.partner:
                continue
            # The opponent may hold a trump higher than ``card``: a ruff, or an overtrump.
            trump_threat = top_trump >= 0 and self.may_hold(seat, trump) and self.beats(card, top_trump)
            if suit == trump:
                if trump_threat:
                    return True
                continue
            if self.may_hold(seat, led):
                if self.beats(card, self.top_card[led]):
                    return True
                # A nearly exhausted suit: the opponent may well be out of it and ruff.
                if self.unseen_count[led] <= 1 and trump_threat:
                    return True
            elif trump_threat:
                return True
        return False


def choose_card(view: BidWhistView, rng: random.Random) -> Action:
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
    sure = [
        c
        for c in legal
        if eff[c] != NO_SUIT and eff[c] != trump and t.is_master(c) and not t.can_be_beaten(c, eff[c], opponents)
    ]
    if sure:
        return min(sure, key=lambda c: (len(t.my_suits[eff[c]]), -power[c], c))
    if my_trumps and t.is_master(my_trumps[0]) and not side:
        return my_trumps[0]

    # Return the suit partner led: partner led it to build its tops there.
    returned = partners_suit(t)
    if returned != NO_SUIT and t.my_suits[returned]:
        held = sorted(t.my_suits[returned], key=lambda c: -power[c])
        # Top of a doubleton unblocks partner's suit; from three or more, low.
        return held[0] if len(held) <= 2 else held[-1]

    if trump != NO_SUIT and side:
        # Lead a suit partner can ruff, while partner may still hold trumps.
        for suit in range(4):
            if (
                suit != trump
                and t.my_suits[suit]
                and suit in t.voids[t.partner]
                and t.may_hold(t.partner, trump)
                and not t.declaring
            ):
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


def partners_suit(t: BidWhistTable) -> int:
    """The side suit partner first led this hand, while partner may still hold
    it (NO_SUIT when partner has led none, or only trumps)."""
    for record in t.view.tricks:
        if record.leader != t.partner:
            continue
        suit = led_suit_of(tuple(card for _, card in record.plays), t.trump)
        if suit != NO_SUIT and suit != t.trump and suit not in t.voids[t.partner]:
            return suit
    return NO_SUIT


def low_from_longest(t: BidWhistTable, cards: list[int]) -> int:
    """The lowest card of the longest suit among ``cards``."""
    eff, power = t.eff, t.power
    return min(cards, key=lambda c: (-len(t.my_suits[eff[c]]), power[c], c))


# ---------------------------------------------------------------------- following
def follow(t: BidWhistTable, rng: random.Random) -> int:
    view = t.view
    eff, trick = t.eff, view.trick
    led = view.led_suit
    cards = t.legal
    following = led != NO_SUIT and any(eff[c] == led for c in t.hand)
    if following:
        # Never renege, even where the house rules would let the card be played.
        cards = [c for c in cards if eff[c] == led] or cards
    later = later_seats(view)
    position = len(trick)

    winners = [c for c in cards if t.takes_trick_now(c)]
    safe = [c for c in winners if not t.can_be_beaten(c, t.led_with(c), later)]

    # While only suitless jokers lie on the table (no trump), nobody is really
    # winning yet: any card with a suit takes the lead.
    if view.winning_seat == t.partner and led != NO_SUIT:
        partner_card = next(card for seat, card in trick if seat == t.partner)
        if not t.can_be_beaten(partner_card, led, later):
            return throw_away(t, cards, led, following)
        # Partner may lose the trick: take it over only with a sure, plain winner.
        plain = [c for c in safe if eff[c] == led]
        if plain:
            return cheapest(t, plain)
        return throw_away(t, cards, led, following)

    if safe:
        if position == 1 and following and len(later) > 1:
            # Second hand low, unless the card would be the top of the suit anyway.
            masters = [c for c in safe if t.is_master(c) and eff[c] == led]
            if not masters:
                return throw_away(t, cards, led, following)
        return cheapest(t, safe)
    if winners:
        if not following:
            return cheapest(t, winners)  # trump in; a cheap ruff may still stand
        if position == 2:
            return max(winners, key=lambda c: (t.power[c], -c))  # third hand high
        if position == 3:
            return cheapest(t, winners)
    return throw_away(t, cards, led, following)


def cheapest(t: BidWhistTable, winners: list[int]) -> int:
    """The winning card that costs least to spend: a card of the suit led before
    a trump, and the lowest of either."""
    return min(winners, key=lambda c: (t.eff[c] == t.trump, t.power[c], c))


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
    return min(
        cards,
        key=lambda c: (
            trump != NO_SUIT and eff[c] == trump,
            t.is_master(c),
            power[c],
            len(t.my_suits[eff[c]]) if eff[c] != NO_SUIT else 0,
            c,
        ),
    )
