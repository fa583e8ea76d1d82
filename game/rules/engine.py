"""The public face of the rules: start a game, ask what is legal, apply actions.

A UI or an AI needs only this module::

    state, events = new_game(rules, players=4, seed=7)
    state.current_player, state.phase, state.legal_actions()
    state, events = apply(state, parse_action("4up"))   # a new state; the old one is untouched
    state.view(seat)                                    # what that seat may see
    state.is_terminal, state.results()

Search code that plays thousands of hands uses ``state.clone()`` and
``state.apply_in_place(action, None, check=False)`` directly, which skip the
copy, the legality check and the events.
"""

from __future__ import annotations

from typing import Union

from game.rules import bidwhist, wizard
from game.rules.actions import Action
from game.rules.core import Event, EventKind
from game.rules.house_rules import BidWhistRules, Rules, WizardRules, combination_problem
from game.rules.errors import RuleConfigError

GameState = Union[bidwhist.BidWhistState, wizard.WizardState]


def new_game(rules: Rules, players: int, seed: int, *, first_dealer: int | None = None,
             fixed_deals: dict | None = None) -> tuple[GameState, list[Event]]:
    """A new game after the first-dealer draw and the first deal.

    ``first_dealer`` skips the draw (replays of histories without a seed, tests);
    ``fixed_deals`` maps a deal number to explicit hands (see the state classes).
    """
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TypeError("seed must be an int")
    # A dealer outside the table would never be "the dealer" when bidding comes
    # round (no forced bid, no uneven-bids check), so refuse it here.
    if first_dealer is not None and not (isinstance(first_dealer, int) and 0 <= first_dealer < players):
        raise ValueError(f"first_dealer must be a seat from 0 to {players - 1}, not {first_dealer!r}")
    events: list[Event] = []
    state: GameState
    if isinstance(rules, BidWhistRules):
        if players != bidwhist.PLAYERS:
            raise ValueError(f"Bid Whist is played by 4 players, not {players}")
        draw, dealer = bidwhist.first_dealer_draw(seed) if first_dealer is None else ([], first_dealer)
        state = bidwhist.BidWhistState(rules, seed, dealer, draw, fixed_deals)
    elif isinstance(rules, WizardRules):
        problem = combination_problem("wizard", rules.to_dict(), players)
        if problem:
            raise RuleConfigError("house rules", problem[0], problem[1])
        draw, dealer = wizard.first_dealer_draw(seed, players) if first_dealer is None else ([], first_dealer)
        state = wizard.WizardState(rules, seed, players, dealer, draw, fixed_deals)
    else:
        raise TypeError(f"unknown rules object {rules!r}")
    events.append(Event(EventKind.FIRST_DEALER, data={"draw": tuple(draw), "dealer": dealer}))
    state.deal(events)
    return state, events


def apply(state: GameState, action: Action) -> tuple[GameState, list[Event]]:
    """Apply ``action`` for the player to act; returns a new state and what happened.

    Raises ``IllegalActionError`` (with a reason worded for the player) if the
    action is not legal; ``state`` is never changed.
    """
    state.check_legal(action)
    new_state = state.clone()
    events: list[Event] = []
    new_state.apply_in_place(action, events, check=False)
    return new_state, events
