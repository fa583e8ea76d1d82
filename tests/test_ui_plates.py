"""Name plates hide what lies behind them.

A seat's fan of card backs peeks out from behind its name plate; the plate
was drawn slightly see-through, so the backs under it showed as faint card
outlines across the name. The plate now shows the same pixels over any
background.
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest

from game.ui.table.layout import compute_layout
from ui_states import PreviewApp, preview_table_view, window_for_module

display = window_for_module((800, 600))


@pytest.mark.parametrize("is_turn", [False, True], ids=["waiting", "to play"])
@pytest.mark.parametrize("size", [(800, 600), (1280, 720)], ids=lambda size: f"{size[0]}x{size[1]}")
def test_a_name_plate_shows_nothing_of_what_lies_behind_it(size, is_turn):
    layout = compute_layout(size, 4, 0)
    view = preview_table_view(PreviewApp(size))
    plate = layout.place(1).plate
    image = view._render_plate(layout, plate, "Ada", "Tricks 0", is_turn, 1, False)
    shown = []
    for background in ((255, 255, 255), (0, 0, 0), (40, 60, 200)):
        surface = pygame.Surface(image.get_size())
        surface.fill(background)
        surface.blit(image, (0, 0))
        shown.append(surface)
    # Inside the plate's body, clear of its rounded ends and its edge line.
    body = image.get_rect().inflate(-16, -16)
    inside = body.inflate(-body.height - 4, -6)
    differing = [
        (x, y)
        for x in range(inside.left, inside.right, 3)
        for y in range(inside.top, inside.bottom, 3)
        if len({tuple(picture.get_at((x, y)))[:3] for picture in shown}) > 1
    ]
    assert not differing, f"{len(differing)} sampled plate pixels change with what is behind it, e.g. {differing[:3]}"
