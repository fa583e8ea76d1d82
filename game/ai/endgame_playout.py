"""A search's play-out that ends perfectly: a rollout policy plays a world until few tricks are
left, then every seat plays the exact endgame solver's best card (``endgame_solver``)."""

from __future__ import annotations

# ``EndgamePlayOut`` wraps any rollout policy of ``search_pimc`` (the medium players) and is a
# rollout policy itself: ``choose`` (a decision from a view, where no hidden card is known)
# is the wrapped policy's, and ``play_out`` (a world, every card known) lets the wrapped
# policy play until at most ``max_tricks`` tricks are left and then plays each card as the
# solver finds best for the seat that plays it: in Bid Whist for its team (one solver: the
# search is zero-sum, so one table serves both teams), in Wizard for its own bid (one
# paranoid solver per seat, created when that seat first has a choice). Every solver moves
# on with every card played, keeping its table. Of several best cards the first the search
# proves best is played (but see "Ties" below). Each solver may
# search at most ``max_nodes`` positions in a play-out; past that (or where the solver
# refuses the house rules) the wrapped policy plays the rest, so a play-out's cost stays
# bounded. The hand ends through the rules' own moves, so a search reads its end
# (``hand_returns``, the books) as after any other play-out. A wrapped policy with a
# ``play_out_until(state, rng, tricks_left)`` of its own (the Wizard rollout player) plays
# the first part its faster way. The hard level does not use this; the expert level does.
#
# Ties (``policy_ties``). A Wizard seat's paranoid solver values its cards by what the seat is
# sure of against all the others, and in most late positions (73% of the choices 2 or 3 tricks
# from a round's end in medium games, docs/BENCHMARKS.md) every card is worth the same: the
# others could sink its bid, or could not, whatever it plays. The solver's first card in its
# search order (the strongest) then stood for a seat no player would be: one throwing its
# Wizard into a trick it has no use for. With ``policy_ties`` the wrapped policy's own card is
# played whenever it is one of the best, so the seats play as the rest of the play-out does
# and the solver only overrules a card that gives value away. Bid Whist needs none: one
# zero-sum solver plays for both teams, so which of two equal cards it plays changes nothing.

import random
from typing import Any, Protocol

from game.ai.endgame_solver import EndgameSolver, NodeLimitReached, UnsupportedPositionError, tricks_left
from game.ai.search_pimc import HAND_ENDS, RolloutPolicy, play_one_move
from game.rules.actions import Action
from game.rules.core import Phase
from game.rules.registry import game_of
from game.rules.view import PlayerView

__all__ = ["DEFAULT_MAX_NODES", "DEFAULT_MAX_TRICKS", "EndgamePlayOut"]

# From 4 tricks left a play-out took 5.9 ms in Bid Whist (2.0 ms by the medium players alone)
# and 12 ms in Wizard at four (1.0 ms), one solver per seat; from 5 tricks left 8.8 and 121 ms.
DEFAULT_MAX_TRICKS = 4
DEFAULT_MAX_NODES = 100_000  # per solver and play-out: under a second on the slowest positions


class EndgamePlayOut:
    """A rollout policy whose play-outs end with perfect play from ``max_tricks`` tricks left."""

    def __init__(
        self,
        policy: RolloutPolicy,
        max_tricks: int = DEFAULT_MAX_TRICKS,
        max_nodes: int = DEFAULT_MAX_NODES,
        *,
        policy_ties: bool = False,
    ) -> None:
        if max_tricks < 1 or max_nodes < 1:
            raise ValueError("an endgame play-out needs at least one trick and one node")
        self.policy = policy
        self.max_tricks = max_tricks
        self.max_nodes = max_nodes
        self.policy_ties = policy_ties

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        return self.policy.choose(view, rng)

    def play_out(self, state: Any, rng: random.Random) -> None:
        """Play ``state`` to the end of its hand (see the module comment)."""
        own_play_out_until = getattr(self.policy, "play_out_until", None)
        if own_play_out_until is not None:  # a faster play-out of its own (the Wizard rollout's)
            own_play_out_until(state, rng, self.max_tricks)
            if state.phase == Phase.PLAY:
                self._play_perfectly(state, rng)
        while state.phase not in HAND_ENDS:
            if state.phase == Phase.PLAY and tricks_left(state) <= self.max_tricks:
                self._play_perfectly(state, rng)
                break
            play_one_move(state, self.policy, rng)
        while state.phase not in HAND_ENDS:  # the solver gave up: the policy finishes the hand
            play_one_move(state, self.policy, rng)

    def _play_perfectly(self, state: Any, rng: random.Random) -> None:
        """Play the rest of the hand with the solvers' best cards, or as far as they go."""
        definition = game_of(state)
        solvers: dict[int, EndgameSolver] = {}  # per side: a Bid Whist team, a Wizard seat
        ties = self._policy_cards(state, rng) if self.policy_ties and definition.partnerships != 2 else None
        try:
            while state.phase == Phase.PLAY:
                legal = state.legal_actions()
                if len(legal) == 1:
                    action = legal[0]
                else:
                    # Two teams play a zero-sum game: one solver answers for both.
                    side = 0 if definition.partnerships == 2 else state.current
                    solver = solvers.get(side)
                    if solver is None:
                        solver = EndgameSolver(state, state.current, max_nodes=self.max_nodes)
                        solvers[side] = solver
                    action = solver.best_action(ties.card(state) if ties is not None else -1)
                for solver in solvers.values():
                    solver.advance(action)
                seat = state.current
                state.apply_in_place(action, None, check=False)
                if ties is not None:
                    ties.saw(state, seat, action.value)
        except (NodeLimitReached, UnsupportedPositionError):
            return

    def _policy_cards(self, state: Any, rng: random.Random) -> _PolicyCards:
        """The wrapped policy's card choices from ``state`` on: its own fast way when it has one
        (the Wizard rollout player's ``medium_cards``), else from each seat's view."""
        own = getattr(self.policy, "medium_cards", None)
        return own(state) if own is not None else _ViewCards(self.policy, rng)


class _PolicyCards(Protocol):
    def card(self, state: Any) -> int: ...

    def saw(self, state: Any, seat: int, card: int) -> None: ...


class _ViewCards:
    """Any policy's card for the seat to move, chosen from that seat's view."""

    def __init__(self, policy: RolloutPolicy, rng: random.Random) -> None:
        self._policy, self._rng = policy, rng

    def card(self, state: Any) -> int:
        return int(self._policy.choose(state.view(state.current), self._rng).value)

    def saw(self, state: Any, seat: int, card: int) -> None:
        """Nothing to keep: each choice reads a fresh view."""
