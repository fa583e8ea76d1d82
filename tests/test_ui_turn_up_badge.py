"""The trump badge on Wizard's turned-up card leaves the card's indices in view.

The upper-left panel shows the turned-up card with a small badge of the
trump suit (after a Wizard is turned up, the suit the dealer named). The
badge sat on the card's lower-right corner, over its turned-round index.
The check draws the panel with and without the badge and compares the
pixels inside the index boxes the card art reports.
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest

from game.rules.cards import parse_card
from game.ui.table.layout import compute_layout
from ui_states import WINDOW_SIZES, PreviewApp, preview_table_view, window_for_module

display = window_for_module((800, 600))


@pytest.mark.parametrize("size", WINDOW_SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
@pytest.mark.parametrize("code, suit", [("2D", 2), ("TC", 3), ("WZ", 1)])
def test_the_trump_badge_leaves_the_turn_up_cards_indices_in_view(size, code, suit):
    card = parse_card(code)
    view = preview_table_view(PreviewApp(size))
    layout = compute_layout(size, 4, 0)
    rect = layout.indicator_rect
    lines = [("dim", "Round 3 of 15"), ("big", "Hearts"), ("text", "Trump")]
    with_badge = view._render_indicator(rect, layout, lines, suit, card, False)
    without_badge = view._render_indicator(rect, layout, lines, -1, card, False)
    width = layout.small_card_w
    face = view.art(width).face(code)
    pad = max(8, round(10 * layout.unit))
    shown = face.get_rect(center=(pad + width // 2, rect.height // 2))
    index_w, index_h = view.art(width).corner_index_size()
    boxes = [
        pygame.Rect(shown.left, shown.top, index_w, index_h),
        pygame.Rect(shown.right - index_w, shown.bottom - index_h, index_w, index_h),
    ]
    covered = [
        (x, y)
        for box in boxes
        for x in range(box.left, box.right)
        for y in range(box.top, box.bottom)
        if with_badge.get_at((x, y)) != without_badge.get_at((x, y))
    ]
    drawn = sum(
        with_badge.get_at((x, y)) != without_badge.get_at((x, y))
        for x in range(0, rect.width, 2)
        for y in range(0, rect.height, 2)
    )
    assert drawn, "no trump badge drawn"
    assert not covered, f"the trump badge covers {len(covered)} index pixels at {size}, e.g. {covered[:3]}"
