"""The settings dialog: how the program looks and feels (never how the game is played)."""

from __future__ import annotations

# Fifteen settings are offered: the language (each under its own name; saving
# switches every open screen to it at once), the animation speed, how long
# computer players pause before acting, how long the searching computer
# players (hard, expert) may think about one decision ("Automatic", first: each
# level its own time), whether the table offers hints, whether it offers undo,
# whether a forced card (the only one a player may play) plays itself, whether
# it shows the played-cards panel, the
# four-colour deck (with a preview of the suit colours), the table's felt and
# the card backs (each with a small preview of the one chosen; saving redraws
# every open screen with them), the UI scale and large
# cards, and the volume and
# mute of the sound effects (a new volume, or turning mute off, plays a short
# sound at the chosen level so the player hears what they picked; where no sound
# device can be opened, the volume row says so in place of its help). Save
# writes them through ``app.save_settings()``; a failure to
# write is shown in the dialog rather than raised. Cancel or Esc leaves the
# settings as they were.
#
# The panel holds eleven rows at once (``ROWS_SHOWN``), the rest scroll into
# view. The rows grow with the UI scale as far as the window is wide; when they are
# then taller than the window they scroll (``ScrollView``: wheel, Page Up /
# Page Down, the scrollbar, and the row of the focused control kept in view),
# while Cancel and Save stay in place below them.

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from game.settings.app_settings import (
    ANIMATION_SPEEDS,
    CARD_BACKS,
    FELTS,
    LANGUAGES,
    MAX_UI_SCALE,
    MIN_UI_SCALE,
    Settings,
)
from game.ui import theme
from game.ui.art.card_art import CardArt
from game.ui.art.render_cache import BoundedCache
from game.ui.art.table_art import felt_swatch
from game.ui.audio import BID
from game.ui.text import LANGUAGE_NAMES, decimal_words, error_words, t
from game.ui.widgets.button import Button
from game.ui.widgets.controls import Cycler, Toggle
from game.ui.widgets.focus import Widget
from game.ui.widgets.geometry import split_columns, ui_scale, width_room, window_scale
from game.ui.widgets.scroll import ScrollingDialog
from game.ui.widgets.suits import suit_icon
from game.ui.widgets.text import draw_text_fit, draw_text_wrapped

if TYPE_CHECKING:
    from game.ui.app import App

AI_PAUSES = (0.0, 0.3, 0.6, 1.0, 1.5, 2.0, 3.0, 5.0)
AI_THINK_TIMES = (0.1, 0.2, 0.3, 0.5, 1.0, 1.5, 2.0)
VOLUME_STEPS = tuple(range(0, 101, 10))
UI_SCALE_STEPS = tuple(range(MIN_UI_SCALE, MAX_UI_SCALE + 1, 25))
# The sound a volume change is heard with: short, and heard often at the table.
PREVIEW_EFFECT = BID
#: The dialog's width at size factor 1; only the width limits how far the UI scale grows it.
PANEL_WIDTH = 700
#: The rows the panel fits in at once; the others scroll into view. More squeezed in
#: would make their help text too small to read.
ROWS_SHOWN = 11
#: The least height of a row (its label, control and help) at size factor 1: with more rows
#: than the window holds at that height, the rows scroll instead of squeezing their text.
MIN_ROW_BLOCK = 46


def seconds_cycler(choices: tuple[float, ...], current: float, on_change: Callable[[float], None]) -> Cycler:
    """A cycler over ``choices`` seconds (plus ``current``, if it is not one of them), at ``current``."""
    values = sorted(set(choices) | {float(current)})
    return Cycler(
        (0, 0, 1, 1),
        values,
        values.index(float(current)),
        on_change,
        labels=[t("settings.seconds", value=decimal_words(value)) for value in values],
        wrap=False,
    )


def think_time_cycler(current: float | None, on_change: Callable[[float | None], None]) -> Cycler:
    """The thinking time: "Automatic" (None) first, then ``AI_THINK_TIMES`` (plus ``current``, a
    time from a settings file that is not one of them), at ``current``."""
    times = sorted(set(AI_THINK_TIMES) | ({float(current)} if current is not None else set()))
    values: list[float | None] = [None, *times]
    return Cycler(
        (0, 0, 1, 1),
        values,
        values.index(None if current is None else float(current)),
        on_change,
        labels=[t("settings.ai_think.automatic")] + [t("settings.seconds", value=decimal_words(v)) for v in times],
        wrap=False,
    )


def help_text(key: str) -> str:
    """A setting's help line; the thinking time's names each searching level's own time."""
    if key != "settings.ai_think":
        return t(f"{key}.help")
    # Imported here, when the dialog draws: the search players are not loaded before they play.
    from game.ai.budget import DEFAULT_BUDGET, EXPERT_BUDGET

    hard, expert = (t("settings.seconds", value=decimal_words(b.max_seconds)) for b in (DEFAULT_BUDGET, EXPERT_BUDGET))
    return t("settings.ai_think.help", hard=hard, expert=expert)


class SettingsScene(ScrollingDialog):
    """Edit ``app.settings``; ``on_close`` runs after Save or Cancel."""

    # Shown over the busy start screen: dim it, and back the panel with solid
    # colour so none of the start screen's text shows through the dialog's own.
    dim_background = True
    solid_panel = True

    cancellable = True

    def __init__(self, app: App, on_close: Callable[[], None] | None = None) -> None:
        super().__init__(app)
        self.on_close = on_close
        self.title = t("settings.title")
        current = getattr(app, "settings", None) or Settings()
        self.draft = dataclasses.replace(current)
        speeds = list(ANIMATION_SPEEDS)
        self.speed = Cycler(
            (0, 0, 1, 1),
            speeds,
            speeds.index(self.draft.animation_speed) if self.draft.animation_speed in speeds else 1,
            self._set_speed,
            labels=[t(f"settings.speed.{s}") for s in speeds],
        )
        self.pause = seconds_cycler(AI_PAUSES, self.draft.ai_pause_seconds, self._set_pause)
        self.think = think_time_cycler(self.draft.ai_think_seconds, self._set_think)
        self.hints = Toggle((0, 0, 1, 1), self.draft.hints, self._set_hints)
        self.undo = Toggle((0, 0, 1, 1), self.draft.undo, self._set_undo)
        self.auto_play = Toggle((0, 0, 1, 1), self.draft.auto_play, self._set_auto_play)
        self.played_cards = Toggle((0, 0, 1, 1), self.draft.played_cards, self._set_played_cards)
        self.four_colour = Toggle((0, 0, 1, 1), self.draft.four_colour_deck, self._set_four_colour)
        self.felt = Cycler(
            (0, 0, 1, 1),
            list(FELTS),
            FELTS.index(self.draft.felt),
            self._set_felt,
            labels=[t(f"settings.felt.{name}") for name in FELTS],
        )
        self.card_back = Cycler(
            (0, 0, 1, 1),
            list(CARD_BACKS),
            CARD_BACKS.index(self.draft.card_back),
            self._set_card_back,
            labels=[t(f"settings.card_back.{name}") for name in CARD_BACKS],
        )
        # The previews' images, made once per size and choice (a window being resized goes
        # through many sizes; only the latest matter).
        self._previews: BoundedCache[tuple[str, str, int, int], pygame.Surface] = BoundedCache(8)
        volumes = sorted(set(VOLUME_STEPS) | {self.draft.volume})
        self.volume = Cycler(
            (0, 0, 1, 1),
            volumes,
            volumes.index(self.draft.volume),
            self._set_volume,
            labels=[t("settings.volume.percent", value=v) for v in volumes],
            wrap=False,
        )
        self.mute = Toggle((0, 0, 1, 1), self.draft.mute, self._set_mute)
        scales = sorted(set(UI_SCALE_STEPS) | {self.draft.ui_scale_percent})
        self.ui_scale = Cycler(
            (0, 0, 1, 1),
            scales,
            scales.index(self.draft.ui_scale_percent),
            self._set_ui_scale,
            labels=[t("settings.ui_scale.percent", value=v) for v in scales],
            wrap=False,
        )
        self.large_cards = Toggle((0, 0, 1, 1), self.draft.large_cards, self._set_large_cards)
        # Each language under its own name, so a player who cannot read this one still finds theirs.
        languages = list(LANGUAGES)
        self.language = Cycler(
            (0, 0, 1, 1),
            languages,
            languages.index(self.draft.language) if self.draft.language in languages else 0,
            self._set_language,
            labels=[LANGUAGE_NAMES[language] for language in languages],
        )
        self.rows: list[tuple[str, Widget]] = [
            ("settings.language", self.language),
            ("settings.animation_speed", self.speed),
            ("settings.ai_pause", self.pause),
            ("settings.ai_think", self.think),
            ("settings.hints", self.hints),
            ("settings.undo", self.undo),
            ("settings.auto_play", self.auto_play),
            ("settings.played_cards", self.played_cards),
            ("settings.four_colour", self.four_colour),
            ("settings.felt", self.felt),
            ("settings.card_back", self.card_back),
            ("settings.ui_scale", self.ui_scale),
            ("settings.large_cards", self.large_cards),
            ("settings.volume", self.volume),
            ("settings.mute", self.mute),
        ]
        self.cancel_button = Button((0, 0, 1, 1), t("common.cancel"), self.cancel)
        self.save_button = Button((0, 0, 1, 1), t("settings.save"), self.save, kind="primary")
        self.scale = 1.0
        self.relayout()
        self.focus.focus(self.language)
        if not self.draft.mute:
            # Look for the sound device now, so the volume row can tell a player without one
            # why nothing is heard. (Muted, it is looked for once mute is turned off.)
            find_device = getattr(getattr(app, "audio", None), "find_device", None)
            if find_device is not None:
                find_device()

    def sound_missing(self) -> bool:
        """No sound device could be opened: the game is silent whatever the volume."""
        return not getattr(getattr(self.app, "audio", None), "available", True)

    def _set_language(self, value: str) -> None:
        self.draft.language = value

    def _set_speed(self, value: str) -> None:
        self.draft.animation_speed = value

    def _set_pause(self, value: float) -> None:
        self.draft.ai_pause_seconds = float(value)

    def _set_think(self, value: float | None) -> None:
        self.draft.ai_think_seconds = None if value is None else float(value)

    def _set_hints(self, value: bool) -> None:
        self.draft.hints = bool(value)

    def _set_undo(self, value: bool) -> None:
        self.draft.undo = bool(value)

    def _set_auto_play(self, value: bool) -> None:
        self.draft.auto_play = bool(value)

    def _set_played_cards(self, value: bool) -> None:
        self.draft.played_cards = bool(value)

    def _set_four_colour(self, value: bool) -> None:
        self.draft.four_colour_deck = bool(value)

    def _set_felt(self, value: str) -> None:
        self.draft.felt = value

    def _set_card_back(self, value: str) -> None:
        self.draft.card_back = value

    def _set_ui_scale(self, value: int) -> None:
        self.draft.ui_scale_percent = int(value)

    def _set_large_cards(self, value: bool) -> None:
        self.draft.large_cards = bool(value)

    def _set_volume(self, value: int) -> None:
        self.draft.volume = int(value)
        self._preview_sound()

    def _set_mute(self, value: bool) -> None:
        self.draft.mute = bool(value)
        self._preview_sound()

    def _preview_sound(self) -> None:
        """Play a short sound at the chosen volume (nothing when muted or at 0 %)."""
        audio = getattr(self.app, "audio", None)
        if audio is not None:
            audio.play_at(PREVIEW_EFFECT, self.draft.volume, self.draft.mute)

    def save(self) -> None:
        settings = getattr(self.app, "settings", None)
        if settings is None:
            self.app.settings = self.draft
        else:
            # Change the app's object in place: other parts of the app hold it.
            for item in dataclasses.fields(Settings):
                setattr(settings, item.name, getattr(self.draft, item.name))
        saver = getattr(self.app, "save_settings", None)
        try:
            if saver is not None:
                saver()
        except Exception as exc:  # a read-only disk must not take the program down
            self.show_reason(t("settings.save_failed", message=error_words(exc)))
            return
        self.finish(self.on_close)

    def cancel(self) -> None:
        self.finish(self.on_close)

    # ------------------------------------------------------------------ layout and drawing
    def layout(self, size: tuple[int, int]) -> None:
        self.scale = scale = ui_scale(size, width_room(size, PANEL_WIDTH))
        own = window_scale(size)
        # The rows as the window at its own factor squeezes them, grown by the UI scale from
        # there: taller than the window, they scroll. (The frame at the chosen factor comes
        # second: measuring places the panel, and the last one measured is the one shown.)
        usual_block = self._frame(size, own)[3]
        content, buttons, rows_area, block, gap, row_h = self._frame(size, scale)
        block = max(block, round(usual_block * scale / own), round(MIN_ROW_BLOCK * scale))
        for button, rect in zip((self.cancel_button, self.save_button), split_columns(buttons, 2, gap)):
            button.set_rect(rect)
        count = len(self.rows)
        rows_height = count * block + (count - 1) * gap
        bar_w = max(6, round(8 * scale))
        if rows_height > rows_area.height:
            rows_area.width -= 2 * bar_w  # room for the scrollbar
        self.scroll.set_geometry(rows_area, rows_height, row_h, bar_w)
        self.row_rects = []
        widget_w = round(rows_area.width * 0.42)
        top = rows_area.top - self.scroll.offset
        for index, (_, widget) in enumerate(self.rows):
            row = pygame.Rect(rows_area.left, top + index * (block + gap), rows_area.width, block)
            self.row_rects.append(row)
            control_h = min(row_h, max(12, round(block * 0.6)))
            rect = pygame.Rect(row.right - widget_w, row.top, widget_w, control_h)
            if isinstance(widget, Toggle):
                rect.width = min(widget_w, max(60, round(control_h * 2.4)))
                rect.right = row.right
            widget.set_rect(rect)
        self.focus.set_widgets([w for _, w in self.rows] + [self.cancel_button, self.save_button])

    def _frame(
        self, size: tuple[int, int], scale: float
    ) -> tuple[pygame.Rect, pygame.Rect, pygame.Rect, int, int, int]:
        """The panel's content, the buttons' strip, the rows' area, one row's height (the rows
        squeezed into the area), the gap and a control's height, at size factor ``scale``."""
        row_h = max(22, round(40 * scale))
        gap = max(6, round(10 * scale))
        count = len(self.rows)
        content = self.centre_panel(
            size, round(PANEL_WIDTH * scale), round(150 * scale) + count * (row_h * 2 + gap) + row_h, factor=scale
        )
        button_h = max(22, min(round(46 * scale), content.height // 6))
        buttons = pygame.Rect(
            content.left + content.width // 3, content.bottom - button_h, content.width * 2 // 3, button_h
        )
        rows_area = pygame.Rect(content.left, content.top, content.width, buttons.top - gap - content.top)
        shown = min(count, ROWS_SHOWN)
        block = max(10, (rows_area.height - (shown - 1) * gap) // shown)
        return content, buttons, rows_area, block, gap, row_h

    def _preview(self, felt: bool, height: int) -> pygame.Surface:
        """A swatch of the draft's felt, or a card with the draft's back, ``height`` pixels tall."""
        height = max(12, height)
        width = round(height * 1.6) if felt else max(8, round(height / 1.4))
        name = self.draft.felt if felt else self.draft.card_back
        key = ("felt" if felt else "back", name, width, height)
        return self._previews.get_or_make(
            key, lambda: felt_swatch((width, height), name) if felt else CardArt(width, back=name).back()
        )

    def scrolled_rows(self) -> list[tuple[Widget, pygame.Rect]]:
        return [(widget, row) for (_, widget), row in zip(self.rows, self.row_rects)]

    def draw_rows(self, surface: pygame.Surface) -> None:
        """Each row's label, help text (and the suit colours' preview), under its control."""
        size = max(17, round(26 * self.scale))
        for (key, widget), row in zip(self.rows, self.row_rects):
            if not row.colliderect(self.scroll.viewport):
                continue
            label = pygame.Rect(row.left, row.top, row.width - widget.rect.width - 16, widget.rect.height)
            help_rect = pygame.Rect(row.left, widget.rect.bottom + 2, row.width, row.bottom - widget.rect.bottom - 2)
            if widget is self.felt or widget is self.card_back:
                # The chosen felt or back, as tall as the row, just left of its control;
                # the label and the help text keep to its left.
                preview = self._preview(widget is self.felt, row.height - 4)
                spot = preview.get_rect(topright=(widget.rect.left - 12, row.top + 2))
                surface.blit(preview, spot)
                label.width = help_rect.width = max(1, spot.left - 8 - row.left)
            draw_text_fit(surface, t(key), label, size, theme.TEXT, align="left", bold=True)
            if widget is self.four_colour:
                # A live preview of the four suit colours beside the help text.
                side = max(10, min(help_rect.height - 2, round(size * 1.2)))
                for suit in range(4):
                    icon = pygame.Rect(row.right - (4 - suit) * (side + 4), help_rect.top + 1, side, side)
                    suit_icon(suit, self.draft.four_colour_deck)(surface, icon, theme.TEXT)
                help_rect.width -= 4 * (side + 4) + 8
            if widget is self.volume and self.sound_missing():
                draw_text_wrapped(
                    surface, t("settings.volume.no_device"), help_rect, round(size * 0.8), theme.WARNING, align="left"
                )
                continue
            draw_text_wrapped(surface, help_text(key), help_rect, round(size * 0.8), theme.TEXT_DIM, align="left")
