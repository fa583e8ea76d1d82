"""Asks before a game in progress is thrown away."""

from __future__ import annotations

# Back to start and Quit in the in-game menu, and closing the window, would
# end the game without a trace. While a game is in progress the app opens this
# dialog first (see ``App.request_leave``): it says what would be lost, and
# its safe answer, "Keep playing", has the focus, so a stray Enter or Esc
# keeps the game. Only the other button leaves.
#
# Starting a new game over a saved one asks the same way, in its own words
# ("Replace your saved game?", Keep the saved game / Start a new game): see
# ``replace_saved_dialog``.

from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from game.ui import theme
from game.ui.text import t
from game.ui.widgets.button import Button
from game.ui.widgets.dialog import DialogScene
from game.ui.widgets.geometry import composition_room, split_columns, ui_scale
from game.ui.widgets.text import draw_text_wrapped

if TYPE_CHECKING:
    from game.ui.app import App


class LeaveDialog(DialogScene):
    """ "Leave this game?": Keep playing (Esc, the default) or leave (``on_leave``)."""

    cancellable = True
    solid_panel = True
    dim_background = True

    def __init__(
        self,
        app: App,
        warning: str,
        leave_label: str,
        on_leave: Callable[[], None],
        title: str | None = None,
        stay_label: str | None = None,
    ) -> None:
        super().__init__(app)
        self.title = title if title is not None else t("leave.title")
        self.warning = warning
        self.stay_button = Button(
            (0, 0, 1, 1), stay_label if stay_label is not None else t("leave.stay"), self.close, kind="primary"
        )
        self.leave_button = Button((0, 0, 1, 1), leave_label, lambda: self.finish(on_leave), kind="danger")
        self.relayout()
        self.focus.focus(self.stay_button)

    def layout(self, size: tuple[int, int]) -> None:
        # Grown by the UI scale as far as the whole panel still fits the window.
        self.scale = scale = ui_scale(size, composition_room((size[0] - 16, size[1] - 16), (620, 300)))
        content = self.centre_panel(size, round(620 * scale), round(300 * scale), factor=scale)
        gap = max(8, round(12 * scale))
        button_h = max(34, min(round(50 * scale), content.height // 3))
        buttons = pygame.Rect(content.left, content.bottom - button_h, content.width, button_h)
        for button, rect in zip((self.leave_button, self.stay_button), split_columns(buttons, 2, gap)):
            button.set_rect(rect)
        self.message_rect = pygame.Rect(
            content.left, content.top, content.width, max(20, buttons.top - gap - content.top)
        )
        self.focus.set_widgets([self.leave_button, self.stay_button])

    def draw_content(self, surface: pygame.Surface) -> None:
        size = max(17, round(26 * self.scale))
        draw_text_wrapped(surface, self.warning, self.message_rect, size, theme.TEXT, align="center", valign="center")


def replace_saved_dialog(app: App, saved_summary: str, on_start_new: Callable[[], None]) -> LeaveDialog:
    """Before a new game takes the place of the saved game ``saved_summary``
    names: nothing is being left, so it is not titled "Leave this game?"."""
    return LeaveDialog(
        app,
        t("start.replace_saved", game=saved_summary),
        t("start.start_new"),
        on_start_new,
        title=t("start.replace_title"),
        stay_label=t("start.keep_saved"),
    )
