"""The hot-seat cover: "Pass to <name>"."""

from __future__ import annotations

# When two or more people share one screen, the table must not show one
# player's cards to the next. Between two different humans' turns the table
# pushes this opaque scene; it hides everything (the table under it is not
# drawn at all) until the named player clicks or presses Enter or Space, and
# only then does the table turn to show that player's hand. The first cover
# of each deal says that new cards were dealt (``detail``), so nobody mistakes
# the fresh hand for the one they left.
#
# The cover cannot be passed by accident. A press that began before it
# appeared (the Enter of the bid that brought it up, held or repeating, a
# mouse button still down) never reaches it: the app's input fence
# (``game.ui.input_fence``) keeps the rest of such a press away from every
# new screen. And for a short while after it appears (``GUARD_SECONDS``) it
# ignores even fresh presses: the player who has just bid or played may press
# Enter twice or double-click (the second press 0.15 s after the first), and
# that second press must not show the next player's hand to them. Its button
# is greyed until then and turns gold, with its focus ring, when the cover
# listens; the same each time it comes back on top (after the menu opened
# from behind it). A key first pressed during that while is still ignored
# after it, for as long as it stays down (its key-repeats are no fresh press).

from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from game.ui import theme
from game.ui.art.render_cache import TEXT
from game.ui.art.table_art import draw_felt
from game.ui.input_fence import key_repeat_on
from game.ui.scene import Scene
from game.ui.text import t
from game.ui.widgets.button import Button
from game.ui.widgets.focus import INPUT_MODE
from game.ui.widgets.geometry import composition_room, ui_growth
from game.ui.widgets.panels import draw_panel

if TYPE_CHECKING:
    from game.ui.app import App

#: How far from the window's edges the cover's panel keeps.
WINDOW_MARGIN = 20
#: How long after it appears the cover ignores every press. Long enough to outlast a double
#: Enter or a double click (0.1 to 0.4 s apart), short against the seconds it takes to hand
#: the screen to the next player.
GUARD_SECONDS = 0.6
REVEAL_KEYS = (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE)


class CoverScene(Scene):
    # Not modal: Esc travels down to the table so its menu still opens while
    # the cover is up (every other event is consumed here).
    modal = False
    opaque = True

    def __init__(self, app: App, name: str, on_reveal: Callable[[], None], detail: str | None = None) -> None:
        super().__init__(app)
        self.name = name
        self.detail = detail
        self.on_reveal = on_reveal
        self.done = False
        self.button = Button((0, 0, 1, 1), t("cover.show", name=name), self.reveal, kind="primary")
        # Seconds until the cover listens (see the module docstring); the button is greyed meanwhile.
        self.guard_left = GUARD_SECONDS
        # Keys first pressed while the cover did not listen, and still down.
        self._early_keys: set[int] = set()
        # The one control, so it has the focus; its ring shows while the keyboard is in use.
        self.button.focused = True
        self._show_readiness()
        self.panel = pygame.Rect(0, 0, 1, 1)
        self.on_resize(app.size)

    def on_resize(self, size: tuple[int, int]) -> None:
        w, h = size
        pw, ph = self.usual_panel_size(size)
        # Grown by the UI scale as far as the whole panel still fits the window; everything
        # on it (its type, the button) is measured from the panel, so it grows with it.
        room = (w - 2 * WINDOW_MARGIN, h - 2 * WINDOW_MARGIN)
        growth = ui_growth(composition_room(room, (pw, ph)))
        pw, ph = min(room[0], round(pw * growth)), min(room[1], round(ph * growth))
        self.panel = pygame.Rect(0, 0, pw, ph)
        self.panel.center = (w // 2, h // 2)
        bw, bh = min(pw - 60, max(260, round(pw * 0.7))), max(44, round(ph * 0.2))
        rect = pygame.Rect(0, 0, bw, bh)
        rect.midbottom = (self.panel.centerx, self.panel.bottom - round(ph * 0.1))
        self.button.set_rect(rect)

    @staticmethod
    def usual_panel_size(size: tuple[int, int]) -> tuple[int, int]:
        """The panel's width and height at 100%: a share of the window, within its margins."""
        w, h = size
        inner_w, inner_h = w - 2 * WINDOW_MARGIN, h - 2 * WINDOW_MARGIN
        return min(inner_w, max(420, round(w * 0.42))), min(inner_h, max(250, round(h * 0.38)))

    def reveal(self) -> None:
        if self.done:
            return
        self.done = True
        self.app.pop(self)
        self.on_reveal()

    def on_enter(self) -> None:
        # Shown, or shown again after the menu opened from behind it closed: the guard starts
        # afresh, so the Enter that closed the menu, pressed twice, does not pass the cover either.
        self.guard_left = GUARD_SECONDS
        self._show_readiness()

    @property
    def ready(self) -> bool:
        """The cover listens: the guard time since it appeared is over."""
        return self.guard_left <= 0.0

    def _show_readiness(self) -> None:
        self.button.enabled = self.ready
        self.button.show_focus_ring = INPUT_MODE.keyboard and self.ready

    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            return False  # the table's menu still opens from behind the cover
        if event.type == pygame.KEYUP:
            self._early_keys.discard(event.key)
            return True
        if not self.ready:
            if event.type == pygame.KEYDOWN:
                self._early_keys.add(event.key)
            elif event.type == pygame.MOUSEMOTION:
                self.button.handle_event(event)  # hover looks only
            return True  # too soon after the cover appeared to be meant for it
        if event.type == pygame.KEYDOWN and event.key in self._early_keys:
            if key_repeat_on():
                return True  # the repeat of a key pressed too soon, still held
            self._early_keys.discard(event.key)  # without key repeat, a new press
        if self.button.handle_event(event):
            return True
        if event.type == pygame.KEYDOWN and event.key in REVEAL_KEYS:
            self.reveal()
        return True

    def update(self, dt: float) -> None:
        if self.guard_left > 0.0:
            self.guard_left = max(0.0, self.guard_left - dt)
        self._show_readiness()

    def wake_in(self) -> float | None:
        # Nothing on the cover moves: it waits for the next player, after one frame
        # that shows it ready to listen.
        return self.guard_left if self.guard_left > 0.0 else None

    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(draw_felt(surface.get_size()), (0, 0))
        draw_panel(surface, self.panel)
        unit = self.panel.height / 260
        title = TEXT.fit(
            t("cover.pass_to", name=self.name), round(44 * unit), theme.PANEL_TITLE, self.panel.width - 40, bold=True
        )
        surface.blit(title, title.get_rect(midtop=(self.panel.centerx, self.panel.top + round(34 * unit))))
        hint = TEXT.fit(self.detail or t("cover.hint"), round(22 * unit), theme.TEXT_DIM, self.panel.width - 40)
        surface.blit(hint, hint.get_rect(midtop=(self.panel.centerx, self.panel.top + round(96 * unit))))
        self.button.draw(surface)
