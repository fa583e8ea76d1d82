"""A screen that fills the window at 100 % and, at a larger UI scale, grows on a taller page."""

from __future__ import annotations

# The start screen and the statistics fill the window at 100 %: kept to the
# window, their text could hardly grow with the UI scale. ``PagedScreen`` lays
# such a screen out on a page as wide as the window and as tall as the chosen
# scale needs, and shows the part of it the ``ScrollView`` offset says: the
# wheel, Page Up / Page Down and the scrollbar (in the right margin) scroll it,
# and a control reached by the keyboard is scrolled into view. While the
# screen fits the window (always at 100 %) the page is the window and nothing
# changes from the screen's own layout.
#
# Across, the page is the window: its margins and gaps keep the size the
# window fits (``fit_scale``), so the columns keep their width as the type grows.

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from game.ui.widgets.dialog import DialogScene
from game.ui.widgets.geometry import ui_scale
from game.ui.widgets.scroll import POINTER_EVENTS, ScrollView

if TYPE_CHECKING:
    from game.ui.app import App

#: How many times the window's height a page may grow to.
MOST_PAGE_HEIGHTS = 3


class PagedScreen(DialogScene):
    """A full-window screen laid out on a page that scrolls when it is taller than the window.

    Subclasses lay out in ``layout`` with ``page_layout`` (which says the factor and
    the page to lay out on), place the scrollbar with ``place_scrollbar`` and draw the
    whole screen in ``draw_page``, in page coordinates.
    """

    def __init__(self, app: App) -> None:
        super().__init__(app)
        #: The page the screen is laid out on: the window, or taller at a large UI scale.
        self.page_size: tuple[int, int] = (1, 1)
        #: The largest factor the window fits: on a taller page, the margins and gaps keep its size.
        self.fit_scale = math.inf
        self.scroll = ScrollView(on_change=self.invalidate)

    # ------------------------------------------------------------------ layout
    def page_layout(
        self, size: tuple[int, int], room: Callable[[], float], holds: Callable[[tuple[int, int], float], bool]
    ) -> float:
        """The factor to lay out at, having set ``page_size``: the window and the factor it has
        ``room`` for, or, when the player chose more, that factor on the shortest page
        (in steps of a few pixels) on which the screen ``holds`` its content."""
        self.fit_scale = math.inf
        fits = room()
        wanted = ui_scale(size, math.inf)
        self.page_size = size
        if wanted <= fits:
            return ui_scale(size, fits)
        self.fit_scale = fits
        width, height = size
        low, high = height, height * MOST_PAGE_HEIGHTS
        if holds((width, high), wanted):
            while high - low > 4:
                middle = (low + high) // 2
                if holds((width, middle), wanted):
                    high = middle
                else:
                    low = middle
        self.page_size = (width, high)
        return wanted

    def across(self, scale: float) -> float:
        """The factor of the page's margins and gaps at layout factor ``scale``."""
        return min(scale, self.fit_scale)

    def place_scrollbar(self, size: tuple[int, int], margin: int, scale: float) -> None:
        """The scrollbar in the window's right margin, clear of the page's panels."""
        bar_w = max(4, min(round(8 * scale), margin // 2))
        viewport = pygame.Rect(0, 0, max(1, size[0] - (margin + bar_w) // 2), size[1])
        self.scroll.set_geometry(viewport, self.page_size[1], max(16, round(30 * scale)), bar_w, 0)

    def in_window(self, rect: pygame.Rect) -> pygame.Rect:
        """A rectangle of the page where the window shows it."""
        return pygame.Rect(rect).move(0, -self.scroll.offset)

    # ------------------------------------------------------------------ events
    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type in POINTER_EVENTS and self.scroll.scrolls:
            # The scrollbar first (in the window); the controls lie on the page, scrolled up.
            if self.scroll.handle_event(event):
                self.invalidate()
                return True
            event = pygame.event.Event(
                event.type, {**event.dict, "pos": (event.pos[0], event.pos[1] + self.scroll.offset)}
            )
        before = self.focus.focused
        used = super().handle_event(event)
        focused = self.focus.focused
        if event.type == pygame.KEYDOWN and focused is not before and focused is not None:
            self.scroll.scroll_into_view(self.in_window(focused.rect))
        return used

    def handle_extra_event(self, event: pygame.event.Event) -> bool:
        """The wheel and Page Up / Page Down scroll the page when no control used them."""
        return self.scroll.handle_event(event)

    # ------------------------------------------------------------------ drawing
    def draw_static(self, surface: pygame.Surface) -> None:
        if self.page_size == surface.get_size():
            self.draw_page(surface)
            return
        # The screen taller than the window: drawn on its page, of which the window shows a part.
        page = pygame.Surface(self.page_size)
        self.draw_page(page)
        surface.blit(page, (0, 0), pygame.Rect(0, self.scroll.offset, *surface.get_size()))
        self.scroll.draw(surface)

    def draw_page(self, surface: pygame.Surface) -> None:
        """The whole screen, on the window or on a page taller than it."""
        raise NotImplementedError
