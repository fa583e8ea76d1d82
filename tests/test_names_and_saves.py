"""Any name is safe; a save that cannot be continued is set aside once (issue 25, items 3 and 4).

A seat's name is cleaned wherever it comes in (``game.session.names``): read from a
save, a last setup or typed, so every name the program holds it can write,
read back, draw and replay; a history line with a name no reader could use
is refused, naming the line. A save that fails to continue for any reason
(unreadable, an unknown controller, a table that fails on it) is set aside
as ``autosave.json.corrupt-<time>`` with the reason shown; only ordinary
files are opened (a pipe would block the window forever); and a game is
never recorded twice in the history, even when its save outlives its end.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame
import pytest

from game.settings.last_setup import load_last_setup
from game.settings.app_settings import read_settings_file
import game.persistence.history_files as history_module
from game.persistence.history_codec import HistoryError
from game.persistence.history_files import HistoryWriter, encode_record, holds_line, write_history
from game.persistence.history_reader import read_history
from game.persistence.history_schema import RecordShapeError, check_record_shape
from game.session.match import Match, Seat
from game.session.names import LONGEST_NAME, clean_name, name_fault
from game.settings.paths import UserPaths
from game.rules import Phase, make_rules
from game.persistence.savegame import SAVE_FILE_NAME, load_saved_game, save_path, snapshot_of
from game.persistence.stats import load_stats
from game.ui.art.render_cache import TEXT
from game.ui.scenes.start_scene import StartScene
from game.session.ai_worker import InlineAiRunner
from game.session.local import local_session
from game.ui.table.scene import TableScene
from game.ui.widgets.text import draw_text_fit, text_size
from game.ui.text import t
from scene_checks import autosaver, match_of
from test_ui_table import click, make_app, run_until, step, top_name

ROBOTS = [Seat("A", "ai:random"), Seat("B", "ai:random"), Seat("C", "ai:random")]
SHORT_WIZARD = ("wizard", {"rounds": 1})
HOSTILE_NAMES = ["\ud800", "a\x00b", "x" * 300, "\u200b\ufeff", "Ann\n\tLee", "  \x1b[31mRed  "]


def play_to_end(match: Match) -> Match:
    while not match.is_over:
        if match.phase == Phase.HAND_OVER:
            match.next_deal()
        else:
            match.apply(match.choose_ai_action())
    return match


def short_match(seats=ROBOTS, seed: int = 3) -> Match:
    return Match(make_rules(SHORT_WIZARD[0], SHORT_WIZARD[1], players=len(seats)), list(seats), seed)


def write_save(paths: UserPaths, data) -> Path:
    path = save_path(paths)
    path.parent.mkdir(parents=True, exist_ok=True)
    # ensure_ascii: a lone surrogate can only reach a file as a JSON escape, as a hostile hand writes it.
    path.write_bytes(data if isinstance(data, bytes) else json.dumps(data).encode("utf-8"))
    return path


def the_start_screen(app) -> StartScene:
    scene = app.scenes[-1]
    assert isinstance(scene, StartScene), type(scene).__name__
    return scene


def kept_aside(paths: UserPaths) -> list[Path]:
    return sorted(paths.saves_dir.glob(f"{SAVE_FILE_NAME}.corrupt-*"))


# ---------------------------------------------------------------------------- item 3: names
@pytest.mark.parametrize(
    "raw, cleaned",
    [
        ("\ud800", ""),
        ("a\x00b", "ab"),
        ("x" * 300, "x" * LONGEST_NAME),
        ("\u200b\ufeff", ""),
        ("Ann\n\tLee", "Ann Lee"),
        ("  \x1b[31mRed  ", "[31mRed"),
        ("Zoë 😀", "Zoë 😀"),
        (5, ""),
    ],
)
def test_a_name_is_cleaned_to_what_every_part_of_the_program_can_use(raw, cleaned):
    assert clean_name(raw) == cleaned
    assert clean_name(raw, "Player 1") == (cleaned or "Player 1")
    assert name_fault(clean_name(raw, "P")) is None


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_every_name_a_match_holds_is_written_read_and_replayed(name, tmp_path):
    match = play_to_end(short_match([Seat(name, "ai:random")] + ROBOTS[1:]))
    held = match.seats[0].name
    assert held == clean_name(name, "#1") and match.renamed_seats == [0]
    path = tmp_path / "h.jsonl"
    write_history(path, [match.history()], append=True)
    (record,) = list(read_history(path))
    check_record_shape(record)  # what replay --check reads
    assert record["players"][0]["name"] == held
    saved = json.loads(json.dumps(snapshot_of(match)))
    assert Match.from_save(saved).seats[0].name == held


@pytest.mark.parametrize("name", ["\ud800", "a\x00b", "x" * 300])
def test_a_hostile_name_in_the_save_is_cleaned_continues_draws_and_saves(name, tmp_path):
    paths = UserPaths.from_data_dir(tmp_path)
    match = short_match([Seat(name, "human")] + ROBOTS[1:])
    data = snapshot_of(match)
    data["seats"][0]["name"] = name  # as a hand left it in the file
    write_save(paths, data)
    app = make_app(tmp_path)
    screen = the_start_screen(app)
    assert screen.saved_game is not None, "the save is continued, not lost"
    assert app.toast.active and app.toast.text == t("start.names_cleaned")
    step(app)  # the start screen draws the saved game's bar with the name
    click(app, screen.continue_button.rect.center)
    scene = app.scenes[0]
    assert isinstance(scene, TableScene) and scene.names[0] == clean_name(name, "#1")
    for _ in range(3):
        step(app)
    assert app.scenes[0] is scene, "the table draws the name and stays"
    saves = autosaver(app)
    saves.save(match_of(scene))
    assert saves.flush() and saves.saved, "the autosave can write it"
    app.close(quit_pygame=False)


def test_a_hostile_name_in_the_last_setup_is_cleaned_and_the_game_autosaves(tmp_path):
    paths = UserPaths.from_data_dir(tmp_path)
    paths.last_setup_file.parent.mkdir(parents=True, exist_ok=True)
    # A lone surrogate, NUL and an overlong name, as YAML escapes write them.
    paths.last_setup_file.write_text(
        'game: wizard\nplayers: 3\nnames: ["\\ud800Ann", "B\\0b", "' + "y" * 300 + '"]\n'
        "kinds: [human, computer, computer]\nlevels: [medium, random, random]\npreset: standard\n",
        encoding="utf-8",
    )
    setup = load_last_setup(paths)
    assert setup is not None and setup.renamed and setup.names == ["Ann", "Bb", "y" * LONGEST_NAME]
    app = make_app(tmp_path)
    screen = the_start_screen(app)
    assert app.toast.active and app.toast.text == t("start.names_cleaned")
    seats = screen.build_seats()
    assert [seat.name for seat in seats][:2] == ["Ann", "Bb"]
    app.start_match(make_rules("wizard", players=3), seats, seed=4)
    table = app.scenes[0]
    assert isinstance(table, TableScene)
    saves = autosaver(app)
    saves.save(match_of(table))
    assert saves.flush() and saves.saved and save_path(paths).exists()
    app.close(quit_pygame=False)


def test_characters_typed_into_a_name_that_cannot_be_shown_are_left_out_with_a_message(tmp_path):
    app = make_app(tmp_path)
    screen = the_start_screen(app)
    field = screen.name_inputs[0]
    click(app, field.rect.center)
    assert field.focused and not app.toast.active
    step(app, [pygame.event.Event(pygame.TEXTINPUT, text="Z")])
    assert screen.names[0].endswith("Z") and not app.toast.active
    step(app, [pygame.event.Event(pygame.TEXTINPUT, text="a\x00\u200b\ud800b")])
    assert screen.names[0].endswith("Zab")
    assert app.toast.active and app.toast.text == t("start.names_cleaned")
    assert name_fault(screen.build_seats()[0].name) is None


def test_a_history_line_with_a_name_no_reader_can_use_is_refused_naming_it(tmp_path):
    folder = tmp_path / "histories"
    folder.mkdir()
    good = play_to_end(short_match()).history()
    bad = json.loads(json.dumps(good))
    bad["players"][1]["name"] = "\ud800"
    lines = [encode_record(good), (json.dumps(bad) + "\n").encode("utf-8")]
    (folder / "wizard.jsonl").write_bytes(b"".join(lines))
    with pytest.raises(RecordShapeError, match=r"players\[1\]\.name"):
        check_record_shape(bad)
    with pytest.raises(HistoryError, match="line 2: the name of player 2"):
        list(read_history(folder / "wizard.jsonl"))
    loaded = load_stats(folder, tmp_path / "cache.json", parallel=False)  # raised UnicodeEncodeError
    assert loaded.games_read == 1 and len(loaded.problems) == 1
    assert "line 2" in str(loaded.problems[0])


@pytest.mark.parametrize("text", ["a\x00b", "\ud800", "\ufeff", "\u200b\u200b", "x\ud800\x00"])
def test_the_draw_path_draws_any_text_a_file_could_hold(text):
    pygame.init()
    surface = pygame.Surface((200, 40))
    drawn = draw_text_fit(surface, text, pygame.Rect(0, 0, 200, 40), 20, (255, 255, 255))
    assert drawn.height > 0 and text_size(text, 20)[1] > 0
    assert TEXT.render(text, 20, (255, 255, 255), shadow=True).get_height() > 0


def test_the_writer_never_writes_a_name_its_reader_refuses():
    long_name = play_to_end(short_match([Seat("z" * 300, "ai:random")] + ROBOTS[1:])).history()
    check_record_shape(long_name)  # a 300-character name was refused here (over 200)


# ---------------------------------------------------------------------------- item 4: saves
def test_a_save_with_an_unknown_controller_is_set_aside_once_with_the_reason(tmp_path):
    paths = UserPaths.from_data_dir(tmp_path)
    data = snapshot_of(short_match())
    data["seats"][1]["controller"] = "robot"
    write_save(paths, data)
    app = make_app(tmp_path)
    screen = the_start_screen(app)
    assert screen.saved_game is None and not screen.continue_button.visible
    (kept,) = kept_aside(paths)
    assert not save_path(paths).exists() and json.loads(kept.read_bytes())["seats"][1]["controller"] == "robot"
    assert app.toast.active and "robot" in app.toast.text and kept.name in app.toast.text
    app.close(quit_pygame=False)
    again = the_start_screen(make_app(tmp_path))
    assert again.saved_game is None and kept_aside(paths) == [kept], "set aside once"


def test_a_save_the_table_fails_on_is_set_aside_at_the_first_failure(tmp_path, monkeypatch):
    paths = UserPaths.from_data_dir(tmp_path)
    write_save(paths, snapshot_of(short_match([Seat("You", "human")] + ROBOTS[1:])))
    app = make_app(tmp_path)
    screen = the_start_screen(app)
    assert screen.saved_game is not None

    def broken(self, dt):
        raise RuntimeError("the table cannot show this game")

    monkeypatch.setattr(TableScene, "update", broken)
    click(app, screen.continue_button.rect.center)
    step(app)
    start = the_start_screen(app)
    assert start.saved_game is None and not save_path(paths).exists()
    (kept,) = kept_aside(paths)
    assert app.toast.active and kept.name in app.toast.text
    assert "RuntimeError" not in app.toast.text, "in the player's words, the details in the log"
    assert app._errors == [], "set aside at once, not after three failures"


def test_a_table_that_fails_after_a_move_of_the_continued_game_keeps_the_save(tmp_path, monkeypatch):
    paths = UserPaths.from_data_dir(tmp_path)
    write_save(paths, snapshot_of(short_match([Seat("You", "human")] + ROBOTS[1:])))
    app = make_app(tmp_path)
    click(app, the_start_screen(app).continue_button.rect.center)
    scene = app.scenes[0]
    assert isinstance(scene, TableScene)
    match_of(scene).apply(match_of(scene).legal_actions()[0])  # the game goes on from the save
    monkeypatch.setattr(TableScene, "update", lambda self, dt: 1 / 0)
    step(app)
    assert save_path(paths).exists() and kept_aside(paths) == [], "a game that went on is not the save's fault"


def test_a_pipe_in_place_of_the_save_is_set_aside_unopened(tmp_path):
    paths = UserPaths.from_data_dir(tmp_path)
    paths.saves_dir.mkdir(parents=True)
    os.mkfifo(save_path(paths))
    result: list = []
    reader = threading.Thread(target=lambda: result.append(load_saved_game(paths)), daemon=True)
    reader.start()
    reader.join(5.0)
    if reader.is_alive():  # free the blocked open() so the test run can end
        with open(save_path(paths), "wb"):
            pass
        pytest.fail("opening the save waited on a pipe")
    saved, problem = result[0]
    assert saved is None and problem is not None and problem.kind == "corrupt"
    assert problem.kept_as is not None and problem.kept_as.name.startswith(f"{SAVE_FILE_NAME}.corrupt-")
    assert not save_path(paths).exists()
    assert str(problem.problem) == "it is not an ordinary file"


def test_the_settings_and_last_setup_readers_never_wait_on_a_pipe(tmp_path):
    paths = UserPaths.from_data_dir(tmp_path)
    paths.settings_file.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(paths.settings_file)
    if paths.last_setup_file != paths.settings_file:
        os.mkfifo(paths.last_setup_file)
    result: list = []

    def read_both() -> None:
        result.append(read_settings_file(paths.settings_file))
        result.append(load_last_setup(paths))

    reader = threading.Thread(target=read_both, daemon=True)
    reader.start()
    reader.join(5.0)
    if reader.is_alive():
        for path in (paths.settings_file, paths.last_setup_file):
            fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK) if path.exists() else None
            if fd is not None:
                os.close(fd)
        pytest.fail("reading a player's file waited on a pipe")
    settings, setup = result
    assert settings.problems and setup is None


def finished_save_and_history(tmp_path) -> tuple[UserPaths, Match]:
    """A finished game recorded in the history whose save could not be removed."""
    paths = UserPaths.from_data_dir(tmp_path)
    match = play_to_end(short_match())
    write_save(paths, snapshot_of(match))
    paths.histories_dir.mkdir(parents=True, exist_ok=True)
    write_history(paths.histories_dir / "wizard.jsonl", [match.history()], append=True)
    return paths, match


def test_a_finished_game_whose_save_stayed_is_not_continued_nor_recorded_again(tmp_path):
    paths, _ = finished_save_and_history(tmp_path)
    app = make_app(tmp_path)
    screen = the_start_screen(app)
    assert screen.saved_game is None and not screen.continue_button.visible
    assert not save_path(paths).exists(), "removed now that it can be"
    assert len(list(read_history(paths.histories_dir / "wizard.jsonl"))) == 1
    assert load_stats(paths.histories_dir, None, parallel=False).games_read == 1


def test_a_finished_game_is_recorded_once_when_its_save_cannot_be_removed(tmp_path, monkeypatch):
    paths, match = finished_save_and_history(tmp_path)

    def refuse(self, *args, **kwargs):
        if self.name == SAVE_FILE_NAME:
            raise PermissionError(13, "Permission denied")  # as in a read-only saves folder
        return original(self, *args, **kwargs)

    original = Path.unlink
    monkeypatch.setattr(Path, "unlink", refuse)
    for _ in range(2):
        app = make_app(tmp_path)
        assert the_start_screen(app).saved_game is None
        assert save_path(paths).exists()
        app.close(quit_pygame=False)
    # The table itself, replaying the same game to its end, does not add it again either.
    app = make_app(tmp_path)
    replayed = Match.from_save(json.loads(save_path(paths).read_bytes()))
    app.replace(TableScene(app, local_session(replayed, app, ai_runner=InlineAiRunner())))
    assert run_until(app, lambda: top_name(app) == "EndScene")
    assert len(list(read_history(paths.histories_dir / "wizard.jsonl"))) == 1
    assert load_stats(paths.histories_dir, None, parallel=False).games_read == 1


def test_the_history_writer_adds_a_game_once_and_other_games_always(tmp_path):
    path = tmp_path / "h.jsonl"
    first, other = play_to_end(short_match(seed=3)).history(), play_to_end(short_match(seed=4)).history()
    with HistoryWriter(path) as writer:
        assert writer.append(first, once=True)
        assert not writer.append(first, once=True)
        assert writer.append(other, once=True)
        assert writer.append(first), "only a window's own game-over asks for once"
    assert len(list(read_history(path))) == 3


def test_a_continued_unrecorded_finished_game_is_recorded_once(tmp_path):
    paths = UserPaths.from_data_dir(tmp_path)
    write_save(paths, snapshot_of(play_to_end(short_match())))
    app = make_app(tmp_path)
    screen = the_start_screen(app)
    assert screen.saved_game is not None and screen.saved_game.match.is_over
    click(app, screen.continue_button.rect.center)
    assert run_until(app, lambda: top_name(app) == "EndScene")
    assert len(list(read_history(paths.histories_dir / "wizard.jsonl"))) == 1
    assert autosaver(app).flush() and not save_path(paths).exists()


@pytest.mark.parametrize("chunk", [1, 5, 1 << 20])
def test_looking_for_a_game_finds_only_whole_lines_across_any_chunk(tmp_path, monkeypatch, chunk):
    monkeypatch.setattr(history_module, "_SCAN_CHUNK", chunk)
    path = tmp_path / "h.jsonl"
    path.write_bytes(b"abc\nhello world\n" + b"x" * 40 + b"\nhello\ntorn")
    with open(path, "rb") as handle:
        assert holds_line(handle, b"hello\n") and holds_line(handle, b"abc\n")
        assert not any(holds_line(handle, line) for line in (b"hello world!\n", b"torn\n", b"world\n", b"bc\n"))


def test_a_stale_save_of_a_game_recorded_since_is_set_aside_not_continued(tmp_path):
    """Its last autosaves failed (a read-only saves folder) and so did its removal: the save
    stopped mid-game while the game went on to its end and into the history."""
    paths = UserPaths.from_data_dir(tmp_path)
    match = Match(make_rules("wizard", {"rounds": 3}, players=3), list(ROBOTS), 3)
    while match.deal_number < 2 or len(match.actions) < 12:
        match.next_deal() if match.phase == Phase.HAND_OVER else match.apply(match.choose_ai_action())
    stale = snapshot_of(match)
    write_save(paths, stale)
    paths.histories_dir.mkdir(parents=True)
    other = play_to_end(short_match(seed=9)).history()
    write_history(paths.histories_dir / "wizard.jsonl", [other, play_to_end(match).history()], append=True)
    app = make_app(tmp_path)
    assert the_start_screen(app).saved_game is None
    assert not save_path(paths).exists() and len(list(paths.saves_dir.glob(f"{SAVE_FILE_NAME}.finished-*"))) == 1
    assert len(list(read_history(paths.histories_dir / "wizard.jsonl"))) == 2


def test_a_save_whose_game_is_not_in_the_history_is_offered(tmp_path):
    paths = UserPaths.from_data_dir(tmp_path)
    match = Match(make_rules("wizard", {"rounds": 3}, players=3), list(ROBOTS), 3)
    for _ in range(12):
        match.next_deal() if match.phase == Phase.HAND_OVER else match.apply(match.choose_ai_action())
    write_save(paths, snapshot_of(match))
    paths.histories_dir.mkdir(parents=True)
    # The same seed with other players, and another seed with the same players: other games.
    others = [
        Match(make_rules("wizard", {"rounds": 3}, players=3), [Seat("Z", "ai:random")] + ROBOTS[1:], 3),
        Match(make_rules("wizard", {"rounds": 3}, players=3), list(ROBOTS), 4),
    ]
    write_history(paths.histories_dir / "wizard.jsonl", [play_to_end(m).history() for m in others], append=True)
    screen = the_start_screen(make_app(tmp_path))
    assert screen.saved_game is not None and save_path(paths).exists()
