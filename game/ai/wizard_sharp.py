"""The expert Wizard player's play-outs: the medium player's cards, with its costliest slips
mended, so a simulated round is played more as the expert itself would play it.
"""

from __future__ import annotations

# A search is only as good as the play-outs it scores candidates with: where the medium player
# throws away a bid it could have made, the search blames the candidate that led there. Measured
# with one player in one seat against three medium players on the same deals (duplicate over the
# seats, 800 seeds of 4 games, ``benchmarks.wizard_playouts``), points a round over the medium seats:
#
# * **A Wizard kept for later makes an overtrick** (+4.15 ± 0.16 alone). With its bid one trick
#   short and a Wizard in hand, the medium player first tries its other good cards; when one of
#   them wins, the Wizard it still holds wins a trick too, since it can be lost only under an
#   earlier Wizard. Taking the trick with a Wizard at once, when the Wizards held are enough for
#   the tricks still needed, makes the bid and keeps the other cards for ducking.
# * **Trying a card for a needed trick from 50%**, not 60%: nothing alone (+0.01 ± 0.13), about a
#   quarter of a point with the first mend (both: +4.40 ± 0.19; bids hit 62.9% against 55.7%).
#
# The medium player itself stays as it is: the hard player and the tournament's frozen baseline
# play out with it, and the worlds are still fitted to the others' cards as the medium player
# would choose them (``wizard_worlds``), since that is how the hard players choose theirs.

import random

from game.ai.wizard_medium import WizardTable, card_to_play
from game.ai.wizard_rollout import WizardRolloutPlayer
from game.rules.actions import Action, play
from game.rules.cards import WIZARD
from game.rules.core import Phase
from game.rules.view import WizardView

__all__ = ["SHARP_SAFE_ENOUGH", "SharpWizardRolloutPlayer", "sharp_card_to_play"]

SHARP_SAFE_ENOUGH = 0.5  # how often a card must hold to be tried for a needed trick (medium: 0.6)


def sharp_card_to_play(table: WizardTable, wizards_held: int) -> int:
    """The card to play from ``table`` (what the seat knows), holding ``wizards_held`` Wizards."""
    need = table.predictions[table.seat] - table.tricks_won[table.seat]
    if 0 < need <= wizards_held and WIZARD not in table.trick_cards:
        return WIZARD  # a Wizard wins this trick for sure: see the module comment
    return card_to_play(table, SHARP_SAFE_ENOUGH)


class SharpWizardRolloutPlayer(WizardRolloutPlayer):
    """The medium Wizard player's bids and trump choice, and its cards with the slips above mended,
    as a search's play-out (a round played out fast) and as a player of a view."""

    def card_for(self, table: WizardTable, hand: list[int]) -> int:
        return sharp_card_to_play(table, hand.count(WIZARD))

    def decide(self, view: WizardView, rng: random.Random) -> Action:
        if view.phase == Phase.PLAY:
            return play(sharp_card_to_play(WizardTable.from_view(view), view.hand.count(WIZARD)))
        return super().decide(view, rng)
