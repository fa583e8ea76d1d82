"""The rule editor: change any house rule of a game before it starts."""

from __future__ import annotations

# Every key of the game's ``GameDef.rule_specs`` gets a row with a widget
# that can only produce an allowed value: a switch for true/false keys, a
# cycler for choices, a stepper for whole numbers, and for the Wizard
# ``rounds`` a cycler over "full" and 1..20. Rows the player changed (relative
# to the chosen preset) are marked, and the help text of the row under the
# pointer or focus is shown at the foot.
#
# Values are checked with the engine's own ``make_rules`` (for the player
# count chosen on the start screen) after every change. Some combinations are
# forbidden (uneven bids need open bidding; a Wizard game has at most
# 60 / players rounds): the editor says so in words, and the start screen keeps
# Start disabled until it is fixed. Done keeps the changes, Cancel or Esc
# drops them, Reset goes back to the preset.
#
# The rows grow with the UI scale as far as the window is wide and scroll
# when they are then taller than the room above the help text
# (``ScrollingDialog``); the help, the status line and the buttons stay put.

import functools
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import pygame

from game.rules import get_game
from game.rules.errors import RuleConfigError
from game.rules.house_rules import RuleSpec, combination_issue, make_rules
from game.ui import theme
from game.ui.text import error_words, problem_words, t
from game.ui.widgets.button import Button
from game.ui.widgets.controls import Cycler, Stepper, Toggle
from game.ui.widgets.focus import Widget
from game.ui.widgets.geometry import split_columns, ui_scale, width_room, window_scale
from game.ui.widgets.panels import draw_message_bar
from game.ui.widgets.scroll import ScrollingDialog
from game.ui.widgets.text import draw_text_fit, draw_text_wrapped

if TYPE_CHECKING:
    from game.ui.app import App


def full_game_rounds(game: str, players: int) -> int:
    """The rounds of a full game of ``game`` (rounds "full"): one more card each
    round until the deck cannot deal another to everyone."""
    return len(get_game(game).deck) // max(1, players)


def rules_problem(game: str, values: Mapping[str, Any], players: int | None) -> str | None:
    """Why ``values`` cannot be played by ``players`` players, in words; None when fine."""
    merged = {spec.key: spec.default for spec in get_game(game).rule_specs}
    merged.update(values)
    issue = combination_issue(game, merged, players)
    if issue is not None:
        key, problem = issue
        # The two combinations the editor can reach get sentences in the editor's
        # own words (its labels, not the file's keys); any other in the file's.
        if key == "uneven_bids":
            return t("rules.problem.uneven_bids")
        if key == "rounds" and players:
            return t(
                "rules.problem.rounds",
                players=players,
                max=full_game_rounds(game, players),
                rounds=merged.get("rounds"),
            )
        return t("rules.problem.other", message=problem_words(problem))
    try:
        make_rules(game, dict(values), players, source=t("rules.source"))
    except RuleConfigError as exc:
        return t("rules.problem.other", message=error_words(exc))
    return None


def value_label(game: str, spec: RuleSpec, value: Any, players: int | None = None) -> str:
    """How a rule value of ``game`` reads on a button."""
    if spec.kind == "choice":
        return t(f"rule.{spec.key}.{value}")
    if spec.kind == "rounds":
        if value == "full":
            # Before a player count is chosen: the game's fewest players, who get the most rounds.
            return t("rules.rounds_full", count=full_game_rounds(game, players or get_game(game).min_players))
        return t("rules.rounds_one") if value == 1 else t("rules.rounds_number", count=value)
    if spec.kind == "bool":
        return t("widget.on") if value else t("widget.off")
    if spec.key == "notrump_multiplier":
        return t("rule.notrump_multiplier.value", value=value)
    return str(value)


def make_rule_widget(
    game: str, spec: RuleSpec, value: Any, on_change: Callable[[Any], None], players: int | None = None
) -> Widget:
    """The widget that edits ``spec``; it can only produce allowed values."""
    if spec.kind == "bool":
        return Toggle((0, 0, 1, 1), bool(value), on_change)
    if spec.kind == "choice":
        choices = list(spec.choices)
        return Cycler(
            (0, 0, 1, 1),
            choices,
            choices.index(value) if value in choices else 0,
            on_change,
            labels=[value_label(game, spec, c) for c in choices],
        )
    if spec.kind == "rounds":
        rounds: list[Any] = ["full", *range(spec.minimum, spec.maximum + 1)]
        return Cycler(
            (0, 0, 1, 1),
            rounds,
            rounds.index(value) if value in rounds else 0,
            on_change,
            labels=[value_label(game, spec, c, players) for c in rounds],
            wrap=False,
        )
    return Stepper(
        (0, 0, 1, 1),
        int(value),
        spec.minimum,
        spec.maximum,
        on_change,
        formatter=functools.partial(value_label, game, spec),
    )


#: The editor's width at size factor 1; only the width limits how far the UI scale grows it.
PANEL_WIDTH = 820


class RulesEditor(ScrollingDialog):
    """Edit ``game``'s rules: ``base`` are the preset's values, ``edits`` the player's
    changes on top; ``on_done(edits)`` receives the new changes."""

    # Shown over the busy start screen: dim it, and back the panel with solid
    # colour so none of the start screen's text shows through the dialog's own.
    dim_background = True
    solid_panel = True

    cancellable = True

    def __init__(
        self,
        app: App,
        game: str,
        base: Mapping[str, Any],
        edits: Mapping[str, Any],
        players: int,
        on_done: Callable[[dict[str, Any]], None],
        on_cancel: Callable[[], None] | None = None,
    ) -> None:
        super().__init__(app)
        self.game = game
        self.players = players
        self.base = {spec.key: spec.default for spec in get_game(game).rule_specs}
        self.base.update(base)
        self.edits = {k: v for k, v in edits.items() if self.base.get(k) != v}
        self.on_done = on_done
        self.on_cancel = on_cancel
        self.title = t("rules.title", game=t(get_game(game).text("title")))
        self.rows: list[tuple[RuleSpec, Widget]] = []
        self._build_rows()
        self.reset = Button((0, 0, 1, 1), t("rules.reset"), self._reset, reason=t("rules.reset_help"))
        self.cancel_button = Button((0, 0, 1, 1), t("common.cancel"), self.cancel)
        self.done_button = Button((0, 0, 1, 1), t("common.done"), self._done, kind="primary")
        self._refresh()
        self.scale = 1.0
        self.relayout()
        self.focus.focus(self.rows[0][1] if self.rows else self.done_button)

    # ------------------------------------------------------------------ values
    @property
    def values(self) -> dict[str, Any]:
        return {**self.base, **self.edits}

    @property
    def problem(self) -> str | None:
        """Why the current values cannot be played, or None (kept up to date by ``_refresh``)."""
        return self._problem

    def _build_rows(self) -> None:
        values = self.values
        self.rows = [
            (spec, make_rule_widget(self.game, spec, values[spec.key], self._setter(spec.key), self.players))
            for spec in get_game(self.game).rule_specs
        ]

    def _setter(self, key: str) -> Callable[[Any], None]:
        def set_value(value: Any) -> None:
            if self.base.get(key) == value:
                self.edits.pop(key, None)
            else:
                self.edits[key] = value
            self._refresh()

        return set_value

    def set_value(self, key: str, value: Any) -> None:
        """Change one rule as if its widget was used (also for tests and presets)."""
        self._setter(key)(value)
        self._sync_widgets()

    def _sync_widgets(self) -> None:
        values = self.values
        for spec, widget in self.rows:
            value = values[spec.key]
            if isinstance(widget, Toggle):
                widget.value = bool(value)
            elif isinstance(widget, Cycler):
                widget.index = widget.choices.index(value) if value in widget.choices else 0
            elif isinstance(widget, Stepper):
                widget.value = int(value)

    def _reset(self) -> None:
        self.edits.clear()
        self._sync_widgets()
        self._refresh()

    def _refresh(self) -> None:
        self._problem = rules_problem(self.game, self.values, self.players)
        if hasattr(self, "reset"):
            self.reset.enabled = bool(self.edits)

    def _done(self) -> None:
        self.finish(self.on_done, dict(self.edits))

    def cancel(self) -> None:
        self.finish(self.on_cancel)

    # ------------------------------------------------------------------ layout
    def layout(self, size: tuple[int, int]) -> None:
        self.scale = scale = ui_scale(size, width_room(size, PANEL_WIDTH, self._margin(size)))
        own = window_scale(size)
        # The rows as the window at its own factor squeezes them, grown by the UI scale from
        # there: taller than their room, they scroll. (The frame at the chosen factor comes
        # second: measuring places the panel, and the last one measured is the one shown.)
        usual_row_h = self._frame(size, own)[3]
        content, buttons, rows_area, row_h, gap = self._frame(size, scale)
        row_h = max(row_h, round(usual_row_h * scale / own))
        count = len(self.rows)
        rows_height = count * row_h + max(0, count - 1) * gap
        bar_w = max(6, round(8 * scale))
        if rows_height > rows_area.height:
            rows_area.width -= 2 * bar_w  # room for the scrollbar
        self.scroll.set_geometry(rows_area, rows_height, row_h, bar_w)
        self.row_rects: list[pygame.Rect] = []
        label_w = round(rows_area.width * 0.42)
        widget_w = round(rows_area.width * 0.4)
        top = rows_area.top - self.scroll.offset
        for index, (_spec, widget) in enumerate(self.rows):
            row = pygame.Rect(rows_area.left, top + index * (row_h + gap), rows_area.width, row_h)
            self.row_rects.append(row)
            if isinstance(widget, Toggle):
                toggle_w = min(widget_w, max(60, round(row_h * 2.4)))
                widget.set_rect(pygame.Rect(row.left + label_w, row.top + 2, toggle_w, row_h - 4))
            else:
                widget.set_rect(pygame.Rect(row.left + label_w, row.top, widget_w, row_h))
        columns = split_columns(
            pygame.Rect(buttons.left + buttons.width // 4, buttons.top, buttons.width * 3 // 4, buttons.height), 3, gap
        )
        for button, rect in zip((self.reset, self.cancel_button, self.done_button), columns):
            button.set_rect(rect)
        self.focus.set_widgets([w for _, w in self.rows] + [self.reset, self.cancel_button, self.done_button])

    @staticmethod
    def _margin(size: tuple[int, int]) -> int:
        return max(6, round(min(size) * 0.04))

    def _frame(self, size: tuple[int, int], scale: float) -> tuple[pygame.Rect, pygame.Rect, pygame.Rect, int, int]:
        """Place the panel, the help, the status line and the buttons at size factor ``scale``;
        the panel's content, the buttons' strip, the rows' area, a row's height (the rows
        squeezed into the area) and the gap between rows."""
        row_h = max(22, round(44 * scale))
        gap = max(4, round(8 * scale))
        wanted_h = round(130 * scale) + len(self.rows) * (row_h + gap) + round(140 * scale)
        content = self.centre_panel(size, round(PANEL_WIDTH * scale), wanted_h, self._margin(size), factor=scale)
        button_h = max(22, min(round(46 * scale), content.height // 8))
        help_h = max(30, round(64 * scale))
        status_h = max(20, round(38 * scale))
        buttons = pygame.Rect(content.left, content.bottom - button_h, content.width, button_h)
        self.status_rect = pygame.Rect(content.left, buttons.top - gap - status_h, content.width, status_h)
        self.help_rect = pygame.Rect(content.left, self.status_rect.top - gap - help_h, content.width, help_h)
        rows_area = pygame.Rect(
            content.left, content.top, content.width, max(10, self.help_rect.top - gap - content.top)
        )
        row_h = max(12, min(row_h, (rows_area.height - gap * max(0, len(self.rows) - 1)) // max(1, len(self.rows))))
        return content, buttons, rows_area, row_h, gap

    def scrolled_rows(self) -> list[tuple[Widget, pygame.Rect]]:
        return [(widget, row) for (_, widget), row in zip(self.rows, self.row_rects)]

    def reason_rect(self) -> pygame.Rect:
        return self.status_rect

    # ------------------------------------------------------------------ drawing
    def _help_spec(self) -> RuleSpec | None:
        for spec, widget in self.rows:
            if widget.hovered:
                return spec
        for spec, widget in self.rows:
            if widget.focused:
                return spec
        return None

    def draw_rows(self, surface: pygame.Surface) -> None:
        """Each rule's name beside its control, and the mark of a rule changed from the preset."""
        size = max(16, round(25 * self.scale))
        for (spec, widget), row in zip(self.rows, self.row_rects):
            if not row.colliderect(self.scroll.viewport):
                continue
            label = pygame.Rect(row.left, row.top, widget.rect.left - row.left - 12, row.height)
            draw_text_fit(surface, t(f"rule.{spec.key}.label"), label, size, theme.TEXT, align="left", bold=True)
            if spec.key in self.edits:
                mark = pygame.Rect(widget.rect.right + 10, row.top, row.right - widget.rect.right - 10, row.height)
                draw_text_fit(surface, t("rules.changed"), mark, round(size * 0.8), theme.ACCENT, align="left")

    def draw_content(self, surface: pygame.Surface) -> None:
        size = max(16, round(25 * self.scale))
        help_spec = self._help_spec()
        if help_spec is not None:
            draw_text_wrapped(
                surface,
                t(f"rule.{help_spec.key}.help"),
                self.help_rect,
                round(size * 0.9),
                theme.TEXT_DIM,
                align="left",
                valign="center",
            )
        problem = self.problem
        if not self.toast.active:
            if problem:
                draw_message_bar(surface, problem, self.status_rect, round(size * 0.85), warning=True)
            else:
                draw_text_fit(surface, t("rules.ok"), self.status_rect, round(size * 0.85), theme.GOOD)

    def draw_hint(self, surface: pygame.Surface) -> None:
        """The status line doubles as the reason strip (toasts are drawn over it live)."""
