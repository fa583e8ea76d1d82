"""Checks that see everything, said in the player's words (issue 25, item 7).

House-rule files, ``--set`` and the settings file are read by one guarded
YAML reader (``game.settings.yaml_files``) and checked key by key (``game.settings``).
Each row of the tables below is an input that used to be misread or
answered in Python's words, with what the answer must now say and what it
must never show:

- ``1:30`` is YAML 1.1's base-60 number 90: it is read as the text it is,
  so a key that wants a number refuses it;
- an unknown key gets "did you mean" whatever its case;
- a preset (or ``--set``) that clashes with a key set elsewhere names that key;
- a date, a ``null`` key and a number too long for Python are shown as
  they were written, never as ``datetime.date(...)``, ``None`` or Python's
  digit-limit text;
- one byte that is not UTF-8 (in a comment) costs the settings file nothing
  else: every other setting is kept.

Rows are data so that the hostile-input suite (issue 25, item 8) can take them over.
"""

from __future__ import annotations

import pytest

from game.rules.problems import Problem
from game.settings.app_settings import load_settings_problem
from game.settings.house_rule_files import ConfigError, resolve_rules
from game.settings.paths import UserPaths
from game.ui.text import problem_words, set_language

# Words no message may show: Python's names for values and its own error texts.
PYTHON_WORDS = ("datetime", "None", "True", "sys.set_int_max_str_digits", "Exceeds the limit", "Traceback")

WIZARD_CLASH = (
    "game: wizard\nrules:\n  uneven_bids: always\n"
    "presets:\n  quiet:\n    description: hidden bids\n    rules:\n      bidding: hidden\n"
)

# (rules file text, game, preset, --set values, words the error must hold)
RULE_ROWS = {
    "base-60 number": (
        "target_score: 1:30\n",
        "bidwhist",
        None,
        [],
        "target_score: must be a whole number from 1 to 99, not '1:30'",
    ),
    "base-60 number in --set": (
        "",
        "bidwhist",
        None,
        ["target_score=1:30"],
        "--set: target_score: must be a whole number from 1 to 99, not '1:30'",
    ),
    "base-60 fraction": ("target_score: 1:30.5\n", "bidwhist", None, [], "not '1:30.5'"),
    "key in capitals": (
        "TARGET_SCORE: 5\n",
        "bidwhist",
        None,
        [],
        "TARGET_SCORE: unknown key; did you mean target_score?",
    ),
    "key in capitals in --set": ("", "bidwhist", None, ["Target_Score=5"], "did you mean target_score?"),
    "preset that clashes with the file's rules": (
        WIZARD_CLASH,
        "wizard",
        "quiet",
        [],
        "presets.quiet.rules: clashes with rules.uneven_bids: it must be off unless bidding is open",
    ),
    "--set that clashes with the file's rules": (
        "game: wizard\nrules:\n  uneven_bids: always\n",
        "wizard",
        None,
        ["bidding=hidden"],
        "--set: clashes with rules.uneven_bids ({file}): it must be off unless bidding is open",
    ),
    "date": ("target_score: 2024-01-01\n", "bidwhist", None, [], "not 2024-01-01"),
    "null key": ("~: 5\n", "bidwhist", None, [], "null: unknown key"),
    "number too long for Python": (
        "target_score: " + "1" * 5000 + "\n",
        "bidwhist",
        None,
        [],
        "a number of about 5,000 digits at line 1; no Trick Table value is that long",
    ),
}


@pytest.mark.parametrize("row", RULE_ROWS)
def test_a_rules_file_or_set_value_is_refused_in_the_players_words(tmp_path, row):
    text, game, preset, overrides, words = RULE_ROWS[row]
    path = tmp_path / "rules.yaml"
    path.write_text(text or f"game: {game}\n", encoding="utf-8")
    with pytest.raises(ConfigError) as refused:
        resolve_rules(game, path, preset, overrides)
    message = str(refused.value)
    assert words.format(file=path) in message
    assert not any(word in message for word in PYTHON_WORDS), message
    # The window words the same problem in Dutch, with none of the English sentence.
    problem = refused.value.located_problem()
    assert isinstance(problem, Problem)
    try:
        set_language("nl")
        dutch = problem_words(problem)
    finally:
        set_language("en")
    assert dutch != message and not any(word in dutch for word in PYTHON_WORDS), dutch


# (settings file bytes, the settings that must be kept, words the warning must hold)
# Each row: the file's bytes, the settings kept from it, and words its warning says.
SETTINGS_ROWS: dict[str, tuple[bytes, dict[str, object], str]] = {
    "a byte that is not UTF-8 in a comment": (
        b"volume: 40\n# caf\xe9 au lait\nmute: true\nlanguage: nl\n",
        {"volume": 40, "mute": True, "language": "nl"},
        "line 2 holds bytes that are not UTF-8 text; what could be read is kept",
    ),
    "a byte that is not UTF-8 in a value": (
        b"volume: 40\nlanguage: n\xff\n",
        {"volume": 40},
        "language: must be one of en, nl, tr",
    ),
    "a base-60 number": (
        b"volume: 40\nai_pause_seconds: 1:30\n",
        {"volume": 40},
        "ai_pause_seconds: must be a number of seconds",
    ),
    "a null key": (b"volume: 40\n~: 1\n", {"volume": 40}, "null: unknown key"),
    "a date": (
        b"volume: 2024-01-01\nmute: true\n",
        {"mute": True},
        "volume: must be a whole number of percent from 0 to 100, not 2024-01-01",
    ),
}


@pytest.mark.parametrize("row", SETTINGS_ROWS)
def test_a_settings_file_keeps_what_can_be_read_and_says_the_rest_in_the_players_words(tmp_path, row):
    content, kept, words = SETTINGS_ROWS[row]
    paths = UserPaths.from_data_dir(tmp_path / "data")
    paths.settings_file.parent.mkdir(parents=True, exist_ok=True)
    paths.settings_file.write_bytes(content)
    settings, problem = load_settings_problem(paths)
    assert problem is not None
    message = str(problem)
    assert words in message and not any(word in message for word in PYTHON_WORDS), message
    assert {key: getattr(settings, key) for key in kept} == kept
    assert paths.settings_file.read_bytes() == content, "the file is left as it was"


def test_yaml_elsewhere_still_reads_base_60_as_yaml_does():
    # Only our guarded reader leaves base 60 out; PyYAML itself is not changed for others.
    import yaml

    assert yaml.safe_load("a: 1:30") == {"a": 90}
    from game.settings.yaml_files import parse_yaml_text

    assert parse_yaml_text("a: 1:30\nb: 90\nc: 0x10\nd: 1.5\n", "test") == {"a": "1:30", "b": 90, "c": 16, "d": 1.5}
