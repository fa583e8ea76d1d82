"""Rectangles for laying out dialogs: the window's size factor, equal columns
and rows, and the part of the table window a dialog may cover.

Every dialog lays itself out from the window size alone, so these are plain
functions of sizes and rectangles.
"""

from __future__ import annotations

import pygame

Colour = tuple[int, ...]
RectLike = pygame.Rect | tuple[int, int, int, int]


def ui_scale(size: tuple[int, int]) -> float:
    """A size factor for a window: 1.0 at 1280x720, smaller windows get smaller type."""
    width, height = size
    return max(0.75, min(1.7, min(width / 1280, height / 720)))


def split_columns(rect: RectLike, count: int, gap: int) -> list[pygame.Rect]:
    """``count`` equal columns across ``rect`` separated by ``gap``."""
    rect = pygame.Rect(rect)
    if count <= 0:
        return []
    width = (rect.width - gap * (count - 1)) / count
    return [pygame.Rect(round(rect.left + i * (width + gap)), rect.top, max(1, round(width)), rect.height)
            for i in range(count)]


def split_rows(rect: RectLike, count: int, gap: int) -> list[pygame.Rect]:
    """``count`` equal rows down ``rect`` separated by ``gap``."""
    rect = pygame.Rect(rect)
    if count <= 0:
        return []
    height = (rect.height - gap * (count - 1)) / count
    return [pygame.Rect(rect.left, round(rect.top + i * (height + gap)), rect.width, max(1, round(height)))
            for i in range(count)]


def area_above_hand(size: tuple[int, int]) -> pygame.Rect:
    """The part of the table window above the bottom hand (and its raised cards).

    Dialogs that the player answers while looking at the hand (bids, trump)
    stay inside this area. The estimate follows the table layout's own rule
    for the hand's card size, so it stays right at any window size.
    """
    width, height = max(1, size[0]), max(1, size[1])
    try:
        from game.ui.table.layout import compute_layout

        layout = compute_layout((width, height), 4, 0)
        scale_y = height / layout.height  # the table lays out small windows at 800x600 and scales
        top = (layout.hand_rect.top - round(layout.hand_card_h * 0.2) - 6) * scale_y
    except Exception:  # the table layout is another module's; never let it break a dialog
        card_h = max(58, min(176, min(width * 0.074, height * 0.128))) * 1.4
        top = height - card_h * 1.25 - max(8, height // 60)
    top = max(height * 0.45, top)
    margin = max(4, min(16, height // 60))
    return pygame.Rect(margin, margin, width - 2 * margin, max(1, round(top) - margin))
