"""Claims: a player on lead whose every card is sure to win may claim the tricks left."""

from __future__ import annotations

# Each game's rules say whether a claim stands (``GameDef.claimable``, decided
# from the full state: ``bidwhist.claimable``, ``wizard.claimable``). This
# module says how the claimed tricks are then played out: as ordinary plays,
# one legal card at a time, so the action log, the save and the hand history
# hold nothing a game without claims would not, and ``replay --check`` reads
# them as any other hand.

from typing import Any

from game.rules.actions import Action, ActionKind


def claim_play(state: Any) -> Action:
    """The card the seat to act plays in a claimed play-out (the state is in its play phase).

    The claimant leads the first card of its hand: every one of them wins, so
    the order changes nothing. Any other seat plays a legal card that follows
    the suit led where it holds one, so that no renege is made up for a
    player who could have followed (under ``renege: penalized`` every card is
    legal); which one changes nothing either, since every trick is the claimant's.
    """
    legal: list[Action] = [action for action in state.legal_actions() if action.kind == ActionKind.PLAY]
    if not legal:
        raise ValueError("nobody has a card to play: the hand is not in its play phase")
    if state.trick:
        led = state.led_suit()
        if led >= 0:
            following = [action for action in legal if not state.reveals_void(action.value, led)]
            if following:
                return following[0]
    return legal[0]
