"""A level that peeks, for the benchmarks alone: the expert's search in the one true world.

It bounds what better worlds could give the expert (issue 29): the same search, time and play-outs,
but every world it draws is the real deal. Only ``benchmarks.ai`` knows the level ``oracle``.
"""

from __future__ import annotations

# Why it exists: the expert's worlds are guesses fitted to what the table showed, and sessions 21 and
# 22 found better-fitted guesses bought nothing the games could show. The oracle asks the opposite
# question: with the guessing perfect, how far ahead of the baseline does the same search get? The
# other seats of each simulation still play as the medium players from their own views, so what the
# oracle knows and the expert does not is exactly the hidden cards (and, in Bid Whist, the kitty).
#
# The tournament hands the oracle the real state before each of its decisions (``peek``); a player
# of the game never gets one, and the registry and the game's menus never offer this level.

from collections.abc import Callable, Mapping
import random

from game.ai import ComputerPlayer
from game.ai.expert import BidWhistExpertPlayer, WizardExpertPlayer
from game.ai.search_pimc import DrawHidden
from game.rules.bidwhist import BidWhistState
from game.rules.engine import GameState
from game.rules.hidden import HiddenCards
from game.rules.search import HiddenSampler
from game.rules.view import BidWhistView, PlayerView, WizardView

__all__ = ["ORACLE", "oracle_factories", "true_hidden"]

ORACLE = "oracle"  # the level's name on the benchmarks' command line and in their tables


def true_hidden(state: GameState, seat: int) -> HiddenCards:
    """What ``seat`` cannot see, as it really is (read from the state and the seat's view)."""
    view = state.view(seat)
    hands = {other: tuple(state.hands[other]) for other in range(state.num_players) if other != seat}
    if isinstance(state, BidWhistState):
        assert isinstance(view, BidWhistView)
        kitty = () if view.kitty else tuple(state.kitty)
        discards = () if view.discards else tuple(state.discards)
        return HiddenCards(hands, kitty, discards)
    assert isinstance(view, WizardView)
    bids = {other: bid for other, bid in enumerate(state.bids) if bid >= 0 and view.predictions[other] < 0}
    return HiddenCards(hands, bids=bids)


class _Peeking:
    """Draws every world as the real deal of the state last shown to it."""

    table: GameState | None = None
    _truth: tuple[PlayerView, HiddenCards] | None = None  # the last view searched and its real hidden cards

    def peek(self, state: GameState) -> None:
        """The real game, just before this player decides in it."""
        self.table = state
        self._truth = None

    def _true_world(self, view: PlayerView, sampler: HiddenSampler, rng: random.Random) -> HiddenCards:
        if self._truth is None or self._truth[0] is not view:
            if self.table is None or self.table.view(view.seat) != view:
                raise RuntimeError("the oracle decides only in the game the tournament showed it")
            self._truth = (view, true_hidden(self.table, view.seat))
        return self._truth[1]


class WizardOracle(_Peeking, WizardExpertPlayer):
    """The Wizard expert, every world the real one."""

    def _world_drawer(self, view: WizardView) -> DrawHidden:
        return self._true_world


class BidWhistOracle(_Peeking, BidWhistExpertPlayer):
    """The Bid Whist expert, every world the real one (the kitty included)."""

    def _world_drawer(self, view: BidWhistView) -> DrawHidden:
        return self._true_world


# Each class takes an optional ``budget`` first, as the benchmarks' factories do.
_FACTORIES: Mapping[str, Callable[..., ComputerPlayer]] = {
    "wizard": WizardOracle,
    "bidwhist": BidWhistOracle,
}


def oracle_factories() -> Mapping[str, Callable[..., ComputerPlayer]]:
    """Game name -> the factory of its oracle player (taking an optional ``budget``)."""
    return _FACTORIES
