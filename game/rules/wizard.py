"""Wizard: the complete rules as a state machine (see ``RULES.md``)."""

from __future__ import annotations

# Phases of a round: [TRUMP_CHOICE] -> PREDICT -> PLAY -> HAND_OVER (NEXT_DEAL
# deals the next round) or GAME_OVER after the last round.

from collections import Counter
from collections.abc import Callable, Collection, Hashable, Sequence
from typing import Any, cast

from game.rules.actions import (
    NEXT_DEAL,
    PLAY_ACTIONS,
    PREDICT_ACTIONS,
    TRUMP_ACTIONS,
    Action,
    ActionKind,
    choose_trump,
    predict,
)
from game.rules.cards import (
    JESTER,
    NO_SUIT,
    RANK_OF,
    SUIT_LABELS,
    SUIT_OF,
    WIZARD,
    WIZARD_DECK,
    card_name,
    display_suit_order,
)
from game.rules.core import Phase, seeded_rng, shuffled
from game.rules.errors import IllegalActionError, RuleConfigError
from game.rules.events import (
    BidMade,
    BidsRevealed,
    CardPlayed,
    Dealt,
    GameEvent,
    GameOver,
    TrumpChosen,
    TrumpTurnedUp,
    WizardHandScored,
)
from game.rules.hidden import HiddenCards, HiddenLayout
from game.rules.house_rules import (
    WIZARD_MAX_PLAYERS,
    WIZARD_MIN_PLAYERS,
    WizardRules,
    wizard_combination_issue,
)
from game.rules.tricks import (
    SEAT_VIEW_FIELDS,
    SHARED_VIEW_FIELDS,
    TrickGameState,
    allowed_action,
    is_well_formed,
    malformed_action,
)
from game.rules.view import FieldReader, PlayerView, WizardView, lazy_view_type

EXACT_BONUS = 20
POINTS_PER_TRICK = 10

# The phases and the action kind the hot path compares with, read once: an enum
# member read from its class costs a class attribute lookup every time.
_PLAY, _PREDICT, _TRUMP_CHOICE, _HAND_OVER = Phase.PLAY, Phase.PREDICT, Phase.TRUMP_CHOICE, Phase.HAND_OVER
_PLAY_KIND = ActionKind.PLAY
_PLAY_WIZARD, _PLAY_JESTER = PLAY_ACTIONS[WIZARD], PLAY_ACTIONS[JESTER]


def draw_value(card: int) -> int:
    """Strength of a card in the first-dealer draw: Wizard > A..2 > Jester; suits never matter."""
    if card == WIZARD:
        return 15
    if card == JESTER:
        return 0
    return RANK_OF[card]


def first_dealer_draw(seed: int, players: int) -> tuple[list[tuple[int, int]], int]:
    """One card face up to each player from seat 0; players tied for highest
    get one more card each, in seat order, until one is highest."""
    rng = seeded_rng(seed, "first dealer")
    return first_dealer_from_deck(shuffled(WIZARD_DECK, rng), players, lambda: shuffled(WIZARD_DECK, rng))


def first_dealer_from_deck(
    deck: list[int],
    players: int,
    fresh_deck: Callable[[], list[int]] | None = None,
) -> tuple[list[tuple[int, int]], int]:
    """The first-dealer draw from a deck in a given order: ``(draw, dealer)``.

    Kept apart from the shuffle so the rule (highest card deals, Wizard beats
    any suit card, suits never break ties, Jester lowest, ties draw again in
    seat order) can be checked on a deck arranged by hand. ``fresh_deck``
    supplies another deck should ties use up this one.
    """
    cards = list(deck)
    draw: list[tuple[int, int]] = []
    contenders = list(range(players))
    while True:
        values = {}
        for seat in contenders:
            if not cards:  # only after an absurd run of ties
                if fresh_deck is None:
                    raise ValueError("the deck ran out before the tie was broken")
                cards = list(fresh_deck())
            card = cards.pop(0)
            draw.append((seat, card))
            values[seat] = draw_value(card)
        best = max(values.values())
        contenders = [seat for seat in contenders if values[seat] == best]
        if len(contenders) == 1:
            return draw, contenders[0]


def card_suit(card: int, trump: int = NO_SUIT) -> int:
    """The suit ``card`` follows as: its own, or NO_SUIT for a Wizard or a
    Jester, which may always be played (``trump`` changes nothing)."""
    return SUIT_OF[card]


def led_suit_of(cards: Sequence[int]) -> int:
    """The suit led by ``cards`` (in play order): the suit of the first card that
    is not a Jester, or NO_SUIT when that card is a Wizard or all are Jesters."""
    for card in cards:
        if card != JESTER:
            return SUIT_OF[card]  # a Wizard's suit is NO_SUIT
    return NO_SUIT


def card_strength(card: int, led: int, trump: int) -> int:
    """How strongly ``card`` contends for a trick led in ``led`` with
    ``trump`` (NO_SUIT for none): a Wizard most, then trumps by rank, then the
    suit led by rank, then a Jester, and a side suit least. A card takes the
    trick from the best before it only with a strictly greater strength, so
    the first of several Wizards keeps it, and of a trick of Jesters alone
    the first Jester wins."""
    if card == WIZARD:
        return 200
    if card == JESTER:
        return 0
    suit = SUIT_OF[card]
    if suit == trump:
        return 100 + RANK_OF[card]
    if suit == led:
        return RANK_OF[card]
    return -1


# Every card's strength for each (trump, suit led), NO_SUIT included: built once
# so that finding a trick's winner is a lookup per card (searches ask millions of times).
_STRENGTHS = {
    (trump, led): tuple(card_strength(card, led, trump) for card in range(len(SUIT_OF)))
    for trump in range(NO_SUIT, 4)
    for led in range(NO_SUIT, 4)
}


# The same tables as a list indexed [trump + 1][led + 1] (NO_SUIT is -1): the hot path
# looks one up per trick without building a tuple key.
_STRENGTH_ROWS = [[_STRENGTHS[trump, led] for led in range(NO_SUIT, 4)] for trump in range(NO_SUIT, 4)]


def strengths(led: int, trump: int) -> tuple[int, ...]:
    """``card_strength`` of every card (indexed by card) for this suit led and trump."""
    return _STRENGTHS[trump, led]


def trick_winner(cards: Sequence[int], trump: int) -> int:
    """Index of the winning card of a full trick with ``trump`` (NO_SUIT for
    none): the first Wizard; else the highest trump; else the highest card of
    the suit led; else (every card a Jester) the first Jester."""
    if not cards:
        return 0
    first = cards[0]
    led = SUIT_OF[first] if first != JESTER else led_suit_of(cards)  # most tricks: the first card's
    strength = _STRENGTH_ROWS[trump + 1][led + 1]
    best_index, best = 0, -2
    for index, card in enumerate(cards):
        if strength[card] > best:
            best, best_index = strength[card], index
    return best_index


def claimable(state: WizardState, seat: int) -> bool:
    """Whether ``seat`` may claim every trick left: it is on lead, and every card
    it holds wins whatever the others hold and play.

    Decided from the full state, conservatively: a Wizard led always wins (the
    first Wizard takes the trick); a Jester led may lose, so a hand holding one
    cannot claim; a suit card wins only when no other hand holds a Wizard, no
    higher card of its suit, and (unless it is a trump itself) no trump.
    """
    if state.phase != Phase.PLAY or state.trick or state.current != seat or not state.hands[seat]:
        return False
    wizard_outside = False
    best_outside: dict[int, int] = {}  # suit -> the highest rank of it in another hand
    for other, hand in enumerate(state.hands):
        if other == seat:
            continue
        for card in hand:
            if card == WIZARD:
                wizard_outside = True
            elif card != JESTER and RANK_OF[card] > best_outside.get(SUIT_OF[card], -1):
                best_outside[SUIT_OF[card]] = RANK_OF[card]
    trump = state.trump
    trump_outside = trump != NO_SUIT and trump in best_outside
    for card in state.hands[seat]:
        if card == WIZARD:
            continue
        if card == JESTER or wizard_outside:
            return False
        suit = SUIT_OF[card]
        if best_outside.get(suit, -1) > RANK_OF[card]:
            return False
        if suit != trump and trump_outside:
            return False
    return True


def trick_values(state: WizardState, seat: int) -> tuple[int, ...] | None:
    """What each number of tricks ``seat`` may take this round (index: its tricks over the
    whole round) is worth to it, for a search that plays the round out: its round score for
    its bid. None before it has bid."""
    bid = state.bids[seat]
    if bid < 0:
        return None
    return tuple(score_for(bid, taken) for taken in range(state.tricks_per_hand() + 1))


def deal_sequence(hands: Sequence[Sequence[int]], dealer: int) -> list[tuple[int, int]]:
    """The order the cards of ``hands`` were dealt: one at a time, clockwise
    from the dealer's left, as ``(card, seat)``."""
    n = len(hands)
    per_seat = len(hands[0]) if hands else 0
    return [(hands[(dealer + 1 + i) % n][i // n], (dealer + 1 + i) % n) for i in range(n * per_seat)]


def hand_order(cards: Sequence[int], trump: int, direction: int = 0, rules: WizardRules | None = None) -> list[int]:
    """``cards`` sorted for display: Wizards first, then by suit (see
    ``display_suit_order``), highest first, and Jesters last (no house rule
    changes the ranking, so ``rules`` are not needed)."""
    suit_position = display_suit_order(trump)

    def key(card: int) -> tuple[int, int]:
        if card == WIZARD:
            return (-1, 0)
        if card == JESTER:
            return (9, 0)
        return (suit_position[SUIT_OF[card]], -RANK_OF[card])

    return sorted(cards, key=key)


def create_state(
    rules: WizardRules, players: int, seed: int, first_dealer: int | None, fixed_deals: dict[int, Any] | None
) -> WizardState:
    """A game before its first round; the first dealer is drawn unless given."""
    if not WIZARD_MIN_PLAYERS <= players <= WIZARD_MAX_PLAYERS:
        raise ValueError(f"Wizard is played by 3 to 6 players, not {players}")
    # Coded, so that a window can word the refusal (a saved game or replay with these rules).
    # The three rules the check reads, without ``to_dict``'s deep copy of all of them.
    checked = {"rounds": rules.rounds, "bidding": rules.bidding, "uneven_bids": rules.uneven_bids}
    issue = wizard_combination_issue(checked, players)
    if issue is not None:
        raise RuleConfigError("house rules", issue[0], issue[1])
    draw, dealer = first_dealer_draw(seed, players) if first_dealer is None else ([], first_dealer)
    return WizardState(rules, seed, players, dealer, draw, fixed_deals)


def check_fixed_deal(number: int, deal: Any, players: int, rules: WizardRules | None = None) -> None:
    """Raise ``ValueError`` unless ``deal`` is ``(hands, turn_up)`` for round
    ``number``: that many cards a hand, all from one Wizard deck (no house
    rule changes the deck, so ``rules`` are not needed)."""
    try:
        hands, turn_up = deal
        hands = [list(h) for h in hands]
    except (TypeError, ValueError):
        raise ValueError(f"deal {number}: expected (hands, turn-up card)") from None
    if len(hands) != players or any(len(h) != number for h in hands):
        raise ValueError(f"deal {number}: round {number} deals {number} cards to each of {players} players")
    if type(turn_up) is not int:
        raise ValueError(f"deal {number}: the turn-up must be a card of the Wizard deck or -1 for none")
    cards = [c for h in hands for c in h] + ([turn_up] if turn_up != -1 else [])
    if any(type(c) is not int or not 0 <= c < 56 or 52 <= c < 54 for c in cards):
        raise ValueError(f"deal {number}: a card is not a card of the Wizard deck")
    if Counter(cards) - Counter(WIZARD_DECK):
        raise ValueError(f"deal {number}: a card is dealt more often than the Wizard deck holds it")


def score_for(bid: int, taken: int) -> int:
    if bid == taken:
        return EXACT_BONUS + POINTS_PER_TRICK * taken
    return -POINTS_PER_TRICK * abs(bid - taken)


# ``WizardState`` holds one whole game for 3 to 6 players. Round r deals r
# cards, turns up the next card for trump (a Wizard lets the dealer choose,
# or under the house rule ``wizard_turn_up`` the player at the dealer's left,
# or means no trump; a Jester or no card means no trump), collects predictions, plays r tricks and
# scores 20 + 10 per trick for an exact prediction, -10 per trick off otherwise.
class WizardState(TrickGameState):
    """A whole game of Wizard. Mutate only through ``apply_in_place``."""

    __slots__ = (
        "num_players",
        "total_rounds",
        "turn_up",
        "bids",
        "history",
    )

    game = "wizard"

    def __init__(
        self,
        rules: WizardRules,
        seed: int,
        num_players: int,
        dealer: int,
        first_draw: list[tuple[int, int]] | None = None,
        fixed_deals: dict[int, tuple[list[list[int]], int]] | None = None,
    ) -> None:
        if not WIZARD_MIN_PLAYERS <= num_players <= WIZARD_MAX_PLAYERS:
            raise ValueError(f"Wizard is played by 3 to 6 players, not {num_players}")
        self.rules = rules
        self.seed = seed
        self.num_players = num_players
        self.total_rounds = rules.round_count(num_players)
        self.dealer = dealer
        self.deal_number = 0
        self.scores = [0] * num_players
        self.start_scores = [0] * num_players
        self.first_draw = first_draw or []
        # Rounds given explicitly: round -> (hands, turn-up card or -1); shared, never mutated.
        self.fixed_deals = fixed_deals or {}
        # Per finished round: (bids, tricks_won, score_change) for the score pad.
        self.history: list[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]] = []
        self.phase = Phase.PREDICT
        self.current = -1
        self.hands: list[list[int]] = [[] for _ in range(num_players)]
        self._reset_round()

    def _reset_round(self) -> None:
        self.turn_up = -1
        self.trump = NO_SUIT
        self.bids: list[int] = [-1] * self.num_players
        self._reset_tricks()

    @property
    def round_number(self) -> int:
        return self.deal_number

    def deal(self, events: list[GameEvent] | None) -> None:
        self.deal_number += 1
        self._reset_round()
        n, r = self.num_players, self.deal_number
        fixed = self.fixed_deals.get(r)
        if fixed is not None:
            hands = [list(h) for h in fixed[0]]
            turn_up = fixed[1]
        else:
            deck = shuffled(WIZARD_DECK, seeded_rng(self.seed, f"deal {r}"))
            # One card at a time, clockwise from the dealer's left: the seat ``offset`` places
            # after the dealer's left gets every n-th card of the first n * r from ``offset`` on.
            hands = [[] for _ in range(n)]
            for offset in range(n):
                hands[(self.dealer + 1 + offset) % n] = deck[offset : n * r : n]
            turn_up = deck[n * r] if n * r < len(deck) else -1
        self.hands = hands
        self.turn_up = turn_up
        self.start_scores = self.scores[:]
        if events is not None:
            events.append(
                Dealt(r, self.dealer, tuple(tuple(h) for h in hands), (), tuple(deal_sequence(hands, self.dealer)))
            )
        chooser = self.trump_chooser()
        if chooser >= 0:
            self.phase = Phase.TRUMP_CHOICE
            self.current = chooser
        else:
            self.trump = SUIT_OF[turn_up] if 0 <= turn_up < 52 else NO_SUIT
            self._start_bidding()
        if events is not None:
            events.append(TrumpTurnedUp(turn_up, self.trump, chooser >= 0, chooser))

    def trump_chooser(self) -> int:
        """The seat that names trump this round, or -1 when nobody does: after
        a Wizard turn-up the dealer (``wizard_turn_up: dealer_chooses``) or the
        player at the dealer's left (``first_bidder_chooses``); nobody under
        ``no_trump`` or after any other turn-up."""
        if self.turn_up != WIZARD:
            return -1
        rule = self.rules.wizard_turn_up
        if rule == "no_trump":
            return -1
        return self.dealer if rule == "dealer_chooses" else (self.dealer + 1) % self.num_players

    def _start_bidding(self) -> None:
        self.phase = Phase.PREDICT
        self.current = (self.dealer + 1) % self.num_players

    def redealt(self, hands: Sequence[Sequence[int]]) -> WizardState:
        """A copy of this state, which must stand at its round's start (no bid
        made, no card played), with ``hands`` dealt instead of its own and
        the same turn-up: for a search that replays one round under many
        guesses of the hidden hands without dealing each afresh through
        ``new_game``. The hands are not checked: the caller vouches that they
        are a deal of this round (``check_fixed_deal`` would accept them)."""
        if self.phase not in (Phase.PREDICT, Phase.TRUMP_CHOICE) or self.hand_plays or max(self.bids) >= 0:
            raise ValueError("only a round that has not begun can be dealt again")
        new = self.copy()
        new.hands = [list(hand) for hand in hands]
        return new

    def copy(self) -> WizardState:
        new = object.__new__(WizardState)
        self._copy_shared(new)
        new.num_players = self.num_players
        new.total_rounds = self.total_rounds
        new.turn_up = self.turn_up
        new.bids = self.bids[:]
        new.history = self.history[:]
        return new

    # ------------------------------------------------------------------ queries
    def tricks_per_hand(self) -> int:
        return self.deal_number  # round r deals r cards each

    def led_suit(self) -> int:
        """The suit of the first card that is not a Jester; NO_SUIT if that card
        is a Wizard or every card so far is a Jester (anything may be played)."""
        return led_suit_of(self.trick)

    def forbidden_bid(self) -> int:
        """The prediction the current (last) bidder may not make under the
        uneven-bids rule, or -1 when every prediction is allowed."""
        rule = self.rules.uneven_bids
        if rule == "off" or self.current != self.dealer:
            return -1
        if rule == "leader_only":
            mine = self.start_scores[self.dealer]
            if any(s >= mine for seat, s in enumerate(self.start_scores) if seat != self.dealer):
                return -1
        forbidden = self.deal_number - sum(b for b in self.bids if b >= 0)
        return forbidden if forbidden >= 0 else -1

    # ``legal_actions`` and ``apply_in_place`` are the search's hot path: a simulated
    # round asks each once per move, so they read module constants and tables
    # (``_PLAY``, ``PLAY_ACTIONS``) rather than enum attributes and helper calls.
    def legal_actions(self) -> list[Action]:
        phase = self.phase
        if phase == _PLAY:  # ``legal_cards_of`` as actions in one pass: 13% fewer instructions than mapping its list
            hand = self.hands[self.current]
            trick = self.trick
            if trick:
                first = trick[0]
                led = SUIT_OF[first] if first != JESTER else led_suit_of(trick)
                if led != NO_SUIT:
                    follow = [PLAY_ACTIONS[card] for card in hand if SUIT_OF[card] == led]
                    if follow:
                        if WIZARD in hand:
                            follow.append(_PLAY_WIZARD)
                        if JESTER in hand:
                            follow.append(_PLAY_JESTER)
                        return follow
            if hand.count(WIZARD) > 1 or hand.count(JESTER) > 1:  # see ``_distinct``
                hand = list(dict.fromkeys(hand))
            return [PLAY_ACTIONS[card] for card in hand]
        if phase == _PREDICT:
            actions = list(PREDICT_ACTIONS[: self.deal_number + 1])
            # Only the dealer, bidding last, may be refused a bid; never above the round's cards.
            forbidden = self.forbidden_bid() if self.current == self.dealer else -1
            if forbidden >= 0:
                del actions[forbidden]
            return actions
        if phase == _TRUMP_CHOICE:
            return list(TRUMP_ACTIONS)
        if phase == _HAND_OVER:
            return [NEXT_DEAL]
        return []

    def legal_cards(self) -> list[int]:
        """The cards the seat to play may play (``legal_actions`` lists the same as actions)."""
        return legal_cards_of(self.hands[self.current], self.trick)

    # ------------------------------------------------------------------ apply
    def apply_in_place(self, action: Action, events: list[GameEvent] | None = None, check: bool = True) -> None:
        if check:
            self.check_legal(action)
        kind = action.kind
        if kind == _PLAY_KIND:
            # A card, the hot path: ``_lay_card``'s steps with Wizard's led suit and trick
            # winner, inline.
            card = action.value
            seat = self.current
            self.hands[seat].remove(card)
            trick = self.trick
            if trick:
                first = trick[0]
                led = SUIT_OF[first] if first != JESTER else led_suit_of(trick)
                # Only a suit card of another suit shows a void: a Wizard or a Jester may always be played.
                if led >= 0 and card < 52 and SUIT_OF[card] != led:
                    self.follow_failures.append((len(self.tricks), seat, led))
            self.hand_plays.append((seat, PLAY_ACTIONS[card]))
            trick.append(card)
            self.trick_seats.append(seat)
            if events is not None:
                events.append(CardPlayed(seat, card, False))
            if len(trick) < self.num_players:
                self.current = (seat + 1) % self.num_players
            else:
                self._close_trick(trick_winner(trick, self.trump), self.deal_number, events)  # r tricks in round r
        elif kind == ActionKind.PREDICT:
            self._predict(action.value, events)
        elif kind == ActionKind.TRUMP:
            self.trump = action.value
            if events is not None:
                events.append(TrumpChosen(self.current, action.value))
            self._start_bidding()
        elif kind == ActionKind.NEXT_DEAL:
            self.dealer = (self.dealer + 1) % self.num_players
            self.deal(events)

    def explain_illegal(self, action: Action, legal: Collection[Action] | None = None) -> IllegalActionError:
        """The reason ``action`` is not allowed now, worded for the player;
        like Bid Whist's, it answers any value without raising."""
        if not is_well_formed(action):
            return malformed_action()
        phase, kind = self.phase, action.kind
        if phase == Phase.GAME_OVER:
            return IllegalActionError("The game is over", "game_over")
        if action in (self.legal_actions() if legal is None else legal):
            return allowed_action()
        if kind != _EXPECTED_KIND[phase]:
            prompt = _PHASE_PROMPTS[phase]
            if phase == Phase.TRUMP_CHOICE and self.current != self.dealer:
                prompt = "The player left of the dealer must first choose the trump suit"
            return IllegalActionError(prompt, "wrong_phase", phase=int(phase))
        if phase == Phase.PREDICT:
            r = self.deal_number
            if not 0 <= action.value <= r:
                return IllegalActionError(f"Bid must be from 0 to {r}", "predict_range", max=r)
            total = sum(b for b in self.bids if b >= 0) + action.value
            return IllegalActionError(
                f"The dealer may not bid {action.value}: the bids would add up to {total}",
                "uneven_bids",
                bid=action.value,
                total=total,
            )
        if phase == Phase.TRUMP_CHOICE:
            return IllegalActionError("Choose one of the four suits as trump", "choose_trump")
        if phase == Phase.HAND_OVER:
            return IllegalActionError("The round is over", "hand_over")
        card = action.value
        if card not in self.hands[self.current]:
            name = card_name(card) if 0 <= card < 52 or card in (WIZARD, JESTER) else "that card"
            return IllegalActionError(f"You do not hold {name}", "not_in_hand", card=card)
        led = self.led_suit()
        if led == NO_SUIT:  # unreachable: with nothing to follow any card held is legal
            return allowed_action()
        suit_name = SUIT_LABELS[led]
        return IllegalActionError(
            f"You must follow {suit_name} (or play a Wizard or a Jester)", "must_follow", suit=led
        )

    def _predict(self, value: int, events: list[GameEvent] | None) -> None:
        seat = self.current
        self.bids[seat] = value
        open_bidding = self.rules.bidding == "open"
        if events is not None:
            events.append(BidMade(seat, predict(value), hidden=not open_bidding))
        if seat != self.dealer:
            self.current = (seat + 1) % self.num_players
            return
        if self.rules.bidding == "hidden" and events is not None:
            events.append(BidsRevealed(tuple(self.bids)))
        self.phase = Phase.PLAY
        self.leader = (self.dealer + 1) % self.num_players
        self.current = self.leader

    def trick_winner_index(self) -> int:
        """First Wizard; else highest trump; else highest of the suit led;
        else (all Jesters) the first Jester."""
        return trick_winner(self.trick, self.trump)

    def _finish_hand(self, events: list[GameEvent] | None) -> None:
        change = [score_for(b, t) for b, t in zip(self.bids, self.tricks_won)]
        for seat, delta in enumerate(change):
            self.scores[seat] += delta
        self.history.append((tuple(self.bids), tuple(self.tricks_won), tuple(change)))
        last = self.deal_number >= self.total_rounds
        self.phase = Phase.GAME_OVER if last else Phase.HAND_OVER
        self.current = -1
        if events is not None:
            if self.rules.bidding == "delayed_reveal":
                events.append(BidsRevealed(tuple(self.bids)))
            events.append(
                WizardHandScored(
                    self.deal_number, tuple(self.bids), tuple(self.tricks_won), tuple(change), tuple(self.scores)
                )
            )
            if last:
                results = self.results()
                events.append(GameOver(tuple(results["final_scores"]), tuple(results["winners"])))

    def results(self) -> dict[str, Any]:
        complete = self.phase == Phase.GAME_OVER
        best = max(self.scores)
        return {
            "final_scores": self.scores[:],
            "winners": [s for s, v in enumerate(self.scores) if v == best] if complete else [],
        }

    def hand_returns(self) -> tuple[int, ...]:
        """Per seat, the score change of the round just scored (zeros before that)."""
        if self.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
            return tuple(s - b for s, b in zip(self.scores, self.start_scores))
        return (0,) * self.num_players

    def returns(self) -> tuple[int, ...]:
        """Per seat, its score (final once the game is over)."""
        return tuple(self.scores)

    # ------------------------------------------------------------------ shared hooks
    def table_books(self) -> tuple[int, ...]:
        return tuple(self.tricks_won)

    def led_suit_of(self, cards: tuple[int, ...] | list[int]) -> int:
        return led_suit_of(cards)

    def reveals_void(self, card: int, led: int) -> bool:
        # A Wizard or a Jester may always be played: it shows nothing.
        return card < 52 and SUIT_OF[card] != led

    def hand_actions_before_play(self, seat: int) -> list[tuple[int, Action | None]]:
        actions: list[tuple[int, Action | None]] = []
        chooser = self.trump_chooser()
        if chooser >= 0 and self.phase != Phase.TRUMP_CHOICE:
            actions.append((chooser, choose_trump(self.trump)))
        visible = self.bids_visible_to(seat)
        n = self.num_players
        for offset in range(1, n + 1):
            bidder = (self.dealer + offset) % n
            if self.bids[bidder] < 0:
                break
            actions.append((bidder, predict(visible[bidder]) if visible[bidder] >= 0 else None))
        return actions

    # ------------------------------------------------------------------ views
    def bids_visible_to(self, seat: int) -> tuple[int, ...]:
        """Bids as ``seat`` may see them (-1 for one not made or not revealed)."""
        mode = self.rules.bidding
        revealed = (
            mode == "open"
            or self.phase in (Phase.HAND_OVER, Phase.GAME_OVER)
            or (mode == "hidden" and self.phase == Phase.PLAY)
        )
        if revealed:
            return tuple(self.bids)
        return tuple(b if s == seat else -1 for s, b in enumerate(self.bids))

    def view(self, seat: int) -> WizardView:
        self._check_viewer(seat)
        return WizardView.from_fields(**{name: read(self, seat) for name, read in WIZARD_VIEW_FIELDS.items()})

    def views(self, seats: Sequence[int]) -> list[PlayerView]:
        for seat in seats:
            self._check_viewer(seat)
        common = {name: read(self, seats[0]) for name, read in _COMMON_WIZARD_FIELDS}
        return [
            WizardView.from_fields(**common, **seen, predictions=self.bids_visible_to(seat))
            for seat, seen in zip(seats, self.seat_views_fields(seats), strict=True)
        ]

    def seat_view_fields(self) -> frozenset[str]:
        return _SEAT_WIZARD_FIELDS

    def actions_sight(self, seat: int) -> Hashable:
        return self.bids_visible_to(seat)  # the hand's actions hide only the bids a seat may not see

    def rollout_view(self, seat: int, legal: Sequence[Action]) -> WizardView:
        """A ``LazyWizardView``: the medium players read about half the fields."""
        self._check_viewer(seat)
        return LazyWizardView(self, seat, legal_actions=tuple(legal) if seat == self.current else ())


# How each field of a WizardView is read from a state for a seat (see ``SHARED_VIEW_FIELDS``).
WIZARD_VIEW_FIELDS: dict[str, FieldReader] = {
    **SHARED_VIEW_FIELDS,
    "round_number": lambda state, seat: state.deal_number,
    "total_rounds": lambda state, seat: state.total_rounds,
    "turn_up": lambda state, seat: state.turn_up,
    "trump_pending": lambda state, seat: state.phase == Phase.TRUMP_CHOICE,
    "predictions": lambda state, seat: state.bids_visible_to(seat),
    "forbidden_bid": lambda state, seat: state.forbidden_bid() if state.phase == Phase.PREDICT else -1,
    "score_history": lambda state, seat: tuple(state.history),
}
# The fields that depend on the seat looking (the bids it may see, besides the shared ones).
_SEAT_WIZARD_FIELDS = SEAT_VIEW_FIELDS | {"predictions"}
_COMMON_WIZARD_FIELDS = tuple(
    (name, read) for name, read in WIZARD_VIEW_FIELDS.items() if name not in _SEAT_WIZARD_FIELDS
)
# Called as LazyWizardView(state, seat, **known), not with the fields.
LazyWizardView: Callable[..., WizardView] = lazy_view_type(WizardView, WIZARD_VIEW_FIELDS)


def legal_cards_of(hand: list[int], trick: Sequence[int]) -> list[int]:
    """The cards of ``hand`` that may be played to ``trick`` (the cards played to it so far), in
    the order ``legal_actions`` lists them: a search asks it of hands it draws."""
    if trick:
        first = trick[0]
        led = SUIT_OF[first] if first != JESTER else led_suit_of(trick)  # a Wizard led: NO_SUIT
        if led != NO_SUIT:
            follow = [card for card in hand if SUIT_OF[card] == led]
            if follow:
                # A Wizard and a Jester may always be played (one of each is a choice).
                if WIZARD in hand:
                    follow.append(WIZARD)
                if JESTER in hand:
                    follow.append(JESTER)
                return follow
    return _distinct(hand)


def _distinct(cards: list[int]) -> list[int]:
    """Cards without repeats, in hand order: the four Wizards (and Jesters) are one choice,
    not four. Most hands hold at most one of each, and two counts cost less than a dict."""
    if cards.count(WIZARD) > 1 or cards.count(JESTER) > 1:
        return list(dict.fromkeys(cards))
    return cards[:]


# The kind of action each phase takes (a server asks why each card of a hand is refused).
_EXPECTED_KIND = {
    Phase.PREDICT: ActionKind.PREDICT,
    Phase.PLAY: ActionKind.PLAY,
    Phase.TRUMP_CHOICE: ActionKind.TRUMP,
    Phase.HAND_OVER: ActionKind.NEXT_DEAL,
}
_PHASE_PROMPTS = {
    Phase.PREDICT: "It is time to bid the number of tricks you will take",
    Phase.PLAY: "It is time to play a card",
    Phase.TRUMP_CHOICE: "The dealer must first choose the trump suit",
    Phase.HAND_OVER: "The round is over",
}


class WizardHiddenInfo:
    """What a Wizard seat cannot see (see ``game.rules.hidden``): the other
    hands, the cards left undealt, and under hidden or delayed bidding the
    bids still face down. The turn-up card is public."""

    def layout(self, view: PlayerView) -> HiddenLayout:
        wz = cast(WizardView, view)
        return HiddenLayout(
            seen=(wz.turn_up,) if wz.turn_up >= 0 else (),
            hidden_bids=tuple(seat for seat, action in wz.actions if action is None),
            bid_choices=range(wz.round_number + 1),
        )

    def card_suit(self, card: int, trump: int) -> int:
        return card_suit(card, trump)

    def fixed_deal(self, view: PlayerView, hands: Sequence[Sequence[int]], kitty: Sequence[int]) -> Any:
        return ([list(hand) for hand in hands], cast(WizardView, view).turn_up)

    def hand_actions(self, view: PlayerView, hidden: HiddenCards) -> list[tuple[int, Action]]:
        # Only bids are ever hidden.
        return [(seat, action if action is not None else predict(hidden.bids[seat])) for seat, action in view.actions]

    def restore_record(self, state: Any, view: PlayerView) -> None:
        history = list(cast(WizardView, view).score_history)
        if view.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
            history.pop()  # this round's line: replaying the round writes it again
        state.history = history


HIDDEN_INFO = WizardHiddenInfo()
