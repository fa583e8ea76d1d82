"""The hand in words: the table's log of the hand, and the line that sums up its result."""

from __future__ import annotations

# Both are built from the event stream the table already shows, filtered for
# the seat at the screen (``TableSession.hand_events``), so they can never say more
# than the picture may: another seat's hidden bid arrives without its value
# and is logged as "placed a secret bid", the declarer's discards arrive as
# unknown cards and are only counted, and no hand is ever listed.
#
# Every figure in the words is one the rules reported in an event (the books,
# the score change, the trick's winner and plays, the contract); the only
# sums made here are the ones a reader would make from those figures (how many
# books short of the contract a side fell, the books a contract promises).

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from game.rules import GameDef
from game.rules.actions import Action, ActionKind, bid
from game.rules.events import (
    BidMade,
    BidsRevealed,
    BidWhistHandScored,
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
    WizardHandScored,
)
from game.ui import theme
from game.ui.table.animations import contract_words
from game.ui.table.hints import card_words
from game.ui.table.model import bid_label
from game.ui.text import suit_word, t, team_words

Colour = tuple[int, int, int]


@dataclass(frozen=True)
class LogLine:
    """One line of the hand log, with the colour of the side it is about."""

    text: str
    colour: Colour = theme.TEXT


def this_hand(events: Sequence[GameEvent]) -> list[GameEvent]:
    """The events of the hand being played (or just finished): from its deal on."""
    for index in range(len(events) - 1, -1, -1):
        if isinstance(events[index], Dealt):
            return list(events[index:])
    return list(events)


def hand_log(events: Iterable[GameEvent], names: Sequence[str], game_def: GameDef) -> list[LogLine]:
    """The lines of the log for ``events`` (one hand's, filtered for the seat shown)."""
    lines: list[LogLine] = []
    pending_discards: tuple[int, int] | None = None  # (seat, count) of a run of discards
    for event in events:
        if isinstance(event, WizardHandScored):
            lines.extend(_predictions_scored(event, names))
            continue
        if pending_discards is not None and not isinstance(event, Discarded):
            lines.append(_discards_line(names, *pending_discards))
            pending_discards = None
        if isinstance(event, Discarded):
            seat, count = pending_discards or (event.seat, 0)
            pending_discards = (seat, count + 1)
            continue
        line = _line_for(event, names, game_def)
        if line is not None:
            lines.append(line)
    if pending_discards is not None:
        lines.append(_discards_line(names, *pending_discards))
    return lines


def _predictions_scored(event: WizardHandScored, names: Sequence[str]) -> list[LogLine]:
    """One line per player: the bid, the tricks taken and what the round scored for them."""
    return [
        LogLine(
            t(
                "log.prediction_scored",
                name=names[seat],
                bid=event.bids[seat],
                took=event.tricks_won[seat],
                change=f"{event.score_change[seat]:+d}",
            ),
            theme.GOOD if event.score_change[seat] > 0 else theme.BAD,
        )
        for seat in range(len(event.bids))
    ]


def _discards_line(names: Sequence[str], seat: int, count: int) -> LogLine:
    return LogLine(t("log.discarded", name=names[seat], count=count))


def _side_colour(game_def: GameDef, seat: int) -> Colour:
    if game_def.partnerships and seat >= 0:
        return theme.TEAM_COLOURS[game_def.team_of(seat)]
    return theme.TEXT


def _line_for(event: GameEvent, names: Sequence[str], game_def: GameDef) -> LogLine | None:
    if isinstance(event, FirstDealerDrawn):
        return LogLine(t("log.first_dealer", name=names[event.dealer]), theme.TEXT_DIM)
    if isinstance(event, Dealt):
        return LogLine(
            t("log.dealt", deal=t(game_def.text("deal")), n=event.number, name=names[event.dealer]), theme.TEXT_DIM
        )
    if isinstance(event, TrumpTurnedUp):
        if event.card < 0:
            return LogLine(t("log.no_turn_up"))
        if event.trump < 0 and event.chooser < 0:
            # A card that names no trump and lets nobody choose one (a Jester, or a Wizard
            # under the house rule wizard_turn_up: no_trump): the round is played without.
            return LogLine(t("log.turn_up_no_trump", card=card_words(event.card)))
        return LogLine(t("log.turn_up", card=card_words(event.card)))
    if isinstance(event, BidMade):
        return LogLine(_bid_words(event, names), _side_colour(game_def, event.seat))
    if isinstance(event, BidsRevealed):
        return LogLine(t("log.bids_revealed"))
    if isinstance(event, Redealt):
        return LogLine(t("log.redeal"))
    if isinstance(event, ContractSet):
        contract = contract_words(event.books, event.mode, event.trump, event.direction)
        return LogLine(
            t("log.contract", name=names[event.declarer], contract=contract), _side_colour(game_def, event.declarer)
        )
    if isinstance(event, TrumpChosen):
        return LogLine(t("log.trump_chosen", name=names[event.seat], suit=suit_word(event.trump)))
    if isinstance(event, KittyTaken):
        return LogLine(t("log.kitty", name=names[event.seat]), _side_colour(game_def, event.seat))
    if isinstance(event, ClaimMade):
        return LogLine(t("log.claim", name=names[event.seat], n=event.tricks), _side_colour(game_def, event.seat))
    if isinstance(event, TrickWon):
        card = dict(event.plays).get(event.winner, -1)
        return LogLine(
            t("log.trick", name=names[event.winner], n=event.index + 1, card=card_words(card)),
            _side_colour(game_def, event.winner),
        )
    if isinstance(event, BidWhistHandScored):
        result = hand_result(event, names, game_def)
        return LogLine(*result) if result is not None else None
    if isinstance(event, GameOver):
        return LogLine(t("log.game_over"), theme.ACCENT)
    return None  # a card played is told by the trick it ends in


def _bid_words(event: BidMade, names: Sequence[str]) -> str:
    name = names[event.seat]
    action: Action | None = event.action
    if action is None or event.hidden:
        return t("log.bid_placed", name=name)
    if action.kind == ActionKind.PASS:
        return t("log.passed", name=name)
    if action.kind == ActionKind.PREDICT:
        return t("log.bid", name=name, bid=action.value)
    if action.kind == ActionKind.TAKE:
        return t("log.took", name=name, bid=bid_label(bid(action.value, action.mode)))
    return t("log.bid", name=name, bid=bid_label(action))


def hand_result(event: BidWhistHandScored, names: Sequence[str], game_def: GameDef) -> tuple[str, Colour] | None:
    """The finished contract in words with the declaring team's colour: "Ann & Cy made
    4 uptown with 11 books: +5", "Ann & Cy were set by 2: -4", "Boston! Ann & Cy took
    all 13 books: +10" (None for a hand without one)."""
    if event.redeal or event.contract is None or event.declarer < 0:
        return (t("table.result_redeal"), theme.TEXT) if event.redeal else None
    contract = event.contract
    team = game_def.team_of(event.declarer)
    members = game_def.team_members(team, len(names))
    words = team_words([names[seat] for seat in members])
    books = event.books[team]
    change = f"{event.score_change[team]:+d}"
    colour = theme.TEAM_COLOURS[team]
    if event.made and event.boston:
        return t("table.result_boston", team=words, change=change), colour
    if event.made:
        contract_bid = bid_label(bid(contract.books, contract.mode))
        return t("table.result_made", team=words, contract=contract_bid, books=books, change=change), colour
    short = game_def.adapter.contract_targets(contract.books).needed - books
    return t("table.result_set", team=words, short=short, change=change), colour
