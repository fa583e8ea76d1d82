"""The start screen's last setup (game, seats, preset, edited rules), kept beside the settings.

A convenience: a missing or damaged file is logged and ignored, never shown as an error.
"""

from __future__ import annotations

import logging
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import yaml

from game.rules.registry import game_names, get_game
from game.session.names import clean_name
from game.settings.app_settings import back_up_file
from game.settings.house_rule_files import ConfigError, check_rule_value, read_yaml
from game.settings.paths import UserPaths, atomic_write_text
from game.settings.yaml_files import (
    quote,
)

log = logging.getLogger("tricktable.config")

SEAT_KINDS = ("human", "computer")
MAX_SETUP_SEATS = 16  # more rows than any game seats: a bigger list is not one we wrote
MAX_SETUP_TEXT = 64  # a name or level longer than this is not one we wrote


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
    renamed: bool = field(default=False, compare=False, repr=False)  # a name was cleaned (game.session.names)

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
    """The last setup's names, each cleaned (``game.session.names``), and whether any had to be:
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
    return LastSetup(
        game=game,
        players=players,
        names=names,
        kinds=_text_list(data.get("kinds"), "kinds", SEAT_KINDS),
        levels=_text_list(data.get("levels"), "levels"),
        preset=preset,
        edited_rules=edited,
        dropped_rules=dropped,
        renamed=renamed,
    )


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
        log.warning(
            "ignoring a changed rule of the last start-screen setup in %s (the preset's value is used): %s",
            path,
            reason,
        )
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
