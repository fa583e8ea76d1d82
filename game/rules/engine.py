"""The public face of the rules: start a game, ask what is legal, apply actions."""

from __future__ import annotations

# A UI or an AI needs only this module::
#
#     state, events = new_game(rules, players=4, seed=7)
#     state.current_player, state.phase, state.legal_actions()
#     state, events = apply(state, parse_action("4up"))   # a new state; the old one is untouched
#     state.view(seat)                                    # what that seat may see
#     state.is_terminal, state.results(), state.returns()
#
# Search code that plays thousands of hands uses ``state.clone()`` and
# ``state.apply_in_place(action, None, check=False)`` directly, which skip the
# legality check and the events; ``game.rules.search`` builds such states from
# a seat's view.

from collections.abc import Sequence
from typing import Any, TypeVar, cast

from game.rules import bidwhist, wizard
from game.rules.actions import Action
from game.rules.errors import DealError
from game.rules.events import FirstDealerDrawn, GameEvent
from game.rules.house_rules import Rules
from game.rules.registry import get_game

GameState = bidwhist.BidWhistState | wizard.WizardState
# A state of one game: ``apply`` returns a state of the game it was given.
AnyState = TypeVar("AnyState", bound=GameState)


def new_game(
    rules: Rules,
    players: int,
    seed: int,
    *,
    first_dealer: int | None = None,
    fixed_deals: dict[int, Any] | None = None,
    start_deal: int = 1,
    start_scores: Sequence[int] | None = None,
) -> tuple[GameState, list[GameEvent]]:
    """A new game after the first-dealer draw and the first deal.

    ``first_dealer`` skips the draw (replays of histories without a seed,
    tests); ``fixed_deals`` maps a deal number to explicit cards (Bid Whist
    ``(hands, kitty)``, Wizard ``(hands, turn-up)``) and is checked to be a
    real deal. ``start_deal`` and ``start_scores`` start the game at a later
    deal (dealt by ``first_dealer``, which is then required) with the scores
    so far, as a search over Wizard's fifteenth round needs.
    """
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TypeError("seed must be an int")
    game = get_game(rules.game)
    if type(players) is not int or players not in game.player_counts():
        counts = (
            f"{game.min_players}"
            if game.min_players == game.max_players
            else f"{game.min_players} to {game.max_players}"
        )
        raise ValueError(f"{game.name} is played by {counts} players, not {players!r}")
    # A dealer outside the table would never be "the dealer" when bidding comes
    # round (no forced bid, no uneven-bids check), so refuse it here.
    if first_dealer is not None and not (isinstance(first_dealer, int) and 0 <= first_dealer < players):
        raise ValueError(f"first_dealer must be a seat from 0 to {players - 1}, not {first_dealer!r}")
    if fixed_deals is not None and not isinstance(fixed_deals, dict):
        raise DealError("fixed_deals must map deal numbers to deals")
    for number, deal in (fixed_deals or {}).items():
        if type(number) is not int or number < 1:
            raise DealError(f"deal {number!r}: deal numbers start at 1")
        try:
            game.check_fixed_deal(number, deal, players, rules)
        except ValueError as exc:
            raise DealError(str(exc)) from None
    state = game.create_state(rules, players, seed, first_dealer, fixed_deals)
    if start_deal != 1 or start_scores is not None:
        _start_later(state, game.score_sides(players), start_deal, start_scores, first_dealer)
    events: list[GameEvent] = [FirstDealerDrawn(tuple(state.first_draw), state.dealer)]
    state.deal(events)
    return state, events


def _start_later(
    state: GameState, sides: int, start_deal: int, start_scores: Sequence[int] | None, first_dealer: int | None
) -> None:
    if not isinstance(start_deal, int) or start_deal < 1:
        raise ValueError(f"start_deal must be a deal number from 1, not {start_deal!r}")
    last = getattr(state, "total_rounds", None)
    if last is not None and start_deal > last:
        raise ValueError(f"start_deal {start_deal} is past the last round ({last})")
    if start_deal > 1 and first_dealer is None:
        raise ValueError("a game started at a later deal needs the dealer of that deal (first_dealer)")
    scores = list(start_scores) if start_scores is not None else [0] * sides
    if len(scores) != sides or any(type(s) is not int for s in scores):
        raise ValueError(f"start_scores must be {sides} whole numbers, not {start_scores!r}")
    state.deal_number = start_deal - 1
    state.scores = scores


def apply(state: AnyState, action: Action) -> tuple[AnyState, list[GameEvent]]:
    """Apply ``action`` for the player to act; returns a new state and what happened.

    Raises ``IllegalActionError`` (with a reason code and parameters) if the
    action is not legal or not an action at all; ``state`` is never changed.
    """
    state.check_legal(action)
    new_state = cast(AnyState, state.copy())  # copy() keeps the state's class
    events: list[GameEvent] = []
    new_state.apply_in_place(action, events, check=False)
    return new_state, events
