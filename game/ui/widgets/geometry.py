"""Rectangles for laying out dialogs: the window's size factor, equal columns
and rows, and the part of the table window a dialog may cover.
"""

from __future__ import annotations

# Every dialog lays itself out from the window size alone, so these are plain
# functions of sizes and rectangles, plus the player's two display choices
# (the ``ui_scale_percent`` and ``large_cards`` settings), which the app hands
# to ``set_display_choices`` whenever the settings are loaded or saved.
#
# The size factor is ``ui_scale``: the window's own factor (1.0 at 1280x720)
# times the player's UI scale, but never more than the room the screen's own
# composition has in the window, so a grown layout still fits. What that room
# is depends on the screen, so each screen measures its own:
#
# * a dialog of fixed composition (the leave dialog, the bidding panel, the
#   game over, the table's last-trick view, the hot-seat cover...) grows until
#   its panel at that factor would no longer fit the area it may cover
#   (``composition_room``); a screen that fills the window (the start screen,
#   the statistics, the replay viewer) until its own layout, laid out at that
#   factor, would have to shrink or cut what it shows (``measured_room``):
#   where that is less than the player's choice it grows as far as it fits;
# * a screen whose content is a list of rows (settings, the rules editor, the
#   rules help, the table's hand log) scrolls, so only its width and a few rows
#   in view limit it (``width_room``, ``composition_room``);
# * a screen that passes no room of its own gets the generic rule
#   (``scale_room``): it is assumed to fill a 16:9 window's height, so in a 16:9
#   window it does not grow. Every screen of the game now measures its own room.
#
# The room never cuts the factor below the window's own, so at 100% every
# screen is laid out exactly as it was before the setting existed. The card
# table grows by the UI scale as far as its own layout's fit check allows
# (``table.layout.compute_layout``).

from collections.abc import Callable
from dataclasses import dataclass

import pygame

from game.settings.app_settings import MAX_UI_SCALE

Colour = tuple[int, ...]
RectLike = pygame.Rect | tuple[int, int, int, int]


#: The largest size factor any layout is made for.
MAX_SCALE = 1.7
#: The generic room rule, for a screen that measures no room of its own: the smallest window
#: (per unit of size factor) it is assumed to fit whole. Such a screen fills a 16:9 window's
#: height, so only a taller window leaves room.
ROOM_PER_UNIT = (1066, 720)
#: The largest UI scale a player can choose, as a factor.
MAX_CHOICE = MAX_UI_SCALE / 100
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


def ui_scale(size: tuple[int, int], room: float | None = None) -> float:
    """The size factor layouts use: the window's, times the player's UI scale, within ``room``.

    ``room`` is the largest factor at which the screen's own layout still fits the
    window (see the module docstring); without one the generic ``scale_room`` applies.
    It never cuts the factor below the window's own, so 100% lays out as it always did.
    """
    own = window_scale(size)
    limit = scale_room(size) if room is None else room
    return min(own * CHOICES.scale, max(own, limit))


def ui_growth(room: float) -> float:
    """How much the UI scale grows a composition that could grow ``room`` times its usual size
    (its size at 100%) before it no longer fits: the player's choice, as far as that room allows."""
    return min(CHOICES.scale, max(1.0, room))


#: How often ``measured_room`` halves its interval: to within 1/256 of it.
ROOM_SEARCH_STEPS = 8


def measured_room(size: tuple[int, int], fits: Callable[[float], bool]) -> float:
    """The largest factor, up to the player's choice, at which ``fits`` says a screen's own
    layout still holds its content, for screens that fill the window and measure by laying
    themselves out (``fits(factor)``). The window's own factor is the floor. The search
    halves the same interval whatever the choice, up to the largest UI scale's factor, so a
    larger choice never gets less room; the screen lays itself out again afterwards.
    """
    own = window_scale(size)
    wanted = own * CHOICES.scale
    if wanted <= own:
        return own
    if fits(wanted):
        return wanted
    low, high = own, own * MAX_CHOICE
    for _ in range(ROOM_SEARCH_STEPS):
        middle = (low + high) / 2
        if fits(middle):
            low = middle
        else:
            high = middle
    return low


def composition_room(area: tuple[int, int], base: tuple[int, int]) -> float:
    """The largest factor at which a panel of ``base`` size (at factor 1) fits ``area``.

    For dialogs whose panel is their base width and height times the factor, the
    composition stays whole up to this factor; beyond it the panel would be cut
    back to the area and its rows squeezed.
    """
    return min(area[0] / max(1, base[0]), area[1] / max(1, base[1]))


def width_room(size: tuple[int, int], base_width: int, margin: int = 8) -> float:
    """The largest factor at which a scrolling screen ``base_width`` wide (at factor 1)
    still fits the window across; its height does not limit it, since it scrolls."""
    return (size[0] - 2 * margin) / max(1, base_width)


def split_columns(rect: RectLike, count: int, gap: int) -> list[pygame.Rect]:
    """``count`` equal columns across ``rect`` separated by ``gap``."""
    rect = pygame.Rect(rect)
    if count <= 0:
        return []
    width = (rect.width - gap * (count - 1)) / count
    return [
        pygame.Rect(round(rect.left + i * (width + gap)), rect.top, max(1, round(width)), rect.height)
        for i in range(count)
    ]


def split_rows(rect: RectLike, count: int, gap: int) -> list[pygame.Rect]:
    """``count`` equal rows down ``rect`` separated by ``gap``."""
    rect = pygame.Rect(rect)
    if count <= 0:
        return []
    height = (rect.height - gap * (count - 1)) / count
    return [
        pygame.Rect(rect.left, round(rect.top + i * (height + gap)), rect.width, max(1, round(height)))
        for i in range(count)
    ]


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
