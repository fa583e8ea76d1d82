"""House-rule files and app settings, read from YAML and checked before use.

A house-rule file (``config/bidwhist.yaml``, ``config/wizard.yaml`` or one the
user writes) names its game, the table's ``rules`` and named ``presets`` that
change some of those rules. The rules a game is played with are built in four
layers, each overriding the one before: the defaults declared in
``game.rules.house_rules``, the file's ``rules``, the chosen preset, and the
``--set KEY=VALUE`` options from the command line. Which games there are,
their rule keys, their player counts and their bundled files are asked of
the game registry.

A file may also hold just rule keys (``target_score: 5``): those are the
table's rules, the game named by the file's ``game`` key or by the caller
(``--game``); such a file has no presets.

Nothing the user can edit is trusted. Every YAML text is read by
``game.yaml_files`` (plain data only; no anchors or aliases, no duplicate
keys, nothing over 256 KB), and every problem (an unreadable file, bad YAML,
an unknown key, a wrong type, a value out of range, a forbidden combination,
a malformed preset) raises ``ConfigError``, whose message names the file,
the key (with the nearest valid key for a misspelling) and what is allowed,
quoting at most a short prefix of a bad value, so
that the command line can print it and the window can show it instead of a
traceback. The reason is also kept as a ``game.rules.problems.Problem`` (a code
and parameters), which the window words in the player's language; the
English message is that problem worded in English. ``load_rules_problem`` is
the forgiving front door for the window: on a bad file it keeps the default
rules and returns the problem to show, as RULES.md asks
(``load_rules_or_defaults`` gives it as English text).

App settings (animation speed, language, window size...) are not house rules
and never affect a game's outcome. They live in the user's config folder and
are read one key at a time: a bad value (or a line of broken YAML) is
reported and only that setting falls back to its bundled default, the others
still count, and the file is left untouched. Saving writes back the keys
this version does not know, and first copies a file that held anything
unusable to ``settings.yaml.bad-<date>-<time>``, so nothing the user wrote
is ever lost.

The start screen's last setup (game, players, names, human or computer and
level per seat, preset, and the rules the player changed on top of the
preset) is kept beside the settings so the next run opens where the player
left off. It is a convenience: a missing, unreadable or malformed file is
logged and ignored, never shown as an error, and copied aside in the same
way before a new setup is saved over it. A changed rule that is no rule of
the game or not one of its values is logged and left out alone (that rule
is the preset's again); the rest of the setup still counts.
"""

from __future__ import annotations

import locale
import logging
import math
import os
import re
import time
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

import yaml

from game.names import clean_name
from game.paths import UserPaths, atomic_copy_file, atomic_write_text, resource_path
from game.rules.problems import Decimal, Problem, ProblemValueError, did_you_mean
from game.rules.errors import RuleConfigError
from game.rules.house_rules import RuleSpec, Rules, make_rules, unknown_rule_key
from game.rules.registry import game_names, get_game
from game.yaml_files import (
    YamlFileError, key_text, quote, quote_text, quoted, quoted_text, read_limited_text, read_yaml_file, unreadable_file,
)
from game.yaml_files import parse_yaml_text as parse_yaml

log = logging.getLogger("tricktable.config")

TOP_LEVEL_KEYS = ("game", "rules", "presets")
PRESET_KEYS = ("description", "rules")
SET_OPTION = "--set"


def game_title(game: str) -> str:
    """How English messages name a game: its adapter's title, or (a name no
    game is registered under) the name itself."""
    return get_game(game).adapter.english_title if game in game_names() else game


class ConfigError(RuleConfigError):
    """A configuration file or option that cannot be used, with a message for the player.

    ``source`` is the file (or ``--set``), ``key`` the dotted key inside it
    (``rules.min_bid``, ``presets.short.rules.rounds``; empty when the whole
    file is at fault) and ``reason`` what is wrong and what is allowed, in
    English; ``problem`` is the reason as a code and parameters (None for the
    few reasons only the command line can meet, such as a malformed ``--set``).
    """

    def __init__(self, source: str, key: str, reason: str | Problem) -> None:
        super().__init__(source, key, reason)
        if not key:
            # No key to name (unreadable file, YAML syntax): avoid "file: : reason".
            self.args = (f"{source}: {reason}",)


# --------------------------------------------------------------------------
# Reading YAML

def read_yaml(path: str | Path, source: str | None = None, ordinary_only: bool = False) -> Any:
    """The document in ``path`` as plain Python data, or ``ConfigError`` (see ``game.yaml_files``)."""
    try:
        return read_yaml_file(path, source or str(path), ordinary_only)
    except YamlFileError as exc:
        raise ConfigError(exc.source, "", exc.problem) from None


def parse_yaml_text(text: str, source: str) -> Any:
    """YAML text read with the limits of ``game.yaml_files``; every failure is a ``ConfigError``."""
    try:
        return parse_yaml(text, source)
    except YamlFileError as exc:
        raise ConfigError(exc.source, "", exc.problem) from None


def _key_label(prefix: str, key: Any) -> str:
    # A key is user text too: a 50 MB key is named by its first characters.
    name = quote_text(key_text(key))
    return f"{prefix}.{name}" if prefix else name


def unknown_key_reason(key: Any, allowed: Iterable[str]) -> Problem:
    """Why ``key`` is refused: "unknown key; did you mean X? Allowed keys: ..."."""
    allowed = list(allowed)
    guess = did_you_mean(key, allowed)
    if guess is not None:
        return Problem("unknown_key_guess", {"guess": guess, "allowed": ", ".join(allowed)})
    return Problem("unknown_key", {"allowed": ", ".join(allowed)})


def _type_name(value: Any) -> Problem:
    if value is None:
        return Problem("value.empty")
    if isinstance(value, Mapping):
        return Problem("value.mapping")
    if isinstance(value, list):
        return Problem("value.list")
    return Problem("value.quoted", {"value": quoted(value)})


def _must_be(expected: str, value: Any) -> Problem:
    """"must be <expected>, not <what value is>"; ``expected`` is an ``expect.*`` problem code."""
    return Problem("must_be", {"expected": Problem(expected), "actual": _type_name(value)})


def _require_mapping(value: Any, source: str, key: str, expected: str) -> Mapping[Any, Any]:
    """``value`` if it is a mapping; else ``ConfigError`` saying it must be ``expected`` (an ``expect.*`` code)."""
    if not isinstance(value, Mapping):
        raise ConfigError(source, key, _must_be(expected, value))
    return value


def _reject_unknown_keys(mapping: Mapping[Any, Any], allowed: tuple[str, ...], source: str,
                         prefix: str) -> None:
    for key in mapping:
        if key not in allowed:
            raise ConfigError(source, _key_label(prefix, key), unknown_key_reason(key, allowed))


# --------------------------------------------------------------------------
# House-rule values

def _undo_yaml_booleans(spec: RuleSpec, value: Any) -> Any:
    # YAML 1.1 reads a bare `off` (and `no`) as false. A player who writes
    # `uneven_bids: off` means the word, so give the word back when it is one
    # of the key's choices.
    if spec.kind == "choice" and isinstance(value, bool):
        word = "on" if value else "off"
        if word in spec.choices:
            return word
    return value


def _rule_keys(game: str) -> list[str]:
    return [spec.key for spec in get_game(game).rule_specs]


def check_rule_value(game: str, key: Any, value: Any, source: str, prefix: str) -> Any:
    """One house-rule value checked against its spec; raises ``ConfigError``."""
    game_def = get_game(game)
    spec = game_def.spec(key) if isinstance(key, str) else None
    if spec is None:
        raise ConfigError(source, _key_label(prefix, key),
                          unknown_rule_key(key, _rule_keys(game), game, game_title(game)))
    try:
        return spec.check(_undo_yaml_booleans(spec, value))
    except ProblemValueError as exc:
        # The spec quotes at most a short prefix of the value (short_repr).
        raise ConfigError(source, _key_label(prefix, key), exc.problem) from None


def _check_rule_mapping(game: str, raw: Any, source: str, prefix: str) -> dict[str, Any]:
    """Each value of a ``rules:`` mapping checked on its own (combinations come later)."""
    if raw is None:
        # A section whose entries are all commented out reads as null; that
        # simply means "no changes".
        return {}
    mapping = _require_mapping(raw, source, prefix, "expect.rule_mapping")
    return {str(key): check_rule_value(game, key, value, source, prefix) for key, value in mapping.items()}


@dataclass(frozen=True)
class _Layer:
    """Rule values from one place, and how to name that place in an error."""

    source: str
    prefix: str
    values: Mapping[str, Any]


def _build_rules(game: str, layers: list[_Layer], players: int | None) -> Rules:
    """Rules from the layers, later ones winning; errors blame the layer that broke them.

    Layers are added one at a time so that a combination error (say, hidden
    bidding from ``--set`` against uneven bids from the file) names the layer
    that made the rules invalid rather than the one that happened to be first.
    """
    merged: dict[str, Any] = {}
    rules: Rules | None = None
    for index, layer in enumerate(layers):
        merged.update(layer.values)
        try:
            rules = make_rules(game, merged, players, source=layer.source)
        except RuleConfigError as exc:
            if exc.key in layer.values:
                raise ConfigError(layer.source, _key_label(layer.prefix, exc.key), exc.problem or exc.reason) from None
            # The layer broke a key it did not set (a combination): name the layer, and
            # the key it clashes with where that key was set.
            reason = _clash(exc, layers[:index], layer.source)
            key = layer.prefix if isinstance(reason, Problem) and reason.code == "rules.clash" else \
                layer.prefix or exc.key
            raise ConfigError(layer.source, key, reason) from None
    return rules if rules is not None else make_rules(game, {}, players)


def _clash(exc: RuleConfigError, earlier: list[_Layer], source: str) -> str | Problem:
    """Why a layer of rules cannot be played with the key ``exc`` names, which an
    earlier layer set: "clashes with rules.uneven_bids: it must be off unless ...";
    the earlier layer's source too when it is another file (or ``--set``)."""
    setter = next((layer for layer in reversed(earlier) if exc.key in layer.values), None)
    if exc.problem is None or setter is None:
        return exc.problem or exc.reason
    where = _key_label(setter.prefix, exc.key)
    if setter.source != source:
        where = f"{where} ({setter.source})"
    return Problem("rules.clash", {"entry": where, "reason": exc.problem})


# --------------------------------------------------------------------------
# House-rule files

@dataclass(frozen=True)
class Preset:
    """A named table: a description for the menu and the rules it changes."""

    name: str
    description: str
    rules: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class RuleFile:
    """A validated house-rule file; ``flat`` when it holds just rule keys (no sections)."""

    game: str
    path: Path
    base_rules: dict[str, Any]
    presets: dict[str, Preset]
    flat: bool = False

    @property
    def source(self) -> str:
        return str(self.path)

    @property
    def rules_prefix(self) -> str:
        """Where the file's own rules sit, for naming a key in an error (``rules.min_bid``)."""
        return "" if self.flat else "rules"

    def preset(self, name: str) -> Preset:
        """The preset called ``name``; the error lists the ones there are."""
        try:
            return self.presets[name]
        except KeyError:
            raise ConfigError(self.source, "presets", _unknown_preset(name, list(self.presets))) from None


def _unknown_preset(name: str, presets: list[str]) -> Problem:
    if not presets:
        return Problem("preset.none", {"name": quoted(name)})
    guess = did_you_mean(name, presets)
    params = {"name": quoted(name), "available": ", ".join(presets)}
    if guess is not None:
        return Problem("preset.unknown_guess", {**params, "guess": guess})
    return Problem("preset.unknown", params)


def _check_game_name(game: Any, source: str, key: str = "game") -> str:
    known = game_names()
    if game is None:
        raise ConfigError(source, key, Problem("game.missing", {"allowed": ", ".join(known)}))
    if game not in known:
        raise ConfigError(source, key, Problem("game.unknown", {"allowed": ", ".join(known), "value": quoted(game)}))
    return str(game)


def _read_preset(game: str, name: Any, raw: Any, base: Mapping[str, Any], source: str) -> Preset:
    prefix = _key_label("presets", name)
    if not isinstance(name, str) or not name.strip():
        raise ConfigError(source, prefix, Problem("preset.unnamed"))
    body = _require_mapping(raw, source, prefix, "expect.preset")
    _reject_unknown_keys(body, PRESET_KEYS, source, prefix)
    description = body.get("description", "")
    if not isinstance(description, str):
        raise ConfigError(source, f"{prefix}.description", _must_be("expect.text", description))
    rules = _check_rule_mapping(game, body.get("rules"), source, f"{prefix}.rules")
    # Without the player count only the always-true limits can be checked here;
    # rounds against 60 / players is checked again when a game starts.
    _build_rules(game, [_Layer(source, "rules", base), _Layer(source, f"{prefix}.rules", rules)], None)
    return Preset(name=name, description=description, rules=rules)


def _read_presets(game: str, raw: Any, base: Mapping[str, Any], source: str) -> dict[str, Preset]:
    if raw is None:
        return {}
    mapping = _require_mapping(raw, source, "presets", "expect.preset_mapping")
    return {str(name): _read_preset(game, name, body, base, source) for name, body in mapping.items()}


def _choose_game(named_in_file: Any, named_by_caller: str | None, source: str) -> str:
    """The file's game: named in the file, by the caller (``--game``), or both alike."""
    if named_in_file is None:
        if named_by_caller is None:
            raise ConfigError(source, "game", Problem("game.missing_in_file", {"allowed": ", ".join(game_names())}))
        return _check_game_name(named_by_caller, "game")
    game = _check_game_name(named_in_file, source)
    if named_by_caller is not None and game != named_by_caller:
        raise ConfigError(source, "game", Problem("game.other_file", {"game": game, "wanted": named_by_caller}))
    return game


def _is_sectioned(top: Mapping[Any, Any]) -> bool:
    """The full form: the table's rules under ``rules:`` and/or named ``presets:``."""
    return any(key in top for key in TOP_LEVEL_KEYS if key != "game")


def _reject_stray_top_keys(top: Mapping[Any, Any], game: str, source: str) -> None:
    """A full-form file may hold only game, rules and presets; a rule key belongs under rules."""
    for key in top:
        if key in TOP_LEVEL_KEYS:
            continue
        if key in _rule_keys(game):
            raise ConfigError(source, _key_label("", key),
                              Problem("rule_key_at_top", {"allowed": ", ".join(TOP_LEVEL_KEYS)}))
        raise ConfigError(source, _key_label("", key), unknown_key_reason(key, TOP_LEVEL_KEYS))


def _check_flat_rules(game: str, top: Mapping[Any, Any], source: str) -> dict[str, Any]:
    """The rules of a file that holds just rule keys (and perhaps ``game``), checked key by key."""
    allowed = ["game", *_rule_keys(game)]
    values = {}
    for key, value in top.items():
        if key == "game":
            continue
        if key not in allowed:
            raise ConfigError(source, _key_label("", key), unknown_key_reason(key, allowed))
        values[str(key)] = check_rule_value(game, key, value, source, "")
    return values


def load_rule_file(path: str | Path, game: str | None = None) -> RuleFile:
    """Read and fully validate a house-rule file; raises ``ConfigError``.

    The file holds either just rule keys (a flat mapping, perhaps with
    ``game``) or the full form with ``game``, ``rules`` and ``presets``. The
    game is the file's ``game`` or, when the file names none, ``game``.
    """
    source = str(path)
    document = read_yaml(path, source)
    if document is None:
        raise ConfigError(source, "", Problem("file.empty_rules"))
    top = _require_mapping(document, source, "", "expect.rule_file")
    game = _choose_game(top.get("game"), game, source)
    if not _is_sectioned(top):
        base = _check_flat_rules(game, top, source)
        _build_rules(game, [_Layer(source, "", base)], None)
        return RuleFile(game=game, path=Path(path), base_rules=base, presets={}, flat=True)
    _reject_stray_top_keys(top, game, source)
    base = _check_rule_mapping(game, top.get("rules"), source, "rules")
    _build_rules(game, [_Layer(source, "rules", base)], None)
    presets = _read_presets(game, top.get("presets"), base, source)
    return RuleFile(game=game, path=Path(path), base_rules=base, presets=presets)


def default_rule_file(game: str) -> Path:
    """The bundled house-rule file of ``game``: ``config/<its config_name>.yaml``."""
    return resource_path("config", f"{get_game(_check_game_name(game, 'game')).config_name}.yaml")


# --------------------------------------------------------------------------
# --set options and resolving the rules of a game

def parse_set_option(text: str) -> tuple[str, Any]:
    """Split ``"KEY=VALUE"`` into the key and the YAML-parsed value (``"5"`` -> 5)."""
    if "=" not in text:
        raise ConfigError(SET_OPTION, _key_label("", text.strip()) or "''",
                          f"expected KEY=VALUE (for example {SET_OPTION} min_bid=1), not {quote(text)}")
    key, raw_value = (part.strip() for part in text.split("=", 1))
    if not key:
        raise ConfigError(SET_OPTION, "''", f"missing the key before '=' in {quote(text)}; expected KEY=VALUE")
    if not raw_value:
        raise ConfigError(SET_OPTION, _key_label("", key),
                          f"missing the value after '=' in {quote(text)}; expected KEY=VALUE")
    try:
        value = parse_yaml_text(raw_value, SET_OPTION)
    except ConfigError as exc:
        raise ConfigError(SET_OPTION, _key_label("", key), f"{exc.reason} in {quote(text)}") from None
    return key, value


def _parse_overrides(game: str, overrides: Iterable[str]) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for text in overrides:
        key, value = parse_set_option(text)
        values[key] = check_rule_value(game, key, value, SET_OPTION, "")
    return values


def _check_players(game: str, players: int | None) -> None:
    if players is None:
        return
    game_def = get_game(game)
    low, high = game_def.min_players, game_def.max_players
    if isinstance(players, bool) or not isinstance(players, int) or players not in game_def.player_counts():
        allowed = f"{low}" if low == high else f"{low} to {high}"
        raise ConfigError("game setup", "players",
                          f"{game_title(game)} is played by {allowed} players, not {quote(players)}")


def resolve_rules(game: str, rules_file: str | Path | None = None, preset: str | None = None,
                  overrides: Iterable[str] = (), players: int | None = None) -> Rules:
    """The rules of a game: defaults <- file ``rules`` <- preset <- ``--set`` overrides.

    ``rules_file`` defaults to the bundled file of ``game``. With ``players``
    the limits that depend on the player count (Wizard rounds) are checked too.
    Raises ``ConfigError``.
    """
    game = _check_game_name(game, "game")
    _check_players(game, players)
    rule_file = load_rule_file(rules_file if rules_file is not None else default_rule_file(game), game)
    layers = [_Layer(rule_file.source, rule_file.rules_prefix, rule_file.base_rules)]
    if preset is not None:
        chosen = rule_file.preset(preset)
        layers.append(_Layer(rule_file.source, f"{_key_label('presets', chosen.name)}.rules", chosen.rules))
    layers.append(_Layer(SET_OPTION, "", _parse_overrides(game, overrides)))
    return _build_rules(game, layers, players)


def load_rules_or_defaults(game: str, rules_file: str | Path | None = None, preset: str | None = None,
                           overrides: Iterable[str] = (), players: int | None = None
                           ) -> tuple[Rules, str | None]:
    """Like ``resolve_rules``, but on any problem: the default rules and a message saying so.

    ``game`` itself must be a known game name (it comes from the program, not
    the user).
    """
    rules, problem = load_rules_problem(game, rules_file, preset, overrides, players)
    return rules, str(problem) if problem is not None else None


def load_rules_problem(game: str, rules_file: str | Path | None = None, preset: str | None = None,
                       overrides: Iterable[str] = (), players: int | None = None
                       ) -> tuple[Rules, Problem | None]:
    """``load_rules_or_defaults`` with the message as a ``Problem``, for the window to word."""
    try:
        return resolve_rules(game, rules_file, preset, overrides, players), None
    except ConfigError as exc:
        return make_rules(game), Problem("rules.defaults_used", {
            "error": error_problem(exc), "game": game, "game_title": game_title(game)})


def error_problem(exc: ConfigError) -> Problem:
    """The whole message of ``exc`` as a problem; its English text where the reason has no code."""
    return exc.located_problem() or Problem("untranslated", {"text": str(exc)})


# --------------------------------------------------------------------------
# App settings

ANIMATION_SPEEDS = ("slow", "normal", "fast", "instant")
LANGUAGES = ("en", "nl", "tr")
MAX_AI_PAUSE_SECONDS = 5.0
# A computer's thinking time per decision (the hard level's search budget):
# long enough to search at all, short enough that the table never drags.
MIN_AI_THINK_SECONDS = 0.1
MAX_AI_THINK_SECONDS = 2.0
MIN_WINDOW_SIZE = (800, 600)
MAX_WINDOW_SIDE = 16384
MAX_VOLUME = 100          # the sound effects' volume is a percentage
# The UI scale, in percent of the window's own size factor: larger type and controls.
MIN_UI_SCALE = 100
MAX_UI_SCALE = 200
# The table's looks, by name (drawn by game.ui.art: table_art the felts, card_art the
# backs); the first of each is the look the table always had, and the default.
FELTS = ("green", "blue", "red")
CARD_BACKS = ("lattice", "tartan", "sunburst")


@dataclass
class Settings:
    """App settings: how the program looks and feels, never how the game is played."""

    animation_speed: str = "normal"
    ai_pause_seconds: float = 0.6
    ai_think_seconds: float = 0.3
    hints: bool = True
    undo: bool = True
    auto_play: bool = True     # a human's only legal card plays itself after a short pause
    played_cards: bool = True   # the table's played-cards panel (which cards of each suit are gone)
    four_colour_deck: bool = False
    felt: str = FELTS[0]
    card_back: str = CARD_BACKS[0]
    language: str = "en"
    fullscreen: bool = False
    window_size: tuple[int, int] = (1280, 720)
    volume: int = 70
    mute: bool = False
    ui_scale_percent: int = 100
    large_cards: bool = False

    def to_dict(self) -> dict[str, Any]:
        """Plain data for YAML (which has lists, not tuples)."""
        data = asdict(self)
        data["window_size"] = list(self.window_size)
        return data


# The environment variables that name the user's language, strongest first (as POSIX orders them).
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")


def language_from_locale(names: Iterable[str | None]) -> str | None:
    """The interface language for the first locale name that names a language ("nl_NL.UTF-8",
    "Turkish_Turkey"): nl* is Dutch, tr* (or Turkish) Turkish; None for any other language,
    which keeps the default (English)."""
    for name in names:
        if not name or name in ("C", "POSIX") or name.startswith("C."):
            continue
        lowered = name.lower()
        if lowered.startswith(("nl", "dutch")):
            return "nl"
        if lowered.startswith(("tr", "turkish")):
            return "tr"
        return None
    return None


def system_language() -> str | None:
    """The language the system's locale asks for (``language_from_locale``), for a first start."""
    names: list[str | None] = [os.environ.get(variable) for variable in LOCALE_VARIABLES]
    try:
        names.append(locale.getlocale(locale.LC_CTYPE)[0])
    except ValueError:  # an unparsable locale name in the environment: the variables still count
        pass
    return language_from_locale(names)


def _choice_checker(choices: tuple[str, ...]) -> Callable[[Any], Any]:
    def check(value: Any) -> str:
        if isinstance(value, str) and value in choices:
            return value
        raise ProblemValueError(Problem("value.not_choice", {"choices": ", ".join(choices), "value": quoted(value)}))
    return check


# Each checker returns the value it is given if allowed, else raises
# ``ProblemValueError`` saying what is allowed (a ``ValueError``).

def _check_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    raise ProblemValueError(Problem("value.not_bool", {"value": quoted(value)}))


def _seconds_refused(low: float, high: float, value: Any) -> ProblemValueError:
    return ProblemValueError(Problem("value.not_seconds", {"low": Decimal(low), "high": Decimal(high),
                                                           "value": quoted(value)}))


def _check_ai_pause(value: Any) -> float:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if math.isfinite(value) and 0 <= value <= MAX_AI_PAUSE_SECONDS:
            return float(value)
    raise _seconds_refused(0, MAX_AI_PAUSE_SECONDS, value)


def _check_ai_think(value: Any) -> float:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if math.isfinite(value) and MIN_AI_THINK_SECONDS <= value <= MAX_AI_THINK_SECONDS:
            return float(value)
    raise _seconds_refused(MIN_AI_THINK_SECONDS, MAX_AI_THINK_SECONDS, value)


def _check_window_size(value: Any) -> tuple[int, int]:
    min_w, min_h = MIN_WINDOW_SIZE
    if isinstance(value, (list, tuple)) and len(value) == 2 and all(
            isinstance(side, int) and not isinstance(side, bool) for side in value):
        width, height = value
        if min_w <= width <= MAX_WINDOW_SIDE and min_h <= height <= MAX_WINDOW_SIDE:
            return (width, height)
    raise ProblemValueError(Problem("value.not_window_size", {"width": min_w, "height": min_h,
                                                              "high": MAX_WINDOW_SIDE, "value": quoted(value)}))


def _percent_refused(low: int, high: int, value: Any) -> ProblemValueError:
    return ProblemValueError(Problem("value.not_percent", {"low": low, "high": high, "value": quoted(value)}))


def _check_volume(value: Any) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_VOLUME:
        return value
    raise _percent_refused(0, MAX_VOLUME, value)


def _check_ui_scale(value: Any) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and MIN_UI_SCALE <= value <= MAX_UI_SCALE:
        return value
    raise _percent_refused(MIN_UI_SCALE, MAX_UI_SCALE, value)


SETTING_CHECKS: dict[str, Callable[[Any], Any]] = {
    "animation_speed": _choice_checker(ANIMATION_SPEEDS),
    "ai_pause_seconds": _check_ai_pause,
    "ai_think_seconds": _check_ai_think,
    "hints": _check_bool,
    "undo": _check_bool,
    "auto_play": _check_bool,
    "played_cards": _check_bool,
    "four_colour_deck": _check_bool,
    "felt": _choice_checker(FELTS),
    "card_back": _choice_checker(CARD_BACKS),
    "language": _choice_checker(LANGUAGES),
    "fullscreen": _check_bool,
    "window_size": _check_window_size,
    "volume": _check_volume,
    "mute": _check_bool,
    "ui_scale_percent": _check_ui_scale,
    "large_cards": _check_bool,
}
SETTING_KEYS = tuple(f.name for f in fields(Settings))


def settings_from_dict(data: Any, source: str, base: Settings | None = None) -> Settings:
    """Settings from parsed YAML: keys given override ``base``; raises ``ConfigError``."""
    merged = (base or Settings()).to_dict()
    if data is None:
        data = {}
    mapping = _require_mapping(data, source, "", "expect.settings")
    _reject_unknown_keys(mapping, SETTING_KEYS, source, "")
    for key, value in mapping.items():
        try:
            merged[key] = SETTING_CHECKS[key](value)
        except ProblemValueError as exc:
            raise ConfigError(source, str(key), exc.problem) from None
    merged["window_size"] = _check_window_size(merged["window_size"])
    return Settings(**merged)


def bundled_settings_file() -> Path:
    return resource_path("config", "settings.yaml")


def _bundled_default_settings() -> tuple[Settings, Problem | None]:
    # The bundled file should always be fine; if a packaging mistake broke it,
    # the built-in defaults still let the program start.
    path = bundled_settings_file()
    try:
        return settings_from_dict(read_yaml(path), str(path)), None
    except ConfigError as exc:
        return Settings(), Problem("settings.built_in_used", {"error": error_problem(exc)})


@dataclass
class SettingsFile:
    """What the user's settings file holds, read key by key so one bad key spoils nothing else.

    ``values`` are the good values of known settings, ``bad_keys`` the known
    settings whose value cannot be used (they fall back to their defaults),
    ``unknown`` the well-formed keys this version does not know (a newer
    version's setting, or a typo), kept so that saving does not drop them;
    ``problems`` says what is wrong, one ``Problem`` per key (or one for the
    whole file); ``damaged`` is true when saving over the file would lose something
    it holds (a bad value, text that is not a mapping of settings), so it
    must be backed up first.
    """

    values: dict[str, Any] = field(default_factory=dict)
    bad_keys: list[str] = field(default_factory=list)
    unknown: dict[str, Any] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    damaged: bool = False


# A top-level "key: value" line of a settings file, for reading a file whose
# YAML is broken one line at a time.
_SETTING_LINE = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)\s*:(.*)$")


def _salvage_lines(text: str) -> tuple[dict[str, Any], list[str]]:
    """From a file with broken YAML: the settings readable on their own line,
    and the keys of the lines that are not.

    The program writes one setting per line (lists in brackets), so a typo
    in one line need not cost the others.
    """
    found: dict[str, Any] = {}
    broken: list[str] = []
    for line in text.splitlines():
        match = _SETTING_LINE.match(line)
        if not match:
            continue
        key = match.group(1)
        try:
            parsed = parse_yaml(line, "settings")
        except YamlFileError:
            broken.append(key)
            continue
        if key in found:
            # Given twice: neither line can be trusted to be the one meant.
            del found[key]
            broken.append(key)
        elif isinstance(parsed, dict) and len(parsed) == 1 and key not in broken:
            found.update(parsed)
    return found, broken


def read_settings_file(path: Path) -> SettingsFile:
    """The user's settings file read key by key (see ``SettingsFile``); never raises."""
    result = SettingsFile()
    source = str(path)
    try:
        text = read_limited_text(path, source, ordinary_only=True, salvage=True)
    except YamlFileError as exc:
        # Too big or not text: nothing in it can be read line by line either.
        result.problems.append(exc.problem)
        result.damaged = True
        return result
    except OSError as exc:
        # Nothing can be read, and nothing can be saved over it either.
        result.problems.append(unreadable_file(exc))
        return result
    if text.not_utf8_line is not None:
        # A byte that is no UTF-8 text (in a comment, say) costs only what it is in: it
        # is read as a replacement character, which no setting's value accepts.
        result.problems.append(Problem("file.not_utf8_kept", {"line": text.not_utf8_line}))
        result.damaged = True
    try:
        document = parse_yaml_text(text, source)
    except ConfigError as exc:
        # parse_yaml_text gives every failure a coded reason.
        result.problems.append(exc.problem or Problem("untranslated", {"text": exc.reason}))
        result.damaged = True
        document, broken = _salvage_lines(text)
        result.bad_keys.extend(key for key in broken if key in SETTING_CHECKS)
    if document is None:
        document = {}
    if not isinstance(document, Mapping):
        result.problems.append(_must_be("expect.settings", document))
        result.damaged = True
        return result
    for key, value in document.items():
        name = key_text(key)
        if name not in SETTING_CHECKS:
            result.unknown[name] = value
            result.problems.append(Problem("settings.setting", {"entry": quoted_text(name),
                                                                "reason": unknown_key_reason(name, SETTING_KEYS)}))
            continue
        try:
            result.values[name] = SETTING_CHECKS[name](value)
        except ProblemValueError as exc:
            result.problems.append(Problem("settings.setting", {"entry": name, "reason": exc.problem}))
            result.bad_keys.append(name)
            result.damaged = True
    return result


def load_settings(user_paths: UserPaths) -> tuple[Settings, str | None]:
    """The user's settings over the bundled defaults, and a warning in English or None
    (``load_settings_problem`` gives the warning as a ``Problem``)."""
    settings, problem = load_settings_problem(user_paths)
    return settings, str(problem) if problem is not None else None


def load_settings_problem(user_paths: UserPaths) -> tuple[Settings, Problem | None]:
    """The user's settings over the bundled defaults, and a warning or None.

    The language nobody has chosen yet (the first start) follows the system's
    locale when that is Dutch or Turkish (``system_language``).

    Never raises for a bad file and never changes it: the user may want to fix
    it by hand. Each setting is read on its own, so a bad one falls back to
    its default and the others still count; the warning names what was wrong.
    """
    defaults, warning = _bundled_default_settings()
    # Until the player chooses a language in settings, a Dutch or Turkish system gets its own.
    defaults.language = system_language() or defaults.language
    path = user_paths.settings_file
    if not path.exists():
        return defaults, warning
    found = read_settings_file(path)
    # Every value is checked already; this only lays them over the defaults.
    settings = settings_from_dict(found.values, str(path), base=defaults)
    if not found.problems:
        return settings, warning
    params: dict[str, Any] = {"source": str(path), "problems": tuple(found.problems)}
    if not (found.values or found.unknown):
        message = Problem("settings.all_defaults", params)
    elif found.bad_keys:
        message = Problem("settings.some_defaults", {**params, "keys": ", ".join(found.bad_keys)})
    else:
        message = Problem("settings.others_kept", params)
    return settings, message if warning is None else Problem("two_notices", {"first": warning, "second": message})


_SETTINGS_HEADER = (
    "# Trick Table app settings, written by the program.\n"
    "# The allowed values are described in the bundled config/settings.yaml.\n"
)


def save_settings(settings: Settings, user_paths: UserPaths) -> Path:
    """Write ``settings`` to the user's settings file atomically; returns its path.

    Raises ``ConfigError`` for an invalid value rather than saving a file
    that the next start would reject. Keys of the old file that this version
    does not know are written back unchanged; an old file that held
    something unusable is first copied aside (``back_up_file``), so saving
    never destroys what the user wrote.
    """
    path = user_paths.settings_file
    checked = settings_from_dict(settings.to_dict(), "settings")
    data = checked.to_dict()
    if path.exists():
        found = read_settings_file(path)
        if found.damaged:
            back_up_file(path)
        data.update({key: value for key, value in found.unknown.items() if key not in data})
    body = yaml.safe_dump(data, sort_keys=False, default_flow_style=None, allow_unicode=True)
    atomic_write_text(path, _SETTINGS_HEADER + body)
    return path


def back_up_file(path: Path) -> Path:
    """Copy ``path`` to ``<name>.bad-<date>-<time>`` beside it (atomically); the copy's path.

    Called before a file that cannot be fully read is saved over; an
    ``OSError`` here stops that save, so the original is never lost.
    """
    stamp = time.strftime("%Y%m%d-%H%M%S")
    backup = path.with_name(f"{path.name}.bad-{stamp}")
    number = 1
    while backup.exists():
        number += 1
        backup = path.with_name(f"{path.name}.bad-{stamp}-{number}")
    atomic_copy_file(path, backup)
    log.warning("%s could not be fully read; saved a copy as %s before writing over it", path, backup.name)
    return backup


# ---------------------------------------------------------------- the start screen's last setup

SEAT_KINDS = ("human", "computer")
MAX_SETUP_SEATS = 16       # more rows than any game seats: a bigger list is not one we wrote
MAX_SETUP_TEXT = 64        # a name or level longer than this is not one we wrote


@dataclass
class LastSetup:
    """The choices on the start screen when Start was last pressed.

    ``names``, ``kinds`` (``SEAT_KINDS``) and ``levels`` hold one entry per
    seat row of the start screen, also rows the chosen game does not use, so
    switching games later keeps them. ``preset`` is the preset's name and
    ``edited_rules`` the rules of ``game`` the player changed on top of it
    (Change rules), each checked against its rule (a file written before
    they were kept has none). ``dropped_rules`` says, in English, which
    changed rules the file held that could not be used (never written).
    """

    game: str
    players: int
    names: list[str]
    kinds: list[str]
    levels: list[str]
    preset: str
    edited_rules: dict[str, Any] = field(default_factory=dict)
    dropped_rules: list[str] = field(default_factory=list, compare=False, repr=False)
    renamed: bool = field(default=False, compare=False, repr=False)  # a name was cleaned (game.names)

    def to_dict(self) -> dict[str, Any]:
        return {key: value for key, value in asdict(self).items() if key in LAST_SETUP_KEYS}


#: The keys of a last-setup file.
LAST_SETUP_KEYS = ("game", "players", "names", "kinds", "levels", "preset", "edited_rules")


def _text_list(value: Any, key: str, allowed: tuple[str, ...] | None = None) -> list[str]:
    if not isinstance(value, list) or len(value) > MAX_SETUP_SEATS:
        raise ValueError(f"{key} must be a list of at most {MAX_SETUP_SEATS} texts")
    for item in value:
        if not isinstance(item, str) or len(item) > MAX_SETUP_TEXT:
            raise ValueError(f"{key} must hold texts of at most {MAX_SETUP_TEXT} characters, not {quote(item)}")
        if allowed is not None and item not in allowed:
            raise ValueError(f"{key} must hold only {', '.join(allowed)}, not {quote(item)}")
    return list(value)


def _name_list(value: Any) -> tuple[list[str], bool]:
    """The last setup's names, each cleaned (``game.names``), and whether any had to be:
    one odd name costs nothing else the setup holds."""
    if not isinstance(value, list) or len(value) > MAX_SETUP_SEATS or not all(isinstance(n, str) for n in value):
        raise ValueError(f"names must be a list of at most {MAX_SETUP_SEATS} texts")
    names = [clean_name(item) for item in value]
    return names, names != value


def last_setup_from_dict(data: Any) -> LastSetup:
    """A ``LastSetup`` from parsed YAML; ``ValueError`` naming the first problem."""
    if not isinstance(data, dict):
        raise ValueError("the file must hold a mapping")
    unknown = sorted(str(key) for key in data if key not in LAST_SETUP_KEYS)
    if unknown:
        raise ValueError(f"unknown key {quote(unknown[0])}")
    game = data.get("game")
    if game not in game_names():
        raise ValueError(f"game must be one of {', '.join(game_names())}, not {quote(game)}")
    players = data.get("players")
    counts = get_game(game).player_counts()
    if not isinstance(players, int) or isinstance(players, bool) or players not in counts:
        raise ValueError(f"players must be one of {', '.join(map(str, counts))} for {game}, not {quote(players)}")
    preset = data.get("preset")
    if not isinstance(preset, str) or len(preset) > MAX_SETUP_TEXT:
        raise ValueError(f"preset must be a preset's name, not {quote(preset)}")
    edited, dropped = _edited_rules(game, data.get("edited_rules"))
    names, renamed = _name_list(data.get("names"))
    return LastSetup(game=game, players=players, names=names,
                     kinds=_text_list(data.get("kinds"), "kinds", SEAT_KINDS),
                     levels=_text_list(data.get("levels"), "levels"), preset=preset,
                     edited_rules=edited, dropped_rules=dropped, renamed=renamed)


def _edited_rules(game: str, raw: Any) -> tuple[dict[str, Any], list[str]]:
    """The changed rules of a last setup that ``game`` can use, and why each other one
    cannot (in English, for the log): each is checked on its own, so one damaged value
    costs only that change; whether they fit together the start screen says, as for
    any change."""
    if raw is None:
        return {}, []
    if not isinstance(raw, dict):
        return {}, [f"edited_rules must be a mapping of rules to values, not {quote(raw)}"]
    kept: dict[str, Any] = {}
    dropped: list[str] = []
    for key, value in raw.items():
        try:
            kept[str(key)] = check_rule_value(game, key, value, "last setup", "edited_rules")
        except ConfigError as exc:
            dropped.append(str(exc))
    return kept, dropped


def _read_last_setup(path: Path) -> LastSetup:
    """The setup in ``path``; ``ConfigError`` or ``ValueError`` naming the first problem."""
    return last_setup_from_dict(read_yaml(path, ordinary_only=True))


def load_last_setup(user_paths: UserPaths) -> LastSetup | None:
    """The last setup saved, or None when there is none or it cannot be used (logged)."""
    path = user_paths.last_setup_file
    if not path.exists():
        return None
    try:
        setup = _read_last_setup(path)
    except (ConfigError, ValueError) as exc:
        log.warning("ignoring the last start-screen setup in %s: %s", path, exc)
        return None
    for reason in setup.dropped_rules:
        log.warning("ignoring a changed rule of the last start-screen setup in %s (the preset's value is used): %s",
                    path, reason)
    return setup


_LAST_SETUP_HEADER = "# The start screen's last setup, written by Trick Table when a game starts.\n"


def save_last_setup(setup: LastSetup, user_paths: UserPaths) -> Path:
    """Write ``setup`` atomically beside the settings; returns its path (``OSError`` on a write failure).

    An old file that cannot be used is copied aside first (``back_up_file``):
    it may be a hand edit worth keeping.
    """
    path = user_paths.last_setup_file
    if path.is_file():
        try:
            usable = not _read_last_setup(path).dropped_rules
        except (ConfigError, ValueError):
            usable = False
        if not usable:
            back_up_file(path)
    body = yaml.safe_dump(setup.to_dict(), sort_keys=False, default_flow_style=None, allow_unicode=True)
    atomic_write_text(path, _LAST_SETUP_HEADER + body)
    return path
