"""The score history a table shows: every hand's scores, typed, with nothing secret."""

from __future__ import annotations

# The score pad and the end screen read a ``ScoreHistory``, never the hand
# history's JSON: ``game.persistence.history_codec.score_history``, the one place
# that knows that shape, builds it from a record. Only the deals' public lines
# are kept, and a deal still being played is a bare row (its number and dealer),
# so a hidden bid or a card never reaches a screen through it.

from dataclasses import dataclass
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
