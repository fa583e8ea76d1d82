"""Oh Hell, a third trick-taking game written only for the tests.

It exists to prove what the game registry promises: a new game is one rules
module and one registry entry, and the match, the hand history and the
command line play, record and replay it without a single edit. The module is
written the way a game under ``game/rules`` would be (pure, seeded, typed
events and views) so that later tests, the interface's among them, can
register it too with ``register_oh_hell()`` or, restoring the registry
afterwards, ``oh_hell_registered()``. It brings its own adapter (what the
screens show of it) and its own computer player, registered by import path
as the built-in games' are; that player also gives its hints.

The rules, as commonly played (3 to 7 players, one 52-card deck, aces high):

* The first dealer: cards are dealt face up from seat 0, clockwise, until an
  ace appears; whoever receives it deals first. The deal then passes left.
* Seven rounds deal 1, 2, 3, 4, 3, 2 and 1 cards, one at a time clockwise
  from the dealer's left. The next card is turned up and its suit is trump
  (with no card left, the round has no trump).
* From the dealer's left, each player bids how many tricks they will take.
  Under the ``hook`` rule the dealer, bidding last, may not bid the number
  that would make the bids add up to the cards in a hand, so someone fails.
* The player at the dealer's left leads the first trick; players must follow
  suit if they can. The highest trump wins, else the highest card of the suit
  led; the winner leads the next trick.
* A player who takes exactly the tricks bid scores 10 plus the bid; anyone
  else scores nothing. After the last round the highest total wins (ties
  share the win).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from typing import Any

from game.rules import registry
from game.rules.actions import NEXT_DEAL, Action, ActionKind, play, predict
from game.rules.cards import NO_SUIT, RANK_OF, SUIT_CARDS, SUIT_OF, Suit, display_suit_order
from game.rules.core import Phase, seeded_rng, shuffled
from game.rules.errors import IllegalActionError
from game.rules.events import BidMade, Dealt, GameEvent, GameOver, TrumpTurnedUp, WizardHandScored
from game.rules.house_rules import RuleSpec
from game.rules.registry import GameDef
from game.rules.tricks import TrickGameState
from game.rules.view import PlayerView, WizardView
from game.rules.wizard_adapter import WizardAdapter

NAME = "ohhell"
MIN_PLAYERS, MAX_PLAYERS = 3, 7
HAND_SIZES = (1, 2, 3, 4, 3, 2, 1)  # cards a hand in rounds 1 to 7
EXACT_BONUS = 10
NO_CARD = -1  # the turn-up when no card is left

OH_HELL_SPECS: tuple[RuleSpec, ...] = (
    RuleSpec("hook", "bool", True, help="The dealer may not bid so that the bids add up to the cards in a hand."),
)


@dataclass(frozen=True)
class OhHellRules:
    hook: bool = True

    game = NAME

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def hand_size(round_number: int) -> int:
    return HAND_SIZES[round_number - 1]


def first_dealer_from_deck(deck: Sequence[int], players: int) -> tuple[list[tuple[int, int]], int]:
    """Deal face up from seat 0 until an ace appears; its receiver deals first."""
    draw = []
    for index, card in enumerate(deck):
        seat = index % players
        draw.append((seat, card))
        if RANK_OF[card] == 14:
            return draw, seat
    raise ValueError("a deck without an ace")


def trick_winner(cards: Sequence[int], trump: int) -> int:
    """Index of the winning card: the highest trump, else the highest of the suit led."""
    led = SUIT_OF[cards[0]]

    def strength(card: int) -> int:
        suit = SUIT_OF[card]
        return 100 + RANK_OF[card] if suit == trump else RANK_OF[card] if suit == led else -1

    return max(range(len(cards)), key=lambda index: strength(cards[index]))


def hand_order(cards: Sequence[int], trump: int, direction: int = 0, rules: Any = None) -> list[int]:
    """By suit (trump first, colours alternating), highest first (no house rule changes it)."""
    position = display_suit_order(trump)
    return sorted(cards, key=lambda card: (position[SUIT_OF[card]], -RANK_OF[card]))


def deal_sequence(hands: Sequence[Sequence[int]], dealer: int) -> list[tuple[int, int]]:
    """The cards of ``hands`` in dealing order, one at a time from the dealer's left."""
    n = len(hands)
    return [(hands[(dealer + 1 + i) % n][i // n], (dealer + 1 + i) % n) for i in range(n * len(hands[0]))]


def create_state(
    rules: OhHellRules, players: int, seed: int, first_dealer: int | None, fixed_deals: dict | None
) -> OhHellState:
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"Oh Hell is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
    if first_dealer is None:
        draw, dealer = first_dealer_from_deck(shuffled(SUIT_CARDS, seeded_rng(seed, "first dealer")), players)
    else:
        draw, dealer = [], first_dealer
    return OhHellState(rules, seed, players, dealer, draw, fixed_deals or {})


def check_fixed_deal(number: int, deal: Any, players: int, rules: Any = None) -> None:
    """Raise ``ValueError`` unless ``deal`` is ``(hands, turn_up)`` for round ``number``
    (no house rule changes what a deal holds)."""
    try:
        hands, turn_up = deal
        hands = [list(hand) for hand in hands]
    except (TypeError, ValueError):
        raise ValueError(f"deal {number}: expected (hands, turn-up card)") from None
    if number > len(HAND_SIZES):
        raise ValueError(f"deal {number}: Oh Hell has {len(HAND_SIZES)} rounds")
    size = hand_size(number)
    if len(hands) != players or any(len(hand) != size for hand in hands):
        raise ValueError(f"deal {number}: round {number} deals {size} cards to each of {players} players")
    cards = [card for hand in hands for card in hand] + ([turn_up] if turn_up != NO_CARD else [])
    if any(type(card) is not int or card not in SUIT_CARDS for card in cards) or max(Counter(cards).values()) > 1:
        raise ValueError(f"deal {number}: the hands and turn-up are not cards of one 52-card deck")


class OhHellState(TrickGameState):
    """A whole game of Oh Hell. Mutate only through ``apply_in_place``."""

    __slots__ = ("num_players", "total_rounds", "turn_up", "bids", "history")

    game = NAME

    def __init__(
        self,
        rules: OhHellRules,
        seed: int,
        num_players: int,
        dealer: int,
        first_draw: list[tuple[int, int]],
        fixed_deals: dict,
    ) -> None:
        self.rules = rules
        self.seed = seed
        self.num_players = num_players
        self.total_rounds = len(HAND_SIZES)
        self.dealer = dealer
        self.deal_number = 0
        self.scores = [0] * num_players
        self.start_scores = [0] * num_players
        self.first_draw = first_draw
        self.fixed_deals = fixed_deals
        self.history: list[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]] = []
        self.phase = Phase.PREDICT
        self.current = -1
        self.hands = [[] for _ in range(num_players)]
        self._new_round()

    def _new_round(self) -> None:
        self.turn_up = NO_CARD
        self.trump = NO_SUIT
        self.bids = [-1] * self.num_players
        self._reset_tricks()

    def copy(self) -> OhHellState:
        new = object.__new__(OhHellState)
        self._copy_shared(new)
        new.num_players = self.num_players
        new.total_rounds = self.total_rounds
        new.turn_up = self.turn_up
        new.bids = self.bids[:]
        new.history = self.history[:]
        return new

    def deal(self, events: list[GameEvent] | None) -> None:
        self.deal_number += 1
        self._new_round()
        n, size = self.num_players, hand_size(self.deal_number)
        fixed = self.fixed_deals.get(self.deal_number)
        if fixed is not None:
            hands, turn_up = [list(hand) for hand in fixed[0]], fixed[1]
        else:
            deck = shuffled(SUIT_CARDS, seeded_rng(self.seed, f"deal {self.deal_number}"))
            hands = [[] for _ in range(n)]
            for index in range(n * size):
                hands[(self.dealer + 1 + index) % n].append(deck[index])
            turn_up = deck[n * size] if n * size < len(deck) else NO_CARD
        self.hands = hands
        self.turn_up = turn_up
        self.trump = SUIT_OF[turn_up] if turn_up != NO_CARD else NO_SUIT
        self.start_scores = self.scores[:]
        self.phase = Phase.PREDICT
        self.current = (self.dealer + 1) % n
        if events is not None:
            events.append(
                Dealt(
                    self.deal_number,
                    self.dealer,
                    tuple(tuple(hand) for hand in hands),
                    (),
                    tuple(deal_sequence(hands, self.dealer)),
                )
            )
            events.append(TrumpTurnedUp(turn_up, self.trump, False))

    # ------------------------------------------------------------------ rules
    def tricks_per_hand(self) -> int:
        return hand_size(self.deal_number)

    def led_suit(self) -> int:
        return SUIT_OF[self.trick[0]] if self.trick else NO_SUIT

    def led_suit_of(self, cards: Sequence[int]) -> int:
        return SUIT_OF[cards[0]] if cards else NO_SUIT

    def forbidden_bid(self) -> int:
        """The bid the dealer may not make under the hook rule, or -1."""
        if not self.rules.hook or self.current != self.dealer or self.phase != Phase.PREDICT:
            return -1
        forbidden = self.tricks_per_hand() - sum(bid for bid in self.bids if bid >= 0)
        return forbidden if forbidden >= 0 else -1

    def legal_actions(self) -> list[Action]:
        if self.phase == Phase.PREDICT:
            forbidden = self.forbidden_bid()
            return [predict(n) for n in range(self.tricks_per_hand() + 1) if n != forbidden]
        if self.phase == Phase.PLAY:
            hand = self.hands[self.current]
            led = self.led_suit()
            following = [card for card in hand if SUIT_OF[card] == led]
            return [play(card) for card in (following or hand)]
        if self.phase == Phase.HAND_OVER:
            return [NEXT_DEAL]
        return []

    def explain_illegal(self, action: Action, legal: Collection[Action] | None = None) -> IllegalActionError:
        phase = self.phase
        if phase == Phase.GAME_OVER:
            return IllegalActionError("The game is over", "game_over")
        expected = {
            Phase.PREDICT: ActionKind.PREDICT,
            Phase.PLAY: ActionKind.PLAY,
            Phase.HAND_OVER: ActionKind.NEXT_DEAL,
        }[phase]
        if action.kind != expected:
            return IllegalActionError("It is not time for that", "wrong_phase", phase=int(phase))
        if phase == Phase.HAND_OVER:
            return IllegalActionError("The round is over", "hand_over")
        if phase == Phase.PREDICT:
            size = self.tricks_per_hand()
            if not 0 <= action.value <= size:
                return IllegalActionError(f"Bid must be from 0 to {size}", "predict_range", max=size)
            total = sum(bid for bid in self.bids if bid >= 0) + action.value
            return IllegalActionError(
                f"The dealer may not bid {action.value}: the bids would add up to {total}",
                "uneven_bids",
                bid=action.value,
                total=total,
            )
        if action.value not in self.hands[self.current]:
            return IllegalActionError("You do not hold that card", "not_in_hand", card=action.value)
        led = self.led_suit()
        return IllegalActionError(f"You must follow {Suit(led).label}", "must_follow", suit=led)

    def apply_in_place(self, action: Action, events: list[GameEvent] | None = None, check: bool = True) -> None:
        if check:
            self.check_legal(action)
        if action.kind == ActionKind.PREDICT:
            self._bid(action.value, events)
        elif action.kind == ActionKind.PLAY:
            self._lay_card(self.current, action.value, False, events)
        elif action.kind == ActionKind.NEXT_DEAL:
            self.dealer = (self.dealer + 1) % self.num_players
            self.deal(events)

    def _bid(self, value: int, events: list[GameEvent] | None) -> None:
        seat = self.current
        self.bids[seat] = value
        if events is not None:
            events.append(BidMade(seat, predict(value)))
        if seat != self.dealer:
            self.current = (seat + 1) % self.num_players
            return
        self.phase = Phase.PLAY
        self.leader = self.current = (self.dealer + 1) % self.num_players

    def trick_winner_index(self) -> int:
        return trick_winner(self.trick, self.trump)

    def _finish_hand(self, events: list[GameEvent] | None) -> None:
        change = [EXACT_BONUS + bid if bid == taken else 0 for bid, taken in zip(self.bids, self.tricks_won)]
        self.scores = [score + delta for score, delta in zip(self.scores, change)]
        self.history.append((tuple(self.bids), tuple(self.tricks_won), tuple(change)))
        last = self.deal_number == self.total_rounds
        self.phase = Phase.GAME_OVER if last else Phase.HAND_OVER
        self.current = -1
        if events is not None:
            # The prediction games' hand-scored event: bids, tricks and points per seat.
            events.append(
                WizardHandScored(
                    self.deal_number, tuple(self.bids), tuple(self.tricks_won), tuple(change), tuple(self.scores)
                )
            )
            if last:
                results = self.results()
                events.append(GameOver(tuple(results["final_scores"]), tuple(results["winners"])))

    def results(self) -> dict[str, Any]:
        best = max(self.scores)
        winners = [seat for seat, score in enumerate(self.scores) if score == best]
        return {"final_scores": self.scores[:], "winners": winners if self.phase == Phase.GAME_OVER else []}

    def returns(self) -> tuple[int, ...]:
        return tuple(self.scores)

    def hand_returns(self) -> tuple[int, ...]:
        if self.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
            return tuple(now - before for now, before in zip(self.scores, self.start_scores))
        return (0,) * self.num_players

    # ------------------------------------------------------------------ views
    def table_books(self) -> tuple[int, ...]:
        return tuple(self.tricks_won)

    def reveals_void(self, card: int, led: int) -> bool:
        return SUIT_OF[card] != led

    def hand_actions_before_play(self, seat: int) -> list[tuple[int, Action | None]]:
        n = self.num_players
        bidders = [(self.dealer + offset) % n for offset in range(1, n + 1)]
        return [(bidder, predict(self.bids[bidder])) for bidder in bidders if self.bids[bidder] >= 0]

    def view(self, seat: int) -> WizardView:
        # Oh Hell's view has exactly the fields of the prediction games' view.
        return WizardView(
            **self.shared_view_fields(seat),
            round_number=self.deal_number,
            total_rounds=self.total_rounds,
            turn_up=self.turn_up,
            trump_pending=False,
            predictions=tuple(self.bids),
            forbidden_bid=self.forbidden_bid(),
            score_history=tuple(self.history),
        )


class OhHellAdapter(WizardAdapter):
    """Oh Hell is shown as Wizard is (rounds, a turn-up, predictions), under its own name and scores."""

    english_title = "Oh Hell"

    def help_numbers(self, rules: Any) -> dict[str, int]:
        return {"exact_bonus": EXACT_BONUS, "per_trick": 1, "per_trick_off": 0}


class OhHellEasyPlayer:
    """Bids its aces, kings and trumps; then plays high while it still needs
    tricks and low once it has its bid. Simple, but its own: it proves a game's
    computer players and hints come from its registry entry."""

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        assert isinstance(view, WizardView), "Oh Hell's views are WizardViews"
        legal = view.legal_actions
        if legal[0].kind == ActionKind.PREDICT:
            strong = sum(1 for card in view.hand if RANK_OF[card] >= 13 or SUIT_OF[card] == view.trump)
            allowed = [action.value for action in legal]
            return predict(min(allowed, key=lambda bid: (abs(bid - strong), bid)))
        if legal[0].kind != ActionKind.PLAY:
            return legal[0]
        bid = view.predictions[view.seat]
        strength = {action.value: (SUIT_OF[action.value] == view.trump, RANK_OF[action.value]) for action in legal}
        wanting = view.tricks_won[view.seat] < bid
        return (max if wanting else min)(legal, key=lambda action: strength[action.value])


OH_HELL = GameDef(
    name=NAME,
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    default_players=4,
    partnerships=0,
    rule_specs=OH_HELL_SPECS,
    rules_class=OhHellRules,
    config_name=NAME,
    create_state=create_state,
    check_fixed_deal=check_fixed_deal,
    view_type=WizardView,
    deck=SUIT_CARDS,
    scoring="prediction",
    hand_order=hand_order,
    adapter=OhHellAdapter(),
    ai_levels={"random": "game.ai:RandomPlayer", "easy": "ohhell:OhHellEasyPlayer"},
    text_keys={"title": "start.game.ohhell", "deal": "game.deal.round", "next_deal": "pad.next_round"},
)


def register_oh_hell() -> GameDef:
    """Add Oh Hell to the game registry (once: registering twice is an error)."""
    return registry.register(OH_HELL)


@contextmanager
def oh_hell_registered() -> Iterator[GameDef]:
    """Oh Hell in the registry for the length of the ``with`` block; the
    registry is left exactly as it was afterwards."""
    saved = dict(registry._GAMES)
    try:
        yield register_oh_hell()
    finally:
        registry._GAMES.clear()
        registry._GAMES.update(saved)
