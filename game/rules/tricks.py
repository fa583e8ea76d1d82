"""What the two games' states share: a hand played out as tricks."""

from __future__ import annotations

from typing import Any
from collections.abc import Collection, Hashable, Sequence

from game.rules.actions import Action, ActionKind, play
from game.rules.core import Phase
from game.rules.errors import IllegalActionError
from game.rules.events import (
    PUBLIC_SEAT as PUBLIC_SEAT,
    CardPlayed,
    GameEvent,
    TrickWon,
)  # PUBLIC_SEAT: long imported from here
from game.rules.finished_hand import FinishedHand, played_by_seat
from game.rules.view import FieldReader, PlayerView, TrickRecord, trick_record


# The seed of a cloned state: its future deals are unrelated to the game's own.
# A string, so that no game's own (integer) seed can ever equal it.
SEALED_SEED = "sealed"

_MAX_ACTION_VALUE = 64
_NO_SUITS: frozenset[int] = frozenset()
_LAST_KIND = max(ActionKind)
# An enum member read from its class costs a class attribute lookup each time; the hot
# path (``is_terminal`` after every simulated move) reads this module constant instead.
_GAME_OVER = Phase.GAME_OVER


def is_well_formed(action: object) -> bool:
    """Whether ``action`` is an ``Action`` built from plain ints in range (a
    card, a count, a suit): the shape every rule check may rely on.

    Only a bid (or a dealer's take) has a mode, and a pass or a next-deal has no value: any other
    action with one is not an action of the games (a card with a bid mode,
    ``PASS`` with a number)."""
    if not isinstance(action, Action):
        return False
    kind, value, mode = action
    if type(value) is not int or type(mode) is not int or not isinstance(kind, int) or isinstance(kind, bool):
        return False
    if not 0 <= kind <= _LAST_KIND or not -1 <= value <= _MAX_ACTION_VALUE:
        return False
    if kind == ActionKind.BID or kind == ActionKind.TAKE:
        return 0 <= mode <= 2
    if kind == ActionKind.PASS or kind == ActionKind.NEXT_DEAL:
        return value == 0 and mode == 0
    return mode == 0


def malformed_action() -> IllegalActionError:
    return IllegalActionError("That is not an action", "malformed_action")


def allowed_action() -> IllegalActionError:
    """The answer of ``explain_illegal`` for an action that is legal after all:
    it has no reason to be refused, and asking must not crash."""
    return IllegalActionError("That action is allowed now", "allowed")


# ``TrickGameState`` is the base of ``BidWhistState`` and ``WizardState``. It
# declares the slots both games use (the states stay plain, fast-to-clone
# objects) and owns the steps that are the same in
# both games: laying a card on the trick, closing a full trick and moving the
# lead to its winner, copying the shared fields in ``clone``, and turning an
# illegal action into the game's worded reason.
class TrickGameState:
    """Shared trick-taking steps; subclasses supply the slots and the game's rules."""

    # The fields every trick game has; each subclass adds its own slots.
    __slots__ = (
        "rules",
        "seed",
        "dealer",
        "deal_number",
        "scores",
        "phase",
        "current",
        "hands",
        "trick",
        "trick_seats",
        "leader",
        "tricks",
        "tricks_won",
        "first_draw",
        "fixed_deals",
        "start_scores",
        "trump",
        "follow_failures",
        "hand_plays",
    )

    game: str  # the registry name, a class constant

    rules: Any
    seed: int | str  # a game's seed is an int; a sealed clone's is SEALED_SEED
    num_players: int  # Bid Whist: a class constant; Wizard: a slot
    dealer: int
    deal_number: int
    scores: list[int]
    phase: Phase
    current: int
    hands: list[list[int]]
    trick: list[int]  # cards of the trick in progress, in play order
    trick_seats: list[int]  # who played them
    leader: int
    tricks: list[TrickRecord]  # the tricks of this hand so far, as the views show them
    tricks_won: list[int]
    first_draw: list[tuple[int, int]]
    fixed_deals: dict[int, Any]  # deal number -> explicit deal; shared between clones, never mutated
    start_scores: list[int]  # the scores when the hand in progress was dealt
    trump: int  # the trump suit, NO_SUIT (-1) for none
    # Kept as the cards fall, so that a view (built for every decision of every
    # search rollout) need not walk the whole hand again:
    follow_failures: list[tuple[int, int, int]]  # (trick index, seat, suit led) of each failure to follow
    hand_plays: list[tuple[int, Action]]  # every card of this hand as (seat, play action)

    # ------------------------------------------------------------ game hooks
    def legal_actions(self) -> list[Action]:
        raise NotImplementedError

    def view(self, seat: int) -> PlayerView:
        raise NotImplementedError

    def explain_illegal(self, action: Action, legal: Collection[Action] | None = None) -> IllegalActionError:
        """Why ``action`` is refused now (``allowed`` when it is legal). ``legal``: this
        position's legal actions when the caller already has them (asked once for many actions)."""
        raise NotImplementedError

    def trick_winner_index(self) -> int:
        raise NotImplementedError

    def tricks_per_hand(self) -> int:
        raise NotImplementedError

    def _finish_hand(self, events: list[GameEvent] | None) -> None:
        raise NotImplementedError

    def led_suit(self) -> int:
        raise NotImplementedError

    def table_books(self) -> tuple[int, ...]:
        """The books the table shows now: per team or per seat."""
        raise NotImplementedError

    def reveals_void(self, card: int, led: int) -> bool:
        """Whether playing ``card`` to a trick led in ``led`` shows that the
        player holds no card of ``led``."""
        raise NotImplementedError

    def led_suit_of(self, cards: tuple[int, ...] | list[int]) -> int:
        raise NotImplementedError

    def reneged(self, trick_index: int, seat: int) -> bool:
        """Whether ``seat`` reneged in trick ``trick_index`` (games with a renege rule)."""
        return False

    def failure_proves_void(self, player: int, viewer: int) -> bool:
        """Whether ``viewer`` may read a failure of ``player`` to follow suit as
        a void. Where the house rules let a renege through and keep it secret
        until the hand is scored, only the player knows which failures were
        reneges; anyone else learns nothing from them until then."""
        return True

    def hand_actions_before_play(self, seat: int) -> list[tuple[int, Action | None]]:
        """This hand's decisions before the first card, as ``seat`` saw them."""
        raise NotImplementedError

    # ------------------------------------------------------------ shared
    @property
    def current_player(self) -> int:
        return self.current

    @property
    def is_terminal(self) -> bool:
        return self.phase == _GAME_OVER

    def check_legal(self, action: Action) -> None:
        """Raise ``IllegalActionError`` unless ``action`` is legal now.

        Anything that is not a well-formed action (another type, a float or
        tuple where a card belongs, a number no action has) is refused first,
        so only sound actions ever reach the game's explanation or its moves.
        """
        if not is_well_formed(action):
            raise malformed_action()
        legal = self.legal_actions()
        if action in legal:
            return
        raise self.explain_illegal(action, legal)

    def copy(self) -> Any:
        """An exact copy, future deals included (the engine's own ``apply``)."""
        raise NotImplementedError

    def clone(self, future_seed: int | None = None) -> Any:
        """A copy for search: the same position, but the deals after this hand
        come from ``future_seed`` (or from a fixed stand-in seed), never from
        the game's own seed, so searching past the hand reveals nothing about
        the real next deals."""
        new = self.copy()
        new.seed = SEALED_SEED if future_seed is None else future_seed
        new.fixed_deals = {}
        return new

    def _copy_shared(self, new: Any) -> None:
        """Copy the fields every trick game has into ``new`` (a fresh object of
        this class): lists are copied, immutable or never-mutated values shared."""
        new.rules = self.rules
        new.seed = self.seed
        new.dealer = self.dealer
        new.deal_number = self.deal_number
        new.scores = self.scores[:]
        new.phase = self.phase
        new.current = self.current
        new.hands = [h[:] for h in self.hands]
        new.trick = self.trick[:]
        new.trick_seats = self.trick_seats[:]
        new.leader = self.leader
        new.tricks = self.tricks[:]
        new.tricks_won = self.tricks_won[:]
        new.first_draw = self.first_draw
        new.fixed_deals = self.fixed_deals
        new.start_scores = self.start_scores
        new.trump = self.trump
        new.follow_failures = self.follow_failures[:]
        new.hand_plays = self.hand_plays[:]

    def _reset_tricks(self) -> None:
        """No trick played yet: the state of a fresh hand's play."""
        self.trick = []
        self.trick_seats = []
        self.leader = -1
        self.tricks = []
        self.tricks_won = [0] * self.num_players
        self.follow_failures = []
        self.hand_plays = []

    def _lay_card(self, seat: int, card: int, renege: bool, events: list[GameEvent] | None) -> None:
        """``seat`` plays ``card`` (already checked) to the trick; a full trick
        goes to its winner, who leads next, and the last trick ends the hand."""
        self.hands[seat].remove(card)
        if self.trick:
            led = self.led_suit_of(self.trick)
            if led >= 0 and self.reveals_void(card, led):
                self.follow_failures.append((len(self.tricks), seat, led))
        self.hand_plays.append((seat, play(card)))
        self.trick.append(card)
        self.trick_seats.append(seat)
        if events is not None:
            events.append(CardPlayed(seat, card, renege))
        if len(self.trick) < self.num_players:
            self.current = (seat + 1) % self.num_players
            return
        self._close_trick(self.trick_winner_index(), self.tricks_per_hand(), events)

    def _close_trick(self, winner_index: int, tricks_per_hand: int, events: list[GameEvent] | None) -> None:
        """The trick is full and its card ``winner_index`` takes it: the trick goes to
        that card's seat, who leads next, and the hand's last trick (of ``tricks_per_hand``,
        which the games' fast paths know without a call) ends the hand. (Those fast paths
        lay the cards themselves and call this once a trick.)"""
        seats = self.trick_seats
        winner = seats[winner_index]
        plays = tuple(zip(seats, self.trick))
        tricks = self.tricks
        tricks.append(trick_record(self.leader, plays, winner))
        self.tricks_won[winner] += 1
        if events is not None:
            events.append(TrickWon(winner, self.leader, plays, len(tricks) - 1, self.table_books()))
        self.trick = []
        self.trick_seats = []
        self.leader = winner
        self.current = winner
        if len(tricks) == tricks_per_hand:
            self._finish_hand(events)

    def finished_hand(self) -> FinishedHand:
        """This hand with every card face up; ask ``game.rules.finished_hand.finished_hand``,
        which refuses a hand still in play. Here: a game without a kitty, whose seats were
        dealt what they played and what they still hold."""
        hands = [played + held for played, held in zip(played_by_seat(self), self.hands)]
        return FinishedHand(
            game=self.game,
            deal_number=self.deal_number,
            dealer=self.dealer,
            hands=tuple(tuple(hand) for hand in hands),
            tricks=tuple(self.tricks),
            tricks_won=tuple(self.tricks_won),
            trump=self.trump,
            turn_up=getattr(self, "turn_up", -1),
        )

    # ------------------------------------------------------------ view helpers
    def winning_seat(self) -> int:
        """Who is winning the trick in progress so far, or -1 when it is empty."""
        if not self.trick:
            return -1
        return self.trick_seats[self.trick_winner_index()]

    def shown_voids(self, viewer: int = PUBLIC_SEAT) -> tuple[frozenset[int], ...]:
        """Per seat, the suits it has shown ``viewer`` it lacks this hand: a
        failure to follow suit that ``viewer`` knows was not a renege."""
        if not self.follow_failures:
            return (_NO_SUITS,) * self.num_players  # most views: nobody has failed to follow yet
        return self._voids_proved(self._void_proofs(viewer))

    def _void_proofs(self, viewer: int) -> tuple[bool, ...]:
        """Per seat, whether ``viewer`` may read its failures to follow as voids."""
        return tuple(self.failure_proves_void(player, viewer) for player in range(self.num_players))

    def _voids_proved(self, proves: tuple[bool, ...]) -> tuple[frozenset[int], ...]:
        voids: list[set[int]] = [set() for _ in range(self.num_players)]
        for index, seat, led in self.follow_failures:
            if proves[seat] and not self.reneged(index, seat):
                voids[seat].add(led)
        return tuple(frozenset(v) for v in voids)

    def seat_view_fields(self) -> frozenset[str]:
        """The fields of this game's views that may differ between viewers of one position;
        every other field is the same for every viewer (``views`` reads those once)."""
        return SEAT_VIEW_FIELDS

    def actions_sight(self, seat: int) -> Hashable:
        """What ``hand_actions(seat)`` depends on of ``seat``: seats with equal sights see the
        hand's actions alike (``views`` reads them once for all of them)."""
        return seat

    def seat_views_fields(self, seats: Sequence[int]) -> list[dict[str, Any]]:
        """Per seat of ``seats``, its view's fields of ``SEAT_VIEW_FIELDS``; the hand's actions
        and the voids are read once for all the seats that see them alike."""
        actions_by_sight: dict[Hashable, tuple[tuple[int, Action | None], ...]] = {}
        voids_by_proofs: dict[tuple[bool, ...], tuple[frozenset[int], ...]] = {}
        no_voids = None if self.follow_failures else (_NO_SUITS,) * self.num_players
        fields = []
        for seat in seats:
            seen = {name: read(self, seat) for name, read in _PLAIN_SEAT_READERS}
            sight = self.actions_sight(seat)
            actions = actions_by_sight.get(sight)
            if actions is None:
                actions = actions_by_sight[sight] = self.hand_actions(seat)
            seen["actions"] = actions
            if no_voids is None:
                proofs = self._void_proofs(seat)
                voids = voids_by_proofs.get(proofs)
                if voids is None:
                    voids = voids_by_proofs[proofs] = self._voids_proved(proofs)
                seen["voids"] = voids
            else:
                seen["voids"] = no_voids
            fields.append(seen)
        return fields

    def hand_actions(self, seat: int) -> tuple[tuple[int, Action | None], ...]:
        """Every action of this hand so far as ``seat`` saw it (None where hidden)."""
        actions = self.hand_actions_before_play(seat)
        actions.extend(self.hand_plays)
        return tuple(actions)

    def shared_view_fields(self, seat: int) -> dict[str, Any]:
        """The fields of ``PlayerView`` that every trick game fills the same way.

        ``seat`` -1 (``PUBLIC_SEAT``) is the public view: what anyone watching
        the table knows, with no hand and no secret."""
        self._check_viewer(seat)
        return {name: read(self, seat) for name, read in SHARED_VIEW_FIELDS.items()}

    def views(self, seats: Sequence[int]) -> list[PlayerView]:
        """``[self.view(seat) for seat in seats]``: every viewer of a table at one position (a
        server's). A game may read the fields every viewer shares once for all of them."""
        return [self.view(seat) for seat in seats]

    def shared_views_fields(self, seats: Sequence[int]) -> list[dict[str, Any]]:
        """``[self.shared_view_fields(seat) for seat in seats]``, the fields that do not depend
        on the seat looking (all but ``SEAT_VIEW_FIELDS``) read once."""
        for seat in seats:
            self._check_viewer(seat)
        common = {name: read(self, seats[0]) for name, read in _COMMON_VIEW_FIELDS}
        return [{**common, **seen} for seen in self.seat_views_fields(seats)]

    def rollout_view(self, seat: int, legal: Sequence[Action]) -> PlayerView:
        """``seat``'s view for one decision of a simulated hand, whose legal
        actions (``legal``) the caller has already asked for. It equals
        ``view(seat)`` field for field; a game may return a lazy view
        (``lazy_view_type``, valid only until the state changes) to spare a search the
        fields its players never read."""
        return self.view(seat)

    def _check_viewer(self, seat: int) -> None:
        if not -1 <= seat < self.num_players:
            raise ValueError(f"no seat {seat} at a table of {self.num_players}")


# How each field every trick game's view shares is read from a state for a
# seat (-1: the public view). ``shared_view_fields`` reads them all; a lazy
# view (``lazy_view_type``) reads each when first asked for.
SHARED_VIEW_FIELDS: dict[str, FieldReader] = {
    "game": lambda state, seat: state.game,
    "rules": lambda state, seat: state.rules,
    "num_players": lambda state, seat: state.num_players,
    "seat": lambda state, seat: seat,
    "phase": lambda state, seat: state.phase,
    "current_player": lambda state, seat: state.current,
    "dealer": lambda state, seat: state.dealer,
    "deal_number": lambda state, seat: state.deal_number,
    "hand": lambda state, seat: tuple(state.hands[seat]) if seat >= 0 else (),
    "hand_sizes": lambda state, seat: tuple(map(len, state.hands)),
    "trick": lambda state, seat: tuple(zip(state.trick_seats, state.trick)),
    "trick_leader": lambda state, seat: state.leader,
    "tricks": lambda state, seat: tuple(state.tricks),
    "tricks_won": lambda state, seat: tuple(state.tricks_won),
    "scores": lambda state, seat: tuple(state.scores),
    "start_scores": lambda state, seat: tuple(state.start_scores),
    "legal_actions": lambda state, seat: tuple(state.legal_actions()) if seat >= 0 and seat == state.current else (),
    "trump": lambda state, seat: state.trump,
    "led_suit": lambda state, seat: state.led_suit() if state.trick else -1,
    "winning_seat": lambda state, seat: state.winning_seat(),
    "books": lambda state, seat: state.table_books(),
    "actions": lambda state, seat: state.hand_actions(seat),
    "voids": lambda state, seat: state.shown_voids(seat),
    "tricks_per_hand": lambda state, seat: state.tricks_per_hand(),
}
# The fields of ``SHARED_VIEW_FIELDS`` that depend on the seat looking; the others are the
# same for every viewer of a position (``views`` reads them once).
SEAT_VIEW_FIELDS = frozenset({"seat", "hand", "legal_actions", "actions", "voids"})
_COMMON_VIEW_FIELDS = tuple((name, read) for name, read in SHARED_VIEW_FIELDS.items() if name not in SEAT_VIEW_FIELDS)
# The seat's fields ``seat_views_fields`` reads for each seat (the actions and voids it shares).
_PLAIN_SEAT_READERS = tuple(
    (name, read) for name, read in SHARED_VIEW_FIELDS.items() if name in SEAT_VIEW_FIELDS - {"actions", "voids"}
)
