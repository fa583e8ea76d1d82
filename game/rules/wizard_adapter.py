"""Wizard as the screens show it (see ``game.rules.adapter``): rounds with a
turned-up card, every seat's prediction (hidden under a house rule), and the
card ranking the rules help lays out.

Any game whose view is a ``WizardView`` (a round of predictions, a turn-up)
can use this adapter, or a subclass of it for its own title and scores."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from collections.abc import Sequence

from game.rules.actions import ActionKind
from game.rules.adapter import (
    CARDS,
    LABEL,
    NOTE,
    BidShown,
    GameAdapter,
    HandStanding,
    Phrase,
    ProgressLine,
    RankingLine,
    TableFigures,
    Word,
)
from game.rules.cards import JESTER, NO_SUIT, SUIT_OF, WIZARD
from game.rules.core import Phase
from game.rules.view import PlayerView, WizardView
from game.rules.wizard import score_for, strengths

if TYPE_CHECKING:
    from game.rules.registry import GameDef

SUITS = (0, 1, 2, 3)
# The note a seat reads instead of the others' bids, per ``bidding`` house rule.
SECRET_BIDS_NOTES = {"hidden": "bid.secret_hidden", "delayed_reveal": "bid.secret_delayed"}


class WizardAdapter(GameAdapter):
    english_title = "Wizard"
    declares_contract = False

    def table_figures(self, view: PlayerView) -> TableFigures:
        view = _prediction_view(view)
        secret_note = SECRET_BIDS_NOTES.get(self._bidding(view.rules))
        own_secret = secret_note is not None and not any(
            value >= 0 for seat, value in enumerate(view.predictions) if seat != view.seat
        )
        bids = tuple(
            BidShown(seat, None) if action is None else BidShown(seat, action, own_secret and seat == view.seat)
            for seat, action in view.actions
            if action is None or action.kind == ActionKind.PREDICT
        )
        return TableFigures(
            bids=bids,
            round_number=view.round_number,
            total_rounds=view.total_rounds,
            turn_up=view.turn_up,
            shows_turn_up=True,
            trump_pending=view.trump_pending,
            # While trump is being named, the seat to act is the one naming it (the dealer,
            # or the dealer's left under ``wizard_turn_up: first_bidder_chooses``).
            trump_chooser=view.current_player if view.phase == Phase.TRUMP_CHOICE else -1,
            predictions=tuple(view.predictions),
            forbidden_bid=view.forbidden_bid,
            secret_bids_note=secret_note,
        )

    @staticmethod
    def _bidding(rules: Any) -> str:
        # A game played with a WizardView under rules without the ``bidding``
        # house rule bids in the open.
        return str(getattr(rules, "bidding", "open"))

    def progress_lines(self, game: GameDef, standing: HandStanding) -> list[ProgressLine]:
        """The round's bids against its tricks: how many are bid so far, and
        once all have bid, whether the round is over- or underbid."""
        shown = [value for value in standing.figures.predictions if value >= 0]
        tricks = standing.tricks_per_hand
        if not shown or tricks <= 0:
            return []
        bids = sum(shown)
        if len(shown) < standing.players:
            return [ProgressLine(Phrase("table.round_bids_waiting", {"bids": bids, "n": tricks}))]
        if bids > tricks:
            verdict = Phrase("table.round_over", {"n": bids - tricks})
        elif bids < tricks:
            verdict = Phrase("table.round_under", {"n": tricks - bids})
        else:
            verdict = Phrase("table.round_even")
        return [
            ProgressLine(Phrase("table.round_bids", {"bids": bids, "n": tricks})),
            ProgressLine(verdict, highlight=True),
        ]

    def help_numbers(self, rules: Any) -> dict[str, int]:
        return {
            "exact_bonus": score_for(0, 0),
            "per_trick": score_for(1, 1) - score_for(0, 0),
            "per_trick_off": -score_for(0, 1),
        }

    def help_ranking(self, deck: Sequence[int], rules: Any, trump: int | None, direction: int) -> list[RankingLine]:
        """The ranking from ``wizard.strengths``: for a trick led in a plain
        suit, which cards beat which, strongest first."""
        lines: list[RankingLine] = []
        if trump is None:
            trump, trump_label = SUITS[0], Phrase("help.tier.any_trump")
            lines.append(RankingLine(NOTE, Phrase("help.ranking.no_trump_yet")))
        else:
            trump_label = Phrase("help.tier.trump", {"suit": Word("suit", trump)})
            lines.append(
                RankingLine(
                    NOTE,
                    Phrase("help.ranking.round_trump", {"suit": Word("suit", trump)})
                    if trump != NO_SUIT
                    else Phrase("help.ranking.round_no_trump"),
                )
            )
        led = next(suit for suit in SUITS if suit != trump)
        power = strengths(led, trump)
        # Cards that rank alike (the suit led, the trumps...) form one tier; tiers run strongest first.
        tiers: dict[str, list[int]] = {}
        for card in sorted(set(deck)):
            if card == WIZARD:
                tier = "wizard"
            elif card == JESTER:
                tier = "jester"
            elif SUIT_OF[card] == trump:
                tier = "trump"
            elif SUIT_OF[card] == led:
                tier = "led"
            else:
                tier = "off_suit"
            tiers.setdefault(tier, []).append(card)
        order = sorted(tiers, key=lambda name: max(power[card] for card in tiers[name]), reverse=True)
        for number, name in enumerate(order, start=1):
            cards = tiers[name]
            if name in ("trump", "led"):
                label = trump_label if name == "trump" else Phrase("help.tier.led")
                ranked = tuple(sorted(cards, key=lambda card: power[card], reverse=True))
                lines += [
                    RankingLine(LABEL, Phrase("help.tier.numbered", {"n": number, "text": label})),
                    RankingLine(CARDS, Word("cards", ranked)),
                ]
            else:
                lines.append(
                    RankingLine(LABEL, Phrase("help.tier.numbered", {"n": number, "text": Phrase(f"help.tier.{name}")}))
                )
        return lines


def _prediction_view(view: PlayerView) -> WizardView:
    if not isinstance(view, WizardView):
        raise TypeError(f"a prediction game's view is a WizardView, not a {type(view).__name__}")
    return view
