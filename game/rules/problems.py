"""What is wrong with a file or value, as a code and parameters rather than an English sentence.

A problem that may reach a player's screen (a refused YAML file, a bad house
rule, a bad setting) is a ``Problem``: a ``code`` from ``PROBLEMS`` and the
plain parameters of that sentence (a line number, a key as written in the
file, a quoted value, a list of allowed names). The command line and the log
read it in English through ``str(problem)``, worded from the English
templates of ``PROBLEMS``; the window words the same problem in the player's
language from the catalogue keys ``problem.<code>`` (``game.ui.text``). The
English templates here and the English catalogue agree word for word (a test
holds them to it), so a message reads the same on the command line and in an
English window.

A parameter may itself be a ``Problem`` (the reason inside "file: key:
reason", or "not a list" inside "must be ..., not ..."), a tuple of problems
(joined with "; "), ``Grouped`` (a count written with thousands separators)
or ``Decimal`` (a number with a fraction, written with the language's
decimal mark); anything else is shown as it is. The module lives with the
rules, which import nothing outside ``game.rules``, so that they can raise
problems too; ``game.yaml_files`` and ``game.config`` use the same table.
"""

from __future__ import annotations

import string
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

# Every problem the program can word, with its English template. The window
# looks up "problem.<code>" in the catalogue; the placeholders of each
# catalogue entry are those of the English template here. A key of a file
# is the parameter "entry" ("key" is the name of the catalogue key itself
# in ``game.ui.text.t``).
PROBLEMS: dict[str, str] = {
    # Where a problem is: a file (or other source), and the key in it when there is one.
    "located": "{source}: {reason}",
    "located_key": "{source}: {entry}: {reason}",
    "at_line": "line {line}",
    "at_unknown_line": "an unknown line",
    # Reading a file at all.
    "file.unreadable": "cannot read the file: {reason}",
    "file.not_utf8": "cannot read the file: it is not UTF-8 text",
    "file.too_big": "the file is larger than {limit} KB ({size} bytes); it cannot be a Trick Table file",
    "file.too_big_unmeasured": "the file is larger than {limit} KB; it cannot be a Trick Table file",
    # YAML the guarded reader refuses or cannot parse ({detail} is the parser's own English words).
    "yaml.alias": "alias *{name} at {where}: anchors and aliases (&name, *name) are not allowed in Trick Table files",
    "yaml.anchor": "anchor &{name} at {where}: anchors and aliases (&name, *name) are not allowed in Trick Table files",
    "yaml.too_deep": "nesting deeper than {levels} levels at {where}",
    "yaml.duplicate_key": "duplicate key {entry} at line {line} (already given at line {first})",
    "yaml.syntax": "YAML syntax error: {detail}",
    "yaml.syntax_at": "YAML syntax error at line {line}, column {column}: {detail}",
    "yaml.unsupported": "unsupported YAML value: {detail}",
    "yaml.unsupported_at": "unsupported YAML value at line {line}, column {column}: {detail}",
    "yaml.error": "YAML error: {detail}",
    "yaml.bad_value": "YAML value that cannot be read: {detail}",
    # What a value is, inside "must be ..., not {actual}".
    "value.empty": "empty",
    "value.mapping": "a mapping",
    "value.list": "a list",
    "value.quoted": "{value}",
    # A value too long to show whole: its start and its size.
    "value.cut": "{start}... ({length} characters)",
    "value.long_number": "a number of about {digits} digits",
    "value.long_list": "a list of {entries} entries",
    "value.long_mapping": "a mapping of {entries} entries",
    # What a value must be, inside "must be {expected}".
    "expect.rule_mapping": "a mapping of rule keys to values",
    "expect.rule_file": "a mapping of rule keys to values, or with the keys game, rules and presets",
    "expect.preset_mapping": "a mapping of preset names to presets",
    "expect.preset": "a mapping with description and rules",
    "expect.settings": "a mapping of setting names to values",
    "expect.text": "text",
    "must_be": "must be {expected}, not {actual}",
    # Keys that are not allowed where they are.
    "unknown_key": "unknown key; Allowed keys: {allowed}",
    "unknown_key_guess": "unknown key; did you mean {guess}? Allowed keys: {allowed}",
    "unknown_rule_key": "unknown key; Allowed keys for {game_title}: {allowed}",
    "unknown_rule_key_guess": "unknown key; did you mean {guess}? Allowed keys for {game_title}: {allowed}",
    "rule_key_at_top": "a rule key belongs under rules: in a file that has rules: or presets: "
                       "(allowed keys here: {allowed})",
    # The game a rule file is for, and its presets.
    "game.missing": "missing; must be one of {allowed}",
    "game.unknown": "must be one of {allowed}, not {value}",
    "game.missing_in_file": "missing; name the game in the file (game: one of {allowed}) or with --game",
    "game.other_file": "this file is for {game}, but the game being set up is {wanted}",
    "file.empty_rules": "the file is empty; expected rule keys with their values (such as target_score: 5) "
                        "or the keys game, rules and presets",
    "preset.unnamed": "a preset name must be a non-empty word",
    "preset.unknown": "no preset named {name}; available presets: {available}",
    "preset.unknown_guess": "no preset named {name} (did you mean {guess}?); available presets: {available}",
    "preset.none": "no preset named {name}; available presets: (this file has none)",
    # A value that is not one of those allowed (house rules and settings alike).
    "value.not_bool": "must be true or false, not {value}",
    "value.not_choice": "must be one of {choices}, not {value}",
    "value.not_whole": "must be a whole number from {low} to {high}, not {value}",
    "value.not_rounds": "must be full or a whole number from {low} to {high}, not {value}",
    "value.not_seconds": "must be a number of seconds from {low} to {high}, not {value}",
    "value.not_percent": "must be a whole number of percent from {low} to {high}, not {value}",
    "value.not_window_size": "must be [width, height] in whole pixels, at least [{width}, {height}] "
                             "and at most {high} each, not {value}",
    # Combinations of house rules that cannot be played.
    "rules.uneven_needs_open": "must be off unless bidding is open (bidding is {bidding})",
    "rules.too_many_rounds": "must be full or at most {most} with {players} players (60 cards / {players}), "
                             "not {rounds}",
    # What the program did about it.
    "rules.defaults_used": "{error}. Playing with the default {game_title} rules instead.",
    "settings.built_in_used": "{error}. Using the built-in default settings.",
    "settings.setting": "{entry}: {reason}",
    "settings.some_defaults": "{source}: {problems}. Using the default {keys} and keeping your other settings; "
                              "your file was left unchanged.",
    "settings.others_kept": "{source}: {problems}. Keeping your other settings; your file was left unchanged.",
    "settings.all_defaults": "{source}: {problems}. Using the default settings; your file was left unchanged.",
    "two_notices": "{first}\n{second}",
    # A message only the command line was meant to meet (a malformed --set), shown as written.
    "untranslated": "{text}",
}

# Problems in a list parameter are joined with this, in every language (a
# semicolon between clauses reads the same in English, Dutch and Turkish).
LIST_SEPARATOR = "; "


class Grouped(int):
    """A count shown with thousands separators ("262,144" in English, "262.144" in Dutch)."""


class Decimal(float):
    """A number that may have a fraction, shown without trailing zeros and with the language's decimal mark."""


@dataclass(frozen=True)
class Problem:
    """One problem: its ``code`` (a key of ``PROBLEMS``) and the parameters its sentence needs."""

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # A code without English words, or words without their parameters, is
        # a bug in the program: found where the problem is made, not later on
        # a player's screen.
        template = PROBLEMS.get(self.code)
        if template is None:
            raise ValueError(f"unknown problem code {self.code!r}")
        missing = template_fields(template) - set(self.params)
        if missing:
            raise ValueError(f"problem {self.code!r} lacks {', '.join(sorted(missing))}")

    def __str__(self) -> str:
        return self.worded(english_wording)

    def worded(self, wording: Wording) -> str:
        """This problem's sentence in the words ``wording`` gives (its parameters worded first)."""
        return wording.template(self.code, {name: _param_words(value, wording)
                                            for name, value in self.params.items()})


def template_fields(template: str) -> set[str]:
    """The ``{name}`` parameters of a template."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@dataclass(frozen=True)
class Wording:
    """How to word problems in one language: the template of a code filled in with
    worded parameters, a grouped count and a number with a fraction."""

    template: Callable[[str, dict[str, Any]], str]
    grouped: Callable[[int], str]
    decimal: Callable[[float], str]


def _param_words(value: Any, wording: Wording) -> Any:
    if isinstance(value, Problem):
        return value.worded(wording)
    if isinstance(value, tuple) and all(isinstance(item, Problem) for item in value):
        return LIST_SEPARATOR.join(item.worded(wording) for item in value)
    if isinstance(value, Grouped):
        return wording.grouped(int(value))
    if isinstance(value, Decimal):
        return wording.decimal(float(value))
    return value


english_wording = Wording(template=lambda code, params: PROBLEMS[code].format(**params),
                          grouped=lambda count: f"{count:,}",
                          decimal=lambda number: f"{number:g}")


class ProblemValueError(ValueError):
    """A ``ValueError`` whose message is a ``Problem`` (a value checker's refusal); ``str()`` is the English."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem))
        self.problem = problem


def line_problem(line: int | None) -> Problem:
    """Where in a file: "line 12" (``line`` counted from 1), or an unknown line."""
    return Problem("at_line", {"line": line}) if line is not None else Problem("at_unknown_line")


def located(source: str, key: str, reason: Problem) -> Problem:
    """``reason`` with where it was found: "source: key: reason", or "source: reason" without a key."""
    if key:
        return Problem("located_key", {"source": source, "entry": key, "reason": reason})
    return Problem("located", {"source": source, "reason": reason})
