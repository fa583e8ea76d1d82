"""What the two games' states share: a hand played out as tricks.

``TrickGameState`` is the base of ``BidWhistState`` and ``WizardState``. It
declares the slots both games use (the states stay plain, fast-to-clone
objects) and owns the steps that are the same in
both games: laying a card on the trick, closing a full trick and moving the
lead to its winner, copying the shared fields in ``clone``, and turning an
illegal action into the game's worded reason.
"""

from __future__ import annotations

from typing import Any

from game.rules.actions import Action
from game.rules.core import Event, EventKind, Phase
from game.rules.errors import IllegalActionError


class TrickGameState:
    """Shared trick-taking steps; subclasses supply the slots and the game's rules."""

    # The fields every trick game has; each subclass adds its own slots.
    __slots__ = (
        "rules", "seed", "dealer", "deal_number", "scores", "phase", "current", "hands",
        "trick", "trick_seats", "leader", "tricks", "tricks_won", "first_draw", "fixed_deals",
    )

    rules: Any
    seed: int
    num_players: int  # Bid Whist: a class constant; Wizard: a slot
    dealer: int
    deal_number: int
    scores: list[int]
    phase: Phase
    current: int
    hands: list[list[int]]
    trick: list[int]           # cards of the trick in progress, in play order
    trick_seats: list[int]     # who played them
    leader: int
    tricks: list[tuple[int, tuple[tuple[int, int], ...], int]]  # (leader, plays, winner)
    tricks_won: list[int]
    first_draw: list[tuple[int, int]]
    fixed_deals: dict  # deal number -> explicit deal; shared between clones, never mutated

    # ------------------------------------------------------------ game hooks
    def legal_actions(self) -> list[Action]:
        raise NotImplementedError

    def explain_illegal(self, action: Action) -> IllegalActionError:
        raise NotImplementedError

    def trick_winner_index(self) -> int:
        raise NotImplementedError

    def tricks_per_hand(self) -> int:
        raise NotImplementedError

    def _finish_hand(self, events: list[Event] | None) -> None:
        raise NotImplementedError

    # ------------------------------------------------------------ shared
    @property
    def current_player(self) -> int:
        return self.current

    @property
    def is_terminal(self) -> bool:
        return self.phase == Phase.GAME_OVER

    def check_legal(self, action: Action) -> None:
        if action in self.legal_actions():
            return
        raise self.explain_illegal(action)

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

    def _lay_card(self, seat: int, card: int, renege: bool, events: list[Event] | None) -> None:
        """``seat`` plays ``card`` (already checked) to the trick; a full trick
        goes to its winner, who leads next, and the last trick ends the hand."""
        self.hands[seat].remove(card)
        self.trick.append(card)
        self.trick_seats.append(seat)
        if events is not None:
            events.append(Event(EventKind.CARD_PLAYED, seat, card, {"renege": renege}))
        if len(self.trick) < self.num_players:
            self.current = (seat + 1) % self.num_players
            return
        winner = self.trick_seats[self.trick_winner_index()]
        plays = tuple(zip(self.trick_seats, self.trick))
        self.tricks.append((self.leader, plays, winner))
        self.tricks_won[winner] += 1
        if events is not None:
            events.append(Event(EventKind.TRICK_WON, winner, data={
                "leader": self.leader, "plays": plays, "index": len(self.tricks) - 1}))
        self.trick = []
        self.trick_seats = []
        self.leader = winner
        self.current = winner
        if len(self.tricks) == self.tricks_per_hand():
            self._finish_hand(events)
