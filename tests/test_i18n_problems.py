"""Problems with files and values, and fractions, in the player's language (issue 12, item 1).

A refused YAML file, a bad house-rule file or value and a bad settings file
reach the window as a ``game.rules.problems.Problem`` (a code and
parameters), which ``game.ui.text.problem_words`` words from the
catalogue's ``problem.<code>`` sentences; the command line and the log keep
the English (``str``). These tests hold that together:

- every code of ``PROBLEMS`` (every code registered, the rules' and each layer's) has a sentence in each
  catalogue with the same placeholders, the English one word for word the
  template of the table; every code the source makes (read from the calls
  that make problems, with ``ast``) is in the table, and every code of the
  table is made somewhere (a check shown to fail on a made-up source);
- for each family (YAML refusals, rule files, the rule editor, settings
  files, the settings notice in the window, the start screen's warning) a
  problem made from a real bad file or value is worded in Dutch and Turkish
  exactly as the catalogue words it, with none of the English sentence left,
  and in English exactly as the command line prints it;
- numbers with a fraction use the language's decimal mark;
- an error without a code keeps its English to an English window.
"""

from __future__ import annotations

import ast
import functools
import inspect
import json
import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest

from game.rules import get_game
from game.rules.errors import RuleConfigError
from game.rules.house_rules import make_rules
from game.rules.problems import (
    NO_DETAIL_SUFFIX,
    PROBLEMS,
    Decimal,
    Grouped,
    Problem,
    problem_from_json,
    problem_to_json,
    template_fields,
)
from game.settings.app_settings import load_settings, load_settings_problem, settings_from_dict
from game.settings.house_rule_files import ConfigError, default_rule_file, load_rule_file, load_rules_problem
from game.settings.paths import UserPaths
from game.settings.yaml_files import MAX_YAML_BYTES, YamlFileError, parse_yaml_text, read_yaml_file
from game.ui import text
from game.ui.scenes.rules_editor import rules_problem
from game.ui.scenes.settings_scene import seconds_cycler
from game.ui.text import decimal_words, error_words, grouped_words, problem_words, set_language, text_in
from game.ui.widgets.charts import draw_line_chart
from test_i18n import _called_name, read_catalog_file

ROOT = Path(__file__).resolve().parent.parent
TRANSLATIONS = ("nl", "tr")


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    yield
    set_language("en")


def words_in(language: str, problem: Problem) -> str:
    set_language(language)
    return problem_words(problem)


def error_in(language: str, error: BaseException) -> str:
    set_language(language)
    return error_words(error)


def catalogue(language: str, code: str, **params: Any) -> str:
    """The catalogue's sentence for ``code``, filled in by hand (independent of ``problem_words``)."""
    return text_in(language, f"problem.{code}", **params)


def assert_no_english(worded: str, *english: str) -> None:
    for phrase in english:
        assert phrase not in worded, f"English {phrase!r} left in {worded!r}"


# ---------------------------------------------------------------------- the table and the catalogues


@pytest.mark.parametrize("language", ["en", *TRANSLATIONS])
def test_every_problem_code_has_a_sentence_with_its_placeholders(language):
    catalogue_entries = read_catalog_file(language)
    missing = sorted(code for code in PROBLEMS if f"problem.{code}" not in catalogue_entries)
    assert not missing, f"{language}.yaml lacks problem sentences: {missing}"
    wrong = sorted(
        code
        for code, template in PROBLEMS.items()
        if template_fields(catalogue_entries[f"problem.{code}"]) != template_fields(template)
    )
    assert not wrong, f"{language}.yaml: placeholders differ from the table for {wrong}"


def test_the_english_sentences_are_the_table_word_for_word():
    english = read_catalog_file("en")
    differ = sorted(code for code, template in PROBLEMS.items() if english[f"problem.{code}"] != template)
    assert not differ, f"en.yaml words these problems otherwise than the command line: {differ}"


def test_the_translations_are_not_the_english():
    # Only the sentences that are nothing but placeholders and punctuation may read the same.
    for language in TRANSLATIONS:
        entries = read_catalog_file(language)
        same = sorted(
            code
            for code, template in PROBLEMS.items()
            if entries[f"problem.{code}"] == template and re.search(r"[a-z]{3}", re.sub(r"{\w+}", "", template))
        )
        assert not same, f"{language}.yaml leaves these problems in English: {same}"


# ---------------------------------------------------------------------- which codes the source makes
#
# A code is "made" where it reaches ``Problem(code, ...)``: as a literal there,
# or through a function that passes one of its own parameters on as the code
# (``_must_be(expected)``, ``history._line_error(path, number, code)``, and
# any function that calls one of those with its own parameter in turn). Only
# the arguments of such calls count, so the ``PROBLEMS`` table itself (whose
# keys are strings in the source too) makes nothing.


@dataclass(frozen=True)
class CodeTaker:
    """A callable that takes a problem code: the code's position among the call's arguments and its name."""

    position: int
    name: str


@dataclass
class CodesMade:
    """What a set of modules makes: each code as a pattern with the place that makes it, and the places whose
    code cannot be read from the source (a call's result, an attribute) and so cannot be checked."""

    made: list[tuple[re.Pattern[str], str]] = field(default_factory=list)
    unreadable: list[str] = field(default_factory=list)

    def makes(self, code: str) -> bool:
        """Whether some call makes ``code``; a ``.no_detail`` sentence is made with the sentence it stands for
        (``Problem.worded`` picks it through ``WITHOUT_DETAIL``, never by name)."""
        if any(pattern.fullmatch(code) for pattern, _ in self.made):
            return True
        return code.endswith(NO_DETAIL_SUFFIX) and self.makes(code.removesuffix(NO_DETAIL_SUFFIX))


def _parameters(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    """A function's positional parameters as a caller passes them (a method's self or cls left out)."""
    names = [argument.arg for argument in [*function.args.posonlyargs, *function.args.args]]
    return names[1:] if names and names[0] in ("self", "cls") else names


def _code_argument(call: ast.Call, taker: CodeTaker) -> ast.expr | None:
    if len(call.args) > taker.position and not any(isinstance(arg, ast.Starred) for arg in call.args):
        return call.args[taker.position]
    return next((keyword.value for keyword in call.keywords if keyword.arg == taker.name), None)


def _scopes(trees: dict[str, ast.Module]) -> Iterator[tuple[str, ast.AST, list[str]]]:
    """Every module and function body with its file and its parameters (a module has none)."""
    for place, tree in trees.items():
        yield place, tree, []
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                yield place, node, _parameters(node)


def _own_nodes(scope: ast.AST) -> Iterator[ast.AST]:
    """The nodes of ``scope`` outside the functions and classes defined in it (they are scopes of their own)."""
    # Walked with a stack of child iterators, in the same order as a recursive walk, which would
    # pass every node up through each level of nesting.
    pending = [ast.iter_child_nodes(scope)]
    while pending:
        child = next(pending[-1], None)
        if child is None:
            pending.pop()
        elif isinstance(child, ast.ClassDef):
            pending.append(ast.iter_child_nodes(child))
        elif not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            yield child
            pending.append(ast.iter_child_nodes(child))


def _scope_calls(trees: dict[str, ast.Module]) -> list[tuple[str, ast.AST, list[str], list[ast.Call]]]:
    """Every scope (see ``_scopes``) with the calls made in it, each scope walked once."""
    return [
        (place, scope, parameters, [node for node in _own_nodes(scope) if isinstance(node, ast.Call)])
        for place, scope, parameters in _scopes(trees)
    ]


def _code_takers(scopes: list[tuple[str, ast.AST, list[str], list[ast.Call]]]) -> dict[str, CodeTaker]:
    """``Problem`` and every function that passes one of its parameters on as a code, found until no more are."""
    takers = {"Problem": CodeTaker(0, "code")}
    found = True
    while found:
        found = False
        for _, scope, parameters, calls in scopes:
            if not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)) or scope.name in takers:
                continue
            for node in calls:
                taker = takers.get(_called_name(node) or "")
                argument = _code_argument(node, taker) if taker is not None else None
                if isinstance(argument, ast.Name) and argument.id in parameters:
                    takers[scope.name] = CodeTaker(parameters.index(argument.id), argument.id)
                    found = True
                    break
    return takers


def _assigned(scope: ast.AST, name: str) -> list[ast.expr]:
    """The values ``name`` is given in ``scope`` (``name = value``)."""
    return [
        node.value
        for node in _own_nodes(scope)
        if isinstance(node, ast.Assign)
        and any(isinstance(target, ast.Name) and target.id == name for target in node.targets)
    ]


def _patterns(expression: ast.expr, scope: ast.AST) -> list[str] | None:
    """The codes ``expression`` can be, as regular expressions; None when the source does not say."""
    if isinstance(expression, ast.Constant) and isinstance(expression.value, str):
        return [re.escape(expression.value)]
    if isinstance(expression, ast.IfExp):
        body, orelse = _patterns(expression.body, scope), _patterns(expression.orelse, scope)
        return body + orelse if body is not None and orelse is not None else None
    if isinstance(expression, ast.Name):
        values = [_patterns(value, scope) for value in _assigned(scope, expression.id)]
        if not values or any(value is None for value in values):
            return None
        return [pattern for value in values if value is not None for pattern in value]
    if isinstance(expression, ast.JoinedStr):
        parts = []
        for part in expression.values:
            if isinstance(part, ast.Constant):
                parts.append(re.escape(str(part.value)))
            else:
                inner = _patterns(part.value, scope) if isinstance(part, ast.FormattedValue) else None
                parts.append("(?:" + "|".join(inner) + ")" if inner else ".+")
        return ["".join(parts)]
    return None


# Functions that rebuild a problem kept in a file (the statistics cache) from
# its stored code: they make no code of their own, and the code they read back
# was made, and checked, where the problem was first made.
REBUILDERS = {"problem_from_json"}


def codes_made(sources: dict[str, str]) -> CodesMade:
    """The problem codes the modules ``sources`` (place: source text) make, and where (see above)."""
    trees = {place: ast.parse(source) for place, source in sources.items()}
    scopes = _scope_calls(trees)
    takers = _code_takers(scopes)
    result = CodesMade()
    for place, scope, parameters, calls in scopes:
        if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)) and scope.name in REBUILDERS:
            continue
        for node in calls:
            taker = takers.get(_called_name(node) or "")
            if taker is None:
                continue
            where = f"{place}:{node.lineno}"
            argument = _code_argument(node, taker)
            if isinstance(argument, ast.Name) and argument.id in parameters:
                continue  # a function passing its caller's code on: counted at its callers
            patterns = _patterns(argument, scope) if argument is not None else None
            if patterns is None:
                result.unreadable.append(where)
            else:
                result.made.extend((re.compile(pattern), where) for pattern in patterns)
    return result


def unmade_codes(table: Mapping[str, str], made: CodesMade) -> list[str]:
    """The codes of ``table`` nothing makes."""
    return sorted(code for code in table if not made.makes(code))


def unknown_codes(table: Mapping[str, str], made: CodesMade) -> list[str]:
    """The places that make a code ``table`` does not have."""
    return [
        f"{pattern.pattern} ({where})"
        for pattern, where in made.made
        if not any(pattern.fullmatch(code) for code in table)
    ]


def game_sources() -> dict[str, str]:
    return {
        str(path.relative_to(ROOT)): path.read_text(encoding="utf-8") for path in sorted((ROOT / "game").rglob("*.py"))
    }


@functools.lru_cache(maxsize=1)
def game_codes_made() -> CodesMade:
    """What the whole of ``game/`` makes, read once per test process (the reading takes a second or two)."""
    return codes_made(game_sources())


def test_every_code_the_source_makes_is_in_the_table():
    made = game_codes_made()
    assert len(made.made) > 40, "the source makes its problems with Problem(<code>, ...)"
    assert not made.unreadable, "problem codes this check cannot read: " + ", ".join(made.unreadable)
    unknown = unknown_codes(PROBLEMS, made)
    assert not unknown, "problem codes missing from PROBLEMS:\n" + "\n".join(unknown)


def test_every_code_of_the_table_is_made_by_the_source():
    unused = unmade_codes(PROBLEMS, game_codes_made())
    assert not unused, f"codes nothing makes: {unused}"


FAKE_SOURCE = """
TABLE = {"used": "a", "through_helpers": "b", "unused": "c", "chosen.one": "d", "chosen.two": "e",
         "built_at": "f", "used.no_detail": "g"}


def _located(where, code):
    return Problem(code, {"where": where})


def reason(code):
    return _located("here", code)


def choose(first):
    kind = "chosen.one" if first else "chosen.two"
    return Problem(kind), Problem(f"{'built'}_at")


reason("through_helpers")
Problem("used")
Problem(code="typo")
Problem(TABLE["used"])
"""


def test_the_code_check_reports_an_unused_code_an_unknown_one_and_one_it_cannot_read():
    table = {
        code: ""
        for code in (
            "used",
            "through_helpers",
            "unused",
            "chosen.one",
            "chosen.two",
            "built_at",
            "used.no_detail",
            "never.no_detail",
        )
    }
    made = codes_made({"fake.py": FAKE_SOURCE})
    # The table's own keys are strings of the source too, but no call makes "unused".
    assert unmade_codes(table, made) == ["never.no_detail", "unused"]
    assert unknown_codes(table, made) == ["typo (fake.py:21)"]
    assert made.unreadable == ["fake.py:22"]


def test_a_problem_with_an_unknown_code_or_a_missing_parameter_is_refused_where_it_is_made():
    with pytest.raises(ValueError, match="unknown problem code"):
        Problem("no.such.code")
    with pytest.raises(ValueError, match="lacks line"):
        Problem("at_line", {})


# ---------------------------------------------------------------------- YAML refusals

YAML_CASES = {
    "alias": ("a: &x 1\nb: *x\n", "anchors and aliases"),
    "duplicate key": ("a: 1\nb: 2\na: 3\n", "duplicate key"),
    "too deep": ("a: " + "[" * 40 + "]" * 40 + "\n", "nesting deeper"),
    "syntax error": ("a: [1, 2\nb: 3\n", "YAML syntax error at line"),
    "unsupported value": ("a: !!python/object:os.system x\n", "unsupported YAML value"),
}


@pytest.mark.parametrize("case", sorted(YAML_CASES))
def test_a_refused_yaml_text_is_worded_in_each_language(case):
    source, english_phrase = YAML_CASES[case]
    with pytest.raises(YamlFileError) as info:
        parse_yaml_text(source, "house.yaml")
    error = info.value
    assert error_in("en", error) == str(error), "the English window reads as the command line"
    assert english_phrase in str(error)
    for language in TRANSLATIONS:
        worded = error_in(language, error)
        assert worded.startswith("house.yaml: ") and worded != str(error)
        assert_no_english(worded, english_phrase, " at line ", "not allowed")


def test_a_duplicate_key_names_both_lines_in_dutch_and_turkish():
    with pytest.raises(YamlFileError) as info:
        parse_yaml_text("a: 1\nb: 2\na: 3\n", "house.yaml")
    problem = info.value.problem
    for language in TRANSLATIONS:
        assert words_in(language, problem) == catalogue(language, "yaml.duplicate_key", entry="a", line=3, first=1)
    assert words_in("tr", problem) == "a anahtarı iki kez yazılmış: satır 3 (ilk kez satır 1)"


def test_an_alias_names_its_line_in_the_languages_words_for_a_line():
    with pytest.raises(YamlFileError) as info:
        parse_yaml_text("a: &x 1\nb: *x\n", "house.yaml")
    for language in TRANSLATIONS:
        where = catalogue(language, "at_line", line=1)
        assert words_in(language, info.value.problem) == catalogue(language, "yaml.anchor", name="x", where=where)


def test_a_file_too_big_counts_its_bytes_with_the_languages_thousands_separator(tmp_path):
    path = tmp_path / "big.yaml"
    path.write_text("# " + "x" * MAX_YAML_BYTES + "\n", encoding="utf-8")
    with pytest.raises(YamlFileError) as info:
        parse_yaml_text(path.read_text(encoding="utf-8"), str(path))
    size = MAX_YAML_BYTES + 3
    assert f"({size:,} bytes)" in str(info.value)
    dutch = words_in("nl", info.value.problem)
    assert dutch == catalogue("nl", "file.too_big", limit=256, size=f"{size:,}".replace(",", "."))
    assert_no_english(dutch, "larger than", "cannot be")
    with pytest.raises(YamlFileError) as unmeasured:
        read_yaml_file(path)
    assert words_in("tr", unmeasured.value.problem) == catalogue("tr", "file.too_big_unmeasured", limit=256)


def test_a_file_that_is_not_text_or_cannot_be_opened(tmp_path):
    binary = tmp_path / "binary.yaml"
    binary.write_bytes(b"\xff\xfe\x00a")
    with pytest.raises(YamlFileError) as info:
        read_yaml_file(binary)
    assert words_in("nl", info.value.problem) == catalogue("nl", "file.not_utf8")
    with pytest.raises(YamlFileError) as missing:
        read_yaml_file(tmp_path / "nowhere.yaml")
    # The reason is the operating system's own text, after the translated sentence.
    reason = missing.value.problem.params["reason"]
    assert words_in("tr", missing.value.problem) == catalogue("tr", "file.unreadable", reason=reason)
    assert "cannot read" not in words_in("tr", missing.value.problem)


# ---------------------------------------------------------------------- house-rule files


def rule_file(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "house.yaml"
    path.write_text(body, encoding="utf-8")
    return path


def config_error(path: Path, game: str | None = None) -> ConfigError:
    with pytest.raises(ConfigError) as info:
        load_rule_file(path, game)
    return info.value


def test_an_unknown_rule_key_keeps_the_key_and_the_guess_as_written(tmp_path):
    path = rule_file(tmp_path, "game: bidwhist\nrules:\n  targt_score: 5\n")
    error = config_error(path)
    assert "did you mean target_score?" in str(error)
    allowed = ", ".join(spec.key for spec in get_game("bidwhist").rule_specs)
    for language in TRANSLATIONS:
        set_language(language)
        reason = catalogue(
            language,
            "unknown_rule_key_guess",
            guess="target_score",
            allowed=allowed,
            game_title=text.t(get_game("bidwhist").text("title")),
        )
        assert error_words(error) == catalogue(
            language, "located_key", source=str(path), entry="rules.targt_score", reason=reason
        )
        assert_no_english(error_words(error), "unknown key", "did you mean", "Allowed keys")
    assert "bedoel je target_score?" in error_in("nl", error)
    assert error_in("en", error) == str(error)


@pytest.mark.parametrize(
    ("body", "english"),
    [
        ("game: bidwhist\nrules:\n  min_bid: 9\n", "must be a whole number from 1 to 7, not 9"),
        ("game: bidwhist\nrules:\n  boston: triple\n", "must be one of off, double, wins_game, not 'triple'"),
        ("game: bidwhist\nrules:\n  jokers: maybe\n", "must be true or false, not 'maybe'"),
        ("game: wizard\nrules:\n  rounds: 99\n", "must be full or a whole number from 1 to 20, not 99"),
        ("game: wizard\nrules:\n  bidding: hidden\n  uneven_bids: always\n", "must be off unless bidding is open"),
        ("game: wizard\nrules: [1, 2]\n", "must be a mapping of rule keys to values, not a list"),
        ("game: bidwhist\npresets:\n  short:\n    description: 5\n", "must be text, not 5"),
        ("game: bidwhist\ntarget_score: 5\nrules: {}\n", "a rule key belongs under rules:"),
        ("game: hearts\n", "must be one of"),
        ("", "the file is empty"),
        ("- 1\n", "must be a mapping of rule keys to values, or with the keys"),
    ],
)
def test_a_bad_rule_file_is_worded_in_each_language(tmp_path, body, english):
    error = config_error(rule_file(tmp_path, body))
    assert english in str(error)
    assert error_in("en", error) == str(error)
    for language in TRANSLATIONS:
        worded = error_in(language, error)
        assert worded.startswith(str(tmp_path)) and worded != str(error)
        assert_no_english(worded, "must be", "not allowed", "belongs under", "the file is empty")


def test_a_bad_value_in_dutch_reads_as_the_catalogue_says(tmp_path):
    path = rule_file(tmp_path, "game: bidwhist\nrules:\n  min_bid: 9\n")
    error = config_error(path)
    reason = catalogue("nl", "value.not_whole", low=1, high=7, value="9")
    assert error_in("nl", error) == catalogue(
        "nl", "located_key", source=str(path), entry="rules.min_bid", reason=reason
    )
    assert error_in("nl", error).endswith("moet een geheel getal van 1 tot en met 7 zijn, niet 9")


def test_the_window_warning_for_a_bad_rule_file_names_the_game_by_its_title(tmp_path):
    path = rule_file(tmp_path, "game: wizard\nrules:\n  rounds: 99\n")
    rules, problem = load_rules_problem("wizard", path)
    assert rules == make_rules("wizard") and problem is not None
    assert str(problem).endswith("Playing with the default Wizard rules instead.")
    for language in TRANSLATIONS:
        set_language(language)
        title = text.t(get_game("wizard").text("title"))
        worded = problem_words(problem)
        assert title in worded and "Playing with" not in worded and "must be" not in worded


def test_the_start_screen_words_its_rule_file_warning_in_the_language_of_the_moment(tmp_path, monkeypatch):
    from game.ui.scenes import start_scene

    bad = rule_file(tmp_path, "game: bidwhist\nrules:\n  min_bid: 12\n")
    monkeypatch.setattr(start_scene, "default_rule_file", lambda game: bad)
    rules = start_scene.GameRules("bidwhist")
    assert rules.problem is not None
    english = rules.warning
    set_language("tr")
    assert rules.warning == problem_words(rules.problem) and rules.warning != english
    assert "rules.min_bid" in rules.warning and "must be" not in rules.warning


# ---------------------------------------------------------------------- the rule editor


def test_the_rule_editor_words_a_refused_rule_in_the_players_language():
    set_language("nl")
    worded = rules_problem("bidwhist", {"bogus": 1}, 4)
    assert worded is not None
    assert text.t("rules.source") in worded, "the editor names the player's changes, not a file"
    assert_no_english(worded, "unknown key", "Allowed keys")
    with pytest.raises(RuleConfigError) as info:
        make_rules("bidwhist", {"bogus": 1}, 4, source=text.t("rules.source"))
    located = info.value.located_problem()
    assert located is not None
    assert worded == text.t("rules.problem.other", message=problem_words(located))


# ---------------------------------------------------------------------- settings files


def settings_paths(tmp_path: Path, body: str) -> UserPaths:
    paths = UserPaths.from_data_dir(tmp_path).ensure()
    paths.settings_file.write_text(body, encoding="utf-8")
    return paths


@pytest.mark.parametrize(
    ("body", "english"),
    [
        ("language: xx\n", "language: must be one of en, nl, tr, not 'xx'"),
        ("hint: true\n", "hint: unknown key; did you mean hints?"),
        (
            "ai_think_seconds: 5\n",
            "ai_think_seconds: must be null (automatic) or a number of seconds from 0.1 to 2, not 5",
        ),
        ("window_size: [10, 10]\n", "must be [width, height] in whole pixels"),
        ("volume: 300\n", "must be a whole number of percent from 0 to 100, not 300"),
        ("hints: [\n", "YAML syntax error at line"),
        ("- 1\n", "must be a mapping of setting names to values, not a list"),
    ],
)
def test_a_bad_settings_file_is_worded_in_each_language(tmp_path, body, english):
    paths = settings_paths(tmp_path, body)
    settings, problem = load_settings_problem(paths)
    assert problem is not None
    assert load_settings(paths) == (settings, str(problem)), "the log and command line keep the English"
    assert english in str(problem) and "your file was left unchanged." in str(problem)
    assert words_in("en", problem) == str(problem)
    for language in TRANSLATIONS:
        worded = words_in(language, problem)
        assert worded.startswith(str(paths.settings_file)) and worded != str(problem)
        assert_no_english(
            worded,
            "must be",
            "unknown key",
            "did you mean",
            "Using the default",
            "Keeping your",
            "left unchanged",
            "syntax error",
        )


def test_a_settings_problem_in_turkish_reads_as_the_catalogue_says(tmp_path):
    paths = settings_paths(tmp_path, "language: xx\nhints: false\n")
    _, problem = load_settings_problem(paths)
    assert problem is not None
    reason = catalogue("tr", "value.not_choice", choices="en, nl, tr", value="'xx'")
    setting = catalogue("tr", "settings.setting", entry="language", reason=reason)
    assert words_in("tr", problem) == catalogue(
        "tr", "settings.some_defaults", source=str(paths.settings_file), problems=setting, keys="language"
    )


def test_a_settings_range_with_a_fraction_uses_the_decimal_mark(tmp_path):
    paths = settings_paths(tmp_path, "ai_think_seconds: 5\n")
    _, problem = load_settings_problem(paths)
    assert problem is not None
    assert "from 0.1 to 2" in str(problem)
    assert "0,1" in words_in("nl", problem) and "0,1" in words_in("tr", problem)


def test_a_broken_bundled_settings_file_and_a_bad_user_file_are_two_notices(tmp_path, monkeypatch):
    from game.settings import app_settings

    bundled = tmp_path / "bundled.yaml"
    bundled.write_text("volume: 300\n", encoding="utf-8")
    monkeypatch.setattr(app_settings, "bundled_settings_file", lambda: bundled)
    paths = settings_paths(tmp_path / "user", "hint: true\n")
    _, problem = load_settings_problem(paths)
    assert problem is not None and problem.code == "two_notices"
    assert str(problem).count("\n") == 1 and "Using the built-in default settings." in str(problem)
    for language in TRANSLATIONS:
        first, second = words_in(language, problem).split("\n")
        assert first.startswith(str(bundled)) and second.startswith(str(paths.settings_file))
        assert first.endswith(catalogue(language, "settings.built_in_used", error=""))
        assert_no_english(first + second, "built-in", "must be", "unknown key", "Keeping your")


def test_a_value_too_long_to_show_is_cut_with_words_in_the_players_language(tmp_path):
    long_word = "x" * 100
    paths = settings_paths(tmp_path, f"language: {long_word}\nvolume: [{', '.join(['1'] * 70)}]\n")
    _, problem = load_settings_problem(paths)
    assert problem is not None
    english = str(problem)
    assert "... (100 characters)" in english and "a list of 70 entries" in english
    dutch, turkish = words_in("nl", problem), words_in("tr", problem)
    assert "... (100 tekens)" in dutch and "een lijst van 70 elementen" in dutch
    assert "... (100 karakter)" in turkish and "70 öğeli bir liste" in turkish
    assert_no_english(dutch + turkish, "characters", "entries")


def test_the_window_shows_the_settings_notice_in_the_chosen_language(tmp_path):
    from game.ui.app import App

    paths = settings_paths(tmp_path, "language: nl\nhint: true\n")
    app = App(data_dir=str(tmp_path), size=(800, 600), show_start=False)
    _, problem = load_settings_problem(paths)
    assert problem is not None
    assert app.toast.text == words_in("nl", problem)
    assert "bedoel je hints?" in app.toast.text and "unknown key" not in app.toast.text


def test_a_settings_error_is_worded_and_an_os_error_keeps_the_systems_words():
    with pytest.raises(ConfigError) as info:
        settings_from_dict({"volume": 300}, "settings")
    worded = error_in("tr", info.value)
    assert worded == catalogue(
        "tr",
        "located_key",
        source="settings",
        entry="volume",
        reason=catalogue("tr", "value.not_percent", low=0, high=100, value="300"),
    )
    assert error_in("nl", PermissionError(13, "Permission denied", "settings.yaml")) == "Permission denied"


def test_an_error_without_a_code_keeps_its_english_to_an_english_window():
    # A fault of the program (the settings screen catches any error while saving): its
    # English words only in English, and in another language a sentence that says so.
    error = RuntimeError("the draft lost its language")
    assert error_in("en", error) == "the draft lost its language"
    for language in TRANSLATIONS:
        assert error_in(language, error) == catalogue(language, "unexpected.no_detail")
        assert_no_english(error_in(language, error), "the draft", "unexpected")


# ---------------------------------------------------------------------- decimal mark


@pytest.mark.parametrize(("language", "mark", "separator"), [("en", ".", ","), ("nl", ",", "."), ("tr", ",", ".")])
def test_numbers_with_a_fraction_use_the_languages_decimal_mark(language, mark, separator):
    set_language(language)
    assert decimal_words(0.3) == f"0{mark}3"
    assert decimal_words(7.25, 1) == f"7{mark}2"
    assert decimal_words(-2.5) == f"-2{mark}5"
    assert decimal_words(5.0) == "5" and decimal_words(12) == "12", "whole numbers have no mark"
    assert grouped_words(262144) == f"262{separator}144"
    assert problem_words(
        Problem("value.not_seconds", {"low": Decimal(0.1), "high": Decimal(2.0), "value": "5"})
    ) == text.t("problem.value.not_seconds", low=f"0{mark}1", high="2", value="5")
    assert str(Problem("file.too_big", {"limit": 256, "size": Grouped(300000)})).count("300,000") == 1


def test_the_settings_think_time_reads_with_the_decimal_mark():
    set_language("nl")
    cycler = seconds_cycler((0.1, 0.3, 1.0), 0.3, lambda value: None)
    assert cycler.labels[:3] == [text.t("settings.seconds", value=value) for value in ("0,1", "0,3", "1")]
    set_language("en")
    assert seconds_cycler((0.3,), 0.3, lambda value: None).labels == [text.t("settings.seconds", value="0.3")]


def test_chart_axes_and_the_average_score_use_the_decimal_mark():
    assert inspect.signature(draw_line_chart).parameters["y_format"].default is decimal_words
    source = (ROOT / "game" / "ui" / "scenes" / "stats_scene.py").read_text(encoding="utf-8")
    assert "decimal_words(stats.average, 1)" in source


def test_no_interface_code_formats_a_fraction_itself():
    # A fraction formatted in code (f"{x:.1f}", f"{x:g}") would carry an English decimal point.
    pattern = re.compile(r"\{[^{}]*:[^{}]*\d*[fg]\}")
    found = []
    for path in sorted((ROOT / "game" / "ui").rglob("*.py")):
        if path.name == "text.py":
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line) and not line.lstrip().startswith("#"):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "format fractions with decimal_words:\n" + "\n".join(found)


def test_a_problem_kept_as_json_reads_back_the_same_and_nothing_else_reads_as_one():
    inner = (Problem("value.not_bool", {"value": "'yes'"}), Problem("at_line", {"line": 3}))
    problem = Problem(
        "located",
        {"source": "f.yaml", "reason": Problem("settings.all_defaults", {"source": "f.yaml", "problems": inner})},
    )
    sized = Problem("file.too_big", {"limit": Grouped(256), "size": Grouped(262_145)})
    seconds = Problem("value.not_seconds", {"low": Decimal(0.1), "high": Decimal(2.0), "value": "5"})
    for kept in (problem, sized, seconds):
        back = problem_from_json(json.loads(json.dumps(problem_to_json(kept))))
        assert back == kept and str(back) == str(kept)
    assert type(problem_from_json(problem_to_json(sized)).params["size"]) is Grouped
    for damaged in (
        None,
        "located",
        {"code": "no.such.code", "params": {}},
        {"code": "at_line", "params": {}},
        {"code": "at_line", "params": {"line": [3]}},
        {"code": "located", "params": "x"},
    ):
        with pytest.raises(ValueError):
            problem_from_json(damaged)


def test_the_start_screen_reads_each_bundled_rule_file_once(monkeypatch):
    from game.settings import house_rule_files
    from game.ui.scenes import start_scene

    reads: list[str] = []
    real = house_rule_files.read_yaml

    def counted(path, source=None, ordinary_only=False):
        reads.append(str(path))
        return real(path, source, ordinary_only)

    monkeypatch.setattr(house_rule_files, "read_yaml", counted)
    for game in ("bidwhist", "wizard"):
        rules = start_scene.GameRules(game)
        assert rules.problem is None and not rules.built_in and rules.presets
    assert reads == [str(default_rule_file(game)) for game in ("bidwhist", "wizard")]
