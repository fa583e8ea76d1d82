"""The hard computer players: determinized search with the medium players as rollout."""

from __future__ import annotations

# Which candidates are weighed, per decision:
#
# * Wizard prediction: the bids within two of the medium player's bid that the
#   rules allow (the uneven-bids rule is in the legal actions); the rest of the
#   table then bids and plays as the medium player would, each from its own
#   view, so the hard player's bid reaches them only where the bidding mode
#   shows it. Bids still face down for this seat (hidden and delayed bidding)
#   are guessed as the medium player would have bid the sampled hand, not
#   uniformly, since the rollout players aim at them.
# * Wizard trump choice and card play: every legal action.
# * Wizard worlds: the unseen cards are drawn so that each seat's hand fits
#   the bid it showed (``wizard_worlds``): a seat that bid high most
#   likely holds Wizards and high trumps, which a uniform draw ignores. In
#   play, of a few such draws the one is kept that best explains the cards
#   the others chose this round, as the medium player would have chosen them.
# * Bid Whist bidding: pass (when allowed), the medium player's choice, the
#   lowest bid of each mode, one book above the medium bid and, for a dealer
#   under ``dealer_takes``, taking the high bid in each mode; the kitty is
#   unseen and sampled like any other hidden card, so a bid is judged by how
#   the hand actually plays out after it.
# * Bid Whist trump or direction: every legal choice.
# * Bid Whist discards: whole sets of the cards still to lay aside (the medium
#   plan, the lowest cards, and each short side suit voided), never all
#   18-choose-6 (without jokers 16-choose-4) sets; the player then lays aside the first card of the best
#   set, and the next discard decision searches again from the new view.
# * Bid Whist card play: every legal card.
#
# A single legal action is returned at once. When the view describes no deal
# (only a hand-built view can), the player falls back on the medium player.
# The players keep nothing between decisions: the same view, the same seeded
# RNG and a budget whose time cap does not bind give the same action.

import random
import time
from typing import Any
from collections.abc import Callable, Sequence

from game.ai import Decision
from game.ai.budget import DEFAULT_BUDGET, Clock, SearchBudget
from game.ai.bidwhist_medium import BidWhistMediumPlayer, lowest_bids, plan_discards
from game.ai.hand_eval import EFFECTIVE, JOKERS, power_table, rules_of
from game.ai.search_pimc import RACE_Z, DrawHidden, RolloutPolicy, SearchResult, search
from game.ai.wizard_medium import ALL_SUIT_CARDS, card_mask, distinct_cards
from game.ai.wizard_rollout import WizardRolloutPlayer
from game.ai.wizard_worlds import PLAY_FIT_TRIES, PlayFitter, draw_wizard_hands, others_have_played
from game.rules.actions import PASS, Action, ActionKind, bid, discard, play
from game.rules.cards import NO_SUIT
from game.rules.core import Phase
from game.rules.hidden import HiddenInfoError
from game.rules.registry import game_of
from game.rules.view import BidWhistView, PlayerView, WizardView

__all__ = ["BidWhistHardPlayer", "HardDecision", "WizardHardPlayer"]

BID_SPREAD = 2  # Wizard: bids this far either side of the medium bid are weighed
# Wizard: how much the others' mean round score counts against the seat's own
# in a simulation's score (0: only its own). Measured against three medium
# players on the same 12 x 4 games (720 rounds, 200 simulations a decision):
# 0 hit 71.8% of bids and led them by +11.0 points a round, 0.5 hit 75.9% and
# led by +14.0, 1 hit 73.6% and led by +12.7.
SPOIL_WEIGHT = 0.5
MAX_DISCARD_SETS = 6


# A hard player's action and, when it searched, what the search found.
HardDecision = Decision


def _apply_action(state: Any, action: Action) -> None:
    state.apply_in_place(action, None, check=False)


class _HardPlayer:
    """What both hard players share: the budget, the clock, the fallback."""

    view_type: type[PlayerView]
    # Standard errors of paired gain a candidate needs to replace the medium
    # choice; 0: any candidate whose paired gain over it is positive (over
    # at least a few worlds) does. The medium players err often enough that
    # waiting for clear evidence cost more than noise did (measured: see
    # docs/BENCHMARKS.md).
    deviation_z: float = 0.0
    # Standard errors behind the leader that drop a candidate from the race (``search_pimc``).
    race_z: float = RACE_Z

    def __init__(self, budget: SearchBudget | None = None, clock: Clock = time.perf_counter) -> None:
        self.budget = budget if budget is not None else DEFAULT_BUDGET
        self.clock = clock

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        return self.decide(view, rng).action

    def decide(self, view: PlayerView, rng: random.Random) -> HardDecision:
        legal = view.legal_actions
        if not legal:
            raise ValueError(f"seat {view.seat} has nothing to decide in phase {view.phase.label}")
        if len(legal) == 1:
            return HardDecision(legal[0], None)
        self._check_view(view)
        policy = self.rollout_policy()
        preferred = policy.choose(view, rng)
        try:
            result = self._search(view, rng, policy, preferred)
        except HiddenInfoError:
            return HardDecision(preferred, None)
        if result is None:
            return HardDecision(preferred, None)
        action = self._action_of(view, result.best)
        return HardDecision(action if action in legal else preferred, result)

    def _run(
        self,
        view: PlayerView,
        rng: random.Random,
        policy: RolloutPolicy,
        candidates: Sequence[Any],
        preferred: Any,
        apply: Callable[[Any, Any], None] = _apply_action,
        draw_hidden: DrawHidden | None = None,
    ) -> SearchResult[Any]:
        return search(
            view,
            candidates,
            apply,
            policy,
            rng,
            self.budget,
            self.clock,
            preferred=preferred,
            draw_hidden=draw_hidden,
            measure=self._measure(view),
            value=self._value(view),
            deviation_z=self._deviation_z(view),
            race_z=self.race_z,
        )

    def _deviation_z(self, view: Any) -> float:
        """Standard errors of paired gain a candidate needs, for this decision, to replace the medium choice."""
        return self.deviation_z

    def _check_view(self, view: PlayerView) -> None:
        if not isinstance(view, self.view_type):
            raise TypeError(
                f"{type(self).__name__} plays from a {self.view_type.__name__}, not a {type(view).__name__}"
            )

    # ------------------------------------------------------------ game hooks

    def rollout_policy(self) -> RolloutPolicy:
        raise NotImplementedError

    def _search(
        self, view: Any, rng: random.Random, policy: RolloutPolicy, preferred: Action
    ) -> SearchResult[Any] | None:
        raise NotImplementedError

    def _action_of(self, view: Any, candidate: Any) -> Action:
        action: Action = candidate  # a candidate is an action, except for discard sets
        return action

    def _measure(self, view: Any) -> Callable[[Any], float]:
        raise NotImplementedError

    def _value(self, view: Any) -> Callable[[Any], float] | None:
        """How a simulated hand's end is scored for this seat (None: its own
        ``hand_returns``)."""
        return None


# ``WizardHardPlayer`` and ``BidWhistHardPlayer`` decide by simulation (see
# ``search_pimc``): for each decision they draw deals of the unseen cards
# consistent with their own view, try each candidate action in every deal, play
# the hand out with the medium players for all four seats (the hard player's
# own later moves included) and keep the candidate that scores best: in
# Wizard the seat's round score less half the others' mean (so that a trick
# that no longer matters to its own bid goes to spoiling theirs), in Bid Whist its team's margin over the other
# team for the hand (only the bidding team scores, so the team's own change
# alone would leave a defender indifferent to setting the contract). The search
# leaves the medium player's choice only when a candidate beats it clearly
# (see ``search_pimc``). Rollouts use the medium players' decisions
# unchanged. In Bid Whist they read a view for each simulated move
# (``state.rollout_view``); in Wizard the rollout player keeps what each seat
# has seen up to date card by card instead (``wizard_rollout``), so a round
# plays out in about 0.3 ms at round 5 and 1.1 ms at round 15. Drawing a
# world that explains the cards played costs about as much again, so card play
# mostly ends on the default budget's 0.3 s rather than its 400 simulations
# (see ``budget`` and ``wizard_worlds``).
# ---------------------------------------------------------------------- Wizard
class WizardHardPlayer(_HardPlayer):
    """Wizard by simulation: bids by the expected score of each bid, plays by
    the expected round score of each card."""

    view_type = WizardView

    def __init__(
        self,
        budget: SearchBudget | None = None,
        clock: Clock = time.perf_counter,
        *,
        spoil_weight: float = SPOIL_WEIGHT,
        play_deviation_z: float | None = None,
        play_fit_tries: int = PLAY_FIT_TRIES,
    ) -> None:
        """``spoil_weight``: see ``_value``. ``play_deviation_z``: the deviation threshold for card
        play alone (default: the same as for bids and the trump choice). ``play_fit_tries``: in
        play, how many bid-fitted worlds are drawn per world to find one that explains the cards the
        others played (1: none, see ``wizard_worlds.PlayFitter``). They are there so
        that ``benchmarks.wizard_paired`` can measure other values."""
        super().__init__(budget, clock)
        self.play_fit_tries = play_fit_tries
        self.spoil_weight = spoil_weight
        self.play_deviation_z = self.deviation_z if play_deviation_z is None else play_deviation_z

    def rollout_policy(self) -> RolloutPolicy:
        return WizardRolloutPlayer()

    def _deviation_z(self, view: Any) -> float:
        return self.play_deviation_z if view.phase == Phase.PLAY else self.deviation_z

    def _measure(self, view: Any) -> Callable[[Any], float]:
        seat = view.seat
        return lambda state: float(state.tricks_won[seat])

    def _value(self, view: Any) -> Callable[[Any], float]:
        """The seat's round score less ``spoil_weight`` (``SPOIL_WEIGHT``) times the others' mean
        round score. Its own score comes first, but where a card no longer
        changes it (its bid made or lost) the search still prefers the card
        that costs another seat its bid, which the own score alone leaves to
        chance."""
        seat: int = view.seat
        others: int = view.num_players - 1
        weight = self.spoil_weight

        def relative(state: Any) -> float:
            returns: Sequence[int] = state.hand_returns()
            return float(returns[seat]) - weight * (sum(returns) - returns[seat]) / others

        return relative

    def _search(
        self, view: WizardView, rng: random.Random, policy: RolloutPolicy, preferred: Action
    ) -> SearchResult[Any] | None:
        draw: DrawHidden = draw_wizard_hands
        if view.phase == Phase.PLAY and self.play_fit_tries > 1 and others_have_played(view):
            draw = PlayFitter(view, self.play_fit_tries).draw
        return self._search_with(view, rng, policy, preferred, draw)

    def _search_with(
        self, view: WizardView, rng: random.Random, policy: RolloutPolicy, preferred: Action, draw: DrawHidden
    ) -> SearchResult[Any] | None:
        """The search of this decision's candidates, in worlds drawn by ``draw``."""
        legal = view.legal_actions
        if view.phase == Phase.PREDICT:
            candidates = [a for a in legal if abs(a.value - preferred.value) <= BID_SPREAD]
        elif view.phase == Phase.PLAY:
            candidates = [play(card) for card in distinct_plays(view, preferred.value)]
        elif view.phase == Phase.TRUMP_CHOICE:
            candidates = list(legal)
        else:
            return None
        return self._run(view, rng, policy, candidates, preferred, draw_hidden=draw)


def distinct_plays(view: WizardView, preferred: int) -> list[int]:
    """One legal card for each group of cards that play alike (``wizard_medium.distinct_cards``):
    cards of one suit with no unseen card ranked between them (the 9 and 10 of hearts when nobody
    else can hold a heart between them) beat and lose to exactly the same cards, now and in every
    later trick, so simulating each would only split the budget."""
    seen = [*view.hand, *view.played_cards()]
    if view.turn_up >= 0:
        seen.append(view.turn_up)
    legal = [a.value for a in view.legal_actions]
    return distinct_cards(legal, ALL_SUIT_CARDS & ~card_mask(seen), preferred)


# ---------------------------------------------------------------------- Bid Whist
class BidWhistHardPlayer(_HardPlayer):
    """Bid Whist by simulation: bids, contract, discards and cards are each
    judged by the team's score of the hand played out after them."""

    view_type = BidWhistView

    def rollout_policy(self) -> RolloutPolicy:
        return BidWhistMediumPlayer()

    def discard_plans(self, view: BidWhistView) -> list[tuple[int, ...]]:
        """The sets of cards it would consider laying aside, the medium plan
        first (the hints name the whole set when no search chose one)."""
        return discard_sets(view)

    def _measure(self, view: Any) -> Callable[[Any], float]:
        team = game_of(view).team_of(view.seat)
        return lambda state: float(state.hand_books(False)[team])

    def _value(self, view: Any) -> Callable[[Any], float]:
        """The team's margin: its change minus the other team's. Only the
        bidding team scores, so a defender's own change is nought whether it
        sets the contract or lets it make; the margin tells the two apart."""
        seat, opponent = view.seat, opponent_seat(view)

        def margin(state: Any) -> float:
            returns = state.hand_returns()
            return float(returns[seat] - returns[opponent])

        return margin

    def _search(
        self, view: BidWhistView, rng: random.Random, policy: RolloutPolicy, preferred: Action
    ) -> SearchResult[Any] | None:
        return self._search_with(view, rng, policy, preferred, None)

    def _search_with(
        self,
        view: BidWhistView,
        rng: random.Random,
        policy: RolloutPolicy,
        preferred: Action,
        draw: DrawHidden | None,
    ) -> SearchResult[Any] | None:
        """The search of this decision's candidates, in worlds drawn by ``draw`` (None: uniform)."""
        phase = view.phase
        if phase == Phase.BID:
            return self._run(view, rng, policy, bid_candidates(view, preferred), preferred, draw_hidden=draw)
        if phase in (Phase.CONTRACT, Phase.PLAY):
            return self._run(view, rng, policy, list(view.legal_actions), preferred, draw_hidden=draw)
        if phase == Phase.DISCARD:
            sets = discard_sets(view)
            preferred_set = next((s for s in sets if s[0] == preferred.value), sets[0])
            return self._run(view, rng, policy, sets, preferred_set, apply=_apply_discards, draw_hidden=draw)
        return None

    def _action_of(self, view: Any, candidate: Any) -> Action:
        # An Action is a tuple too: test for it first.
        if isinstance(candidate, Action):
            return candidate
        return discard(candidate[0])  # a discard set: lay aside its first card now


def opponent_seat(view: BidWhistView) -> int:
    """A seat of the other team than ``view``'s seat (as the rules pair them)."""
    game = game_of(view)
    return next(s for s in range(view.num_players) if not game.partners(s, view.seat))


def bid_candidates(view: BidWhistView, preferred: Action) -> list[Action]:
    """The bids worth simulating: pass, the medium bid, one book above it,
    the lowest bid of each mode, and every take the dealer may make."""
    legal = view.legal_actions
    lowest = lowest_bids(legal)
    candidates = [preferred]
    if PASS in legal:
        candidates.append(PASS)
    candidates.extend(bid(lowest[mode], mode) for mode in sorted(lowest))
    if preferred.kind == ActionKind.BID:
        candidates.append(bid(preferred.value + 1, preferred.mode))
    candidates.extend(a for a in legal if a.kind == ActionKind.TAKE)
    return [a for a in dict.fromkeys(candidates) if a in legal]


def discard_sets(view: BidWhistView) -> list[tuple[int, ...]]:
    """A few sensible sets of the cards still to lay aside, the medium plan first."""
    count = view.kitty_size - view.discard_count
    hand = list(view.hand)
    trump, direction = view.trump, max(view.direction, 0)
    rules = rules_of(view)
    eff, power = EFFECTIVE[trump], power_table(direction, rules)
    gone = frozenset(view.discards)

    def lowest(cards: Sequence[int], number: int) -> list[int]:
        return sorted(cards, key=lambda c: (power[c], c))[:number]

    def is_keeper(card: int) -> bool:
        # Trumps (jokers included) in a trump contract are kept.
        return trump != NO_SUIT and eff[card] == trump

    throwable = [c for c in hand if not is_keeper(c)]
    jokers = [c for c in hand if c in JOKERS] if trump == NO_SUIT else []
    sets: list[tuple[int, ...]] = [tuple(plan_discards(hand, count, trump, direction, gone, rules))]
    # The lowest cards that are not trumps (in no trump: the jokers first).
    plain = jokers + lowest([c for c in throwable if c not in jokers], count)
    sets.append(tuple(plain[:count]))
    # Each short side suit voided, topped up with the lowest other cards.
    for suit in range(4):
        if suit == trump:
            continue
        in_suit = [c for c in hand if eff[c] == suit]
        if not in_suit or len(in_suit) > count:
            continue
        rest = [c for c in throwable if eff[c] != suit and c not in jokers]
        chosen = in_suit + jokers[: count - len(in_suit)]
        chosen += lowest(rest, count - len(chosen))
        sets.append(tuple(chosen))
    unique: list[tuple[int, ...]] = []
    seen: set[frozenset[int]] = set()
    for cards in sets:
        key = frozenset(cards)
        if len(cards) == count and len(key) == count and key not in seen:
            seen.add(key)
            unique.append(cards)
    if not unique:  # a hand of nearly all trumps: the medium plan alone
        unique.append(sets[0])
    return unique[:MAX_DISCARD_SETS]


def _apply_discards(state: Any, cards: tuple[int, ...]) -> None:
    for card in cards:
        state.apply_in_place(discard(card), None, check=False)
