"""Wizard play-outs in which every seat steers to its bid as the simulated deal lets it."""

from __future__ import annotations

# A search's play-outs are played in one drawn world, whose every hand the
# play-out may read: the strongest bridge and skat programs play each world
# out double dummy, every seat seeing every card. An exact solver costs too
# much before the last tricks in Wizard, so ``ClairvoyantRolloutPlayer`` adds
# to the medium player's cards only what the world makes certain: a seat short
# of its bid plays the cheapest card sure to take the trick (no card a later
# seat may play beats it), and a seat that has its tricks plays its dearest
# card sure to lose it (a card that does not lead the trick when played never
# takes it). Every other choice is the medium player's. It steers as the
# searching players do, who make their bids more often than the medium players
# (docs/BENCHMARKS.md, session 28). Its view-by-view play (``choose``, hands not
# known) is the medium player's.

import random
from collections.abc import Sequence
from typing import Any

from game.ai.medium import seats_after
from game.ai.wizard_medium import WizardTable
from game.ai.wizard_rollout import WizardRolloutPlayer
from game.rules.cards import NO_SUIT
from game.rules.wizard import legal_cards_of, strengths, trick_winner

__all__ = ["ClairvoyantRolloutPlayer", "steered_card"]


def sure_cards(state: Any, seat: int, legal: Sequence[int]) -> tuple[list[int], list[int]]:
    """Of ``seat``'s ``legal`` cards in ``state`` (every hand known): those sure to take the trick
    whatever the seats after it play, and those sure to lose it."""
    trick, trump = list(state.trick), state.trump
    place = len(trick)
    later = seats_after(seat, state.num_players, place)
    winners, losers = [], []
    for card in legal:
        cards = [*trick, card]
        if trick_winner(cards, trump) != place:
            losers.append(card)  # not ahead when played: a later card can only take the lead from another
        elif all(
            trick_winner([*cards, reply], trump) == place
            for other in later
            for reply in legal_cards_of(state.hands[other], cards)
        ):
            winners.append(card)
    return winners, losers


def steered_card(state: Any, seat: int, legal: Sequence[int], medium: int) -> int:
    """``seat``'s card in a simulated ``state``: the cheapest sure winner while it is short of its bid,
    the dearest sure loser once it has its tricks, else ``medium`` (the medium player's card)."""
    winners, losers = sure_cards(state, seat, legal)
    value = strengths(NO_SUIT, state.trump)  # a Wizard dearest, then trumps, then by rank; a Jester cheapest
    if state.bids[seat] > state.tricks_won[seat]:
        return min(winners, key=value.__getitem__) if winners else medium
    return max(losers, key=value.__getitem__) if losers else medium


class ClairvoyantRolloutPlayer(WizardRolloutPlayer):
    """The medium player's play-outs, every seat steering to its bid by the simulated deal's hands."""

    def _card_in(self, state: Any, table: WizardTable, rng: random.Random) -> int:
        return steered_card(state, table.seat, table.legal, self._card(table, rng))
