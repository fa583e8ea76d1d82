"""Hand histories (``HAND_HISTORY.md``, version 1): record, write, read, check.

A ``HistoryRecorder`` turns the engine's events into the JSON object of one
game; ``write_history``/``read_history`` handle JSON Lines files; and
``check_game`` replays one recorded game through the engine and lists every
point where the engine disagrees with the record.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator

from game.rules import IllegalActionError, ParseError, RuleConfigError
from game.rules.actions import (
    NEXT_DEAL, Action, bid_from_json, choose_direction, choose_trump, discard, play, predict,
)
from game.rules.cards import BIDWHIST_DECK, SUIT_LETTERS, WIZARD_DECK, card_code, codes, parse_card
from game.rules.core import Event, Phase
from game.rules.engine import new_game
from game.rules.house_rules import rules_from_dict

FORMAT = "trick-table-history"
VERSION = 1


class HistoryError(ValueError):
    """A history file or record that cannot be read."""


def _suit_letter(suit: int | None) -> str | None:
    return None if suit is None or suit < 0 else SUIT_LETTERS[suit]


class HistoryRecorder:
    """Builds the history object of one game from the engine's events."""

    def __init__(self, game: str, seed: int | None, rules: dict[str, Any], players: list[dict[str, Any]]) -> None:
        # Until a hand is scored the "scores so far" are zeros: one per team in
        # Bid Whist, one per seat in Wizard (HAND_HISTORY.md, final_scores).
        start_scores = [0, 0] if game == "bidwhist" else [0] * len(players)
        self.record: dict[str, Any] = {
            "format": FORMAT, "version": VERSION, "game": game, "seed": seed, "rules": dict(rules),
            "players": players, "first_dealer": {"draw": [], "dealer": None}, "deals": [],
            "complete": False, "final_scores": start_scores, "winners": [],
        }
        self._deal: dict[str, Any] | None = None

    @property
    def game(self) -> str:
        return self.record["game"]

    def feed(self, events: Iterable[Event]) -> None:
        for event in events:
            handler = getattr(self, "_on_" + event.kind.value, None)
            if handler is not None:
                handler(event)

    def _on_first_dealer(self, event: Event) -> None:
        self.record["first_dealer"] = {
            "draw": [{"seat": seat, "card": card_code(card)} for seat, card in event.data["draw"]],
            "dealer": event.data["dealer"]}

    def _on_deal(self, event: Event) -> None:
        data = event.data
        deal: dict[str, Any] = {"number": data["number"], "dealer": data["dealer"],
                                "hands": [codes(h) for h in data["hands"]]}
        if self.game == "bidwhist":
            deal.update({"kitty": codes(data["kitty"]), "bids": [], "redeal": False, "declarer": None,
                         "contract": None, "discard": [], "tricks": [], "reneges": [],
                         "books": [0, 0], "score_change": [0, 0], "scores": []})
        else:
            turn_up = data["turn_up"]
            deal.update({"turn_up": card_code(turn_up) if turn_up >= 0 else None, "trump": None,
                         "bids": [], "tricks": [], "tricks_won": [], "score_change": [], "scores": []})
        self._deal = deal
        self.record["deals"].append(deal)

    def _on_trump_turned(self, event: Event) -> None:
        assert self._deal is not None
        self._deal["trump"] = _suit_letter(event.data["trump"])

    def _on_trump_chosen(self, event: Event) -> None:
        assert self._deal is not None
        self._deal["trump"] = _suit_letter(event.data["trump"])

    def _on_bid(self, event: Event) -> None:
        assert self._deal is not None
        self._deal["bids"].append({"seat": event.seat, "bid": event.data["bid"]})

    def _on_contract(self, event: Event) -> None:
        assert self._deal is not None
        self._deal["declarer"] = event.seat
        self._deal["contract"] = dict(event.data)

    def _on_discard(self, event: Event) -> None:
        assert self._deal is not None
        self._deal["discard"].append(card_code(event.card))

    def _on_trick_won(self, event: Event) -> None:
        assert self._deal is not None
        self._deal["tricks"].append({
            "leader": event.data["leader"],
            "plays": [{"seat": seat, "card": card_code(card)} for seat, card in event.data["plays"]],
            "winner": event.seat})

    def _on_hand_scored(self, event: Event) -> None:
        deal, data = self._deal, event.data
        assert deal is not None
        if self.game == "bidwhist":
            deal.update({"redeal": data["redeal"], "reneges": list(data["reneges"]),
                         "books": list(data["books"]), "score_change": list(data["score_change"]),
                         "scores": list(data["scores"])})
        else:
            # Hidden and delayed bids are listed in seat order from the dealer's left,
            # which is the order the engine takes them in.
            deal.update({"tricks_won": list(data["tricks_won"]),
                         "score_change": list(data["score_change"]), "scores": list(data["scores"])})
        self.record["final_scores"] = list(data["scores"])

    def _on_game_over(self, event: Event) -> None:
        self.record["complete"] = True
        self.record["final_scores"] = list(event.data["final_scores"])
        self.record["winners"] = list(event.data["winners"])


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


def recorded_actions(game: str, deal: dict[str, Any]) -> list[Action]:
    """The decisions of one recorded deal, in the order the engine takes them."""
    actions: list[Action] = []
    if game == "bidwhist":
        actions.extend(bid_from_json(b["bid"]) for b in deal["bids"])
        contract = deal.get("contract")
        if contract:
            if contract["mode"] == "notrump":
                actions.append(choose_direction(("uptown", "downtown").index(contract["direction"])))
            else:
                actions.append(choose_trump(SUIT_LETTERS.index(contract["trump"])))
        actions.extend(discard(parse_card(c)) for c in deal["discard"])
    else:
        if deal.get("turn_up") == "WZ":
            actions.append(choose_trump(SUIT_LETTERS.index(deal["trump"])))
        actions.extend(predict(int(b["bid"])) for b in deal["bids"])
    for trick in deal["tricks"]:
        actions.extend(play(parse_card(p["card"])) for p in trick["plays"])
    return actions


def check_game(record: dict[str, Any]) -> list[Disagreement]:
    """Replay a recorded game through the engine; every disagreement found.

    The deal is taken from the seed when there is one (and the recorded hands
    must match it), else from the recorded hands. Bids, contract, discards and
    plays are re-applied and must be legal; trick winners, reneges, books,
    scores, completion and winners must match.
    """
    problems: list[Disagreement] = []
    try:
        game = record["game"]
        rules = rules_from_dict(game, record["rules"])
        players = len(record["players"])
        seed = record.get("seed")
        fixed = None if isinstance(seed, int) else _fixed_deals(game, record["deals"], players)
        recorded_dealer = record["first_dealer"]["dealer"]
        state, events = new_game(rules, players, seed if isinstance(seed, int) else 0,
                                 first_dealer=None if isinstance(seed, int) else recorded_dealer,
                                 fixed_deals=fixed)
    except (KeyError, TypeError, ValueError, RuleConfigError) as exc:
        return [Disagreement("game header", "readable record", f"unreadable: {exc}")]
    recorder = HistoryRecorder(game, seed, rules.to_dict(), record["players"])
    recorder.feed(events)
    if not isinstance(seed, int):
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


def _fixed_deals(game: str, deals: list[dict[str, Any]], players: int) -> dict[int, Any]:
    """The recorded deals as the engine's ``fixed_deals``, for a game without a seed.

    The hands are checked to be a real deal first (right counts, cards from the
    deck, none twice), since the engine trusts explicit deals; a bad one raises
    ``ValueError`` naming the deal.
    """
    fixed: dict[int, Any] = {}
    for deal in deals:
        number = deal["number"]
        hands = [[parse_card(c) for c in h] for h in deal["hands"]]
        if len(hands) != players:
            raise ValueError(f"deal {number}: {len(hands)} hands for {players} players")
        if game == "bidwhist":
            kitty = [parse_card(c) for c in deal["kitty"]]
            if any(len(h) != 12 for h in hands) or len(kitty) != 6:
                raise ValueError(f"deal {number}: a Bid Whist deal is 12 cards a hand and a kitty of 6")
            if sorted(c for h in hands + [kitty] for c in h) != sorted(BIDWHIST_DECK):
                raise ValueError(f"deal {number}: the hands and kitty are not one Bid Whist deck")
            fixed[number] = (hands, kitty)
        else:
            turn_up_code = deal.get("turn_up")
            turn_up = parse_card(turn_up_code) if turn_up_code else -1
            if not isinstance(number, int) or any(len(h) != number for h in hands):
                raise ValueError(f"deal {number}: round {number} deals {number} cards a hand")
            used = Counter(c for h in hands for c in h) + Counter([turn_up] if turn_up >= 0 else [])
            if used - Counter(WIZARD_DECK):
                raise ValueError(f"deal {number}: the hands and turn-up are not cards of one Wizard deck")
            fixed[number] = (hands, turn_up)
    return fixed


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

