"""The render caches of the whole interface, and the one policy they share.

Rendering text and transforming images are the expensive things a card table
and its dialogs would otherwise do every frame, so their results are kept.
"""

from __future__ import annotations

# The policy, for every cache of rendered things in ``game.ui``: a cache is a
# ``BoundedCache``, a least-recently-used map with a fixed number of entries.
# Reading an entry makes it the most recently used; storing one more entry
# than the limit forgets the least recently used. A cache never grows without
# bound (a window being resized produces a stream of new sizes, a toast a
# stream of new texts) and never throws away what the current screen keeps
# using. Each cache names its limit next to where it is made, sized to hold
# what one busy screen needs.
#
# Text a font cannot take (NUL, half a surrogate pair, nothing but zero-width
# marks) is drawn without those characters: names are cleaned where they are
# read (``game.session.names``), and this is the last guard for any other text from a
# file, so no string ever stops a screen from drawing.

import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

import pygame

from game.ui import theme

Colour = tuple[int, ...]
K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class BoundedCache(Generic[K, V]):
    """A least-recently-used map holding at most ``limit`` entries (see the module's policy)."""

    def __init__(self, limit: int) -> None:
        if limit < 1:
            raise ValueError("a cache must hold at least one entry")
        self.limit = limit
        self._entries: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        """The entry for ``key`` (now the most recently used), or None."""
        value = self._entries.get(key)
        if value is not None:
            self._entries.move_to_end(key)
        return value

    def put(self, key: K, value: V) -> V:
        """Store ``value``; past the limit the least recently used entry is forgotten."""
        self._entries[key] = value
        self._entries.move_to_end(key)
        if len(self._entries) > self.limit:
            self._entries.popitem(last=False)
        return value

    def get_or_make(self, key: K, make: Callable[[], V]) -> V:
        """The entry for ``key``, made by ``make()`` and stored when missing."""
        value = self.get(key)
        if value is None:
            value = self.put(key, make())
        return value

    def __contains__(self, key: object) -> bool:
        return key in self._entries

    def __len__(self) -> int:
        return len(self._entries)

    def clear(self) -> None:
        self._entries.clear()


def _for_display(surface: pygame.Surface) -> pygame.Surface:
    """``surface`` in the window's pixel format, when there is a window (faster blits)."""
    if pygame.display.get_init() and pygame.display.get_surface() is not None:
        return surface.convert_alpha()
    return surface


R = TypeVar("R")


def _drawn(draw: Callable[[str], R], text: str) -> R:
    """``draw(text)``, or when the font refuses it, ``draw`` of its drawable characters
    (a blank when none are left)."""
    try:
        return draw(text)
    except (pygame.error, ValueError, UnicodeError):
        kept = "".join(char for char in text if unicodedata.category(char) not in ("Cc", "Cf", "Cs"))
        try:
            return draw(kept or " ")
        except (pygame.error, ValueError, UnicodeError):
            return draw(" ")


class TextCache:
    """Rendered text surfaces and measured text sizes, keyed by what decides them.

    Surfaces it returns are shared: treat them as read-only (an alpha change
    must be undone straight after the blit, as ``RotationCache.blit`` does).
    """

    # Enough for every line of the busiest screens (a six-player score pad, the
    # start screen) at two window sizes.
    SURFACE_LIMIT = 3000
    SIZE_LIMIT = 6000

    def __init__(self, surface_limit: int = SURFACE_LIMIT, size_limit: int = SIZE_LIMIT) -> None:
        self._surfaces: BoundedCache[tuple[Hashable, ...], pygame.Surface] = BoundedCache(surface_limit)
        self._sizes: BoundedCache[tuple[str, int, bool], tuple[int, int]] = BoundedCache(size_limit)

    def render(self, text: str, size: int, colour: Colour, bold: bool = False, shadow: bool = False) -> pygame.Surface:
        """``text`` anti-aliased at ``size``; ``shadow`` adds a soft dark copy
        under it that keeps it readable on the felt."""
        key = (text, int(size), tuple(colour), bold, shadow)
        surface = self._surfaces.get(key)
        if surface is None:
            font = theme.font(size, bold)
            face = _drawn(lambda drawable: font.render(drawable, True, colour), text)
            if shadow:
                base = _drawn(lambda drawable: font.render(drawable, True, (0, 0, 0)), text)
                base.set_alpha(150)
                out = pygame.Surface((face.get_width() + 2, face.get_height() + 2), pygame.SRCALPHA)
                out.blit(base, (2, 2))
                out.blit(face, (0, 0))
                face = out
            surface = self._surfaces.put(key, _for_display(face))
        return surface

    def size(self, text: str, size: int, bold: bool = False) -> tuple[int, int]:
        """Width and height ``text`` takes at ``size``."""
        key = (text, int(size), bold)
        measured = self._sizes.get(key)
        if measured is None:
            measured = self._sizes.put(key, _drawn(theme.font(size, bold).size, text))
        return measured

    def fit(
        self,
        text: str,
        size: int,
        colour: Colour,
        max_width: int,
        bold: bool = False,
        shadow: bool = False,
        smallest: int = 10,
    ) -> pygame.Surface:
        """Text rendered at ``size`` or smaller, down to ``smallest``, so it is at most
        ``max_width`` wide; still too wide at the smallest size, it is cut short with "..."."""
        key = ("fit", text, int(size), tuple(colour), max_width, bold, shadow, smallest)
        surface = self._surfaces.get(key)
        if surface is None:
            current = size
            surface = self.render(text, current, colour, bold, shadow)
            while surface.get_width() > max_width and current > smallest:
                current -= 1
                surface = self.render(text, current, colour, bold, shadow)
            if surface.get_width() > max_width:
                cut = text
                while len(cut) > 1 and surface.get_width() > max_width:
                    cut = cut[:-1]
                    surface = self.render(cut + "...", current, colour, bold, shadow)
            self._surfaces.put(key, surface)
        return surface

    def clear(self) -> None:
        self._surfaces.clear()
        self._sizes.clear()


# ``TEXT`` is the one text cache: every piece of text the interface draws (the
# table's plates and panels, the dialogs' widgets, the hot-seat cover) is
# rendered and measured through it. ``RotationCache`` keeps rotated, squeezed
# and faded copies of card images, keyed by the source image and an angle
# rounded to a step, so a card in flight costs one blit per frame.
# The interface's one text cache.
TEXT = TextCache()


class RotationCache:
    """Transformed copies of images: rotated, squeezed (a card turning over) and faded."""

    # A full table in motion: every card face at two sizes, a few angles each.
    LIMIT = 900

    def __init__(self, limit: int = LIMIT, step: float = 2.0) -> None:
        # Each entry keeps its source image alive with the copy, so the source's
        # id() in the key cannot be reused by another image while the entry exists.
        self._cache: BoundedCache[tuple[Hashable, ...], tuple[pygame.Surface, pygame.Surface]] = BoundedCache(limit)
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
        cached = self._cache.get(key)
        if cached is not None:
            return cached[1]
        result = image
        if scale_q < 1.0:
            width = max(1, round(image.get_width() * scale_q))
            result = pygame.transform.smoothscale(result, (width, image.get_height()))
        if angle_q:
            result = pygame.transform.rotozoom(result, angle_q, 1.0)
        if alpha_q < 255:
            result = result.copy()
            result.set_alpha(alpha_q)
        self._cache.put(key, (image, result))
        return result

    def blit(
        self,
        target: pygame.Surface,
        image: pygame.Surface,
        centre: tuple[int, int],
        angle: float = 0.0,
        scale_x: float = 1.0,
        alpha: int = 255,
    ) -> pygame.Rect:
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

    def clear(self) -> None:
        self._cache.clear()
