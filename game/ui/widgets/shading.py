"""Pixel helpers shared by panels and buttons: gradients, round corners, tints."""

from __future__ import annotations

import pygame

from game.ui.widgets.geometry import Colour


def gradient(size: tuple[int, int], top: Colour, bottom: Colour) -> pygame.Surface:
    """A vertical gradient from ``top`` to ``bottom`` filling ``size``."""
    strip = pygame.Surface((1, 2), pygame.SRCALPHA)
    strip.set_at((0, 0), top)
    strip.set_at((0, 1), bottom)
    return pygame.transform.smoothscale(strip, (max(1, size[0]), max(1, size[1])))


def rounded(image: pygame.Surface, radius: int) -> pygame.Surface:
    """``image`` with its corners cut round (alpha multiplied by a rounded mask)."""
    mask = pygame.Surface(image.get_size(), pygame.SRCALPHA)
    pygame.draw.rect(mask, (255, 255, 255, 255), mask.get_rect(), border_radius=radius)
    image.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
    return image


def lighten(colour: Colour, amount: float) -> tuple[int, int, int]:
    """``colour`` moved ``amount`` (0..1) of the way to white."""
    return tuple(min(255, round(c + (255 - c) * amount)) for c in colour[:3])  # type: ignore[return-value]  # tuple() of a generator is typed tuple[int, ...]; [:3] gives three channels


def darken(colour: Colour, amount: float) -> tuple[int, int, int]:
    """``colour`` moved ``amount`` (0..1) of the way to black."""
    return tuple(max(0, round(c * (1 - amount))) for c in colour[:3])  # type: ignore[return-value]  # tuple() of a generator is typed tuple[int, ...]; [:3] gives three channels
