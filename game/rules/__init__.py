"""Pure rules of the trick-taking games (Bid Whist and Wizard).

Nothing in this package imports pygame, reads a clock or a file, or uses the
global ``random`` module: a game is a function of (rules, seed, actions).
"""

# ``registry`` says what each game is; ``engine`` starts games and applies
# actions; ``events`` are the typed record of what happened and
# ``events_for`` filters it per seat; ``view`` is what one seat may see;
# ``search`` builds full states from a view for search-based players.

from game.rules.actions import Action, ActionKind, BidMode, action_to_str, parse_action
from game.rules.cards import Suit, card_code, parse_card
from game.rules.core import Phase
from game.rules.engine import GameState, apply, new_game
from game.rules.errors import DealError, IllegalActionError, ParseError, RuleConfigError, RulesError
from game.rules.events import EVENT_TYPES, PUBLIC_SEAT, GameEvent, UNKNOWN_CARD, Viewer, events_for
from game.rules.house_rules import BidWhistRules, WizardRules, make_rules
from game.rules.registry import GameDef, all_games, game_names, game_of, get_game
from game.rules.view import BidWhistView, PlayerView, TrickRecord, WizardView

__all__ = [
    "Action",
    "ActionKind",
    "BidMode",
    "BidWhistRules",
    "BidWhistView",
    "DealError",
    "EVENT_TYPES",
    "GameDef",
    "GameEvent",
    "GameState",
    "IllegalActionError",
    "PUBLIC_SEAT",
    "ParseError",
    "Phase",
    "PlayerView",
    "RuleConfigError",
    "RulesError",
    "Suit",
    "TrickRecord",
    "UNKNOWN_CARD",
    "Viewer",
    "WizardRules",
    "WizardView",
    "action_to_str",
    "all_games",
    "apply",
    "card_code",
    "events_for",
    "game_names",
    "game_of",
    "get_game",
    "make_rules",
    "new_game",
    "parse_action",
    "parse_card",
]
