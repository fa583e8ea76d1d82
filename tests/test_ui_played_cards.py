"""The played-cards panel at the table (issue 24, item 7), driven headless through the real app.

* it shows what the rules' ``played_cards`` says of the public view, and in
  hot seat, frame after frame, it holds no card but those everyone has seen
  played: the same tally whichever seat's view it were given;
* it never lies over a name plate, a fan of cards, the trick, the hand or the
  buttons, at any table size and player count, and it is there at the usual
  sizes;
* the setting turns it off, and P at the table does the same and keeps it.
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame
import pytest

from game.rules import Phase
from game.rules.played_cards import played_cards
from game.rules.tricks import PUBLIC_SEAT
from game.settings.app_settings import load_settings
from game.ui.table.layout import compute_layout
from game.ui.table.played_panel import panel_place
from game.ui.table.view import TableView
from scene_checks import match_of
from test_ui_table import key, make_app, start, step, top_name
from test_ui_table_review import Pilot


def test_in_hot_seat_the_panel_holds_only_cards_everyone_saw_played(tmp_path, monkeypatch):
    app = make_app(tmp_path)
    scene = start(app, "wizard", ["human", "ai:random", "human"], seed=8, rounds=4)
    match = match_of(scene)
    pilot = Pilot(scene)
    drawn = []
    original = scene._played_picture

    def spy(place):
        drawn.append(scene.played_tally())
        return original(place)

    monkeypatch.setattr(scene, "_played_picture", spy)
    checked = 0
    for _ in range(5000):
        if match.deal_number >= 3 and match.phase == Phase.HAND_OVER:
            break
        pilot.play_on()
        if match.phase != Phase.PLAY:
            continue
        tally = scene.played_tally()
        public = match.view(PUBLIC_SEAT)
        seen = {card for record in public.tricks for _, card in record.plays} | {card for _, card in public.trick}
        assert {card for row in tally.suits for card in row.gone} <= seen
        for seat in range(3):
            assert played_cards(match.view(seat)) == tally, "no seat's own cards change it"
        checked += 1
    assert checked > 10 and drawn, "the panel was drawn while the game was checked"


@pytest.mark.parametrize("size", [(800, 600), (1280, 720), (1920, 1080)])
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_panel_keeps_clear_of_the_table(size, players):
    layout = compute_layout(size, players, 0, 2 if players == 4 else players, hint_button=True)
    fans = [TableView.fan_rect(layout, seat) for seat in range(1, players)]
    place = panel_place(layout, fans)
    if players == 4 or size != (800, 600):
        assert place is not None, "the panel fits the usual tables"
    if place is None:
        return
    rect = place.rect
    undo = layout.log_button.copy()
    undo.right = layout.width - layout.log_button.left
    others = (
        [layout.place(seat).plate for seat in range(players)]
        + fans
        + [
            layout.hand_rect,
            layout.trick_rect,
            layout.indicator_rect,
            layout.progress_rect,
            undo,
            layout.last_trick_button,
            layout.log_button,
            layout.score_rect,
            layout.pad_button,
        ]
    )
    assert rect.collidelist(others) < 0, f"{rect} overlaps {others[rect.collidelist(others)]}"
    assert pygame.Rect(0, 0, *layout.size).contains(rect)
    assert place.row_h >= 15


def test_the_setting_and_p_turn_the_panel_off_and_on(tmp_path, monkeypatch):
    app = make_app(tmp_path)
    scene = start(app, "bidwhist", ["human", "ai:medium", "ai:medium", "ai:medium"], seed=21)
    Pilot(scene).until(
        lambda: top_name(app) == "TableScene" and scene.input_enabled() and len(match_of(scene).view(0).tricks) >= 1
    )
    pictures = []
    original = scene._played_picture

    def spy(place):
        pictures.append(place)
        return original(place)

    monkeypatch.setattr(scene, "_played_picture", spy)
    step(app)
    assert scene.played_panel() is not None and pictures, "on by default"
    step(app, [key(pygame.K_p, "p")])
    assert not app.settings.played_cards and scene.played_panel() is None
    assert load_settings(app.user_paths)[0].played_cards is False, "P is kept in the settings file"
    pictures.clear()
    step(app)
    assert not pictures, "turned off, it is not drawn"
    step(app, [key(pygame.K_p, "p")])
    assert app.settings.played_cards and scene.played_panel() is not None
    app.settings.played_cards = False
    assert scene.played_panel() is None


def test_the_settings_screen_has_the_played_cards_toggle(tmp_path):
    from game.ui.scenes.settings_scene import SettingsScene

    app = make_app(tmp_path)
    dialog = SettingsScene(app)
    assert ("settings.played_cards", dialog.played_cards) in dialog.rows
    dialog.played_cards.activate()
    dialog.save()
    assert app.settings.played_cards is False
    assert load_settings(app.user_paths)[0].played_cards is False
