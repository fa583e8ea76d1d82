"""Bid Whist as the screens show it (see ``game.rules.adapter``): the bidding
and the contract, the kitty lying in the middle, the books a contract needs,
and the card ranking the rules help lays out."""

from __future__ import annotations

from typing import Any, Sequence, cast

from game.rules.actions import ActionKind
from game.rules.adapter import (
    CARDS, LABEL, NOTE, BidShown, ContractTargets, GameAdapter, KittyChoice, Phrase, RankingLine, TableFigures, Word,
)
from game.rules.bidwhist import books_needed, books_to_set, effective_suits, kitty_size, rank_power
from game.rules.cards import BIG_JOKER, LITTLE_JOKER, NO_SUIT, card_of
from game.rules.core import Phase
from game.rules.view import BidWhistView, PlayerView

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
            high_bid=cast("tuple[int, int, int] | None", high_bid), declarer=view.declarer,
            contract_books=view.contract_books if view.contract_mode >= 0 else 0,
            contract_mode=view.contract_mode, direction=view.direction, kitty_lying=lying)

    def contract_targets(self, books: int) -> ContractTargets:
        return ContractTargets(books_needed(books), books_to_set(books))

    def kitty_choice(self, view: PlayerView) -> KittyChoice:
        view = _bid_whist(view)
        # The kitty's size is the rules' (6, or 4 without jokers), less any already laid aside.
        return KittyChoice(tuple(view.kitty), view.kitty_size - view.discard_count, effective_suits(view.trump))

    def took_contract(self, view: PlayerView) -> bool:
        bids = _bid_whist(view).bids
        return bool(bids) and bids[-1][0] == view.seat and bids[-1][1].kind == ActionKind.TAKE

    def help_numbers(self, rules: Any) -> dict[str, int]:
        return {"kitty": kitty_size(rules)}

    def help_ranking(self, deck: Sequence[int], rules: Any, trump: int | None,
                     direction: int) -> list[RankingLine]:
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
                    lines += [RankingLine(LABEL, Phrase(f"help.tier.{name}_trump")), suit_row(way, True),
                              RankingLine(LABEL, Phrase(f"help.tier.{name}_other")), suit_row(way, False)]
                else:
                    lines += [RankingLine(LABEL, Phrase(f"help.tier.{name}")), suit_row(way, False)]
            return lines
        direction = 1 if direction == 1 else 0
        way_word = Word("direction", direction)
        if trump == NO_SUIT:
            contract = Phrase("help.contract.no_trump", {"direction": way_word})
            return [RankingLine(NOTE, Phrase("help.ranking.contract", {"contract": contract})),
                    RankingLine(LABEL, Phrase("help.tier.every_suit")), suit_row(direction, False)]
        suit = Word("suit", trump)
        contract = Phrase("help.contract.trump", {"direction": way_word, "suit": suit})
        return [RankingLine(NOTE, Phrase("help.ranking.contract", {"contract": contract})),
                RankingLine(LABEL, Phrase("help.tier.trump", {"suit": suit})), suit_row(direction, True),
                RankingLine(LABEL, Phrase("help.tier.other")), suit_row(direction, False)]


def _bid_whist(view: PlayerView) -> BidWhistView:
    if not isinstance(view, BidWhistView):
        raise TypeError(f"a Bid Whist view is a BidWhistView, not a {type(view).__name__}")
    return view
