"""The game registry: one ``GameDef`` per trick-taking game."""

from __future__ import annotations

# Everything above ``game.rules`` (the match, the history, the command line,
# the table and its dialogs, the computer players) asks the registry what a
# game is instead of comparing game names: how many play, who partners whom,
# its house-rule schema and presets file, how to build its state, its view
# type, its deck, its computer levels and the text keys the interface needs.
# Adding a game means one rules module, one adapter and one ``register``
# call here.
#
# What the screens need to show a game (its English title, the figures of a
# deal that belong to that kind of game, whether one side declares a contract
# and what a contract needs, the progress lines, the rules help's ranking, the
# note for hidden bids, the kitty) is asked of ``GameDef.adapter``, a
# ``game.rules.adapter.GameAdapter``: the interface, the hints and the settings
# never import one game's rules module, test a view's type or compare the
# scoring style or a game's name. The adapter answers in data (numbers, card
# lists, ``Phrase``: a text key and its parameters), never in pixels. The
# hints ask the player of ``hint_level``, one of the game's own computer levels
# (the strongest registered, unless the entry names one).
#
# The registry lives in the pure rules layer, so it names the computer
# players by import path (``"package.module:factory"``) instead of importing
# them; ``game.ai`` resolves the path.

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from game.rules import bidwhist, wizard
from game.rules.adapter import GameAdapter
from game.rules.bidwhist_adapter import BidWhistAdapter
from game.rules.cards import BIDWHIST_DECK, WIZARD_DECK
from game.rules.hidden import HiddenInfoModel
from game.rules.house_rules import (
    BIDWHIST_SPECS,
    WIZARD_MAX_PLAYERS,
    WIZARD_MIN_PLAYERS,
    WIZARD_SPECS,
    BidWhistRules,
    RuleSpec,
    WizardRules,
    wizard_combination_issue,
)
from game.rules.problems import Problem
from game.rules.wizard_adapter import WizardAdapter
from game.rules.view import BidWhistView, PlayerView, WizardView


@dataclass(frozen=True)
class GameDef:
    """What a game is, for everything built on the rules."""

    name: str  # the registry key, as in files and on the command line
    min_players: int
    max_players: int
    default_players: int
    # 0: everyone plays for themself; n: n partnerships, seat s in team s % n.
    partnerships: int
    rule_specs: tuple[RuleSpec, ...]
    rules_class: type
    config_name: str  # config/<config_name>.yaml holds the defaults and presets
    # (rules, players, seed, first_dealer, fixed_deals) -> a state before its first deal.
    create_state: Callable[..., Any]
    # (number, deal, players, rules=None) -> None, or ValueError naming what is
    # wrong with an explicit deal under those rules (the default rules when None).
    check_fixed_deal: Callable[..., None]
    view_type: type[PlayerView]
    deck: tuple[int, ...]
    # The shape a deal is recorded in, read by the hand history alone (everything
    # else asks the adapter): "contract": one side declares a contract and scores
    # as a team; "prediction": everyone predicts their own tricks.
    scoring: str
    # Sorts a hand for display: hand_order(cards, trump, direction, rules=None),
    # ranked as ``rules`` say (a house rule may move a card, e.g. the ace downtown).
    hand_order: Callable[..., list[int]]
    # What the screens need to show the game (see the module docstring).
    adapter: GameAdapter
    # level -> "module:factory"; the factory takes no arguments and returns a player.
    # Weakest first: the hints ask the last one unless ``hint_level`` names another.
    ai_levels: Mapping[str, str] = field(default_factory=dict)
    hint_level: str | None = None
    # Interface text keys: "title", "deal" (hand / round), "next_deal", and "rules_help": the game in
    # one line on the rules help screen, and the prefix of its explanations there (a game without it
    # gets the generic sections only).
    text_keys: Mapping[str, str] = field(default_factory=dict)
    # What a seat cannot see and where it may lie, for ``game.rules.search``
    # (None: the game does not support building states from a view).
    hidden_info: HiddenInfoModel | None = None
    # rules -> the deck those house rules play with, where a rule changes it
    # (None: always ``deck``); ask ``deck_for``.
    rules_deck: Callable[[Any], tuple[int, ...]] | None = None
    # (state, seat) -> whether ``seat`` may claim every trick left (on lead, every card it holds
    # sure to win), decided from the full state; None: the game has no claims.
    claimable: Callable[[Any, int], bool] | None = None
    # (state in play, seat) -> what each number of tricks the seat's side may take this hand
    # is worth to it (index: its tricks over the whole hand), or None where the hand's result
    # depends on more than the tricks; what ``game.ai.endgame_solver`` plays for. None: the
    # game offers no such values.
    trick_values: Callable[[Any, int], tuple[int, ...] | None] | None = None
    # (rule values, players or None) -> (key, problem) for the first combination of house
    # rules the game forbids, or None; None: every combination of allowed values is playable.
    rule_combination: Callable[[Mapping[str, Any], int | None], tuple[str, Problem] | None] | None = None

    # ------------------------------------------------------------ teams
    def team_of(self, seat: int) -> int:
        """The scoring side of ``seat``: its team, or the seat itself."""
        return seat % self.partnerships if self.partnerships else seat

    def score_sides(self, players: int) -> int:
        """How many scores the game keeps: one per team, or one per seat."""
        return self.partnerships if self.partnerships else players

    def team_members(self, team: int, players: int) -> tuple[int, ...]:
        return tuple(seat for seat in range(players) if self.team_of(seat) == team)

    def partners(self, a: int, b: int) -> bool:
        return self.team_of(a) == self.team_of(b)

    # ------------------------------------------------------------ players and rules
    def player_counts(self) -> range:
        return range(self.min_players, self.max_players + 1)

    def deck_for(self, rules: Any) -> tuple[int, ...]:
        """The deck a game under ``rules`` is played with (``deck`` unless a house rule changes it)."""
        return self.rules_deck(rules) if self.rules_deck is not None else self.deck

    def spec(self, key: str) -> RuleSpec | None:
        for spec in self.rule_specs:
            if spec.key == key:
                return spec
        return None

    def hint_player_level(self) -> str:
        """The computer level whose player gives the hints: ``hint_level``, or
        the strongest registered; ``ValueError`` when the game has no such level."""
        level = self.hint_level if self.hint_level is not None else next(reversed(tuple(self.ai_levels)), None)
        if level is None or level not in self.ai_levels:
            raise ValueError(
                f"{self.name} has no computer level {level!r} to give hints; "
                f"its levels: {', '.join(self.ai_levels) or 'none'}"
            )
        return level

    def text(self, key: str) -> str:
        """The interface text key for ``key`` ("title", "deal", "next_deal")."""
        return self.text_keys[key]


_GAMES: dict[str, GameDef] = {}


def register(game: GameDef) -> GameDef:
    if game.name in _GAMES:
        raise ValueError(f"game {game.name!r} is registered twice")
    _GAMES[game.name] = game
    return game


def get_game(name: str) -> GameDef:
    """The game called ``name``; ``KeyError`` names the known games otherwise."""
    try:
        return _GAMES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known games: {', '.join(_GAMES)}") from None


def game_names() -> tuple[str, ...]:
    return tuple(_GAMES)


def all_games() -> tuple[GameDef, ...]:
    return tuple(_GAMES.values())


def game_of(thing: Any) -> GameDef:
    """The game of a rules object, a state or a view (anything with ``.game``)."""
    return get_game(thing.game)


register(
    GameDef(
        name="bidwhist",
        min_players=4,
        max_players=4,
        default_players=4,
        partnerships=2,
        rule_specs=BIDWHIST_SPECS,
        rules_class=BidWhistRules,
        config_name="bidwhist",
        create_state=bidwhist.create_state,
        check_fixed_deal=bidwhist.check_fixed_deal,
        view_type=BidWhistView,
        deck=BIDWHIST_DECK,
        scoring="contract",
        hand_order=bidwhist.hand_order,
        adapter=BidWhistAdapter(),
        ai_levels={
            "random": "game.ai:RandomPlayer",
            "easy": "game.ai.easy:BidWhistEasyPlayer",
            "medium": "game.ai.bidwhist_medium:BidWhistMediumPlayer",
            "hard": "game.ai.hard:BidWhistHardPlayer",
            "expert": "game.ai.expert:BidWhistExpertPlayer",
        },
        text_keys={
            "title": "start.game.bidwhist",
            "deal": "game.deal.hand",
            "next_deal": "pad.next_hand",
            "rules_help": "help.bidwhist",
        },
        hidden_info=bidwhist.HIDDEN_INFO,
        rules_deck=bidwhist.deck_of,
        claimable=bidwhist.claimable,
        trick_values=bidwhist.trick_values,
    )
)

register(
    GameDef(
        name="wizard",
        min_players=WIZARD_MIN_PLAYERS,
        max_players=WIZARD_MAX_PLAYERS,
        default_players=4,
        partnerships=0,
        rule_specs=WIZARD_SPECS,
        rules_class=WizardRules,
        config_name="wizard",
        create_state=wizard.create_state,
        check_fixed_deal=wizard.check_fixed_deal,
        view_type=WizardView,
        deck=WIZARD_DECK,
        scoring="prediction",
        hand_order=wizard.hand_order,
        adapter=WizardAdapter(),
        rule_combination=wizard_combination_issue,
        ai_levels={
            "random": "game.ai:RandomPlayer",
            "easy": "game.ai.easy:WizardEasyPlayer",
            "medium": "game.ai.wizard_medium:WizardMediumPlayer",
            "hard": "game.ai.hard:WizardHardPlayer",
            "expert": "game.ai.expert:WizardExpertPlayer",
        },
        text_keys={
            "title": "start.game.wizard",
            "deal": "game.deal.round",
            "next_deal": "pad.next_round",
            "rules_help": "help.wizard",
        },
        hidden_info=wizard.HIDDEN_INFO,
        claimable=wizard.claimable,
        trick_values=wizard.trick_values,
    )
)
