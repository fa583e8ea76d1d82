"""What is wrong with a file or value, as a code and parameters rather than an English sentence.

The ``Problem`` mechanism and its wording, the codes the rules raise, and ``register_problems``,
with which each layer above registers the codes it raises.
"""

from __future__ import annotations

# A problem that may reach a player's screen (a refused YAML file, a bad house
# rule, a bad setting) is a ``Problem``: a ``code`` from ``PROBLEMS`` and the
# plain parameters of that sentence (a line number, a key as written in the
# file, a quoted value, a list of allowed names). The command line and the log
# read it in English through ``str(problem)``, worded from the English
# templates of ``PROBLEMS``; the window words the same problem in the player's
# language from the catalogue keys ``problem.<code>`` (``game.ui.text``). The
# English templates here and the English catalogue agree word for word (a test
# holds them to it), so a message reads the same on the command line and in an
# English window.
#
# A parameter may itself be a ``Problem`` (the reason inside "file: key:
# reason", or "not a list" inside "must be ..., not ..."), a tuple of problems
# (joined with "; "), ``Grouped`` (a count written with thousands
# separators), ``Decimal`` (a number with a fraction, written with the
# language's decimal mark) or ``Refusal`` (the engine's reason for refusing a
# move, worded in the window as the table words any refused move); anything
# else is shown as it is. The module lives with the rules, which import
# nothing outside ``game.rules``, so that they can raise problems too; it holds
# the codes the rules raise, and each layer above registers the codes it raises
# (its ``problem_texts`` module) with ``register_problems``.

import difflib
import string
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the errors module builds its messages with this one
    from game.rules.errors import IllegalActionError

# The problems the rules themselves raise (a house-rule value, key or
# combination that is not allowed, and where it was found), with their
# English templates. The window looks up "problem.<code>" in the catalogue;
# the placeholders of each catalogue entry are those of the English template.
# A key of a file is the parameter "entry" ("key" is the name of the
# catalogue key itself in ``game.ui.text.t``).
RULE_PROBLEMS: dict[str, str] = {
    # Where a problem is: a source (a file, or one of ``PROGRAM_SOURCES``), and the key in it when there is one.
    "located": "{source}: {reason}",
    "located_key": "{source}: {entry}: {reason}",
    # The program's own names for where a value came from, when it is no file (see ``located``).
    "source.house_rules": "house rules",
    "source.hand_history": "hand history",
    # A house-rule key a game does not have.
    "unknown_rule_key": "unknown key; Allowed keys for {game_title}: {allowed}",
    "unknown_rule_key_guess": "unknown key; did you mean {guess}? Allowed keys for {game_title}: {allowed}",
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
    # Combinations of house rules that cannot be played.
    "rules.uneven_needs_open": "must be off unless bidding is open (bidding is {bidding})",
    "rules.too_many_rounds": "must be full or at most {most} with {players} players (60 cards / {players}), "
    "not {rounds}",
}

# The parameter ``detail`` of a sentence is a library's own English words about
# what it could not read (json's "Expecting value", PyYAML's "expected the node
# content, but found '<stream end>'"). A wording that leaves such words out
# (``Wording.details`` false: a language other than English) uses the sentence
# ``<code>.no_detail`` instead, which says the same without them; where the
# problem is (a line and column, a deal) stays in it.
NO_DETAIL_SUFFIX = ".no_detail"

# Every code registered so far, with its English template, and the codes that
# have a sentence without a library's words (see above). The rules register
# theirs below; each layer above registers its own table (a ``problem_texts``
# module its package imports) with ``register_problems``, so a code is known
# wherever a module that raises it has been imported.
PROBLEMS: dict[str, str] = {}
WITHOUT_DETAIL: dict[str, str] = {}


def register_problems(table: Mapping[str, str]) -> None:
    """Add ``table`` (code: English template) to the codes problems may carry.

    A code registered twice is a bug (two layers claiming one sentence, or a
    table loaded twice): ``ValueError``, and nothing of ``table`` is added."""
    taken = sorted(PROBLEMS.keys() & table.keys())
    if taken:
        raise ValueError(f"problem codes registered twice: {', '.join(taken)}")
    PROBLEMS.update(table)
    WITHOUT_DETAIL.update(
        {code.removesuffix(NO_DETAIL_SUFFIX): code for code in table if code.endswith(NO_DETAIL_SUFFIX)}
    )


register_problems(RULE_PROBLEMS)

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
            raise ValueError(f"unknown problem code {self.code!r} (not in the table of any layer imported so far)")
        missing = template_fields(template) - set(self.params)
        if missing:
            raise ValueError(f"problem {self.code!r} lacks {', '.join(sorted(missing))}")

    def __str__(self) -> str:
        return self.worded(english_wording)

    def worded(self, wording: Wording) -> str:
        """This problem's sentence in the words ``wording`` gives (its parameters worded first),
        without a library's English detail when ``wording`` leaves it out."""
        code = self.code if wording.details else WITHOUT_DETAIL.get(self.code, self.code)
        return wording.template(code, {name: _param_words(value, wording) for name, value in self.params.items()})


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


english_wording = Wording(
    template=lambda code, params: PROBLEMS[code].format(**params),
    grouped=lambda count: f"{count:,}",
    decimal=lambda number: f"{number:g}",
    refusal=lambda refusal: refusal.message,
)


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
        ((kind, inner),) = value.items()
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
