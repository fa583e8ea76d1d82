"""A short message that fades out: the reason a click was refused."""

from __future__ import annotations

import pygame

from game.ui.widgets.geometry import RectLike
from game.ui.widgets.panels import draw_message_bar

FADE_SECONDS = 0.5  # the last half second the message fades out


class Toast:
    """A short message that fades out after a few seconds (a refused click's reason)."""

    def __init__(self) -> None:
        self.text = ""
        self.remaining = 0.0
        self.warning = False

    def show(self, text: str, seconds: float = 3.0, warning: bool = True) -> None:
        self.text = text
        self.remaining = seconds
        self.warning = warning

    @property
    def active(self) -> bool:
        return self.remaining > 0 and bool(self.text)

    def update(self, dt: float) -> None:
        self.remaining = max(0.0, self.remaining - dt)

    def wake_in(self) -> float | None:
        """Seconds until the message needs frames: its fade (0 while fading), None once gone."""
        if not self.active:
            return None
        return max(0.0, self.remaining - FADE_SECONDS)

    def draw(self, surface: pygame.Surface, rect: RectLike, size: int = 20) -> None:
        """Draw in ``rect`` (typically a strip under a panel), fading in the last half second."""
        if not self.active:
            return
        rect = pygame.Rect(rect)
        if self.remaining >= FADE_SECONDS:
            draw_message_bar(surface, self.text, rect, size, self.warning)
            return
        layer = pygame.Surface(rect.size, pygame.SRCALPHA)
        draw_message_bar(layer, self.text, layer.get_rect(), size, self.warning)
        layer.set_alpha(round(255 * self.remaining / FADE_SECONDS))
        surface.blit(layer, rect)
