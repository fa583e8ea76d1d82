"""The input controls of the start screen and the settings: an on/off
switch, a cycler and a stepper (``<`` value ``>``), a one-line text box and a
scrolling list."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pygame

from game.ui import theme
from game.ui.text import t
from game.ui.widgets.focus import Widget
from game.ui.widgets.geometry import Colour, RectLike
from game.ui.widgets.shading import lighten
from game.ui.widgets.text import draw_text_fit, fit_size, text_size


def draw_input_box(
    surface: pygame.Surface, rect: pygame.Rect, edge: Colour, background: Colour = theme.INPUT_BG, edge_width: int = 1
) -> int:
    """The rounded well every input control sits in; returns its corner radius."""
    radius = max(4, min(rect.height // 3, 10))
    pygame.draw.rect(surface, background, rect, border_radius=radius)
    pygame.draw.rect(surface, edge, rect, width=edge_width, border_radius=radius)
    return radius


def value_size(rect: pygame.Rect) -> int:
    """The type size of the value inside a control of ``rect``: two thirds of its height, so a
    settings row squeezed into a 1280x720 window still shows its value at 12 px."""
    return round(rect.height * 0.66)


class Toggle(Widget):
    """An on/off switch; ``labels`` are the words shown for off and on."""

    def __init__(
        self,
        rect: RectLike,
        value: bool,
        on_change: Callable[[bool], object] | None,
        labels: tuple[str, str] | None = None,
        enabled: bool = True,
        reason: str | None = None,
    ) -> None:
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
        if self.pressed_here(event):
            self.click()
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
            track = lighten(track, 0.12)
        pygame.draw.rect(surface, track, rect, border_radius=radius)
        pygame.draw.rect(surface, theme.INPUT_EDGE, rect, width=1, border_radius=radius)
        knob_d = rect.height - 6
        knob_x = rect.right - 3 - knob_d if on else rect.left + 3
        knob = pygame.Rect(knob_x, rect.top + 3, knob_d, knob_d)
        pygame.draw.ellipse(surface, (236, 236, 228) if self.enabled else (150, 150, 146), knob)
        text_rect = pygame.Rect(rect.left + radius // 2 if on else knob.right + 4, rect.top, 0, rect.height)
        text_rect.width = (knob.left - 4 - text_rect.left) if on else (rect.right - radius // 2 - text_rect.left)
        colour = theme.TEXT if self.enabled else theme.BUTTON_TEXT_DISABLED
        draw_text_fit(surface, self.labels[1 if on else 0], text_rect, value_size(rect), colour, bold=True)
        self.draw_focus(surface)


Checkbox = Toggle


class _ArrowBox(Widget):
    """Shared look of the cycler and the stepper: ``<`` value ``>`` in an input box."""

    def _arrow_rects(self) -> tuple[pygame.Rect, pygame.Rect, pygame.Rect]:
        # Narrow arrow boxes leave the value room to be read whole ("Computer" at 800x600);
        # a click anywhere right of the left box still steps forward.
        side = min(round(self.rect.height * 0.8), self.rect.width // 5)
        left = pygame.Rect(self.rect.left, self.rect.top, side, self.rect.height)
        right = pygame.Rect(self.rect.right - side, self.rect.top, side, self.rect.height)
        middle = pygame.Rect(left.right, self.rect.top, right.left - left.right, self.rect.height)
        return left, middle, right

    def can_step(self, direction: int) -> bool:
        return self.enabled

    def step(self, direction: int) -> None:
        raise NotImplementedError

    def try_step(self, direction: int) -> None:
        if self.can_step(direction):
            self.step(direction)

    def value_text(self) -> str:
        raise NotImplementedError

    def activate(self) -> None:
        self.step(1)

    def handle_key(self, event: pygame.event.Event) -> bool:
        if event.key in (pygame.K_LEFT, pygame.K_MINUS, pygame.K_KP_MINUS):
            self.try_step(-1)
            return True
        if event.key in (pygame.K_RIGHT, pygame.K_PLUS, pygame.K_KP_PLUS, pygame.K_EQUALS):
            self.try_step(1)
            return True
        return super().handle_key(event)

    def handle_event(self, event: pygame.event.Event) -> bool:
        if not self.visible:
            return False
        if self.pressed_here(event):
            if not self.enabled:
                self.refuse()
                return True
            left, _, _ = self._arrow_rects()
            direction = -1 if left.collidepoint(event.pos) else 1
            self.try_step(direction)
            return True
        if event.type == pygame.MOUSEWHEEL and self.hovered and self.enabled:
            direction = 1 if event.y > 0 else -1
            self.try_step(direction)
            return True
        return super().handle_event(event)

    def draw(self, surface: pygame.Surface) -> None:
        if not self.visible:
            return
        rect = self.rect
        draw_input_box(
            surface,
            rect,
            theme.ACCENT if self.hovered and self.enabled else theme.INPUT_EDGE,
            background=theme.INPUT_BG if self.enabled else (40, 44, 42),
        )
        left, middle, right = self._arrow_rects()
        for box, direction in ((left, -1), (right, 1)):
            active = self.can_step(direction)
            colour = theme.ACCENT if active else theme.BUTTON_TEXT_DISABLED
            _draw_chevron(surface, box, direction, colour)
        colour = theme.TEXT if self.enabled else theme.BUTTON_TEXT_DISABLED
        draw_text_fit(surface, self.value_text(), middle.inflate(-4, -4), value_size(rect), colour, bold=True)
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

    def __init__(
        self,
        rect: RectLike,
        choices: Sequence[Any],
        index: int,
        on_change: Callable[[Any], Any] | None,
        labels: Sequence[str] | None = None,
        enabled: bool = True,
        reason: str | None = None,
        wrap: bool = True,
    ) -> None:
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

    def __init__(
        self,
        rect: RectLike,
        value: int,
        minimum: int,
        maximum: int,
        on_change: Callable[[int], object] | None,
        enabled: bool = True,
        reason: str | None = None,
        formatter: Callable[[int], str] = str,
    ) -> None:
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

    def __init__(
        self,
        rect: RectLike,
        text: str,
        on_change: Callable[[str], object] | None,
        max_length: int = 16,
        placeholder: str = "",
        enabled: bool = True,
        on_unshowable: Callable[[], object] | None = None,
    ) -> None:
        super().__init__(rect, enabled)
        self.text = text
        self.on_change = on_change
        # Told when typed (or pasted) characters that cannot be shown were left out.
        self.on_unshowable = on_unshowable
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
                self._set(self.text[: self.cursor - 1] + self.text[self.cursor :], self.cursor - 1)
            return True
        if key == pygame.K_DELETE:
            if self.cursor < len(self.text):
                self._set(self.text[: self.cursor] + self.text[self.cursor + 1 :], self.cursor)
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
        if key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_TAB, pygame.K_ESCAPE, pygame.K_UP, pygame.K_DOWN):
            return False  # let the focus group move on
        # Printable keys arrive as TEXTINPUT; swallow their KEYDOWN so no hotkey fires.
        return bool(event.unicode and event.unicode.isprintable())

    def handle_event(self, event: pygame.event.Event) -> bool:
        if not self.visible:
            return False
        if self.pressed_here(event):
            self.cursor = len(self.text)
            return True
        if event.type == pygame.TEXTINPUT and self.focused and self.enabled:
            typed = "".join(ch for ch in event.text if ch.isprintable())
            if len(typed) != len(event.text) and self.on_unshowable is not None:
                self.on_unshowable()
            if typed and len(self.text) < self.max_length:
                self._set(self.text[: self.cursor] + typed + self.text[self.cursor :], self.cursor + len(typed))
            return True
        return super().handle_event(event)

    def draw(self, surface: pygame.Surface) -> None:
        if not self.visible:
            return
        rect = self.rect
        edge = theme.ACCENT if self.focused else (theme.BUTTON_EDGE if self.hovered else theme.INPUT_EDGE)
        radius = draw_input_box(surface, rect, edge, edge_width=2 if self.focused else 1)
        inner = rect.inflate(-2 * max(6, radius), -4)
        size = round(rect.height * 0.55)
        if self.text:
            drawn = draw_text_fit(surface, self.text, inner, size, theme.TEXT, align="left")
            caret_x = (
                drawn.left
                + text_size(self.text[: self.cursor], fit_size(self.text, inner.width, inner.height, size))[0]
            )
        else:
            draw_text_fit(surface, self.placeholder, inner, size, theme.TEXT_DIM, align="left")
            caret_x = inner.left
        if self.focused and self._blink < 0.6:
            caret_x = min(caret_x, inner.right)
            pygame.draw.line(surface, theme.ACCENT, (caret_x, rect.top + 5), (caret_x, rect.bottom - 6), 2)
        self.draw_focus(surface)


class ListBox(Widget):
    """A vertical list of choices, one selected; scrolls when longer than its box.

    Up/Down change the selection when focused (Home/End jump); the mouse wheel scrolls.
    """

    def __init__(
        self,
        rect: RectLike,
        items: Sequence[str],
        index: int,
        on_select: Callable[[int], object] | None,
        row_height: int = 32,
    ) -> None:
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
        return pygame.Rect(
            self.rect.left, self.rect.top + (index - self.scroll) * self.row_height, self.rect.width, self.row_height
        )

    def track_hover(self, event: pygame.event.Event) -> None:
        super().track_hover(event)
        self._hover_row = self._row_at(event.pos) if self.hovered else -1

    def _row_at(self, pos: tuple[int, int]) -> int:
        return (pos[1] - self.rect.top) // self.row_height + self.scroll

    def handle_key(self, event: pygame.event.Event) -> bool:
        moves = {
            pygame.K_UP: self.index - 1,
            pygame.K_DOWN: self.index + 1,
            pygame.K_HOME: 0,
            pygame.K_END: len(self.items) - 1,
            pygame.K_PAGEUP: self.index - self.visible_rows,
            pygame.K_PAGEDOWN: self.index + self.visible_rows,
        }
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
        if self.pressed_here(event):
            row = self._row_at(event.pos)
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
        draw_input_box(surface, self.rect, theme.INPUT_EDGE)
        previous_clip = surface.get_clip()
        surface.set_clip(self.rect.clip(previous_clip) if previous_clip else self.rect)
        size = round(self.row_height * 0.72)
        for index in range(self.scroll, min(len(self.items), self.scroll + self.visible_rows + 1)):
            row = self.row_rect(index).inflate(-4, -2)
            if index == self.index:
                pygame.draw.rect(surface, theme.BUTTON_SELECTED, row, border_radius=6)
            elif index == self._hover_row:
                pygame.draw.rect(surface, theme.BUTTON, row, border_radius=6)
            draw_text_fit(
                surface,
                self.items[index],
                row.inflate(-16, 0),
                size,
                theme.TEXT,
                align="left",
                bold=index == self.index,
            )
        surface.set_clip(previous_clip)
        rows = self.visible_rows
        if len(self.items) > rows:
            # A slim scroll bar so the player knows there is more.
            track = pygame.Rect(self.rect.right - 5, self.rect.top + 4, 3, self.rect.height - 8)
            thumb_h = max(10, track.height * rows // len(self.items))
            thumb_y = track.top + (track.height - thumb_h) * self.scroll // max(1, len(self.items) - rows)
            pygame.draw.rect(surface, theme.ACCENT, (track.left, thumb_y, track.width, thumb_h), border_radius=2)
        self.draw_focus(surface)
