"""The frame shared by the "medium" computer players of every game."""

from __future__ import annotations

# Each game registers its own medium player (``BidWhistMediumPlayer``,
# ``WizardMediumPlayer``) under the level "medium" in its ``GameDef``; nothing
# here knows which games exist. ``MediumPlayer`` holds what they have in
# common: a decision with a single legal action needs no thought, a view of the
# wrong game is refused, and a strategy bug never stalls a game.
#
# A medium player is stateless. Its choice is a pure function of the seat's
# view and the state of the RNG it is handed (used for tie-breaks only), so the
# same seed replays the same game, any thread may run it, and it cannot peek at
# hidden cards: a view holds none.

import random
from abc import ABC, abstractmethod
from typing import Generic, TypeVar

from game.rules.actions import Action
from game.rules.view import PlayerView

ViewT = TypeVar("ViewT", bound=PlayerView)


class MediumPlayer(ABC, Generic[ViewT]):
    """Base of the medium players: subclasses name their view type and ``decide``."""

    view_type: type[ViewT]

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        legal = view.legal_actions
        if not legal:
            raise ValueError(f"seat {view.seat} has nothing to decide in phase {view.phase.label}")
        if len(legal) == 1:
            return legal[0]
        if not isinstance(view, self.view_type):
            raise TypeError(
                f"{type(self).__name__} plays from a {self.view_type.__name__}, not a {type(view).__name__}"
            )
        action = self.decide(view, rng)
        # A strategy bug must never stall a game: fall back to a legal move.
        # Tests call ``decide`` directly so that such a bug cannot hide here.
        return action if action in legal else legal[0]

    @abstractmethod
    def decide(self, view: ViewT, rng: random.Random) -> Action:
        """The strategy's choice when there is more than one legal action."""


def later_seats(view: PlayerView) -> list[int]:
    """The seats still to play to the trick in progress after this one, in turn order."""
    return seats_after(view.seat, view.num_players, len(view.trick))


def seats_after(seat: int, seats: int, played: int) -> list[int]:
    """The seats to play after ``seat`` to a trick of which ``played`` cards
    are down (``seat``'s not among them), in turn order."""
    return [(seat + offset) % seats for offset in range(1, seats - played)]
