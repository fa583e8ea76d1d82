"""Hand histories, replays, saved games and the Wizard rules check in the player's language (issue 12, item 1).

The problems the previous families left in English on screen now carry a
``Problem`` too: a hand-history line that cannot be read (``HistoryError``),
a recorded game the replay viewer cannot open (``ReplayError``), a saved game
the start screen cannot continue (``SaveProblem``), the house rules such a
record or save carries (an unknown game or rule key, rules that are no
mapping) and a Wizard game whose rounds do not fit its players; a recorded
or saved move the engine refuses is worded as the table words a refused
move. These tests hold, for each:

- the English (``str``, what the command line, ``replay --check`` and the log
  print) is exactly the sentence it was before the problems were coded;
- in Dutch and Turkish the window words it from the catalogue, with none of
  the English sentence left, and in English exactly as the command line;
- a library's own English words (json's "Expecting value", PyYAML's
  "expected the node content") are shown in an English window only: another
  language says the same without them, still naming the line and column.
"""

from __future__ import annotations

import copy
import json
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest

from game.persistence.history_codec import HistoryError
from game.persistence.history_files import write_history
from game.persistence.history_reader import read_history
from game.persistence.replay_timeline import ReplayError, ReplayTimeline, load_recorded_game
from game.persistence.savegame import SaveProblem, load_saved_game, save_path, snapshot_of
from game.rules import IllegalActionError, RuleConfigError, game_names, get_game, make_rules, new_game
from game.rules.problems import (
    NO_DETAIL_SUFFIX,
    PROBLEMS,
    WITHOUT_DETAIL,
    Problem,
    Refusal,
    template_fields,
)
from game.session.match import SAVE_VERSION, Match, Seat
from game.settings.app_settings import Settings
from game.settings.paths import UserPaths
from game.settings.yaml_files import YamlFileError, parse_yaml_text
from game.ui.scenes.replay_scene import ReplayScene
from game.ui.scenes.start_scene import save_problem_text
from game.ui.text import error_words, explain, problem_words, set_language, t, text_in
from test_i18n_problems import (  # noqa: F401  (shared fixtures, found by their names)
    TRANSLATIONS,
    assert_no_english,
    catalogue,
    english_afterwards,
    error_in,
    words_in,
)
from test_replay_viewer import play

NOW = datetime(2026, 12, 1, 4, 0, 0, tzinfo=UTC)

# ``ReplayScene.from_file`` reads the file before it needs an app: a file it cannot
# open is answered without one, which is what these tests look at.
if TYPE_CHECKING:
    from game.ui.app import App
NO_APP = cast("App", None)


# ---------------------------------------------------------------------- sentences without a library's words


def test_every_sentence_with_a_detail_has_one_without_it():
    with_detail = sorted(
        code
        for code, template in PROBLEMS.items()
        if "detail" in template_fields(template) and not code.endswith(NO_DETAIL_SUFFIX)
    )
    assert with_detail == sorted(WITHOUT_DETAIL), "a sentence with {detail} needs a .no_detail twin"
    for code, brief in WITHOUT_DETAIL.items():
        assert template_fields(PROBLEMS[brief]) == template_fields(PROBLEMS[code]) - {"detail"}, brief


def test_english_keeps_a_librarys_words_and_the_other_languages_leave_them_out():
    problem = Problem("yaml.syntax_at", {"line": 4, "column": 1, "detail": "expected the node content"})
    assert words_in("en", problem) == str(problem) == "YAML syntax error at line 4, column 1: expected the node content"
    for language in TRANSLATIONS:
        assert words_in(language, problem) == catalogue(language, "yaml.syntax_at.no_detail", line=4, column=1)


@pytest.mark.parametrize("source", ["a: [1, 2\nb: 3\n", "a: b: c\n", "key: 'open\n"])
def test_a_yaml_syntax_error_names_line_and_column_without_pyyamls_english(source):
    with pytest.raises(YamlFileError) as info:
        parse_yaml_text(source, "house.yaml")
    error = info.value
    problem = error.problem
    assert problem.code == "yaml.syntax_at"
    detail = problem.params["detail"]
    assert error_in("en", error) == str(error) and str(error).endswith(detail)
    for language in TRANSLATIONS:
        worded = error_in(language, error)
        where = catalogue(
            language, "yaml.syntax_at.no_detail", line=problem.params["line"], column=problem.params["column"]
        )
        assert worded == catalogue(language, "located", source="house.yaml", reason=where)
        assert detail.strip("'\"") not in worded and "expected" not in worded


# ---------------------------------------------------------------------- hand histories

HISTORY_LINES = {
    # What is on the file's first line, the English the command line prints after "FILE: line 1: ",
    # and the code of the problem.
    "not json": (b"not json at all\n", "not valid JSON (Expecting value)", "history.not_json"),
    "cut short": (
        b'{"format": "trick-table-history"',
        ("the last game is incomplete (its write was cut short; it is set aside the next time a game is saved)"),
        "history.incomplete",
    ),
    "not text": (b"\xff\xfe\n", "not UTF-8 text", "history.not_utf8"),
    "other program": (b'{"format": "x"}\n', "not a Trick Table hand history", "history.foreign"),
    "newer": (
        b'{"format": "trick-table-history", "version": 7}\n',
        "history version 7 is not supported (this program reads version 1)",
        "history.version",
    ),
    "too deep": (
        b"[" * 100_000 + b"]" * 100_000 + b"\n",
        "not a hand history (nested too deeply to read)",
        "history.too_deep",
    ),
    "long number": (
        b"1" + b"0" * 5000 + b"\n",
        "not a hand history (a number too long to read)",
        "history.long_number",
    ),
}


def history_error(path: Path) -> HistoryError:
    with pytest.raises(HistoryError) as info:
        list(read_history(path))
    return info.value


@pytest.mark.parametrize("case", sorted(HISTORY_LINES))
def test_a_bad_history_line_keeps_its_english_and_is_worded_in_each_language(tmp_path, case):
    content, english, code = HISTORY_LINES[case]
    path = tmp_path / "games.jsonl"
    path.write_bytes(content)
    error = history_error(path)
    assert str(error) == f"{path}: line 1: {english}", "the command line and replay --check read as before"
    assert error.problem.params["reason"].code == code
    assert error_in("en", error) == str(error)
    for language in TRANSLATIONS:
        worded = error_in(language, error)
        assert worded.startswith(str(path)) and catalogue(language, "at_line", line=1) in worded
        assert_no_english(worded, english, "line 1", "not a", "Expecting value")


def test_jsons_own_words_are_shown_only_in_english(tmp_path):
    path = tmp_path / "games.jsonl"
    path.write_bytes(b"not json at all\n")
    error = history_error(path)
    assert "(Expecting value)" in error_in("en", error)
    assert error_in("nl", error) == catalogue(
        "nl", "located_line", source=str(path), line=1, reason=catalogue("nl", "history.not_json.no_detail")
    )
    assert error_in("nl", error).endswith("regel 1: geen geldige JSON")


def test_a_history_that_cannot_be_opened_keeps_the_systems_words(tmp_path):
    path = tmp_path / "nowhere.jsonl"
    error = history_error(path)
    assert str(error) == f"{path}: cannot read: No such file or directory"
    reason = catalogue("tr", "history.unreadable", reason="No such file or directory")
    assert error_in("tr", error) == catalogue("tr", "located", source=str(path), reason=reason)


# ---------------------------------------------------------------------- the replay viewer


@pytest.fixture(scope="module")
def wizard_record() -> dict[str, Any]:
    return play("wizard", 3, 4, rounds=2).history()


def replay_error(path: Path, number: int = 1) -> ReplayError:
    with pytest.raises(ReplayError) as info:
        ReplayTimeline(load_recorded_game(path, number))
    return info.value


def test_the_viewer_words_why_a_file_cannot_be_opened(tmp_path):
    path = tmp_path / "games.jsonl"
    path.write_bytes(b'{"format": "trick-table-history", "version": 7}\n')
    english = f"{path}: line 1: history version 7 is not supported (this program reads version 1)"
    assert str(replay_error(path)) == english
    set_language("en")
    assert ReplayScene.from_file(NO_APP, str(path)) == t("replay.cannot_open", reason=english)
    for language in TRANSLATIONS:
        set_language(language)
        shown = ReplayScene.from_file(NO_APP, str(path))
        reason = catalogue(language, "history.version", version="7", supported=1)
        assert shown == t(
            "replay.cannot_open", reason=catalogue(language, "located_line", source=str(path), line=1, reason=reason)
        )
        assert isinstance(shown, str)
        assert_no_english(shown, "not supported", "this program", "Cannot open")


def test_a_file_with_too_few_games_is_worded_in_each_language(tmp_path, wizard_record):
    path = tmp_path / "games.jsonl"
    write_history(path, [wizard_record, wizard_record])
    error = replay_error(path, 5)
    assert str(error) == f"{path} has no game 5 (it holds 2)"
    assert error_in("nl", error) == catalogue("nl", "replay.no_such_game", source=str(path), number=5, games=2)
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    assert str(replay_error(empty)) == f"{empty} holds no games"
    assert error_in("tr", replay_error(empty)) == catalogue("tr", "replay.no_games", source=str(empty))
    with pytest.raises(ReplayError) as info:
        load_recorded_game(path, 0)
    assert str(info.value) == "--game: game numbers start at 1, not 0"
    assert_no_english(error_in("nl", info.value), "game numbers", "start at")


def refused_record(wizard_record: dict[str, Any]) -> dict[str, Any]:
    """The record with its first card played changed to one the engine refuses."""
    record = copy.deepcopy(wizard_record)
    first = record["deals"][0]["tricks"][0]["plays"][0]
    first["card"] = "2C" if first["card"] != "2C" else "3C"
    return record


def test_a_refused_recorded_move_is_worded_as_the_table_words_a_refused_move(wizard_record):
    with pytest.raises(ReplayError) as info:
        ReplayTimeline(refused_record(wizard_record))
    error = info.value
    refusal = error.problem.params["reason"]
    assert error.problem.code == "replay.move_illegal" and isinstance(refusal, Refusal)
    assert str(error) == f"deal 1: the engine refuses a recorded move ({refusal.message})", (
        "the command line and replay --check read as before"
    )
    assert error_in("en", error) == str(error)
    engine_error = IllegalActionError(refusal.message, refusal.code, **refusal.params)
    for language in TRANSLATIONS:
        set_language(language)
        reason = explain(engine_error)
        assert reason != refusal.message, "the refusal has a sentence in the catalogue"
        assert error_words(error) == catalogue(language, "replay.move_illegal", deal=1, reason=reason)
        assert_no_english(error_words(error), refusal.message, "the engine refuses", "deal 1")


def test_the_viewer_shows_a_refused_recorded_move_in_the_players_language(tmp_path, wizard_record):
    path = tmp_path / "games.jsonl"
    write_history(path, [refused_record(wizard_record)])
    refusal = replay_error(path).problem.params["reason"]
    set_language("tr")
    shown = ReplayScene.from_file(NO_APP, str(path))
    reason = explain(IllegalActionError(refusal.message, refusal.code, **refusal.params))
    assert shown == t("replay.cannot_open", reason=catalogue("tr", "replay.move_illegal", deal=1, reason=reason))
    assert isinstance(shown, str)
    assert_no_english(shown, refusal.message, "Cannot open")


def test_a_recorded_game_whose_rules_cannot_be_played_is_worded_to_the_rule(wizard_record):
    record = copy.deepcopy(wizard_record)
    record["rules"] = {**record["rules"], "bidding": "hidden", "uneven_bids": "always"}
    with pytest.raises(ReplayError) as info:
        ReplayTimeline(record)
    assert str(info.value) == (
        "the game cannot be set up: hand history: uneven_bids: must be off unless bidding is open (bidding is hidden)"
    )
    for language in TRANSLATIONS:
        set_language(language)
        reason = catalogue(language, "rules.uneven_needs_open", bidding="hidden")
        located = catalogue(
            language,
            "located_key",
            source=catalogue(language, "source.hand_history"),
            entry="uneven_bids",
            reason=reason,
        )
        assert error_words(info.value) == catalogue(language, "replay.rules_refused", reason=located)
        assert_no_english(error_words(info.value), "hand history", "cannot be set up", "must be off")


def test_a_record_of_no_known_game_cannot_be_set_up_with_its_english_kept_to_english(wizard_record):
    with pytest.raises(ReplayError) as info:
        ReplayTimeline({**wizard_record, "game": "chess"})
    assert str(info.value).startswith("the game cannot be set up: ")
    assert error_in("tr", info.value) == catalogue("tr", "replay.cannot_set_up.no_detail")
    assert "chess" in error_in("en", info.value)


# ---------------------------------------------------------------------- the Wizard rules check


def test_the_wizard_rounds_check_at_game_start_is_coded():
    rules = make_rules("wizard", {"rounds": 15})
    with pytest.raises(RuleConfigError) as info:
        new_game(rules, 6, 1)
    error = info.value
    assert str(error) == "house rules: rounds: must be full or at most 10 with 6 players (60 cards / 6), not 15"
    assert error.problem is not None and error.problem.code == "rules.too_many_rounds"
    assert error_in("en", error) == str(error)
    for language in TRANSLATIONS:
        reason = catalogue(language, "rules.too_many_rounds", most=10, players=6, rounds=15)
        assert error_in(language, error) == catalogue(
            language, "located_key", entry="rounds", reason=reason, source=catalogue(language, "source.house_rules")
        )
        assert_no_english(error_in(language, error), "house rules", "must be", "players")


# ---------------------------------------------------------------------- saved games

SEATS = [Seat(name, "ai:random") for name in ("Ann", "Ben", "Cy", "Dee")]


def save_problem(tmp_path: Path, data: Any) -> SaveProblem:
    paths = UserPaths.from_data_dir(tmp_path)
    path = save_path(paths)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data if isinstance(data, bytes) else json.dumps(data).encode("utf-8"))
    saved, problem = load_saved_game(paths, now=NOW)
    assert saved is None and problem is not None
    return problem


SAVES = {
    # The file's bytes (or data), the English reason the log keeps, the window's sentence around it.
    "cut short": (
        b'{"format": "trick-table-save", "version": 2, "game": "wiz',
        "the file is not valid JSON (Unterminated string starting at at character 53)",
        "start.save_corrupt",
    ),
    "not text": (b"\x00\x01 not text at all \xff", "the file is not UTF-8 text", "start.save_corrupt"),
    "not a save": (b"[1, 2, 3]", "the file is not a Trick Table save", "start.save_corrupt"),
    "bad version": (
        {"format": "trick-table-save", "version": "2"},
        "the save has no valid version number ('2')",
        "start.save_corrupt",
    ),
    "newer": (
        {"format": "trick-table-save", "version": SAVE_VERSION + 1},
        (
            f"it was made by a newer Trick Table (save version {SAVE_VERSION + 1}; this one reads versions 1 "
            f"to {SAVE_VERSION})"
        ),
        "start.save_unsupported",
    ),
    "older": (
        {"format": "trick-table-save", "version": 0},
        f"save version 0 is older than any this program reads (1 to {SAVE_VERSION})",
        "start.save_unsupported",
    ),
}


@pytest.mark.parametrize("case", sorted(SAVES))
def test_a_save_that_cannot_be_continued_is_worded_in_each_language(tmp_path, case):
    content, english, sentence = SAVES[case]
    problem = save_problem(tmp_path, content)
    assert problem.reason == english, "the log reads as before"
    assert problem.kept_as is not None
    set_language("en")
    assert save_problem_text(problem) == t(sentence, reason=english, file=problem.kept_as.name)
    for language in TRANSLATIONS:
        set_language(language)
        shown = save_problem_text(problem)
        assert shown == t(sentence, reason=problem_words(problem.problem), file=problem.kept_as.name)
        assert_no_english(shown, english, "the file", "save version", "Unterminated", "Your saved game")


def test_a_save_cut_short_tells_where_without_jsons_english(tmp_path):
    problem = save_problem(tmp_path, b'{"format": "trick-table-save", "version": 2, "game": "wiz')
    assert words_in("nl", problem.problem) == catalogue("nl", "save.not_json.no_detail", position=53)


def test_a_save_whose_wizard_rounds_do_not_fit_its_players_is_worded_to_the_rule(tmp_path):
    match = Match(make_rules("wizard", {"rounds": 10}, players=4), SEATS, 21)
    data = snapshot_of(match)
    data["seats"] = data["seats"] + [
        {"name": "Eve", "controller": "ai:random"},
        {"name": "Fay", "controller": "ai:random"},
    ]
    data["rules"] = {**data["rules"], "rounds": 15}
    problem = save_problem(tmp_path, data)
    assert problem.kind == "corrupt"
    assert problem.reason == "house rules: rounds: must be full or at most 10 with 6 players (60 cards / 6), not 15"
    for language in TRANSLATIONS:
        assert words_in(language, problem.problem).startswith(catalogue(language, "source.house_rules") + ": rounds: ")
        assert_no_english(words_in(language, problem.problem), "must be", "house rules")


def test_a_save_the_engine_refuses_is_worded_as_the_table_words_a_refused_move(tmp_path):
    match = Match(make_rules("bidwhist", players=4), SEATS, 5)
    for _ in range(12):
        match.apply(match.legal_actions()[0])
    data = snapshot_of(match)
    data["actions"] = data["actions"][:4] + data["actions"][:1] + data["actions"][5:]  # a bid twice
    problem = save_problem(tmp_path, data)
    refusal = problem.problem.params["reason"]
    assert problem.kind == "corrupt" and problem.problem.code == "save.move_illegal"
    assert problem.kept_as is not None
    assert problem.reason == refusal.message, "the log reads the engine's sentence as before"
    assert words_in("en", problem.problem) == problem.reason
    engine_error = IllegalActionError(refusal.message, refusal.code, **refusal.params)
    for language in TRANSLATIONS:
        set_language(language)
        reason = catalogue(language, "save.move_illegal", reason=explain(engine_error))
        assert problem_words(problem.problem) == reason
        assert save_problem_text(problem) == t("start.save_corrupt", reason=reason, file=problem.kept_as.name)
        assert_no_english(save_problem_text(problem), refusal.message, "Your saved game")


def damaged_save(tmp_path: Path, **changes: Any) -> SaveProblem:
    """The problem of a save of a Bid Whist game whose data has ``changes``."""
    data = {**snapshot_of(Match(make_rules("bidwhist", players=4), SEATS, 5)), **changes}
    return save_problem(tmp_path, data)


def test_a_save_of_a_game_this_program_does_not_know_says_so_in_each_language(tmp_path):
    problem = damaged_save(tmp_path, game="chess")
    allowed = ", ".join(game_names())
    assert problem.reason == f"hand history: game: unknown game 'chess'; allowed: {allowed}"
    for language in TRANSLATIONS:
        reason = catalogue(language, "rules.unknown_game", value="'chess'", allowed=allowed)
        assert words_in(language, problem.problem) == catalogue(
            language, "located_key", source=catalogue(language, "source.hand_history"), entry="game", reason=reason
        )
        assert_no_english(words_in(language, problem.problem), "unknown game", "allowed", "hand history")
        assert words_in(language, problem.problem) != catalogue(language, "save.damaged.no_detail")


def test_a_save_with_a_house_rule_from_a_newer_program_names_it_in_each_language(tmp_path):
    problem = damaged_save(tmp_path, rules={"min_bid": 3, "joker_count": 3})
    known = ", ".join(spec.key for spec in get_game("bidwhist").rule_specs)
    assert problem.reason == (
        "hand history: joker_count: a bidwhist house rule this version does not know "
        f"(the record may come from a newer Trick Table); known keys: {known}"
    )
    for language in TRANSLATIONS:
        set_language(language)
        reason = catalogue(
            language, "rules.record_unknown_key", game_title=t(get_game("bidwhist").text("title")), known=known
        )
        assert problem_words(problem.problem) == catalogue(
            language,
            "located_key",
            source=catalogue(language, "source.hand_history"),
            entry="joker_count",
            reason=reason,
        )
        assert_no_english(problem_words(problem.problem), "does not know", "known keys", "newer Trick Table")


def test_a_save_whose_rules_are_no_mapping_says_so_in_each_language(tmp_path):
    problem = damaged_save(tmp_path, rules=[3])
    assert problem.reason == "hand history: rules: must map house-rule keys to values, not list"
    for language in TRANSLATIONS:
        reason = catalogue(language, "rules.record_not_mapping", kind="list")
        assert words_in(language, problem.problem).endswith(": rules: " + reason)
        assert_no_english(words_in(language, problem.problem), "must map", "hand history")


def test_the_start_screen_shows_a_damaged_save_in_dutch(tmp_path):
    from game.ui.app import App

    paths = UserPaths.from_data_dir(tmp_path).ensure()
    save_path(paths).write_bytes(b"not json")
    app = App(data_dir=str(tmp_path), size=(800, 600), settings=Settings(language="nl"))
    assert app.toast.active
    kept = next(paths.saves_dir.glob("autosave.json.corrupt-*"))
    reason = catalogue("nl", "save.not_json.no_detail", position=0)
    assert app.toast.text == text_in("nl", "start.save_corrupt", reason=reason, file=kept.name)
    assert_no_english(app.toast.text, "Expecting value", "not valid", "Your saved game")
