"""Full game states built from one seat's view, for search-based players."""

from __future__ import annotations

# A search player decides from its own view, yet to look ahead it must play
# hands out, and that needs a *full* state: every hand, the kitty, the
# declarer's discards, the bids still face down. This module gives it one, in
# two steps:
#
# ``sample_hidden(view, rng)``
#     one guess (a ``HiddenCards``) of everything the seat cannot see,
#     uniformly random among the guesses consistent with the view;
# ``state_from_view(view, hidden, rng_or_seed)``
#     checks a guess against the view and builds the full state it describes:
#     the same deal number, dealer and scores, this hand replayed action by
#     action, and deals after this hand drawn from ``rng_or_seed``, never from
#     the real game's seed, so looking past the hand reveals nothing.
#
# Example, a determinized search over 200 guesses::
#
#     from random import Random
#     from game.rules.search import HiddenSampler, state_from_view
#
#     view = state.view(seat)                 # all the player may know
#     rng = Random(7)
#     sampler = HiddenSampler(view)           # reused: cheaper than sample_hidden each time
#     for _ in range(200):
#         guess = sampler.sample(rng)
#         world = state_from_view(view, guess, rng)
#         for action in world.legal_actions():
#             trial = world.clone()
#             trial.apply_in_place(action, None, check=False)
#             ...                             # play ``trial`` out and score it
#
# Consistent with the view means: every other seat holds as many cards as the
# view shows, no card is placed twice or placed where the seat has seen it (its
# own hand, the cards played, the turn-up, a kitty or discards it knows), every
# card belongs to the game's deck, no seat holds a card of a suit it has shown
# it lacks (``view.voids``), a kitty taken into a hidden hand came out of that
# hand (it is in the hand, among the discards or among the cards that seat
# played), and hidden bids are bids the rules allow. ``check_hidden`` refuses
# anything else with a ``HiddenInfoError`` that names the problem.
#
# How the sampling stays uniform. Dealing the unseen cards at random and
# throwing away deals that break a void would be exact but, late in a hand with
# several voids, could need thousands of tries. Instead the sampler counts.
# Only seats with a void matter (every other place takes any card), and only
# cards of a suit someone lacks; cards are grouped into classes by which of
# those seats may not hold them. For the constrained seats in turn it counts,
# by dynamic programming over the cards of each class still unplaced, in how
# many ways the rest can be completed; it then chooses how many cards of each
# class each constrained seat gets with probability proportional to the number
# of full assignments with those numbers, and which cards at random within the
# classes. Every other place is filled by shuffling what remains and cutting
# it. Each full assignment is therefore equally likely (the test
# ``test_sampling_is_uniform`` checks this against an enumeration). Copies of
# one card (Wizard's four Wizards and four Jesters) count as distinct cards, so
# a hand is as likely as it is under a real shuffle. A kitty taken into a
# hidden hand is as many cards as the kitty holds (``HiddenLayout.kitty_size``)
# chosen at random from that seat's cards of the hand (held, discarded or
# played), and a hidden bid is drawn uniformly from the
# bids the rules allow.

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from math import comb
from random import Random  # a private generator class; the global RNG is never used
from typing import Any, cast

from game.rules.engine import GameState, new_game
from game.rules.errors import DealError
from game.rules.hidden import HiddenCards, HiddenInfoError, HiddenInfoModel, HiddenLayout
from game.rules.house_rules import Rules
from game.rules.registry import game_of
from game.rules.view import PlayerView

__all__ = ["HiddenCards", "HiddenInfoError", "HiddenSampler", "check_hidden", "sample_hidden", "state_from_view"]


def check_hidden(view: PlayerView, hidden: HiddenCards) -> None:
    """Raise ``HiddenInfoError`` unless ``hidden`` is consistent with ``view``."""
    _Reading(view).check(hidden)


def state_from_view(view: PlayerView, hidden: HiddenCards, rng_or_seed: Random | int) -> GameState:
    """The full state that ``view`` plus the assignment ``hidden`` describe.

    ``hidden`` is checked first (``HiddenInfoError`` if it does not fit the
    view). The state is at the same point of the same deal as the view, with
    the same scores; its later deals come from ``rng_or_seed`` (a seed, or a
    ``Random`` that one is drawn from). Every seat's view of it equals the
    real game's when ``hidden`` is the truth.
    """
    reading = _Reading(view)
    reading.check(hidden)
    layout = reading.layout
    seed = _future_seed(rng_or_seed)
    hands_now = reading.hands_now(hidden)
    kitty = layout.kitty or tuple(hidden.kitty)
    discards = layout.discards or tuple(hidden.discards)
    dealt: list[list[int]] = []
    for seat in range(view.num_players):
        cards = list(hands_now[seat]) + reading.played_by[seat]
        if seat == layout.kitty_taker:  # it holds the kitty now and laid the discards aside
            cards += discards
            for card in kitty:
                cards.remove(card)
        dealt.append(cards)
    deal = reading.model.fixed_deal(view, dealt, kitty)
    try:
        state, _ = new_game(
            cast(Rules, view.rules),
            view.num_players,
            seed,
            first_dealer=view.dealer,
            start_deal=view.deal_number,
            start_scores=view.start_scores,
            fixed_deals={view.deal_number: deal},
        )
    except (DealError, ValueError) as exc:
        raise HiddenInfoError(f"the view does not describe a deal of its game: {exc}", "view") from None
    reading.model.restore_record(state, view)
    for seat, action in reading.model.hand_actions(view, hidden):
        if state.current != seat:
            raise HiddenInfoError(f"the view's actions do not replay: seat {seat} acts out of turn", "view")
        state.apply_in_place(action, None, check=False)
    for seat, held in enumerate(hands_now):
        state.hands[seat] = list(held)  # the order the view and the assignment give
    return state


def sample_hidden(view: PlayerView, rng: Random) -> HiddenCards:
    """One assignment of what ``view``'s seat cannot see, uniformly random
    among those consistent with the view (see the module docstring).

    A search that samples many times from one view should keep a
    ``HiddenSampler(view)`` instead: it does the counting once."""
    return HiddenSampler(view).sample(rng)


class HiddenSampler:
    """Uniform sampling of the assignments consistent with one view.

    Building it reads the view and counts the ways the unseen cards can lie;
    each ``sample(rng)`` then costs a few shuffles and one walk down the
    counts.
    """

    def __init__(self, view: PlayerView) -> None:
        reading = _Reading(view)
        self._reading = reading
        layout = reading.layout
        pool = list((reading.deck - reading.seen).elements())
        if sum(reading.seen.values()) != sum(reading.deck.values()) - len(pool):
            raise HiddenInfoError("the view shows more cards than its game's deck holds", "view")
        # The places the pool fills: the hidden hands, then a kitty lying
        # apart, the hidden discards and the cards never dealt (Wizard).
        self._hand_seats = reading.hidden_seats
        self._sizes = [view.hand_sizes[seat] for seat in self._hand_seats]
        self._kitty_apart = layout.kitty_size if layout.kitty_hidden and layout.kitty_taker < 0 else 0
        self._undealt = len(pool) - sum(self._sizes) - self._kitty_apart - layout.hidden_discards
        if self._undealt < 0:
            raise HiddenInfoError("the view's hands, kitty and discards hold more cards than are unseen", "view")
        model, trump = reading.model, view.trump
        suit_of = {card: model.card_suit(card, trump) for card in set(pool)}
        # Only seats that lack a suit of which some card is unseen constrain
        # the deal; they are served in turn, one step each.
        unseen_suits = set(suit_of.values())
        self._constrained = [index for index, seat in enumerate(self._hand_seats) if view.voids[seat] & unseen_suits]
        steps = len(self._constrained)
        barred_by = {
            card: frozenset(
                step
                for step, index in enumerate(self._constrained)
                if suit_of[card] in view.voids[self._hand_seats[index]]
            )
            for card in suit_of
        }
        # At step i a card matters only through which of the seats still to be
        # served (i and later) may not hold it: cards alike in that are one
        # group, and groups merge as the seats that told them apart are served.
        self._groups: list[list[frozenset[int]]] = []
        for step in range(steps + 1):
            later = frozenset(range(step, steps))
            self._groups.append(sorted({barred & later for barred in barred_by.values()} | {frozenset()}, key=sorted))
        self._merge_into = [
            [self._groups[step + 1].index(pattern - {step}) for pattern in self._groups[step]] for step in range(steps)
        ]
        self._takes_from = [
            [g for g, pattern in enumerate(self._groups[step]) if step not in pattern] for step in range(steps)
        ]
        self._start_cards: list[list[int]] = [[] for _ in self._groups[0]]
        first = {pattern: g for g, pattern in enumerate(self._groups[0])}
        for card in pool:
            self._start_cards[first[barred_by[card]]].append(card)
        self._ways: dict[tuple[int, tuple[int, ...]], int] = {}
        if self._completions(0, tuple(len(cards) for cards in self._start_cards)) == 0:
            raise HiddenInfoError("no deal of the unseen cards fits the voids the view shows", "void_suit")

    # ------------------------------------------------------------ counting
    def _completions(self, step: int, counts: tuple[int, ...]) -> int:
        """In how many ways the constrained seats from ``step`` on can take
        their cards from groups holding ``counts`` cards (the places that take
        any card are filled last, in a number of ways that does not depend on
        the choices counted here)."""
        if step == len(self._constrained):
            return 1
        key = (step, counts)
        known = self._ways.get(key)
        if known is None:
            known = sum(weight for weight, _, _ in self._choices(step, counts))
            self._ways[key] = known
        return known

    def _choices(self, step: int, counts: tuple[int, ...]) -> Iterator[tuple[int, tuple[int, ...], tuple[int, ...]]]:
        """Each way for the seat of ``step`` to take its hand from the groups
        it may hold: ``(number of full completions, cards taken per group,
        counts of the next step's groups)``."""
        takes_from = self._takes_from[step]
        merge_into = self._merge_into[step]
        size = self._sizes[self._constrained[step]]
        next_groups = len(self._groups[step + 1])
        for taken in _splits([counts[g] for g in takes_from], size):
            weight = 1
            left = list(counts)
            for g, number in zip(takes_from, taken):
                weight *= comb(counts[g], number)
                left[g] -= number
            merged = [0] * next_groups
            for g, number in enumerate(left):
                merged[merge_into[g]] += number
            weight *= self._completions(step + 1, tuple(merged))
            if weight:
                yield weight, taken, tuple(merged)

    def count(self) -> int:
        """How many assignments of cards fit the view (hidden bids aside).

        Copies of a card count as distinct cards, as in ``sample``."""
        reading = self._reading
        layout = reading.layout
        ways = self._completions(0, tuple(len(cards) for cards in self._start_cards))
        # The places that take any card: the unconstrained hands, a kitty
        # apart, the hidden discards and the undealt rest.
        open_sizes = [size for index, size in enumerate(self._sizes) if index not in self._constrained]
        open_sizes += [self._kitty_apart, layout.hidden_discards, self._undealt]
        remaining = sum(open_sizes)
        for size in open_sizes:
            ways *= comb(remaining, size)
            remaining -= size
        if layout.kitty_hidden and layout.kitty_taker >= 0:
            held = (
                reading.view.hand_sizes[layout.kitty_taker]
                + layout.hidden_discards
                + len(reading.played_by[layout.kitty_taker])
            )
            ways *= comb(held, layout.kitty_size)
        return ways

    # ------------------------------------------------------------ sampling
    def sample(self, rng: Random) -> HiddenCards:
        """One assignment, every consistent one equally likely."""
        reading = self._reading
        layout = reading.layout
        hands: list[list[int]] = [[] for _ in self._hand_seats]
        groups = [cards[:] for cards in self._start_cards]
        for step, index in enumerate(self._constrained):
            counts = tuple(len(cards) for cards in groups)
            # How many cards of each group this seat takes, in proportion to
            # the number of full assignments that choice leaves...
            pick = rng.randrange(self._completions(step, counts))
            for weight, taken, _ in self._choices(step, counts):  # noqa: B007  (the choice is read after the loop)
                if pick < weight:
                    break
                pick -= weight
            # ...and which ones, uniformly within each group.
            hand = hands[index]
            for g, number in zip(self._takes_from[step], taken):
                if number:
                    cards = groups[g]
                    _draw_to_end(cards, number, rng)
                    hand.extend(cards[len(cards) - number :])
                    del cards[len(cards) - number :]
            merged: list[list[int]] = [[] for _ in self._groups[step + 1]]
            for g, cards in enumerate(groups):
                merged[self._merge_into[step][g]].extend(cards)
            groups = merged
        rest = [card for cards in groups for card in cards]
        # Only the cards the places below take need drawing: the undealt rest stays as it lies.
        _draw_to_end(rest, len(rest) - self._undealt, rng)
        for index, size in enumerate(self._sizes):
            if index not in self._constrained:
                hands[index] = rest[len(rest) - size :]
                del rest[len(rest) - size :]
        kitty = [rest.pop() for _ in range(self._kitty_apart)]
        discards = [rest.pop() for _ in range(layout.hidden_discards)]
        by_seat = {seat: tuple(hand) for seat, hand in zip(self._hand_seats, hands)}
        if layout.kitty_hidden and layout.kitty_taker >= 0:
            taker = layout.kitty_taker
            held = list(by_seat[taker]) + discards + reading.played_by[taker]
            kitty = rng.sample(held, layout.kitty_size)
        bids = {seat: rng.choice(layout.bid_choices) for seat in layout.hidden_bids}
        return HiddenCards(hands=by_seat, kitty=tuple(kitty), discards=tuple(discards), bids=bids)


def _draw_to_end(cards: list[int], number: int, rng: Random) -> None:
    """Move ``number`` cards of ``cards``, chosen uniformly at random and in
    random order, to its end: the last ``number`` steps of a Fisher-Yates
    shuffle. A sample takes only the cards that fill hands (in round 3 of
    Wizard at four, 9 of the 56 a seat has not seen), so shuffling the
    whole list would draw mostly for cards nobody is dealt.
    ``int(rng.random() * n)`` is the draw ``random.shuffle`` used to make:
    biased by under 2**-40 for these sizes, and much faster than
    ``randrange``."""
    size = len(cards)
    for last in range(size - 1, size - 1 - number, -1):
        other = int(rng.random() * (last + 1))
        cards[last], cards[other] = cards[other], cards[last]


# ---------------------------------------------------------------- reading a view
class _Reading:
    """What the search needs to know of one view, computed once."""

    def __init__(self, view: PlayerView) -> None:
        if not isinstance(view, PlayerView):
            raise TypeError(f"expected a PlayerView, not {type(view).__name__}")
        game = game_of(view)
        if game.hidden_info is None:
            raise HiddenInfoError(f"{game.name} does not describe its hidden information", "view")
        self.view = view
        self.model: HiddenInfoModel = game.hidden_info
        self.layout: HiddenLayout = self.model.layout(view)
        self.deck = Counter(game.deck_for(view.rules))  # a house rule may change the deck (no jokers)
        self.hidden_seats = [seat for seat in range(view.num_players) if seat != view.seat]
        self.played_by = view.cards_played_by_seat()
        self.seen = Counter(view.hand) + Counter(view.played_cards()) + Counter(self.layout.seen)

    def hands_now(self, hidden: HiddenCards) -> list[tuple[int, ...]]:
        return [
            tuple(self.view.hand) if seat == self.view.seat else tuple(hidden.hands[seat])
            for seat in range(self.view.num_players)
        ]

    def check(self, hidden: HiddenCards) -> None:
        view, layout = self.view, self.layout
        if not isinstance(hidden, HiddenCards):
            raise HiddenInfoError(f"expected HiddenCards, not {type(hidden).__name__}", "hands")
        hands = hidden.hands
        if not isinstance(hands, Mapping) or set(hands) != set(self.hidden_seats):
            given = list(hands) if isinstance(hands, Mapping) else hands
            raise HiddenInfoError(
                f"hands must be given for exactly the seats {self.hidden_seats} "
                f"that seat {view.seat} cannot see, not {given!r}",
                "hands",
            )
        for seat in self.hidden_seats:
            cards = self._cards(hands[seat], f"seat {seat}'s hand")
            if len(cards) != view.hand_sizes[seat]:
                raise HiddenInfoError(f"seat {seat} holds {view.hand_sizes[seat]} cards, not {len(cards)}", "hand_size")
        kitty = self._cards(hidden.kitty, "the kitty")
        if not layout.kitty_hidden:
            if kitty:
                raise HiddenInfoError(
                    f"seat {view.seat} has seen the kitty (or the game has none): it must not be guessed", "kitty_known"
                )
        elif len(kitty) != layout.kitty_size:
            raise HiddenInfoError(f"the kitty is {layout.kitty_size} cards, not {len(kitty)}", "kitty_size")
        discards = self._cards(hidden.discards, "the discards")
        if layout.hidden_discards == 0:
            if discards:
                raise HiddenInfoError(f"seat {view.seat} has no unseen discards to guess", "discards_known")
        elif len(discards) != layout.hidden_discards:
            raise HiddenInfoError(
                f"{layout.hidden_discards} cards were discarded, not {len(discards)}", "discards_size"
            )
        placed = Counter(discards)
        for seat in self.hidden_seats:
            placed.update(hands[seat])
        if layout.kitty_hidden and layout.kitty_taker < 0:
            placed.update(kitty)
        for card, times in placed.items():
            if self.seen[card] + times > self.deck[card]:
                if self.seen[card] >= self.deck[card]:
                    raise HiddenInfoError(
                        f"card {card} is not unseen: seat {view.seat} sees it "
                        "(its hand, a card played, the turn-up or a known discard)",
                        "seen_card",
                    )
                raise HiddenInfoError(
                    f"card {card} is placed {times} times; only {self.deck[card] - self.seen[card]} is unseen",
                    "duplicate_card",
                )
        if layout.kitty_hidden and layout.kitty_taker >= 0:
            taker = layout.kitty_taker
            held = Counter(hands[taker]) + Counter(discards) + Counter(self.played_by[taker])
            if Counter(kitty) - held:
                raise HiddenInfoError(
                    f"seat {taker} took the kitty: its cards must be in that seat's "
                    "hand, among the discards or among the cards it played",
                    "kitty_not_held",
                )
        for seat in self.hidden_seats:
            for card in hands[seat]:
                suit = self.model.card_suit(card, view.trump)
                if suit >= 0 and suit in view.voids[seat]:
                    raise HiddenInfoError(
                        f"seat {seat} has shown it holds no card of suit {suit}, but is given card {card}", "void_suit"
                    )
        bids = hidden.bids
        if not isinstance(bids, Mapping) or set(bids) != set(layout.hidden_bids):
            given = list(bids) if isinstance(bids, Mapping) else bids
            raise HiddenInfoError(
                f"bids must be given for exactly the seats {list(layout.hidden_bids)} "
                f"whose bids seat {view.seat} has not seen, not {given!r}",
                "bids",
            )
        for seat, value in bids.items():
            if type(value) is not int or value not in layout.bid_choices:
                raise HiddenInfoError(
                    f"seat {seat} cannot have bid {value!r}: a bid is from "
                    f"{layout.bid_choices.start} to {layout.bid_choices.stop - 1}",
                    "bid_value",
                )

    def _cards(self, cards: object, what: str) -> tuple[int, ...]:
        if not isinstance(cards, (tuple, list)):
            raise HiddenInfoError(f"{what} must be a tuple of cards, not {cards!r}", "not_a_card")
        for card in cards:
            if type(card) is not int or card not in self.deck:
                raise HiddenInfoError(f"{what}: {card!r} is not a card of this game's deck", "not_a_card")
        return tuple(cards)


def _splits(limits: Sequence[int], total: int) -> Iterator[tuple[int, ...]]:
    """Every tuple ``t`` with ``0 <= t[j] <= limits[j]`` and ``sum(t) == total``."""
    if len(limits) <= 1:
        if not limits:
            if total == 0:
                yield ()
        elif total <= limits[0]:
            yield (total,)
        return
    room_after = sum(limits[1:])
    for first in range(max(0, total - room_after), min(limits[0], total) + 1):
        for tail in _splits(limits[1:], total - first):
            yield (first,) + tail


def _future_seed(rng_or_seed: Any) -> int:
    if isinstance(rng_or_seed, Random):
        return rng_or_seed.getrandbits(62)
    if type(rng_or_seed) is int:
        return rng_or_seed
    raise TypeError(f"expected a Random or an int seed, not {type(rng_or_seed).__name__}")
