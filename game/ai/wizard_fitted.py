"""A Wizard play-out policy fitted to the hard player's card choices: each card the seat could play
weighed by a few plain facts of the trick (``CARD_FEATURES``), one drawn by the fitted odds."""

from __future__ import annotations

# The expert's search plays its simulated rounds out with the medium players, but the players it
# meets search too, and a hard player plays the medium player's card only about half the time when
# it has a real choice (docs/BENCHMARKS.md, session 22). This policy is a conditional logit over the
# cards that play differently (``distinct_cards``, as the search itself groups them): a card's
# weight is exp(w · f), f its features below and w the row of ``WEIGHTS`` for the seat's situation
# (how many tricks it still needs against the tricks left, and whether it leads or follows). The
# medium player's card is one feature, so the fit starts from it and learns where strong players
# leave it. The weights were fitted by ``python -m benchmarks.wizard_imitation`` to the choices of
# the frozen baseline (the hard player) in games of four baseline players; how well they predict
# those choices is in docs/BENCHMARKS.md. The card is drawn from the odds, not the likeliest taken:
# a searching player is not predictable to one card, and a world played out one way only is what
# made the search told the true deal play worse (session 27).

import math
import operator
import random
from collections.abc import Sequence
from typing import Any

from game.ai.wizard_medium import WizardTable, card_to_play, card_value, distinct_cards
from game.ai.wizard_rollout import WizardRolloutPlayer
from game.rules.actions import Action, play
from game.rules.cards import JESTER, RANK_OF, SUIT_OF, WIZARD
from game.rules.core import Phase

__all__ = [
    "CARD_FEATURES",
    "SITUATIONS",
    "WEIGHTS",
    "FittedRolloutPlayer",
    "card_features",
    "card_odds",
    "choice_odds",
    "situation",
]

CARD_FEATURES = (
    "medium",  # the medium player's card
    "hold",  # the chance it takes the trick (``WizardTable.hold_chance``)
    "safe",  # that chance at least 0.6
    "beats_table",  # following: it beats the cards played so far
    "cheapest_winner",  # following: the least precious card that beats them
    "dearest_loser",  # the most precious card that does not
    "wizard",
    "jester",
    "trump",
    "rank",  # a suit card's rank over 14
    "value_order",  # its place among the choices, least precious 0, most precious 1
    "spoils",  # following: it lets a seat sitting exactly on its bid take the trick
    "suit_share",  # the share of the seat's hand in its suit
    "top_of_suit",  # the seat's highest card of its suit
    "bottom_of_suit",  # the seat's lowest card of its suit
    "others_want",  # it may win, times the share of later seats still short of their bids
)
# Need > 0 with every trick needed, need > 0, need 0, need < 0 (bid lost over); each leading then following.
SITUATIONS = 8

# Fitted weights, one row per situation, one column per feature (see the module comment): pasted from
# ``python -m benchmarks.wizard_imitation fit`` over 14 games of four baseline players (seeds 7000 to 7006
# and 7100 to 7106).
# fmt: off
WEIGHTS: tuple[tuple[float, ...], ...] = (
    (0.90, -0.07, 0.16, 0.00, 0.00, 0.00, -0.38, 0.00, -0.06, 0.41, 0.88, 0.00, 0.09, 0.67, 0.05, 0.00),
    (0.55, 0.20, 0.34, 0.69, 0.89, -0.08, -0.11, 0.00, -0.12, -0.42, 0.16, -0.28, -0.03, 0.34, 0.55, 0.16),
    (0.26, 0.91, 0.40, 0.00, 0.00, 0.00, -0.02, -0.60, -0.40, 0.20, 0.22, 0.00, -0.12, 0.11, 0.38, 0.00),
    (0.21, 0.66, 0.06, 1.15, -0.21, -0.02, -1.33, -0.68, -0.61, -0.32, -0.03, 0.75, -0.53, -0.07, 0.15, -0.03),
    (-0.07, -1.47, 0.06, 0.00, 0.00, 0.00, -0.07, 0.13, 1.93, -0.04, -0.50, 0.00, -1.58, 0.45, 0.84, 0.00),
    (1.27, -1.10, -0.76, -1.43, 0.23, -0.18, 0.00, -0.30, 0.04, 0.21, 0.91, -0.11, -1.24, 0.94, 0.78, -0.44),
    (0.21, -0.44, -0.51, 0.00, 0.00, 0.00, -0.01, 0.16, 0.55, -0.38, -0.70, 0.00, -0.53, 0.63, 0.71, 0.00),
    (1.20, -0.15, -0.13, -0.24, -0.24, 0.64, 0.06, -0.26, -0.05, 0.28, 0.81, 0.00, 0.01, -0.07, 0.64, -0.22),
)
# fmt: on


def situation(t: WizardTable) -> int:
    """Which row of ``WEIGHTS`` judges ``t``'s seat now."""
    need = t.predictions[t.seat] - t.tricks_won[t.seat]
    if need > 0:
        row = 0 if need >= t.tricks_left else 1
    else:
        row = 2 if need == 0 else 3
    return row * 2 + (1 if t.trick_cards else 0)


def card_features(t: WizardTable) -> tuple[list[int], list[tuple[float, ...]]]:
    """The cards that play differently (the medium card standing for its group) and each one's
    features, in ``CARD_FEATURES`` order."""
    chances = {card: t.hold_chance(card) for card in t.legal}
    medium = card_to_play(t, chances)
    cards = distinct_cards(t.legal, t.unseen, medium)
    trump = t.trump
    following = bool(t.trick_cards)
    spoiling = following and t.winner_sits_on_bid()
    by_value = sorted(cards, key=lambda c: (card_value(c, trump), c))
    winners = [c for c in by_value if chances[c] > 0]
    losers = [c for c in by_value if chances[c] == 0]
    cheapest = winners[0] if winners and following else -1
    dearest = losers[-1] if losers else -1
    later = t.later
    short = sum(1 for s in later if t.predictions[s] > t.tricks_won[s])  # a hidden bid (-1) is never short
    others_want = short / len(later) if later else 0.0
    spread = max(1, len(cards) - 1)
    place = {card: index / spread for index, card in enumerate(by_value)}
    size = t.tricks_left
    suits: dict[int, list[int]] = {}  # the ranks the seat holds in each suit
    for held in t.hand:
        if held not in (WIZARD, JESTER):
            suits.setdefault(SUIT_OF[held], []).append(RANK_OF[held])
    rows: list[tuple[float, ...]] = []
    for card in cards:
        chance = chances[card]
        suit_card = card not in (WIZARD, JESTER)
        ranks = suits.get(SUIT_OF[card], []) if suit_card else []
        rank = RANK_OF[card] if suit_card else 0
        rows.append(
            (
                1.0 if card == medium else 0.0,
                chance,
                1.0 if chance >= 0.6 else 0.0,
                1.0 if following and chance > 0 else 0.0,
                1.0 if card == cheapest else 0.0,
                1.0 if card == dearest else 0.0,
                1.0 if card == WIZARD else 0.0,
                1.0 if card == JESTER else 0.0,
                1.0 if suit_card and SUIT_OF[card] == trump else 0.0,
                rank / 14,
                place[card],
                1.0 if spoiling and chance == 0 else 0.0,
                len(ranks) / size,
                1.0 if ranks and rank == max(ranks) else 0.0,
                1.0 if ranks and rank == min(ranks) else 0.0,
                others_want if chance > 0 else 0.0,
            )
        )
    return cards, rows


def choice_odds(row: Sequence[float], features: Sequence[Sequence[float]]) -> list[float]:
    """The chance of each choice whose features are ``features``, under one row of weights."""
    scores = [sum(map(operator.mul, row, card)) for card in features]
    top = max(scores)
    weights = [math.exp(score - top) for score in scores]
    total = sum(weights)
    return [w / total for w in weights]


def card_odds(t: WizardTable, weights: Sequence[Sequence[float]] = WEIGHTS) -> tuple[list[int], list[float]]:
    """The cards that play differently and the fitted chance of each being played."""
    cards, rows = card_features(t)
    return cards, choice_odds(weights[situation(t)], rows)


class FittedRolloutPlayer(WizardRolloutPlayer):
    """The medium player's bids and trump choice, and cards drawn by the fitted odds
    (``card_odds``), from a view or, in a fast play-out, from the tracked table alike."""

    def choose(self, view: Any, rng: random.Random) -> Action:
        if view.phase == Phase.PLAY and len(view.legal_actions) > 1:
            return play(self._card(WizardTable.from_view(view), rng))
        return super().choose(view, rng)

    def _card(self, table: WizardTable, rng: random.Random) -> int:
        cards, odds = card_odds(table)
        return rng.choices(cards, odds)[0]
