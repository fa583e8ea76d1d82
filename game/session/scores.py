"""The score history a table shows: every hand's scores, typed, with nothing secret."""

from __future__ import annotations

# The score pad and the end screen read a ``ScoreHistory``, never the hand
# history's JSON. ``score_history`` builds one from a hand-history record (the
# session's own recorder, or a record read back): only the deals' public lines
# are kept, and a deal still being played is a bare row (its number and dealer),
# so a hidden bid or a card never reaches a screen through it.

from dataclasses import dataclass
from typing import Any
from collections.abc import Mapping


@dataclass(frozen=True)
class ContractLine:
    """A contract game's contract: the books bid, ``mode`` ("uptown", "downtown" or
    "notrump"), the trump suit's letter (None in no trump) and the ranking
    ("uptown" or "downtown")."""

    books: int
    mode: str
    trump: str | None
    direction: str


@dataclass(frozen=True)
class DealScore:
    """One deal as the pad shows it; ``scored`` false while it is played (then only
    ``number`` and ``dealer`` are told)."""

    number: int
    dealer: int | None
    scored: bool = False
    redeal: bool = False
    declarer: int | None = None
    contract: ContractLine | None = None
    taken: bool = False  # the dealer took the contract rather than winning the bidding
    boston: bool = False
    bids: Mapping[int, int] | None = None  # a prediction game's bids per seat
    tricks_won: tuple[int, ...] = ()
    books: tuple[int, ...] = ()
    score_change: tuple[int, ...] = ()
    scores: tuple[int, ...] = ()


@dataclass(frozen=True)
class ScoreHistory:
    """The game's scores so far: its deals, and at the end its final scores and
    winners (teams in a partnership game, seats otherwise)."""

    game: str
    players: int
    human_seats: tuple[int, ...]
    target_score: int | None
    boston_rule: str | None
    deals: tuple[DealScore, ...]
    complete: bool
    final_scores: tuple[int, ...]
    winners: tuple[int, ...]


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


def _deal(deal: Mapping[str, Any], index: int) -> DealScore:
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
        deals=tuple(_deal(deal, index) for index, deal in enumerate(record.get("deals", []))),
        complete=bool(record.get("complete")),
        final_scores=_ints(record.get("final_scores") or []),
        winners=_ints(record.get("winners") or []),
    )
