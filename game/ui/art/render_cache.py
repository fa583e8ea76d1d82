"""Small caches that keep the table's frame time low.

Rendering text and rotating images are the two expensive things a card
table does every frame if nobody stops it. ``TextCache`` keeps rendered text
surfaces keyed by (text, size, bold, colour), so unchanged text is never
rendered twice; ``RotationCache`` keeps rotated (and faded) copies of card
images keyed by the source image and an angle rounded to a step, so a card
in flight costs one blit per frame. Both forget their oldest entries past a
size limit.
"""

from __future__ import annotations

from collections import OrderedDict

import pygame

from game.ui import theme

Colour = tuple[int, int, int]


class _Lru(OrderedDict):
    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit

    def remember(self, key, value):
        self[key] = value
        if len(self) > self.limit:
            self.popitem(last=False)
        return value

    def recall(self, key):
        value = self.get(key)
        if value is not None:
            self.move_to_end(key)
        return value


class TextCache:
    def __init__(self, limit: int = 600) -> None:
        self._cache = _Lru(limit)

    def render(self, text: str, size: int, colour: Colour, bold: bool = False,
               shadow: bool = False) -> pygame.Surface:
        key = (text, size, colour, bold, shadow)
        surface = self._cache.recall(key)
        if surface is None:
            font = theme.font(size, bold)
            face = font.render(text, True, colour)
            if shadow:
                # A soft dark copy under the text keeps it readable on the felt.
                base = font.render(text, True, (0, 0, 0))
                base.set_alpha(150)
                out = pygame.Surface((face.get_width() + 2, face.get_height() + 2), pygame.SRCALPHA)
                out.blit(base, (2, 2))
                out.blit(face, (0, 0))
                face = out
            surface = self._cache.remember(key, _convert(face))
        return surface

    def fit(self, text: str, size: int, colour: Colour, max_width: int, bold: bool = False,
            shadow: bool = False) -> pygame.Surface:
        """Text rendered at ``size`` or smaller so it is at most ``max_width`` wide."""
        key = ("fit", text, size, colour, max_width, bold, shadow)
        surface = self._cache.recall(key)
        if surface is None:
            current = size
            surface = self.render(text, current, colour, bold, shadow)
            while surface.get_width() > max_width and current > 10:
                current -= 1
                surface = self.render(text, current, colour, bold, shadow)
            if surface.get_width() > max_width:
                # Still too wide at the smallest size: cut it with an ellipsis.
                cut = text
                while len(cut) > 1 and surface.get_width() > max_width:
                    cut = cut[:-1]
                    surface = self.render(cut + "...", current, colour, bold, shadow)
            self._cache.remember(key, surface)
        return surface


class RotationCache:
    def __init__(self, limit: int = 900, step: float = 2.0) -> None:
        self._cache = _Lru(limit)
        self.step = step

    def get(self, image: pygame.Surface, angle: float, scale_x: float = 1.0, alpha: int = 255) -> pygame.Surface:
        """``image`` rotated by ``angle`` degrees, squeezed to ``scale_x`` of its width, at ``alpha``.

        Prefer ``blit`` for fading images: it applies the alpha at blit time
        instead of caching a copy per alpha level.
        """
        angle_q = round(angle / self.step) * self.step % 360
        scale_q = round(scale_x * 12) / 12
        alpha_q = 255 if alpha >= 250 else round(alpha / 16) * 16
        if angle_q == 0 and scale_q >= 1.0 and alpha_q == 255:
            return image
        key = (id(image), angle_q, scale_q, alpha_q)
        cached = self._cache.recall(key)
        if cached is not None:
            return cached
        result = image
        if scale_q < 1.0:
            width = max(1, round(image.get_width() * scale_q))
            result = pygame.transform.smoothscale(result, (width, image.get_height()))
        if angle_q:
            result = pygame.transform.rotozoom(result, angle_q, 1.0)
        if alpha_q < 255:
            result = result.copy()
            result.set_alpha(alpha_q)
        # Keep the source alive with the entry so its id() cannot be reused.
        self._cache.remember(key, result)
        self._keep_alive(key, image)
        return result

    def blit(self, target: pygame.Surface, image: pygame.Surface, centre: tuple[int, int], angle: float = 0.0,
             scale_x: float = 1.0, alpha: int = 255) -> pygame.Rect:
        """Blit ``image`` transformed and centred at ``centre``; the alpha costs no cache entry."""
        shown = self.get(image, angle, scale_x)
        rect = shown.get_rect(center=centre)
        if alpha >= 250:
            target.blit(shown, rect)
        else:
            # Set and restore the surface alpha around the blit: the cached image
            # stays untouched. (Restoring with set_alpha(None) would also switch
            # off blending for a per-pixel-alpha image, so its next full-alpha
            # blit would paint an opaque box.)
            previous = shown.get_alpha()
            shown.set_alpha(max(0, alpha))
            target.blit(shown, rect)
            shown.set_alpha(previous)
        return rect

    def _keep_alive(self, key, image) -> None:
        self._cache.remember(("src",) + key, image)

    def clear(self) -> None:
        self._cache.clear()


def _convert(surface: pygame.Surface) -> pygame.Surface:
    if pygame.display.get_init() and pygame.display.get_surface() is not None:
        return surface.convert_alpha()
    return surface
