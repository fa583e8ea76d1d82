"""Panels and strips drawn behind content: the rounded dialog panel with its
shadow and title band, the message bar for reasons and warnings, the scrim
that darkens the table, and translucent fills.

Panel images are cached per size and title (a ``BoundedCache``, the
interface's one cache policy), so a still dialog costs a blit.
"""

from __future__ import annotations

from collections.abc import Hashable

import pygame

from game.ui import theme
from game.ui.art.render_cache import BoundedCache
from game.ui.widgets.geometry import Colour, RectLike
from game.ui.widgets.shading import gradient, rounded
from game.ui.widgets.text import draw_text_fit, draw_text_wrapped

_PANEL_CACHE_LIMIT = 24
_panel_cache: BoundedCache[tuple[Hashable, ...], pygame.Surface] = BoundedCache(_PANEL_CACHE_LIMIT)


def panel_radius(rect: pygame.Rect) -> int:
    return max(6, min(theme.RADIUS + 4, min(rect.width, rect.height) // 8))


#: The tallest title band of a panel laid out at size factor 1 (at 1280x720 and 100%).
TITLE_BAND_MAX = 50
#: The band a low panel gets at size factor 1, so its title stays readable.
TITLE_BAND_MIN = 40


def title_height(rect: RectLike, factor: float = 1.0) -> int:
    """Height of the title band ``draw_panel`` reserves for a title in ``rect``, for a panel laid
    out at size factor ``factor`` (the window's factor times the UI scale)."""
    rect = pygame.Rect(rect)
    # Small dialogs (the menu, the trump chooser) still get a readable title. A tall panel's
    # band is capped, but the cap grows with the panel's own factor (never with the player's
    # choice alone), so a screen measuring its room at a factor sees the same band whatever
    # the choice, and a title grows with the panel around it.
    grown = max(1.0, factor)
    cap, least = round(TITLE_BAND_MAX * grown), round(TITLE_BAND_MIN * grown)
    return max(24, min(cap, max(least, round(rect.height * 0.11)), round(rect.width * 0.12)))


def _panel_image(width: int, height: int, title: str | None, title_size: int, factor: float) -> pygame.Surface:
    key = (width, height, title, title_size, factor)
    image = _panel_cache.get(key)
    if image is not None:
        return image
    shadow_pad = 6
    image = pygame.Surface((width + shadow_pad * 2, height + shadow_pad * 2), pygame.SRCALPHA)
    body_rect = pygame.Rect(shadow_pad, shadow_pad, width, height)
    radius = panel_radius(body_rect)
    for grow, alpha in ((6, 24), (4, 34), (2, 48)):
        pygame.draw.rect(
            image, (0, 0, 0, alpha), body_rect.inflate(grow, grow).move(0, 3), border_radius=radius + grow // 2
        )
    body = rounded(gradient((width, height), theme.PANEL_TOP, theme.PANEL_BOTTOM), radius)
    image.blit(body, body_rect)
    # A thin light line just inside the top edge reads as a bevel.
    pygame.draw.rect(image, theme.PANEL_EDGE, body_rect, width=1, border_radius=radius)
    if title:
        band = pygame.Rect(body_rect.left, body_rect.top, width, title_height(body_rect, factor))
        divider_y = band.bottom - 1
        pygame.draw.line(
            image, (*theme.PANEL_EDGE[:3], 110), (band.left + radius, divider_y), (band.right - radius, divider_y)
        )
        draw_text_fit(image, title, band.inflate(-2 * radius, -6), title_size, theme.PANEL_TITLE, bold=True)
    return _panel_cache.put(key, image)


def draw_panel(
    surface: pygame.Surface,
    rect: RectLike,
    title: str | None = None,
    title_size: int | None = None,
    factor: float = 1.0,
) -> pygame.Rect:
    """A rounded translucent panel with a soft shadow and optional title band, for a panel
    laid out at size factor ``factor`` (see ``title_height``).

    Returns the content rectangle (inside the padding, below the title).
    """
    rect = pygame.Rect(rect)
    if rect.width < 4 or rect.height < 4:
        return rect
    size = title_size or max(16, round(title_height(rect, factor) * 0.72))
    image = _panel_image(rect.width, rect.height, title, size, factor)
    surface.blit(image, (rect.left - 6, rect.top - 6))
    return panel_content(rect, title is not None, factor)


def panel_content(rect: RectLike, has_title: bool, factor: float = 1.0) -> pygame.Rect:
    """The content rectangle of a panel drawn at ``rect`` at size factor ``factor``."""
    rect = pygame.Rect(rect)
    pad = max(6, min(20, rect.width // 40, rect.height // 24))
    top = rect.top + (title_height(rect, factor) if has_title else 0) + pad
    return pygame.Rect(rect.left + pad, top, max(1, rect.width - 2 * pad), max(1, rect.bottom - pad - top))


def draw_suggestion_frame(surface: pygame.Surface, rect: RectLike, radius: int) -> None:
    """The gold frame round what a hint suggests (a card, a bid, a trump), clear of ``rect``'s own edge
    and distinct from the focus ring and from the red of a selected card."""
    pygame.draw.rect(surface, theme.ACCENT, pygame.Rect(rect).inflate(6, 6), width=4, border_radius=radius + 3)


_scrim_cache: dict[tuple[int, int], pygame.Surface] = {}


def draw_scrim(surface: pygame.Surface, colour: Colour = theme.SCRIM) -> None:
    """Darken everything drawn so far (the table under a modal dialog)."""
    size = surface.get_size()
    scrim = _scrim_cache.get(size)
    if scrim is None:
        _scrim_cache.clear()
        scrim = pygame.Surface(size, pygame.SRCALPHA)
        scrim.fill(colour)
        _scrim_cache[size] = scrim
    surface.blit(scrim, (0, 0))


_fill_cache: dict[tuple[Hashable, ...], pygame.Surface] = {}


def fill_translucent(surface: pygame.Surface, colour: Colour, rect: RectLike, radius: int = 0) -> None:
    """Fill ``rect`` with an RGBA colour, blended (``pygame.draw`` would ignore the alpha)."""
    rect = pygame.Rect(rect)
    if rect.width <= 0 or rect.height <= 0:
        return
    key = (rect.size, tuple(colour), radius)
    patch = _fill_cache.get(key)
    if patch is None:
        if len(_fill_cache) >= 64:
            _fill_cache.clear()
        patch = pygame.Surface(rect.size, pygame.SRCALPHA)
        pygame.draw.rect(patch, colour, patch.get_rect(), border_radius=radius)
        _fill_cache[key] = patch
    surface.blit(patch, rect)


def draw_message_bar(surface: pygame.Surface, text: str, rect: RectLike, size: int, warning: bool = False) -> None:
    """A rounded strip with one or two lines of text (a reason, a warning)."""
    rect = pygame.Rect(rect)
    if rect.width < 8 or rect.height < 8 or not text:
        return
    key = ("bar", rect.size, text, size, warning)
    image = _panel_cache.get(key)
    if image is None:
        image = pygame.Surface(rect.size, pygame.SRCALPHA)
        background = theme.WARNING_BG if warning else (10, 20, 16, 225)
        edge = theme.WARNING if warning else theme.PANEL_EDGE
        radius = min(rect.height // 2, 12)
        pygame.draw.rect(image, background, image.get_rect(), border_radius=radius)
        pygame.draw.rect(image, edge, image.get_rect(), width=1, border_radius=radius)
        inner = image.get_rect().inflate(-2 * max(8, radius), -4)
        draw_text_wrapped(
            image, text, inner, size, theme.WARNING if warning else theme.TEXT, align="center", valign="center"
        )
        _panel_cache.put(key, image)
    surface.blit(image, rect)
