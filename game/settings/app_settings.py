"""App settings (speed, language, window, sound...): read one key at a time, saved without loss.

A bad value falls back to its bundled default alone; a file that held anything unusable
is copied aside (``back_up_file``) before it is saved over.
"""

from __future__ import annotations

import locale
import logging
import math
import os
import re
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

import yaml

from game.rules.problems import Decimal, Problem, ProblemValueError
from game.settings.house_rule_files import (
    ConfigError,
    _must_be,
    _reject_unknown_keys,
    _require_mapping,
    error_problem,
    parse_yaml_text,
    read_yaml,
    unknown_key_reason,
)
from game.settings.paths import UserPaths, atomic_copy_file, atomic_write_text, resource_path
from game.settings.yaml_files import (
    YamlFileError,
    key_text,
    parse_yaml_text as parse_yaml,
    quoted,
    quoted_text,
    read_limited_text,
    unreadable_file,
)

log = logging.getLogger("tricktable.config")

ANIMATION_SPEEDS = ("slow", "normal", "fast", "instant")
LANGUAGES = ("en", "nl", "tr")
MAX_AI_PAUSE_SECONDS = 5.0
# A computer's thinking time per decision when the player sets one (every searching level's
# budget): long enough to search at all, short enough that the table never drags. None,
# "Automatic", lets each level think its own default time (hard 0.3 s, expert 0.9 s).
MIN_AI_THINK_SECONDS = 0.1
MAX_AI_THINK_SECONDS = 2.0
MIN_WINDOW_SIZE = (800, 600)
MAX_WINDOW_SIDE = 16384
MAX_VOLUME = 100  # the sound effects' volume is a percentage
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
    ai_think_seconds: float | None = None  # None: each level's own default time
    hints: bool = True
    undo: bool = True
    auto_play: bool = True  # a human's only legal card plays itself after a short pause
    played_cards: bool = True  # the table's played-cards panel (which cards of each suit are gone)
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
    return ProblemValueError(
        Problem("value.not_seconds", {"low": Decimal(low), "high": Decimal(high), "value": quoted(value)})
    )


def _check_ai_pause(value: Any) -> float:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if math.isfinite(value) and 0 <= value <= MAX_AI_PAUSE_SECONDS:
            return float(value)
    raise _seconds_refused(0, MAX_AI_PAUSE_SECONDS, value)


def _check_ai_think(value: Any) -> float | None:
    if value is None:  # null: Automatic
        return None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if math.isfinite(value) and MIN_AI_THINK_SECONDS <= value <= MAX_AI_THINK_SECONDS:
            return float(value)
    raise ProblemValueError(
        Problem(
            "value.not_think_seconds",
            {"low": Decimal(MIN_AI_THINK_SECONDS), "high": Decimal(MAX_AI_THINK_SECONDS), "value": quoted(value)},
        )
    )


def _check_window_size(value: Any) -> tuple[int, int]:
    min_w, min_h = MIN_WINDOW_SIZE
    if (
        isinstance(value, (list, tuple))
        and len(value) == 2
        and all(isinstance(side, int) and not isinstance(side, bool) for side in value)
    ):
        width, height = value
        if min_w <= width <= MAX_WINDOW_SIDE and min_h <= height <= MAX_WINDOW_SIDE:
            return (width, height)
    raise ProblemValueError(
        Problem(
            "value.not_window_size", {"width": min_w, "height": min_h, "high": MAX_WINDOW_SIDE, "value": quoted(value)}
        )
    )


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
            result.problems.append(
                Problem(
                    "settings.setting", {"entry": quoted_text(name), "reason": unknown_key_reason(name, SETTING_KEYS)}
                )
            )
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
