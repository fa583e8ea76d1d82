"""The rules help screen: how a game is played, with the rules of this table.

Opened from the start screen (for the game and rules chosen there) and from
the table's menu (for the game being played, with the contract or trump of
the deal in play). What it says is built by ``rules_help_content``; this
scene lays those lines out for the window and scrolls them.
"""

from __future__ import annotations

# The text is wrapped once per window width into a list of lines; drawing
# blits only the lines inside the visible part of the body. The screen covers
# the whole window (``opaque``), so nothing of the table under it, and no
# hand in a hot-seat game, shows while it is open. It changes only in answer
# to input: scrolling by the mouse wheel, the arrow keys, Page Up / Page Down,
# Home / End and the scrollbar (the shared ``ScrollView``); Esc or Back closes it.
# The text grows with the UI scale as far as lines of a readable length
# (``READING_WIDTH`` at size factor 1) still fit across the window: it scrolls,
# so the window's height never limits it.

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pygame

from game.rules import GameDef
from game.rules.house_rules import Rules
from game.ui import theme
from game.ui.art.table_art import draw_felt
from game.ui.scenes.rules_help_content import (
    BODY,
    CHANGED,
    HEADING,
    LABEL,
    NOTE,
    Contract,
    HelpLine,
    help_lines,
)
from game.ui.text import t
from game.ui.widgets.button import Button
from game.ui.widgets.dialog import DialogScene
from game.ui.widgets.geometry import ui_scale, width_room
from game.ui.widgets.panels import draw_panel, panel_content
from game.ui.widgets.scroll import ScrollView
from game.ui.widgets.text import draw_text_fit, line_height, render_text, wrap_text

if TYPE_CHECKING:
    from game.ui.app import App

#: The narrowest text (at size factor 1) the UI scale may leave: about sixty letters a line.
READING_WIDTH = 640
# Per style: colour and whether it is bold; headings are drawn larger.
_LOOKS: dict[str, tuple[tuple[int, int, int], bool]] = {
    HEADING: (theme.ACCENT, True),
    BODY: (theme.TEXT, False),
    CHANGED: (theme.WARNING, True),
    LABEL: (theme.PANEL_TITLE, True),
    NOTE: (theme.TEXT_DIM, False),
}


@dataclass(frozen=True)
class PlacedLine:
    """One wrapped line of the help text, at ``top`` pixels from the top of the text."""

    text: str
    style: str
    size: int
    top: int


def place_lines(
    lines: Sequence[HelpLine], width: int, body_size: int, heading_size: int
) -> tuple[list[PlacedLine], int]:
    """Wrap ``lines`` to ``width``: every line and where it goes, and the height of the whole text."""
    placed: list[PlacedLine] = []
    y = 0
    for index, line in enumerate(lines):
        size = heading_size if line.style == HEADING else body_size
        bold = _LOOKS[line.style][1]
        step = line_height(size, bold)
        if line.style == HEADING and index:
            y += step // 2  # a little air above each new section
        for text in wrap_text(line.text, width, size, bold):
            placed.append(PlacedLine(text, line.style, size, y))
            y += step
        if line.style != LABEL:
            y += step // 3  # paragraphs apart; a label stays with the cards under it
    return placed, y


class RulesHelpScene(DialogScene):
    """The rules of ``game_def`` under ``rules`` for ``players``, with ``contract``
    the deal in play at the table (None: none decided, or opened from the start screen)."""

    opaque = True
    modal = True
    cancellable = True

    def __init__(
        self, app: App, game_def: GameDef, rules: Rules, players: int, contract: Contract | None = None
    ) -> None:
        super().__init__(app)
        self.game_def = game_def
        self.rules, self.players, self.contract = rules, players, contract
        self.lines = help_lines(game_def, rules, players, contract)
        self.view = ScrollView(on_change=self.invalidate)
        self.placed: list[PlacedLine] = []
        self.text_height = 0
        self.body_rect = pygame.Rect(0, 0, 1, 1)
        self.text_rect = pygame.Rect(0, 0, 1, 1)
        self.back_button = Button((0, 0, 1, 1), t("help.back"), self.cancel, hotkey=pygame.K_BACKSPACE)
        self.relayout()
        self.focus.focus(self.back_button)

    # ------------------------------------------------------------------ layout
    def layout(self, size: tuple[int, int]) -> None:
        width, height = size
        scale = ui_scale(size, width_room(size, READING_WIDTH))
        self.scale = scale
        margin = max(8, round(20 * scale))
        gap = max(6, round(10 * scale))
        self.panel_rect = pygame.Rect(0, 0, width, height)
        self.title_rect = pygame.Rect(margin, margin // 2, width - 2 * margin, max(30, round(50 * scale)))
        foot_h = max(30, round(44 * scale))
        foot = pygame.Rect(margin, height - margin // 2 - foot_h, width - 2 * margin, foot_h)
        button_w = max(110, round(170 * scale))
        self.back_button.set_rect(pygame.Rect(foot.left, foot.top, button_w, foot_h))
        self.keys_rect = pygame.Rect(
            self.back_button.rect.right + gap, foot.top, max(1, foot.right - self.back_button.rect.right - gap), foot_h
        )
        self.body_rect = pygame.Rect(
            margin,
            self.title_rect.bottom + gap // 2,
            width - 2 * margin,
            max(40, foot.top - gap - self.title_rect.bottom - gap // 2),
        )
        content = panel_content(self.body_rect, False)
        self.scrollbar_w = max(6, round(8 * scale))
        self.text_rect = pygame.Rect(
            content.left, content.top, max(40, content.width - self.scrollbar_w - gap), content.height
        )
        self.body_size = max(17, round(21 * scale))
        self.placed, self.text_height = place_lines(
            self.lines, self.text_rect.width, self.body_size, max(18, round(28 * scale))
        )
        self.view.set_geometry(
            self.text_rect,
            self.text_height,
            line_height(self.body_size),
            self.scrollbar_w,
            (self.body_rect.right - self.text_rect.right - self.scrollbar_w) // 2,
        )
        self.focus.set_widgets([self.back_button])

    def on_settings_changed(self) -> None:
        # The language may have changed: word everything again, keeping the place in the text.
        self.lines = help_lines(self.game_def, self.rules, self.players, self.contract)
        self.relayout()

    # ------------------------------------------------------------------ scrolling
    @property
    def scroll(self) -> int:
        """How far the text is scrolled, in pixels from its top."""
        return self.view.offset

    @property
    def max_scroll(self) -> int:
        return self.view.max_offset

    def scroll_to(self, offset: int) -> None:
        self.view.scroll_to(offset)

    def scroll_by(self, delta: int) -> None:
        self.scroll_to(self.scroll + delta)

    def _line_step(self) -> int:
        return line_height(self.body_size)

    def handle_event(self, event: pygame.event.Event) -> bool:
        # Scrolling keys come first: the one focused button has no use for them.
        if event.type == pygame.KEYDOWN and not self.done:
            steps = {pygame.K_UP: -self._line_step(), pygame.K_DOWN: self._line_step()}
            if event.key in steps:
                self.scroll_by(steps[event.key])
                return True
            if event.key in (pygame.K_HOME, pygame.K_END):
                self.scroll_to(0 if event.key == pygame.K_HOME else self.max_scroll)
                return True
        # The wheel, Page Up / Page Down and the scrollbar (dragged, or clicked to page).
        if not self.done and self.view.handle_event(event):
            self.invalidate()
            return True
        return super().handle_event(event)

    # ------------------------------------------------------------------ drawing
    def visible_lines(self) -> list[PlacedLine]:
        """The wrapped lines wholly or partly inside the body at the current scroll."""
        top, bottom = self.scroll, self.scroll + self.text_rect.height
        return [
            line
            for line in self.placed
            if line.top < bottom and line.top + line_height(line.size, _LOOKS[line.style][1]) > top
        ]

    def draw_live(self, surface: pygame.Surface) -> None:
        if self.toast.active:
            self.toast.draw(surface, self.keys_rect, max(13, round(17 * self.scale)))

    def draw_static(self, surface: pygame.Surface) -> None:
        surface.blit(draw_felt(surface.get_size()), (0, 0))
        title = t("help.title", game=t(self.game_def.text("title")))
        draw_text_fit(
            surface, title, self.title_rect, round(40 * self.scale), theme.PANEL_TITLE, align="left", bold=True
        )
        draw_panel(surface, self.body_rect)
        self._draw_text(surface)
        self.view.draw(surface)
        if not self.toast.active:
            draw_text_fit(
                surface, t("help.keys"), self.keys_rect, max(13, round(17 * self.scale)), theme.TEXT_DIM, align="right"
            )
        self.focus.draw(surface)

    def _draw_text(self, surface: pygame.Surface) -> None:
        clip = surface.get_clip()
        surface.set_clip(self.text_rect)
        for line in self.visible_lines():
            colour, bold = _LOOKS[line.style]
            image = render_text(line.text, line.size, colour, bold)
            surface.blit(image, (self.text_rect.left, self.text_rect.top + line.top - self.scroll))
        surface.set_clip(clip)

    def close(self) -> None:
        if len(getattr(self.app, "scenes", [])) > 1:
            self.app.pop(self)
        else:  # opened on its own: there is nothing under it to go back to
            self.app.show_start()
