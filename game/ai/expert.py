"""The expert computer players: the hard players' search with better worlds, perfect endgames and
more time."""

from __future__ import annotations

# What Expert changes against Hard (which stays as it is: the tournament's
# fixed baseline, ``benchmarks.baseline``):
#
# * **The last tricks played out perfectly.** Once a decision has at most
#   ``solved_tricks`` tricks left, every simulated hand is played from there
#   by the exact endgame solver's best cards for the world
#   (``EndgamePlayOut``: in Bid Whist for each team, in Wizard for each
#   seat's own bid, paranoid), so a candidate is scored by what the cards can
#   really do, not by the medium players' slips. Earlier, the medium players
#   play the simulated hands out as in Hard: a solver at the end of every
#   play-out from the first trick on cost four to six times the simulations
#   (measured: Wizard 162 against 540 simulations in 0.9 s), more than perfect
#   last tricks were worth so far from them. The solver's work is capped per
#   play-out (``ENDGAME_NODES``), so a simulation stays short.
# * **Worlds read the table.** Wizard fits the hard player's bids and cards
#   played a seat at a time (``wizard_worlds.SeatFitter``): each seat's hand
#   is redrawn until it explains its own bid and cards, not whole worlds until
#   one explains them all, so worlds cost less and fit better. Bid Whist
#   draws its worlds with ``BiddingFit``: each other seat's bid or pass, the
#   declarer's trump and discards and the cards the others chose this hand (a
#   high card under a partner's winner, the suit returned) are explained as
#   the medium players, who bid and play for every seat of a simulation,
#   would have made them.
# * **Bids judged by the contract they lead to.** In Bid Whist every bid
#   within a book of the medium bid (below it too), the lowest bid of each
#   mode, pass and the dealer's takes are simulated through the rest of the
#   bidding, the declarer's choice of trump, the kitty it would find in that
#   world and its discards, and the hand's play: a bid is worth the team's
#   margin of the contract it leads to. A bid replaces the medium bid only
#   on clear evidence (``BID_DEVIATION_Z`` standard errors of paired gain):
#   picking the best of many noisy bids is how the hard player came to
#   overbid at five books.
# * **One card for each group of cards that play alike.** Two Bid Whist
#   cards of one suit (jokers with the trumps) with no unseen card ranked
#   between them win and lose to the same cards in every trick, so only one
#   of them is simulated (the medium player's card, when it is one of them),
#   as the hard Wizard player already does; the time goes to more worlds.
# * **Playing for the game, not the hand.** In Bid Whist a simulated hand is scored by the chance
#   its team then wins the game, read from the two scores after it (``bidwhist_odds``), not by the
#   hand's margin: near the target a made contract is worth the game whatever its overtricks, and
#   the other team's contract is worth fighting for at any price. Targets above
#   ``bidwhist_odds.LARGEST_TARGET`` keep the margin.
# * **More time**: up to ``budget.EXPERT_BUDGET``'s 0.9 s a decision, still limited
#   by the settings' thinking time when one is given.

import random
import time
from collections.abc import Callable
from typing import Any

from game.ai.bidwhist_odds import chance_to_win, game_odds
from game.ai.bidwhist_worlds import BiddingFit
from game.ai.budget import EXPERT_BUDGET, Clock, SearchBudget
from game.ai.endgame_playout import EndgamePlayOut
from game.ai.hand_eval import EFFECTIVE, power_table, rules_of
from game.ai.hard import BidWhistHardPlayer, WizardHardPlayer, bid_candidates, opponent_seat
from game.ai.search_pimc import DrawHidden, RolloutPolicy, SearchResult
from game.ai.wizard_clairvoyant import ClairvoyantRolloutPlayer
from game.ai.wizard_fitted import FittedRolloutPlayer
from game.ai.wizard_rollout import UnsureRolloutPlayer
from game.ai.wizard_worlds import SeatFitter
from game.rules.actions import Action, ActionKind, bid, play
from game.rules.cards import NO_SUIT
from game.rules.core import Phase
from game.rules.registry import game_of
from game.rules.view import BidWhistView, PlayerView, WizardView

__all__ = ["BidWhistExpertPlayer", "WizardExpertPlayer"]

# Tricks left from which a decision's play-outs are solved (each player's ``solved_tricks``): one
# Bid Whist solver (the teams' game is zero-sum) values 4 tricks in about 2.3 ms; Wizard needs a
# paranoid solver per seat, about 2.4 ms each from 3 tricks and 14 ms from 4.
WIZARD_SOLVED_TRICKS = 3
BIDWHIST_SOLVED_TRICKS = 4
ENDGAME_NODES = 20_000  # per solver and play-out: the rare hard endgame falls back on the medium players
BID_DEVIATION_Z = 1.0
# Tries per seat of a fitted Bid Whist world, judged seat by seat (``BiddingFit``'s ``by_seat``): 3.6 ms
# a world, where 16 whole-world redraws cost 6.9 ms for the same gain in true places; also fitting the
# card play (``play_tries``) cost 22 ms, for fewer simulations than it was worth in a second.
FIT_TRIES = 16


class WizardExpertPlayer(WizardHardPlayer):
    """Wizard by simulation, the simulated rounds of its last tricks played out perfectly."""

    solved_tricks = WIZARD_SOLVED_TRICKS
    # Whether, in the solved tricks, a seat plays the medium player's card whenever its solver finds
    # it one of the best (``EndgamePlayOut``'s ``policy_ties``) rather than the solver's first best
    # card. Off: over 620 endings it measured +0.39 points an ending (95% interval -1.1 to +1.9) over
    # the solver's order at 7% more time a simulation (``benchmarks.wizard_endings``, docs/BENCHMARKS.md).
    policy_ties = False
    # The share of their choices of card in which the other seats of a play-out play a random legal card
    # instead of the medium player's (``UnsureRolloutPlayer``; 0: never, the medium players as in Hard).
    # Off: at 0.3 it measured +3.24 points a round over the baseline on 8 sets where the expert as it is
    # measured +3.06 (docs/BENCHMARKS.md, session 27).
    unsure_others = 0.0
    # Whether every seat of a play-out plays its cards as fitted to the hard player's choices
    # (``wizard_fitted.FittedRolloutPlayer``) rather than as the medium player (then ``unsure_others``
    # is not read). Off: it measured +2.88 points a round over the baseline on 8 sets where the expert
    # as it is measured +3.06, at a third fewer simulations (docs/BENCHMARKS.md, session 28).
    fitted_play_outs = False
    # Whether every seat of a play-out steers to its bid by the drawn world's hands
    # (``wizard_clairvoyant.ClairvoyantRolloutPlayer``) where the medium player would not. Off: it
    # measured -3.01 points a round over the baseline on 8 sets where the expert as it is measured
    # +3.06, its own bids hit 60.0% against 66.9% (docs/BENCHMARKS.md, session 29).
    clairvoyant_play_outs = False

    def __init__(self, budget: SearchBudget | None = None, clock: Clock = time.perf_counter) -> None:
        super().__init__(budget if budget is not None else EXPERT_BUDGET, clock)

    def _search(
        self, view: WizardView, rng: random.Random, policy: RolloutPolicy, preferred: Action
    ) -> SearchResult[Any] | None:
        if self.clairvoyant_play_outs:
            policy = ClairvoyantRolloutPlayer()
        elif self.fitted_play_outs:
            policy = FittedRolloutPlayer()
        elif self.unsure_others > 0:
            policy = UnsureRolloutPlayer(view.seat, self.unsure_others)
        policy = endgame_policy(view, policy, self.solved_tricks, policy_ties=self.policy_ties)
        return self._search_with(view, rng, policy, preferred, self._world_drawer(view))

    def _world_drawer(self, view: WizardView) -> DrawHidden:
        """How this decision's worlds are drawn: fitted seat by seat to the bids and cards seen."""
        return SeatFitter(view).draw


class BidWhistExpertPlayer(BidWhistHardPlayer):
    """Bid Whist by simulation in worlds that fit the bidding and the play, each simulated hand
    ending with perfect play, and bids judged by the contract they lead to."""

    solved_tricks = BIDWHIST_SOLVED_TRICKS

    def __init__(self, budget: SearchBudget | None = None, clock: Clock = time.perf_counter) -> None:
        super().__init__(budget if budget is not None else EXPERT_BUDGET, clock)

    def _deviation_z(self, view: Any) -> float:
        return BID_DEVIATION_Z if view.phase == Phase.BID else self.deviation_z

    def _value(self, view: Any) -> Callable[[Any], float]:
        """The chance the seat's team wins the game from the scores the hand ends on (1 or 0 when
        it ended the game); the hand's margin under a target too long to tabulate."""
        rules = view.rules
        target = rules.target_score
        odds = game_odds(target, rules.notrump_multiplier, rules.boston)
        if odds is None:
            return super()._value(view)
        seat, opponent = view.seat, opponent_seat(view)
        team = game_of(view).team_of(seat)

        def win_chance(state: Any) -> float:
            if state.winner_team >= 0:
                return 1.0 if state.winner_team == team else 0.0
            scores = state.returns()
            return chance_to_win(odds, target, scores[seat], scores[opponent])

        return win_chance

    def _search(
        self, view: BidWhistView, rng: random.Random, policy: RolloutPolicy, preferred: Action
    ) -> SearchResult[Any] | None:
        draw = self._world_drawer(view)
        policy = endgame_policy(view, policy, self.solved_tricks)
        if view.phase == Phase.BID:
            return self._run(view, rng, policy, expert_bid_candidates(view, preferred), preferred, draw_hidden=draw)
        if view.phase == Phase.PLAY:
            candidates = [play(card) for card in distinct_bidwhist_plays(view, preferred.value)]
            return self._run(view, rng, policy, candidates, preferred, draw_hidden=draw)
        return self._search_with(view, rng, policy, preferred, draw)

    def _world_drawer(self, view: BidWhistView) -> DrawHidden:
        """How this decision's worlds are drawn: fitted to the bidding and the play."""
        return BiddingFit(view, max_tries=FIT_TRIES, by_seat=True).draw


def endgame_policy(view: PlayerView, policy: RolloutPolicy, tricks: int, *, policy_ties: bool = False) -> RolloutPolicy:
    """``policy``, ending its play-outs with the solver from ``tricks`` tricks left when ``view``'s
    hand has no more cards than that (``policy_ties``: see ``EndgamePlayOut``)."""
    if view.phase == Phase.PLAY and len(view.hand) <= tricks:
        return EndgamePlayOut(policy, tricks, ENDGAME_NODES, policy_ties=policy_ties)
    return policy


def distinct_bidwhist_plays(view: BidWhistView, preferred: int) -> list[int]:
    """One legal card for each group of cards that play alike in Bid Whist: cards of one suit as the
    contract ranks them (jokers with the trumps) with no unseen card ranked between them. A group
    is stood for by ``preferred`` when it holds it (the medium player's card), else by its lowest
    card. Jokers in no trump, which follow no suit and never win, are one group."""
    rules = rules_of(view)
    eff, power = EFFECTIVE[view.trump], power_table(max(view.direction, 0), rules)
    unseen = set(game_of(view).deck_for(view.rules)).difference(
        view.hand, view.played_cards(), view.discards, view.kitty
    )
    legal = [a.value for a in view.legal_actions if a.kind == ActionKind.PLAY]
    by_suit: dict[int, list[int]] = {}
    for card in legal:
        by_suit.setdefault(eff[card], []).append(card)
    chosen: list[int] = []
    for suit, cards in by_suit.items():
        if suit == NO_SUIT:
            chosen.append(preferred if preferred in cards else cards[0])
            continue
        cards.sort(key=lambda c: power[c])
        group = [cards[0]]
        for card in cards[1:]:
            low, high = power[group[-1]], power[card]
            if any(eff[other] == suit and low < power[other] < high for other in unseen):
                chosen.append(preferred if preferred in group else group[0])
                group = []
            group.append(card)
        chosen.append(preferred if preferred in group else group[0])
    return [card for card in legal if card in chosen]


def expert_bid_candidates(view: BidWhistView, preferred: Action) -> list[Action]:
    """The hard player's bids (pass, the medium bid and one book above it, the lowest bid of each
    mode, the dealer's takes) and one book below the medium bid."""
    candidates = bid_candidates(view, preferred)
    if preferred.kind == ActionKind.BID:
        lower = bid(preferred.value - 1, preferred.mode)
        if lower in view.legal_actions and lower not in candidates:
            candidates.append(lower)
    return candidates
