"""House-rule files: read, check and layer a game's rules (file, preset, ``--set``).

Every problem raises ``ConfigError`` naming the file, the key and what is allowed;
``load_rules_problem`` is the window's forgiving front door (default rules plus the problem).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game.rules.errors import RuleConfigError
from game.rules.house_rules import Rules, RuleSpec, make_rules, unknown_rule_key
from game.rules.problems import Problem, ProblemValueError, did_you_mean
from game.rules.registry import game_names, get_game
from game.settings.paths import resource_path
from game.settings.yaml_files import (
    YamlFileError,
    key_text,
    parse_yaml_text as parse_yaml,
    quote,
    quote_text,
    quoted,
    read_yaml_file,
)

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
    """The document in ``path`` as plain Python data, or ``ConfigError`` (see ``game.settings.yaml_files``)."""
    try:
        return read_yaml_file(path, source or str(path), ordinary_only)
    except YamlFileError as exc:
        raise ConfigError(exc.source, "", exc.problem) from None


def parse_yaml_text(text: str, source: str) -> Any:
    """YAML text read with the limits of ``game.settings.yaml_files``; every failure is a ``ConfigError``."""
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
    """ "must be <expected>, not <what value is>"; ``expected`` is an ``expect.*`` problem code."""
    return Problem("must_be", {"expected": Problem(expected), "actual": _type_name(value)})


def _require_mapping(value: Any, source: str, key: str, expected: str) -> Mapping[Any, Any]:
    """``value`` if it is a mapping; else ``ConfigError`` saying it must be ``expected`` (an ``expect.*`` code)."""
    if not isinstance(value, Mapping):
        raise ConfigError(source, key, _must_be(expected, value))
    return value


def _reject_unknown_keys(mapping: Mapping[Any, Any], allowed: tuple[str, ...], source: str, prefix: str) -> None:
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
        raise ConfigError(
            source, _key_label(prefix, key), unknown_rule_key(key, _rule_keys(game), game, game_title(game))
        )
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
            key = (
                layer.prefix
                if isinstance(reason, Problem) and reason.code == "rules.clash"
                else layer.prefix or exc.key
            )
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
            raise ConfigError(
                source, _key_label("", key), Problem("rule_key_at_top", {"allowed": ", ".join(TOP_LEVEL_KEYS)})
            )
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
        raise ConfigError(
            SET_OPTION,
            _key_label("", text.strip()) or "''",
            f"expected KEY=VALUE (for example {SET_OPTION} min_bid=1), not {quote(text)}",
        )
    key, raw_value = (part.strip() for part in text.split("=", 1))
    if not key:
        raise ConfigError(SET_OPTION, "''", f"missing the key before '=' in {quote(text)}; expected KEY=VALUE")
    if not raw_value:
        raise ConfigError(
            SET_OPTION, _key_label("", key), f"missing the value after '=' in {quote(text)}; expected KEY=VALUE"
        )
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
        raise ConfigError(
            "game setup", "players", f"{game_title(game)} is played by {allowed} players, not {quote(players)}"
        )


def resolve_rules(
    game: str,
    rules_file: str | Path | None = None,
    preset: str | None = None,
    overrides: Iterable[str] = (),
    players: int | None = None,
) -> Rules:
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


def load_rules_or_defaults(
    game: str,
    rules_file: str | Path | None = None,
    preset: str | None = None,
    overrides: Iterable[str] = (),
    players: int | None = None,
) -> tuple[Rules, str | None]:
    """Like ``resolve_rules``, but on any problem: the default rules and a message saying so.

    ``game`` itself must be a known game name (it comes from the program, not
    the user).
    """
    rules, problem = load_rules_problem(game, rules_file, preset, overrides, players)
    return rules, str(problem) if problem is not None else None


def load_rules_problem(
    game: str,
    rules_file: str | Path | None = None,
    preset: str | None = None,
    overrides: Iterable[str] = (),
    players: int | None = None,
) -> tuple[Rules, Problem | None]:
    """``load_rules_or_defaults`` with the message as a ``Problem``, for the window to word."""
    try:
        return resolve_rules(game, rules_file, preset, overrides, players), None
    except ConfigError as exc:
        return make_rules(game), defaults_used_problem(game, exc)


def defaults_used_problem(game: str, exc: ConfigError) -> Problem:
    """Why ``game`` is played with its built-in rules: ``exc``, the rule file's refusal."""
    return Problem("rules.defaults_used", {"error": error_problem(exc), "game": game, "game_title": game_title(game)})


def error_problem(exc: ConfigError) -> Problem:
    """The whole message of ``exc`` as a problem; its English text where the reason has no code."""
    return exc.located_problem() or Problem("untranslated", {"text": str(exc)})


# --------------------------------------------------------------------------
# App settings
