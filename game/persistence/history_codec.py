"""Hand histories (``HAND_HISTORY.md``, version 1) as JSON: the engine's events recorded as one game.

The only place that knows how events look as JSON. ``HistoryRecorder`` finds each event's
handler in one table, so an event nobody taught it raises ``UnhandledEventError``.
"""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from game.rules import GameDef, ParseError
from game.rules.actions import (
    DIRECTION_NAMES,
    Action,
    ActionKind,
    BidMode,
    bid_from_json,
    bid_to_json,
    choose_direction,
    choose_trump,
    discard,
    predict,
)
from game.rules.cards import SUIT_LETTERS, SUIT_OF, card_code, parse_card
from game.rules.events import (
    UNKNOWN_CARD,
    BidMade,
    BidsRevealed,
    BidWhistHandScored,
    CardPlayed,
    ClaimMade,
    ContractSet,
    Dealt,
    Discarded,
    FirstDealerDrawn,
    GameEvent,
    GameOver,
    KittyTaken,
    Redealt,
    TrickWon,
    TrumpChosen,
    TrumpTurnedUp,
    UnhandledEventError,
    WizardHandScored,
)
from game.persistence.problem_texts import located_line
from game.rules.problems import Problem, ProblemValueError
from game.session.scores import ContractLine, DealScore, ScoreHistory

FORMAT = "trick-table-history"
VERSION = 1

NO_TURN_UP = -1  # the engine's turn-up card when no card was left to turn

log = logging.getLogger("tricktable.history")


class HistoryError(ProblemValueError):
    """A history file or record that cannot be read.

    The message is a ``Problem`` that names the file (and the line): ``str()``
    is the English of the command line and the log, and the window words the
    same problem in the player's language. A damaged line read by
    ``read_history_from`` also says which it is (``line``) and where it ends
    (``end``, the byte offset after its newline; None for a last line without
    one), so that a reader that skips it knows how far it has read."""

    def __init__(self, problem: Problem, line: int | None = None, end: int | None = None) -> None:
        super().__init__(problem)
        self.line = line
        self.end = end


def _line_error(path: str | Path, number: int, code: str, **params: Any) -> HistoryError:
    """The ``HistoryError`` for line ``number`` of ``path``: problem ``code`` with ``params``."""
    return HistoryError(located_line(str(path), number, Problem(code, params)))


# ---------------------------------------------------------------------- values
def _code(card: int) -> str:
    """A card's code; a card hidden by ``events_for`` cannot be written down."""
    if card == UNKNOWN_CARD:
        # The history is the full record: it must be fed the events as the
        # engine emitted them, never a seat's filtered stream.
        raise ValueError("a hidden card reached the hand history; feed it the full event stream")
    return card_code(card)


def _codes(cards: Iterable[int]) -> list[str]:
    return [_code(card) for card in cards]


def _suit_letter(suit: int) -> str | None:
    return None if suit < 0 else SUIT_LETTERS[suit]


def _suit(letter: Any) -> int:
    if not (isinstance(letter, str) and len(letter) == 1 and letter in SUIT_LETTERS):
        raise ParseError(f"{letter!r} is not a suit letter")
    return SUIT_LETTERS.index(letter)


def _plays(plays: Sequence[tuple[int, int]]) -> list[dict[str, Any]]:
    return [{"seat": seat, "card": _code(card)} for seat, card in plays]


# ---------------------------------------------------------------------- deal shapes
class DealShape(ABC):
    """How the deals of one scoring style are written and read back.

    ``new_deal`` is the JSON object a deal starts as (its keys in file
    order; later events fill them in); ``fixed_deal`` turns a recorded deal
    into the explicit cards the engine's ``new_game(fixed_deals=...)`` takes
    for this kind of game; ``decisions`` lists the choices made before the
    first card, in the order the engine asks for them.
    """

    @abstractmethod
    def new_deal(self, event: Dealt, sides: int) -> dict[str, Any]: ...

    @abstractmethod
    def fixed_deal(self, deal: dict[str, Any]) -> tuple[list[list[int]], Any]: ...

    @abstractmethod
    def decisions(self, deal: dict[str, Any]) -> list[Action]: ...


class ContractDeal(DealShape):
    """A deal of a contract game: hands and kitty, the bidding, the contract
    and discard, then per-team books and scores."""

    def new_deal(self, event: Dealt, sides: int) -> dict[str, Any]:
        return {
            "number": event.number,
            "dealer": event.dealer,
            "hands": [_codes(h) for h in event.hands],
            "kitty": _codes(event.kitty),
            "bids": [],
            "redeal": False,
            "declarer": None,
            "contract": None,
            "discard": [],
            "tricks": [],
            "reneges": [],
            "books": [0] * sides,
            "score_change": [0] * sides,
            "scores": [],
        }

    def fixed_deal(self, deal: dict[str, Any]) -> tuple[list[list[int]], Any]:
        return [[parse_card(c) for c in h] for h in deal["hands"]], [parse_card(c) for c in deal["kitty"]]

    def decisions(self, deal: dict[str, Any]) -> list[Action]:
        actions = [bid_from_json(entry["bid"]) for entry in deal["bids"]]
        contract = deal.get("contract")
        if contract:
            # The declarer names the ranking in no trump, the trump suit otherwise.
            if contract["mode"] == BidMode.NOTRUMP.label:
                actions.append(choose_direction(DIRECTION_NAMES.index(contract["direction"])))
            else:
                actions.append(choose_trump(_suit(contract["trump"])))
        actions.extend(discard(parse_card(c)) for c in deal["discard"])
        return actions


class PredictionDeal(DealShape):
    """A deal of a prediction game: hands and the card turned up for trump,
    each seat's prediction, then per-seat tricks and scores."""

    def new_deal(self, event: Dealt, sides: int) -> dict[str, Any]:
        # The turn-up and trump come with the event that follows the deal.
        return {
            "number": event.number,
            "dealer": event.dealer,
            "hands": [_codes(h) for h in event.hands],
            "turn_up": None,
            "trump": None,
            "bids": [],
            "tricks": [],
            "tricks_won": [],
            "score_change": [],
            "scores": [],
        }

    def fixed_deal(self, deal: dict[str, Any]) -> tuple[list[list[int]], Any]:
        turn_up = deal.get("turn_up")
        hands = [[parse_card(c) for c in h] for h in deal["hands"]]
        return hands, (NO_TURN_UP if turn_up is None else parse_card(turn_up))

    def decisions(self, deal: dict[str, Any]) -> list[Action]:
        actions = []
        trump, turn_up = deal.get("trump"), deal.get("turn_up")
        # A trump the turned-up card does not make (a Wizard turned up) was
        # named by a player, and that choice comes before the predictions.
        if trump is not None and (turn_up is None or SUIT_OF[parse_card(turn_up)] != _suit(trump)):
            actions.append(choose_trump(_suit(trump)))
        actions.extend(predict(int(entry["bid"])) for entry in deal["bids"])
        return actions


# The shape of a deal per ``GameDef.scoring``.
DEAL_SHAPES: dict[str, DealShape] = {"contract": ContractDeal(), "prediction": PredictionDeal()}


def deal_shape(game: GameDef) -> DealShape:
    """How ``game`` writes its deals; ``ValueError`` for a scoring style with no shape."""
    try:
        return DEAL_SHAPES[game.scoring]
    except KeyError:
        raise ValueError(
            f"the hand history has no deal shape for games scored by {game.scoring!r} ({game.name})"
        ) from None


# ---------------------------------------------------------------------- recording
class HistoryRecorder:
    """Builds the history object of one game from the engine's full event stream."""

    def __init__(self, game: GameDef, seed: int | None, rules: dict[str, Any], players: list[dict[str, Any]]) -> None:
        self.game_def = game
        self._shape = deal_shape(game)
        self._sides = game.score_sides(len(players))
        # Until a hand is scored the "scores so far" are zeros, one per
        # scoring side (HAND_HISTORY.md, final_scores).
        self.record: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "game": game.name,
            "seed": seed,
            "rules": dict(rules),
            "players": players,
            "first_dealer": {"draw": [], "dealer": None},
            "deals": [],
            "complete": False,
            "final_scores": [0] * self._sides,
            "winners": [],
        }
        self._deal: dict[str, Any] | None = None

    def feed(self, events: Iterable[GameEvent]) -> None:
        for event in events:
            handler = EVENT_HANDLERS.get(type(event))
            if handler is None:
                raise UnhandledEventError(f"the hand history has no handler for {type(event).__name__}")
            handler(self, event)

    def mark_undo_used(self) -> None:
        """The player took moves back in this game: ``"undo_used": true`` at the top level
        (absent when undo was never used), so statistics can tell such games apart."""
        self.record["undo_used"] = True

    @property
    def current_deal(self) -> dict[str, Any]:
        """The deal being recorded; an event of a deal before any deal is a broken stream."""
        if self._deal is None:
            raise ValueError("an event of a deal reached the hand history before the deal itself")
        return self._deal

    # Every handler takes one kind of event; EVENT_HANDLERS below maps each
    # kind to its handler.
    def _on_first_dealer_drawn(self, event: FirstDealerDrawn) -> None:
        self.record["first_dealer"] = {"draw": _plays(event.draw), "dealer": event.dealer}

    def _on_dealt(self, event: Dealt) -> None:
        self._deal = self._shape.new_deal(event, self._sides)
        self.record["deals"].append(self._deal)

    def _on_trump_turned_up(self, event: TrumpTurnedUp) -> None:
        deal = self.current_deal
        deal["turn_up"] = None if event.card == NO_TURN_UP else _code(event.card)
        deal["trump"] = _suit_letter(event.trump)

    def _on_trump_chosen(self, event: TrumpChosen) -> None:
        self.current_deal["trump"] = _suit_letter(event.trump)
        self.current_deal["trump_chosen_by"] = event.seat

    def _on_bid_made(self, event: BidMade) -> None:
        action = event.action
        if action is None:
            raise ValueError("a hidden bid reached the hand history; feed it the full event stream")
        # A prediction is written as its number, a contract bid as "pass" or
        # {"books", "mode"} (kept beside the bid's parser in game.rules.actions).
        bid = action.value if action.kind == ActionKind.PREDICT else bid_to_json(action)
        self.current_deal["bids"].append({"seat": event.seat, "bid": bid})

    def _on_contract_set(self, event: ContractSet) -> None:
        deal = self.current_deal
        deal["declarer"] = event.declarer
        deal["contract"] = {
            "books": event.books,
            "mode": BidMode(event.mode).label,
            "trump": _suit_letter(event.trump),
            "direction": DIRECTION_NAMES[event.direction],
        }

    def _on_discarded(self, event: Discarded) -> None:
        self.current_deal["discard"].append(_code(event.card))

    def _on_trick_won(self, event: TrickWon) -> None:
        self.current_deal["tricks"].append(
            {"leader": event.leader, "plays": _plays(event.plays), "winner": event.winner}
        )

    def _on_contract_hand_scored(self, event: BidWhistHandScored) -> None:
        self.current_deal.update(
            {
                "redeal": event.redeal,
                "reneges": [{"trick": trick, "seat": seat} for trick, seat in event.reneges],
                "books": list(event.books),
                "score_change": list(event.score_change),
                "scores": list(event.scores),
            }
        )
        if event.boston:
            # The engine's word that the hand was a Boston (under a house rule that
            # plays one), so no reader has to work it out from the books again.
            self.current_deal["boston"] = True
        self.record["final_scores"] = list(event.scores)

    def _on_prediction_hand_scored(self, event: WizardHandScored) -> None:
        # The bids are already listed as made: hidden and delayed bids are
        # made in seat order from the dealer's left, the order the file wants.
        self.current_deal.update(
            {
                "tricks_won": list(event.tricks_won),
                "score_change": list(event.score_change),
                "scores": list(event.scores),
            }
        )
        self.record["final_scores"] = list(event.scores)

    def _on_game_over(self, event: GameOver) -> None:
        self.record["complete"] = True
        self.record["final_scores"] = list(event.final_scores)
        self.record["winners"] = list(event.winners)

    def _nothing_to_record(self, event: GameEvent) -> None:
        """For events whose facts the file already holds (see the table)."""


EventHandler = Callable[[HistoryRecorder, Any], None]

# The handler of every kind of event. Kinds mapped to ``_nothing_to_record``
# add nothing the file does not already hold from another event.
EVENT_HANDLERS: dict[type, EventHandler] = {
    FirstDealerDrawn: HistoryRecorder._on_first_dealer_drawn,
    Dealt: HistoryRecorder._on_dealt,
    TrumpTurnedUp: HistoryRecorder._on_trump_turned_up,
    TrumpChosen: HistoryRecorder._on_trump_chosen,
    BidMade: HistoryRecorder._on_bid_made,
    # Each bid was recorded when made (the full stream carries hidden bids).
    BidsRevealed: HistoryRecorder._nothing_to_record,
    # A thrown-in hand is marked by ``redeal`` when the hand is scored.
    Redealt: HistoryRecorder._nothing_to_record,
    ContractSet: HistoryRecorder._on_contract_set,
    # The kitty is recorded with the deal.
    KittyTaken: HistoryRecorder._nothing_to_record,
    Discarded: HistoryRecorder._on_discarded,
    # Plays are recorded trick by trick, in order, when each trick is won;
    # a renege is recorded from the hand's score.
    CardPlayed: HistoryRecorder._nothing_to_record,
    # A claimed hand is played out card by card, and those plays are its tricks.
    ClaimMade: HistoryRecorder._nothing_to_record,
    TrickWon: HistoryRecorder._on_trick_won,
    BidWhistHandScored: HistoryRecorder._on_contract_hand_scored,
    WizardHandScored: HistoryRecorder._on_prediction_hand_scored,
    GameOver: HistoryRecorder._on_game_over,
}


# ---------------------------------------------------------------------- scores for the screens
def _int_or_none(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _ints(value: Any) -> tuple[int, ...]:
    return tuple(v for v in value if isinstance(v, int)) if isinstance(value, list) else ()


def _contract(value: Any) -> ContractLine | None:
    if not isinstance(value, Mapping) or not value:
        return None
    trump = value.get("trump")
    return ContractLine(
        int(value.get("books", 0)),
        str(value.get("mode", "")),
        trump if isinstance(trump, str) else None,
        str(value.get("direction", "")),
    )


def deal_score(deal: Mapping[str, Any], index: int) -> DealScore:
    """The score line of ``deal``, the record's deal number ``index`` (from 0)."""
    number = deal.get("number", index + 1)
    dealer = _int_or_none(deal.get("dealer"))
    if not deal.get("scores"):
        return DealScore(number, dealer)
    bids = deal.get("bids", [])
    taken = any(
        isinstance(entry, Mapping) and isinstance(entry.get("bid"), Mapping) and entry["bid"].get("take") is True
        for entry in bids
    )
    predictions = {
        entry["seat"]: entry["bid"]
        for entry in bids
        if isinstance(entry, Mapping) and isinstance(entry.get("bid"), int)
    }
    return DealScore(
        number,
        dealer,
        scored=True,
        redeal=bool(deal.get("redeal")),
        declarer=_int_or_none(deal.get("declarer")),
        contract=_contract(deal.get("contract")),
        taken=taken,
        boston=deal.get("boston") is True,
        bids=predictions,
        tricks_won=_ints(deal.get("tricks_won")),
        books=_ints(deal.get("books")),
        score_change=_ints(deal.get("score_change")),
        scores=_ints(deal.get("scores")),
    )


def score_history(record: Mapping[str, Any]) -> ScoreHistory:
    """The score history of a hand-history record (the format of ``HAND_HISTORY.md``)."""
    players = record.get("players", [])
    rules = record.get("rules", {})
    target = rules.get("target_score")
    boston = rules.get("boston")
    return ScoreHistory(
        game=record["game"],
        players=len(players),
        human_seats=tuple(p.get("seat", i) for i, p in enumerate(players) if p.get("controller") == "human"),
        target_score=target if isinstance(target, int) else None,
        boston_rule=boston if isinstance(boston, str) else None,
        deals=tuple(deal_score(deal, index) for index, deal in enumerate(record.get("deals", []))),
        complete=bool(record.get("complete")),
        final_scores=_ints(record.get("final_scores") or []),
        winners=_ints(record.get("winners") or []),
    )
