"""Hints: what the hard player would do now, and why, in words a player understands."""

from __future__ import annotations

# ``hint_for(game_def, view, rng, budget)`` asks the game's hint player (its
# hard player, for the built-in games) for the seat's decision and returns a
# ``Hint``: the action, a text key for a one-line reason and the key's
# parameters. The reason is chosen after the
# fact, from the position and the chosen action (would the card take the trick
# now, does the seat still need tricks, is it leading trumps), so it always
# describes the move that is shown. Parameters are ints only (counts, suits as
# ``Suit`` values, bid modes, directions), never English; the UI turns a key
# and its parameters into a sentence from its string catalog.

import random
from dataclasses import dataclass, field

from game.ai import ComputerPlayer, Decision, make_player
from game.ai.budget import SearchBudget
from game.rules.actions import Action, ActionKind
from game.rules.cards import BIG_JOKER, LITTLE_JOKER, card_code
from game.rules.hidden import HiddenInfoError
from game.rules.registry import GameDef, game_of
from game.rules.search import HiddenSampler, state_from_view
from game.rules.view import PlayerView

__all__ = ["REASON_KEYS", "Hint", "hint_for"]

# ``REASON_KEYS`` lists the keys, so the UI's catalog can be checked against it.
# The player that answers is one of the game's own computer levels, the one
# the registry names for hints (``GameDef.hint_player_level``); a player that
# searches explains itself with what its search found (``decide``), any other
# is asked for its action alone. What a contract needs comes from the game's
# adapter (``GameDef.adapter``), never from one game's rules module.
# Every key, its parameters and the intended English:
#
# =========================  =========================  ==========================================================
# key                        params                     English
# =========================  =========================  ==========================================================
# ``hint.bid``               bid, n                     "Bid {bid}: you expect about {n} tricks."
# ``hint.bid_books``         books, mode, n             "Bid {books} {mode}: your side expects about {n} books."
#                                                       (mode 0 uptown, 1 downtown, 2 no trump; n counts the
#                                                       side's books of 13, the kitty book included)
# ``hint.bid_books_contest`` books, mode                "Bid {books} {mode}: it scores better than leaving
#                                                       the contract to the others." (the bid is best
#                                                       although the side expects fewer books than it promises)
# ``hint.take_books``        books, mode, n             "Take it at {books} {mode}: your side expects about
#                                                       {n} books." (a dealer's take, as ``hint.bid_books``)
# ``hint.take_books_contest`` books, mode               "Take it at {books} {mode}: it scores better than
#                                                       leaving the contract to the others."
# ``hint.pass``              (none)                     "Pass: your hand does not support a higher bid."
# ``hint.trump``             suit, n                    "Choose {suit}: your longest suit ({n} cards)."
#                                                       (no other suit of the hand is as long)
# ``hint.trump_tied``        suit, n                    "Choose {suit}: of your longest suits ({n} cards
#                                                       each), the strongest." (strength as the rules
#                                                       rank the cards for the contract)
# ``hint.trump_even``        suit, n                    "Choose {suit}: one of your longest suits ({n} cards
#                                                       each), and your hand scores best with it."
# ``hint.trump_fit``         suit                       "Choose {suit}: not your longest suit, but your hand
#                                                       scores best with it."
# ``hint.trump_any``         suit                       "Choose {suit}: you hold no suit cards, so no suit is
#                                                       better than another."
# ``hint.direction``         direction                  "Play {direction}: your cards are strongest that way."
#                                                       (direction 0 uptown, 1 downtown)
# ``hint.discard``           cards                      "Lay aside short suits and keep your trumps."
# ``hint.discard_notrump``   cards                      "Lay aside the jokers and your weakest cards."
#                                                       (cards: the whole set to lay aside, as card
#                                                       codes separated by spaces, e.g. "2C 3C BJ")
# ``hint.discard_weakest``   cards                      "Lay aside your weakest cards." (no trump, and no
#                                                       joker among the cards laid aside)
# ``hint.take_trick``        n                          "Take the trick: you still need {n}."
#                                                       (in a partnership game, the side needs them)
# ``hint.cash``              (none)                     "Take the trick while it is yours to take."
# ``hint.duck``              n                          "Stay under: you already have all the tricks you bid ({n})."
# ``hint.least_harm``        (none)                     "Every card could take this trick: this one costs least."
# ``hint.spoil``             (none)                     "Your bid is out of reach: spoil the others' bids."
# ``hint.follow_low``        (none)                     "Play low: keep your strong cards for later."
#                                                       (the card is the lowest of the legal cards of its
#                                                       suit, as the rules rank them, and not the only one)
# ``hint.follow_low_downtown`` (none)                   "Play low (downtown, a king is lower than a 2): keep
#                                                       your strong cards for later."
# ``hint.let_go``            (none)                     "Let this trick go: keep your best cards for the
#                                                       tricks to come." (the card does not take the
#                                                       trick and is not the lowest of its suit)
# ``hint.partner_winning``   (none)                     "Your partner has this trick: play low."
#                                                       (uptown, the card the lowest of its suit)
# ``hint.partner_leave``     (none)                     "Your partner has this trick: leave it to them."
# ``hint.lead_trump``        (none)                     "Draw trumps: take the opponents' trumps away."
# ``hint.continue``          (none)                     "Go on to the next deal."
# =========================  =========================  ==========================================================
REASON_KEYS = (
    "hint.bid",
    "hint.bid_books",
    "hint.bid_books_contest",
    "hint.take_books",
    "hint.take_books_contest",
    "hint.pass",
    "hint.trump",
    "hint.trump_tied",
    "hint.trump_even",
    "hint.trump_fit",
    "hint.trump_any",
    "hint.direction",
    "hint.discard",
    "hint.discard_notrump",
    "hint.discard_weakest",
    "hint.take_trick",
    "hint.cash",
    "hint.duck",
    "hint.least_harm",
    "hint.spoil",
    "hint.follow_low",
    "hint.follow_low_downtown",
    "hint.let_go",
    "hint.partner_winning",
    "hint.partner_leave",
    "hint.lead_trump",
    "hint.continue",
)


@dataclass(frozen=True)
class Hint:
    action: Action
    reason_key: str
    params: dict[str, int | str] = field(default_factory=dict)


def hint_for(game_def: GameDef, view: PlayerView, rng: random.Random, budget: SearchBudget | None = None) -> Hint:
    """What the game's hint player would do in ``view`` (the seat to act), with a
    reason; ``ValueError`` when the game registers no level to give hints."""
    player = make_player(game_def, game_def.hint_player_level(), budget)
    decide = getattr(player, "decide", None)
    decision: Decision = decide(view, rng) if callable(decide) else Decision(player.choose(view, rng), None)
    laid_aside = _discard_set(player, view, decision) if decision.action.kind == ActionKind.DISCARD else None
    key, params = _reason(game_def, view, decision, laid_aside)
    return Hint(decision.action, key, params)


def _discard_set(player: ComputerPlayer | None, view: PlayerView, decision: Decision) -> tuple[int, ...]:
    """The whole set the player would lay aside: the set its search chose, or
    (when it did not search) the planned set that starts with its card."""
    if decision.search is not None and isinstance(decision.search.best, tuple):
        return tuple(decision.search.best)
    first = decision.action.value
    plans = getattr(player, "discard_plans", None)
    return next((s for s in plans(view) if s[0] == first), (first,)) if callable(plans) else (first,)


def _reason(
    game_def: GameDef, view: PlayerView, decision: Decision, laid_aside: tuple[int, ...] | None = None
) -> tuple[str, dict[str, int | str]]:
    action = decision.action
    kind = action.kind
    if kind == ActionKind.PREDICT:
        expected = _expected_measure(decision, action)
        n = action.value if expected is None else round(expected)
        return "hint.bid", {"bid": action.value, "n": n}
    if kind == ActionKind.PASS:
        return "hint.pass", {}
    if kind == ActionKind.BID or kind == ActionKind.TAKE:  # a dealer's take promises what a bid does
        expected = _expected_measure(decision, action)
        needed = game_def.adapter.contract_targets(action.value).needed
        n = needed if expected is None else round(expected)
        prefix = "hint.bid" if kind == ActionKind.BID else "hint.take"
        if n < needed:
            # The search found the bid best even though the side may fall short
            # (it beats letting the other side have the contract): say that,
            # rather than quote a count below what the bid promises.
            return prefix + "_books_contest", {"books": action.value, "mode": action.mode}
        return prefix + "_books", {"books": action.value, "mode": action.mode, "n": n}
    if kind == ActionKind.TRUMP:
        return _trump_reason(game_def, view, action.value)
    if kind == ActionKind.DIRECTION:
        return "hint.direction", {"direction": action.value}
    if kind == ActionKind.DISCARD:
        if laid_aside is None:  # the reason alone was asked for: the set starts with the card
            laid_aside = _discard_set(None, view, decision)
        if view.trump >= 0:
            key = "hint.discard"
        else:  # no trump: jokers are worth nothing there, if any are to go
            key = (
                "hint.discard_notrump"
                if any(card in (BIG_JOKER, LITTLE_JOKER) for card in laid_aside)
                else "hint.discard_weakest"
            )
        return key, {"cards": " ".join(card_code(card) for card in laid_aside)}
    if kind == ActionKind.PLAY:
        if game_def.partnerships:
            return _side_play_reason(game_def, view, action)
        return _own_bid_play_reason(game_def, view, action)
    return "hint.continue", {}


def _expected_measure(decision: Decision, action: Action) -> float | None:
    """The mean tricks (or the side's books) the search saw after ``action``."""
    if decision.search is None:
        return None
    for result in decision.search.candidates:
        if result.candidate == action and result.simulations:
            return result.mean_measure
    return None


def _trump_reason(game_def: GameDef, view: PlayerView, suit: int) -> tuple[str, dict[str, int | str]]:
    """Why ``suit`` as trump, told from the hand as it is: "longest" counts
    cards (jokers and Wizards, which belong to no suit yet, not counted), and
    only among suits of equal length does strength decide."""
    counts = _suit_counts(view)
    if not counts:  # only Wizards and Jesters: no suit is any better
        return "hint.trump_any", {"suit": suit}
    held, longest = counts.get(suit, 0), max(counts.values())
    if held < longest:
        return "hint.trump_fit", {"suit": suit}
    rivals = [other for other, count in counts.items() if count == longest and other != suit]
    if not rivals:
        return "hint.trump", {"suit": suit, "n": held}
    strongest = min(counts, key=lambda s: (-counts[s], _suit_strength(game_def, view, s), s))
    return ("hint.trump_tied" if strongest == suit else "hint.trump_even"), {"suit": suit, "n": held}


def _direction(view: PlayerView) -> int:
    """The ranking in force (0 uptown, 1 downtown): the view's, or before it is
    set the bid's (a suit bid names it), else uptown (a game without contracts
    has only that)."""
    figures = game_of(view).adapter.table_figures(view)
    direction = figures.direction
    if direction < 0:
        mode = figures.contract_mode
        direction = mode if mode in (0, 1) else 0
    return direction


def _suit_strength(game_def: GameDef, view: PlayerView, suit: int) -> tuple[int, ...]:
    """The places of the hand's ``suit`` cards in the suit, best first, as the
    rules order a hand for the contract (0 is the suit's top card): a smaller
    tuple is a stronger holding."""
    model = game_of(view).hidden_info
    whole_suit = [
        card
        for card in dict.fromkeys(game_def.deck_for(view.rules))
        if model is not None and model.card_suit(card, -1) == suit
    ]
    place = {
        card: index for index, card in enumerate(game_def.hand_order(whole_suit, -1, _direction(view), view.rules))
    }
    return tuple(sorted(place[card] for card in view.hand if card in place))


def _is_low(game_def: GameDef, view: PlayerView, card: int) -> bool:
    """Whether ``card`` is the lowest, as the rules rank the cards for the
    contract (downtown a king is below a 2), of the legal cards of its suit,
    with at least one higher one beside it."""
    suit = _card_suit(view, card)
    same_suit = [a.value for a in view.legal_actions if a.kind == ActionKind.PLAY and _card_suit(view, a.value) == suit]
    ordered = game_def.hand_order(same_suit, view.trump, _direction(view), view.rules)
    return len(ordered) > 1 and ordered[-1] == card


def _low_reason(game_def: GameDef, view: PlayerView, card: int) -> str:
    """A card that lets the trick go: "play low" only when it is low."""
    if not _is_low(game_def, view, card):
        return "hint.let_go"
    return "hint.follow_low_downtown" if _direction(view) == 1 else "hint.follow_low"


def _suit_counts(view: PlayerView) -> dict[int, int]:
    """Cards held per suit, as the rules assign suits with no trump named."""
    model = game_of(view).hidden_info
    counts: dict[int, int] = {}
    for card in view.hand:
        suit = model.card_suit(card, -1) if model is not None else -1
        if suit >= 0:
            counts[suit] = counts.get(suit, 0) + 1
    return counts


def _own_bid_play_reason(game_def: GameDef, view: PlayerView, action: Action) -> tuple[str, dict[str, int | str]]:
    """Why a card in a game where each seat plays to its own bid."""
    bid = _own_bid(view)
    won = view.tricks_won[view.seat]
    need = bid - won
    if bid < 0 or need < 0 or need > len(view.hand):
        return "hint.spoil", {}
    takes = _takes_trick(view, action)
    if need > 0:
        return ("hint.take_trick", {"n": need}) if takes else (_low_reason(game_def, view, action.value), {})
    return ("hint.least_harm", {}) if takes else ("hint.duck", {"n": won})


def _own_bid(view: PlayerView) -> int:
    predictions = game_of(view).adapter.table_figures(view).predictions
    return predictions[view.seat] if len(predictions) > view.seat else -1


def _side_play_reason(game_def: GameDef, view: PlayerView, action: Action) -> tuple[str, dict[str, int | str]]:
    """Why a card in a partnership game with a contract."""
    seat = view.seat
    figures = game_def.adapter.table_figures(view)
    declarer = figures.declarer
    team = game_def.team_of(seat)
    declaring = declarer >= 0 and game_def.partners(declarer, seat)
    targets = game_def.adapter.contract_targets(figures.contract_books)
    target = targets.needed if declaring else targets.to_set
    need = target - view.books[team]
    card_suit = _card_suit(view, action.value)
    if not view.trick and declaring and view.trump >= 0 and card_suit == view.trump:
        return "hint.lead_trump", {}
    if _takes_trick(view, action):
        return ("hint.take_trick", {"n": need}) if need > 0 else ("hint.cash", {})
    if view.winning_seat >= 0 and view.winning_seat != seat and game_def.partners(view.winning_seat, seat):
        low = _is_low(game_def, view, action.value) and _direction(view) == 0
        return ("hint.partner_winning" if low else "hint.partner_leave"), {}
    return _low_reason(game_def, view, action.value), {}


def _card_suit(view: PlayerView, card: int) -> int:
    """The suit ``card`` follows as under the trump in force (-1 for none)."""
    model = game_of(view).hidden_info
    return model.card_suit(card, view.trump) if model is not None else -1


def _takes_trick(view: PlayerView, action: Action) -> bool:
    """Whether the card would be winning the trick once played (the trick's
    end aside). The cards on the table are known, so any one deal consistent
    with the view answers it; the rules decide, on a built state."""
    try:
        world = state_from_view(view, HiddenSampler(view).sample(random.Random(0)), 0)
    except HiddenInfoError:
        return False
    before = len(world.tricks)
    world.apply_in_place(action, None, check=False)
    if len(world.tricks) > before:
        return bool(world.tricks[-1].winner == view.seat)
    return bool(world.winning_seat() == view.seat)
