"""Hints for the human player in words: what the strongest computer player would do now, and why."""

from __future__ import annotations

# The session computes a hint like a computer player's decision, off the frame
# (``game.session.hints``, ``TableSession.request_hint``). Its answer is the
# ``Hint`` of ``game.ai.hints.hint_for``: an action, the text key of a one-line
# reason and that sentence's parameters. Nothing is applied: the hint never
# spends the player's turn.
#
# A discard hint's ``params["cards"]`` lists the whole set the hint player
# would lay aside, as card codes separated by spaces; the table names and marks
# all of them (the action itself is the first card of the set).

from game.rules import ActionKind
from game.rules.actions import bid
from game.rules.cards import BIG_JOKER, JESTER, LITTLE_JOKER, RANK_OF, SUIT_OF, WIZARD, parse_card
from game.rules.errors import ParseError
from game.session.hints import HintLike
from game.ui.table.model import bid_label
from game.ui.text import direction_word, has_text, mode_word, suit_word, t


# ---------------------------------------------------------------------------- words


def card_words(card: int) -> str:
    """A card inside a sentence: "the queen of hearts", "the big joker", "a Wizard"."""
    special = {
        BIG_JOKER: "card.big_joker",
        LITTLE_JOKER: "card.little_joker",
        WIZARD: "card.wizard",
        JESTER: "card.jester",
    }
    if card in special:
        return t(special[card])
    return t("card.of", rank=t(f"card.rank.{RANK_OF[card]}"), suit=suit_word(SUIT_OF[card]))


def discard_cards(hint: HintLike) -> list[int]:
    """The whole set a discard hint lays aside: ``params["cards"]`` (card codes
    separated by spaces) when the hint gives it, else the one card of its action."""
    codes = hint.params.get("cards")
    cards: list[int] = []
    if isinstance(codes, str):
        try:
            cards = [parse_card(code) for code in codes.split()]
        except ParseError:
            cards = []
    if hint.action.value not in cards:
        cards.insert(0, hint.action.value)
    return cards


def suggested_cards(hint: HintLike) -> set[int]:
    """The cards a hint points at: the card to play, or the cards to discard."""
    kind = hint.action.kind
    if kind == ActionKind.PLAY:
        return {hint.action.value}
    if kind == ActionKind.DISCARD:
        return set(discard_cards(hint))
    return set()


def action_words(hint: HintLike) -> str:
    """The suggested action as an instruction: "Play the ace of spades", "Bid 4 uptown"."""
    action = hint.action
    kind = action.kind
    if kind == ActionKind.PLAY:
        return t("hint.do.play", card=card_words(action.value))
    if kind == ActionKind.DISCARD:
        cards = discard_cards(hint)
        return t("hint.do.discard", cards=", ".join(card_words(card) for card in cards))
    if kind == ActionKind.PASS:
        return t("hint.do.pass")
    if kind == ActionKind.BID:
        return t("hint.do.bid", bid=bid_label(action))
    if kind == ActionKind.TAKE:
        return t("hint.do.take", bid=bid_label(bid(action.value, action.mode)))
    if kind == ActionKind.PREDICT:
        return t("hint.do.predict", n=action.value)
    if kind == ActionKind.TRUMP:
        return t("hint.do.trump", suit=suit_word(action.value))
    if kind == ActionKind.DIRECTION:
        return t("hint.do.direction", direction=direction_word(action.value))
    return t("hint.failed")


def reason_words(hint: HintLike) -> str | None:
    """The hint's one-line reason, or None when this interface cannot word it."""
    if not hint.reason_key or not has_text(hint.reason_key):
        return None
    # Game values travel as numbers (``game.ai.hints``); the sentence names them.
    params: dict[str, object] = dict(hint.params)
    suit = params.get("suit")
    if isinstance(suit, int) and 0 <= suit < 4:
        params["suit"] = suit_word(suit)
    mode = params.get("mode")
    if isinstance(mode, int) and has_text(f"mode.{mode}"):
        params["mode"] = mode_word(mode)
    direction = params.get("direction")
    if isinstance(direction, int) and direction in (0, 1):
        params["direction"] = direction_word(direction)
    try:
        return t(hint.reason_key, **params)
    except (KeyError, IndexError, ValueError):
        return None


# The reasons of these decisions begin by naming the choice ("Bid 4 uptown: your
# side expects about 10 books."), so the reason alone says it all; a card's or a
# discard's reason does not name the card, so the instruction comes first.
SELF_NAMING_KINDS = frozenset(
    {ActionKind.PASS, ActionKind.BID, ActionKind.PREDICT, ActionKind.TRUMP, ActionKind.DIRECTION}
)


# ``hint_text`` words a hint for the table ("Play the queen of hearts. Take
# the trick: you still need 1."), and ``suggested_cards`` lists the cards the
# table marks in the hand or the kitty dialog. ``think_budget`` is the search
# budget the settings' "Computer thinking time" stands for.
def hint_text(hint: HintLike) -> str:
    """The whole hint as the table shows it: the action and the reason, in one line."""
    reason = reason_words(hint)
    if reason is None:
        return t("hint.alone", action=action_words(hint))
    if hint.action.kind in SELF_NAMING_KINDS:
        return reason
    return t("hint.with_reason", action=action_words(hint), reason=reason)
