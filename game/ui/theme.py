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
