"""Colours, fonts and sizes shared by every screen, so the look is set in one place.

Fonts are pygame's bundled default font (always available, also in the
frozen build), cached per size.
"""

from __future__ import annotations

import pygame

TEXT = (240, 240, 232)
TEXT_DIM = (170, 180, 170)
TEXT_DARK = (30, 30, 30)
ACCENT = (242, 193, 78)          # gold: whose turn, highlights
PANEL = (22, 42, 34, 235)        # dialog background (with alpha)
PANEL_EDGE = (120, 160, 130)
BUTTON = (52, 96, 74)
BUTTON_HOVER = (70, 126, 96)
BUTTON_PRESSED = (40, 74, 58)
BUTTON_DISABLED = (60, 66, 62)
BUTTON_TEXT_DISABLED = (130, 134, 130)
DANGER = (220, 90, 80)
TEAM_COLOURS = ((120, 190, 255), (255, 160, 110))

_fonts: dict[tuple[int, bool], pygame.font.Font] = {}


def font(size: int, bold: bool = False) -> pygame.font.Font:
    """The UI font at ``size`` pixels (cached)."""
    size = max(8, int(size))
    key = (size, bold)
    cached = _fonts.get(key)
    if cached is None:
        if not pygame.font.get_init():
            pygame.font.init()
        cached = pygame.font.Font(None, size)
        cached.set_bold(bold)
        _fonts[key] = cached
    return cached


# --------------------------------------------------------------------------
# Added for the panels, dialogs and widgets (the game/ui/widgets package and friends).
# Never rename these: the table scenes import them too.

PANEL_TOP = (30, 58, 46, 236)      # panel gradient, top edge (RGBA)
PANEL_BOTTOM = (16, 32, 26, 242)   # panel gradient, bottom edge (RGBA)
PANEL_SHADOW = (0, 0, 0, 90)
PANEL_TITLE = (250, 232, 180)
SCRIM = (0, 0, 0, 96)              # darkens the table under a modal dialog

BUTTON_EDGE = (140, 190, 156)
BUTTON_PRIMARY = (196, 140, 36)
BUTTON_PRIMARY_HOVER = (222, 166, 52)
BUTTON_PRIMARY_PRESSED = (160, 112, 26)
BUTTON_DANGER = (150, 52, 46)
BUTTON_DANGER_HOVER = (178, 66, 58)
BUTTON_DANGER_PRESSED = (120, 40, 36)
BUTTON_SELECTED = (40, 110, 160)   # a chosen toggle or card-selection state
FOCUS_RING = (255, 224, 120)
INPUT_BG = (12, 24, 20)
INPUT_EDGE = (110, 150, 124)
ROW_ALT = (255, 255, 255, 14)      # zebra stripe in tables
ROW_HIGHLIGHT = (242, 193, 78, 40)
GOOD = (130, 210, 140)
BAD = (236, 120, 108)
WARNING = (250, 200, 110)
WARNING_BG = (70, 40, 20, 230)

# Spacing scale, multiplied by a per-layout unit so small windows stay tidy.
GAP = 8
RADIUS = 12
