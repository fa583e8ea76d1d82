"""An exact solver for the rest of a hand in one world (every hand known): alpha-beta with a
transposition table. Bid Whist: the serving team's books against the other team; Wizard:
the serving seat's round score against a coalition of all others (a "paranoid" search)."""

from __future__ import annotations

# What is searched. From a PLAY-phase state with every hand known, every seat plays
# perfectly to the end of the hand for what the rules say the serving seat's side plays
# for (``GameDef.trick_values``: its result by the tricks it takes over the whole hand):
#
# * Bid Whist is two-sided and zero-sum: the value is the books the serving seat's team
#   takes in the hand's tricks (those already taken included, the kitty's book aside). The
#   team maximises it, the other team minimises it; teams and the side to move are the rules'.
# * Wizard is not zero-sum: each seat plays for its own bid. Exact multi-player search
#   has two standard forms, max^n (each seat maximises its own score; weak pruning and
#   ties decided arbitrarily) and the "paranoid" search (the serving seat against a
#   coalition of all the others, who minimise its score: a two-sided alpha-beta again,
#   used by the multi-player card and board programs where pruning matters). We use the
#   paranoid search: its value is what the seat is sure to score whatever the others do,
#   with the rules' round score (20 + 10 a trick for the bid made, -10 a trick off). A seat
#   whose bid is lost anyway still prefers losing less.
#
# Nothing here knows one game: both are "the serving seat's side against everyone else",
# valued by the rules' ``trick_values``. Where each trick is worth the same (books) the
# value is a sum over the tricks left; else (a bid) it is read at the hand's end.
#
# How it stays fast (the techniques of the double-dummy bridge solvers):
#
# * the value found by a binary search over the values the tricks left allow, each step a
#   null-window alpha-beta ("does the side reach this much?") sharing one table;
# * a transposition table at every trick's start (the trick in progress is then empty),
#   keyed by the cards left in each hand (one bit a card; Wizard's alike Wizards and
#   Jesters counted), the seat on lead and, where the value is not a sum, the side's tricks
#   so far, never by the history; it keeps a lower and an upper bound and the best card;
# * move ordering: the table's best card first; then on lead the strongest cards; when the
#   mover's own side holds the trick the weakest; when the other side does, where tricks
#   are summed (Bid Whist) the cheapest card that takes the trick over and then the
#   weakest, else (Wizard) the strongest (each measured the better, docs/BENCHMARKS.md);
# * equivalent cards merged ("sequence" reduction): two cards of one suit in one hand with
#   no live card of that suit between them (in another hand or on the trick) win and lose
#   against exactly the same cards now and later, so only one is searched. The suit is the
#   rules' (``hidden_info.card_suit``) and the order within it the rules' trick winner,
#   confirmed between neighbours both ways or the suit is not merged; this relies on a card
#   meeting a card of another suit by suit alone, as in both games. Cards with no suit are
#   merged only where the rules show they never win (the jokers in no trump); Wizards and
#   Jesters are not (the rules list alike ones once);
# * quick bounds: the value cannot leave what the tricks left allow.
#
# The legal cards and each trick's winner are asked of the rules on a private copy of the
# state (``legal_cards``, ``trick_winner_index``); the solver only moves cards between the
# hands and the trick of that copy and undoes the moves. It reads the hands, the trick, the
# seat to move, the tricks won and what the rules value (the contract, the bids) of the
# state it is given, nothing else. There is no clock: a caller bounds the work with
# ``max_nodes`` (``NodeLimitReached``).

from dataclasses import dataclass
from functools import cmp_to_key
from typing import Any

from game.rules.actions import Action, ActionKind, play
from game.rules.cards import NO_SUIT
from game.rules.core import Phase
from game.rules.registry import GameDef, game_of

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

    ``value``: Bid Whist, the books the serving team takes in the hand's tricks (those
    already taken included, the kitty's book aside); Wizard, the serving seat's round score
    under the paranoid search. ``best_actions``:
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
        players = state.num_players
        if type(seat) is not int or not 0 <= seat < players:
            raise UnsupportedPositionError(f"no seat {seat!r} at a table of {players}")
        if max_nodes is not None and max_nodes < 1:
            raise ValueError(f"max_nodes must be at least 1, not {max_nodes}")
        self.seat = seat
        self.max_nodes = max_nodes
        self.nodes = 0
        definition = game_of(state)
        if definition.trick_values is None or definition.hidden_info is None:
            raise UnsupportedPositionError(f"{definition.name} gives the endgame solver no values to play for")
        self._board = state.copy()  # private: the solver's moves never touch the caller's state
        self._board.fixed_deals = {}
        self._knowledge = _Knowledge(self._board, seat, definition)
        self._mine = self._knowledge.mine
        self._players = players
        self._key_bit = self._knowledge.key_bit
        self._table: dict[tuple[int, ...], tuple[int, int, int]] = {}
        self._masks = [0] * players
        self._where = [_GONE] * _CARD_IDS
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
        return self._knowledge.offset() + self._exact()

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
        offset = self._knowledge.offset()
        return {play(card): offset + values[card] for card in legal}

    def solve(self) -> Solution:
        """The value and every best card of the seat to move."""
        values = self.action_values()
        if self._mine[self._board.current]:
            target = max(values.values())
        else:
            target = min(values.values())
        best = tuple(action for action, value in values.items() if value == target)
        return Solution(target, best, self.nodes)

    def best_action(self, preferred: int = -1) -> Action:
        """One best card of the seat to move, cheaper than ``solve``: the value first, then
        the moves in search order until one is shown to keep it (a null-window search each).
        A legal ``preferred`` card is tried first, so it is the answer whenever it is best."""
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
        searched_for_preferred = -1  # the card of ``preferred``'s group that the search tries
        if preferred in legal:
            merged = self._knowledge.group[preferred] != NO_SUIT_GROUP
            searched_for_preferred = self._representative(preferred, board.current, legal) if merged else preferred
            best_first = searched_for_preferred
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
                return play(preferred if card == searched_for_preferred else card)
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
        """What a finished trick adds to the value where the value is a sum over tricks."""
        if finished is None or not self._knowledge.additive:
            return 0
        return self._knowledge.slope if self._mine[finished[0]] else 0

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
        winner: int = board.trick_seats[board.trick_winner_index()]
        board.trick = []
        board.trick_seats = []
        knowledge = self._knowledge
        if knowledge.additive:
            return knowledge.slope if self._mine[winner] else 0
        return knowledge.values[knowledge.taken + self._mine[winner]]

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
        if self._mine[winner]:
            self._knowledge.taken += 1
        return finished

    def _unmake(self, card: int, finished: tuple[int, list[int], list[int]] | None) -> None:
        board = self._board
        where = self._where
        if finished is not None:
            winner, board.trick, board.trick_seats = finished
            if self._mine[winner]:
                self._knowledge.taken -= 1
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
        elif not self._knowledge.additive:
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


# ---------------------------------------------------------------------- what the rules say
class _Knowledge:
    """What the search needs of the game, asked of the rules once: what the serving side plays
    for, and how cards are keyed, grouped, ranked and ordered."""

    def __init__(self, board: Any, seat: int, definition: GameDef) -> None:
        values = definition.trick_values(board, seat) if definition.trick_values is not None else None
        if values is None:
            raise UnsupportedPositionError(
                "the rules value this hand by more than its tricks (a renege may be played, or no bid was made)"
            )
        self.values: tuple[int, ...] = values  # the serving side's result by its tricks over the whole hand
        self.mine: tuple[bool, ...] = tuple(definition.partners(other, seat) for other in range(board.num_players))
        self.taken: int = sum(won for other, won in enumerate(board.tricks_won) if self.mine[other])
        steps = {later - earlier for earlier, later in zip(values, values[1:])}
        # Each trick worth the same (a team's books): the value is a sum over the tricks left
        # and the table needs no count of the tricks taken. Else (a Wizard bid) it is read
        # at the hand's end and the count is part of the key.
        self.additive = len(steps) == 1
        self.slope: int = steps.pop() if self.additive else 0
        deck = sorted(set(definition.deck_for(board.rules)))
        card_suit = definition.hidden_info.card_suit if definition.hidden_info is not None else None
        assert card_suit is not None  # checked by the solver
        # Two cards of one hand follow alike when the rules give them one suit; a card with
        # none (a Wizard, a Jester) is never merged with another, unless it never wins
        # (``_group_losers``).
        self.group = [NO_SUIT_GROUP] * _CARD_IDS
        for card in deck:
            self.group[card] = card_suit(card, board.trump)
        self.ranked = self._ranked(board, deck)
        self._group_losers(board, deck)
        self.strength = self._strengths(board, deck)
        # One bit a card, and a 4-bit count for the ids a deck holds more than once (Wizard's
        # Wizards and Jesters): a hand's part of the table's key.
        self.key_bit = [1 << card if card < 52 else 1 << (52 + 4 * (card - 52)) for card in range(_CARD_IDS)]

    def _beats(self, board: Any, led: int, played: int) -> bool:
        """Whether ``played``, played to ``led``, takes the trick: asked of the rules."""
        board.trick, board.trick_seats = [led, played], [0, 1]
        return bool(board.trick_winner_index() == 1)

    def _ranked(self, board: Any, deck: list[int]) -> dict[int, list[int]]:
        """Per suit, its cards strongest first, as the rules rank them. A suit whose order the
        rules do not confirm between neighbours both ways is never merged (safe, not faster)."""
        saved = board.trick, board.trick_seats
        ranked: dict[int, list[int]] = {}
        for card in deck:
            if self.group[card] != NO_SUIT_GROUP:
                ranked.setdefault(self.group[card], []).append(card)
        for suit, members in list(ranked.items()):

            def weaker_first(first: int, second: int) -> int:
                return -1 if self._beats(board, first, second) else 1

            members.sort(key=cmp_to_key(weaker_first))
            if not all(
                self._beats(board, low, high) and not self._beats(board, high, low)
                for low, high in zip(members, members[1:])
            ):
                for card in members:
                    self.group[card] = NO_SUIT_GROUP
                del ranked[suit]
                continue
            members.reverse()
        board.trick, board.trick_seats = saved
        return ranked

    def _group_losers(self, board: Any, deck: list[int]) -> None:
        """Cards without a suit that never take a trick from a card with one, led or played
        after it, and give a trick of such cards alone to whichever was led (Bid Whist's
        jokers in no trump), play alike: the rules say so card by card, and they are merged."""
        saved = board.trick, board.trick_seats
        tops = [members[0] for members in self.ranked.values()]
        losers = [
            card
            for card in deck
            if self.group[card] == NO_SUIT_GROUP
            and tops
            and all(not self._beats(board, top, card) and self._beats(board, card, top) for top in tops)
        ]
        if len(losers) > 1 and all(not self._beats(board, a, b) for a in losers for b in losers if a != b):
            self.ranked[_LOSERS_GROUP] = losers
            for card in losers:
                self.group[card] = _LOSERS_GROUP
        board.trick, board.trick_seats = saved

    def _strengths(self, board: Any, deck: list[int]) -> list[int]:
        """For move ordering only: a suit's cards by rank, trumps above; a card without a suit
        strongest when it takes a trick from the best card of every suit (a Wizard), else weakest."""
        saved = board.trick, board.trick_seats
        strength = [0] * _CARD_IDS
        for suit, members in self.ranked.items():
            if suit == _LOSERS_GROUP:
                continue  # they keep strength 0
            base = 200 if suit == board.trump else 100
            for position, card in enumerate(reversed(members)):
                strength[card] = base + position
        tops = [members[0] for suit, members in self.ranked.items() if suit != _LOSERS_GROUP]
        for card in deck:
            if self.group[card] == NO_SUIT_GROUP:
                strength[card] = 300 if tops and not any(self._beats(board, card, top) for top in tops) else 0
        board.trick, board.trick_seats = saved
        return strength

    def offset(self) -> int:
        """What the hand is worth before the tricks left, where the value is their sum."""
        return self.values[self.taken] if self.additive else 0

    def final_value(self) -> int:
        return 0 if self.additive else self.values[self.taken]

    def bounds(self, tricks: int) -> tuple[int, int]:
        """The least and the most the rest of the hand may be worth with ``tricks`` left."""
        if self.additive:
            return min(0, self.slope * tricks), max(0, self.slope * tricks)
        reachable = self.values[self.taken : self.taken + tricks + 1]
        return min(reachable), max(reachable)

    def possible(self, tricks: int) -> list[int]:
        """Every value the rest of the hand may have with ``tricks`` tricks left, lowest first."""
        if self.additive:
            return sorted({self.slope * won for won in range(tricks + 1)})
        return sorted(set(self.values[self.taken : self.taken + tricks + 1]))

    def key_extra(self) -> int:
        return 0 if self.additive else self.taken

    def good_winner(self, mover: int, winner: int) -> bool:
        """For move ordering: whether ``mover`` would like ``winner`` to take the trick (its
        own side, as if every side wanted tricks: ordering Wizard by whether the seat's bid is
        still short searched up to twice the nodes, measured)."""
        return self.mine[mover] == self.mine[winner]


_CARD_IDS = 56
NO_SUIT_GROUP = NO_SUIT  # cards never merged with another
_LOSERS_GROUP = 4  # cards without a suit that never take a trick (a group beside the four suits)
