"""An exact solver for the rest of a hand in one world (every hand known): alpha-beta with a
transposition table. Bid Whist: the serving team's books against the other team's; Wizard:
the serving seat's round score against a coalition of all others (a "paranoid" search)."""

from __future__ import annotations

# What is searched. From a PLAY-phase state with every hand known, every seat plays
# perfectly to the end of the hand:
#
# * Bid Whist is two-sided and zero-sum: the value is the books the serving seat's team
#   takes from here to the hand's end (the trick in progress included; the books already
#   taken and the kitty's book are fixed and left out). The serving team maximises it, the
#   other team minimises it, the side to move and the teams asked of the rules.
# * Wizard is not zero-sum: each seat plays for its own bid. Exact multi-player search
#   has two standard forms, max^n (each seat maximises its own score; weak pruning and
#   ties decided arbitrarily) and the "paranoid" search (the serving seat against a
#   coalition of all the others, who minimise its score: a two-sided alpha-beta again,
#   used by the multi-player card and board programs where pruning matters). We use the
#   paranoid search: its value is what the seat is sure to score whatever the others do,
#   with the rules' own round score (``wizard.score_for``: 20 + 10 a trick for the bid
#   made, -10 a trick off). A seat whose bid is lost anyway still prefers losing less.
#
# How it stays fast (the techniques of the double-dummy bridge solvers):
#
# * a transposition table at every trick's start, keyed by the cards left in each hand
#   (one bit a card; Wizard's alike Wizards and Jesters counted), the seat on lead and,
#   in Wizard, the serving seat's tricks so far (its score is not additive), never by
#   the history; it keeps a lower and an upper bound and the best card found;
# * move ordering: the table's best card first; then on lead the strongest cards; when the
#   mover's own side holds the trick the weakest; when the other side does, in Bid Whist
#   the cheapest card that takes the trick over and then the weakest, in Wizard the
#   strongest (each measured the better for its game, docs/BENCHMARKS.md);
# * equivalent cards merged ("sequence" reduction): two cards of one suit in one hand with
#   no live card of that suit between them (in another hand or on the trick) win and lose
#   against exactly the same cards now and later, so only one is searched. The suit a
#   card follows as and its rank are the rules' (``card_suit``, ``rank_power``,
#   ``card_strength``); Wizard's Wizards and Jesters are never merged with anything (the
#   rules already list alike ones once);
# * quick bounds: the value cannot leave what the tricks left allow.
#
# The legal cards and each trick's winner are asked of the rules on a private copy of the
# state (``legal_cards``, ``trick_winner_index``); the solver only moves cards between the
# hands and the trick of that copy and undoes the moves. It reads the hands, the trick, the
# seat to move, the contract and the bids of the state it is given, nothing else. There is
# no clock: a caller bounds the work with ``max_nodes`` (``NodeLimitReached``).

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from game.rules import bidwhist, wizard
from game.rules.actions import Action, ActionKind, play
from game.rules.cards import JESTER, NO_SUIT, WIZARD
from game.rules.core import Phase
from game.rules.registry import game_of

__all__ = [
    "EndgameSolver",
    "NodeLimitReached",
    "NotInPlayError",
    "Solution",
    "UnsupportedPositionError",
    "action_values",
    "solve",
    "tricks_left",
]

_GONE = -1  # where a card played to an earlier trick is (or one never dealt)
_ON_TRICK = -2  # where a card of the trick in progress is
_INFINITY = 1_000_000


class NotInPlayError(ValueError):
    """The solver was given a position outside the PLAY phase."""


class UnsupportedPositionError(ValueError):
    """A position the solver cannot value exactly (another game, a seat not at the table,
    house rules under which a renege is a legal move)."""


class NodeLimitReached(Exception):
    """The search visited more positions than the caller's ``max_nodes`` allowed."""


@dataclass(frozen=True)
class Solution:
    """What perfect play from a position is worth to the serving seat.

    ``value``: Bid Whist, the books the serving team takes from here to the hand's end;
    Wizard, the serving seat's round score under the paranoid search. ``best_actions``:
    every card the seat to move may play that keeps that value (for the serving side,
    the cards that reach it; for the other side, the cards that hold the serving seat to
    it), in the order the rules list them. ``nodes``: positions searched."""

    value: int
    best_actions: tuple[Action, ...]
    nodes: int


def tricks_left(state: Any) -> int:
    """How many tricks of the hand are not finished (the one in progress included)."""
    return max(len(hand) for hand in state.hands)


def solve(state: Any, seat: int, *, max_nodes: int | None = None) -> Solution:
    """The exact value of ``state`` for ``seat`` and the best cards of the seat to move."""
    return EndgameSolver(state, seat, max_nodes=max_nodes).solve()


def action_values(state: Any, seat: int, *, max_nodes: int | None = None) -> dict[Action, int]:
    """The exact value for ``seat`` of each legal card of the seat to move."""
    return EndgameSolver(state, seat, max_nodes=max_nodes).action_values()


class EndgameSolver:
    """A search of one position for one serving seat. Its table is kept between calls, so
    asking ``value`` and then ``action_values`` (or solving a later position of the same
    hand after ``advance``) reuses what was found."""

    def __init__(self, state: Any, seat: int, *, max_nodes: int | None = None) -> None:
        if getattr(state, "phase", None) != Phase.PLAY:
            phase = getattr(state, "phase", None)
            label = phase.label if isinstance(phase, Phase) else repr(phase)
            raise NotInPlayError(f"the endgame solver values a hand in play (phase play), not phase {label}")
        game_name = getattr(state, "game", None)
        if game_name not in _GAMES:
            raise UnsupportedPositionError(f"the endgame solver knows Bid Whist and Wizard, not {game_name!r}")
        players = state.num_players
        if type(seat) is not int or not 0 <= seat < players:
            raise UnsupportedPositionError(f"no seat {seat!r} at a table of {players}")
        if max_nodes is not None and max_nodes < 1:
            raise ValueError(f"max_nodes must be at least 1, not {max_nodes}")
        self.seat = seat
        self.max_nodes = max_nodes
        self.nodes = 0
        self._board = state.copy()  # private: the solver's moves never touch the caller's state
        self._board.fixed_deals = {}
        self._knowledge = _GAMES[game_name](self._board, seat)
        definition = game_of(state)
        self._mine = tuple(definition.partners(other, seat) for other in range(players))
        self._players = players
        self._key_bit = self._knowledge.key_bit
        self._counts_tricks = not self._knowledge.additive  # Wizard: the seat's tricks so far
        self._table: dict[tuple[int, ...], tuple[int, int, int]] = {}
        self._masks = [0] * players
        self._where = [_GONE] * 56
        delta = self._knowledge.key_bit
        for holder, hand in enumerate(self._board.hands):
            for card in hand:
                self._masks[holder] += delta[card]
                self._where[card] = holder
        for card in self._board.trick:
            self._where[card] = _ON_TRICK

    # ------------------------------------------------------------ answers
    def value(self) -> int:
        """The exact value of the position for the serving seat."""
        return self._exact()

    def action_values(self) -> dict[Action, int]:
        """Each legal card of the seat to move and its exact value for the serving seat."""
        board = self._board
        legal = board.legal_cards()
        values: dict[int, int] = {}
        mover = board.current
        for card in self._distinct(legal, mover):
            values[card] = self._value_after(card)
        for card in legal:
            if card not in values:
                values[card] = values[self._representative(card, mover, legal)]
        return {play(card): values[card] for card in legal}

    def solve(self) -> Solution:
        """The value and every best card of the seat to move."""
        values = self.action_values()
        if self._mine[self._board.current]:
            target = max(values.values())
        else:
            target = min(values.values())
        best = tuple(action for action, value in values.items() if value == target)
        return Solution(target, best, self.nodes)

    def best_action(self) -> Action:
        """One best card of the seat to move, cheaper than ``solve``: the value first, then
        the moves in search order until one is shown to keep it (a null-window search each)."""
        board = self._board
        legal = board.legal_cards()
        if len(legal) == 1:
            return play(legal[0])
        target = self._exact()
        maximising = self._mine[board.current]
        best_first = -1
        if not board.trick:
            entry = self._table.get((*self._masks, board.current, self._knowledge.key_extra()))
            best_first = entry[2] if entry is not None else -1
        for card in self._ordered(legal, board.current, best_first):
            finished = self._make(card)
            try:
                gain = self._gain(finished)
                if maximising:
                    keeps = gain + self._search(target - 1 - gain, target - gain) >= target
                else:
                    keeps = gain + self._search(target - gain, target + 1 - gain) <= target
            finally:
                self._unmake(card, finished)
            if keeps:
                return play(card)
        raise AssertionError("no move keeps the position's value")  # the value is exact: unreachable

    def advance(self, action: Action) -> None:
        """Play ``action``, a legal card of the seat to move, on the solver's own board, so
        that the next answer is for the position after it; what the table holds stays true."""
        legal = self._board.legal_cards() if any(self._board.hands) else []
        if action.kind != ActionKind.PLAY or action.value not in legal:
            raise ValueError(f"{action!r} is not a card the seat to move may play")
        self._make(action.value)

    # ------------------------------------------------------------ search
    def _value_after(self, card: int) -> int:
        finished = self._make(card)
        try:
            child = self._exact()
        finally:
            self._unmake(card, finished)
        return child + self._gain(finished)

    def _exact(self) -> int:
        """The value of the board's position, found as the double-dummy bridge solvers do:
        by a binary search over the values the tricks left allow, each step a null-window
        search ("does the serving side reach this much?") that shares the table."""
        values = self._knowledge.possible(max(len(hand) for hand in self._board.hands))
        low, high = 0, len(values) - 1
        while low < high:
            middle = (low + high + 1) // 2
            target = values[middle]
            if self._search(target - 1, target) >= target:
                low = middle
            else:
                high = middle - 1
        return values[low]

    def _gain(self, finished: tuple[int, list[int], list[int]] | None) -> int:
        """What a finished trick adds to the value (Bid Whist: a book to the serving team)."""
        if finished is None or not self._knowledge.additive:
            return 0
        return 1 if self._mine[finished[0]] else 0

    def _search(self, alpha: int, beta: int) -> int:
        """The value of the rest of the hand, exact when it lies strictly between ``alpha``
        and ``beta``; otherwise a bound on the side of the window it fell (fail-soft)."""
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise NodeLimitReached(f"more than {self.max_nodes} positions")
        board = self._board
        knowledge = self._knowledge
        mover = board.current
        hand = board.hands[mover]
        key: tuple[int, ...] | None = None
        best_first = -1
        if not board.trick:
            if len(hand) <= 1:
                return self._last_trick() if hand else knowledge.final_value()
            low, high = knowledge.bounds(len(hand))
            if low >= beta:
                return low
            if high <= alpha:
                return high
            key = (*self._masks, mover, knowledge.key_extra())
            entry = self._table.get(key)
            if entry is not None:
                low, high, best_first = entry
                if low >= beta:
                    return low
                if high <= alpha:
                    return high
                if low == high:
                    return low
            if low > alpha:
                alpha = low
            if high < beta:
                beta = high
        alpha_in, beta_in = alpha, beta
        maximising = self._mine[mover]
        best = -_INFINITY if maximising else _INFINITY
        best_card = -1
        legal = board.legal_cards()
        for card in self._ordered(legal, mover, best_first) if len(legal) > 1 else legal:
            finished = self._make(card)
            try:
                gain = self._gain(finished)
                value = gain + self._search(alpha - gain, beta - gain)
            finally:
                self._unmake(card, finished)
            if maximising:
                if value > best:
                    best, best_card = value, card
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            break
            elif value < best:
                best, best_card = value, card
                if value < beta:
                    beta = value
                    if alpha >= beta:
                        break
        if key is not None:
            self._store(key, best, best_card, alpha_in, beta_in)
        return best

    def _last_trick(self) -> int:
        """The value of a last trick led now: every card is forced."""
        board = self._board
        leader = board.current
        players = len(board.hands)
        board.trick = [board.hands[(leader + offset) % players][0] for offset in range(players)]
        board.trick_seats = [(leader + offset) % players for offset in range(players)]
        winner = board.trick_seats[board.trick_winner_index()]
        board.trick = []
        board.trick_seats = []
        knowledge = self._knowledge
        if knowledge.additive:
            return 1 if self._mine[winner] else 0
        knowledge.trick_won(winner, 1)
        value = knowledge.final_value()
        knowledge.trick_won(winner, -1)
        return value

    def _store(self, key: tuple[int, ...], value: int, card: int, alpha: int, beta: int) -> None:
        low, high, _ = self._table.get(key, (-_INFINITY, _INFINITY, -1))
        if value <= alpha:  # failed low: the true value is at most this
            high = min(high, value)
        elif value >= beta:  # failed high: at least this
            low = max(low, value)
        else:
            low = high = value
        self._table[key] = (low, high, card)

    # ------------------------------------------------------------ moves
    def _make(self, card: int) -> tuple[int, list[int], list[int]] | None:
        """Play ``card`` for the seat to move on the private board. Returns None, or for a
        trick it finished: (winner, its cards, its seats), which ``_unmake`` puts back."""
        board = self._board
        seat = board.current
        board.hands[seat].remove(card)
        self._masks[seat] -= self._key_bit[card]
        where = self._where
        where[card] = _ON_TRICK
        trick = board.trick
        trick.append(card)
        board.trick_seats.append(seat)
        if len(trick) < self._players:
            board.current = (seat + 1) % self._players
            return None
        winner = board.trick_seats[board.trick_winner_index()]
        finished = (winner, trick, board.trick_seats)
        for played in trick:
            where[played] = _GONE
        board.trick = []
        board.trick_seats = []
        board.current = winner
        if self._counts_tricks:
            self._knowledge.trick_won(winner, 1)
        return finished

    def _unmake(self, card: int, finished: tuple[int, list[int], list[int]] | None) -> None:
        board = self._board
        where = self._where
        if finished is not None:
            winner, board.trick, board.trick_seats = finished
            if self._counts_tricks:
                self._knowledge.trick_won(winner, -1)
            for played in board.trick:
                where[played] = _ON_TRICK
        board.trick.pop()
        seat = board.trick_seats.pop()
        board.hands[seat].append(card)
        self._masks[seat] += self._key_bit[card]
        where[card] = seat
        board.current = seat

    def _ordered(self, legal: list[int], mover: int, best_first: int) -> list[int]:
        cards = self._distinct(legal, mover)
        if len(cards) < 2:
            return cards
        strength = self._knowledge.strength
        board = self._board
        good = self._knowledge.good_winner
        trick = board.trick
        if not trick:
            # On lead: strongest first when the mover wants the trick for itself, else weakest.
            cards.sort(key=lambda c: strength[c], reverse=good(mover, mover))
        elif good(mover, board.trick_seats[board.trick_winner_index()]):
            cards.sort(key=lambda c: strength[c])  # the trick goes where the mover wants: cheapest first
        elif not self._knowledge.overtake_cheaply:
            cards.sort(key=lambda c: strength[c], reverse=True)
        else:
            # The cheapest card that takes the trick over first (the rules say which do), then
            # the cheapest of the rest.
            seats = board.trick_seats
            seats.append(mover)
            over = []
            for card in cards:
                trick.append(card)
                if board.trick_winner_index() == len(trick) - 1:
                    over.append(card)
                trick.pop()
            seats.pop()
            wanted = good(mover, mover)
            cards.sort(key=lambda c: ((c in over) != wanted, strength[c]))
        if best_first in cards:
            cards.remove(best_first)
            cards.insert(0, best_first)
        return cards

    def _distinct(self, legal: list[int], mover: int) -> list[int]:
        """One card of each group of equivalent legal cards: the highest of each run of the
        mover's cards of one suit with no live card of that suit between them."""
        group_of = self._knowledge.group
        if len({group_of[card] for card in legal}) == len(legal):
            return list(legal)  # one card a suit: nothing to merge
        chosen: list[int] = []
        done: set[int] = set()
        where = self._where
        for card in legal:
            group = group_of[card]
            if group == NO_SUIT_GROUP:
                chosen.append(card)
                continue
            if group in done:
                continue
            done.add(group)
            previous_mine = False
            for other in self._knowledge.ranked[group]:
                place = where[other]
                if place == _GONE:
                    continue
                mine = place == mover and other in legal
                if mine and not previous_mine:
                    chosen.append(other)
                previous_mine = mine
        return chosen

    def _representative(self, card: int, mover: int, legal: list[int]) -> int:
        """The card ``_distinct`` searched for the group ``card`` belongs to."""
        ranked = self._knowledge.ranked[self._knowledge.group[card]]
        head = card
        for other in reversed(ranked[: ranked.index(card)]):
            place = self._where[other]
            if place == _GONE:
                continue
            if place != mover or other not in legal:
                break
            head = other
        return head


NO_SUIT_GROUP = -1  # cards never merged with another


# ---------------------------------------------------------------------- what each game adds
class _Knowledge:
    """What the search needs of one game, read once from the rules: how cards are keyed,
    ranked and grouped, and how the end of the hand is valued."""

    additive: bool  # whether the value is a sum over tricks (Bid Whist) or read at the end (Wizard)
    # Move ordering when the other side holds the trick: the cheapest card that takes it
    # over first (Bid Whist: a third of the nodes), or simply the strongest first (Wizard:
    # fewer nodes than the cheapest-overtake order, measured).
    overtake_cheaply: bool
    key_bit: list[int]  # a card's part of its holder's key
    strength: list[int]  # for move ordering only: higher plays stronger
    group: list[int]  # the run a card may merge into (a suit), or NO_SUIT_GROUP
    ranked: dict[int, list[int]]  # per group, its cards strongest first

    def final_value(self) -> int:
        raise NotImplementedError

    def bounds(self, tricks: int) -> tuple[int, int]:
        raise NotImplementedError

    def possible(self, tricks: int) -> list[int]:
        """Every value the rest of the hand may have with ``tricks`` tricks left, lowest first."""
        raise NotImplementedError

    def key_extra(self) -> int:
        return 0

    def good_winner(self, mover: int, winner: int) -> bool:
        """For move ordering: whether ``mover`` would like ``winner`` to take the trick."""
        raise NotImplementedError

    def trick_won(self, winner: int, step: int) -> None:
        """A trick won by ``winner`` (step 1) or taken back (step -1)."""


def _ranked(group: list[int], strength: Callable[[int], int], cards: range) -> dict[int, list[int]]:
    ranked: dict[int, list[int]] = {}
    for card in cards:
        if group[card] != NO_SUIT_GROUP:
            ranked.setdefault(group[card], []).append(card)
    for members in ranked.values():
        members.sort(key=strength, reverse=True)
    return ranked


class _BidWhistKnowledge(_Knowledge):
    additive = True
    overtake_cheaply = True

    def __init__(self, state: Any, seat: int) -> None:
        if state.rules.renege == "penalized":
            # A renege is then a legal move whose cost (three books, or all) is settled at the
            # hand's end and depends on the books taken: not a sum over tricks. Refused rather
            # than valued wrongly.
            raise UnsupportedPositionError("the endgame solver does not value hands where a renege may be played")
        definition = game_of(state)
        self.mine = tuple(definition.partners(other, seat) for other in range(state.num_players))
        trump, rules = state.trump, state.rules
        power = bidwhist.rank_power(max(state.direction, 0), rules)
        suits = [bidwhist.card_suit(card, trump) for card in range(54)] + [NO_SUIT, NO_SUIT]
        self.key_bit = [1 << card for card in range(54)] + [0, 0]
        # A joker in no trump has no suit and never wins: the weakest card to play.
        self.strength = [
            0 if suits[card] == NO_SUIT else (200 if suits[card] == trump else 100) + power[card] for card in range(54)
        ] + [0, 0]
        # Those jokers run together as a group of their own (4), the weaker one below.
        self.group = [4 if suits[card] == NO_SUIT else suits[card] for card in range(54)] + [NO_SUIT_GROUP] * 2
        self.ranked = _ranked(self.group, lambda card: power[card], range(54))

    def final_value(self) -> int:
        return 0

    def bounds(self, tricks: int) -> tuple[int, int]:
        return 0, tricks

    def possible(self, tricks: int) -> list[int]:
        return list(range(tricks + 1))

    def good_winner(self, mover: int, winner: int) -> bool:
        return self.mine[mover] == self.mine[winner]


class _WizardKnowledge(_Knowledge):
    additive = False
    overtake_cheaply = False

    def __init__(self, state: Any, seat: int) -> None:
        bid = state.bids[seat]
        if bid < 0:
            raise UnsupportedPositionError(f"seat {seat} has no bid to play for")
        self.bid = bid
        self.seat = seat
        self.taken: int = state.tricks_won[seat]
        trump = state.trump
        self.key_bit = [1 << card for card in range(52)] + [0, 0, 1 << 52, 1 << 56]
        self.strength = [
            wizard.card_strength(card, wizard.card_suit(card, trump), trump) if card < 52 else 0 for card in range(56)
        ]
        self.strength[WIZARD], self.strength[JESTER] = 300, -1
        self.group = [wizard.card_suit(card, trump) if card < 52 else NO_SUIT_GROUP for card in range(56)]
        # Within one suit a card's strength follows its rank, led or trump alike.
        self.ranked = _ranked(
            self.group, lambda card: wizard.card_strength(card, wizard.card_suit(card, trump), NO_SUIT), range(52)
        )
        self.scores: list[int] = [wizard.score_for(bid, taken) for taken in range(state.tricks_per_hand() + 1)]

    def final_value(self) -> int:
        return self.scores[self.taken]

    def bounds(self, tricks: int) -> tuple[int, int]:
        reachable = self.scores[self.taken : self.taken + tricks + 1]
        return min(reachable), max(reachable)

    def possible(self, tricks: int) -> list[int]:
        return sorted(set(self.scores[self.taken : self.taken + tricks + 1]))

    def key_extra(self) -> int:
        return self.taken

    def good_winner(self, mover: int, winner: int) -> bool:
        # The two sides of the paranoid search, as if each wanted the tricks. (Ordering by
        # whether the seat's bid is still short searched up to twice the nodes: measured.)
        return (mover == self.seat) == (winner == self.seat)

    def trick_won(self, winner: int, step: int) -> None:
        if winner == self.seat:
            self.taken += step


_GAMES: dict[str, Callable[[Any, int], _Knowledge]] = {
    "bidwhist": _BidWhistKnowledge,
    "wizard": _WizardKnowledge,
}
