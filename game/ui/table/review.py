"""Looking back over the hand: the last trick, and the hand's log.

Both open over the table at any moment of a hand (a button under the
scores, a key, and for the last trick a click on the plate of the player
who took it) and close with Esc, their close button or a click outside
them; the game waits while one is open, as it does under the score pad.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import pygame

from game.rules import TrickRecord
from game.rules.cards import card_code
from game.ui import theme
from game.ui.table.hand_log import LogLine
from game.ui.table.hints import card_words
from game.ui.text import t
from game.ui.widgets.button import Button
from game.ui.widgets.dialog import DialogScene
from game.ui.widgets.geometry import composition_room, measured_room, ui_scale
from game.ui.widgets.text import draw_text_fit

if TYPE_CHECKING:
    from game.ui.app import App

CARD_RATIO = 1.4
#: How many of the log's lines stay in view however far the UI scale grows it (the rest scroll).
LOG_LINES_IN_VIEW = 4


def _close_on_click_outside(dialog: DialogScene, event: pygame.event.Event) -> bool:
    """Close ``dialog`` on a left click outside its panel, and say whether it did.

    Both dialogs are only looked at, never answered, so a click anywhere
    else on the table may put them away."""
    if event.type == pygame.MOUSEBUTTONUP and event.button == 1 and not dialog.panel_rect.collidepoint(event.pos):
        dialog.close()
        return True
    return False


# ``LastTrickDialog`` lays the last finished trick out card by card in the
# order it was played, each card over its player's name, with the led card
# and the winning card tagged, and says in words who took it with which card.
# Given the hand's tricks it pages back through every one of them (Left and
# Right, Home and End, or its Previous and Next buttons), so a player can
# see how the whole hand went, not only its last trick. The tricks come from
# the view of the seat at the screen (``view.tricks``), which holds only cards
# everyone saw played.
class LastTrickDialog(DialogScene):
    """A finished trick of the hand (``record`` None: none finished yet), trick ``number``.

    With ``tricks`` (the hand's finished tricks, in order) it opens at trick ``number`` and
    pages through all of them; without, it shows ``record`` alone."""

    cancellable = True
    solid_panel = True

    def __init__(
        self,
        app: App,
        record: TrickRecord | None,
        number: int,
        names: Sequence[str],
        tricks: Sequence[TrickRecord] = (),
    ) -> None:
        super().__init__(app)
        self.tricks: list[TrickRecord] = list(tricks) if tricks else ([record] if record is not None else [])
        self.first_number = 1 if tricks else number  # the number of ``self.tricks[0]``
        self.index = max(0, min(len(self.tricks) - 1, number - self.first_number))
        self.names = list(names)
        self.close_button = Button((0, 0, 1, 1), t("review.close"), self.close, kind="primary")
        self.previous_button = Button((0, 0, 1, 1), t("review.previous"), lambda: self.turn(-1))
        self.next_button = Button((0, 0, 1, 1), t("review.next"), lambda: self.turn(1))
        paging = len(self.tricks) > 1
        self.previous_button.visible = self.next_button.visible = paging
        self.card_rects: list[pygame.Rect] = []
        self.label_h = 18
        self.message_rect = pygame.Rect(0, 0, 1, 1)
        self._word_page()
        self.relayout()
        self.focus.focus(self.close_button)

    # ------------------------------------------------------------------ paging
    @property
    def record(self) -> TrickRecord | None:
        """The trick shown now."""
        return self.tricks[self.index] if self.tricks else None

    @property
    def number(self) -> int:
        """The number of the trick shown in its hand (1 for the first)."""
        return self.first_number + self.index

    def turn(self, step: int) -> None:
        """Show the trick ``step`` tricks later (earlier when negative), within the hand."""
        index = max(0, min(len(self.tricks) - 1, self.index + step))
        if index != self.index:
            self.index = index
            self._word_page()
            self.relayout()

    def _word_page(self) -> None:
        """The title and the paging buttons for the trick shown."""
        if self.record is None:
            self.title = t("table.last_trick")
        elif self.index == len(self.tricks) - 1:
            self.title = t("review.last_trick_title", n=self.number)
        else:
            self.title = t("review.trick_title", n=self.number, total=self.first_number + len(self.tricks) - 1)
        self.previous_button.enabled = self.index > 0
        self.previous_button.reason = t("review.first_trick")
        self.next_button.enabled = self.index < len(self.tricks) - 1
        self.next_button.reason = t("review.latest_trick")

    @property
    def summary(self) -> str:
        """Who took the trick with which card, in words."""
        if self.record is None:
            return t("review.no_trick")
        card = dict(self.record.plays).get(self.record.winner, -1)
        return t("review.summary", winner=self.names[self.record.winner], card=card_words(card))

    def layout(self, size: tuple[int, int]) -> None:
        plays = len(self.record.plays) if self.record is not None else 0
        self.scale = scale = ui_scale(size, self.room(size, plays))
        gap = max(6, round(12 * scale))
        card_w = max(40, round(92 * scale))
        label_h = max(18, round(26 * scale))
        foot_h = max(32, round(44 * scale))
        content = self.open_panel(size, *self.panel_size(plays, scale), factor=scale)
        # The cards shrink to what the panel (clamped to the table's free area) holds.
        room_w = (content.width - (plays + 1) * gap) // max(1, plays)
        room_h = content.height - foot_h - 3 * label_h - 4 * gap  # the tags, names and summary lines
        card_w = max(24, min(card_w, room_w, round(room_h / CARD_RATIO)))
        card_h = round(card_w * CARD_RATIO)
        row_w = plays * card_w + (plays - 1) * gap
        left = content.centerx - row_w // 2
        top = content.top + label_h + gap
        self.card_rects = [pygame.Rect(left + index * (card_w + gap), top, card_w, card_h) for index in range(plays)]
        self.label_h = label_h
        self.message_rect = pygame.Rect(content.left, top + card_h + label_h + gap, content.width, label_h)
        if not plays:
            self.message_rect = pygame.Rect(content.left, content.top, content.width, content.height - foot_h - gap)
        button_w = min(content.width, max(120, round(180 * scale)))
        if self.previous_button.visible:
            # Previous, Close and Next share the foot, the paging buttons at its ends.
            button_w = min(button_w, (content.width - 2 * gap) // 3)
            self.previous_button.set_rect(pygame.Rect(content.left, content.bottom - foot_h, button_w, foot_h))
            self.next_button.set_rect(pygame.Rect(content.right - button_w, content.bottom - foot_h, button_w, foot_h))
        self.close_button.set_rect(
            pygame.Rect(content.centerx - button_w // 2, content.bottom - foot_h, button_w, foot_h)
        )
        self.focus.set_widgets([self.previous_button, self.close_button, self.next_button])

    def room(self, size: tuple[int, int], plays: int) -> float:
        """The largest factor (up to the player's choice) at which the whole panel, its cards at
        their full size, still fits the part of the table it may cover. Measured on the panel's
        own sizes, since each of its parts is rounded on its own and together they can come out
        a few pixels larger than the panel at factor 1 times the factor."""
        area = self.panel_area(size)

        def fits(scale: float) -> bool:
            width, height = self.panel_size(plays, scale)
            return width <= area.width and height <= area.height

        return measured_room(size, fits)

    @staticmethod
    def panel_size(plays: int, scale: float) -> tuple[int, int]:
        """The panel's width and height for a trick of ``plays`` cards at size factor ``scale``:
        the cards side by side with their tags, names and the summary, and the close button."""
        gap = max(6, round(12 * scale))
        card_w = max(40, round(92 * scale))
        label_h = max(18, round(26 * scale))
        foot_h = max(32, round(44 * scale))
        width = max(round(360 * scale), plays * card_w + (plays + 1) * gap + 2 * gap)
        height = round(70 * scale) + label_h * 3 + round(card_w * CARD_RATIO) + foot_h + 4 * gap
        return width, height

    def handle_event(self, event: pygame.event.Event) -> bool:
        # The arrows page through the tricks here, before the focus group takes them to move
        # between the buttons (Tab still does that).
        pages = {pygame.K_LEFT: -1, pygame.K_RIGHT: 1, pygame.K_HOME: -len(self.tricks), pygame.K_END: len(self.tricks)}
        if event.type == pygame.KEYDOWN and event.key in pages and not self.done:
            self.turn(pages[event.key])
            self.invalidate()
            return True
        return super().handle_event(event)

    def handle_extra_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_l:
            self.close()
            return True
        return _close_on_click_outside(self, event)

    def draw_content(self, surface: pygame.Surface) -> None:
        record = self.record
        size = round(self.label_h * 0.72)
        if record is None:
            draw_text_fit(surface, self.summary, self.message_rect, size, theme.TEXT_DIM)
            return
        for rect, (seat, card) in zip(self.card_rects, record.plays):
            art = self.app.card_art(rect.width)
            surface.blit(art.face(card_code(card)), rect)
            if seat == record.winner:
                pygame.draw.rect(
                    surface, theme.ACCENT, rect.inflate(6, 6), width=3, border_radius=max(4, rect.width // 12)
                )
            name_rect = pygame.Rect(rect.left - 4, rect.bottom + 4, rect.width + 8, self.label_h)
            draw_text_fit(surface, self.names[seat], name_rect, size, theme.TEXT, bold=seat == record.winner)
            tags = [t("review.led")] if seat == record.leader else []
            if seat == record.winner:
                tags.append(t("review.took"))
            if tags:
                tag_rect = pygame.Rect(rect.left - 4, rect.top - self.label_h - 2, rect.width + 8, self.label_h)
                draw_text_fit(
                    surface,
                    " · ".join(tags),
                    tag_rect,
                    round(size * 0.9),
                    theme.ACCENT if seat == record.winner else theme.TEXT_DIM,
                    bold=True,
                )
        draw_text_fit(surface, self.summary, self.message_rect, size, theme.PANEL_TITLE, bold=True)


# ``HandLogDialog`` lists the hand's log (``game.ui.table.hand_log``) in a
# scrollable column that opens at its latest line.
class HandLogDialog(DialogScene):
    """The hand's log, newest line at the bottom, scrolled with the wheel or the keys."""

    cancellable = True
    solid_panel = True

    def __init__(self, app: App, lines: Sequence[LogLine]) -> None:
        super().__init__(app)
        self.lines = list(lines)
        self.title = t("log.title")
        self.close_button = Button((0, 0, 1, 1), t("review.close"), self.close, kind="primary")
        self.first = 0  # the first line shown: the log scrolls by whole lines
        self.row_h = 20
        self.body_rect = pygame.Rect(0, 0, 1, 1)
        self.hint_rect = pygame.Rect(0, 0, 1, 1)
        self.relayout()
        self.first = self.last_first  # opens at the latest line
        self.focus.focus(self.close_button)

    def layout(self, size: tuple[int, int]) -> None:
        # The lines scroll, so the UI scale grows the log as far as the panel fits the part of
        # the table it may cover across, with its heading, its foot and a few lines in view.
        base = (620, 120 + LOG_LINES_IN_VIEW * 28 + 44)
        self.scale = scale = ui_scale(size, composition_room(self.panel_area(size).size, base))
        # A log showing its latest line keeps showing it when laid out again with fewer rows
        # (opened over the table, whose free area is smaller than the window's).
        at_latest = self.first >= self.last_first
        self.row_h = max(20, round(28 * scale))
        foot_h = max(32, round(44 * scale))
        gap = max(6, round(10 * scale))
        content = self.open_panel(size, round(620 * scale), round(120 * scale) + 14 * self.row_h + foot_h, factor=scale)
        self.body_rect = pygame.Rect(
            content.left, content.top, content.width - 8, max(self.row_h, content.height - foot_h - gap)
        )
        button_w = min(content.width // 2, max(110, round(160 * scale)))
        self.close_button.set_rect(pygame.Rect(content.right - button_w, content.bottom - foot_h, button_w, foot_h))
        self.hint_rect = pygame.Rect(content.left, content.bottom - foot_h, content.width - button_w - gap, foot_h)
        self.first = self.last_first if at_latest else min(self.first, self.last_first)
        self.focus.set_widgets([self.close_button])

    @property
    def rows(self) -> int:
        """How many lines the body shows at once."""
        return max(1, self.body_rect.height // self.row_h)

    @property
    def last_first(self) -> int:
        """The first line shown when scrolled to the end."""
        return max(0, len(self.lines) - self.rows)

    def visible_lines(self) -> list[LogLine]:
        """The lines the body shows at the current scroll."""
        return self.lines[self.first : self.first + self.rows]

    def scroll_by(self, lines: int) -> None:
        self.first = max(0, min(self.last_first, self.first + lines))

    def handle_extra_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.MOUSEWHEEL:
            self.scroll_by(-event.y * 2)
            return True
        if event.type == pygame.KEYDOWN:
            page = max(1, self.rows - 1)
            moves = {
                pygame.K_UP: -1,
                pygame.K_DOWN: 1,
                pygame.K_PAGEUP: -page,
                pygame.K_PAGEDOWN: page,
                pygame.K_HOME: -len(self.lines),
                pygame.K_END: len(self.lines),
            }
            if event.key in moves:
                self.scroll_by(moves[event.key])
                return True
        return _close_on_click_outside(self, event)

    def draw_content(self, surface: pygame.Surface) -> None:
        size = round(self.row_h * 0.66)
        if not self.lines:
            draw_text_fit(surface, t("log.empty"), self.body_rect, size, theme.TEXT_DIM)
            return
        for index, line in enumerate(self.visible_lines()):
            rect = pygame.Rect(
                self.body_rect.left + 4, self.body_rect.top + index * self.row_h, self.body_rect.width - 8, self.row_h
            )
            draw_text_fit(surface, line.text, rect, size, line.colour, align="left")
        if self.last_first > 0:
            track = pygame.Rect(self.body_rect.right + 3, self.body_rect.top, 3, self.body_rect.height)
            thumb_h = max(12, round(track.height * self.rows / len(self.lines)))
            thumb_y = track.top + round((track.height - thumb_h) * self.first / self.last_first)
            pygame.draw.rect(surface, theme.ACCENT, (track.left, thumb_y, 3, thumb_h), border_radius=2)
        if not self.toast.active:
            draw_text_fit(
                surface, t("log.close_hint"), self.hint_rect, round(size * 0.85), theme.TEXT_DIM, align="left"
            )
