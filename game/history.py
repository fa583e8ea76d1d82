"""Hand histories (``HAND_HISTORY.md``, version 1): record, write, read, check.

A ``HistoryRecorder`` turns the engine's typed events into the JSON object of
one game; ``write_history``/``read_history`` handle JSON Lines files; and
``check_game`` replays one recorded game through the engine and lists every
point where the engine disagrees with the record.

This module is the only place that knows how events look as JSON. The
recorder finds the handler of an event in one table keyed by the event's
type, so an event kind that nobody taught it to record raises
``UnhandledEventError`` instead of vanishing from the file.

How a deal is written down depends on how the game is scored, which the
registry's ``GameDef.scoring`` says: a *contract* game records the kitty, the
bidding, the contract, the discard, reneges and books per team; a
*prediction* game records the card turned up for trump, each seat's
prediction and the tricks each seat took. ``DEAL_SHAPES`` maps each scoring
style to its shape; nothing here compares game names.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

from game.rules import GameDef, IllegalActionError, ParseError, Phase, RuleConfigError, get_game, new_game
from game.rules.actions import (
    DIRECTION_NAMES, NEXT_DEAL, Action, ActionKind, BidMode, bid_from_json, bid_to_json, choose_direction,
    choose_trump, discard, play, predict,
)
from game.rules.cards import SUIT_LETTERS, SUIT_OF, card_code, parse_card
from game.rules.events import (
    UNKNOWN_CARD, BidMade, BidsRevealed, BidWhistHandScored, CardPlayed, ContractSet, Dealt, Discarded,
    FirstDealerDrawn, GameEvent, GameOver, KittyTaken, Redealt, TrickWon, TrumpChosen, TrumpTurnedUp,
    UnhandledEventError, WizardHandScored,
)
from game.rules.house_rules import rules_from_dict

FORMAT = "trick-table-history"
VERSION = 1

NO_TURN_UP = -1  # the engine's turn-up card when no card was left to turn


class HistoryError(ValueError):
    """A history file or record that cannot be read."""


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
        return {"number": event.number, "dealer": event.dealer, "hands": [_codes(h) for h in event.hands],
                "kitty": _codes(event.kitty), "bids": [], "redeal": False, "declarer": None, "contract": None,
                "discard": [], "tricks": [], "reneges": [], "books": [0] * sides,
                "score_change": [0] * sides, "scores": []}

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
        return {"number": event.number, "dealer": event.dealer, "hands": [_codes(h) for h in event.hands],
                "turn_up": None, "trump": None, "bids": [], "tricks": [], "tricks_won": [],
                "score_change": [], "scores": []}

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
        raise ValueError(f"the hand history has no deal shape for games scored by {game.scoring!r} "
                         f"({game.name})") from None


# ---------------------------------------------------------------------- recording
class HistoryRecorder:
    """Builds the history object of one game from the engine's full event stream."""

    def __init__(self, game: GameDef, seed: int | None, rules: dict[str, Any],
                 players: list[dict[str, Any]]) -> None:
        self.game_def = game
        self._shape = deal_shape(game)
        self._sides = game.score_sides(len(players))
        # Until a hand is scored the "scores so far" are zeros, one per
        # scoring side (HAND_HISTORY.md, final_scores).
        self.record: dict[str, Any] = {
            "format": FORMAT, "version": VERSION, "game": game.name, "seed": seed, "rules": dict(rules),
            "players": players, "first_dealer": {"draw": [], "dealer": None}, "deals": [],
            "complete": False, "final_scores": [0] * self._sides, "winners": [],
        }
        self._deal: dict[str, Any] | None = None

    def feed(self, events: Iterable[GameEvent]) -> None:
        for event in events:
            handler = EVENT_HANDLERS.get(type(event))
            if handler is None:
                raise UnhandledEventError(f"the hand history has no handler for {type(event).__name__}")
            handler(self, event)

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
        deal["contract"] = {"books": event.books, "mode": BidMode(event.mode).label,
                            "trump": _suit_letter(event.trump), "direction": DIRECTION_NAMES[event.direction]}

    def _on_discarded(self, event: Discarded) -> None:
        self.current_deal["discard"].append(_code(event.card))

    def _on_trick_won(self, event: TrickWon) -> None:
        self.current_deal["tricks"].append({"leader": event.leader, "plays": _plays(event.plays),
                                            "winner": event.winner})

    def _on_contract_hand_scored(self, event: BidWhistHandScored) -> None:
        self.current_deal.update({"redeal": event.redeal,
                                  "reneges": [{"trick": trick, "seat": seat} for trick, seat in event.reneges],
                                  "books": list(event.books), "score_change": list(event.score_change),
                                  "scores": list(event.scores)})
        self.record["final_scores"] = list(event.scores)

    def _on_prediction_hand_scored(self, event: WizardHandScored) -> None:
        # The bids are already listed as made: hidden and delayed bids are
        # made in seat order from the dealer's left, the order the file wants.
        self.current_deal.update({"tricks_won": list(event.tricks_won), "score_change": list(event.score_change),
                                  "scores": list(event.scores)})
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
    TrickWon: HistoryRecorder._on_trick_won,
    BidWhistHandScored: HistoryRecorder._on_contract_hand_scored,
    WizardHandScored: HistoryRecorder._on_prediction_hand_scored,
    GameOver: HistoryRecorder._on_game_over,
}


# ---------------------------------------------------------------------- files
def write_history(path: str | Path, records: Iterable[dict[str, Any]], append: bool = False) -> None:
    """Write games as JSON Lines (one compact, key-ordered line per game)."""
    lines = "".join(json.dumps(r, separators=(",", ":"), ensure_ascii=False) + "\n" for r in records)
    if append:
        with open(path, "a", encoding="utf-8", newline="\n") as handle:
            handle.write(lines)
    else:
        from game.paths import atomic_write_text
        atomic_write_text(Path(path), lines)


def read_history(path: str | Path) -> Iterator[dict[str, Any]]:
    """Yield each game of a history file; a bad line raises ``HistoryError``."""
    try:
        handle = open(path, "rb")
    except OSError as exc:
        raise HistoryError(f"{path}: cannot read: {exc.strerror or exc}") from None
    with handle:
        for number, raw in enumerate(handle, 1):
            # Decoded line by line so a damaged file names its bad line instead of crashing.
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise HistoryError(f"{path}: line {number}: not UTF-8 text") from None
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise HistoryError(f"{path}: line {number}: not valid JSON ({exc.msg})") from None
            if not isinstance(record, dict) or record.get("format") != FORMAT:
                raise HistoryError(f"{path}: line {number}: not a Trick Table hand history")
            if record.get("version") != VERSION:
                raise HistoryError(f"{path}: line {number}: history version {record.get('version')!r} "
                                   f"is not supported (this program reads version {VERSION})")
            yield record


# ---------------------------------------------------------------------- replay
@dataclass
class Disagreement:
    where: str
    recorded: Any
    engine: Any

    def __str__(self) -> str:
        return f"{self.where}: recorded {self.recorded!r}, engine says {self.engine!r}"


def recorded_actions(game: GameDef, deal: dict[str, Any]) -> list[Action]:
    """The decisions of one recorded deal, in the order the engine takes them."""
    actions = deal_shape(game).decisions(deal)
    for trick in deal["tricks"]:
        actions.extend(play(parse_card(entry["card"])) for entry in trick["plays"])
    return actions


def check_game(record: dict[str, Any]) -> list[Disagreement]:
    """Replay a recorded game through the engine; every disagreement found.

    The deal is taken from the seed when there is one (and the recorded hands
    must match it), else from the recorded hands, which the engine checks
    are a real deal of the game. Bids, contract, discards and plays are
    re-applied and must be legal; trick winners, reneges, books, scores,
    completion and winners must match.
    """
    problems: list[Disagreement] = []
    try:
        game = get_game(record["game"])
        rules = rules_from_dict(game.name, record["rules"])
        players = len(record["players"])
        seed = record.get("seed")
        seeded = isinstance(seed, int)
        fixed = None if seeded else _fixed_deals(game, record["deals"])
        recorded_dealer = record["first_dealer"]["dealer"]
        state, events = new_game(rules, players, seed if isinstance(seed, int) else 0,
                                 first_dealer=None if seeded else recorded_dealer, fixed_deals=fixed)
    except (KeyError, TypeError, ValueError, RuleConfigError) as exc:
        return [Disagreement("game header", "readable record", f"unreadable: {exc}")]
    recorder = HistoryRecorder(game, seed, rules.to_dict(), record["players"])
    recorder.feed(events)
    if not seeded:
        # Without a seed the draw cannot be reproduced; only the dealer it chose is used.
        recorder.record["first_dealer"]["draw"] = record["first_dealer"].get("draw", [])
    deals = record.get("deals")
    if not isinstance(deals, list) or not all(isinstance(deal, dict) for deal in deals):
        return [Disagreement("deals", "a list of deal objects", f"unreadable: {deals!r:.60}")]
    for index, deal in enumerate(deals):
        where = f"deal {deal.get('number', index + 1)}"
        if index > 0:
            if state.phase != Phase.HAND_OVER:
                problems.append(Disagreement(where, "another deal", "the game was already over"))
                break
            events = []
            state.apply_in_place(NEXT_DEAL, events)
            recorder.feed(events)
        try:
            for action in recorded_actions(game, deal):
                events = []
                state.apply_in_place(action, events)
                recorder.feed(events)
        except (KeyError, TypeError) as exc:
            problems.append(Disagreement(where, "a readable deal", f"unreadable: missing or wrong field {exc}"))
            break
        except (IllegalActionError, ParseError, ValueError) as exc:
            problems.append(Disagreement(where, "legal play", f"illegal: {exc}"))
            break
    problems.extend(_compare(record, recorder.record))
    return problems


def _fixed_deals(game: GameDef, deals: list[dict[str, Any]]) -> dict[int, Any]:
    """The recorded deals as the engine's ``fixed_deals``, for a game without a seed.

    Only the cards are read here; ``new_game`` asks the registry's
    ``check_fixed_deal`` whether they are a real deal of the game (counts,
    cards from the deck, none too often) and raises ``DealError`` otherwise.
    """
    shape = deal_shape(game)
    return {deal["number"]: shape.fixed_deal(deal) for deal in deals}


def _compare(recorded: dict[str, Any], replayed: dict[str, Any]) -> list[Disagreement]:
    """Field-by-field differences between the record and the engine's replay."""
    problems = []
    for key in ("first_dealer", "complete", "final_scores", "winners"):
        if recorded.get(key) != replayed.get(key):
            problems.append(Disagreement(key, recorded.get(key), replayed.get(key)))
    mine, theirs = recorded.get("deals", []), replayed["deals"]
    if len(mine) != len(theirs):
        problems.append(Disagreement("number of deals", len(mine), len(theirs)))
    for deal, replay in zip(mine, theirs):
        for key in replay:
            if deal.get(key) != replay[key]:
                problems.append(Disagreement(f"deal {replay['number']}: {key}", deal.get(key), replay[key]))
    return problems


def check_file(path: str | Path) -> list[tuple[int, list[Disagreement]]]:
    """Check every game of a file: ``(game index from 1, disagreements)`` for bad games."""
    bad = []
    for number, record in enumerate(read_history(path), 1):
        problems = check_game(record)
        if problems:
            bad.append((number, problems))
    return bad
