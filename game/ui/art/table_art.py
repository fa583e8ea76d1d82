"""Procedural table art: the felt background and the application icon.

The felt is a radial gradient (lighter under the lamp in the middle, darker at
the rim) with a faint, fixed grain so large areas do not look flat. It is built
from tiny surfaces that are smooth-scaled up, so even a full-HD window costs a
few milliseconds, and the result is cached per felt and window size.
"""

from __future__ import annotations

# Three felts can be chosen in Settings (``FELT_LOOKS``, by the names of
# ``game.settings.app_settings.FELTS``): the classic green baize, a blue twill (fine diagonal
# ribs) and a red woven cloth (a fine square weave). ``set_felt`` picks the one
# every screen draws, as ``set_language`` picks the words. A cloth's texture
# only darkens the gradient under it (apart from the shared faint grain), so a
# felt's centre is its lightest colour: the text-contrast test holds white text
# to WCAG AA over every felt's centre and edge.
#
# The icon is a fan of three cards (spade, heart, spade) on a rounded felt
# square, drawn with the same suit shapes as the cards in ``card_art``.

import math
import random
from dataclasses import dataclass

import pygame

from game.settings.app_settings import FELTS
from game.ui.art.card_art import INK_BLACK, INK_RED, PAPER, draw_suit, mix
from game.ui.art.render_cache import BoundedCache

Colour = tuple[int, int, int]

# The classic green baize (the icon's too).
FELT_CENTRE = (46, 128, 74)
FELT_EDGE = (14, 64, 36)


@dataclass(frozen=True)
class FeltLook:
    """One felt: its colour under the lamp (the lightest), at the rim, and its cloth."""

    centre: Colour
    edge: Colour
    cloth: str  # "baize" (grain only), "twill" (diagonal ribs) or "weave" (a square weave)


FELT_LOOKS: dict[str, FeltLook] = {
    "green": FeltLook(FELT_CENTRE, FELT_EDGE, "baize"),
    "blue": FeltLook((36, 94, 150), (10, 30, 66), "twill"),
    "red": FeltLook((142, 38, 54), (52, 12, 22), "weave"),
}
# The threads of a cloth: black at this opacity, so a texture only ever darkens.
THREAD_ALPHA = 22
# Pixels from one thread (or rib) to the next.
THREAD_PITCH = 4

# Window resizes produce a stream of sizes; only the latest few are worth keeping.
_FELT_CACHE_LIMIT = 4
_felt_cache: BoundedCache[tuple[str, tuple[int, int]], pygame.Surface] = BoundedCache(_FELT_CACHE_LIMIT)
_grain_tile: pygame.Surface | None = None
_cloth_tiles: dict[str, pygame.Surface] = {}
_chosen_felt = FELTS[0]


def set_felt(name: str) -> None:
    """Draw every felt from now on as ``name`` (one of ``FELT_LOOKS``; an unknown name: the classic)."""
    global _chosen_felt
    _chosen_felt = name if name in FELT_LOOKS else FELTS[0]


def chosen_felt() -> str:
    """The name of the felt every screen draws."""
    return _chosen_felt


def draw_felt(surface_size: tuple[int, int], name: str | None = None) -> pygame.Surface:
    """A felt background of ``surface_size``, the chosen felt or ``name``; cached, so treat it as read-only."""
    size = (max(1, int(surface_size[0])), max(1, int(surface_size[1])))
    look = name if name in FELT_LOOKS else _chosen_felt
    return _felt_cache.get_or_make((look, size), lambda: _render_felt(size, FELT_LOOKS[look]))


def felt_swatch(size: tuple[int, int], name: str) -> pygame.Surface:
    """A small piece of felt ``name`` with rounded corners (the settings' preview); not cached."""
    size = (max(1, int(size[0])), max(1, int(size[1])))
    swatch = pygame.Surface(size, pygame.SRCALPHA)
    swatch.blit(_render_felt(size, FELT_LOOKS[name]), (0, 0))
    mask = pygame.Surface(size, pygame.SRCALPHA)
    pygame.draw.rect(mask, (255, 255, 255, 255), mask.get_rect(), border_radius=max(2, size[1] // 5))
    swatch.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
    pygame.draw.rect(swatch, (255, 255, 255, 120), swatch.get_rect(), width=1, border_radius=max(2, size[1] // 5))
    return swatch


def _render_felt(size: tuple[int, int], look: FeltLook, grain: bool = True) -> pygame.Surface:
    """The felt ``look`` at ``size``; ``grain`` False leaves out the faint grain (a test
    checks the cloth alone never lightens the gradient)."""
    felt = pygame.transform.smoothscale(_vignette(look.centre, look.edge), size)
    cloth = _cloth(look.cloth)
    if cloth is not None:
        _tile(felt, cloth)
    if grain:
        _tile(felt, _grain())
    if pygame.display.get_init() and pygame.display.get_surface() is not None:
        felt = felt.convert()
    return felt


def _vignette(
    centre_colour: Colour = FELT_CENTRE, edge_colour: Colour = FELT_EDGE, resolution: int = 48
) -> pygame.Surface:
    """A small radial gradient; smooth-scaling it up yields a soft vignette."""
    small = pygame.Surface((resolution, resolution))
    centre = (resolution - 1) / 2
    for y in range(resolution):
        for x in range(resolution):
            # Elliptical distance so the vignette follows the window's shape.
            distance = math.hypot((x - centre) / centre, (y - centre) / centre) / math.sqrt(2)
            small.set_at((x, y), mix(centre_colour, edge_colour, min(1.0, distance**1.7 * 1.25)))
    return small


def _cloth(kind: str) -> pygame.Surface | None:
    """The tile of a cloth's threads (made once), or None for plain baize."""
    if kind == "baize":
        return None
    tile = _cloth_tiles.get(kind)
    if tile is None:
        tile = _cloth_tiles[kind] = _draw_cloth(kind)
    return tile


def _draw_cloth(kind: str, side: int = 64) -> pygame.Surface:
    """Dark threads on a clear tile: twill's diagonal ribs, or a weave's threads
    crossing over and under each other."""
    tile = pygame.Surface((side, side), pygame.SRCALPHA)
    thread = (0, 0, 0, THREAD_ALPHA)
    if kind == "twill":
        # Ribs running up to the right, one pixel wide; the tile's side is a multiple of
        # the pitch, so they meet across the tile's edges.
        for start in range(-side, side, THREAD_PITCH):
            pygame.draw.line(tile, thread, (start, side - 1), (start + side - 1, 0))
        return tile
    if kind == "weave":
        # Short dashes that alternate direction from cell to cell, like threads passing
        # over and under: a basket weave.
        for top in range(0, side, THREAD_PITCH):
            for left in range(0, side, THREAD_PITCH):
                if (top // THREAD_PITCH + left // THREAD_PITCH) % 2:
                    pygame.draw.line(tile, thread, (left, top), (left + THREAD_PITCH - 2, top))
                else:
                    pygame.draw.line(tile, thread, (left, top), (left, top + THREAD_PITCH - 2))
        return tile
    raise ValueError(f"no cloth named {kind!r}")


def _grain() -> pygame.Surface:
    """A seeded noise tile, made once, so the felt has a cloth-like texture."""
    global _grain_tile
    if _grain_tile is None:
        # Built from bytes, not pixel by pixel: the felt is on the first frame
        # of the start screen, and 16384 set_at calls cost ~30 ms of start-up.
        pixels = 128 * 128
        noise = random.Random(7).randbytes(2 * pixels)
        shades = noise[:pixels].translate(bytes(255 * (b & 1) for b in range(256)))  # black or white
        alphas = noise[pixels:].translate(bytes(b % 11 for b in range(256)))  # faint: 0..10
        rgba = bytearray(4 * pixels)
        rgba[0::4] = rgba[1::4] = rgba[2::4] = shades
        rgba[3::4] = alphas
        _grain_tile = pygame.image.frombytes(bytes(rgba), (128, 128), "BGRA")  # native order: fast blits
    return _grain_tile


def _tile(felt: pygame.Surface, tile: pygame.Surface) -> None:
    width, height = felt.get_size()
    for y in range(0, height, tile.get_height()):
        for x in range(0, width, tile.get_width()):
            felt.blit(tile, (x, y))


def make_app_icon(size: int = 256) -> pygame.Surface:
    """The application icon: three fanned cards on a rounded felt square."""
    scale = 2  # draw at double size, then smooth-scale, for clean edges
    big = size * scale
    icon = pygame.Surface((big, big), pygame.SRCALPHA)
    radius = round(big * 0.2)
    _draw_icon_tile(icon, radius)
    _draw_icon_fan(icon)
    icon = pygame.transform.smoothscale(icon, (size, size))
    if pygame.display.get_init() and pygame.display.get_surface() is not None:
        icon = icon.convert_alpha()
    return icon


def _draw_icon_tile(icon: pygame.Surface, radius: int) -> None:
    big = icon.get_width()
    felt = pygame.Surface((big, big), pygame.SRCALPHA)
    felt.blit(pygame.transform.smoothscale(_vignette(resolution=24), (big, big)), (0, 0))
    mask = pygame.Surface((big, big), pygame.SRCALPHA)
    pygame.draw.rect(mask, (255, 255, 255, 255), mask.get_rect(), border_radius=radius)
    felt.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
    icon.blit(felt, (0, 0))
    rim = max(2, big // 64)
    pygame.draw.rect(icon, (214, 176, 84), icon.get_rect(), width=rim, border_radius=radius)


def _draw_icon_fan(icon: pygame.Surface) -> None:
    """Three plain cards rotated around a shared pivot below them, like a held hand."""
    big = icon.get_width()
    card_w = round(big * 0.34)
    card_h = round(card_w * 1.4)
    pivot = pygame.math.Vector2(big * 0.5, big * 1.02)
    reach = big * 0.46  # pivot-to-card-centre distance; larger spreads the fan wider
    fan = ((22, "S", INK_BLACK, False), (0, "H", INK_RED, False), (-22, "S", INK_BLACK, True))
    for angle, suit, colour, on_top in fan:
        card = _icon_card(card_w, card_h, suit, colour, centred=on_top)
        rotated = pygame.transform.rotozoom(card, angle, 1.0)
        # rotozoom turns counter-clockwise on screen; Vector2.rotate is clockwise in y-down space.
        centre = pivot + pygame.math.Vector2(0, -reach).rotate(-angle)
        icon.blit(rotated, rotated.get_rect(center=(round(centre.x), round(centre.y - big * 0.1))))


def _icon_card(width: int, height: int, suit: str, colour: tuple[int, int, int], centred: bool) -> pygame.Surface:
    """One icon card; cards lower in the fan put their suit up-left where it stays visible."""
    card = pygame.Surface((width + 8, height + 8), pygame.SRCALPHA)
    radius = round(width * 0.1)
    shadow = pygame.Rect(6, 8, width, height)
    pygame.draw.rect(card, (0, 0, 0, 70), shadow, border_radius=radius)
    face = pygame.Rect(2, 2, width, height)
    pygame.draw.rect(card, PAPER, face, border_radius=radius)
    pygame.draw.rect(card, mix(PAPER, INK_BLACK, 0.35), face, width=max(1, width // 60), border_radius=radius)
    if centred:
        draw_suit(card, suit, face.center, width * 0.62, colour)
    else:
        draw_suit(card, suit, (face.left + width * 0.3, face.top + height * 0.24), width * 0.4, colour)
    return card
