"""Bid Whist as the screens show it (see ``game.rules.adapter``): the bidding
and the contract, the kitty lying in the middle, the books a contract needs,
and the card ranking the rules help lays out."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from collections.abc import Sequence

from game.rules.actions import ActionKind
from game.rules.adapter import (
    CARDS,
    LABEL,
    NOTE,
    BidShown,
    ContractTargets,
    GameAdapter,
    HandStanding,
    KittyChoice,
    Phrase,
    ProgressLine,
    RankingLine,
    TableFigures,
    Word,
)
from game.rules.bidwhist import (
    BOOKS_BEFORE_BID,
    TOTAL_BOOKS,
    books_needed,
    books_to_set,
    effective_suits,
    kitty_size,
    rank_power,
)
from game.rules.cards import BIG_JOKER, LITTLE_JOKER, NO_SUIT, card_of
from game.rules.core import Phase
from game.rules.view import BidWhistView, PlayerView

if TYPE_CHECKING:
    from game.rules.registry import GameDef

RANKS = tuple(range(2, 15))


class BidWhistAdapter(GameAdapter):
    english_title = "Bid Whist"
    declares_contract = True

    def table_figures(self, view: PlayerView) -> TableFigures:
        view = _bid_whist(view)
        high_bid = (view.high_bidder, *view.high_bid) if view.high_bid is not None else None
        # Cards of the deal nobody holds, none laid aside and none played lie
        # face down in the kitty; once a hand is over (or thrown in) the centre
        # is cleared. The deal is one card per trick for each seat plus the
        # kitty, whose size the rules give (6, or 4 without the jokers).
        lying = 0
        if view.phase not in (Phase.HAND_OVER, Phase.GAME_OVER):
            dealt = view.tricks_per_hand * view.num_players + view.kitty_size
            played = len(view.played_cards())
            lying = max(0, dealt - sum(view.hand_sizes) - view.discard_count - played)
        return TableFigures(
            bids=tuple(BidShown(seat, action) for seat, action in view.bids),
            high_bid=high_bid,
            declarer=view.declarer,
            contract_books=view.contract_books if view.contract_mode >= 0 else 0,
            contract_mode=view.contract_mode,
            direction=view.direction,
            kitty_lying=lying,
            laid_aside=tuple(view.discards),
        )

    def contract_targets(self, books: int) -> ContractTargets:
        return ContractTargets(books_needed(books), books_to_set(books))

    def contract_bids(self, rules: Any) -> range:
        # A bid names the books beyond the first six, up to all thirteen.
        return range(rules.min_bid, TOTAL_BOOKS - BOOKS_BEFORE_BID + 1)

    def kitty_choice(self, view: PlayerView) -> KittyChoice:
        view = _bid_whist(view)
        # The kitty's size is the rules' (6, or 4 without jokers), less any already laid aside.
        return KittyChoice(tuple(view.kitty), view.kitty_size - view.discard_count, effective_suits(view.trump))

    def took_contract(self, view: PlayerView) -> bool:
        bids = _bid_whist(view).bids
        return bool(bids) and bids[-1][0] == view.seat and bids[-1][1].kind == ActionKind.TAKE

    def progress_lines(self, game: GameDef, standing: HandStanding) -> list[ProgressLine]:
        """The books the declaring side needs and has, and what the defenders
        need to set it; once either side has what it needed, both lines say so
        instead: while the hand is played on, as settled with the books so far
        (more may come); once it is over, how it ended ("went down with 6 books")."""
        figures = standing.figures
        named = figures.contract_mode >= 0 and figures.declarer >= 0 and (standing.trump >= 0 or figures.direction >= 0)
        if not named or not game.partnerships:
            return []
        declarers = game.team_of(figures.declarer)
        targets = self.contract_targets(figures.contract_books)
        teams = sorted(range(game.score_sides(standing.players)), key=lambda team: team != declarers)
        books = [standing.books[team] if team < len(standing.books) else 0 for team in range(len(teams))]
        made = books[declarers] >= targets.needed
        beaten = any(books[team] >= targets.to_set for team in teams if team != declarers)
        over = standing.over
        lines = []
        # The declaring side first, then the defenders.
        for team in teams:
            if team == declarers:
                if made:
                    key = "table.progress_made" if over else "table.progress_made_so_far"
                elif beaten:
                    key = "table.progress_down" if over else "table.progress_cannot_make"
                else:
                    key = "table.progress_declarers"
                need = targets.needed
            else:
                if beaten:
                    key = "table.progress_set" if over else "table.progress_set_so_far"
                elif made:
                    key = "table.progress_not_set" if over else "table.progress_cannot_set"
                else:
                    key = "table.progress_defenders"
                need = targets.to_set
            lines.append(
                ProgressLine(Phrase(key, {"team": Word("side", team), "need": need, "have": books[team]}), side=team)
            )
        return lines

    def help_numbers(self, rules: Any) -> dict[str, int]:
        return {"kitty": kitty_size(rules)}

    def help_ranking(self, deck: Sequence[int], rules: Any, trump: int | None, direction: int) -> list[RankingLine]:
        """The ranking from ``rank_power``: the trump suit and the other suits
        under the contract, or every kind of contract before one is made."""
        jokers = [card for card in (BIG_JOKER, LITTLE_JOKER) if card in deck]

        def suit_row(direction: int, with_jokers: bool) -> RankingLine:
            power = rank_power(direction, rules)
            cards = [card_of(0, rank) for rank in RANKS] + (jokers if with_jokers else [])
            return RankingLine(CARDS, Word("cards", tuple(sorted(cards, key=lambda card: power[card], reverse=True))))

        if trump is None:
            lines = [RankingLine(NOTE, Phrase("help.ranking.general"))]
            for way, name in ((0, "uptown"), (1, "downtown")):
                if jokers:  # the jokers set the trump suit apart from the others
                    lines += [
                        RankingLine(LABEL, Phrase(f"help.tier.{name}_trump")),
                        suit_row(way, True),
                        RankingLine(LABEL, Phrase(f"help.tier.{name}_other")),
                        suit_row(way, False),
                    ]
                else:
                    lines += [RankingLine(LABEL, Phrase(f"help.tier.{name}")), suit_row(way, False)]
            return lines
        direction = 1 if direction == 1 else 0
        way_word = Word("direction", direction)
        if trump == NO_SUIT:
            contract = Phrase("help.contract.no_trump", {"direction": way_word})
            return [
                RankingLine(NOTE, Phrase("help.ranking.contract", {"contract": contract})),
                RankingLine(LABEL, Phrase("help.tier.every_suit")),
                suit_row(direction, False),
            ]
        suit = Word("suit", trump)
        contract = Phrase("help.contract.trump", {"direction": way_word, "suit": suit})
        return [
            RankingLine(NOTE, Phrase("help.ranking.contract", {"contract": contract})),
            RankingLine(LABEL, Phrase("help.tier.trump", {"suit": suit})),
            suit_row(direction, True),
            RankingLine(LABEL, Phrase("help.tier.other")),
            suit_row(direction, False),
        ]


def _bid_whist(view: PlayerView) -> BidWhistView:
    if not isinstance(view, BidWhistView):
        raise TypeError(f"a Bid Whist view is a BidWhistView, not a {type(view).__name__}")
    return view
