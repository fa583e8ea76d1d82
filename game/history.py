"""Hand histories (``HAND_HISTORY.md``, version 1): record, write, read, check.

A ``HistoryRecorder`` turns the engine's typed events into the JSON object of
one game; ``HistoryWriter``/``write_history``/``read_history`` handle JSON
Lines files (written so that a full disk, a kill or a power cut never costs
an earlier game, see "files" below; ``read_history_from`` reads on from a
byte offset, for a reader that has seen the games before it); and
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

import errno
import json
import logging
import os
import re
import stat
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, Callable, Iterable, Iterator, NamedTuple, Sequence

from game import file_lock, line_reader
from game.history_schema import check_record_shape, short_repr
from game.names import unkept_character
from game.line_reader import capped_lines, open_lines_file
from game.paths import atomic_write_bytes, fsync_folder
from game.rules import GameDef, IllegalActionError, ParseError, Phase, RuleConfigError, get_game, new_game
from game.rules.actions import (
    DIRECTION_NAMES, NEXT_DEAL, Action, ActionKind, BidMode, bid_from_json, bid_to_json, choose_direction,
    choose_trump, discard, play, predict,
)
from game.rules.cards import SUIT_LETTERS, SUIT_OF, card_code, parse_card
from game.rules.events import (
    UNKNOWN_CARD, BidMade, BidsRevealed, BidWhistHandScored, CardPlayed, ClaimMade, ContractSet, Dealt, Discarded,
    FirstDealerDrawn, GameEvent, GameOver, KittyTaken, Redealt, TrickWon, TrumpChosen, TrumpTurnedUp,
    UnhandledEventError, WizardHandScored,
)
from game.rules.house_rules import rules_from_dict
from game.persistence.problem_texts import located_line
from game.rules.problems import Problem, ProblemValueError, located

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
        if event.boston:
            # The engine's word that the hand was a Boston (under a house rule that
            # plays one), so no reader has to work it out from the books again.
            self.current_deal["boston"] = True
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
    # A claimed hand is played out card by card, and those plays are its tricks.
    ClaimMade: HistoryRecorder._nothing_to_record,
    TrickWon: HistoryRecorder._on_trick_won,
    BidWhistHandScored: HistoryRecorder._on_contract_hand_scored,
    WizardHandScored: HistoryRecorder._on_prediction_hand_scored,
    GameOver: HistoryRecorder._on_game_over,
}


# ---------------------------------------------------------------------- files
# How a history file is written so that it never breaks: each game is one
# line, encoded first and handed to the operating system in a single write
# together with its newline, then flushed to the disk. A write that fails
# part-way (a full disk) is cut back to where the game began. A write that
# could not be cut back (the program was killed, the power went) leaves a
# torn last line; ``repair_history_tail`` moves such a tail to a ".damaged"
# file beside the history before anything else is appended, so the next game
# starts on a clean line and every earlier game stays readable.

DAMAGED_SUFFIX = ".damaged"
# The end of a file is read backwards in blocks of this size to find where
# its last line begins.
_SCAN_BLOCK = 64 * 1024


def encode_record(record: dict[str, Any]) -> bytes:
    """One game as its line of the file: compact, key-ordered JSON and a newline."""
    return (json.dumps(record, separators=(",", ":"), ensure_ascii=False) + "\n").encode("utf-8")


def _is_record_line(handle: BinaryIO, start: int, end: int) -> bool:
    """Whether the bytes from ``start`` to ``end`` of ``handle`` (one line) are a whole game
    record (or a blank line, which readers skip). A line longer than any game
    (``line_reader.MAX_LINE_BYTES``) is none, and is not read to find that out."""
    if end - start > line_reader.MAX_LINE_BYTES:
        return False
    handle.seek(start)
    raw = handle.read(end - start)
    if not raw.strip():
        return True
    try:
        record = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return False
    return isinstance(record, dict) and record.get("format") == FORMAT


def _start_of_line_ending_at(handle: BinaryIO, end: int) -> int:
    """Where the line whose last byte is just before ``end`` begins (0 for the first line)."""
    position = end - 1  # the byte at end - 1 is the line's own newline (or its last byte)
    while position > 0:
        block_start = max(0, position - _SCAN_BLOCK)
        handle.seek(block_start)
        block = handle.read(position - block_start)
        newline = block.rfind(b"\n")
        if newline >= 0:
            return block_start + newline + 1
        position = block_start
    return 0


def _good_end(handle: BinaryIO, size: int) -> tuple[int, bool]:
    """How much of a history file to keep, and whether its last kept line lacks its newline.

    Writes leave two kinds of damage, both at the end: a torn line without
    its newline (the last write was cut short), and, in a file written
    before writes were made whole, a last line that is no record because a
    game was appended onto a torn line. Both are damage; the lines before
    them are not looked at (a hand edit further up is the user's to see,
    and ``replay --check`` names it). A torn tail that is nevertheless a
    whole record (the write stopped just before its newline) is kept and
    only needs its newline.
    """
    end = size
    handle.seek(size - 1)
    if handle.read(1) != b"\n":
        start = _start_of_line_ending_at(handle, size)
        if _is_record_line(handle, start, size):
            return size, True
        end = start
    if end > 0:
        start = _start_of_line_ending_at(handle, end)
        if not _is_record_line(handle, start, end):
            end = start
    return end, False


def damaged_path(path: str | Path) -> Path:
    """Where the damaged tail of a history file is set aside: ``<name>.damaged`` beside it."""
    path = Path(path)
    return path.with_name(path.name + DAMAGED_SUFFIX)


def repair_history_tail(path: str | Path) -> int:
    """Make a history file end on a whole game; the number of bytes set aside.

    The damage is appended to ``damaged_path(path)`` (and flushed to disk)
    before the history is shortened, so nothing is ever deleted, and the
    repair is logged. A missing or empty file needs no repair. ``OSError``
    when the file cannot be read or changed.

    The file is locked while it is looked at (``game.file_lock``): an unfinished
    last line may be a game another copy of the program is writing at this
    moment, not damage. While another writer holds the lock the file is left
    alone (logged); that writer checks the end itself before it appends.
    """
    path = Path(path)
    try:
        # Without waiting: a pipe of that name would block a plain open until
        # somebody wrote to it. Only a regular file is a history to repair.
        descriptor = os.open(path, os.O_RDWR | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return 0
    try:
        regular = stat.S_ISREG(os.fstat(descriptor).st_mode)
    except OSError:
        os.close(descriptor)
        raise
    if not regular:
        os.close(descriptor)
        log.warning("%s: not a regular file, so no hand history; left alone", path)
        return 0
    handle = os.fdopen(descriptor, "r+b")
    with handle:
        if not file_lock.lock(handle, file_lock.BRIEF_WAIT_SECONDS):
            log.info("%s: another Trick Table run is writing it; its end is checked later", path)
            return 0
        try:
            return _repair_open_tail(path, handle)
        finally:
            file_lock.unlock(handle)


def _repair_open_tail(path: Path, handle: BinaryIO) -> int:
    """``repair_history_tail`` on a file open for reading and writing, its lock held."""
    size = handle.seek(0, os.SEEK_END)
    if size == 0:
        return 0
    keep, needs_newline = _good_end(handle, size)
    if needs_newline:
        handle.seek(size)
        handle.write(b"\n")
        _flush_to_disk(handle)
        log.warning("%s: the last game was written without its line end; added it", path)
        return 0
    if keep == size:
        return 0
    aside = damaged_path(path)
    with open(aside, "ab") as damaged:
        _copy_span(handle, keep, size, damaged)
        _flush_to_disk(damaged)
    handle.truncate(keep)
    _flush_to_disk(handle)
    log.warning("%s: set aside %d bytes of an incomplete or damaged record at its end into %s",
                path, size - keep, aside.name)
    return size - keep


def _copy_span(source: BinaryIO, start: int, end: int, target: BinaryIO) -> None:
    """Bytes ``start`` to ``end`` of ``source`` appended to ``target`` a block at a time (a torn
    tail may be hundreds of megabytes), ended with a newline if they lack one."""
    source.seek(start)
    position, last = start, b"\n"
    while position < end:
        block = source.read(min(_SCAN_BLOCK, end - position))
        if not block:
            break
        target.write(block)
        position += len(block)
        last = block[-1:]
    if last != b"\n":
        target.write(b"\n")


def repair_history_folder(folder: str | Path) -> list[Path]:
    """``repair_history_tail`` on each history file (``*.jsonl``) in ``folder``; those it set damage aside from.

    Run at start-up. A file that cannot be repaired (no permission, say) is
    logged and left for the next write to report; a missing folder has
    nothing to repair.
    """
    repaired: list[Path] = []
    try:
        files = sorted(Path(folder).glob("*.jsonl"))
    except OSError:
        return repaired
    for path in files:
        try:
            if repair_history_tail(path):
                repaired.append(path)
        except OSError as exc:
            log.warning("%s: could not check the end of the history: %s", path, exc.strerror or exc)
    return repaired


def _flush_to_disk(handle: BinaryIO) -> None:
    handle.flush()
    # A device or a pipe (``--history /dev/null``, the usual way to discard
    # output) has no copy on a disk to flush, and refuses fsync (EINVAL).
    if stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
        os.fsync(handle.fileno())


def _write_whole(handle: BinaryIO, data: bytes) -> None:
    """All of ``data``: an unbuffered write may take only part of it at a time."""
    view = memoryview(data)
    while view:
        written = handle.write(view)
        if not written:
            raise OSError(errno.EIO, "the file accepted no data")
        view = view[written:]


class HistoryWriter:
    """Appends whole games to one history file, each game a line.

    ``replace=True`` starts the file afresh (``simulate --history``);
    otherwise the games are added to what is there, after
    ``repair_history_tail``. Each ``append`` writes the game in one piece
    and hands it to the operating system at once, so a killed program loses
    at most the game it was writing; ``sync_seconds`` is how often the file
    is also flushed to the disk itself (0: after every game; a power cut
    then loses nothing finished). A failed append (``OSError``, such as a
    full disk) cuts the file back to where the game began and the writer
    stays usable. Opening does not create missing folders: ``OSError``.

    Several writers of one file take turns (``game.file_lock``). An appending
    writer locks the file for each game: it waits for the lock, checks the
    end of the file again if another writer added to it meanwhile (one killed
    mid-game leaves a torn line to set aside), writes its game whole and lets
    go. A replacing writer holds the lock from before it empties the file
    until it is closed, so a second writer that would replace the same file
    is refused (``FileBusyError``) instead of emptying the first one's games,
    and an appending one waits its turn or gives up with that error.
    """

    def __init__(self, path: str | Path, *, replace: bool = False, sync_seconds: float = 0.0) -> None:
        self.path = Path(path)
        self.games = 0
        self._sync_seconds = sync_seconds
        self._unsynced = False
        self._last_sync = time.monotonic()
        self._holds_lock = replace
        new_file = replace or not self.path.exists()
        if not replace:
            repair_history_tail(self.path)
        # Unbuffered: every write goes straight to the operating system, so
        # nothing finished waits in this process's memory when it is killed.
        # Opened to append (never emptied by opening: the lock comes first) and to
        # read, so the end of the file can be checked under the lock.
        self._handle: BinaryIO = open(self.path, "a+b", buffering=0)
        if replace:
            self._start_afresh()
        # Where this writer's last game ended: a file of another size has had
        # games added by another writer since. An appending writer has written
        # nothing yet: its first game checks the end under the lock.
        self._end = os.fstat(self._handle.fileno()).st_size if replace else -1
        if new_file:
            fsync_folder(self.path.parent)

    def _start_afresh(self) -> None:
        """Take the lock for good, then empty the file (``FileBusyError`` if another writer has it)."""
        if not file_lock.lock(self._handle, file_lock.BRIEF_WAIT_SECONDS):
            self._handle.close()
            raise file_lock.FileBusyError(self.path)
        try:
            # A device (/dev/null, a pipe) cannot be emptied, nor needs to be.
            if stat.S_ISREG(os.fstat(self._handle.fileno()).st_mode):
                self._handle.truncate(0)
        except BaseException:
            file_lock.unlock(self._handle)
            self._handle.close()
            raise

    def __enter__(self) -> HistoryWriter:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def append(self, record: dict[str, Any], once: bool = False) -> bool:
        """Add one game to the file (``OSError`` if it could not be written whole;
        ``FileBusyError`` if another writer kept the file locked too long).

        ``once``: a game the file already holds is not added again (see
        ``holds_line``); False when it was skipped, logged."""
        data = encode_record(record)
        if self._holds_lock:
            written = self._append_locked(data, once)
        else:
            with file_lock.locked(self._handle, self.path):
                written = self._append_locked(data, once)
        if written:
            self.games += 1
        else:
            log.warning("%s already holds %s game %s (the same game, deal for deal): not recorded again",
                        self.path, record.get("game"), record.get("seed"))
        return written

    def _append_locked(self, data: bytes, once: bool = False) -> bool:
        if once and holds_line(self._handle, data):
            return False
        self._append_bytes(data)
        return True

    def _append_bytes(self, data: bytes) -> None:
        start = os.fstat(self._handle.fileno()).st_size
        if start != self._end:
            # Another writer added to the file since this one last wrote: if it was
            # cut short mid-game, its torn line goes aside before this game follows it.
            _repair_open_tail(self.path, self._handle)
            start = os.fstat(self._handle.fileno()).st_size
        try:
            _write_whole(self._handle, data)
            self._unsynced = True
            if time.monotonic() - self._last_sync >= self._sync_seconds:
                self.sync()
        except OSError:
            self._cut_back(start)
            self._end = start
            raise
        self._end = start + len(data)

    def sync(self) -> None:
        """Flush what was appended to the disk itself."""
        if self._unsynced:
            _flush_to_disk(self._handle)
            self._unsynced = False
        self._last_sync = time.monotonic()

    def close(self) -> None:
        if self._handle.closed:
            return
        try:
            self.sync()
        finally:
            if self._holds_lock:
                file_lock.unlock(self._handle)
            self._handle.close()

    def _cut_back(self, size: int) -> None:
        # Best effort: if even this fails, the torn line is set aside by
        # repair_history_tail the next time the file is opened.
        try:
            self._handle.truncate(size)
            _flush_to_disk(self._handle)
        except OSError:
            log.warning("%s: could not remove a partly written game; it is set aside on the next start",
                        self.path)


# How much of a history file is read at a time when looking for a game in it.
_SCAN_CHUNK = 1 << 20


def holds_line(handle: BinaryIO, line: bytes) -> bool:
    """Whether the open file holds ``line`` (a game's line, newline included) as one of its lines.

    A game's identity is its whole record: the seed and rules with every card
    dealt and played, every bid and score, written the same way byte for byte
    each time (``encode_record``), so the very game the window replays from a
    save that outlived its ending matches the line it wrote then, while two
    games that differ in anything at all never match. The file is read in
    chunks and a line longer than ``line`` is passed over unread, so memory
    stays flat whatever the file holds."""
    size = os.fstat(handle.fileno()).st_size
    position = 0
    current = b""
    too_long = False
    while position < size:
        handle.seek(position)  # an appending writer's writes go to the end wherever this reads
        chunk = handle.read(min(_SCAN_CHUNK, size - position))
        if not chunk:
            break
        position += len(chunk)
        start = 0
        while start < len(chunk):
            newline = chunk.find(b"\n", start)
            piece = chunk[start:] if newline < 0 else chunk[start:newline + 1]
            start += len(piece)
            if not too_long:
                current += piece
                too_long = len(current) > len(line)
            if newline >= 0:
                if not too_long and current == line:
                    return True
                current, too_long = b"", False
    return False


def write_history(path: str | Path, records: Iterable[dict[str, Any]], append: bool = False) -> None:
    """Write games as JSON Lines (one compact, key-ordered line per game).

    ``append=True`` adds them to the file (see ``HistoryWriter``; every game
    is on the disk before this returns); otherwise the file is replaced
    atomically, so readers see the old file or the new one.
    """
    if append:
        with HistoryWriter(path) as writer:
            for record in records:
                writer.append(record)
    else:
        atomic_write_bytes(Path(path), b"".join(encode_record(record) for record in records))


def read_history(path: str | Path,
                 on_damage: Callable[[HistoryError], None] | None = None) -> Iterator[dict[str, Any]]:
    """Yield each game of a history file; a bad line raises ``HistoryError``.

    With ``on_damage``, a bad line is handed to it instead and reading goes
    on with the next line, so one damaged game does not hide the games after
    it (``replay --check`` reports them all). A file that cannot be opened
    always raises.
    """
    for placed in read_history_from(path, on_damage=on_damage):
        yield placed.record


class PlacedRecord(NamedTuple):
    """One game read from a history file and where its line is: ``line`` is its
    line number (from 1) and ``end`` the byte offset just after its line."""

    record: dict[str, Any]
    line: int
    end: int


def read_history_from(path: str | Path, offset: int = 0, first_line: int = 1,
                      on_damage: Callable[[HistoryError], None] | None = None,
                      without_cards: bool = False, end: int | None = None) -> Iterator[PlacedRecord]:
    """Yield each game of a history file from byte ``offset`` on, with where its line ends.

    ``offset`` must be the start of a line (0, or just after a newline) and
    ``first_line`` the number of that line, so that a damaged line is named
    as ``read_history`` would name it; ``on_damage`` works as there (the
    error's ``line`` and ``end`` say which line it was and where it ends). Because
    games are only ever appended, a reader that kept the ``end`` of the last
    game it read (``game.stats``' cache) can later read just the games added
    since. ``read_history`` is this function from the start of the file.

    Lines are read with a cap (``game.line_reader``): a line longer than any
    game is damage, read past without being held, so no file, however long
    or without newlines, costs more memory than one game. A device such as
    ``/dev/zero``, which never ends, is refused as a file that cannot be read.

    ``without_cards``: every deal's ``hands`` and ``tricks`` come back
    empty. The cards dealt and played are four fifths of a history's bytes,
    and a reader that needs only the bids, contracts and scores (the
    statistics) decodes several times faster without them.

    ``end``: only the lines that start before this byte offset are read (a
    span of the file, as ``game.stats_spans`` reads one per process).
    """
    try:
        handle = open_lines_file(path)
    except OSError as exc:
        # The operating system's own words, after the sentence that introduces them.
        reason = exc.strerror or str(exc)
        raise HistoryError(located(str(path), "", Problem("history.unreadable", {"reason": reason}))) from None
    with handle:
        if offset:
            handle.seek(offset)
        position = offset
        for line in capped_lines(handle, offset, first_line):
            if end is not None and position >= end:
                return
            position = line.end
            try:
                if line.raw is None:
                    raise _line_error(path, line.number, "history.too_long", limit=line_reader.MAX_LINE_BYTES // (1024 * 1024))
                record = _parse_line(path, line.number, _without_cards(line.raw) if without_cards else line.raw)
            except HistoryError as damage:
                if on_damage is None:
                    raise
                damage.line, damage.end = line.number, (line.end if line.complete else None)
                on_damage(damage)
                continue
            if record is not None:
                yield PlacedRecord(record, line.number, line.end)


# The lists ``_without_cards`` empties, each with the mark that ends it as
# ``encode_record`` writes it. These lists hold only card codes, seats and
# fixed keys, never text a player wrote, so the first such mark after the
# key is the list's end: a deal's hands are lists of card codes (closed by
# the first "]]"), its tricks close with the last trick's winner. The tricks
# are emptied first: they are the bulk, and the hands are then sought in what
# is left.
_CARD_LISTS = (
    (b'"tricks":[', re.compile(rb'"winner":-?\d+\}\]')),
    (b'"hands":[', re.compile(rb"\]\]")),
)


def _without_cards(raw: bytes) -> bytes:
    """``raw`` (one game's line) with each deal's ``hands`` and ``tricks`` emptied.

    Only the compact form this program writes is recognised; a line written
    otherwise (by hand, with spaces) is returned unchanged and decoded whole,
    so the result is the same game either way, but for the cards."""
    for key, end_mark in _CARD_LISTS:
        raw = _emptied(raw, key, end_mark)
    return raw


def _emptied(raw: bytes, key: bytes, end_mark: re.Pattern[bytes]) -> bytes:
    """``raw`` with every list that follows ``key`` emptied (see ``_without_cards``);
    ``raw`` unchanged when a list's end cannot be found."""
    parts: list[bytes] = []
    position = 0
    while True:
        start = raw.find(key, position)
        if start < 0:
            parts.append(raw[position:])
            return b"".join(parts)
        body = start + len(key)
        if raw[body:body + 1] == b"]":          # already empty (a redeal's tricks)
            parts.append(raw[position:body + 1])
            position = body + 1
            continue
        end = end_mark.search(raw, body)
        if end is None:
            return raw
        parts.append(raw[position:body])
        parts.append(b"]")
        position = end.end()


class _DuplicateKey(ValueError):
    """A JSON object that gives one key twice (``json`` would silently keep the last)."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _refuse_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``json``'s ``object_pairs_hook`` for a strict reading: the object, or ``_DuplicateKey``."""
    found = dict(pairs)
    if len(found) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKey(key)
            seen.add(key)
    return found


def _parse_line(path: str | Path, number: int, raw: bytes, strict: bool = False) -> dict[str, Any] | None:
    """The game on one line of a file (None for a blank line); ``HistoryError`` naming the line.

    ``strict`` (``replay --check``) also refuses a key given twice in one object: which
    of the two the game meant cannot be told. Other readers do without the check,
    which would make reading the statistics several times slower."""
    # Decoded line by line so a damaged file names its bad line instead of crashing.
    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise _line_error(path, number, "history.not_utf8") from None
    if not line.strip():
        return None
    try:
        record = json.loads(line, object_pairs_hook=_refuse_duplicate_keys) if strict else json.loads(line)
    except _DuplicateKey as exc:
        raise _line_error(path, number, "history.duplicate_key", entry=short_repr(exc.key)) from None
    except json.JSONDecodeError as exc:
        if not line.endswith("\n"):
            # Only the last line can lack its newline: a write that was cut short.
            raise _line_error(path, number, "history.incomplete") from None
        # json's own words ("Expecting value") are English: only an English sentence shows them.
        raise _line_error(path, number, "history.not_json", detail=exc.msg) from None
    except RecursionError:
        raise _line_error(path, number, "history.too_deep") from None
    except ValueError:
        # JSON itself has no limit, but Python refuses to read a number of
        # more than 4,300 digits; no field of a history holds one.
        raise _line_error(path, number, "history.long_number") from None
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise _line_error(path, number, "history.foreign")
    version = record.get("version")
    # ``type(...) is int``: JSON's true and 1.0 are equal to 1 in Python, but no version.
    if type(version) is not int or version != VERSION:
        raise _line_error(path, number, "history.version", version=short_repr(version), supported=VERSION)
    _check_names(path, number, record.get("players"))
    return record


def _check_names(path: str | Path, number: int, players: Any) -> None:
    """A name no reader could show or write back (NUL, half a surrogate pair: ``game.names``)
    refuses the line here, before the statistics or the replay viewer meet it."""
    if not isinstance(players, list):
        return  # the shape check says what is wrong with it
    for seat, player in enumerate(players):
        name = player.get("name") if isinstance(player, dict) else None
        bad = unkept_character(name) if isinstance(name, str) else None
        if bad is not None:
            raise _line_error(path, number, "history.bad_name", seat=seat + 1, character=bad)


def parse_history_line(path: str | Path, number: int, raw: bytes, strict: bool = False) -> dict[str, Any] | None:
    """The game on line ``number`` of ``path`` given its bytes ``raw`` (None for a blank line);
    ``HistoryError`` naming the file and line when it is no game of this program's version
    (``strict``: or when an object in it gives a key twice)."""
    return _parse_line(path, number, raw, strict)


# ---------------------------------------------------------------------- replay
# How much of each value a disagreement shows.
DIFFERENCE_CHARS = 400


@dataclass
class Disagreement:
    where: str
    recorded: Any
    engine: Any

    def __str__(self) -> str:
        # The values are the program's own (the engine's and a record it
        # could read), so more of them is shown than of a bad value.
        return (f"{self.where}: recorded {short_repr(self.recorded, DIFFERENCE_CHARS)}, "
                f"engine says {short_repr(self.engine, DIFFERENCE_CHARS)}")


def recorded_actions(game: GameDef, deal: dict[str, Any]) -> list[Action]:
    """The decisions of one recorded deal, in the order the engine takes them."""
    actions = deal_shape(game).decisions(deal)
    for trick in deal["tricks"]:
        actions.extend(play(parse_card(entry["card"])) for entry in trick["plays"])
    return actions


def replay_start(record: dict[str, Any]) -> tuple[GameDef, Any, Any, list[GameEvent]]:
    """The engine at the start of a recorded game: ``(game, rules, state, events)``.

    The deals come from the seed when there is one, else from the recorded
    hands (and the recorded first dealer). ``check_game`` and the replay
    viewer both start here, then apply ``NEXT_DEAL`` and ``recorded_actions``
    deal by deal. A record that cannot start a game raises ``KeyError``,
    ``TypeError``, ``ValueError`` or ``RuleConfigError``.
    """
    # Checked first, so a value of the wrong type, or a field or house rule a
    # newer program wrote, is refused in words instead of misread.
    check_record_shape(record)
    game = get_game(record["game"])
    rules = rules_from_dict(game.name, record["rules"])
    players = len(record["players"])
    seed = record.get("seed")
    seeded = isinstance(seed, int)
    fixed = None if seeded else _fixed_deals(game, record["deals"])
    recorded_dealer = record["first_dealer"]["dealer"]
    state, events = new_game(rules, players, seed if isinstance(seed, int) else 0,
                             first_dealer=None if seeded else recorded_dealer, fixed_deals=fixed)
    return game, rules, state, events


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
        game, rules, state, events = replay_start(record)
    except (KeyError, TypeError, ValueError, RuleConfigError) as exc:
        return [Disagreement("game header", "readable record", f"unreadable: {exc}")]
    seed = record.get("seed")
    seeded = isinstance(seed, int)
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


# Deal fields this program writes that earlier versions of it did not (the
# seat that named trump after a Wizard turn-up, a Boston): a record without
# them is an older one, still read and checked on everything else.
LATER_DEAL_FIELDS = frozenset({"trump_chosen_by", "boston"})


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
            if key in LATER_DEAL_FIELDS and key not in deal:
                continue  # written before the field was: nothing to compare
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
