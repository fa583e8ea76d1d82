"""The push button: hover, pressed, disabled, selected and focus looks, a
hotkey, an optional picture, and text that always fits."""

from __future__ import annotations

from collections.abc import Callable, Hashable

import pygame

from game.ui import theme
from game.ui.art.render_cache import BoundedCache
from game.ui.widgets.focus import Widget
from game.ui.widgets.geometry import Colour, RectLike
from game.ui.widgets.shading import darken, gradient, lighten, rounded
from game.ui.widgets.text import draw_text_fit, text_size

#: How many looks (state, size, label) of one button are kept rendered.
BUTTON_LOOKS = 8

#: Draws a picture (a suit, say) into a rectangle, given the label's colour.
Icon = Callable[[pygame.Surface, pygame.Rect, Colour], None]

_KIND_COLOURS = {
    # kind: (normal, hover, pressed, text)
    "normal": (theme.BUTTON, theme.BUTTON_HOVER, theme.BUTTON_PRESSED, theme.TEXT),
    "primary": (theme.BUTTON_PRIMARY, theme.BUTTON_PRIMARY_HOVER, theme.BUTTON_PRIMARY_PRESSED, theme.TEXT_DARK),
    "danger": (theme.BUTTON_DANGER, theme.BUTTON_DANGER_HOVER, theme.BUTTON_DANGER_PRESSED, theme.TEXT),
    "selected": (theme.BUTTON_SELECTED, theme.BUTTON_SELECTED_HOVER, theme.BUTTON_SELECTED_PRESSED, theme.TEXT),
}


class Button(Widget):
    """A push button with hover, pressed, disabled and focus looks.

    ``kind`` is ``"normal"``, ``"primary"`` (the main action, gold) or
    ``"danger"``; ``selected=True`` draws it as the chosen option of a group.
    ``hotkey`` is a pygame key constant, a character, or a tuple of either;
    with ``hotkey_chooses`` it only chooses the button (see ``Widget``).
    ``icon(surface, rect, colour)`` draws a picture left of the label (centred
    when the label is empty). ``reason`` says why a disabled button is
    disabled; it is shown on hover and reported when the button is clicked.
    """

    def __init__(
        self,
        rect: RectLike,
        label: str,
        on_click: Callable[[], object] | None,
        enabled: bool = True,
        reason: str | None = None,
        kind: str = "normal",
        hotkey: int | str | tuple[int | str, ...] | None = None,
        icon: Icon | None = None,
        selected: bool = False,
        font_size: int | None = None,
        sublabel: str | None = None,
        hotkey_chooses: bool = False,
    ) -> None:
        super().__init__(rect, enabled, reason)
        self.hotkey_chooses = hotkey_chooses
        self.label = label
        self.sublabel = sublabel
        self.on_click = on_click
        self.kind = kind
        self.hotkey = hotkey
        self.icon = icon
        self.selected = selected
        self.font_size = font_size
        self.pressed = False
        # One image per look the button has had lately (normal, hover, pressed, ...).
        self._images: BoundedCache[tuple[Hashable, ...], pygame.Surface] = BoundedCache(BUTTON_LOOKS)

    # ------------------------------------------------------------------ input
    def activate(self) -> None:
        if self.on_click is not None:
            self.on_click()

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
        if self.matches_hotkey(event) and not self.hotkey_chooses:
            self.click()  # a choosing hotkey is the focus group's: it only moves the focus here
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
        key = (self.rect.size, state, self.kind, self.selected, self.label, self.sublabel, self.font_size, self.icon)
        image = self._images.get_or_make(key, lambda: self._render(state))
        offset = 2 if state == "pressed" else 0
        surface.blit(image, (self.rect.left, self.rect.top + offset - 1))
        self.draw_focus(surface)

    def _render(self, state: str) -> pygame.Surface:
        width, height = self.rect.size
        # One pixel above for the highlight, three below for the raised lip.
        image = pygame.Surface((width, height + 4), pygame.SRCALPHA)
        radius = self.corner_radius
        body = pygame.Rect(0, 1, width, height)
        kind = "selected" if self.selected else self.kind
        normal, hover, pressed, text_colour = _KIND_COLOURS.get(kind, _KIND_COLOURS["normal"])
        if state == "disabled":
            base, text_colour = theme.BUTTON_DISABLED, theme.BUTTON_TEXT_DISABLED
        else:
            base = {"hover": hover, "pressed": pressed}.get(state, normal)
        if state not in ("pressed", "disabled"):
            pygame.draw.rect(image, (*darken(base, 0.55), 200), body.move(0, 3), border_radius=radius)
        face = rounded(gradient(body.size, (*lighten(base, 0.12), 255), (*darken(base, 0.1), 255)), radius)
        image.blit(face, body)
        edge = lighten(base, 0.35) if state != "disabled" else lighten(base, 0.12)
        pygame.draw.rect(image, edge, body, width=1, border_radius=radius)
        self._draw_content(image, body, text_colour, state)
        return image

    def stacked(self) -> bool:
        """Whether the button is tall enough to stack its picture, label and small print."""
        return self.icon is not None and bool(self.label) and bool(self.sublabel) and self.rect.height >= 64

    def text_width(self) -> int:
        """How wide the label may be drawn, inside the button's padding."""
        return self._inner(pygame.Rect(0, 1, *self.rect.size)).width

    def _inner(self, body: pygame.Rect) -> pygame.Rect:
        pad_x = max(4, min(14, body.height // 3))
        if self.stacked():
            # A tall narrow button (a suit in the trump chooser) keeps its side padding
            # in proportion to its width, so "Diamonds" fits as large as "Clubs".
            pad_x = max(4, min(pad_x, body.width // 12))
        return body.inflate(-2 * pad_x, -max(4, body.height // 6))

    def _draw_content(self, image: pygame.Surface, body: pygame.Rect, colour: Colour, state: str) -> None:
        pad_x = max(4, min(14, body.height // 3))
        inner = self._inner(body)
        size = self.font_size or max(12, round(body.height * 0.5))
        if self.stacked() and self.icon is not None and self.sublabel:
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
                text_rect = pygame.Rect(
                    icon_rect.right + pad_x // 2,
                    inner.top,
                    max(1, inner.right - icon_rect.right - pad_x // 2),
                    inner.height,
                )
                draw_text_fit(image, self.label, text_rect, size, colour, align="left", bold=True)
            else:
                icon_rect = pygame.Rect(0, 0, icon_side, icon_side)
                icon_rect.center = inner.center
                self.icon(image, icon_rect, colour)
        else:
            draw_text_fit(image, self.label, inner, size, colour, bold=True)
        if self.sublabel:
            sub_colour = colour if state == "disabled" else lighten(colour, 0.0)
            draw_text_fit(image, self.sublabel, bottom, max(10, round(size * 0.7)), sub_colour)
