"""A vertical scroll for screens whose rows can be taller than the window."""

from __future__ import annotations

# At a large UI scale a list of rows (the settings, the rules editor's rules,
# the rules help's text) no longer fits the window's height. ``ScrollView``
# is the one scroll they share: the screen lays its rows out at their full
# height, shifted up by ``offset``, inside a ``viewport``; the view keeps the
# offset within the content and answers the ways a player scrolls:
#
# * the mouse wheel, anywhere over the screen (the screens are modal);
# * Page Up / Page Down, a viewport less one line at a time;
# * the scrollbar beside the viewport: a track with a thumb that can be
#   dragged, and a click on the track above or below the thumb pages there;
# * ``scroll_into_view``: the screen calls it when the keyboard focus moves,
#   so a control reached by Tab or the arrows is always in sight.
#
# Nothing here animates: the offset changes only in answer to input, so a
# scrolled screen keeps sleeping between events. The view only says how far
# to shift; the screen lays its rows out again (``on_change``) and draws them
# clipped to the viewport (``clip``). While the pointer is outside the
# viewport, the rows' widgets that reach out of it must not take its clicks
# or hover: ``hidden(widgets)`` hides them for the length of one event.
# ``ScrollingDialog`` wires all of this into a dialog with rows of controls.

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

import pygame

from game.ui import theme
from game.ui.widgets.dialog import DialogScene
from game.ui.widgets.focus import FOCUS_GAP, FOCUS_WIDTH, Widget

if TYPE_CHECKING:
    from game.ui.app import App

#: Mouse events that carry a position.
POINTER_EVENTS = (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP)
#: How many lines one notch of the mouse wheel moves.
WHEEL_LINES = 3


class ScrollView:
    """The scroll offset of content ``content_height`` tall shown in ``viewport``.

    ``on_change`` runs after every change of the offset (the screen lays out
    again and redraws). ``line`` is the height of one step (a row's text line),
    used by the wheel and kept clear round a control scrolled into view.
    """

    def __init__(self, on_change: Callable[[], None] | None = None) -> None:
        self.on_change = on_change
        self.viewport = pygame.Rect(0, 0, 1, 1)
        self.content_height = 0
        self.offset = 0
        self.line = 20
        self.bar_width = 8
        self.bar_gap = 8
        self._drag_from: tuple[int, int] | None = None  # (pointer y, offset) when a drag of the thumb began

    # ------------------------------------------------------------------ geometry
    def set_geometry(
        self, viewport: pygame.Rect, content_height: int, line: int, bar_width: int, bar_gap: int | None = None
    ) -> None:
        """The viewport, the full height of what scrolls in it, a line's height, the bar's width
        and its distance from the viewport (by default a bar's width).

        The offset is kept within the new content, so a window made taller (or a
        smaller UI scale) never leaves the rows scrolled past their end.
        """
        self.viewport = pygame.Rect(viewport)
        self.content_height = max(0, int(content_height))
        self.line = max(1, int(line))
        self.bar_width = max(4, int(bar_width))
        self.bar_gap = self.bar_width if bar_gap is None else max(0, int(bar_gap))
        self.offset = max(0, min(self.max_offset, self.offset))

    @property
    def max_offset(self) -> int:
        """How far the content can scroll: 0 when it fits the viewport."""
        return max(0, self.content_height - self.viewport.height)

    @property
    def scrolls(self) -> bool:
        """Whether the content is taller than the viewport (and the scrollbar shows)."""
        return self.max_offset > 0

    def track_rect(self) -> pygame.Rect:
        """The scrollbar's track: right of the viewport, as tall as it."""
        return pygame.Rect(self.viewport.right + self.bar_gap, self.viewport.top, self.bar_width, self.viewport.height)

    def thumb_rect(self) -> pygame.Rect:
        """The thumb: as much of the track as the viewport is of the content, where the offset puts it."""
        track = self.track_rect()
        if not self.scrolls:
            return track
        thumb_h = max(self.bar_width * 3, track.height * self.viewport.height // max(1, self.content_height))
        top = track.top + (track.height - thumb_h) * self.offset // self.max_offset
        return pygame.Rect(track.left, top, track.width, thumb_h)

    def page(self) -> int:
        """One page: the viewport less a line, so the last line of a page is the first of the next."""
        return max(self.line, self.viewport.height - self.line)

    # ------------------------------------------------------------------ moving
    def scroll_to(self, offset: int) -> bool:
        """Scroll to ``offset`` (kept within the content); True when the offset changed."""
        offset = max(0, min(self.max_offset, int(offset)))
        if offset == self.offset:
            return False
        self.offset = offset
        if self.on_change is not None:
            self.on_change()
        return True

    def scroll_by(self, delta: int) -> bool:
        return self.scroll_to(self.offset + delta)

    def scroll_into_view(self, rect: pygame.Rect) -> bool:
        """Scroll the least distance that shows ``rect`` (on screen, at the present offset) whole,
        with a little room round it for the focus ring; a rect taller than the viewport shows its top."""
        room = min(self.line // 2 + 4, max(0, (self.viewport.height - rect.height) // 2))
        if rect.top - room < self.viewport.top or rect.height + 2 * room > self.viewport.height:
            return self.scroll_by(rect.top - room - self.viewport.top)
        if rect.bottom + room > self.viewport.bottom:
            return self.scroll_by(rect.bottom + room - self.viewport.bottom)
        return False

    def handle_event(self, event: pygame.event.Event) -> bool:
        """The wheel, Page Up / Page Down and the scrollbar; True when the event was used."""
        if event.type == pygame.MOUSEWHEEL:
            return self.scroll_by(-event.y * WHEEL_LINES * self.line) or self.scrolls
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_PAGEUP, pygame.K_PAGEDOWN):
            self.scroll_by(self.page() if event.key == pygame.K_PAGEDOWN else -self.page())
            return self.scrolls
        if not self.scrolls:
            self._drag_from = None
            return False
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            thumb = self.thumb_rect()
            if thumb.inflate(self.bar_width, 0).collidepoint(event.pos):
                self._drag_from = (event.pos[1], self.offset)
                return True
            if self.track_rect().inflate(self.bar_width, 0).collidepoint(event.pos):
                self.scroll_by(self.page() if event.pos[1] > thumb.centery else -self.page())
                return True
        if event.type == pygame.MOUSEMOTION and self._drag_from is not None:
            start_y, start_offset = self._drag_from
            track = self.track_rect()
            travel = max(1, track.height - self.thumb_rect().height)
            self.scroll_to(start_offset + (event.pos[1] - start_y) * self.max_offset // travel)
            return True
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1 and self._drag_from is not None:
            self._drag_from = None
            return True
        return False

    # ------------------------------------------------------------------ pointer and drawing
    def hides(self, event: pygame.event.Event) -> bool:
        """Whether ``event`` is the pointer outside the viewport, where the scrolled rows are hidden
        (never while the content fits: then no row reaches out of the viewport)."""
        return self.scrolls and event.type in POINTER_EVENTS and not self.viewport.collidepoint(event.pos)

    @contextmanager
    def hidden(self, widgets: Sequence[Widget]) -> Iterator[None]:
        """Hide ``widgets`` (the scrolled rows' controls) for what runs inside, then show them again."""
        shown = [widget for widget in widgets if widget.visible]
        for widget in shown:
            widget.visible = False
        try:
            yield
        finally:
            for widget in shown:
                widget.visible = True

    @contextmanager
    def clip(self, surface: pygame.Surface) -> Iterator[None]:
        """Draw only inside the viewport for what runs inside (the scrolled rows) while they scroll;
        rows that fit are not clipped, so a focus ring round the first or last control shows whole.
        Across, the clip reaches as far as a focus ring stands out (short of the scrollbar): only
        the rows' tops and bottoms are cut."""
        previous = surface.get_clip()
        if self.scrolls:
            ring = min(self.bar_gap, FOCUS_GAP + FOCUS_WIDTH + 1)
            surface.set_clip(self.viewport.inflate(2 * ring, 0).clip(previous))
        try:
            yield
        finally:
            surface.set_clip(previous)

    def draw(self, surface: pygame.Surface) -> None:
        """The scrollbar, when the content scrolls: a dark track and a light thumb, both rounded."""
        if not self.scrolls:
            return
        radius = self.bar_width // 2
        pygame.draw.rect(surface, theme.INPUT_BG, self.track_rect(), border_radius=radius)
        pygame.draw.rect(surface, theme.PANEL_EDGE, self.thumb_rect(), border_radius=radius)
        if self._drag_from is not None:
            pygame.draw.rect(surface, theme.FOCUS_RING, self.thumb_rect(), width=1, border_radius=radius)


class ScrollingDialog(DialogScene):
    """A dialog whose rows of controls scroll in a viewport, its other controls staying put.

    Subclasses lay out as every dialog does, placing the rows at their full
    height shifted up by ``self.scroll.offset`` and calling
    ``self.scroll.set_geometry`` with the rows' viewport; ``scrolled_rows``
    names each row's control and the row's rectangle (label and help included),
    and ``draw_rows`` draws what the rows hold besides their controls. The
    dialog then keeps the focused control's row in view, hides the rows from
    the pointer outside the viewport, and draws them clipped to it with the
    scrollbar beside. A change of the offset lays the dialog out again.
    """

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.scroll = ScrollView(on_change=self.relayout)

    def scrolled_rows(self) -> list[tuple[Widget, pygame.Rect]]:
        """Each scrolled row's control and the row's rectangle, top to bottom."""
        raise NotImplementedError

    def draw_rows(self, surface: pygame.Surface) -> None:
        """Everything on the rows besides their controls (labels, help, marks)."""

    def row_widgets(self) -> list[Widget]:
        return [widget for widget, _ in self.scrolled_rows()]

    def handle_event(self, event: pygame.event.Event) -> bool:
        before = self.focus.focused
        if self.scroll.hides(event) and not self.done:
            # The pointer outside the viewport must not reach a control scrolled under it,
            # nor leave one looking hovered (its help shown) once it has moved out.
            rows = self.row_widgets()
            for widget in rows:
                widget.hovered = False
            with self.scroll.hidden(rows):
                used = self.scroll.handle_event(event) or super().handle_event(event)
        else:
            used = super().handle_event(event)
        if event.type == pygame.KEYDOWN and self.focus.focused is not before and not self.done:
            self.follow_focus()
        return used

    def handle_extra_event(self, event: pygame.event.Event) -> bool:
        """The wheel, Page Up / Page Down and the scrollbar, when no control used the event."""
        return self.scroll.handle_event(event)

    def follow_focus(self) -> None:
        """Scroll the focused control's row (its label and help too) into view."""
        focused = self.focus.focused
        for widget, row in self.scrolled_rows():
            if widget is focused:
                self.scroll.scroll_into_view(row)
                return

    def draw_static(self, surface: pygame.Surface) -> None:
        # The panel, the fixed controls and the hint as every dialog draws them, then the rows
        # clipped to their viewport, the focused control last so its ring is never covered.
        rows = self.row_widgets()
        with self.scroll.hidden(rows):
            super().draw_static(surface)
        focused = self.focus.focused
        with self.scroll.clip(surface):
            self.draw_rows(surface)
            for widget in rows:
                if widget is not focused:
                    widget.draw(surface)
            if focused is not None and focused in rows:
                focused.draw(surface)
        self.scroll.draw(surface)
