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
(joined with "; "), ``Grouped`` (a count written with thousands
separators), ``Decimal`` (a number with a fraction, written with the
language's decimal mark) or ``Refusal`` (the engine's reason for refusing a
move, worded in the window as the table words any refused move); anything
else is shown as it is. The module lives with the rules, which import
nothing outside ``game.rules``, so that they can raise problems too;
``game.settings.yaml_files`` and ``game.config`` use the same table.
"""

from __future__ import annotations

import difflib
import string
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the errors module builds its messages with this one
    from game.rules.errors import IllegalActionError

# Every problem the program can word, with its English template. The window
# looks up "problem.<code>" in the catalogue; the placeholders of each
# catalogue entry are those of the English template here. A key of a file
# is the parameter "entry" ("key" is the name of the catalogue key itself
# in ``game.ui.text.t``).
PROBLEMS: dict[str, str] = {
    # Where a problem is: a file (or other source), and the key in it when there is one.
    "located": "{source}: {reason}",
    "located_key": "{source}: {entry}: {reason}",
    "located_line": "{source}: line {line}: {reason}",
    # The program's own names for where a value came from, when it is no file (see ``located``).
    "source.house_rules": "house rules",
    "source.hand_history": "hand history",
    "at_line": "line {line}",
    "at_unknown_line": "an unknown line",
    # Reading a file at all.
    "file.unreadable": "cannot read the file: {reason}",
    "file.not_utf8": "cannot read the file: it is not UTF-8 text",
    "file.not_utf8_kept": "line {line} holds bytes that are not UTF-8 text; what could be read is kept",
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
    "yaml.long_number": "a number of about {digits} digits at {where}; no Trick Table value is that long",
    # The same sentences without the parser's English words (see ``WITHOUT_DETAIL``).
    "yaml.syntax.no_detail": "YAML syntax error",
    "yaml.syntax_at.no_detail": "YAML syntax error at line {line}, column {column}",
    "yaml.unsupported.no_detail": "unsupported YAML value",
    "yaml.unsupported_at.no_detail": "unsupported YAML value at line {line}, column {column}",
    "yaml.error.no_detail": "YAML error",
    "yaml.bad_value.no_detail": "YAML value that cannot be read",
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
    # A game the rules do not know, and house rules a recorded or saved game carries that cannot be read.
    "rules.unknown_game": "unknown game {value}; allowed: {allowed}",
    "rules.record_not_mapping": "must map house-rule keys to values, not {kind}",
    "rules.record_unknown_key": "a {game_title} house rule this version does not know (the record may come "
                                "from a newer Trick Table); known keys: {known}",
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
    "rules.clash": "clashes with {entry}: it {reason}",
    # What the program did about it.
    "rules.defaults_used": "{error}. Playing with the default {game_title} rules instead.",
    "settings.built_in_used": "{error}. Using the built-in default settings.",
    "settings.setting": "{entry}: {reason}",
    "settings.some_defaults": "{source}: {problems}. Using the default {keys} and keeping your other settings; "
                              "your file was left unchanged.",
    "settings.others_kept": "{source}: {problems}. Keeping your other settings; your file was left unchanged.",
    "settings.all_defaults": "{source}: {problems}. Using the default settings; your file was left unchanged.",
    "two_notices": "{first}\n{second}",
    # A hand-history file (``game.persistence.history_reader``) that cannot be read, line by line.
    "history.unreadable": "cannot read: {reason}",
    "history.not_utf8": "not UTF-8 text",
    "history.incomplete": "the last game is incomplete (its write was cut short; it is set aside the next time "
                          "a game is saved)",
    "history.not_json": "not valid JSON ({detail})",
    "history.not_json.no_detail": "not valid JSON",
    "history.too_deep": "not a hand history (nested too deeply to read)",
    "history.long_number": "not a hand history (a number too long to read)",
    "history.too_long": "longer than {limit} MB, so no game (it was read past, not kept)",
    "history.duplicate_key": "the key {entry} is given twice in one object (which one is meant cannot be told)",
    "history.foreign": "not a Trick Table hand history",
    "history.version": "history version {version} is not supported (this program reads version {supported})",
    "history.bad_name": "the name of player {seat} holds a character no name may hold ({character})",
    # A recorded game the replay viewer cannot open (``game.persistence.replay_timeline``).
    "replay.game_number": "--game: game numbers start at 1, not {number}",
    "replay.no_games": "{source} holds no games",
    "replay.no_such_game": "{source} has no game {number} (it holds {games})",
    "replay.rules_refused": "the game cannot be set up: {reason}",
    "replay.cannot_set_up": "the game cannot be set up: {detail}",
    "replay.cannot_set_up.no_detail": "the game cannot be set up",
    "replay.no_deals": "the game has no readable deals",
    "replay.over_early": "deal {deal}: the game was already over",
    "replay.deal_unreadable": "deal {deal}: unreadable ({detail})",
    "replay.deal_unreadable.no_detail": "deal {deal}: unreadable",
    "replay.move_illegal": "deal {deal}: the engine refuses a recorded move ({reason})",
    "replay.move_refused": "deal {deal}: the engine refuses a recorded move ({detail})",
    "replay.move_refused.no_detail": "deal {deal}: the engine refuses a recorded move",
    # A saved game that cannot be continued (``game.persistence.savegame``).
    "save.system_error": "{reason}",
    "save.too_big": "the file is larger than any save ({limit} bytes)",
    "save.not_utf8": "the file is not UTF-8 text",
    "save.too_deep": "the file is nested too deeply to read",
    "save.long_number": "the file holds a number too long to read",
    "save.not_json": "the file is not valid JSON ({detail} at character {position})",
    "save.not_json.no_detail": "the file is not valid JSON (at character {position})",
    "save.foreign": "the file is not a Trick Table save",
    "save.no_version": "the save has no valid version number ({value})",
    "save.newer": "it was made by a newer Trick Table (save version {version}; this one reads versions "
                  "{oldest} to {newest})",
    "save.older": "save version {version} is older than any this program reads ({oldest} to {newest})",
    "save.bad_time": "saved_at must be a date and time, not {value}",
    "save.move_illegal": "{reason}",
    "save.damaged": "{detail}",
    "save.damaged.no_detail": "the saved game is damaged",
    "save.controller": "seat {seat} is played by {value}, which is neither a person nor a computer player",
    "save.not_regular": "it is not an ordinary file",
    "save.cannot_continue": "the table could not go on with it; the log has the details",
    # Games the statistics (``game.persistence.stats``) could not count ({detail}: Python's own words).
    "stats.game": "{source}: game {number}: {reason}",
    "stats.not_summarized": "the game cannot be summarized: {detail}",
    "stats.not_summarized.no_detail": "the game cannot be summarized",
    "stats.not_counted": "{source}: game {number}: cannot be counted ({detail})",
    "stats.not_counted.no_detail": "{source}: game {number}: cannot be counted",
    "stats.folder_unreadable": "{source}: {reason}",
    "stats.more_damage": "{source}: {count} more damaged lines skipped",
    # A message only the command line was meant to meet (a malformed --set), shown as written.
    "untranslated": "{text}",
    # An error the program did not expect (a fault of its own), with the English it was raised with.
    "unexpected": "{detail}",
    "unexpected.no_detail": "something unexpected went wrong in Trick Table",
}

# The parameter ``detail`` of a sentence is a library's own English words about
# what it could not read (json's "Expecting value", PyYAML's "expected the node
# content, but found '<stream end>'"). A wording that leaves such words out
# (``Wording.details`` false: a language other than English) uses the sentence
# ``<code>.no_detail`` instead, which says the same without them; where the
# problem is (a line and column, a deal) stays in it.
NO_DETAIL_SUFFIX = ".no_detail"
WITHOUT_DETAIL: dict[str, str] = {code.removesuffix(NO_DETAIL_SUFFIX): code
                                  for code in PROBLEMS if code.endswith(NO_DETAIL_SUFFIX)}

# Problems in a list parameter are joined with this, in every language (a
# semicolon between clauses reads the same in English, Dutch and Turkish).
LIST_SEPARATOR = "; "


class Grouped(int):
    """A count shown with thousands separators ("262,144" in English, "262.144" in Dutch)."""


class Decimal(float):
    """A number that may have a fraction, shown without trailing zeros and with the language's decimal mark."""


@dataclass(frozen=True)
class Refusal:
    """Why the engine refused a move, as a parameter: the ``IllegalActionError``'s ``code`` and
    ``params`` (which the window words in the player's language) and its English ``message``."""

    code: str
    params: Mapping[str, Any]
    message: str

    @classmethod
    def of(cls, error: IllegalActionError) -> Refusal:
        """The refusal ``error`` carries (its parameters copied, so the problem holds plain data)."""
        return cls(error.code, dict(error.params), error.message)


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
        """This problem's sentence in the words ``wording`` gives (its parameters worded first),
        without a library's English detail when ``wording`` leaves it out."""
        code = self.code if wording.details else WITHOUT_DETAIL.get(self.code, self.code)
        return wording.template(code, {name: _param_words(value, wording)
                                       for name, value in self.params.items()})


def template_fields(template: str) -> set[str]:
    """The ``{name}`` parameters of a template."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@dataclass(frozen=True)
class Wording:
    """How to word problems in one language: the template of a code filled in with
    worded parameters, a grouped count, a number with a fraction and the engine's
    refusal of a move; ``details`` says whether a library's English words are
    shown (see ``WITHOUT_DETAIL``)."""

    template: Callable[[str, dict[str, Any]], str]
    grouped: Callable[[int], str]
    decimal: Callable[[float], str]
    refusal: Callable[[Refusal], str]
    details: bool = True


def _param_words(value: Any, wording: Wording) -> Any:
    if isinstance(value, Problem):
        return value.worded(wording)
    if isinstance(value, tuple) and all(isinstance(item, Problem) for item in value):
        return LIST_SEPARATOR.join(item.worded(wording) for item in value)
    if isinstance(value, Grouped):
        return wording.grouped(int(value))
    if isinstance(value, Decimal):
        return wording.decimal(float(value))
    if isinstance(value, Refusal):
        return wording.refusal(value)
    return value


english_wording = Wording(template=lambda code, params: PROBLEMS[code].format(**params),
                          grouped=lambda count: f"{count:,}",
                          decimal=lambda number: f"{number:g}",
                          refusal=lambda refusal: refusal.message)


class ProblemValueError(ValueError):
    """A ``ValueError`` whose message is a ``Problem`` (a value checker's refusal, a hand history or
    saved game that cannot be read); ``str()`` is the English."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem))
        self.problem = problem


def did_you_mean(word: Any, names: Iterable[str]) -> str | None:
    """The one of ``names`` closest to ``word``, whatever the case of either
    (``TARGET_SCORE`` finds ``target_score``); None when none is close."""
    by_lower: dict[str, str] = {}
    for name in names:
        by_lower.setdefault(name.lower(), name)
    # A key is user text: a 50 MB key is compared by its start.
    close = difflib.get_close_matches(str(word)[:200].lower(), list(by_lower), n=1)
    return by_lower[close[0]] if close else None


def line_problem(line: int | None) -> Problem:
    """Where in a file: "line 12" (``line`` counted from 1), or an unknown line."""
    return Problem("at_line", {"line": line}) if line is not None else Problem("at_unknown_line")


# The names the program itself gives a source of house rules that is no file
# (``make_rules``' default, the rules read from a hand history): English words
# of the program, so the window words them; a file name is shown as written.
PROGRAM_SOURCES: dict[str, Problem] = {
    "house rules": Problem("source.house_rules"),
    "hand history": Problem("source.hand_history"),
}


def located(source: str, key: str, reason: Problem) -> Problem:
    """``reason`` with where it was found: "source: key: reason", or "source: reason" without a key.

    ``source`` is a file name (shown as written) or one of ``PROGRAM_SOURCES`` (worded)."""
    where: str | Problem = PROGRAM_SOURCES.get(source, source)
    if key:
        return Problem("located_key", {"source": where, "entry": key, "reason": reason})
    return Problem("located", {"source": where, "reason": reason})


def located_line(source: str, line: int, reason: Problem) -> Problem:
    """``reason`` with the file and line it was found on: "source: line 12: reason"."""
    return Problem("located_line", {"source": source, "line": line, "reason": reason})


# ---------------------------------------------------------------------- kept in files
def problem_to_json(problem: Problem) -> dict[str, Any]:
    """``problem`` as plain JSON data (for a cache that keeps problems between runs);
    ``problem_from_json`` reads it back."""
    return {"code": problem.code, "params": {name: _param_to_json(value) for name, value in problem.params.items()}}


def _param_to_json(value: Any) -> Any:
    if isinstance(value, Problem):
        return {"problem": problem_to_json(value)}
    if isinstance(value, tuple) and all(isinstance(item, Problem) for item in value):
        return {"problems": [problem_to_json(item) for item in value]}
    if isinstance(value, Grouped):
        return {"grouped": int(value)}
    if isinstance(value, Decimal):
        return {"decimal": float(value)}
    if value is None or isinstance(value, (str, int, float)):
        return value
    return str(value)


def problem_from_json(data: Any) -> Problem:
    """The problem ``problem_to_json`` wrote; ``ValueError`` for anything else (a damaged
    file, or a code this program does not know)."""
    if not isinstance(data, dict) or not isinstance(data.get("code"), str) or not isinstance(data.get("params"), dict):
        raise ValueError("not a problem")
    return Problem(data["code"], {str(name): _param_from_json(value) for name, value in data["params"].items()})


def _param_from_json(value: Any) -> Any:
    if isinstance(value, dict) and len(value) == 1:
        (kind, inner), = value.items()
        if kind == "problem":
            return problem_from_json(inner)
        if kind == "problems" and isinstance(inner, list):
            return tuple(problem_from_json(item) for item in inner)
        if kind == "grouped" and type(inner) is int:
            return Grouped(inner)
        if kind == "decimal" and isinstance(inner, (int, float)) and not isinstance(inner, bool):
            return Decimal(inner)
    if value is None or isinstance(value, (str, int, float)):
        return value
    raise ValueError("not a problem parameter")
