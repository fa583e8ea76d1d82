"""Bid Whist worlds that fit the table: hidden hands the medium player would have bid, laid aside
and played as the table did.

``BiddingFit(view).draw`` is a ``DrawHidden`` for ``search_pimc``; it reads the view and its own draws only.
"""

from __future__ import annotations

# The uniform draws of ``HiddenSampler`` already keep the hard constraints
# (hand sizes, the voids shown, the kitty and discards the declarer knows),
# but they ignore what the bidding said: a seat that passed is dealt aces as
# often as one that bid seven no trump. Here each drawn world is judged by
# how well it explains the bidding, as the medium player bids (the level
# every computer player bids from): for each other seat's bid or pass, the
# medium bidder is asked what it would have bid holding that seat's drawn
# hand as dealt, at that point of the bidding; and the declarer's trump or
# direction is compared with the one the medium player would have named.
# A world's *misfit* counts the books between the bid it would have made and
# the bid made (a pass counts as one below the lowest bid then allowed), one
# more for a bid in another mode, and one for another trump or direction.
#
# The world is then kept with probability exp(-STRICTNESS x misfit)
# (rejection sampling: the kept worlds follow the uniform distribution
# weighted by that likelihood, so a world that explains everything is always
# kept, and one that misses by a book still now and then, since people bid
# unlike the medium player). After ``MAX_TRIES`` draws the best so far is
# returned, so a draw always ends in bounded time.
#
# The declarer's discards, when this seat has not seen them, are read the
# same way: of the eighteen cards the drawn world gives the declarer (held,
# laid aside or played), the ones laid aside are those the medium player
# would have thrown, as long as that agrees with the cards it has played
# since and the voids it has shown (``read_discards``); else the drawn ones
# stay.
#
# Asked for (``play_tries`` above one), a draw also reads the card play, as
# ``wizard_worlds`` does: of that many bid-fitted worlds it keeps the first in
# which the medium player, dealt the drawn hands, would have played every card
# the other seats chose this hand (a high card under its partner's winner, the
# suit it returned...), else the one that misses fewest. The real hands of
# medium players explain every bid, trump and card.
#
# The bidding is replayed once per view through the rules on a stand-in
# deal, to learn what each bidder could bid (its legal actions) and saw; the
# drawn hand then replaces the stand-in hand in that bidder's view.
#
# Seat by seat (``by_seat``, what the expert player asks for): a world's
# misfit is a sum over the seats, each term read from that seat's hand
# alone, so rather than redraw the whole world whenever any seat misses,
# the seats are judged in turn: the first seat's hand is kept with
# probability exp(-STRICTNESS x its misfit), else a fresh world is drawn;
# once kept, it stays, and the cards the seats not yet kept hold are dealt
# again among them (uniformly among the deals that respect their voids)
# until the next seat's hand is kept, and so on. A refused try then costs
# one medium bid of one hand (0.23 ms) instead of a whole world's, which
# halved a fitted world's cost for the same gain in true places (see
# docs/BENCHMARKS.md, "Bid Whist worlds fitted to the bidding"). It is
# not exactly the rejection sampler's distribution: a seat's hand is kept
# without asking how well the hands left for the later seats could fit
# theirs, which matters only where two seats compete for the same high cards.

import dataclasses
import math
import random
from collections.abc import Sequence
from typing import cast

from game.ai import bidwhist_play
from game.ai.bidwhist_medium import choose_bid, choose_contract, lowest_bids, plan_discards
from game.ai.hand_eval import rules_of
from game.rules.actions import Action, ActionKind
from game.rules.bidwhist import HAND_SIZE
from game.rules.core import Phase
from game.rules.engine import new_game
from game.rules.hidden import HiddenCards, HiddenLayout
from game.rules.house_rules import Rules
from game.rules.registry import game_of
from game.rules.search import HiddenSampler
from game.rules.view import BidWhistView, PlayerView

__all__ = ["MAX_TRIES", "PLAY_TRIES", "STRICTNESS", "BiddingFit"]

STRICTNESS = 1.5  # likelihood falls by e^-1.5 (to 22%) for each book a world's bids miss by
MAX_TRIES = 40  # uniform draws tried per world before the best so far is returned
PLAY_TRIES = 3  # bid-fitted worlds tried per world, when asked, for one that explains the cards played
MODE_MISS = 1.0  # misfit of a bid in another mode (uptown, downtown, no trump) than the one made
CONTRACT_MISS = 1.0  # misfit of a declarer who would have named another trump or direction
TIE_SEED = 0  # the medium bidder breaks exact ties with an RNG: a fixed one, so a hand's bid is one answer
REDEAL_TRIES = 64  # shuffles of the cards left to the seats not yet kept, for one that respects their voids


@dataclasses.dataclass(frozen=True)
class _Decision:
    """One decision of the bidding another seat made: its view then (with a stand-in hand) and what it chose."""

    seat: int
    view: BidWhistView
    action: Action


class BiddingFit:
    """Draws the worlds of one Bid Whist view weighted by how well they explain the bidding, with the
    declarer's unseen discards read (``read_declarer_discards``) and, when ``play_tries`` is above
    one, the best of that many at explaining the cards played (see the module comment).

    One instance serves every world of one decision: the bidding is replayed once, when it is made."""

    def __init__(
        self,
        view: BidWhistView,
        strictness: float = STRICTNESS,
        max_tries: int = MAX_TRIES,
        read_declarer_discards: bool = True,
        play_tries: int = 1,
        by_seat: bool = False,
    ) -> None:
        if not isinstance(view, BidWhistView):
            raise TypeError(f"a BiddingFit reads a BidWhistView, not {type(view).__name__}")
        self.view = view
        self.strictness = strictness
        self.max_tries = max(1, max_tries)
        self.read_declarer_discards = read_declarer_discards
        model = game_of(view).hidden_info
        if model is None:
            raise TypeError(f"{view.game} does not describe its hidden information")
        self.model = model
        self.layout: HiddenLayout = model.layout(view)
        self.play_tries = play_tries
        self.others_played = any(
            action is not None and action.kind == ActionKind.PLAY and seat != view.seat for seat, action in view.actions
        )
        self.suit_of = model.card_suit
        self.played = view.cards_played_by_seat()
        self.bids, self.contract = _replay_bidding(view)
        self.by_seat = by_seat
        # The seats whose hands the bidding speaks of, in the order they first bid.
        self.judged_seats = list(dict.fromkeys(decision.seat for decision in self.bids))
        if self.contract is not None and self.contract.seat not in self.judged_seats:
            self.judged_seats.append(self.contract.seat)

    # ------------------------------------------------------------ drawing
    def draw(self, view: PlayerView, sampler: HiddenSampler, rng: random.Random) -> HiddenCards:
        """A ``DrawHidden`` for the search: one world's hidden cards (see the module comment)."""
        if view is not self.view:
            raise ValueError("a BiddingFit draws worlds for the view it was made for only")
        if self.play_tries <= 1 or not self.others_played:
            return self._draw_bid_fitted(sampler, rng)
        best = self._draw_bid_fitted(sampler, rng)
        best_miss = self.play_misfit(best)
        for _ in range(1, self.play_tries):
            if best_miss == 0:
                break
            hidden = self._draw_bid_fitted(sampler, rng)
            miss = self.play_misfit(hidden, stop_at=best_miss)
            if miss < best_miss:
                best, best_miss = hidden, miss
        return best

    def _draw_bid_fitted(self, sampler: HiddenSampler, rng: random.Random) -> HiddenCards:
        """One world fitted to the bidding by rejection, its discards read."""
        if self.by_seat:
            return self.read_discards(self._draw_seat_by_seat(sampler, rng))
        best: HiddenCards | None = None
        best_miss = math.inf
        for _ in range(self.max_tries):
            hidden = sampler.sample(rng)
            # Accept with probability exp(-k * misfit): draw the threshold first, so that the
            # misfit need only be counted up to the point where the world is refused.
            threshold = -math.log(1.0 - rng.random()) / self.strictness if self.strictness > 0 else math.inf
            miss = self.misfit(hidden, stop_above=max(threshold, best_miss))
            if miss <= threshold:
                return self.read_discards(hidden)
            if miss < best_miss:
                best, best_miss = hidden, miss
        assert best is not None  # max_tries >= 1 and every refused world's misfit is finite
        return self.read_discards(best)

    def _draw_seat_by_seat(self, sampler: HiddenSampler, rng: random.Random) -> HiddenCards:
        """One world fitted to the bidding one seat at a time (see the module comment): each judged
        seat gets ``max_tries`` tries, after which its best hand so far is kept."""
        hidden = sampler.sample(rng)
        kept: set[int] = set()
        for seat in self.judged_seats:
            best, best_miss = hidden, math.inf
            for attempt in range(self.max_tries):
                if attempt:
                    redealt = self._redeal(hidden, kept, rng)
                    if redealt is None:  # the voids leave few deals: keep the best hand found
                        break
                    hidden = redealt
                threshold = -math.log(1.0 - rng.random()) / self.strictness if self.strictness > 0 else math.inf
                miss = self.seat_misfit(hidden, seat, stop_above=max(threshold, best_miss))
                if miss <= threshold:
                    best = hidden
                    break
                if miss < best_miss:
                    best, best_miss = hidden, miss
            hidden = best
            kept.add(seat)
        return hidden

    def _redeal(self, hidden: HiddenCards, kept: set[int], rng: random.Random) -> HiddenCards | None:
        """``hidden`` with the cards of every place but the ``kept`` seats' dealt again among those
        places, uniformly among the deals that respect the voids shown (None when ``REDEAL_TRIES``
        shuffles found none). The declarer's hidden discards go with its hand, and a kitty it took
        unseen is drawn again from its cards as the sampler draws it."""
        view, layout = self.view, self.layout
        taker = layout.kitty_taker
        kitty_with_taker = layout.kitty_hidden and taker >= 0
        seats = [seat for seat in hidden.hands if seat not in kept]
        redeal_discards = bool(hidden.discards) and taker not in kept
        redeal_kitty = layout.kitty_hidden and taker < 0
        pool = [card for seat in seats for card in hidden.hands[seat]]
        if redeal_discards:
            pool += hidden.discards
        if redeal_kitty:
            pool += hidden.kitty
        trump, voids, suit_of = view.trump, view.voids, self.suit_of
        for _ in range(REDEAL_TRIES):
            rng.shuffle(pool)
            hands = dict(hidden.hands)
            start = 0
            fits = True
            for seat in seats:
                hand = tuple(pool[start : start + view.hand_sizes[seat]])
                start += len(hand)
                barred = voids[seat]
                if barred and any(suit_of(card, trump) in barred for card in hand):
                    fits = False
                    break
                hands[seat] = hand
            if not fits:
                continue
            discards = tuple(pool[start : start + len(hidden.discards)]) if redeal_discards else hidden.discards
            start += len(discards) if redeal_discards else 0
            kitty = tuple(pool[start:]) if redeal_kitty else hidden.kitty
            if kitty_with_taker and taker in seats:
                kitty = tuple(rng.sample([*hands[taker], *discards, *self.played[taker]], layout.kitty_size))
            return HiddenCards(hands=hands, kitty=kitty, discards=discards, bids=hidden.bids)
        return None

    def play_misfit(self, hidden: HiddenCards, stop_at: float = math.inf) -> int:
        """How many of the cards the other seats chose this hand (from more than one legal card) the
        medium player would not have played, had the seats been dealt the hands ``hidden`` gives
        them: the hand is dealt so and replayed through the rules. Counting stops at ``stop_at``."""
        view, layout = self.view, self.layout
        hands = [
            self._own_dealt_hand() if seat == view.seat else self.dealt_hand(hidden, seat)
            for seat in range(view.num_players)
        ]
        kitty = list(layout.kitty or hidden.kitty)
        state, _ = new_game(
            cast(Rules, view.rules),
            view.num_players,
            0,
            first_dealer=view.dealer,
            start_deal=view.deal_number,
            start_scores=view.start_scores,
            fixed_deals={view.deal_number: (hands, kitty)},
        )
        misses = 0
        for seat, action in self.model.hand_actions(view, hidden):
            if action.kind == ActionKind.PLAY and seat != view.seat and len(state.legal_actions()) > 1:
                seen = state.view(seat)
                assert isinstance(seen, BidWhistView)
                if bidwhist_play.choose_card(seen, random.Random(TIE_SEED)) != action:
                    misses += 1
                    if misses >= stop_at:
                        return misses
            state.apply_in_place(action, None, check=False)
        return misses

    def _own_dealt_hand(self) -> list[int]:
        """This seat's own hand as dealt: held plus played, and as declarer its discards in, the kitty out."""
        cards = [*self.view.hand, *self.played[self.view.seat]]
        if self.view.seat == self.view.declarer and self.layout.kitty:
            cards += self.layout.discards
            for card in self.layout.kitty:
                cards.remove(card)
        return cards

    def read_discards(self, hidden: HiddenCards) -> HiddenCards:
        """``hidden`` with the declarer's unseen discards replaced by those the medium player would have
        laid aside from the same cards, when they agree with the cards it played and its voids."""
        view, layout = self.view, self.layout
        declarer = layout.kitty_taker
        if not self.read_declarer_discards or declarer < 0 or not hidden.discards:
            return hidden
        played = self.played[declarer]
        hand = [*hidden.hands[declarer], *hidden.discards, *played]
        laid: list[int] = []
        for _ in hidden.discards:
            plan = plan_discards(
                hand, layout.kitty_size - len(laid), view.trump, view.direction, frozenset(laid), rules_of(view)
            )
            laid.append(plan[0])
            hand.remove(plan[0])
        if any(card in played for card in laid):
            return hidden  # the medium player would have laid aside a card this declarer played since
        for card in played:
            hand.remove(card)
        if any(self.suit_of(card, view.trump) in view.voids[declarer] for card in hand):
            return hidden  # it would hold a suit it has shown it lacks
        hands = {**hidden.hands, declarer: tuple(hand)}
        return HiddenCards(hands=hands, kitty=hidden.kitty, discards=tuple(laid), bids=hidden.bids)

    # ------------------------------------------------------------ judging
    def dealt_hand(self, hidden: HiddenCards, seat: int) -> list[int]:
        """``seat``'s twelve cards as dealt in the world ``hidden``: held now plus played, and for a
        declarer who took the kitty (unseen by this view) its discards in, the kitty out."""
        cards = list(hidden.hands[seat]) + self.played[seat]
        if seat == self.layout.kitty_taker and self.layout.kitty_hidden:
            cards += hidden.discards if not self.layout.discards else self.layout.discards
            for card in hidden.kitty:
                cards.remove(card)
        return cards

    def misfit(self, hidden: HiddenCards, stop_above: float = math.inf) -> float:
        """How badly the world ``hidden`` explains the other seats' bids and the declarer's contract
        (0: the medium player, holding these hands, would have bid and named exactly what the table
        did). Counting stops once it passes ``stop_above``."""
        dealt: dict[int, list[int]] = {}
        miss = 0.0
        for decision in self.bids:
            hand = dealt.setdefault(decision.seat, self.dealt_hand(hidden, decision.seat))
            would = choose_bid(_with_hand(decision.view, hand), random.Random(TIE_SEED))
            miss += bid_distance(would, decision.action, decision.view.legal_actions)
            if miss > stop_above:
                return miss
        if self.contract is not None:
            seat = self.contract.seat
            hand = dealt.setdefault(seat, self.dealt_hand(hidden, seat))
            if choose_contract(_with_hand(self.contract.view, hand)) != self.contract.action:
                miss += CONTRACT_MISS
        return miss

    def seat_misfit(self, hidden: HiddenCards, seat: int, stop_above: float = math.inf) -> float:
        """The part of ``misfit`` that ``seat``'s own hand answers for: its bids and, as the declarer,
        its contract. Counting stops once it passes ``stop_above``."""
        hand = self.dealt_hand(hidden, seat)
        miss = 0.0
        for decision in self.bids:
            if decision.seat == seat:
                would = choose_bid(_with_hand(decision.view, hand), random.Random(TIE_SEED))
                miss += bid_distance(would, decision.action, decision.view.legal_actions)
                if miss > stop_above:
                    return miss
        if self.contract is not None and self.contract.seat == seat:
            if choose_contract(_with_hand(self.contract.view, hand)) != self.contract.action:
                miss += CONTRACT_MISS
        return miss

    def seat_misfits(self, hidden: HiddenCards) -> dict[int, float]:
        """Per other seat that bid, the misfit of its own bids (and contract) alone: for measuring."""
        return {seat: self.seat_misfit(hidden, seat) for seat in dict.fromkeys(d.seat for d in self.bids)}


def bid_distance(would: Action, made: Action, legal: Sequence[Action]) -> float:
    """Books between the bid a hand would have made and the one made (a pass counts as one book
    below the lowest bid then allowed), plus ``MODE_MISS`` for two bids in different modes."""
    if would == made:
        return 0.0
    lowest = lowest_bids(legal)
    floor = min(lowest.values()) - 1 if lowest else 0

    def level(action: Action) -> int:
        return action.value if action.kind in (ActionKind.BID, ActionKind.TAKE) else floor

    distance = float(abs(level(would) - level(made)))
    if would.kind != ActionKind.PASS and made.kind != ActionKind.PASS and would.mode != made.mode:
        distance += MODE_MISS
    return distance


def _with_hand(view: BidWhistView, hand: Sequence[int]) -> BidWhistView:
    # ``from_fields`` rather than ``dataclasses.replace``: a tenth of a world's cost went to the latter.
    return type(view).from_fields(**{**view.__dict__, "hand": tuple(hand)})


def _replay_bidding(view: BidWhistView) -> tuple[list[_Decision], _Decision | None]:
    """The other seats' bidding decisions and the declarer's contract choice (when the declarer is
    another seat), each with the view its seat had then. The bidding is replayed through the rules on
    a stand-in deal (bids and legal actions do not depend on the cards); only the hand is replaced."""
    rules = view.rules
    deck = list(game_of(view).deck_for(rules))
    hands = [deck[seat * HAND_SIZE : (seat + 1) * HAND_SIZE] for seat in range(view.num_players)]
    kitty = deck[view.num_players * HAND_SIZE :][: view.kitty_size]
    state, _ = new_game(
        cast(Rules, rules),
        view.num_players,
        0,
        first_dealer=view.dealer,
        start_deal=view.deal_number,
        start_scores=view.start_scores,
        fixed_deals={view.deal_number: (hands, kitty)},
    )
    bids: list[_Decision] = []
    contract: _Decision | None = None
    for seat, action in view.actions:
        if state.phase not in (Phase.BID, Phase.CONTRACT) or action is None:
            break
        if seat != view.seat:
            seen = state.view(seat)
            assert isinstance(seen, BidWhistView)
            decision = _Decision(seat, seen, action)
            if state.phase == Phase.BID:
                bids.append(decision)
            else:
                contract = decision
        state.apply_in_place(action, None, check=False)
    return bids, contract
