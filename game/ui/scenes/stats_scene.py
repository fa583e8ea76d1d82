"""The statistics screen: one player's results in one game, in numbers and charts."""

from __future__ import annotations

# Opened from the start screen's "Statistics" button. It reads every
# hand-history file of the user's history folder through ``game.persistence.stats``
# (``load_stats``, with its summary cache beside the folder) and lets the
# player choose the game (one button per registered game) and the player name
# (a cycler, most games first).
#
# Left, the numbers: games played and won, average and best score, and the
# player's games set apart (undo used, unfinished; each row only for a player
# who sat in such a game); then, as the game is scored, the
# contracts declared by mode and by level (a contract game) or the bids hit
# overall and a column chart of the bid-hit rate by cards dealt (a prediction
# game). Right, three charts: the score after each deal of a chosen game (a
# stepper picks the game, newest first shown, a game with undo used among
# them and marked so in the chart's title; "Watch replay" opens it in the
# replay viewer), the bid-hit rate over the last games (prediction) or the
# contracts made by mode (contract), and the wins against each opponent level.
#
# An empty history gets a friendly sentence instead of empty charts; a file
# that cannot be read gets a clear message naming it while the games that
# could be read are still counted. Nothing here compares game names: the
# game adapter (``declares_contract``) says which figures a game has.
#
# The UI scale grows the screen as far as the numbers panel still holds its
# figures and the tables under them at their full line height (``room``); at
# a larger scale the screen grows past the window's height on a page that
# scrolls (``PagedScreen``: the wheel, Page Up / Page Down, the scrollbar at
# the right edge, the focused control kept in view), as wide as the window.
#
# Esc or Back returns to the start screen. The screen changes only in answer
# to input, so it sleeps while the player reads it (``wake_in`` from the
# dialog: only a fading message asks for frames).

import logging
import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pygame

from game.persistence.stats import (
    HUMAN,
    LoadedStats,
    PlayerStats,
    StatsBook,
    load_stats,
    stats_cache_path,
    summary_players,
    summary_rounds,
)
from game.rules import all_games, get_game
from game.rules.problems import Problem
from game.ui import theme
from game.ui.art.table_art import draw_felt
from game.ui.text import decimal_words, has_text, percent_words, problem_words, t, team_words
from game.ui.widgets.button import Button
from game.ui.widgets.charts import (
    SERIES_COLOURS,
    Bar,
    ChartGeometry,
    draw_bar_chart,
    draw_column_chart,
    draw_legend,
    draw_line_chart,
)
from game.ui.widgets.controls import Cycler, Stepper
from game.ui.widgets.focus import Widget
from game.ui.widgets.geometry import measured_room, split_columns, ui_scale, window_scale
from game.ui.widgets.page import PagedScreen
from game.ui.widgets.panels import draw_message_bar, draw_panel, panel_content
from game.ui.widgets.text import draw_text_fit, draw_text_wrapped

if TYPE_CHECKING:
    from game.ui.app import App

log = logging.getLogger("tricktable.stats")

#: The bid-hit chart shows this many of the player's latest games.
RECENT_GAMES = 30
#: The most figures the numbers panel lists (games, won, average, best, undo, unfinished, bids hit).
NUMBER_LINES = 7
#: The rows of the contract tables under them: two headings, three modes, six levels.
TABLE_LINES = 11
#: Levels in the order the bars list them, weakest opponent first.
LEVEL_ORDER = ("easy", "medium", "hard", "expert", HUMAN)


def percent(share: float | None) -> str:
    return t("stats.none") if share is None else percent_words(round(share * 100))


def level_label(level: str) -> str:
    """A seat's level in words: "Human", "Hard"; a level this version does not know (from a newer
    version's history) keeps the name it was saved under."""
    if level == HUMAN:
        return t("start.human")
    return t(f"level.{level}") if has_text(f"level.{level}") else level


def load_user_stats(app: App) -> LoadedStats:
    """The statistics of the user's history folder (never raises for a bad file)."""
    paths = app.user_paths
    try:
        return load_stats(paths.histories_dir, stats_cache_path(paths.data_dir))
    except OSError as exc:  # the folder itself cannot be listed
        log.warning("could not read the history folder: %s", exc)
        loaded = LoadedStats(StatsBook())
        # The folder as written and the operating system's own words for why (its strerror).
        loaded.problems.append(
            Problem("stats.folder_unreadable", {"source": str(paths.histories_dir), "reason": exc.strerror or str(exc)})
        )
        return loaded


class StatsScene(PagedScreen):
    """The statistics screen (see the module docstring)."""

    opaque = True
    modal = True
    cancellable = True

    def __init__(self, app: App, loaded: LoadedStats | None = None) -> None:
        super().__init__(app)
        self.loaded = loaded if loaded is not None else load_user_stats(app)
        self.book = self.loaded.book
        played = self.book.games_played()
        self.games = [game.name for game in all_games()]
        self.game = next((name for name in self.games if name in played), self.games[0])
        self.player = ""
        self.chosen = 0  # index into the player's games of the game whose rounds are charted
        self.geometry: dict[str, ChartGeometry] = {}
        self.game_buttons = {
            name: Button(
                (0, 0, 1, 1), t(get_game(name).text("title")), self._game_setter(name), selected=name == self.game
            )
            for name in self.games
        }
        self.player_cycler = Cycler((0, 0, 1, 1), [""], 0, self.set_player)
        self.game_stepper = Stepper((0, 0, 1, 1), 1, 1, 1, self._choose_game, formatter=self._game_label)
        self.back_button = Button((0, 0, 1, 1), t("stats.back"), self.cancel, hotkey=pygame.K_BACKSPACE)
        self.replay_button = Button((0, 0, 1, 1), t("stats.replay"), self.open_replay, kind="primary")
        self.set_game(self.game)

    # ------------------------------------------------------------------ state
    @property
    def stats(self) -> PlayerStats | None:
        return self.book.get(self.game, self.player) if self.player else None

    def _game_setter(self, game: str) -> Callable[[], None]:
        return lambda: self.set_game(game)

    def set_game(self, game: str) -> None:
        self.game = game
        for name, button in self.game_buttons.items():
            button.selected = name == game
        names = self.book.names(game)
        # A human's name first: the person at the screen is the one most likely looking.
        humans = [name for name in names if self._is_human(game, name)]
        ordered = humans + [name for name in names if name not in humans]
        self.player_cycler.choices = ordered or [""]
        self.player_cycler.labels = ordered or [t("stats.none")]
        self.player_cycler.index = 0
        self.player_cycler.enabled = len(ordered) > 1
        self.set_player(ordered[0] if ordered else "")

    def _is_human(self, game: str, name: str) -> bool:
        stats = self.book.get(game, name)
        return stats is not None and any(
            summary_players(summary)[seat][1] == HUMAN for summary, seat in zip(stats.summaries, stats.seats)
        )

    def set_player(self, name: str) -> None:
        self.player = name
        stats = self.stats
        count = len(stats.summaries) if stats else 0
        self.chosen = max(0, count - 1)
        self.game_stepper.minimum, self.game_stepper.maximum = 1, max(1, count)
        self.game_stepper.value = self.chosen + 1
        self.game_stepper.enabled = count > 1
        self.game_stepper.visible = count > 0  # no game to choose: no chooser over the message
        self.replay_button.enabled = count > 0
        self.replay_button.reason = None if count else t("stats.replay_none")
        self.invalidate()

    def _choose_game(self, number: int) -> None:
        self.chosen = number - 1
        self.invalidate()

    def _game_label(self, number: int) -> str:
        stats = self.stats
        return t("stats.chosen_game", number=number, count=len(stats.summaries) if stats else 0)

    def chosen_summary(self) -> dict[str, Any] | None:
        stats = self.stats
        if not stats or not stats.summaries:
            return None
        return stats.summaries[max(0, min(self.chosen, len(stats.summaries) - 1))]

    def open_replay(self) -> None:
        summary = self.chosen_summary()
        if summary is None:
            return
        from game.ui.scenes.replay_scene import ReplayScene

        scene = ReplayScene.from_file(self.app, summary["source"], summary["index"])
        if isinstance(scene, str):
            self.show_reason(scene)
            return
        self.app.push(scene)

    def cancel(self) -> None:
        self.close()

    def close(self) -> None:
        if len(getattr(self.app, "scenes", [])) > 1:
            self.app.pop(self)
        else:  # opened on its own: there is nothing under it to go back to
            self.app.show_start()

    # ------------------------------------------------------------------ layout
    def layout(self, size: tuple[int, int]) -> None:
        scale = self.page_layout(size, lambda: self.room(size), self._holds)
        self._place(self.page_size, scale)
        self.place_scrollbar(size, self.margin, scale)

    def room(self, size: tuple[int, int]) -> float:
        """The largest size factor (up to the player's choice) at which this screen still fits:
        the numbers panel holds its figures (seven lines at most) and, under them, the
        contracts' eleven table rows at their full height, as its own drawing sets them
        (lines 1.25 of the type, table rows 1.25 of its 0.9 small type)."""
        own = window_scale(size)
        if ui_scale(size, math.inf) <= own:
            return own  # at 100% there is nothing to measure

        return measured_room(size, lambda scale: self._holds(size, scale))

    def _holds(self, size: tuple[int, int], scale: float) -> bool:
        """Whether the numbers panel laid out at ``scale`` on ``size`` holds its figures and tables."""
        self._place(size, scale)
        text = max(15, round(22 * scale))
        needed = (NUMBER_LINES + 1 / 3) * round(text * 1.25) + TABLE_LINES * round(round(text * 0.9) * 1.25)
        return panel_content(self.numbers_panel, True, scale).inflate(-8, -4).height >= needed

    def _place(self, size: tuple[int, int], scale: float) -> None:
        """Lay the screen out at size factor ``scale``."""
        width, height = size
        across = self.across(scale)
        self.margin = margin = max(8, round(20 * across))
        gap = max(6, round(10 * across))
        self.scale = scale
        self.panel_rect = pygame.Rect(0, 0, width, height)
        top_h = max(30, round(46 * scale))
        self.title_rect = pygame.Rect(margin, margin // 2, round(width * 0.25), top_h)
        controls = pygame.Rect(
            self.title_rect.right + gap, margin // 2, width - margin - self.title_rect.right - gap, top_h
        )
        games_area, player_area = split_columns(controls, 2, gap)
        for button, rect in zip(self.game_buttons.values(), split_columns(games_area, len(self.games), gap // 2)):
            button.set_rect(rect)
        label_w = round(player_area.width * 0.3)
        self.player_label = pygame.Rect(player_area.left, player_area.top, label_w, top_h)
        self.player_cycler.set_rect(
            pygame.Rect(
                player_area.left + label_w,
                player_area.top + top_h // 8,
                player_area.width - label_w,
                top_h - top_h // 4,
            )
        )
        foot_h = max(28, round(44 * scale))
        foot = pygame.Rect(margin, height - margin // 2 - foot_h, width - 2 * margin, foot_h)
        button_w = max(110, round(180 * scale))
        self.back_button.set_rect(pygame.Rect(foot.left, foot.top, button_w, foot_h))
        self.replay_button.set_rect(pygame.Rect(foot.right - button_w, foot.top, button_w, foot_h))
        self.message_rect = pygame.Rect(
            self.back_button.rect.right + gap,
            foot.top,
            max(1, self.replay_button.rect.left - self.back_button.rect.right - 2 * gap),
            foot_h,
        )
        body_top = self.title_rect.bottom + gap
        problems = self.loaded.problems
        self.problem_rect = pygame.Rect(0, 0, 0, 0)
        if problems and self.book.finished_games:
            self.problem_rect = pygame.Rect(margin, body_top, width - 2 * margin, max(24, round(34 * scale)))
            body_top = self.problem_rect.bottom + gap
        body = pygame.Rect(margin, body_top, width - 2 * margin, max(60, foot.top - gap - body_top))
        self.body_rect = body
        left_w = round(body.width * 0.38)
        self.numbers_panel = pygame.Rect(body.left, body.top, left_w, body.height)
        self.charts_panel = pygame.Rect(body.left + left_w + gap, body.top, body.width - left_w - gap, body.height)
        charts = panel_content(self.charts_panel, False)
        stepper_h = max(22, round(32 * scale))
        chart_gap = max(6, round(12 * scale))
        first_h = round((charts.height - stepper_h - 2 * chart_gap) * 0.40)
        rest_h = (charts.height - stepper_h - 2 * chart_gap - first_h) // 2
        self.stepper_row = pygame.Rect(charts.left, charts.top, charts.width, stepper_h)
        self.game_stepper.set_rect(
            pygame.Rect(
                charts.right - min(charts.width // 2, round(240 * across)),
                charts.top,
                min(charts.width // 2, round(240 * across)),
                stepper_h,
            )
        )
        self.legend_rect = pygame.Rect(
            charts.left, charts.top, self.game_stepper.rect.left - charts.left - gap, stepper_h
        )
        self.chart_rects = {
            "rounds": pygame.Rect(charts.left, self.stepper_row.bottom + 2, charts.width, first_h),
            "recent": pygame.Rect(charts.left, self.stepper_row.bottom + 2 + first_h + chart_gap, charts.width, rest_h),
            "levels": pygame.Rect(
                charts.left, self.stepper_row.bottom + 2 + first_h + 2 * chart_gap + rest_h, charts.width, rest_h
            ),
        }
        widgets: list[Widget] = [
            *self.game_buttons.values(),
            self.player_cycler,
            self.game_stepper,
            self.back_button,
            self.replay_button,
        ]
        self.focus.set_widgets(widgets)

    def reason_rect(self) -> pygame.Rect:
        return self.message_rect

    # ------------------------------------------------------------------ drawing
    def draw_live(self, surface: pygame.Surface) -> None:
        if self.toast.active:
            self.toast.draw(surface, self.in_window(self.message_rect), max(13, round(18 * self.scale)))

    def draw_page(self, surface: pygame.Surface) -> None:
        """The whole screen, on the window or on a page taller than it."""
        surface.blit(draw_felt(surface.get_size()), (0, 0))
        scale = self.scale
        size = max(15, round(22 * scale))
        draw_text_fit(
            surface, t("stats.title"), self.title_rect, round(40 * scale), theme.PANEL_TITLE, align="left", bold=True
        )
        draw_text_fit(surface, t("stats.player"), self.player_label, size, theme.TEXT, align="left", bold=True)
        if not self.toast.active:
            draw_text_fit(surface, t("stats.keys"), self.message_rect, max(13, round(17 * scale)), theme.TEXT_DIM)
        self.geometry = {}
        self._draw_body(surface, size)
        self.focus.draw(surface)

    def body_message(self) -> tuple[str, bool] | None:
        """The sentence shown instead of any statistics, and whether it is a warning:
        a friendly word for an empty history, the problem when nothing could be read."""
        if self.book.finished_games:
            return None
        problems = self.loaded.problems
        if problems:
            return t("stats.broken_all", problem=problem_words(problems[0])), True
        return t("stats.empty"), False

    def problem_message(self) -> str | None:
        """The warning above the statistics when part of the history could not be read."""
        problems = self.loaded.problems
        if not problems or not self.book.finished_games:
            return None
        first = problem_words(problems[0])
        if len(problems) == 1:
            return t("stats.broken", problem=first)
        return t("stats.broken_more", problem=first, count=len(problems) - 1)

    def _draw_body(self, surface: pygame.Surface, size: int) -> None:
        scale = self.scale
        game_def = get_game(self.game)
        message = self.body_message()
        if message is not None:
            text, warning = message
            draw_panel(surface, self.body_rect, None)
            inner = self.body_rect.inflate(-round(60 * scale), -round(60 * scale))
            if warning:
                draw_message_bar(
                    surface,
                    text,
                    pygame.Rect(inner.left, inner.centery - round(50 * scale), inner.width, round(100 * scale)),
                    size,
                    warning=True,
                )
            else:
                draw_text_wrapped(surface, text, inner, round(28 * scale), theme.TEXT, align="center", valign="center")
            return
        problem = self.problem_message()
        if problem:
            draw_message_bar(surface, problem, self.problem_rect, max(13, round(17 * scale)), warning=True)
        stats = self.stats
        title = t("stats.numbers", name=self.player, game=t(game_def.text("title"))) if stats else t("stats.title")
        draw_panel(surface, self.numbers_panel, title, factor=self.scale)
        draw_panel(surface, self.charts_panel, None)
        if stats is None:
            draw_text_wrapped(
                surface,
                t("stats.empty_game", game=t(game_def.text("title"))),
                panel_content(self.numbers_panel, True, self.scale).inflate(-12, -12),
                size,
                theme.TEXT,
                valign="center",
            )
            return
        self._draw_numbers(surface, stats, size)
        self._draw_charts(surface, stats, size)

    # ------------------------------------------------------------------ numbers
    def number_rows(self, stats: PlayerStats) -> list[tuple[str, str]]:
        """The figures of the numbers panel, label and value: the games set apart
        only when this player sat in any."""
        rows: list[tuple[str, str]] = [
            (t("stats.games"), str(stats.games)),
            (t("stats.won"), t("stats.won_value", wins=stats.wins, rate=percent(stats.win_rate))),
            (t("stats.average"), t("stats.none") if stats.average is None else decimal_words(stats.average, 1)),
            (t("stats.best"), t("stats.none") if stats.best is None else str(stats.best)),
        ]
        if stats.undo_games:
            rows.append((t("stats.undo"), str(stats.undo_games)))
        unfinished = self.book.unfinished_of(self.game, stats.name)
        if unfinished:
            rows.append((t("stats.unfinished"), str(unfinished)))
        if not get_game(self.game).adapter.declares_contract:
            hit, made = stats.hits
            rows.append(
                (t("stats.hits"), t("stats.hits_value", hit=hit, made=made, rate=percent(hit / made if made else None)))
            )
        return rows

    def _draw_numbers(self, surface: pygame.Surface, stats: PlayerStats, size: int) -> None:
        content = panel_content(self.numbers_panel, True, self.scale).inflate(-8, -4)
        row_h = max(16, round(size * 1.25))
        rows = self.number_rows(stats)
        game_def = get_game(self.game)
        top = content.top
        for label, value in rows:
            line = pygame.Rect(content.left, top, content.width, row_h)
            draw_text_fit(
                surface,
                label,
                pygame.Rect(line.left, line.top, round(line.width * 0.6), row_h),
                size,
                theme.TEXT_DIM,
                align="left",
            )
            draw_text_fit(
                surface,
                value,
                pygame.Rect(line.left + round(line.width * 0.6), line.top, round(line.width * 0.4), row_h),
                size,
                theme.TEXT,
                align="right",
                bold=True,
            )
            top += row_h
        rest = pygame.Rect(content.left, top + row_h // 3, content.width, max(1, content.bottom - top - row_h // 3))
        if game_def.adapter.declares_contract:
            self._draw_contract_tables(surface, stats, rest, size)
        else:
            by_size = sorted(stats.hit_by_size.items())
            bars = [
                Bar(
                    str(cards),
                    hit / made if made else 0.0,
                    SERIES_COLOURS[0],
                    t("stats.chart.made_of", made=hit, bid=made),
                )
                for cards, (hit, made) in by_size
            ]
            self.geometry["sizes"] = draw_column_chart(
                surface, rest, t("stats.hits_by_size"), bars, 1.0, size, t("stats.chart.hit_rate_empty")
            )

    def _draw_contract_tables(self, surface: pygame.Surface, stats: PlayerStats, rect: pygame.Rect, size: int) -> None:
        small = max(12, round(size * 0.9))
        row_h = max(14, min(round(small * 1.25), rect.height // 11))
        top = rect.top
        if not stats.contracts:
            draw_text_fit(
                surface,
                t("stats.no_contracts"),
                pygame.Rect(rect.left, top, rect.width, row_h),
                small,
                theme.TEXT_DIM,
                align="left",
            )
            return
        modes = stats.contract_totals("mode")
        levels = stats.contract_totals("level")
        mode_rows = [
            (t(f"mode.{index}"), modes[key])
            for index, key in enumerate(("uptown", "downtown", "notrump"))
            if key in modes
        ]
        order = [key for key in LEVEL_ORDER if key in levels] + sorted(set(levels) - set(LEVEL_ORDER))
        level_rows = [(level_label(key), levels[key]) for key in order]

        def cells_of(top: int) -> list[pygame.Rect]:
            """A row: the label wide, then three narrow columns of numbers."""
            label_w = round(rect.width * 0.52)
            numbers = split_columns(pygame.Rect(rect.left + label_w, top, rect.width - label_w, row_h), 3, 4)
            return [pygame.Rect(rect.left, top, label_w - 4, row_h), *numbers]

        for heading, rows in ((t("stats.contracts_mode"), mode_rows), (t("stats.contracts_level"), level_rows)):
            cells = cells_of(top)
            draw_text_fit(surface, heading, cells[0], small, theme.ACCENT, align="left", bold=True)
            for cell, key in zip(cells[1:], ("stats.col.bid", "stats.col.made", "stats.col.set")):
                draw_text_fit(surface, t(key), cell, small, theme.ACCENT, align="right", bold=True)
            top += row_h
            for label, (bid, made, set_) in rows:
                cells = cells_of(top)
                draw_text_fit(surface, label, cells[0], small, theme.TEXT, align="left")
                for cell, value, colour in zip(cells[1:], (bid, made, set_), (theme.TEXT, theme.GOOD, theme.BAD)):
                    draw_text_fit(surface, str(value), cell, small, colour, align="right", bold=True)
                top += row_h
            top += row_h // 2

    # ------------------------------------------------------------------ charts
    def _side_names(self, summary: dict[str, Any]) -> list[str]:
        game_def = get_game(summary["game"])
        players = summary_players(summary)
        sides = game_def.score_sides(len(players))
        return [
            team_words([players[seat][0] for seat in game_def.team_members(side, len(players))])
            for side in range(sides)
        ]

    def _draw_charts(self, surface: pygame.Surface, stats: PlayerStats, size: int) -> None:
        game_def = get_game(self.game)
        deal_word = t(game_def.text("deal") + ".sentence")
        summary = self.chosen_summary()
        small = max(12, round(size * 0.85))
        if summary is not None:
            rounds = summary_rounds(summary)
            sides = len(rounds[0]) if rounds else 0
            series = [[float(scores[side]) for scores in rounds] for side in range(sides)]
            names = self._side_names(summary)
            colours = [SERIES_COLOURS[side % len(SERIES_COLOURS)] for side in range(sides)]
            draw_legend(surface, self.legend_rect, list(zip(names, colours)), small)
            # A game with undo used is one of the player's games, but none of the figures counts it: say so.
            title_key = "stats.chart.rounds_undo" if summary["undo"] else "stats.chart.rounds"
            self.geometry["rounds"] = draw_line_chart(
                surface,
                self.chart_rects["rounds"],
                t(title_key, deal=deal_word, number=self.chosen + 1),
                series,
                colours,
                size,
                t("stats.chart.rounds_empty", deal=deal_word),
                x_labels=(f"{t(game_def.text('deal'))} 1", f"{len(rounds)}" if len(rounds) > 1 else ""),
            )
        if not game_def.adapter.declares_contract:
            rates = stats.recent_hit_rates(RECENT_GAMES)
            # With no bids yet the title names the span the chart will cover, not "last 0 games".
            self.geometry["recent"] = draw_line_chart(
                surface,
                self.chart_rects["recent"],
                t("stats.chart.hit_rate", count=len(rates) or RECENT_GAMES),
                [rates],
                [SERIES_COLOURS[0]],
                size,
                t("stats.chart.hit_rate_empty"),
                y_format=lambda v: percent_words(round(v * 100)),
                y_range=(0.0, 1.0),
                x_labels=(t("stats.chart.first"), t("stats.chart.last")),
            )
        else:
            modes = stats.contract_totals("mode")
            bars = [
                Bar(
                    t(f"mode.{index}"),
                    made / bid if bid else 0.0,
                    theme.GOOD,
                    t("stats.chart.made_of", made=made, bid=bid),
                )
                for index, key in enumerate(("uptown", "downtown", "notrump"))
                if key in modes
                for bid, made, _ in (modes[key],)
            ]
            self.geometry["recent"] = draw_bar_chart(
                surface,
                self.chart_rects["recent"],
                t("stats.chart.contracts"),
                bars,
                1.0,
                size,
                t("stats.chart.contracts_empty"),
            )
        against = stats.against
        order = [level for level in LEVEL_ORDER if level in against] + sorted(set(against) - set(LEVEL_ORDER))
        bars = [
            Bar(
                level_label(level),
                against[level][1] / against[level][0] if against[level][0] else 0.0,
                SERIES_COLOURS[1],
                t("stats.chart.won_of", wins=against[level][1], games=against[level][0]),
            )
            for level in order
        ]
        self.geometry["levels"] = draw_bar_chart(
            surface, self.chart_rects["levels"], t("stats.chart.levels"), bars, 1.0, size, t("stats.chart.levels_empty")
        )
