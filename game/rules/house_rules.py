"""House rules: the typed, defaulted, range-checked parameters of each game.

Every key, its type, its allowed values and its default are declared once here
(the single source of truth that the YAML loader, the settings screen and the
hand history all use). Names and values follow ``RULES.md`` exactly.
"""

from __future__ import annotations

# This module only describes and checks values that are already Python objects;
# reading YAML files is the job of ``game.settings.house_rule_files``.

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import TYPE_CHECKING, Any, Literal, overload

from game.rules.errors import RuleConfigError, short_repr
from game.rules.problems import Problem, ProblemValueError, did_you_mean

if TYPE_CHECKING:  # the registry imports this module for its rule specs
    from game.rules.registry import GameDef

BIDWHIST = "bidwhist"
WIZARD = "wizard"

WIZARD_MIN_PLAYERS = 3
WIZARD_MAX_PLAYERS = 6
WIZARD_DECK_SIZE = 60


@dataclass(frozen=True)
class RuleSpec:
    """One house-rule key: its kind, allowed values and default.

    ``kind`` is ``"int"``, ``"bool"``, ``"choice"`` or ``"rounds"`` (the Wizard
    key that is either the word ``full`` or a number of rounds).
    """

    key: str
    kind: str
    default: Any
    choices: tuple[str, ...] = ()
    minimum: int = 0
    maximum: int = 0
    help: str = ""

    def check(self, value: Any) -> Any:
        """Return ``value`` if allowed for this key, else raise ``ProblemValueError`` (a ``ValueError``).

        The error carries only the reason; callers add the file and key.
        """
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            raise ProblemValueError(self.refusal(value))
        if self.kind == "choice":
            if isinstance(value, str) and value in self.choices:
                return value
            raise ProblemValueError(self.refusal(value))
        if self.kind == "rounds" and value == "full":
            return value
        # int and rounds-as-number; bool is an int subclass in Python, refuse it.
        if isinstance(value, bool) or not isinstance(value, int) or not self.minimum <= value <= self.maximum:
            raise ProblemValueError(self.refusal(value))
        return value

    def refusal(self, value: Any) -> Problem:
        """Why ``value`` is not allowed for this key ("must be ..., not <value>"), with what is."""
        shown = short_repr(value)
        if self.kind == "bool":
            return Problem("value.not_bool", {"value": shown})
        if self.kind == "choice":
            return Problem("value.not_choice", {"choices": ", ".join(self.choices), "value": shown})
        code = "value.not_rounds" if self.kind == "rounds" else "value.not_whole"
        return Problem(code, {"low": self.minimum, "high": self.maximum, "value": shown})


BIDWHIST_SPECS: tuple[RuleSpec, ...] = (
    RuleSpec("min_bid", "int", 3, minimum=1, maximum=7, help="Lowest number that may be bid (books over six)."),
    RuleSpec(
        "downtown_outranks_uptown",
        "bool",
        False,
        help="At the same number, downtown beats uptown (no trump beats both).",
    ),
    RuleSpec(
        "all_pass",
        "choice",
        "dealer_must_bid",
        choices=("dealer_must_bid", "redeal"),
        help="When the first three pass: the dealer must bid, or all may pass and the hand is redealt.",
    ),
    RuleSpec(
        "first_lead", "choice", "declarer", choices=("declarer", "left_of_dealer"), help="Who leads the first trick."
    ),
    RuleSpec(
        "renege",
        "choice",
        "prevented",
        choices=("prevented", "penalized"),
        help="Refuse a card that fails to follow suit, or allow it and penalize 3 books.",
    ),
    RuleSpec(
        "notrump_multiplier",
        "int",
        2,
        minimum=1,
        maximum=4,
        help="No-trump contracts score this many times, made or set.",
    ),
    RuleSpec(
        "target_score",
        "int",
        7,
        minimum=1,
        maximum=99,
        help="A team that reaches this score wins; one that falls to minus this loses.",
    ),
    RuleSpec(
        "jokers",
        "bool",
        True,
        help="Play with the two jokers (54 cards, a kitty of 6), or without (52 cards, a kitty of 4).",
    ),
    RuleSpec(
        "dealer_takes", "bool", False, help="The dealer may take the contract at the high bid's number, in any mode."
    ),
    RuleSpec(
        "boston",
        "choice",
        "off",
        choices=("off", "double", "wins_game"),
        help="All 13 books to the bidding team: no bonus, the hand's score doubled, or the game won.",
    ),
    RuleSpec(
        "downtown_ace",
        "choice",
        "high",
        choices=("high", "low"),
        help="Downtown the ace is the highest card (A 2 3 ... K) or the lowest (2 3 ... K A).",
    ),
)

WIZARD_SPECS: tuple[RuleSpec, ...] = (
    RuleSpec(
        "rounds",
        "rounds",
        "full",
        minimum=1,
        maximum=WIZARD_DECK_SIZE // WIZARD_MIN_PLAYERS,
        help="full (60 / players rounds) or a shorter fixed number of rounds.",
    ),
    RuleSpec(
        "bidding",
        "choice",
        "open",
        choices=("open", "hidden", "delayed_reveal"),
        help="Bids made openly in turn, all hidden then revealed together, or revealed after the round.",
    ),
    RuleSpec(
        "uneven_bids",
        "choice",
        "off",
        choices=("off", "always", "leader_only"),
        help="The last bidder may not make the bids add up to the cards dealt (open bidding only).",
    ),
    RuleSpec(
        "wizard_turn_up",
        "choice",
        "dealer_chooses",
        choices=("dealer_chooses", "first_bidder_chooses", "no_trump"),
        help="A Wizard turned up: the dealer names trump, the player left of the dealer does, or no trump.",
    ),
)


@dataclass(frozen=True)
class BidWhistRules:
    min_bid: int = 3
    downtown_outranks_uptown: bool = False
    all_pass: str = "dealer_must_bid"
    first_lead: str = "declarer"
    renege: str = "prevented"
    notrump_multiplier: int = 2
    target_score: int = 7
    jokers: bool = True
    dealer_takes: bool = False
    boston: str = "off"
    downtown_ace: str = "high"

    game = BIDWHIST

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class WizardRules:
    rounds: int | str = "full"
    bidding: str = "open"
    uneven_bids: str = "off"
    wizard_turn_up: str = "dealer_chooses"

    game = WIZARD

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def round_count(self, players: int) -> int:
        """How many rounds a game with ``players`` players lasts."""
        return WIZARD_DECK_SIZE // players if self.rounds == "full" else int(self.rounds)


Rules = BidWhistRules | WizardRules


def combination_issue(game: str, values: Mapping[str, Any], players: int | None = None) -> tuple[str, Problem] | None:
    """The first forbidden combination in ``values`` as ``(key, problem)``, or None.

    ``players`` is needed for the Wizard ``rounds`` limit; when it is None only
    the limit for the largest deal (3 players) applies.
    """
    from game.rules.registry import game_names, get_game  # the registry imports this module

    check = get_game(game).rule_combination if game in game_names() else None
    return check(values, players) if check is not None else None


def wizard_combination_issue(values: Mapping[str, Any], players: int | None = None) -> tuple[str, Problem] | None:
    """Wizard's forbidden combinations (its ``GameDef.rule_combination``): uneven
    bids need open bidding, and a fixed number of rounds must fit the deck."""
    if values.get("uneven_bids", "off") != "off" and values.get("bidding", "open") != "open":
        return ("uneven_bids", Problem("rules.uneven_needs_open", {"bidding": values.get("bidding")}))
    rounds = values.get("rounds", "full")
    if players is not None and rounds != "full" and rounds > WIZARD_DECK_SIZE // players:
        return (
            "rounds",
            Problem(
                "rules.too_many_rounds", {"most": WIZARD_DECK_SIZE // players, "players": players, "rounds": rounds}
            ),
        )
    return None


# A caller that names its game gets that game's rules type (a test, a
# benchmark); one that passes a name it was given gets the union.
@overload
def make_rules(
    game: Literal["bidwhist"],
    values: Mapping[str, Any] | None = None,
    players: int | None = None,
    source: str = "house rules",
) -> BidWhistRules: ...
@overload
def make_rules(
    game: Literal["wizard"],
    values: Mapping[str, Any] | None = None,
    players: int | None = None,
    source: str = "house rules",
) -> WizardRules: ...
@overload
def make_rules(
    game: str, values: Mapping[str, Any] | None = None, players: int | None = None, source: str = "house rules"
) -> Rules: ...
def make_rules(
    game: str, values: Mapping[str, Any] | None = None, players: int | None = None, source: str = "house rules"
) -> Rules:
    """Build a validated rules object from a mapping of overrides.

    Raises ``RuleConfigError`` naming ``source``, the key and what is allowed.
    """
    game_def = _registered(game, source)
    checked: dict[str, Any] = {}
    for key, value in (values or {}).items():
        spec = game_def.spec(key) if isinstance(key, str) else None
        if spec is None:
            allowed = [s.key for s in game_def.rule_specs]
            raise RuleConfigError(source, str(key)[:200], unknown_rule_key(key, allowed, game, game))
        try:
            checked[key] = spec.check(value)
        except ProblemValueError as exc:
            raise RuleConfigError(source, key, exc.problem) from None
    merged = {spec.key: spec.default for spec in game_def.rule_specs}
    merged.update(checked)
    problem = combination_issue(game, merged, players)
    if problem:
        raise RuleConfigError(source, problem[0], problem[1])
    rules: Rules = game_def.rules_class(**checked)
    return rules


def unknown_rule_key(key: Any, allowed: list[str], game: str, game_title: str) -> Problem:
    """Why ``key`` is no rule of ``game``: the nearest rule key if one is close, and all of them.

    ``game_title`` is how an English message names the game; the window names
    it in the player's language from ``game``.
    """
    guess = did_you_mean(key, allowed)
    params = {"allowed": ", ".join(allowed), "game": game, "game_title": game_title}
    if guess is not None:
        return Problem("unknown_rule_key_guess", {**params, "guess": guess})
    return Problem("unknown_rule_key", params)


def _registered(game: str, source: str) -> GameDef:
    """The registered game ``game``, or ``RuleConfigError`` naming the known ones.

    Asked of the registry so that every registered game, not only the two
    built in, gets its rules checked and built here. Imported inside the
    function because the registry imports this module for those specs.
    """
    from game.rules.registry import game_names, get_game

    if game not in game_names():
        raise RuleConfigError(
            source,
            "game",
            Problem("rules.unknown_game", {"value": short_repr(game), "allowed": ", ".join(game_names())}),
        )
    return get_game(game)


def rules_from_dict(game: str, values: Mapping[str, Any]) -> Rules:
    """Rules from a complete, already-resolved mapping (e.g. a hand history).

    A key missing from ``values`` keeps its default (a record written before
    the key existed). A key this version does not know is refused: the record
    comes from a newer version whose rule this one cannot play, and
    replaying it under other rules would misread the game."""
    names = [f.name for f in fields(_registered(game, "hand history").rules_class)]
    if not isinstance(values, Mapping):
        # The value's Python type ("list", "str") is shown as written in every language, as a key is.
        raise RuleConfigError(
            "hand history", "rules", Problem("rules.record_not_mapping", {"kind": type(values).__name__})
        )
    for key in values:
        if key not in names:
            # An English message names the game as the record does; the window by its title.
            raise RuleConfigError(
                "hand history",
                str(key)[:60],
                Problem("rules.record_unknown_key", {"game": game, "game_title": game, "known": ", ".join(names)}),
            )
    return make_rules(game, values, source="hand history")
