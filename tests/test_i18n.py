"""The language catalogues and switching language (issue 12, item 1).

The interface words live in ``assets/i18n/<language>.yaml`` (English, Dutch,
Turkish), read by ``game.ui.text``. These tests hold the catalogues to their
contract and the code to the catalogues:

- every key the code uses is in every catalogue, and every key of a
  catalogue is used by the code. The keys the code uses are the literal
  first arguments of ``t``/``has_text``/``text_in`` (found by reading the
  source with ``ast``) and the families the code builds from game data
  (``level.<level>``, ``rule.<key>.<value>``, ``error.<code>``,
  ``problem.<code>`` from ``game.rules.problems.PROBLEMS``, the presets of
  the bundled rule files, ...), each listed here from the registry, the
  rule specs and the rule files; a key counts as used when the source names
  it or builds it (a literal string equal to it, or an f-string whose shape
  it fits);
- each catalogue is one flat mapping of keys to double-quoted strings that
  ``game.settings.yaml_files`` reads; its placeholders are the English ones, key by
  key; where English has a ``.one`` (singular) form, so do Dutch and Turkish;
- no interface code changes the case of a text (``.lower()``, ``.upper()``,
  ``.capitalize()``, ``.title()``), which breaks Turkish i/İ and ı/I;
- a language switch re-words the open start screen and table, and the words
  on the special cards, without a restart;
- the first start takes the language from the system's locale;
- a damaged or incomplete Dutch catalogue falls back to English, key by key,
  with one log line and no crash.
"""

from __future__ import annotations

import ast
import functools
import inspect
import logging
import os
import re
import string
from collections.abc import Iterator
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest

from game.rules import IllegalActionError, all_games
from game.rules.cards import RANK_OF
from game.rules.problems import PROBLEMS
from game.settings import app_settings
from game.settings.app_settings import LANGUAGES, Settings, language_from_locale, load_settings
from game.settings.house_rule_files import default_rule_file
from game.settings.paths import UserPaths
from game.settings.yaml_files import read_yaml_file
from game.ui import text
from game.ui.app import App
from game.ui.art.card_art import SPECIAL_CODES, WIZARD, CardArt
from game.ui.dialogs.bidding_panel import BiddingPanel
from game.ui.scenes.rules_help_content import WORDED_SECTIONS
from game.ui.scenes.start_scene import StartScene, preset_key
from game.ui.text import SOURCE_LANGUAGE, placeholders, set_language, t, text_in
from test_ui_table import start

ROOT = Path(__file__).resolve().parent.parent
SOURCE_FOLDERS = (ROOT / "game", ROOT / "tools")
CATALOG_FOLDER = ROOT / "assets" / "i18n"
# The functions whose first (or, for text_in, second) argument is a catalogue key.
LOOKUPS = {"t": 0, "has_text": 0, "text_in": 1}
PLURAL_SUFFIX = ".one"
# A catalogue line: a key of lower-case words joined by dots, and one double-quoted string.
CATALOG_LINE = re.compile(r'^[a-z0-9_]+(\.[a-z0-9_]+)*: "(?:[^"\\]|\\.)*"$')
CASE_CHANGES = {"lower", "upper", "capitalize", "title", "casefold", "swapcase"}
# Where a case change is not about shown text: a button compares the key typed with its hotkey.
CASE_CHANGE_ALLOWED = {"game/ui/widgets/button.py"}


# ---------------------------------------------------------------------- reading the source


def source_files() -> Iterator[tuple[Path, ast.Module]]:
    return iter(_parsed_sources())


@functools.cache
def _parsed_sources() -> tuple[tuple[Path, ast.Module], ...]:
    """The source parsed once for the key checks (they only read the trees), and
    forgotten after this module (see ``forget_the_parsed_sources``)."""
    return tuple(
        (path, ast.parse(path.read_text(encoding="utf-8")))
        for folder in SOURCE_FOLDERS
        for path in sorted(folder.rglob("*.py"))
    )


@pytest.fixture(scope="module", autouse=True)
def forget_the_parsed_sources() -> Iterator[None]:
    yield
    _parsed_sources.cache_clear()


def _called_name(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def literal_lookups() -> dict[str, str]:
    """Every key the source looks up by a literal string, with where (``file:line``)."""
    found: dict[str, str] = {}
    for path, tree in source_files():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _called_name(node) in LOOKUPS:
                index = LOOKUPS[_called_name(node) or ""]
                if len(node.args) > index:
                    argument = node.args[index]
                    if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                        found.setdefault(argument.value, f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def source_strings() -> set[str]:
    """Every literal string of the source (a key named anywhere, e.g. in a table of keys)."""
    return {
        node.value
        for _, tree in source_files()
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    }


def built_key_shapes() -> list[re.Pattern[str]]:
    """The keys the source builds with f-strings, as patterns (a filled-in part matches any text).

    Shapes with fewer than three letters of fixed text (``f"{a}.{b}"``) say
    nothing about which key they build and are left out.
    """
    shapes = []
    for _, tree in source_files():
        for node in ast.walk(tree):
            if not isinstance(node, ast.JoinedStr):
                continue
            fixed = "".join(
                part.value for part in node.values if isinstance(part, ast.Constant) and isinstance(part.value, str)
            )
            if sum(char.isalpha() for char in fixed) < 3 or " " in fixed:
                continue
            pattern = "".join(
                re.escape(str(part.value)) if isinstance(part, ast.Constant) else ".+" for part in node.values
            )
            shapes.append(re.compile(pattern))
    return shapes


# ---------------------------------------------------------------------- the keys built from game data


def enumerated_keys() -> set[str]:
    """The families of keys the interface builds from the registry, rule specs and rule files."""
    keys: set[str] = set()
    for game in all_games():
        keys |= {f"level.{level}" for level in game.ai_levels}
        keys |= set(game.text_keys.values())
        keys |= {game.text("title") + ".help", game.text("deal") + ".sentence"}
        keys |= {f"{game.text('rules_help')}.{section}" for section in WORDED_SECTIONS}
        for spec in game.rule_specs:
            keys |= {f"rule.{spec.key}.label", f"rule.{spec.key}.help"}
            if spec.kind == "choice":
                keys |= {f"rule.{spec.key}.{choice}" for choice in spec.choices}
        presets = read_yaml_file(default_rule_file(game.name))["presets"]
        keys |= {f"{preset_key(game.name, name)}.{part}" for name in presets for part in ("title", "description")}
    keys |= {f"suit.{suit}" for suit in range(4)} | set(text.SUIT_KEYS)
    keys |= {f"mode.{mode}{form}" for mode in range(3) for form in ("", ".sentence", ".help")}
    keys |= {f"card.rank.{rank}" for rank in set(RANK_OF) if rank >= 2}
    keys |= {f"card.face.{word}" for word in ("big", "little", "joker", "wizard", "jester")}
    keys |= {f"card.face.{word}.index" for word in ("big", "little", "wizard", "jester")}
    keys |= {f"settings.speed.{speed}" for speed in app_settings.ANIMATION_SPEEDS}
    keys |= {f"error.{code}" for code in raised_error_codes()}
    keys |= {f"problem.{code}" for code in PROBLEMS}
    return keys


def raised_error_codes() -> set[str]:
    """The codes of every ``IllegalActionError`` the source makes (its second argument), and the
    code of one made without."""
    codes = {inspect.signature(IllegalActionError).parameters["code"].default}
    for _, tree in source_files():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _called_name(node) == "IllegalActionError" and len(node.args) > 1:
                code = node.args[1]
                if isinstance(code, ast.Constant) and isinstance(code.value, str):
                    codes.add(code.value)
    return codes


# ---------------------------------------------------------------------- the catalogues as files


def catalog_file(language: str) -> Path:
    return CATALOG_FOLDER / f"{language}.yaml"


def read_catalog_file(language: str) -> dict[str, str]:
    data = read_yaml_file(catalog_file(language))
    assert isinstance(data, dict), f"{language}.yaml: not one mapping of keys to texts"
    return data


@pytest.fixture(scope="module")
def english() -> dict[str, str]:
    return read_catalog_file(SOURCE_LANGUAGE)


@pytest.fixture
def catalog_folder(tmp_path, monkeypatch) -> Iterator[Path]:
    """A catalogue folder of the test's own: the real English, and whatever the test writes beside it."""
    folder = tmp_path / "i18n"
    folder.mkdir()
    (folder / "en.yaml").write_bytes(catalog_file(SOURCE_LANGUAGE).read_bytes())
    monkeypatch.setattr(text, "CATALOG_DIR", folder)
    text.forget_catalogs()
    yield folder
    set_language(SOURCE_LANGUAGE)
    text.forget_catalogs()


def write_catalog(folder: Path, language: str, entries: dict[str, str]) -> None:
    lines = [f'{key}: "{value}"' for key, value in entries.items()]
    (folder / f"{language}.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")


# ---------------------------------------------------------------------- keys: used <-> present


def test_every_key_the_code_looks_up_is_in_the_english_catalogue(english):
    missing = [f"{key} ({where})" for key, where in sorted(literal_lookups().items()) if key not in english]
    missing += [f"{key} (built from game data)" for key in sorted(enumerated_keys()) if key not in english]
    assert not missing, "keys the code uses that en.yaml lacks:\n" + "\n".join(missing)


def test_every_key_of_the_english_catalogue_is_used_by_the_code(english):
    named = source_strings() | enumerated_keys()
    shapes = built_key_shapes()

    def used(key: str) -> bool:
        base = key.removesuffix(PLURAL_SUFFIX)
        return any(
            candidate in named or any(shape.fullmatch(candidate) for shape in shapes) for candidate in {key, base}
        )

    unused = sorted(key for key in english if not used(key))
    assert not unused, "keys of en.yaml that no code uses:\n" + "\n".join(unused)


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != SOURCE_LANGUAGE])
def test_each_translation_has_exactly_the_english_keys(language, english):
    translated = read_catalog_file(language)
    missing = sorted(set(english) - set(translated))
    extra = sorted(
        key
        for key in set(translated) - set(english)
        if not (key.endswith(PLURAL_SUFFIX) and _counts(english.get(key.removesuffix(PLURAL_SUFFIX))))
    )
    assert not missing, f"{language}.yaml lacks {len(missing)} keys:\n" + "\n".join(missing)
    assert not extra, f"{language}.yaml has keys nothing uses:\n" + "\n".join(extra)


def _counts(template: str | None) -> bool:
    """Whether a template takes a count, so a singular (``.one``) form of it can be chosen."""
    return template is not None and bool(placeholders(template) & set(text.PLURAL_PARAMS))


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != SOURCE_LANGUAGE])
def test_each_translation_has_the_english_placeholders_key_by_key(language, english):
    translated = read_catalog_file(language)
    wrong = []
    for key, template in translated.items():
        source = english.get(key) or english.get(key.removesuffix(PLURAL_SUFFIX))
        if source is None or not isinstance(template, str):
            continue
        expected = placeholders(source)
        if key.endswith(PLURAL_SUFFIX) and key not in english:
            # A singular form English does not have may leave the count out ("1 löve" written as "bir löve").
            expected_ok = placeholders(template) <= expected
        else:
            expected_ok = placeholders(template) == expected
        if not expected_ok:
            wrong.append(f"{key}: {sorted(placeholders(template))} where English has {sorted(expected)}")
    assert not wrong, f"{language}.yaml placeholders differ from English:\n" + "\n".join(wrong)


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != SOURCE_LANGUAGE])
def test_each_translation_gives_a_singular_wherever_english_does(language, english):
    translated = read_catalog_file(language)
    lacking = sorted(key for key in english if key.endswith(PLURAL_SUFFIX) and key not in translated)
    assert not lacking, f"{language}.yaml lacks singular forms:\n" + "\n".join(lacking)


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_catalogue_is_a_flat_file_of_double_quoted_strings(language):
    path = catalog_file(language)
    data = read_yaml_file(path)  # within the YAML limits: size, no anchors, no duplicate keys
    assert isinstance(data, dict)
    assert all(isinstance(key, str) and isinstance(value, str) for key, value in data.items())
    bad_lines = [
        f"line {number}: {line}"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if line.strip() and not line.startswith("#") and not CATALOG_LINE.match(line)
    ]
    assert not bad_lines, f"{path.name}: lines that are not 'key: \"template\"':\n" + "\n".join(bad_lines)
    for value in data.values():
        list(string.Formatter().parse(value))  # braces pair up (raises ValueError otherwise)


def test_the_english_preset_texts_are_those_of_the_rule_files(english):
    for game in all_games():
        presets = read_yaml_file(default_rule_file(game.name))["presets"]
        for name, preset in presets.items():
            assert english[f"{preset_key(game.name, name)}.description"] == preset["description"]


# ---------------------------------------------------------------------- no case changes


def test_no_interface_code_changes_the_case_of_a_text():
    found = []
    for path, tree in source_files():
        relative = path.relative_to(ROOT).as_posix()
        if not relative.startswith("game/ui/") or relative in CASE_CHANGE_ALLOWED:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in CASE_CHANGES:
                found.append(f"{relative}:{node.lineno}: .{node.func.attr}()")
    assert not found, "case changes break Turkish (i/İ, ı/I); give the catalogue the form needed:\n" + "\n".join(found)


# ---------------------------------------------------------------------- switching language at run time

DUTCH_SAMPLE = {
    "start.settings": "Instellingen",
    "start.start": "Beginnen",
    "table.menu": "Menu NL",
    "table.score_pad": "Scoreblad",
    "card.face.wizard": "TOVENAAR",
    "card.face.wizard.index": "T",
    "bid.title_round": "Jouw bod: ronde {round} van {rounds}",
}


def test_switching_language_rewords_the_open_start_screen_without_a_restart(tmp_path, catalog_folder):
    write_catalog(catalog_folder, "nl", DUTCH_SAMPLE)
    app = App(data_dir=str(tmp_path / "data"), size=(1280, 720), settings=Settings(language="en"))
    start_screen = app.scenes[-1]
    assert isinstance(start_screen, StartScene)
    assert start_screen.settings_button.label == "Settings"
    app.settings.language = "nl"
    app.save_settings()
    assert start_screen.settings_button.label == "Instellingen"
    assert start_screen.start_button.label == "Beginnen"
    start_screen.draw(pygame.Surface((1280, 720)))


def test_switching_language_rewords_the_open_table_and_its_dialog(tmp_path, catalog_folder):
    write_catalog(catalog_folder, "nl", DUTCH_SAMPLE)
    app = App(
        data_dir=str(tmp_path / "data"),
        size=(1280, 720),
        settings=Settings(language="en", animation_speed="instant", ai_pause_seconds=0.0),
    )
    table = start(app, "wizard", ["human", "ai:random", "ai:random"])
    for _ in range(2000):
        if isinstance(app.scenes[-1], BiddingPanel):
            break
        app.step(1 / 60, [])
    panel = app.scenes[-1]
    assert isinstance(panel, BiddingPanel), "the human's bid is asked for in the first round"
    assert (table.menu_button.label, table.pad_button.label) == ("Menu", "Score pad")
    assert (panel.title or "").startswith("Your bid")
    app.settings.language = "nl"
    app.save_settings()
    assert (table.menu_button.label, table.pad_button.label) == ("Menu NL", "Scoreblad")
    assert (panel.title or "").startswith("Jouw bod"), "the open dialog is worded again too"
    app.step(1 / 60, [])


def test_the_special_cards_are_drawn_in_the_current_language(catalog_folder):
    write_catalog(catalog_folder, "nl", DUTCH_SAMPLE)
    art = CardArt(80)
    english_wizard = pygame.image.tobytes(art.face(WIZARD), "RGBA")
    english_ten = art.face("TH")
    set_language("nl")
    assert pygame.image.tobytes(art.face(WIZARD), "RGBA") != english_wizard
    assert art.face("TH") is english_ten, "a number card has no words: one image serves every language"
    set_language("en")
    assert pygame.image.tobytes(art.face(WIZARD), "RGBA") == english_wizard


def test_every_special_card_word_is_a_catalogue_key(english):
    assert len(SPECIAL_CODES) == 4
    for word in ("big", "little", "wizard", "jester"):
        assert english[f"card.face.{word}.index"]
    assert english["card.face.joker"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_joker_corner_letter_reads_as_a_rank(language):
    """A joker's corner index is told apart from every rank printed on the cards (the
    Turkish little joker once had "K", like a king), and the two jokers from each other."""
    from game.ui.art.card_art import RANKS

    printed = {"10" if rank == "T" else rank for rank in RANKS}
    catalogue = read_catalog_file(language)
    english = read_catalog_file(SOURCE_LANGUAGE)
    letters = [
        catalogue.get(f"card.face.{size}.index") or english[f"card.face.{size}.index"] for size in ("big", "little")
    ]
    for letter in letters:
        assert letter.upper() not in printed, f"{language}: the joker's {letter!r} reads as a rank"
    assert letters[0].upper() != letters[1].upper(), f"{language}: both jokers are {letters[0]!r}"


# ---------------------------------------------------------------------- damaged catalogues


def test_a_damaged_dutch_catalogue_falls_back_to_english_with_one_log_line(catalog_folder, caplog):
    (catalog_folder / "nl.yaml").write_text('start.settings: "Instellingen\n  broken: [', encoding="utf-8")
    set_language("nl")
    with caplog.at_level(logging.WARNING, logger="tricktable.text"):
        assert t("start.settings") == "Settings"
        assert t("table.menu") == "Menu"
    assert len([r for r in caplog.records if r.name == "tricktable.text"]) == 1
    assert "nl.yaml" in caplog.records[0].getMessage()


def test_a_missing_dutch_catalogue_falls_back_to_english(catalog_folder, caplog):
    set_language("nl")
    with caplog.at_level(logging.WARNING, logger="tricktable.text"):
        assert t("start.start") == "Start"
    assert len([r for r in caplog.records if r.name == "tricktable.text"]) == 1


def test_a_partial_dutch_catalogue_is_used_key_by_key(catalog_folder, caplog):
    (catalog_folder / "nl.yaml").write_text(
        'start.settings: "Instellingen"\n'
        'table.books: "{count} slagen"\n'  # not the English placeholder {n}
        "widget.on: [not, a, text]\n",
        encoding="utf-8",
    )
    set_language("nl")
    with caplog.at_level(logging.WARNING, logger="tricktable.text"):
        assert t("start.settings") == "Instellingen"
        assert t("table.books", n=3) == text_in("en", "table.books", n=3)
        assert t("start.start") == "Start"
    records = [r for r in caplog.records if r.name == "tricktable.text"]
    assert len(records) == 1 and "keys missing" in records[0].getMessage()


def test_an_unknown_language_is_english():
    set_language("xx")
    try:
        assert t("start.settings") == text_in(SOURCE_LANGUAGE, "start.settings")
    finally:
        set_language(SOURCE_LANGUAGE)


# ---------------------------------------------------------------------- the first start


@pytest.mark.parametrize(
    ("names", "language"),
    [
        (["nl_NL.UTF-8"], "nl"),
        (["nl_BE"], "nl"),
        (["tr_TR.UTF-8"], "tr"),
        (["Turkish_Turkey", None], "tr"),
        (["Dutch_Netherlands"], "nl"),
        (["de_DE.UTF-8"], None),
        (["en_US.UTF-8", "nl_NL"], None),
        (["", "C.UTF-8", "tr_TR"], "tr"),
        ([None, "POSIX"], None),
        ([], None),
    ],
)
def test_the_locale_names_the_language(names, language):
    assert language_from_locale(names) == language


def _locale(monkeypatch, **variables: str) -> None:
    for name in app_settings.LOCALE_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    for name, value in variables.items():
        monkeypatch.setenv(name, value)


@pytest.mark.parametrize(
    ("variables", "language"),
    [
        ({"LANG": "nl_NL.UTF-8"}, "nl"),
        ({"LC_ALL": "tr_TR.UTF-8", "LANG": "nl_NL.UTF-8"}, "tr"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
        ({"LC_MESSAGES": "nl_BE.UTF-8"}, "nl"),
    ],
)
def test_the_first_start_takes_the_language_of_the_system(tmp_path, monkeypatch, variables, language):
    _locale(monkeypatch, **variables)
    settings, warning = load_settings(UserPaths.from_data_dir(tmp_path))
    assert (settings.language, warning) == (language, None)


def test_a_language_chosen_in_settings_outlasts_the_locale(tmp_path, monkeypatch):
    _locale(monkeypatch, LANG="tr_TR.UTF-8")
    paths = UserPaths.from_data_dir(tmp_path).ensure()
    paths.settings_file.write_text("language: en\n", encoding="utf-8")
    assert load_settings(paths)[0].language == "en"
    paths.settings_file.write_text("hints: false\n", encoding="utf-8")
    assert load_settings(paths)[0].language == "tr", "a file without a language has not chosen one"


def test_a_translation_that_cannot_be_filled_in_shows_the_english(catalog_folder, caplog):
    (catalog_folder / "nl.yaml").write_text('table.books: "Slagen {n:x}"\n', encoding="utf-8")
    set_language("nl")
    with caplog.at_level(logging.WARNING, logger="tricktable.text"):
        assert t("table.books", n="7") == text_in(SOURCE_LANGUAGE, "table.books", n="7")
    assert any("table.books" in record.getMessage() for record in caplog.records)


def test_the_self_test_fails_a_build_with_a_missing_catalogue(catalog_folder):
    from game.program.self_test import SelfTestFailure, _check_catalogues

    for language in LANGUAGES:
        (catalog_folder / f"{language}.yaml").write_bytes(catalog_file(SOURCE_LANGUAGE).read_bytes())
    _check_catalogues()
    (catalog_folder / "tr.yaml").unlink()
    with pytest.raises(SelfTestFailure, match="tr catalogue"):
        _check_catalogues()


def test_a_percentage_is_written_as_each_language_writes_it():
    # Turkish puts the sign first; the charts and the statistics screen ask the catalogue.
    try:
        for language, words in (("en", "50%"), ("nl", "50%"), ("tr", "%50")):
            text.set_language(language)
            assert text.percent_words(50) == words
    finally:
        text.set_language("en")
