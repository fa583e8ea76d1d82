"""Small interface pieces shared by every screen: text that fits, panels, buttons and inputs.

Everything here is drawn with pygame primitives and pygame's bundled font, and
everything that is expensive to draw is cached, because a dialog is redrawn
every frame over the animated table: rendered text is kept in a bounded cache
keyed by (text, size, weight, colour), panels per size and title, and each
widget keeps the few images of its own states. Drawing a dialog whose state has
not changed is then a handful of blits.

Text never overflows its box: ``draw_text_fit`` shrinks the font down to a
minimum size and only then shortens the text with an ellipsis;
``draw_text_wrapped`` shrinks until the wrapped lines fit the height.

Widgets follow one small protocol (``Widget``): a ``rect``, ``handle_event``
returning True when the event was used, ``draw``, ``set_rect`` and an
``enabled`` flag with an optional ``reason`` saying why something is disabled.
A ``FocusGroup`` adds keyboard use to a set of widgets: Tab and Shift+Tab move
the focus in order, the arrow keys move it to the nearest widget in that
direction (which is what a grid of bid buttons needs), Enter or Space activate
the focused widget, and a click or Enter on a disabled widget reports its
reason (usually to a ``Toast``) instead of doing nothing silently. The focus
ring shows only after the keyboard was used, as in most desktop programs.
"""

from __future__ import annotations

from typing import Any, Callable, Protocol, Sequence

import pygame

from game.ui import theme
from game.ui.text import t

Colour = tuple[int, ...]
RectLike = pygame.Rect | tuple[int, int, int, int]
Icon = Callable[[pygame.Surface, pygame.Rect, Colour], None]

MIN_TEXT_SIZE = 12
_TEXT_CACHE_LIMIT = 3000
_text_cache: dict[tuple[str, int, bool, Colour], pygame.Surface] = {}
_size_cache: dict[tuple[str, int, bool], tuple[int, int]] = {}

ACTIVATE_KEYS = (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE)
ARROW_KEYS = {pygame.K_LEFT: (-1, 0), pygame.K_RIGHT: (1, 0), pygame.K_UP: (0, -1), pygame.K_DOWN: (0, 1)}


# --------------------------------------------------------------------------
# Text


def render_text(text: str, size: int, colour: Colour = theme.TEXT, bold: bool = False) -> pygame.Surface:
    """``text`` rendered anti-aliased at ``size``; cached, so treat it as read-only."""
    key = (text, int(size), bold, tuple(colour))
    surface = _text_cache.get(key)
    if surface is None:
        if len(_text_cache) >= _TEXT_CACHE_LIMIT:
            # A full cache means text keeps changing (a resize storm); start afresh.
            _text_cache.clear()
        surface = theme.font(size, bold).render(text, True, colour)
        _text_cache[key] = surface
    return surface


def text_size(text: str, size: int, bold: bool = False) -> tuple[int, int]:
    """Width and height ``text`` takes at ``size`` (cached)."""
    key = (text, int(size), bold)
    measured = _size_cache.get(key)
    if measured is None:
        if len(_size_cache) >= _TEXT_CACHE_LIMIT:
            _size_cache.clear()
        measured = theme.font(size, bold).size(text)
        _size_cache[key] = measured
    return measured


def fit_size(text: str, max_width: int, max_height: int, size: int, bold: bool = False,
             min_size: int = MIN_TEXT_SIZE) -> int:
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


def draw_text_fit(surface: pygame.Surface, text: str, rect: RectLike, size: int,
                  colour: Colour = theme.TEXT, align: str = "center", bold: bool = False,
                  min_size: int = MIN_TEXT_SIZE) -> pygame.Rect:
    """Draw one line of ``text`` inside ``rect``: shrunk to fit, then ellipsized.

    ``align`` is ``"left"``, ``"center"`` or ``"right"``; the text is centred
    vertically. Returns the rectangle the text took.
    """
    rect = pygame.Rect(rect)
    if rect.width <= 0 or rect.height <= 0 or not text:
        return pygame.Rect(rect.topleft, (0, 0))
    fitted = fit_size(text, rect.width, rect.height, size, bold, min_size)
    shown = ellipsize(text, rect.width, fitted, bold)
    image = render_text(shown, fitted, colour, bold)
    placed = _aligned(image, rect, align)
    surface.blit(image, placed)
    return placed


def wrap_text(text: str, width: int, size: int, bold: bool = False) -> list[str]:
    """``text`` broken into lines no wider than ``width`` (newlines are kept).

    A single word wider than the line is ellipsized rather than overflowing.
    """
    lines: list[str] = []
    for paragraph in text.split("\n"):
        words = paragraph.split()
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
    return theme.font(size, bold).get_linesize()


def fit_wrapped(text: str, width: int, height: int, size: int, bold: bool = False,
                min_size: int = MIN_TEXT_SIZE) -> tuple[int, list[str]]:
    """The largest size up to ``size`` whose wrapped lines fit ``height``, and those lines."""
    size = max(min_size, int(size))
    while True:
        lines = wrap_text(text, width, size, bold)
        if len(lines) * line_height(size, bold) <= height or size <= min_size:
            return size, lines
        size -= 1


def draw_text_wrapped(surface: pygame.Surface, text: str, rect: RectLike, size: int,
                      colour: Colour = theme.TEXT, align: str = "left", bold: bool = False,
                      min_size: int = MIN_TEXT_SIZE, valign: str = "top") -> pygame.Rect:
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
        placed = _aligned(image, line_rect, align)
        surface.blit(image, placed)
        used.union_ip(placed)
    return used


# --------------------------------------------------------------------------
# Layout helpers


def ui_scale(size: tuple[int, int]) -> float:
    """A size factor for a window: 1.0 at 1280x720, smaller windows get smaller type."""
    width, height = size
    return max(0.75, min(1.7, min(width / 1280, height / 720)))


def centred_rect(area: RectLike, width: int, height: int) -> pygame.Rect:
    """A ``width`` x ``height`` rectangle centred in ``area`` and clipped to it."""
    area = pygame.Rect(area)
    rect = pygame.Rect(0, 0, min(width, area.width), min(height, area.height))
    rect.center = area.center
    return rect


def split_columns(rect: RectLike, count: int, gap: int) -> list[pygame.Rect]:
    """``count`` equal columns across ``rect`` separated by ``gap``."""
    rect = pygame.Rect(rect)
    if count <= 0:
        return []
    width = (rect.width - gap * (count - 1)) / count
    return [pygame.Rect(round(rect.left + i * (width + gap)), rect.top, max(1, round(width)), rect.height)
            for i in range(count)]


def split_rows(rect: RectLike, count: int, gap: int) -> list[pygame.Rect]:
    """``count`` equal rows down ``rect`` separated by ``gap``."""
    rect = pygame.Rect(rect)
    if count <= 0:
        return []
    height = (rect.height - gap * (count - 1)) / count
    return [pygame.Rect(rect.left, round(rect.top + i * (height + gap)), rect.width, max(1, round(height)))
            for i in range(count)]


# --------------------------------------------------------------------------
# Panels

_PANEL_CACHE_LIMIT = 24
_panel_cache: dict[tuple[Any, ...], pygame.Surface] = {}


def _gradient(size: tuple[int, int], top: Colour, bottom: Colour) -> pygame.Surface:
    strip = pygame.Surface((1, 2), pygame.SRCALPHA)
    strip.set_at((0, 0), top)
    strip.set_at((0, 1), bottom)
    return pygame.transform.smoothscale(strip, (max(1, size[0]), max(1, size[1])))


def _rounded(image: pygame.Surface, radius: int) -> pygame.Surface:
    """``image`` with its corners cut round (alpha multiplied by a rounded mask)."""
    mask = pygame.Surface(image.get_size(), pygame.SRCALPHA)
    pygame.draw.rect(mask, (255, 255, 255, 255), mask.get_rect(), border_radius=radius)
    image.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
    return image


def panel_radius(rect: pygame.Rect) -> int:
    return max(6, min(theme.RADIUS + 4, min(rect.width, rect.height) // 8))


def title_height(rect: RectLike) -> int:
    """Height of the title band ``draw_panel`` reserves for a title in ``rect``."""
    rect = pygame.Rect(rect)
    # Small dialogs (the menu, the trump chooser) still get a readable title.
    return max(24, min(50, max(40, round(rect.height * 0.11)), round(rect.width * 0.12)))


def _panel_image(width: int, height: int, title: str | None, title_size: int) -> pygame.Surface:
    key = (width, height, title, title_size)
    image = _panel_cache.get(key)
    if image is not None:
        return image
    shadow_pad = 6
    image = pygame.Surface((width + shadow_pad * 2, height + shadow_pad * 2), pygame.SRCALPHA)
    body_rect = pygame.Rect(shadow_pad, shadow_pad, width, height)
    radius = panel_radius(body_rect)
    for grow, alpha in ((6, 24), (4, 34), (2, 48)):
        pygame.draw.rect(image, (0, 0, 0, alpha), body_rect.inflate(grow, grow).move(0, 3),
                         border_radius=radius + grow // 2)
    body = _rounded(_gradient((width, height), theme.PANEL_TOP, theme.PANEL_BOTTOM), radius)
    image.blit(body, body_rect)
    # A thin light line just inside the top edge reads as a bevel.
    pygame.draw.rect(image, theme.PANEL_EDGE, body_rect, width=1, border_radius=radius)
    if title:
        band = pygame.Rect(body_rect.left, body_rect.top, width, title_height(body_rect))
        divider_y = band.bottom - 1
        pygame.draw.line(image, (*theme.PANEL_EDGE[:3], 110), (band.left + radius, divider_y),
                         (band.right - radius, divider_y))
        draw_text_fit(image, title, band.inflate(-2 * radius, -6), title_size, theme.PANEL_TITLE, bold=True)
    if len(_panel_cache) >= _PANEL_CACHE_LIMIT:
        _panel_cache.pop(next(iter(_panel_cache)))
    _panel_cache[key] = image
    return image


def draw_panel(surface: pygame.Surface, rect: RectLike, title: str | None = None,
               title_size: int | None = None) -> pygame.Rect:
    """A rounded translucent panel with a soft shadow and optional title band.

    Returns the content rectangle (inside the padding, below the title).
    """
    rect = pygame.Rect(rect)
    if rect.width < 4 or rect.height < 4:
        return rect
    size = title_size or max(16, round(title_height(rect) * 0.72))
    image = _panel_image(rect.width, rect.height, title, size)
    surface.blit(image, (rect.left - 6, rect.top - 6))
    return panel_content(rect, title is not None)


def panel_content(rect: RectLike, has_title: bool) -> pygame.Rect:
    """The content rectangle of a panel drawn at ``rect``."""
    rect = pygame.Rect(rect)
    pad = max(6, min(20, rect.width // 40, rect.height // 24))
    top = rect.top + (title_height(rect) if has_title else 0) + pad
    return pygame.Rect(rect.left + pad, top, max(1, rect.width - 2 * pad), max(1, rect.bottom - pad - top))


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


_fill_cache: dict[tuple[Any, ...], pygame.Surface] = {}


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


def draw_message_bar(surface: pygame.Surface, text: str, rect: RectLike, size: int,
                     warning: bool = False) -> None:
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
        draw_text_wrapped(image, text, inner, size, theme.WARNING if warning else theme.TEXT,
                          align="center", valign="center")
        if len(_panel_cache) >= _PANEL_CACHE_LIMIT:
            _panel_cache.pop(next(iter(_panel_cache)))
        _panel_cache[key] = image
    surface.blit(image, rect)


# --------------------------------------------------------------------------
# Widgets


class Widget:
    """The protocol every widget follows; see the module docstring."""

    focusable = True

    def __init__(self, rect: RectLike, enabled: bool = True, reason: str | None = None) -> None:
        self.rect = pygame.Rect(rect)
        self.enabled = enabled
        self.reason = reason
        self.visible = True
        self.focused = False
        self.show_focus_ring = True
        self.hovered = False
        #: Called with the reason when a disabled widget is clicked or activated.
        self.on_refused: Callable[[str], None] | None = None

    def set_rect(self, rect: RectLike) -> None:
        self.rect = pygame.Rect(rect)

    @property
    def hint(self) -> str | None:
        """What to show when the pointer or focus rests here: the reason it is disabled."""
        return None if self.enabled else self.reason

    def activate(self) -> None:
        """Do what a click does (Enter or Space on the focused widget)."""

    def refuse(self) -> None:
        if self.reason and self.on_refused is not None:
            self.on_refused(self.reason)

    def handle_key(self, event: pygame.event.Event) -> bool:
        """Keys the focused widget uses itself (before the focus group sees them)."""
        if event.key in ACTIVATE_KEYS:
            if self.enabled:
                self.activate()
            else:
                self.refuse()
            return True
        return False

    def handle_event(self, event: pygame.event.Event) -> bool:
        if not self.visible:
            return False
        if event.type == pygame.MOUSEMOTION:
            self.hovered = self.rect.collidepoint(event.pos)
            return False
        if event.type == pygame.KEYDOWN and self.focused:
            return self.handle_key(event)
        return False

    def draw(self, surface: pygame.Surface) -> None:
        raise NotImplementedError

    def draw_focus(self, surface: pygame.Surface) -> None:
        if self.focused and self.show_focus_ring and self.visible:
            radius = max(4, min(self.rect.height // 3, 14))
            pygame.draw.rect(surface, theme.FOCUS_RING, self.rect.inflate(6, 6), width=2,
                             border_radius=radius + 3)


_KIND_COLOURS = {
    # kind: (normal, hover, pressed, text)
    "normal": (theme.BUTTON, theme.BUTTON_HOVER, theme.BUTTON_PRESSED, theme.TEXT),
    "primary": (theme.BUTTON_PRIMARY, theme.BUTTON_PRIMARY_HOVER, theme.BUTTON_PRIMARY_PRESSED, theme.TEXT_DARK),
    "danger": (theme.BUTTON_DANGER, theme.BUTTON_DANGER_HOVER, theme.BUTTON_DANGER_PRESSED, theme.TEXT),
    "selected": (theme.BUTTON_SELECTED, (58, 134, 190), (32, 90, 132), theme.TEXT),
}


def _lighten(colour: Colour, amount: float) -> tuple[int, int, int]:
    return tuple(min(255, round(c + (255 - c) * amount)) for c in colour[:3])  # type: ignore[return-value]


def _darken(colour: Colour, amount: float) -> tuple[int, int, int]:
    return tuple(max(0, round(c * (1 - amount))) for c in colour[:3])  # type: ignore[return-value]


class Button(Widget):
    """A push button with hover, pressed, disabled and focus looks.

    ``kind`` is ``"normal"``, ``"primary"`` (the main action, gold) or
    ``"danger"``; ``selected=True`` draws it as the chosen option of a group.
    ``hotkey`` is a pygame key constant, a character, or a tuple of either.
    ``icon(surface, rect, colour)`` draws a picture left of the label (centred
    when the label is empty). ``reason`` says why a disabled button is
    disabled; it is shown on hover and reported when the button is clicked.
    """

    def __init__(self, rect: RectLike, label: str, on_click: Callable[[], Any] | None,
                 enabled: bool = True, reason: str | None = None, kind: str = "normal",
                 hotkey: int | str | tuple[int | str, ...] | None = None, icon: Icon | None = None,
                 selected: bool = False, font_size: int | None = None, sublabel: str | None = None) -> None:
        super().__init__(rect, enabled, reason)
        self.label = label
        self.sublabel = sublabel
        self.on_click = on_click
        self.kind = kind
        self.hotkey = hotkey
        self.icon = icon
        self.selected = selected
        self.font_size = font_size
        self.pressed = False
        self._images: dict[tuple[Any, ...], pygame.Surface] = {}

    # ------------------------------------------------------------------ input
    def activate(self) -> None:
        if self.on_click is not None:
            self.on_click()

    def click(self) -> None:
        """A click from the mouse, the keyboard or a hotkey: act, or report the reason."""
        if self.enabled:
            self.activate()
        else:
            self.refuse()

    def matches_hotkey(self, event: pygame.event.Event) -> bool:
        if self.hotkey is None or event.type != pygame.KEYDOWN:
            return False
        keys = self.hotkey if isinstance(self.hotkey, tuple) else (self.hotkey,)
        for key in keys:
            if isinstance(key, str):
                if event.unicode and event.unicode.lower() == key.lower():
                    return True
            elif event.key == key:
                return True
        return False

    def handle_event(self, event: pygame.event.Event) -> bool:
        if not self.visible:
            return False
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if self.rect.collidepoint(event.pos):
                if self.enabled:
                    self.pressed = True
                else:
                    self.refuse()
                return True
            return False
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            if self.pressed:
                self.pressed = False
                if self.rect.collidepoint(event.pos) and self.enabled:
                    self.activate()
                return True
            return False
        if self.matches_hotkey(event):
            self.click()
            return True
        return super().handle_event(event)

    # ------------------------------------------------------------------ drawing
    def _state(self) -> str:
        if not self.enabled:
            return "disabled"
        if self.pressed and self.hovered:
            return "pressed"
        if self.hovered or self.pressed:
            return "hover"
        return "normal"

    def draw(self, surface: pygame.Surface) -> None:
        if not self.visible or self.rect.width < 4 or self.rect.height < 4:
            return
        state = self._state()
        key = (self.rect.size, state, self.kind, self.selected, self.label, self.sublabel,
               self.font_size, self.icon)
        image = self._images.get(key)
        if image is None:
            if len(self._images) >= 8:
                self._images.clear()
            image = self._render(state)
            self._images[key] = image
        offset = 2 if state == "pressed" else 0
        surface.blit(image, (self.rect.left, self.rect.top + offset - 1))
        self.draw_focus(surface)

    def _render(self, state: str) -> pygame.Surface:
        width, height = self.rect.size
        # One pixel above for the highlight, three below for the raised lip.
        image = pygame.Surface((width, height + 4), pygame.SRCALPHA)
        radius = max(4, min(height // 3, 14))
        body = pygame.Rect(0, 1, width, height)
        kind = "selected" if self.selected else self.kind
        normal, hover, pressed, text_colour = _KIND_COLOURS.get(kind, _KIND_COLOURS["normal"])
        if state == "disabled":
            base, text_colour = theme.BUTTON_DISABLED, theme.BUTTON_TEXT_DISABLED
        else:
            base = {"hover": hover, "pressed": pressed}.get(state, normal)
        if state not in ("pressed", "disabled"):
            pygame.draw.rect(image, (*_darken(base, 0.55), 200), body.move(0, 3), border_radius=radius)
        face = _rounded(_gradient(body.size, (*_lighten(base, 0.12), 255), (*_darken(base, 0.1), 255)), radius)
        image.blit(face, body)
        edge = _lighten(base, 0.35) if state != "disabled" else _lighten(base, 0.12)
        pygame.draw.rect(image, edge, body, width=1, border_radius=radius)
        self._draw_content(image, body, text_colour, state)
        return image

    def _draw_content(self, image: pygame.Surface, body: pygame.Rect, colour: Colour, state: str) -> None:
        pad_x = max(4, min(14, body.height // 3))
        inner = body.inflate(-2 * pad_x, -max(4, body.height // 6))
        size = self.font_size or max(12, round(body.height * 0.5))
        if self.icon is not None and self.label and self.sublabel and body.height >= 64:
            # Tall button: picture on top, then the label, then the small print.
            icon_h = round(inner.height * 0.46)
            icon_rect = pygame.Rect(0, 0, icon_h, icon_h)
            icon_rect.midtop = (inner.centerx, inner.top)
            self.icon(image, icon_rect, colour)
            label_rect = pygame.Rect(inner.left, icon_rect.bottom + 2, inner.width, round(inner.height * 0.3))
            draw_text_fit(image, self.label, label_rect, size, colour, bold=True)
            sub_rect = pygame.Rect(inner.left, label_rect.bottom, inner.width, inner.bottom - label_rect.bottom)
            draw_text_fit(image, self.sublabel, sub_rect, max(10, round(size * 0.7)), colour)
            return
        if self.sublabel:
            top, bottom = inner.copy(), inner.copy()
            top.height = round(inner.height * 0.6)
            bottom.top, bottom.height = top.bottom, inner.height - top.height
            inner = top
        if self.icon is not None:
            icon_side = min(inner.height, max(12, round(body.height * 0.62)))
            if self.label:
                label_width = text_size(self.label, size)[0]
                total = icon_side + pad_x // 2 + min(label_width, inner.width - icon_side)
                left = inner.centerx - total // 2 if total < inner.width else inner.left
                icon_rect = pygame.Rect(left, inner.centery - icon_side // 2, icon_side, icon_side)
                self.icon(image, icon_rect, colour)
                text_rect = pygame.Rect(icon_rect.right + pad_x // 2, inner.top,
                                        max(1, inner.right - icon_rect.right - pad_x // 2), inner.height)
                draw_text_fit(image, self.label, text_rect, size, colour, align="left", bold=True)
            else:
                icon_rect = pygame.Rect(0, 0, icon_side, icon_side)
                icon_rect.center = inner.center
                self.icon(image, icon_rect, colour)
        else:
            draw_text_fit(image, self.label, inner, size, colour, bold=True)
        if self.sublabel:
            sub_colour = colour if state == "disabled" else _lighten(colour, 0.0)
            draw_text_fit(image, self.sublabel, bottom, max(10, round(size * 0.7)), sub_colour)


class Toggle(Widget):
    """An on/off switch; ``labels`` are the words shown for off and on."""

    def __init__(self, rect: RectLike, value: bool, on_change: Callable[[bool], Any] | None,
                 labels: tuple[str, str] | None = None, enabled: bool = True, reason: str | None = None) -> None:
        super().__init__(rect, enabled, reason)
        self.value = value
        self.on_change = on_change
        self.labels = labels or (t("widget.off"), t("widget.on"))

    def activate(self) -> None:
        self.value = not self.value
        if self.on_change is not None:
            self.on_change(self.value)

    def handle_event(self, event: pygame.event.Event) -> bool:
        if not self.visible:
            return False
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and self.rect.collidepoint(event.pos):
            if self.enabled:
                self.activate()
            else:
                self.refuse()
            return True
        return super().handle_event(event)

    def draw(self, surface: pygame.Surface) -> None:
        if not self.visible:
            return
        rect = self.rect
        radius = rect.height // 2
        on = self.value
        track = (theme.BUTTON_SELECTED if on else (44, 56, 50)) if self.enabled else theme.BUTTON_DISABLED
        if self.hovered and self.enabled:
            track = _lighten(track, 0.12)
        pygame.draw.rect(surface, track, rect, border_radius=radius)
        pygame.draw.rect(surface, theme.INPUT_EDGE, rect, width=1, border_radius=radius)
        knob_d = rect.height - 6
        knob_x = rect.right - 3 - knob_d if on else rect.left + 3
        knob = pygame.Rect(knob_x, rect.top + 3, knob_d, knob_d)
        pygame.draw.ellipse(surface, (236, 236, 228) if self.enabled else (150, 150, 146), knob)
        text_rect = pygame.Rect(rect.left + radius // 2 if on else knob.right + 4, rect.top,
                                0, rect.height)
        text_rect.width = (knob.left - 4 - text_rect.left) if on else (rect.right - radius // 2 - text_rect.left)
        colour = theme.TEXT if self.enabled else theme.BUTTON_TEXT_DISABLED
        draw_text_fit(surface, self.labels[1 if on else 0], text_rect, round(rect.height * 0.55), colour,
                      bold=True)
        self.draw_focus(surface)


Checkbox = Toggle


class _ArrowBox(Widget):
    """Shared look of the cycler and the stepper: ``<`` value ``>`` in an input box."""

    def _arrow_rects(self) -> tuple[pygame.Rect, pygame.Rect, pygame.Rect]:
        side = min(self.rect.height, self.rect.width // 4)
        left = pygame.Rect(self.rect.left, self.rect.top, side, self.rect.height)
        right = pygame.Rect(self.rect.right - side, self.rect.top, side, self.rect.height)
        middle = pygame.Rect(left.right, self.rect.top, right.left - left.right, self.rect.height)
        return left, middle, right

    def can_step(self, direction: int) -> bool:
        return self.enabled

    def step(self, direction: int) -> None:
        raise NotImplementedError

    def value_text(self) -> str:
        raise NotImplementedError

    def activate(self) -> None:
        self.step(1)

    def handle_key(self, event: pygame.event.Event) -> bool:
        if event.key in (pygame.K_LEFT, pygame.K_MINUS, pygame.K_KP_MINUS):
            if self.can_step(-1):
                self.step(-1)
            return True
        if event.key in (pygame.K_RIGHT, pygame.K_PLUS, pygame.K_KP_PLUS, pygame.K_EQUALS):
            if self.can_step(1):
                self.step(1)
            return True
        return super().handle_key(event)

    def handle_event(self, event: pygame.event.Event) -> bool:
        if not self.visible:
            return False
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and self.rect.collidepoint(event.pos):
            if not self.enabled:
                self.refuse()
                return True
            left, _, _ = self._arrow_rects()
            direction = -1 if left.collidepoint(event.pos) else 1
            if self.can_step(direction):
                self.step(direction)
            return True
        if event.type == pygame.MOUSEWHEEL and self.hovered and self.enabled:
            direction = 1 if event.y > 0 else -1
            if self.can_step(direction):
                self.step(direction)
            return True
        return super().handle_event(event)

    def draw(self, surface: pygame.Surface) -> None:
        if not self.visible:
            return
        rect = self.rect
        radius = max(4, min(rect.height // 3, 12))
        background = theme.INPUT_BG if self.enabled else (40, 44, 42)
        pygame.draw.rect(surface, background, rect, border_radius=radius)
        edge = theme.ACCENT if self.hovered and self.enabled else theme.INPUT_EDGE
        pygame.draw.rect(surface, edge, rect, width=1, border_radius=radius)
        left, middle, right = self._arrow_rects()
        for box, direction in ((left, -1), (right, 1)):
            active = self.can_step(direction)
            colour = theme.ACCENT if active else theme.BUTTON_TEXT_DISABLED
            _draw_chevron(surface, box, direction, colour)
        colour = theme.TEXT if self.enabled else theme.BUTTON_TEXT_DISABLED
        draw_text_fit(surface, self.value_text(), middle.inflate(-4, -4), round(rect.height * 0.55), colour,
                      bold=True)
        self.draw_focus(surface)


def _draw_chevron(surface: pygame.Surface, box: pygame.Rect, direction: int, colour: Colour) -> None:
    half = max(3, min(box.width, box.height) // 5)
    cx, cy = box.center
    tip = (cx + direction * half // 2 + direction, cy)
    back_x = cx - direction * half // 2
    pygame.draw.polygon(surface, colour, [(back_x, cy - half), tip, (back_x, cy + half)])


class Cycler(_ArrowBox):
    """Chooses one of ``choices`` (values) shown through ``labels``; arrows or clicks cycle.

    Left/Right step back and forward (wrapping round), Enter/Space step forward.
    """

    def __init__(self, rect: RectLike, choices: Sequence[Any], index: int,
                 on_change: Callable[[Any], Any] | None, labels: Sequence[str] | None = None,
                 enabled: bool = True, reason: str | None = None, wrap: bool = True) -> None:
        super().__init__(rect, enabled, reason)
        self.choices = list(choices)
        self.labels = list(labels) if labels is not None else [str(c) for c in self.choices]
        self.index = max(0, min(index, len(self.choices) - 1))
        self.on_change = on_change
        self.wrap = wrap

    @property
    def value(self) -> Any:
        return self.choices[self.index]

    def can_step(self, direction: int) -> bool:
        if not self.enabled or len(self.choices) < 2:
            return False
        return self.wrap or 0 <= self.index + direction < len(self.choices)

    def step(self, direction: int) -> None:
        self.index = (self.index + direction) % len(self.choices)
        if self.on_change is not None:
            self.on_change(self.value)

    def value_text(self) -> str:
        return self.labels[self.index] if self.labels else ""


class Stepper(_ArrowBox):
    """A whole number from ``minimum`` to ``maximum`` with - and + arrows."""

    def __init__(self, rect: RectLike, value: int, minimum: int, maximum: int,
                 on_change: Callable[[int], Any] | None, enabled: bool = True, reason: str | None = None,
                 formatter: Callable[[int], str] = str) -> None:
        super().__init__(rect, enabled, reason)
        self.value = value
        self.minimum = minimum
        self.maximum = maximum
        self.on_change = on_change
        self.formatter = formatter

    def can_step(self, direction: int) -> bool:
        return self.enabled and self.minimum <= self.value + direction <= self.maximum

    def step(self, direction: int) -> None:
        self.value += direction
        if self.on_change is not None:
            self.on_change(self.value)

    def activate(self) -> None:
        # Enter cycles through the range so a keyboard user is never stuck at the top.
        if self.can_step(1):
            self.step(1)
        else:
            self.value = self.minimum
            if self.on_change is not None:
                self.on_change(self.value)

    def value_text(self) -> str:
        return self.formatter(self.value)


class TextInput(Widget):
    """A one-line text box (player names). Typing needs the focus: click or Tab to it."""

    def __init__(self, rect: RectLike, text: str, on_change: Callable[[str], Any] | None,
                 max_length: int = 16, placeholder: str = "", enabled: bool = True) -> None:
        super().__init__(rect, enabled)
        self.text = text
        self.on_change = on_change
        self.max_length = max_length
        self.placeholder = placeholder
        self.cursor = len(text)
        self._blink = 0.0

    def _set(self, text: str, cursor: int) -> None:
        self.text = text[: self.max_length]
        self.cursor = max(0, min(cursor, len(self.text)))
        if self.on_change is not None:
            self.on_change(self.text)

    def activate(self) -> None:
        self.cursor = len(self.text)

    def update(self, dt: float) -> None:
        self._blink = (self._blink + dt) % 1.0

    def handle_key(self, event: pygame.event.Event) -> bool:
        key = event.key
        if key == pygame.K_BACKSPACE:
            if self.cursor > 0:
                self._set(self.text[: self.cursor - 1] + self.text[self.cursor:], self.cursor - 1)
            return True
        if key == pygame.K_DELETE:
            if self.cursor < len(self.text):
                self._set(self.text[: self.cursor] + self.text[self.cursor + 1:], self.cursor)
            return True
        if key == pygame.K_LEFT:
            self.cursor = max(0, self.cursor - 1)
            return True
        if key == pygame.K_RIGHT:
            self.cursor = min(len(self.text), self.cursor + 1)
            return True
        if key == pygame.K_HOME:
            self.cursor = 0
            return True
        if key == pygame.K_END:
            self.cursor = len(self.text)
            return True
        if key == pygame.K_SPACE:
            return True  # the space itself arrives as a TEXTINPUT event
        if key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_TAB, pygame.K_ESCAPE,
                   pygame.K_UP, pygame.K_DOWN):
            return False  # let the focus group move on
        # Printable keys arrive as TEXTINPUT; swallow their KEYDOWN so no hotkey fires.
        return bool(event.unicode and event.unicode.isprintable())

    def handle_event(self, event: pygame.event.Event) -> bool:
        if not self.visible:
            return False
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and self.rect.collidepoint(event.pos):
            self.cursor = len(self.text)
            return True
        if event.type == pygame.TEXTINPUT and self.focused and self.enabled:
            typed = "".join(ch for ch in event.text if ch.isprintable())
            if typed and len(self.text) < self.max_length:
                self._set(self.text[: self.cursor] + typed + self.text[self.cursor:], self.cursor + len(typed))
            return True
        return super().handle_event(event)

    def draw(self, surface: pygame.Surface) -> None:
        if not self.visible:
            return
        rect = self.rect
        radius = max(4, min(rect.height // 3, 10))
        pygame.draw.rect(surface, theme.INPUT_BG, rect, border_radius=radius)
        edge = theme.ACCENT if self.focused else (theme.BUTTON_EDGE if self.hovered else theme.INPUT_EDGE)
        pygame.draw.rect(surface, edge, rect, width=2 if self.focused else 1, border_radius=radius)
        inner = rect.inflate(-2 * max(6, radius), -4)
        size = round(rect.height * 0.55)
        if self.text:
            drawn = draw_text_fit(surface, self.text, inner, size, theme.TEXT, align="left")
            caret_x = drawn.left + text_size(self.text[: self.cursor], fit_size(
                self.text, inner.width, inner.height, size))[0]
        else:
            draw_text_fit(surface, self.placeholder, inner, size, theme.TEXT_DIM, align="left")
            caret_x = inner.left
        if self.focused and self._blink < 0.6:
            caret_x = min(caret_x, inner.right)
            pygame.draw.line(surface, theme.ACCENT, (caret_x, rect.top + 5), (caret_x, rect.bottom - 6), 2)


class ListBox(Widget):
    """A vertical list of choices, one selected; scrolls when longer than its box.

    Up/Down change the selection when focused (Home/End jump); the mouse wheel scrolls.
    """

    def __init__(self, rect: RectLike, items: Sequence[str], index: int,
                 on_select: Callable[[int], Any] | None, row_height: int = 32) -> None:
        super().__init__(rect)
        self.items = list(items)
        self.index = max(0, min(index, len(self.items) - 1))
        self.on_select = on_select
        self.row_height = row_height
        self.scroll = 0
        self._hover_row = -1
        self._keep_visible()

    def set_rect(self, rect: RectLike) -> None:
        super().set_rect(rect)
        self._keep_visible()

    @property
    def visible_rows(self) -> int:
        return max(1, self.rect.height // max(1, self.row_height))

    def _keep_visible(self) -> None:
        rows = self.visible_rows
        self.scroll = max(0, min(self.scroll, len(self.items) - rows))
        if self.index < self.scroll:
            self.scroll = self.index
        elif self.index >= self.scroll + rows:
            self.scroll = self.index - rows + 1

    def select(self, index: int) -> None:
        index = max(0, min(index, len(self.items) - 1))
        if index != self.index:
            self.index = index
            self._keep_visible()
            if self.on_select is not None:
                self.on_select(index)

    def row_rect(self, index: int) -> pygame.Rect:
        return pygame.Rect(self.rect.left, self.rect.top + (index - self.scroll) * self.row_height,
                           self.rect.width, self.row_height)

    def handle_key(self, event: pygame.event.Event) -> bool:
        moves = {pygame.K_UP: self.index - 1, pygame.K_DOWN: self.index + 1,
                 pygame.K_HOME: 0, pygame.K_END: len(self.items) - 1,
                 pygame.K_PAGEUP: self.index - self.visible_rows,
                 pygame.K_PAGEDOWN: self.index + self.visible_rows}
        if event.key in moves:
            target = max(0, min(moves[event.key], len(self.items) - 1))
            if target == self.index and event.key in (pygame.K_UP, pygame.K_DOWN):
                return False  # at an end: let the arrow leave the list
            self.select(target)
            return True
        return False

    def handle_event(self, event: pygame.event.Event) -> bool:
        if not self.visible:
            return False
        if event.type == pygame.MOUSEMOTION:
            self.hovered = self.rect.collidepoint(event.pos)
            self._hover_row = ((event.pos[1] - self.rect.top) // self.row_height + self.scroll
                               if self.hovered else -1)
            return False
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and self.rect.collidepoint(event.pos):
            row = (event.pos[1] - self.rect.top) // self.row_height + self.scroll
            if 0 <= row < len(self.items):
                self.select(row)
            return True
        if event.type == pygame.MOUSEWHEEL and self.hovered:
            self.scroll = max(0, min(self.scroll - event.y, len(self.items) - self.visible_rows))
            return True
        return super().handle_event(event)

    def draw(self, surface: pygame.Surface) -> None:
        if not self.visible:
            return
        pygame.draw.rect(surface, theme.INPUT_BG, self.rect, border_radius=8)
        pygame.draw.rect(surface, theme.INPUT_EDGE, self.rect, width=1, border_radius=8)
        previous_clip = surface.get_clip()
        surface.set_clip(self.rect.clip(previous_clip) if previous_clip else self.rect)
        size = round(self.row_height * 0.72)
        for index in range(self.scroll, min(len(self.items), self.scroll + self.visible_rows + 1)):
            row = self.row_rect(index).inflate(-4, -2)
            if index == self.index:
                pygame.draw.rect(surface, theme.BUTTON_SELECTED, row, border_radius=6)
            elif index == self._hover_row:
                pygame.draw.rect(surface, theme.BUTTON, row, border_radius=6)
            draw_text_fit(surface, self.items[index], row.inflate(-16, 0), size, theme.TEXT, align="left",
                          bold=index == self.index)
        surface.set_clip(previous_clip)
        rows = self.visible_rows
        if len(self.items) > rows:
            # A slim scroll bar so the player knows there is more.
            track = pygame.Rect(self.rect.right - 5, self.rect.top + 4, 3, self.rect.height - 8)
            thumb_h = max(10, track.height * rows // len(self.items))
            thumb_y = track.top + (track.height - thumb_h) * self.scroll // max(1, len(self.items) - rows)
            pygame.draw.rect(surface, theme.ACCENT, (track.left, thumb_y, track.width, thumb_h), border_radius=2)
        self.draw_focus(surface)


# --------------------------------------------------------------------------
# Keyboard focus


class FocusGroup:
    """Keyboard focus, hover hints and refusal reports for a set of widgets.

    Events go to the focused widget first (so a text box keeps its arrow
    keys), then to every widget (so hover looks stay right); Tab/Shift+Tab and
    the arrows move the focus when no widget used the key. ``on_refused`` is
    called with the reason when a disabled widget is clicked or activated.
    """

    def __init__(self, widgets: Sequence[Widget] = (), on_refused: Callable[[str], None] | None = None) -> None:
        self.widgets: list[Widget] = []
        self.index = -1
        self.keyboard_mode = False
        self.on_refused = on_refused
        self.set_widgets(widgets)

    def set_widgets(self, widgets: Sequence[Widget], keep_focus: bool = True) -> None:
        """Replace the widgets; the focus stays on the same position when it can."""
        old = self.focused
        self.widgets = list(widgets)
        for widget in self.widgets:
            if self.on_refused is not None and widget.on_refused is None:
                widget.on_refused = self.on_refused
        if keep_focus and old in self.widgets:
            self.index = self.widgets.index(old)
        elif not self._focusable():
            self.index = -1
        else:
            self.index = min(max(self.index, 0), len(self.widgets) - 1)
            if not self._can_focus(self.widgets[self.index]):
                self.index = self._focusable()[0]
        self._sync()

    def _can_focus(self, widget: Widget) -> bool:
        return widget.focusable and widget.visible

    def _focusable(self) -> list[int]:
        return [i for i, w in enumerate(self.widgets) if self._can_focus(w)]

    @property
    def focused(self) -> Widget | None:
        return self.widgets[self.index] if 0 <= self.index < len(self.widgets) else None

    def focus(self, widget: Widget | None, keyboard: bool | None = None) -> None:
        self.index = self.widgets.index(widget) if widget in self.widgets else -1
        if keyboard is not None:
            self.keyboard_mode = keyboard
        self._sync()

    def _sync(self) -> None:
        for i, widget in enumerate(self.widgets):
            widget.focused = i == self.index
            # Text boxes always show where typing goes; others only after keyboard use.
            widget.show_focus_ring = self.keyboard_mode

    def move(self, step: int) -> None:
        order = self._focusable()
        if not order:
            return
        if self.index not in order:
            self.index = order[0 if step > 0 else -1]
        else:
            self.index = order[(order.index(self.index) + step) % len(order)]
        self.keyboard_mode = True
        self._sync()

    def move_direction(self, dx: int, dy: int) -> bool:
        """Focus the nearest widget in the direction (dx, dy); False when there is none."""
        current = self.focused
        if current is None:
            self.move(1)
            return True
        origin = pygame.math.Vector2(current.rect.center)
        best, best_score = None, float("inf")
        for i in self._focusable():
            widget = self.widgets[i]
            if widget is current:
                continue
            delta = pygame.math.Vector2(widget.rect.center) - origin
            along = delta.x * dx + delta.y * dy
            if along <= 0:
                continue
            across = abs(delta.x * dy) + abs(delta.y * dx)
            # Favour widgets straight ahead: sideways offset costs more than distance.
            score = along + across * 2.5
            if score < best_score:
                best, best_score = i, score
        if best is None:
            return False
        self.index = best
        self.keyboard_mode = True
        self._sync()
        return True

    def hint(self) -> str | None:
        """The reason of the hovered disabled widget, else of the focused one (keyboard)."""
        for widget in self.widgets:
            if widget.hovered and widget.visible and widget.hint:
                return widget.hint
        focused = self.focused
        if focused is not None and self.keyboard_mode and focused.hint:
            return focused.hint
        return None

    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.KEYDOWN:
            focused = self.focused
            if focused is not None and event.key != pygame.K_TAB:
                if event.key in ACTIVATE_KEYS or event.key in ARROW_KEYS:
                    self.keyboard_mode = True
                    self._sync()
                if focused.handle_event(event):
                    return True
            for widget in self.widgets:
                if widget is not focused and isinstance(widget, Button) and widget.matches_hotkey(event):
                    return widget.handle_event(event)
            if event.key == pygame.K_TAB:
                self.move(-1 if event.mod & pygame.KMOD_SHIFT else 1)
                return True
            if event.key in ARROW_KEYS:
                return self.move_direction(*ARROW_KEYS[event.key])
            return False
        if event.type == pygame.TEXTINPUT:
            focused = self.focused
            return bool(focused is not None and focused.handle_event(event))
        used = False
        for i, widget in enumerate(self.widgets):
            if widget.handle_event(event):
                used = True
                if event.type == pygame.MOUSEBUTTONDOWN and self._can_focus(widget) and widget.enabled:
                    self.index = i
                    self.keyboard_mode = False
                    self._sync()
        return used

    def update(self, dt: float) -> None:
        for widget in self.widgets:
            updater = getattr(widget, "update", None)
            if updater is not None:
                updater(dt)

    def draw(self, surface: pygame.Surface) -> None:
        for widget in self.widgets:
            if widget is not self.focused:
                widget.draw(surface)
        if self.focused is not None:
            self.focused.draw(surface)  # last, so its ring is never covered


# --------------------------------------------------------------------------
# Toast


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

    def draw(self, surface: pygame.Surface, rect: RectLike, size: int = 20) -> None:
        """Draw in ``rect`` (typically a strip under a panel), fading in the last half second."""
        if not self.active:
            return
        rect = pygame.Rect(rect)
        if self.remaining >= 0.5:
            draw_message_bar(surface, self.text, rect, size, self.warning)
            return
        layer = pygame.Surface(rect.size, pygame.SRCALPHA)
        draw_message_bar(layer, self.text, layer.get_rect(), size, self.warning)
        layer.set_alpha(round(255 * self.remaining / 0.5))
        surface.blit(layer, rect)


# --------------------------------------------------------------------------
# Suit icons


def suit_colour(suit: int, four_colour: bool = False) -> tuple[int, int, int]:
    """The ink of suit ``suit`` (0..3 = S H D C) as the cards print it."""
    from game.ui import card_art

    table = card_art.FOUR_COLOUR if four_colour else card_art.TWO_COLOUR
    return table[card_art.SUITS[suit]]


def suit_icon(suit: int, four_colour: bool = False, chip: bool = True) -> Icon:
    """An ``Icon`` drawing suit ``suit`` with the cards' own shapes (no font glyphs).

    With ``chip`` the suit sits on a small paper disc so black suits stay
    readable on a dark button.
    """
    from game.ui import card_art

    letter = card_art.SUITS[suit]
    ink = suit_colour(suit, four_colour)

    def draw(surface: pygame.Surface, rect: pygame.Rect, _colour: Colour) -> None:
        side = min(rect.width, rect.height)
        centre = rect.center
        if chip:
            pygame.draw.circle(surface, card_art.PAPER, centre, side // 2)
            pygame.draw.circle(surface, (120, 120, 126), centre, side // 2, width=1)
            card_art.draw_suit(surface, letter, centre, side * 0.62, ink)
        else:
            card_art.draw_suit(surface, letter, centre, side, ink)

    return draw


# --------------------------------------------------------------------------
# Modal dialogs


def area_above_hand(size: tuple[int, int]) -> pygame.Rect:
    """The part of the table window above the bottom hand (and its raised cards).

    Dialogs that the player answers while looking at the hand (bids, trump)
    stay inside this area. The estimate follows the table layout's own rule
    for the hand's card size, so it stays right at any window size.
    """
    width, height = max(1, size[0]), max(1, size[1])
    try:
        from game.ui.layout import compute_layout

        layout = compute_layout((width, height), 4, 0)
        scale_y = height / layout.height  # the table lays out small windows at 800x600 and scales
        top = (layout.hand_rect.top - round(layout.hand_card_h * 0.2) - 6) * scale_y
    except Exception:  # the table layout is another module's; never let it break a dialog
        card_h = max(58, min(176, min(width * 0.074, height * 0.128))) * 1.4
        top = height - card_h * 1.25 - max(8, height // 60)
    top = max(height * 0.45, top)
    margin = max(4, min(16, height // 60))
    return pygame.Rect(margin, margin, width - 2 * margin, max(1, round(top) - margin))


from game.ui.scene import Scene  # noqa: E402  (after the widgets, which the scene base uses)

MOUSE_EVENTS = (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.MOUSEWHEEL)


class DialogHost(Protocol):
    """The scene a dialog opens over, when its own controls must keep working.

    The card table is the one host: while a bidding panel, contract chooser or
    kitty dialog waits for the player, the table's Score pad and Menu buttons
    (and Esc, and S) still work, the dialog stays clear of them, and the
    table says where on the felt the dialog may go.
    """

    def control_event(self, event: pygame.event.Event) -> bool:
        """Handle an event meant for the host's controls; True when it was used."""
        ...

    def draw_controls(self, surface: pygame.Surface) -> None:
        """Draw the host's controls again (over a dialog's darkening scrim)."""
        ...

    def dialog_area(self, size: tuple[int, int], wide: bool) -> pygame.Rect:
        """Where a dialog may go: clear of the host's controls (``wide``: as wide as the window)."""
        ...


class DialogScene(Scene):
    """A modal dialog over the table: scrim, panel, focusable widgets, reason toast.

    Subclasses implement ``layout(size)`` (set ``self.panel_rect`` and create or
    place the widgets, then ``self.focus.set_widgets(...)``) and
    ``draw_content(surface)``; ``cancel()`` runs on Esc when ``cancellable``.
    ``finish(callback, *args)`` pops the dialog, then calls the callback once.
    """

    modal = True
    opaque = False
    cancellable = False
    #: Darken the table under the dialog (costs a full-window blend every frame).
    dim_background = False
    #: Back the translucent panel with solid colour, for dialogs opened over other dialogs.
    solid_panel = False

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        self.focus = FocusGroup(on_refused=self.show_reason)
        self.toast = Toast()
        self.panel_rect = pygame.Rect(0, 0, 1, 1)
        self.title: str | None = None
        self.done = False
        self._laid_out_for: tuple[int, int] | None = None
        # The whole dialog is drawn into one cached layer and redrawn only when
        # something may have changed (an event, a new layout, a toast coming or
        # going), so a still dialog costs one blit per frame.
        self._layer: pygame.Surface | None = None
        self._layer_area = pygame.Rect(0, 0, 0, 0)
        self._dirty = True
        self._toast_was_active = False
        #: The scene this dialog is open over, if it keeps controls of its own usable.
        self.host: DialogHost | None = None

    def attach_host(self, host: DialogHost) -> "DialogScene":
        """Open over ``host``: its controls stay usable and the dialog keeps clear of them."""
        self.host = host
        self._laid_out_for = None  # lay out again inside the host's area
        return self

    # ------------------------------------------------------------------ geometry
    def window_size(self) -> tuple[int, int]:
        size = getattr(self.app, "size", None)
        if size is None:
            surface = pygame.display.get_surface()
            size = surface.get_size() if surface is not None else (1280, 720)
        return (max(1, int(size[0])), max(1, int(size[1])))

    def relayout(self, size: tuple[int, int] | None = None) -> None:
        size = size or self.window_size()
        self._laid_out_for = size
        self.layout(size)
        self._dirty = True

    def invalidate(self) -> None:
        """Something visible changed outside an event: redraw the cached layer."""
        self._dirty = True

    def layout(self, size: tuple[int, int]) -> None:
        raise NotImplementedError

    def place_panel(self, size: tuple[int, int], width: int, height: int, wide: bool = False) -> pygame.Rect:
        """The panel rectangle for a dialog answered while looking at the table.

        Over a host the panel hangs from the top of the host's free area (so a
        name plate is either wholly under it or wholly clear of it); without
        one it sits in the upper part of the window, above the bottom hand.
        """
        if self.host is not None:
            area = self.host.dialog_area(size, wide)
            panel = pygame.Rect(0, 0, max(1, min(area.width, width)), max(1, min(area.height, height)))
            panel.midtop = (area.centerx, area.top)
            return panel
        area = area_above_hand(size) if not wide else pygame.Rect(0, 0, *size).inflate(-16, -16)
        panel = pygame.Rect(0, 0, max(1, min(area.width, width)), max(1, min(area.height, height)))
        if wide:
            panel.center = area.center
        else:
            panel.midtop = (area.centerx, area.top + max(0, (area.height - panel.height) // 3))
        return panel

    def on_resize(self, size: tuple[int, int]) -> None:
        self.relayout((max(1, size[0]), max(1, size[1])))

    def reason_rect(self) -> pygame.Rect:
        """Where reasons and toasts show: a strip just under the panel (or inside its foot)."""
        width, height = self.window_size()
        bar_h = max(24, min(44, round(height * 0.05)))
        rect = pygame.Rect(0, 0, min(width - 8, max(self.panel_rect.width, 320)), bar_h)
        rect.midtop = (self.panel_rect.centerx, self.panel_rect.bottom + 8)
        if rect.bottom > height - 4:
            rect.bottom = self.panel_rect.bottom - 6
        rect.clamp_ip(pygame.Rect(0, 0, width, height))
        return rect

    # ------------------------------------------------------------------ behaviour
    def show_reason(self, text: str) -> None:
        self.toast.show(text)
        self._dirty = True

    def cancel(self) -> None:
        """Esc: close without choosing (only when ``cancellable``)."""
        self.close()

    def close(self) -> None:
        if self.app is not None and hasattr(self.app, "pop"):
            self.app.pop(self)

    def finish(self, callback: Callable[..., Any] | None, *args: Any) -> None:
        """Leave the dialog and report the choice, exactly once."""
        if self.done:
            return
        self.done = True
        self.close()
        if callback is not None:
            callback(*args)

    def handle_event(self, event: pygame.event.Event) -> bool:
        if self.done:
            return True
        if self._laid_out_for is None:
            self.relayout()
        self._dirty = True
        # The host's buttons lie outside the panel: the mouse reaches them first.
        if self.host is not None and event.type in MOUSE_EVENTS and self.host.control_event(event):
            return True
        if self.focus.handle_event(event):
            return True
        if self.handle_extra_event(event):
            return True
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE and self.cancellable:
            self.cancel()
            return True
        # Keys the dialog has no use for (Esc: the menu; S: the score pad) go to the host.
        if self.host is not None and event.type == pygame.KEYDOWN and self.host.control_event(event):
            return True
        return True  # modal: nothing else reaches the table under the dialog

    def handle_extra_event(self, event: pygame.event.Event) -> bool:
        """Events the widgets did not use (hotkeys, clicks outside the panel)."""
        return False

    def update(self, dt: float) -> None:
        if self._laid_out_for != self.window_size():
            self.relayout()
        self.toast.update(dt)
        self.focus.update(dt)
        if self.toast.active != self._toast_was_active:
            self._toast_was_active = self.toast.active
            self._dirty = True

    def draw(self, surface: pygame.Surface) -> None:
        if self._laid_out_for is None:
            self.relayout()
        if self.dim_background:
            draw_scrim(surface)
            if self.host is not None:
                self.host.draw_controls(surface)  # still usable, so not darkened
        size = surface.get_size()
        layer = self._layer
        if self._dirty or layer is None or layer.get_size() != size:
            layer = self._render_layer(size)
        surface.blit(layer, self._layer_area.topleft, self._layer_area)
        self.draw_live(surface)

    def layer_area(self, size: tuple[int, int]) -> pygame.Rect:
        """The part of the window the cached layer covers (the panel, its shadow, the hint strip)."""
        area = self.panel_rect.inflate(16, 16).union(self.reason_rect())
        return area.clip(pygame.Rect(0, 0, *size))

    def _render_layer(self, size: tuple[int, int]) -> pygame.Surface:
        if self.opaque:
            layer = self._layer if self._layer is not None and self._layer.get_size() == size else pygame.Surface(size)
        else:
            layer = pygame.Surface(size, pygame.SRCALPHA)
        self.draw_static(layer)
        if pygame.display.get_init() and pygame.display.get_surface() is not None:
            layer = layer.convert() if self.opaque else layer.convert_alpha()
        self._layer = layer
        self._layer_area = pygame.Rect(0, 0, *size) if self.opaque else self.layer_area(size)
        self._dirty = False
        return layer

    def draw_static(self, surface: pygame.Surface) -> None:
        """Everything but the toast: the panel, its content, the widgets and the hover hint."""
        if self.solid_panel:
            backing = self.panel_rect.inflate(-2, -2)
            pygame.draw.rect(surface, theme.PANEL_BOTTOM[:3], backing, border_radius=panel_radius(backing))
        draw_panel(surface, self.panel_rect, self.title)
        self.draw_content(surface)
        self.focus.draw(surface)
        if not self.toast.active:
            self.draw_hint(surface)

    def draw_live(self, surface: pygame.Surface) -> None:
        """What changes every frame (the fading toast), drawn over the cached layer."""
        if self.toast.active:
            rect = self.reason_rect()
            self.toast.draw(surface, rect, max(14, round(rect.height * 0.5)))

    def draw_content(self, surface: pygame.Surface) -> None:
        """Everything inside the panel besides the focus group's widgets."""

    def draw_hint(self, surface: pygame.Surface) -> None:
        """The refused action's reason (toast), else the hovered disabled widget's reason."""
        rect = self.reason_rect()
        size = max(14, round(rect.height * 0.5))
        if self.toast.active:
            self.toast.draw(surface, rect, size)
            return
        hint = self.focus.hint()
        if hint:
            draw_message_bar(surface, hint, rect, size, warning=False)
