"""Actions: the decisions players make, as small values with a string form."""

from __future__ import annotations

# One grammar covers both games and needs no context to parse:
#
# =============  ==========================================  ===============
# string         meaning                                     kind
# =============  ==========================================  ===============
# ``AS``         play the ace of spades                      PLAY
# ``-AS``        discard the ace of spades (kitty discard)   DISCARD
# ``pass``       pass in Bid Whist bidding                   PASS
# ``4up``        Bid Whist bid: 4 uptown (``4down``          BID
#                downtown, ``4nt`` no trump)
# ``take:4up``   the dealer takes the contract at 4 uptown   TAKE
#                (house rule ``dealer_takes``; also
#                ``take:4down``, ``take:4nt``)
# ``2``          Wizard bid of 2 tricks                      PREDICT
# ``trump:H``    name hearts as trump                        TRUMP
# ``uptown``     choose the no-trump ranking                 DIRECTION
# ``next``       deal the next hand after the score is shown NEXT_DEAL
# =============  ==========================================  ===============

from enum import IntEnum
from typing import NamedTuple

from game.rules.cards import SUIT_LETTERS, card_code, parse_card
from game.rules.errors import ParseError, short_repr


class ActionKind(IntEnum):
    PLAY = 0
    DISCARD = 1
    PASS = 2
    BID = 3
    PREDICT = 4
    TRUMP = 5
    DIRECTION = 6
    NEXT_DEAL = 7
    TAKE = 8


class BidMode(IntEnum):
    UPTOWN = 0
    DOWNTOWN = 1
    NOTRUMP = 2

    @property
    def label(self) -> str:
        return ("uptown", "downtown", "notrump")[self]


MODE_SUFFIXES = ("up", "down", "nt")
# The longest number read as a Wizard bid: no game has more than 20 tricks,
# and converting a digit string thousands long would be slow, or refused.
_MAX_BID_DIGITS = 4
UPTOWN, DOWNTOWN = 0, 1  # the two rankings (directions)
DIRECTION_NAMES = ("uptown", "downtown")


class Action(NamedTuple):
    """One decision. ``value`` is a card id, a number of books or tricks, a
    suit, or a direction; ``mode`` is the Bid Whist bid mode."""

    kind: ActionKind
    value: int = 0
    mode: int = 0

    def __str__(self) -> str:
        return action_to_str(self)


NEXT_DEAL = Action(ActionKind.NEXT_DEAL)
PASS = Action(ActionKind.PASS)


# Actions are immutable, so each is built once: the playout hot path then only
# looks them up instead of constructing tuples (the engine indexes these tables
# itself, by card id, bid or suit, without a function call).
PLAY_ACTIONS = tuple(Action(ActionKind.PLAY, card) for card in range(56))
DISCARD_ACTIONS = tuple(Action(ActionKind.DISCARD, card) for card in range(56))
_BIDS = {(books, mode): Action(ActionKind.BID, books, mode) for books in range(1, 8) for mode in range(3)}
_TAKES = {(books, mode): Action(ActionKind.TAKE, books, mode) for books in range(1, 8) for mode in range(3)}
PREDICT_ACTIONS = tuple(Action(ActionKind.PREDICT, n) for n in range(21))
TRUMP_ACTIONS = tuple(Action(ActionKind.TRUMP, suit) for suit in range(4))
DIRECTION_ACTIONS = tuple(Action(ActionKind.DIRECTION, d) for d in range(2))


def play(card: int) -> Action:
    return PLAY_ACTIONS[card] if 0 <= card < 56 else Action(ActionKind.PLAY, card)


def discard(card: int) -> Action:
    return DISCARD_ACTIONS[card] if 0 <= card < 56 else Action(ActionKind.DISCARD, card)


def bid(books: int, mode: int) -> Action:
    return _BIDS.get((books, int(mode))) or Action(ActionKind.BID, books, int(mode))


def take(books: int, mode: int) -> Action:
    """The dealer takes the contract at ``books`` (the high bid's number) in ``mode``."""
    return _TAKES.get((books, int(mode))) or Action(ActionKind.TAKE, books, int(mode))


def predict(tricks: int) -> Action:
    return PREDICT_ACTIONS[tricks] if 0 <= tricks < len(PREDICT_ACTIONS) else Action(ActionKind.PREDICT, tricks)


def choose_trump(suit: int) -> Action:
    return TRUMP_ACTIONS[suit] if 0 <= suit < 4 else Action(ActionKind.TRUMP, int(suit))


def choose_direction(direction: int) -> Action:
    return DIRECTION_ACTIONS[direction] if direction in (0, 1) else Action(ActionKind.DIRECTION, direction)


def action_to_str(action: Action) -> str:
    kind = action.kind
    if kind == ActionKind.PLAY:
        return card_code(action.value)
    if kind == ActionKind.DISCARD:
        return "-" + card_code(action.value)
    if kind == ActionKind.PASS:
        return "pass"
    if kind == ActionKind.BID:
        return f"{action.value}{MODE_SUFFIXES[action.mode]}"
    if kind == ActionKind.TAKE:
        return f"take:{action.value}{MODE_SUFFIXES[action.mode]}"
    if kind == ActionKind.PREDICT:
        return str(action.value)
    if kind == ActionKind.TRUMP:
        return "trump:" + SUIT_LETTERS[action.value]
    if kind == ActionKind.DIRECTION:
        return DIRECTION_NAMES[action.value]
    return "next"


def parse_action(text: str) -> Action:
    """The action named by ``text`` (see the module docstring for the grammar).

    Raises ``ParseError``, and nothing else, for anything that names no
    action: a string outside the grammar or a value that is not a string."""
    if not isinstance(text, str):
        raise ParseError(f"{short_repr(text)} is not an action: an action is written as a string such as AS, pass, 4up")
    t = text.strip()
    low = t.lower()
    if low == "pass":
        return PASS
    if low == "next":
        return NEXT_DEAL
    if low in DIRECTION_NAMES:
        return choose_direction(DIRECTION_NAMES.index(low))
    if low.startswith("trump:") and len(low) == 7 and low[6].upper() in SUIT_LETTERS:
        return choose_trump(SUIT_LETTERS.index(low[6].upper()))
    if low.startswith("take:") and len(low) > 6 and low[5] in "1234567" and low[6:] in MODE_SUFFIXES:
        return take(int(low[5]), MODE_SUFFIXES.index(low[6:]))
    # isdigit() alone accepts digits such as "²" that int() refuses.
    if t.isascii() and t.isdigit() and len(t) <= _MAX_BID_DIGITS:
        return predict(int(t))
    if len(t) > 1 and t[0] in "1234567" and low[1:] in MODE_SUFFIXES:
        return bid(int(t[0]), MODE_SUFFIXES.index(low[1:]))
    if t.startswith("-"):
        return discard(parse_card(t[1:]))
    try:
        return play(parse_card(t))
    except ParseError:
        raise ParseError(
            f"{short_repr(text)} is not an action: expected a card (AS), a discard (-AS), "
            "pass, a bid (4up, 4down, 4nt), a take (take:4up), a Wizard bid (2), trump:H, "
            "uptown, downtown or next"
        ) from None


def bid_to_json(action: Action) -> object:
    """A Bid Whist bid, take or pass as in the hand history: ``"pass"`` or a
    mapping; a dealer's take is the bid it makes with ``"take": true``."""
    if action.kind == ActionKind.PASS:
        return "pass"
    data: dict[str, object] = {"books": action.value, "mode": BidMode(action.mode).label}
    if action.kind == ActionKind.TAKE:
        data["take"] = True
    return data


def bid_from_json(data: object) -> Action:
    """The bid, take or pass recorded as ``data``; ``ParseError`` for anything else."""
    if data == "pass":
        return PASS
    if isinstance(data, dict) and data.get("mode") in ("uptown", "downtown", "notrump"):
        books = data.get("books")
        taken = data.get("take", False)
        if type(books) is int and type(taken) is bool:
            mode = ("uptown", "downtown", "notrump").index(data["mode"])
            return take(books, mode) if taken else bid(books, mode)
    raise ParseError(f"{short_repr(data)} is not a Bid Whist bid")
