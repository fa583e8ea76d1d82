"""Default seat names follow the language (issue 24 item 6).

A game started on Dutch screens named its lone human "Jij", and "Jij" stayed
on English screens: on the table after a language change, and when the game
was continued from its save. A name the screen chose now travels with its
role and is worded in the language of the moment; a name the player typed
is kept as typed.
"""

from __future__ import annotations

import os
import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from game.settings.app_settings import Settings
from game.session.match import Match
from game.session.local import local_session
from game.ui.app import App
from game.ui.scenes.start_scene import StartScene
from game.ui.table.scene import TableScene
from scene_checks import top


def _dutch_start(tmp_path) -> tuple[App, StartScene]:
    app = App(
        data_dir=str(tmp_path / "data"),
        size=(800, 600),
        settings=Settings(language="nl", animation_speed="instant", ai_pause_seconds=0.0),
    )
    screen = app.scenes[-1]
    assert isinstance(screen, StartScene)
    screen.set_game("wizard")
    return app, screen


def _switch(app: App, language: str) -> None:
    app.settings.language = language
    app.save_settings()


def test_a_default_name_follows_the_language_on_the_table_and_a_typed_one_stays(tmp_path):
    app, screen = _dutch_start(tmp_path)
    screen.names[2] = "Zoë"  # typed by the player
    seats = screen.build_seats()
    assert [seat.name for seat in seats] == ["Jij", "Ada", "Zoë", "Cleo"]
    assert [seat.name_role for seat in seats] == ["you", "computer:1", "", "computer:3"]
    rules = screen.build_rules()
    assert rules is not None
    app.start_match(rules, seats, seed=5)
    table = app.scenes[-1]
    assert isinstance(table, TableScene) and table.names == ["Jij", "Ada", "Zoë", "Cleo"]
    _switch(app, "en")
    assert table.names == ["You", "Ada", "Zoë", "Cleo"]
    _switch(app, "tr")
    assert table.names == ["Sen", "Ayşe", "Zoë", "Ceren"]


def test_a_game_continued_from_its_save_names_its_default_seats_in_the_language_of_now(tmp_path):
    app, screen = _dutch_start(tmp_path)
    rules = screen.build_rules()
    assert rules is not None
    match = Match(rules, screen.build_seats(), 5)
    saved = match.to_save()
    assert saved["seats"][0] == {"name": "Jij", "controller": "human", "name_role": "you"}
    _switch(app, "en")
    app.resume_session(local_session(Match.from_save(saved), app))
    assert top(app, TableScene).names[0] == "You"
    # A save from before roles were kept has none: its names stay as saved.
    for seat in saved["seats"]:
        seat.pop("name_role", None)
    app.resume_session(local_session(Match.from_save(saved), app))
    assert top(app, TableScene).names[0] == "Jij"


@pytest.mark.parametrize("role", ["robot", "player:²", "player:" + "9" * 5000, "computer:-1", "you:1"])
def test_a_role_a_save_should_not_hold_is_dropped_and_the_name_stays(role):
    from game.rules import make_rules
    from game.session.match import Seat
    from game.ui.seat_names import seat_name

    seats = [Seat("Ann", "human", role)] + [Seat(f"C{i}", "ai:random") for i in (1, 2)]
    match = Match(make_rules("wizard", {"rounds": 1}, players=3), seats, 1)
    assert match.seats[0].name_role == ""
    assert seat_name(match.seats[0].name, match.seats[0].name_role) == "Ann"
