"""Text that fits its box: shrink-to-fit and wrapping, over the one text cache."""

from __future__ import annotations

# A dialog is redrawn every frame over the animated table, so rendered text and
# measured sizes come from the interface's one text cache
# (``game.ui.art.render_cache.TEXT``, whose policy is documented there). Text
# never overflows: ``draw_text_fit`` shrinks the font down to a minimum size,
# then gives up bold, and only then shortens the text with an ellipsis;
# ``draw_text_wrapped`` shrinks until the wrapped lines fit the height.

import re

import pygame

from game.ui import theme
from game.ui.art.render_cache import TEXT
from game.ui.widgets.geometry import Colour, RectLike

MIN_TEXT_SIZE = 12


def render_text(text: str, size: int, colour: Colour = theme.TEXT, bold: bool = False) -> pygame.Surface:
    """``text`` rendered anti-aliased at ``size``; cached, so treat it as read-only."""
    return TEXT.render(text, size, colour, bold)


def text_size(text: str, size: int, bold: bool = False) -> tuple[int, int]:
    """Width and height ``text`` takes at ``size`` (cached)."""
    return TEXT.size(text, size, bold)


def fit_size(
    text: str, max_width: int, max_height: int, size: int, bold: bool = False, min_size: int = MIN_TEXT_SIZE
) -> int:
    """The largest font size up to ``size`` at which ``text`` fits the box, or ``min_size``."""
    size = max(min_size, int(size))
    while size > min_size:
        width, height = text_size(text, size, bold)
        if width <= max_width and height * 0.72 <= max_height:
            break
        # Shrink in proportion first, then step by one for the exact fit.
        ratio = max_width / max(1, width)
        size = max(min_size, min(size - 1, int(size * ratio) if ratio < 0.9 else size - 1))
    return size


def ellipsize(text: str, max_width: int, size: int, bold: bool = False) -> str:
    """``text`` shortened with an ellipsis so it is at most ``max_width`` wide."""
    if text_size(text, size, bold)[0] <= max_width:
        return text
    low, high = 0, len(text)
    while low < high:
        middle = (low + high + 1) // 2
        if text_size(text[:middle].rstrip() + "…", size, bold)[0] <= max_width:
            low = middle
        else:
            high = middle - 1
    return text[:low].rstrip() + "…" if low else "…"


def _aligned(image: pygame.Surface, rect: pygame.Rect, align: str) -> pygame.Rect:
    placed = image.get_rect()
    placed.centery = rect.centery
    if align == "left":
        placed.left = rect.left
    elif align == "right":
        placed.right = rect.right
    else:
        placed.centerx = rect.centerx
    return placed


def draw_text_fit(
    surface: pygame.Surface,
    text: str,
    rect: RectLike,
    size: int,
    colour: Colour = theme.TEXT,
    align: str = "center",
    bold: bool = False,
    min_size: int = MIN_TEXT_SIZE,
) -> pygame.Rect:
    """Draw one line of ``text`` inside ``rect``: shrunk to fit, then ellipsized.

    ``align`` is ``"left"``, ``"center"`` or ``"right"``; the text is centred
    vertically. Returns the rectangle the text took.
    """
    rect = pygame.Rect(rect)
    if rect.width <= 0 or rect.height <= 0 or not text:
        return pygame.Rect(rect.topleft, (0, 0))
    fitted = fit_size(text, rect.width, rect.height, size, bold, min_size)
    if bold and text_size(text, fitted, True)[0] > rect.width >= text_size(text, fitted, False)[0]:
        bold = False  # the whole text in the regular face reads better than a cut bold one
    shown = ellipsize(text, rect.width, fitted, bold)
    image = render_text(shown, fitted, colour, bold)
    return _blit_inside(surface, image, _aligned(image, rect, align), rect)


def _blit_inside(surface: pygame.Surface, image: pygame.Surface, placed: pygame.Rect, box: pygame.Rect) -> pygame.Rect:
    """Blit ``image`` at ``placed`` but only inside ``box``; returns the part drawn.

    A font's line box is taller than its letters (room for accents above
    capitals), so in a box shorter than the line only the empty margins are
    trimmed, never the text beside the box.
    """
    visible = placed.clip(box)
    if visible.width and visible.height:
        surface.blit(image, visible.topleft, visible.move(-placed.left, -placed.top))
    return visible


#: Where a line may break: ordinary spaces and tabs (not the no-break space).
BREAKS = re.compile(r"[ \t\r]+")


def wrap_text(text: str, width: int, size: int, bold: bool = False) -> list[str]:
    """``text`` broken into lines no wider than ``width`` (newlines are kept).

    Lines break only at ordinary spaces: a no-break space (U+00A0) holds the
    words on either side together, so a catalogue can keep "Page Up/Down:
    trick" on one line. A single word wider than the line is ellipsized
    rather than overflowing.
    """
    lines: list[str] = []
    for paragraph in text.split("\n"):
        words = [word for word in BREAKS.split(paragraph) if word]
        if not words:
            lines.append("")
            continue
        line = words[0]
        for word in words[1:]:
            candidate = f"{line} {word}"
            if text_size(candidate, size, bold)[0] <= width:
                line = candidate
            else:
                lines.append(line)
                line = word
        lines.append(line)
    return [ellipsize(line, width, size, bold) for line in lines]


def line_height(size: int, bold: bool = False) -> int:
    """The step from one wrapped line to the next at ``size`` (the theme's line spacing)."""
    return theme.line_step(size, bold)


def fit_wrapped(
    text: str, width: int, height: int, size: int, bold: bool = False, min_size: int = MIN_TEXT_SIZE
) -> tuple[int, list[str]]:
    """The largest size up to ``size`` whose wrapped lines fit ``height``, and those lines."""
    size = max(min_size, int(size))
    while True:
        lines = wrap_text(text, width, size, bold)
        if len(lines) * line_height(size, bold) <= height or size <= min_size:
            return size, lines
        size -= 1


def draw_text_wrapped(
    surface: pygame.Surface,
    text: str,
    rect: RectLike,
    size: int,
    colour: Colour = theme.TEXT,
    align: str = "left",
    bold: bool = False,
    min_size: int = MIN_TEXT_SIZE,
    valign: str = "top",
) -> pygame.Rect:
    """Draw ``text`` wrapped to ``rect``, shrunk so every line fits; lines that still
    do not fit at ``min_size`` are dropped (the last shown line ends with an ellipsis).
    Returns the rectangle the text took."""
    rect = pygame.Rect(rect)
    if rect.width <= 0 or rect.height <= 0 or not text:
        return pygame.Rect(rect.topleft, (0, 0))
    fitted, lines = fit_wrapped(text, rect.width, rect.height, size, bold, min_size)
    step = line_height(fitted, bold)
    room = max(1, rect.height // step)
    if len(lines) > room:
        lines = lines[:room]
        lines[-1] = ellipsize(lines[-1] + "…", rect.width, fitted, bold)
    block = len(lines) * step
    top = rect.top
    if valign == "center":
        top = rect.centery - block // 2
    elif valign == "bottom":
        top = rect.bottom - block
    used = pygame.Rect(rect.left, top, 0, block)
    for index, line in enumerate(lines):
        image = render_text(line, fitted, colour, bold)
        line_rect = pygame.Rect(rect.left, top + index * step, rect.width, step)
        used.union_ip(_blit_inside(surface, image, _aligned(image, line_rect, align), rect))
    return used.clip(rect)
