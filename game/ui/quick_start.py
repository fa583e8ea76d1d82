"""A minimal start screen, used only when the full start screen cannot be loaded.

It offers the two games with default rules against computer players, so
the program stays usable even if ``game.ui.start_scene`` is missing or broken.
"""

from __future__ import annotations

import pygame

from game.config import load_rules_or_defaults
from game.match import Seat
from game.ui import theme
from game.ui.render_cache import TextCache
from game.ui.scene import Scene
from game.ui.table_art import draw_felt
from game.ui.text import t
from game.ui.widgets import Button, FocusGroup, draw_panel, split_rows


class QuickStartScene(Scene):
    opaque = True

    def __init__(self, app) -> None:
        super().__init__(app)
        self.text = TextCache(32)
        self.buttons = [
            Button((0, 0, 1, 1), t("quick.bidwhist"), lambda: self._start("bidwhist", 4), kind="primary"),
            Button((0, 0, 1, 1), t("quick.wizard"), lambda: self._start("wizard", 4)),
            Button((0, 0, 1, 1), t("quick.quit"), app.quit, kind="danger"),
        ]
        self.focus = FocusGroup(self.buttons)
        self.panel = pygame.Rect(0, 0, 1, 1)

    def _start(self, game: str, players: int) -> None:
        rules, message = load_rules_or_defaults(game, players=players)
        if message:
            self.app.notify(message)
        seats = [Seat(t("quick.you"), "human")] + [
            Seat(t("quick.computer", n=i), "ai:medium") for i in range(1, players)]
        self.app.start_match(rules, seats)

    def on_resize(self, size: tuple[int, int]) -> None:
        w, h = size
        self.panel = pygame.Rect(0, 0, 420, 330)
        self.panel.center = (w // 2, h // 2)
        body = pygame.Rect(self.panel.left + 40, self.panel.top + 110, self.panel.width - 80, 190)
        for button, rect in zip(self.buttons, split_rows(body, 3, 14)):
            button.set_rect(rect)

    def handle_event(self, event: pygame.event.Event) -> bool:
        return self.focus.handle_event(event)

    def update(self, dt: float) -> None:
        self.focus.update(dt)

    def draw(self, surface: pygame.Surface) -> None:
        surface.blit(draw_felt(surface.get_size()), (0, 0))
        draw_panel(surface, self.panel)
        title = self.text.render(t("quick.title"), 52, theme.PANEL_TITLE, bold=True)
        surface.blit(title, title.get_rect(midtop=(self.panel.centerx, self.panel.top + 34)))
        self.focus.draw(surface)
