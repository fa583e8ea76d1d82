"""The table's sound effects: the files, the sound board, the table's cues and the settings.

The files under assets/sounds/ are what tools/make_sounds.py writes, short,
soft and small. The board plays them at the settings' volume, honours mute,
and is silent without a word of complaint (one log line) when the mixer
cannot start. At the table every sound the director and the scene ask for
is a known effect, the "your turn" chime rings once per turn, and a whole
game plays through with sound on, and with a mixer that fails to open.
"""

from __future__ import annotations

import logging
import os
import wave
from array import array
from dataclasses import dataclass
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame
import pytest

from game.persistence.replay_timeline import ReplayTimeline
from game.rules import get_game, make_rules, new_game
from game.rules.events import Dealt
from game.session.match import Match, Seat
from game.settings.app_settings import Settings, load_settings, save_settings
from game.settings.paths import UserPaths
from game.ui import audio
from game.ui.audio import EFFECTS, SoundBoard, loudness, sound_file, sound_file_problems
from game.ui.scenes import settings_scene
from game.ui.scenes.replay_scene import ReplayScene
from game.ui.scenes.settings_scene import PREVIEW_EFFECT, SettingsScene
from game.ui.dialogs.cover_scene import CoverScene
from game.ui.table.animations import Director
from game.ui.table.layout import compute_layout
from game.ui.table.model import TableModel
from game.ui.text import set_language, t
from game.ui.widgets import text as text_widgets
from scene_checks import match_of, top
from test_ui_table import click, make_app, run_until, start, top_name, wait_past_cover_guard
from tools import make_sounds

SIZE_BUDGET = 100 * 1024  # bytes for all the effects together
LONGEST_SECONDS = 1.0
QUIET_EDGE = 0.01  # the first and last sample, as a share of full scale
LOUDEST_PEAK = 0.6  # no effect comes near clipping


@dataclass
class VolumeSettings:
    volume: int = 70
    mute: bool = False


@pytest.fixture(autouse=True)
def fresh_mixer():
    """Each test opens (or fails to open) the mixer itself, and leaves it closed."""
    pygame.mixer.quit()
    yield
    pygame.mixer.quit()


def _sound(board: SoundBoard, effect: str) -> pygame.mixer.Sound:
    """The loaded sound of ``effect`` (these tests run with the dummy audio driver, which loads them)."""
    sound = board.sound(effect)
    assert sound is not None, f"{effect} did not load"
    return sound


def samples_of(path: Path) -> tuple[int, array]:
    with wave.open(str(path), "rb") as wav:
        assert (wav.getnchannels(), wav.getsampwidth()) == (1, 2), f"{path.name} is mono 16-bit"
        rate = wav.getframerate()
        data = array("h", wav.readframes(wav.getnframes()))
    return rate, data


# ---------------------------------------------------------------------------- the files


def test_every_effect_is_a_short_soft_wav_and_all_fit_the_budget():
    total = 0
    for name in EFFECTS:
        path = sound_file(name)
        assert path.is_file(), f"{name} has no file"
        rate, data = samples_of(path)
        seconds = len(data) / rate
        assert 0.03 <= seconds <= LONGEST_SECONDS, f"{name} lasts {seconds:.2f} s"
        assert max(abs(v) for v in data) <= LOUDEST_PEAK * 32767, f"{name} is too loud"
        assert abs(data[0]) <= QUIET_EDGE * 32767 and abs(data[-1]) <= QUIET_EDGE * 32767, (
            f"{name} starts or ends with a click"
        )
        total += path.stat().st_size
    assert total < SIZE_BUDGET, f"the sounds take {total / 1024:.0f} KB"
    assert sound_file_problems() == []


def test_the_files_are_what_the_tool_makes():
    assert set(make_sounds.RECIPES) == set(EFFECTS)
    for name in EFFECTS:
        rate, made = make_sounds.render(name)
        file_rate, stored = samples_of(sound_file(name))
        assert rate == file_rate and len(made) == len(stored), f"{name}: run tools/make_sounds.py"
        # The same on every machine, up to the last bit of a rounding.
        assert max(abs(a - b) for a, b in zip(made, stored)) <= 1, f"{name}: run tools/make_sounds.py"
    first, again = make_sounds.render("shuffle"), make_sounds.render("shuffle")
    assert first == again, "the noise is seeded: the same bytes every run"


def test_a_missing_sound_file_is_named_by_the_self_test_check(monkeypatch, tmp_path):
    monkeypatch.setattr(audio, "sound_file", lambda name: tmp_path / f"{name}.wav")
    problems = sound_file_problems()
    assert len(problems) == len(EFFECTS) and "shuffle.wav" in problems[0]


# ---------------------------------------------------------------------------- the board


def test_loudness_follows_volume_and_mute():
    assert loudness(100, False) == 1.0
    assert loudness(0, False) == 0.0
    assert loudness(50, False) == pytest.approx(0.25)
    assert loudness(100, True) == 0.0
    assert loudness(70, False) < loudness(80, False)


def test_volume_and_mute_reach_the_sound():
    settings = VolumeSettings(volume=50)
    now = [0.0]
    board = SoundBoard(lambda: settings, clock=lambda: now[0])
    assert board.play("bid")
    assert _sound(board, "bid").get_volume() == pytest.approx(0.25, abs=0.01)
    settings.volume = 100
    now[0] += 1.0
    assert board.play("bid")
    assert _sound(board, "bid").get_volume() == pytest.approx(1.0, abs=0.01), "a new volume counts at once"
    settings.mute = True
    now[0] += 1.0
    assert not board.play("bid"), "muted: nothing starts"
    settings.mute, settings.volume = False, 0
    assert not board.play("bid"), "0 %: nothing starts"
    assert board.play_at("bid", 30, False)
    assert _sound(board, "bid").get_volume() == pytest.approx(0.09, abs=0.01)


def test_a_muted_board_never_opens_the_audio_device(monkeypatch):
    def must_not_open(*args, **kwargs):
        raise AssertionError("the mixer was opened although sound is off")

    monkeypatch.setattr(pygame.mixer, "init", must_not_open)
    board = SoundBoard(lambda: VolumeSettings(mute=True))
    for name in EFFECTS:
        assert not board.play(name)
    assert pygame.mixer.get_init() is None


def test_the_same_effect_is_not_started_twice_at_once():
    now = [10.0]
    board = SoundBoard(lambda: VolumeSettings(), clock=lambda: now[0])
    assert board.play("deal")
    assert not board.play("deal"), "fifty-two cards landing in one frame make one click"
    assert board.play("card_played"), "another effect is not held back"
    now[0] += audio.REPEAT_GAP * 1.5
    assert board.play("deal")


def test_an_unknown_effect_is_a_programming_error():
    with pytest.raises(ValueError, match="no sound effect named 'boing'"):
        SoundBoard(lambda: VolumeSettings()).play("boing")


def test_a_mixer_that_cannot_start_leaves_the_board_silent(monkeypatch, caplog):
    calls = []

    def broken_init(*args, **kwargs):
        calls.append(args)
        raise pygame.error("Couldn't open audio device: No such file or directory")

    monkeypatch.setattr(pygame.mixer, "init", broken_init)
    board = SoundBoard(lambda: VolumeSettings())
    with caplog.at_level(logging.WARNING, logger="tricktable.audio"):
        for name in EFFECTS * 3:
            assert board.play(name) is False
    assert not board.available
    assert len(calls) == 1, "the device is tried once, not for every sound"
    lines = [record for record in caplog.records if record.name == "tricktable.audio"]
    assert len(lines) == 1 and "sound is off" in lines[0].getMessage()
    assert lines[0].levelno == logging.WARNING and lines[0].exc_info is None


def test_a_missing_file_silences_that_effect_alone(monkeypatch, tmp_path, caplog):
    real = audio.sound_file
    monkeypatch.setattr(audio, "sound_file", lambda name: tmp_path / "gone.wav" if name == "bid" else real(name))
    board = SoundBoard(lambda: VolumeSettings())
    with caplog.at_level(logging.WARNING, logger="tricktable.audio"):
        assert not board.play("bid")
        assert not board.play_at("bid", 80, False)
        assert board.play("deal")
    assert board.available
    lines = [record.getMessage() for record in caplog.records if record.name == "tricktable.audio"]
    assert len(lines) == 1 and "gone.wav" in lines[0]


def test_native_stderr_is_restored_after_silencing(capfd):
    with audio.native_stderr_silenced():
        os.write(2, b"ALSA lib noise\n")
    os.write(2, b"after\n")
    assert capfd.readouterr().err == "after\n"


# ---------------------------------------------------------------------------- the director


def _director(played: list[str]) -> tuple[Director, list[Dealt]]:
    _, events = new_game(make_rules("bidwhist"), 4, 3)
    game_def = get_game("bidwhist")
    model = TableModel.empty(game_def, 4, make_rules("bidwhist"))
    layout = compute_layout((1280, 720), 4, 0, 2)
    director = Director(model, lambda: layout, lambda: 0.0, str, game_def, sound=played.append)
    return director, [event for event in events if isinstance(event, Dealt)]


def test_a_deal_shuffles_and_clicks_as_the_cards_land():
    played: list[str] = []
    director, deals = _director(played)
    director.enqueue(deals, 0)
    director.update(0.0)
    assert played[0] == "shuffle"
    assert played.count("deal") == len(deals[0].sequence), "a click per card (the board keeps them apart)"


def test_finishing_everything_at_once_is_silent():
    played: list[str] = []
    director, deals = _director(played)
    director.enqueue(deals, 0)
    director.finish_all()
    assert played == []


# ---------------------------------------------------------------------------- the table


def _record_sounds(app) -> list[str]:
    played: list[str] = []
    board_play = app.audio.play

    def recording(name: str) -> bool:
        played.append(name)
        return board_play(name)

    app.audio.play = recording
    return played


def _play_a_human_game(app, scene) -> None:
    """The human (seat 0) answers every dialog with its first choice and plays its first legal card."""

    def advance() -> bool:
        name, shown = top_name(app), app.scenes[-1]
        if name == "EndScene":
            return True
        if name == "BiddingPanel":
            click(app, shown.buttons[match_of(scene).legal_actions()[0]].rect.center)
        elif name == "ContractChooser":
            click(app, next(button for button in shown.buttons if button.enabled).rect.center)
        elif name == "KittyDialog":
            for choice in shown.cards[-len(shown.cards) // 2 :]:
                if not shown.confirm.enabled:
                    click(app, choice.rect.center)
            click(app, shown.confirm.rect.center)
        elif name == "ScorePad":
            click(app, shown.close_button.rect.center)
        elif shown is scene and scene.input_enabled():
            scene.apply_action(match_of(scene).legal_actions()[0])
        return False

    assert run_until(app, advance, frames=20000), f"no end screen (top: {top_name(app)})"


@pytest.mark.parametrize(
    ("game", "players", "rules"), [("wizard", 3, {"rounds": 2}), ("bidwhist", 4, {"target_score": 1})]
)
def test_a_whole_game_with_sound_on(tmp_path, caplog, game, players, rules):
    app = make_app(tmp_path)
    played = _record_sounds(app)
    controllers = ["human"] + ["ai:random"] * (players - 1)
    with caplog.at_level(logging.WARNING):
        scene = start(app, game, controllers, seed=5, **rules)
        _play_a_human_game(app, scene)
    assert pygame.mixer.get_init() is not None, "the sounds went to the (dummy) audio device"
    assert app.audio.available
    assert set(played) <= set(EFFECTS)
    assert {"shuffle", "deal", "card_played", "trick_won", "bid", "your_turn"} <= set(played)
    assert played[-1] in ("game_won", "game_lost") and played.count(played[-1]) == 1
    problems = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert problems == []
    # The chime rings once per turn: never twice without something happening between.
    for before, after in zip(played, played[1:]):
        assert (before, after) != ("your_turn", "your_turn")
    assert played.count("your_turn") <= sum(1 for seat, _ in match_of(scene).actions if seat == 0)


def test_a_whole_game_with_a_mixer_that_cannot_start(tmp_path, caplog, monkeypatch):
    def broken_init(*args, **kwargs):
        raise pygame.error("no audio device")

    monkeypatch.setattr(pygame.mixer, "init", broken_init)
    app = make_app(tmp_path)
    with caplog.at_level(logging.WARNING):
        scene = start(app, "wizard", ["human", "ai:random", "ai:random"], seed=5, rounds=2)
        _play_a_human_game(app, scene)
    assert top_name(app) == "EndScene"
    assert not app.audio.available
    lines = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [r.name for r in lines] == ["tricktable.audio"], "one line in the log, nothing else"
    assert lines[0].exc_info is None


def test_your_turn_rings_once_while_the_human_thinks(tmp_path):
    app = make_app(tmp_path)
    played = _record_sounds(app)
    scene = start(app, "wizard", ["ai:random", "human", "ai:random"], seed=5, rounds=2)
    assert run_until(app, lambda: top_name(app) == "BiddingPanel")
    for _ in range(120):
        app.step(1 / 60, [])
    assert played.count("your_turn") == 1
    assert match_of(scene).current_player == 1


def test_hot_seat_rings_at_the_cover_and_not_again_behind_it(tmp_path):
    app = make_app(tmp_path)
    played = _record_sounds(app)
    scene = start(app, "wizard", ["human", "ai:random", "human"], seed=5, rounds=2)
    assert run_until(app, lambda: top_name(app) == "CoverScene")
    assert played.count("your_turn") == 1, "the next player is called to the screen"
    seat = match_of(scene).current_player
    wait_past_cover_guard(app)
    click(app, top(app, CoverScene).button.rect.center)
    assert run_until(app, lambda: top_name(app) == "BiddingPanel")
    for _ in range(60):
        app.step(1 / 60, [])
    assert played.count("your_turn") == 1 and match_of(scene).current_player == seat


def test_the_end_sound_speaks_for_the_humans(tmp_path):
    app = make_app(tmp_path)
    scene = start(app, "bidwhist", ["human", "ai:random", "ai:random", "ai:random"])
    assert scene._end_effect([0]) == "game_won", "seat 0 plays for team 0"
    assert scene._end_effect([1]) == "game_lost"
    hot_seat = start(app, "wizard", ["human", "ai:random", "human"], rounds=2)
    assert hot_seat._end_effect([2]) == "game_won", "in hot seat a human at the screen won"
    assert hot_seat._end_effect([1]) == "game_lost"
    watched = start(app, "wizard", ["ai:random"] * 3, rounds=2)
    assert watched._end_effect([1]) == "game_won"


def test_the_replay_viewer_is_silent(tmp_path):
    """A replay is studied by stepping back and forth, often many plays at a jump: it makes no sound."""
    match = Match(make_rules("wizard", {"rounds": 2}, players=3), [Seat(f"P{i}", "ai:random") for i in range(3)], 4)
    match.play_out()
    app = make_app(tmp_path)
    played = _record_sounds(app)
    viewer = ReplayScene(app, ReplayTimeline(match.history()))
    app.push(viewer)
    for code in (pygame.K_RIGHT, pygame.K_PAGEDOWN, pygame.K_DOWN, pygame.K_END, pygame.K_HOME):
        app.step(1 / 60, [pygame.event.Event(pygame.KEYDOWN, key=code, mod=0, unicode="", scancode=0)])
    assert viewer.position == 0 and played == []


# ---------------------------------------------------------------------------- settings


def test_sound_settings_round_trip(tmp_path):
    paths = UserPaths.from_data_dir(tmp_path)
    save_settings(Settings(volume=35, mute=True, hints=False), paths)
    settings, warning = load_settings(paths)
    assert warning is None
    assert (settings.volume, settings.mute, settings.hints) == (35, True, False)


@pytest.mark.parametrize("bad", ["150", "-1", "loud", "true", "55.5", "[70]"])
def test_a_bad_volume_falls_back_and_keeps_the_rest(tmp_path, bad):
    paths = UserPaths.from_data_dir(tmp_path).ensure()
    paths.settings_file.write_text(f"volume: {bad}\nmute: true\nhints: false\n", encoding="utf-8")
    settings, warning = load_settings(paths)
    assert settings.volume == Settings().volume
    assert settings.mute is True and settings.hints is False
    assert warning is not None and "volume: must be a whole number of percent from 0 to 100" in warning


def test_a_bad_mute_value_falls_back(tmp_path):
    paths = UserPaths.from_data_dir(tmp_path).ensure()
    paths.settings_file.write_text("mute: sometimes\nvolume: 20\n", encoding="utf-8")
    settings, warning = load_settings(paths)
    assert (settings.mute, settings.volume) == (False, 20)
    assert warning is not None and "mute: must be true or false" in warning


class PreviewRecorder(SoundBoard):
    """A sound board that notes what it is asked to play instead of playing it."""

    def __init__(self) -> None:
        super().__init__(Settings)
        self.calls: list[tuple[str, int, bool]] = []

    def play_at(self, name: str, volume: int, mute: bool) -> bool:
        self.calls.append((name, volume, mute))
        return True


def show_sound_rows(scene: SettingsScene) -> None:
    """Scroll the settings to their last rows, the volume and mute, as Tab would."""
    scene.focus.focus(scene.mute)
    scene.follow_focus()


def test_settings_screen_sets_volume_and_mute_and_lets_you_hear_them(tmp_path):
    app = make_app(tmp_path)
    recorder = app.audio = PreviewRecorder()
    scene = SettingsScene(app)
    app.push(scene)
    show_sound_rows(scene)
    assert scene.volume.value == 70 and scene.mute.value is False
    app.step(1 / 60, [])
    # The settings' rows scroll: bring the volume's row into view as Tab would.
    scene.focus.focus(scene.volume, keyboard=True)
    scene.follow_focus()
    app.step(1 / 60, [])
    click(app, (scene.volume.rect.right - 5, scene.volume.rect.centery))  # the right arrow
    assert scene.draft.volume == 80 and app.settings.volume == 70, "nothing changes before Save"
    assert recorder.calls[-1] == (PREVIEW_EFFECT, 80, False), "the new volume is heard"
    click(app, scene.mute.rect.center)
    assert recorder.calls[-1] == (PREVIEW_EFFECT, 80, True)
    click(app, scene.save_button.rect.center)
    assert (app.settings.volume, app.settings.mute) == (80, True)
    saved, _ = load_settings(app.user_paths)
    assert (saved.volume, saved.mute) == (80, True)


def _drawn_settings_texts(app, scene: SettingsScene, monkeypatch) -> list[str]:
    """The help texts the settings screen draws under its rows, in one frame."""
    drawn: list[str] = []
    real = text_widgets.draw_text_wrapped

    def recording(surface, text, *args, **kwargs):
        drawn.append(text)
        return real(surface, text, *args, **kwargs)

    monkeypatch.setattr(settings_scene, "draw_text_wrapped", recording)
    show_sound_rows(scene)
    app.step(1 / 60, [])
    return drawn


@pytest.mark.parametrize("language", ["en", "nl", "tr"])
def test_settings_say_when_no_sound_device_was_found(tmp_path, monkeypatch, language):
    def broken_init(*args, **kwargs):
        raise pygame.error("Couldn't open audio device: No such file or directory")

    monkeypatch.setattr(pygame.mixer, "init", broken_init)
    app = make_app(tmp_path)
    set_language(language)
    try:
        scene = SettingsScene(app)  # the sound is on: the screen looks for the device at once
        app.push(scene)
        drawn = _drawn_settings_texts(app, scene, monkeypatch)
        assert t("settings.volume.no_device") in drawn
        assert t("settings.volume.help") not in drawn, "the note takes the volume's help line"
    finally:
        set_language("en")


def test_settings_say_nothing_of_a_device_that_works(tmp_path, monkeypatch):
    app = make_app(tmp_path)
    scene = SettingsScene(app)
    app.push(scene)
    drawn = _drawn_settings_texts(app, scene, monkeypatch)
    assert app.audio.available and t("settings.volume.help") in drawn
    assert t("settings.volume.no_device") not in drawn


def test_muted_settings_look_for_the_device_only_once_mute_is_turned_off(tmp_path, monkeypatch):
    tries = []

    def broken_init(*args, **kwargs):
        tries.append(args)
        raise pygame.error("no device")

    monkeypatch.setattr(pygame.mixer, "init", broken_init)
    app = make_app(tmp_path)
    app.settings.mute = True
    scene = SettingsScene(app)
    app.push(scene)
    assert not tries and not scene.sound_missing(), "muted, the device is not touched"
    scene.mute.activate()  # mute off: the preview sound looks for the device
    assert len(tries) == 1 and scene.sound_missing()
    assert t("settings.volume.no_device") in _drawn_settings_texts(app, scene, monkeypatch)
