"""Crowded and see-through screens, checked by their geometry.

* A trick leaves every card's corner indices in view, from three to six
  cards (six covered each other's at 800x600), and stays clear of the
  seats' name plates; its Led and Winning tags keep off the opponents' card
  backs.
* The game-over dialog sits in the middle of a 1280x720 window (it hung
  from below the table's corner panels down to the bottom edge), a clear
  band separates its last score row from its buttons, and at any size it
  keeps clear of the table's corner panels.
* The settings and house-rules dialogs cover what is behind them: their
  panel shows the same pixels over any background (the start screen's text
  showed through), and the window around them is darkened.
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest
from ui_states import WINDOW_SIZES, PreviewApp, finished_match, window_for_module

from game.settings.app_settings import Settings
from game.session.match import Match, Seat
from game.rules import make_rules
from game.ui.app import App
from game.persistence.history_codec import score_history
from game.ui.dialogs.end_scene import EndScene
from game.ui.scenes.rules_editor import RulesEditor
from game.ui.scenes.settings_scene import SettingsScene
from game.session.ai_worker import InlineAiRunner
from game.ui.table.layout import (
    RAISE_SELECTED,
    RING_REACH,
    compute_layout,
    fan_rect,
    hand_positions,
    trick_tag_rect,
)
from game.session.local import local_session
from game.ui.table.scene import TableScene
from game.ui.widgets.geometry import set_display_choices

# The part of a card its rank and suit index take, at each of two opposite corners.
CORNER_W, CORNER_H = 0.3, 0.32


display = window_for_module((1280, 720))


def _card_mask(width: int, height: int, angle: float, corners_only: bool) -> pygame.mask.Mask:
    """The mask of a card (or of its two index corners) turned by ``angle`` as the table turns it."""
    card = pygame.Surface((width, height), pygame.SRCALPHA)
    if corners_only:
        corner = pygame.Rect(0, 0, round(width * CORNER_W), round(height * CORNER_H))
        card.fill((255, 255, 255, 255), corner)
        corner.bottomright = (width, height)
        card.fill((255, 255, 255, 255), corner)
    else:
        card.fill((255, 255, 255, 255))
    return pygame.mask.from_surface(pygame.transform.rotozoom(card, angle, 1.0), 127)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("size", WINDOW_SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_no_trick_card_covers_another_cards_corner_indices(players, size):
    layout = compute_layout(size, players, 0)
    width, height = layout.trick_card_w, layout.trick_card_h
    cards = []
    for place in layout.seats:
        whole = _card_mask(width, height, place.trick_angle, corners_only=False)
        corners = _card_mask(width, height, place.trick_angle, corners_only=True)
        centre = place.trick_centre
        cards.append(
            (place.seat, whole, corners, (centre[0] - whole.get_size()[0] // 2, centre[1] - whole.get_size()[1] // 2))
        )
    covered = []
    for seat, _, corners, corner_at in cards:
        for other, whole, _, whole_at in cards:
            if other == seat:
                continue
            offset = (whole_at[0] - corner_at[0], whole_at[1] - corner_at[1])
            if corners.overlap(whole, offset) is not None:
                covered.append((seat, other))
    assert not covered, f"{players} players at {size}: card corners covered (seat, by seat): {covered}"


@pytest.mark.parametrize("players", [4, 5, 6])
def test_the_trick_stays_clear_of_the_seats_name_plates(players):
    for size in WINDOW_SIZES:
        layout = compute_layout(size, players, 0)
        reach = pygame.Rect(0, 0, round(layout.trick_card_w * 1.1), round(layout.trick_card_h * 1.1))
        for place in layout.seats:
            card = reach.copy()
            card.center = place.trick_centre
            for seat in layout.seats:
                assert not card.colliderect(seat.plate), (size, place.seat, seat.seat)


def _end_scene(app, players: int):
    if players == 4:
        match = finished_match("bidwhist", seed=8)
        names = ["You", "Ada", "Bruno", "Cleo"]
    else:
        match = finished_match("wizard", players=players, seed=2)
        names = ["You", "Ada", "Bruno", "Cleo", "Dmitri", "Esme"][:players]
    return EndScene(app, score_history(match.history()), names, lambda: None, lambda: None)


@pytest.mark.parametrize("players", [4, 6])
def test_game_over_sits_in_the_middle_and_its_rows_clear_the_buttons(players, tmp_path):
    # The real table the dialog opens over: it used to place the dialog below its corner panels.
    app = App(data_dir=str(tmp_path), size=(1280, 720), settings=Settings(animation_speed="instant"), show_start=False)
    try:
        game = "bidwhist" if players == 4 else "wizard"
        seats = [Seat(f"P{seat}", "ai:random") for seat in range(players)]
        match = Match(make_rules(game, players=players), seats, 3)
        table = TableScene(app, local_session(match, app, ai_runner=InlineAiRunner()))
        scene = _end_scene(app, players).attach_host(table)
        scene.relayout((1280, 720))
        panel = scene.panel_rect
        assert abs(panel.centery - 360) <= 720 * 0.05, f"game over centred at y={panel.centery}, not 360"
        buttons_top = min(button.rect.top for button in (scene.back, scene.pad, scene.play_again))
        rows = scene.row_rects
        assert len(rows) == len(scene.standings())
        assert buttons_top - rows[-1].bottom >= 16, (rows[-1].bottom, buttons_top)
        assert all(row.height >= 28 for row in rows), rows
    finally:
        app.close(quit_pygame=False)


@pytest.mark.parametrize("size", WINDOW_SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_game_over_keeps_clear_of_the_tables_corner_panels(size, tmp_path):
    app = App(data_dir=str(tmp_path), size=size, settings=Settings(animation_speed="instant"), show_start=False)
    try:
        seats = [Seat(f"P{seat}", "ai:random") for seat in range(4)]
        table = TableScene(app, local_session(Match(make_rules("bidwhist"), seats, 3), app, ai_runner=InlineAiRunner()))
        scene = _end_scene(app, 4).attach_host(table)
        scene.relayout(size)
        panel, between, below = scene.panel_rect, table.dialog_area(size, False), table.dialog_area(size, True)
        clear = (between.left <= panel.left and panel.right <= between.right) or panel.top >= below.top
        assert clear, f"game over {panel} overlaps a corner panel (between {between}, below {below})"
        assert pygame.Rect(0, 0, *size).contains(panel)
    finally:
        app.close(quit_pygame=False)


@pytest.mark.parametrize(
    "make",
    [lambda app: SettingsScene(app), lambda app: RulesEditor(app, "bidwhist", {}, {}, 4, lambda edits: None)],
    ids=["settings", "house rules"],
)
@pytest.mark.parametrize("size", [(800, 600), (1280, 720)], ids=lambda size: f"{size[0]}x{size[1]}")
def test_dialogs_over_the_start_screen_hide_it(make, size):
    app = PreviewApp(size)
    dialog = make(app)
    dialog.relayout(size)
    shown = []
    for background in ((255, 255, 255), (0, 0, 0), (200, 40, 40)):
        surface = pygame.Surface(size)
        surface.fill(background)
        dialog.invalidate()
        dialog.draw(surface)
        shown.append(surface)
    # Inside the panel (clear of its rounded corners) nothing of the background shows.
    inside = dialog.panel_rect.inflate(-2 * 14, -2 * 14)
    differing = 0
    for x in range(inside.left, inside.right, 7):
        for y in range(inside.top, inside.bottom, 7):
            if len({tuple(picture.get_at((x, y)))[:3] for picture in shown}) > 1:
                differing += 1
    assert differing == 0, f"{differing} sampled panel pixels change with what is behind the dialog"
    # Outside, the window behind is darkened.
    corner = (2, 2) if not dialog.panel_rect.collidepoint(2, 2) else (size[0] - 3, size[1] - 3)
    assert sum(tuple(shown[0].get_at(corner))[:3]) < 3 * 255 * 0.8, "the screen behind is not dimmed"


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("size", WINDOW_SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_the_trick_tags_keep_off_the_opponents_card_backs(players, size):
    # The bug: a tag on the side of a card facing its seat lay over the backs of the seat across.
    try:
        for percent in (100, 150, 200):
            set_display_choices(percent, False)
            layout = compute_layout(size, players, 0, hint_button=True)
            fans = [fan_rect(layout, place.seat) for place in layout.seats if place.relative != 0]
            tag_size = (round(layout.font_unit * 3.5), round(layout.font_unit))  # "Winning", the longer tag
            for place in layout.seats:
                for second in (False, True):
                    tag = trick_tag_rect(layout, place.seat, tag_size, second)
                    covered = sum(tag.clip(fan).width * tag.clip(fan).height for fan in fans)
                    assert covered == 0, (percent, size, players, place.seat, tag)
    finally:
        set_display_choices(100, False)


@pytest.mark.parametrize("large_cards", [False, True], ids=["usual cards", "large cards"])
@pytest.mark.parametrize("size", WINDOW_SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_a_lifted_card_never_covers_its_owners_name_plate(size, large_cards):
    # The bug: a playable card the keyboard selected rose over the bottom player's own plate.
    try:
        for percent in (100, 200):
            set_display_choices(percent, large_cards)
            for players in (4, 6):
                layout = compute_layout(size, players, 0, hint_button=True)
                plate = layout.place(0).plate
                for count in (1, 8, 13):
                    positions = hand_positions(layout, count, lifted=set(range(count)))
                    for rect, _tilt in positions:
                        selected = rect.move(0, -round(layout.hand_card_h * RAISE_SELECTED))
                        drawn = selected.inflate(2 * RING_REACH, 2 * RING_REACH)
                        assert drawn.top >= plate.bottom, (percent, players, count, drawn, plate)
    finally:
        set_display_choices(100, False)
