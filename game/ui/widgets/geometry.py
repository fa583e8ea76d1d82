"""Rectangles for laying out dialogs: the window's size factor, equal columns
and rows, and the part of the table window a dialog may cover.

Every dialog lays itself out from the window size alone, so these are plain
functions of sizes and rectangles, plus the player's two display choices
(the ``ui_scale_percent`` and ``large_cards`` settings), which the app hands
to ``set_display_choices`` whenever the settings are loaded or saved.

The size factor is ``ui_scale``: the window's own factor (1.0 at 1280x720)
times the player's UI scale, but never more than the window has room for
(``scale_room``), so a layout made for the window still fits it. In a small
window a large UI scale is therefore cut back, at 800x600 all the way to the
window's own factor: there is no room to spare there. The card table has
more room around the trick, so it grows by the UI scale up to
``TABLE_SCALE_ROOM`` (``table_scale``), as far as its plates still fit.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

Colour = tuple[int, ...]
RectLike = pygame.Rect | tuple[int, int, int, int]


#: The largest size factor any layout is made for.
MAX_SCALE = 1.7
#: The smallest window (per unit of size factor) the screens and dialogs fit whole: they
#: fill a 16:9 window's height, so only a taller (or very large) window leaves room.
ROOM_PER_UNIT = (1066, 720)
#: How far the UI scale may grow the card table's plates, panels and type; the table's
#: layout cuts it back further wherever its plates would not fit (table.layout).
TABLE_SCALE_ROOM = 1.25
#: How much larger large-card mode draws the cards, before the layout's room caps it.
LARGE_CARD_FACTOR = 1.3


@dataclass
class DisplayChoices:
    """The player's display settings as layout factors: the UI scale and large cards."""

    scale: float = 1.0
    large_cards: bool = False


CHOICES = DisplayChoices()


def set_display_choices(ui_scale_percent: int, large_cards: bool) -> None:
    """Take the player's UI scale (in percent) and large-card choice; layouts use them from now on."""
    CHOICES.scale = max(1.0, ui_scale_percent / 100)
    CHOICES.large_cards = bool(large_cards)


def window_scale(size: tuple[int, int]) -> float:
    """The window's own size factor: 1.0 at 1280x720, smaller windows get smaller type."""
    width, height = size
    return max(0.75, min(MAX_SCALE, min(width / 1280, height / 720)))


def scale_room(size: tuple[int, int]) -> float:
    """The largest size factor whose layouts still fit a window of ``size``."""
    width, height = size
    return max(window_scale(size), min(MAX_SCALE, width / ROOM_PER_UNIT[0], height / ROOM_PER_UNIT[1]))


def table_scale() -> float:
    """The factor the card table grows its plates, panels and type by: the UI scale, within room."""
    return min(CHOICES.scale, TABLE_SCALE_ROOM)


def ui_scale(size: tuple[int, int]) -> float:
    """The size factor layouts use: the window's, times the player's UI scale, within the room."""
    return min(window_scale(size) * CHOICES.scale, scale_room(size))


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
