"""Pure rules of Bid Whist and Wizard.

Nothing in this package imports pygame, reads a clock or a file, or uses the
global ``random`` module: a game is a function of (rules, seed, actions).
"""

from game.rules.actions import Action, ActionKind, BidMode, action_to_str, parse_action
from game.rules.cards import Suit, card_code, parse_card
from game.rules.core import Event, EventKind, Phase
from game.rules.engine import GameState, apply, new_game
from game.rules.errors import IllegalActionError, ParseError, RuleConfigError, RulesError
from game.rules.house_rules import BidWhistRules, WizardRules, make_rules
from game.rules.view import PlayerView, TrickRecord

__all__ = [
    "Action", "ActionKind", "BidMode", "BidWhistRules", "Event", "EventKind", "GameState",
    "IllegalActionError", "ParseError", "Phase", "PlayerView", "RuleConfigError", "RulesError",
    "Suit", "TrickRecord", "WizardRules", "action_to_str", "apply", "card_code", "make_rules",
    "new_game", "parse_action", "parse_card",
]
