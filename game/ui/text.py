"""Look up player-facing text by key, in the chosen language.

``t("bid.pass")`` returns the English, Dutch or Turkish text, formatted with
keyword parameters. The few words that many screens build sentences from (a
suit, a bid such as "4 uptown", a team's names) are worded here once, from
the catalogue.
"""

from __future__ import annotations

# The catalogues are the YAML files ``assets/i18n/<language>.yaml``: one flat
# mapping of key to template each, read through ``game.settings.yaml_files`` the first
# time a language is used. English is the source and the fallback, key by key:
# a key that a catalogue lacks, or words with a placeholder the program does
# not fill, is shown in English; a catalogue that cannot be read at all leaves
# the whole interface in English. Either way the program logs one line per
# catalogue and carries on.
#
# Rules errors carry a code and plain parameters (a suit as an int, a bid as
# books and mode), never English words, so ``explain(error)`` words them in the
# player's language: the parameters that are game values are turned into
# words first, then the catalogue's ``error.<code>`` sentence is filled in.
#
# Problems with a file or value (``game.rules.problems.Problem``: a refused
# YAML file, a bad house rule or setting, a recorded or saved move the engine
# refuses) are worded the same way by ``problem_words``, from the
# catalogue's ``problem.<code>`` sentences, and ``error_words`` words an
# exception that carries one (a hand history or a recorded game that cannot
# be read, too); a refused move inside one reads as ``explain`` words it (in
# English as the engine said it, which is what the command line shows). A
# library's own English words in a problem (json's "Expecting value",
# PyYAML's "expected the node content") are shown only in English; another
# language says the same without them, the line and column still saying
# where. Numbers with a fraction are written with the language's decimal mark
# (``decimal_words``).

import logging
import string
from collections.abc import Callable, Mapping, Sequence
from functools import reduce
from pathlib import Path
from typing import Any

from game.rules import IllegalActionError, RuleConfigError, game_names, get_game
from game.rules.adapter import Phrase, Word
from game.rules.problems import Problem, ProblemValueError, Refusal, Wording, located
from game.settings.app_settings import LANGUAGES
from game.settings.paths import resource_path
from game.settings.yaml_files import YamlFileError, quote_text, read_yaml_file

log = logging.getLogger("tricktable.text")

SOURCE_LANGUAGE = "en"
# Each language is offered under its own name, the same in every catalogue,
# so a player who cannot read the current language still finds their own.
LANGUAGE_NAMES = {"en": "English", "nl": "Nederlands", "tr": "Türkçe"}
# How many missing or unusable keys one log line names before it just counts them.
LOGGED_KEYS = 5

CATALOG_DIR: Path = resource_path("assets", "i18n")
_catalogs: dict[str, dict[str, str]] = {}
_language = SOURCE_LANGUAGE

# The catalogue keys of the suits inside a sentence ("You must follow hearts"), by suit number;
# ``suit.<n>`` alone is the suit's name as a label ("Hearts").
SUIT_KEYS = tuple(f"suit.{suit}.sentence" for suit in range(4))


def placeholders(template: str) -> set[str]:
    """The ``{name}`` placeholders of a template (``ValueError`` for unbalanced braces)."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


def read_catalog(path: Path) -> tuple[dict[str, str], list[str]]:
    """The usable entries of the catalogue at ``path`` and what is wrong with it, one problem each.

    A file that cannot be read gives no entries and one problem; an entry
    that is not a string key with a string template, or whose braces do not
    pair up, is left out and named.
    """
    try:
        data = read_yaml_file(path)
    except YamlFileError as exc:
        return {}, [exc.reason]
    except OSError as exc:
        return {}, [exc.strerror or str(exc)]
    if not isinstance(data, dict):
        return {}, ["not a mapping of keys to texts"]
    entries: dict[str, str] = {}
    problems: list[str] = []
    for key, value in data.items():
        if not isinstance(key, str) or not isinstance(value, str):
            problems.append(f"{quote_text(str(key))}: not a text")
            continue
        try:
            placeholders(value)
        except ValueError:
            problems.append(f"{quote_text(key)}: braces that do not pair up")
            continue
        entries[key] = value
    return entries, problems


def _named(keys: Sequence[str]) -> str:
    shown = ", ".join(keys[:LOGGED_KEYS])
    return shown + (f" and {len(keys) - LOGGED_KEYS} more" if len(keys) > LOGGED_KEYS else "")


def _load(language: str) -> dict[str, str]:
    """Read one language's catalogue; English stands in for whatever it lacks (logged once)."""
    path = CATALOG_DIR / f"{language}.yaml"
    entries, problems = read_catalog(path)
    if language != SOURCE_LANGUAGE:
        english = catalog(SOURCE_LANGUAGE)
        wrong = [
            key
            for key, value in entries.items()
            if key in english and placeholders(value) != placeholders(english[key])
        ]
        for key in wrong:
            del entries[key]
        if wrong:
            problems.append(f"other placeholders than the English in {_named(wrong)}")
        missing = [key for key in english if key not in entries]
        if missing and entries:
            problems.append(f"{len(missing)} keys missing ({_named(missing)})")
        elif missing and not problems:
            problems.append("no texts")
    if problems:
        instead = "the key names" if language == SOURCE_LANGUAGE else "English"
        log.warning("%s: %s; %s shown instead", path.name, "; ".join(problems), instead)
    return entries


def catalog(language: str) -> dict[str, str]:
    """The usable templates of ``language``, read on first use (an unknown language has none)."""
    if language not in _catalogs:
        _catalogs[language] = _load(language) if language in LANGUAGES else {}
    return _catalogs[language]


def forget_catalogs() -> None:
    """Drop the catalogues read so far, so the next lookup reads the files again."""
    _catalogs.clear()


def set_language(language: str) -> None:
    """Switch language; unknown languages and missing keys fall back to English key by key."""
    global _language
    _language = language if language in LANGUAGES else SOURCE_LANGUAGE


def current_language() -> str:
    """The language text is worded in now (a key of render caches that hold words)."""
    return _language


# The parameter that decides between singular and plural, in order of preference.
PLURAL_PARAMS = ("count", "cards", "n")


def _plural_key(key: str, params: Mapping[str, object]) -> str:
    """``key + ".one"`` when the counting parameter is 1 (a catalog may give a singular form)."""
    for name in PLURAL_PARAMS:
        if name in params:
            return key + ".one" if params[name] == 1 else key
    return key


def t(key: str, **params: object) -> str:
    """The text for ``key``; "KEY.one" is used instead when it exists and the count is 1."""
    return text_in(_language, key, **params)


def text_in(language: str, key: str, **params: object) -> str:
    """The text for ``key`` in ``language`` rather than the current one (English where it has none)."""
    chosen, english = catalog(language), catalog(SOURCE_LANGUAGE)
    singular = _plural_key(key, params)
    if singular != key and (singular in chosen or singular in english):
        key = singular
    template = chosen.get(key) or english.get(key)
    if template is None:
        # A missing key is a bug, but the player should still see something readable.
        return key
    if not params:
        return template
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        # A translation with a placeholder the program does not fill ({0}, {n:x}): its English.
        if key not in english or template == english[key]:
            raise
        log.warning("%s.yaml: %s cannot be filled in; English is shown instead", language, key)
        return english[key].format(**params)


def has_text(key: str) -> bool:
    """Whether the catalogue (or its English fallback) words ``key``."""
    return key in catalog(_language) or key in catalog(SOURCE_LANGUAGE)


# ---------------------------------------------------------------------------- shared words


def suit_word(suit: int) -> str:
    """A suit inside a sentence ("hearts"); suit numbers as in ``game.rules.cards.Suit``."""
    return t(SUIT_KEYS[suit])


def bid_words(books: int, mode: int) -> str:
    """A Bid Whist bid in words, "4 uptown" ("mode" is the ``BidMode`` number)."""
    return t("bid.words", books=books, mode=mode_word(mode))


def percent_words(percent: int) -> str:
    """A whole percentage as the language writes it ("50%"; Turkish "%50")."""
    return t("stats.percent", value=percent)


def decimal_words(value: float, digits: int | None = None) -> str:
    """A number that may have a fraction, with the language's decimal mark ("0.3" in English, "0,3" in
    Dutch and Turkish): ``digits`` places after the mark, or as few as it needs when None."""
    written = f"{value:g}" if digits is None else f"{value:.{digits}f}"
    return written.replace(".", t("number.decimal_mark"))


def grouped_words(count: int) -> str:
    """A whole number with the language's thousands separator ("262,144"; Dutch and Turkish "262.144")."""
    return f"{count:,}".replace(",", t("number.thousands_separator"))


def mode_word(mode: int) -> str:
    """A Bid Whist mode inside a sentence ("uptown", "no trump"; the ``BidMode`` number)."""
    return t(f"mode.{mode}.sentence")


def direction_word(direction: int) -> str:
    """A ranking inside a sentence: "uptown", or "downtown" for direction (or mode) 1."""
    return mode_word(1 if direction == 1 else 0)


def team_words(names: Sequence[str]) -> str:
    """The players of one team by name: "Ada & Cleo"."""
    if not names:
        return ""
    return reduce(lambda joined, name: t("team.names", a=joined, b=name), names[1:], names[0])


def say(phrase: Phrase, word: Callable[[Word], str] | None = None) -> str:
    """A phrase of a game's adapter (``game.rules.adapter``) in the player's
    words: its inner phrases and its words first, a suit or a ranking
    direction here, any other kind of word (a side's names, a row of cards)
    by ``word``."""
    params: dict[str, Any] = {}
    for name, value in phrase.params.items():
        if isinstance(value, Phrase):
            params[name] = say(value, word)
        elif isinstance(value, Word):
            if value.kind == "suit":
                params[name] = suit_word(value.value)
            elif value.kind == "direction":
                params[name] = direction_word(value.value)
            elif word is not None:
                params[name] = word(value)
            else:
                raise ValueError(f"no words for a {value.kind!r} in {phrase.key!r}")
        else:
            params[name] = value
    return t(phrase.key, **params)


# ---------------------------------------------------------------------------- rules errors


def _worded_suit(params: Mapping[str, Any]) -> dict[str, Any]:
    suit = params.get("suit")
    if isinstance(suit, int) and 0 <= suit < len(SUIT_KEYS):
        return {"suit": suit_word(suit)}
    return {}


def _worded_high_bid(params: Mapping[str, Any]) -> dict[str, Any]:
    books, mode = params.get("books"), params.get("mode")
    if isinstance(books, int) and isinstance(mode, int):
        return {"high": bid_words(books, mode)}
    return {}


# Per error code, the extra sentence parameters made from the error's game values.
_PARAM_WORDS: dict[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = {
    "must_follow": _worded_suit,
    "bid_too_low": _worded_high_bid,
}


def explain(error: IllegalActionError) -> str:
    """The reason an action was refused, in the player's language (the engine's
    English sentence only when the catalog cannot word the code)."""
    return refusal_words(Refusal.of(error))


def refusal_words(refusal: Refusal) -> str:
    """``explain`` for a refusal kept inside a problem (a recorded or saved move the engine refuses)."""
    template_key = "error." + refusal.code
    if not has_text(template_key):
        return refusal.message
    params: dict[str, Any] = dict(refusal.params)
    wording = _PARAM_WORDS.get(refusal.code)
    if wording is not None:
        params.update(wording(refusal.params))
    try:
        return t(template_key, **params)
    except (KeyError, IndexError):
        return refusal.message


# ---------------------------------------------------------------------------- file and value problems


def _problem_sentence(code: str, params: dict[str, Any]) -> str:
    game = params.get("game")
    if "game_title" in params and isinstance(game, str) and game in game_names():
        # An English message names the game as the file or program did; a player reads its title.
        params = {**params, "game_title": t(get_game(game).text("title"))}
    return t(f"problem.{code}", **params)


def problem_words(problem: Problem) -> str:
    """A problem with a file or value in the player's language (``str(problem)`` is its English).

    Keys, file names and values the player wrote are shown as written; a
    library's English detail only when the language is English.
    """
    english = _language == SOURCE_LANGUAGE
    # An English window reads as the command line: the engine's own sentence for a refused
    # move (it names the card); another language words the refusal as the table does.
    wording = Wording(
        template=_problem_sentence,
        grouped=grouped_words,
        decimal=decimal_words,
        refusal=(lambda refusal: refusal.message) if english else refusal_words,
        details=english,
    )
    return problem.worded(wording)


def error_words(error: BaseException) -> str:
    """What went wrong, for a message in the window: a coded problem in the player's language.

    An ``OSError`` is worded by the operating system (its ``strerror``, in the
    system's own language), which a translated sentence around it introduces.
    A rules error without a code (a malformed ``--set``, which only the
    command line meets) keeps its own text. Any other error is a fault of the
    program, raised with English words: an English window shows them, another
    language says only that something unexpected went wrong.
    """
    coded: Problem | None = None
    if isinstance(error, RuleConfigError):
        coded = error.located_problem()
    elif isinstance(error, YamlFileError):
        coded = located(error.source, "", error.problem)
    elif isinstance(error, ProblemValueError):
        coded = error.problem
    if coded is not None:
        return problem_words(coded)
    if isinstance(error, OSError):
        return error.strerror or str(error)
    if isinstance(error, RuleConfigError):
        return str(error)
    return problem_words(Problem("unexpected", {"detail": str(error)}))
