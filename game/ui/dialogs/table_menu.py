"""The in-game menu (Esc): resume, score pad, rules, settings, back to the start screen, quit."""

from __future__ import annotations

# It is a small modal dialog over the table; the table keeps animating under
# it, but no computer player moves and no dialog opens until it is closed.
# Each button closes the menu first, then does its part: the score pad, the
# rules help and the settings open over the table, and the table passes leave
# actions that ask before a game in progress is thrown away
# (``App.request_start`` and ``App.request_quit``). The Rules entry is there
# when the table passes ``on_rules_help``.

from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from game.ui.text import t
from game.ui.widgets.button import Button
from game.ui.widgets.dialog import DialogScene
from game.ui.widgets.geometry import composition_room, split_rows, ui_growth

if TYPE_CHECKING:
    from game.ui.app import App


class TableMenu(DialogScene):
    cancellable = True
    # Opened over the table or over one of its dialogs: that dialog must not show through.
    solid_panel = True
    dim_background = True

    def __init__(
        self,
        app: App,
        on_score_pad: Callable[[], None],
        on_settings: Callable[[], None],
        on_back_to_start: Callable[[], None],
        on_quit: Callable[[], None],
        on_rules_help: Callable[[], None] | None = None,
    ) -> None:
        super().__init__(app)
        self.title = t("menu.title")
        self.buttons = [
            Button((0, 0, 1, 1), t("menu.resume"), self.close, kind="primary"),
            Button((0, 0, 1, 1), t("menu.score_pad"), lambda: self._then(on_score_pad), hotkey="s"),
            *(
                [Button((0, 0, 1, 1), t("help.open_menu"), lambda: self._then(on_rules_help))]
                if on_rules_help is not None
                else []
            ),
            Button((0, 0, 1, 1), t("menu.settings"), lambda: self._then(on_settings)),
            Button((0, 0, 1, 1), t("menu.back_to_start"), lambda: self._then(on_back_to_start)),
            Button((0, 0, 1, 1), t("menu.quit"), lambda: self._then(on_quit), kind="danger"),
        ]
        self.relayout()
        self.focus.focus(self.buttons[0])

    def _then(self, action: Callable[[], None]) -> None:
        self.finish(action)

    def layout(self, size: tuple[int, int]) -> None:
        w, h = size
        unit = min(w / 1280, h / 720)
        # Grown by the UI scale as far as the whole menu still fits the window.
        unit *= ui_growth(composition_room((w - 16, h - 16), self._panel_size(unit)))
        pw, ph = self._panel_size(unit)
        bh = max(40, round(50 * unit))
        gap = max(8, round(12 * unit))
        title_h = max(40, round(56 * unit))
        rows = len(self.buttons)
        self.panel_rect = pygame.Rect(0, 0, pw, ph)
        self.panel_rect.center = (w // 2, h // 2)
        body = pygame.Rect(
            self.panel_rect.left + 2 * gap,
            self.panel_rect.top + title_h + gap,
            pw - 4 * gap,
            rows * bh + (rows - 1) * gap,
        )
        for button, rect in zip(self.buttons, split_rows(body, rows, gap)):
            button.set_rect(rect)
        self.focus.set_widgets(self.buttons)

    def _panel_size(self, unit: float) -> tuple[int, int]:
        """The menu's width and height at size factor ``unit``."""
        bh = max(40, round(50 * unit))
        gap = max(8, round(12 * unit))
        title_h = max(40, round(56 * unit))
        rows = len(self.buttons)
        return max(300, round(360 * unit)), title_h + rows * bh + (rows - 1) * gap + 2 * gap + 10
