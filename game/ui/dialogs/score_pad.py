"""The score pad: every scored hand of the game so far, from the hand history."""

from __future__ import annotations

# It reads the session's ``ScoreHistory`` (``game.session.scores``, built from
# the hand history), so it shows exactly what was recorded, and asks the
# registry what the recorded game is (``get_game(history.game)``). A game
# where everyone predicts their tricks (Wizard) gets a row per round with each
# player's bid, tricks taken, points won or lost and running total (made bids
# green, missed bids red); a contract game (Bid Whist) a row per hand with the
# dealer, the declarer, the contract, the books of each team, the change and
# the teams' totals (a contract the dealer took rather than won in the bidding
# is marked "taken", and a Boston, all 13 books to the bidding team under a
# house rule that plays one, is named). A deal still being played shows as a dim last row
# without any of its bids, so hidden bids stay hidden.
#
# The rows are drawn once into a cached image and scrolled (wheel, arrows,
# Page Up/Down, Home/End); the pad opens at the latest hand. Esc, the close
# button or a click outside the panel close it and call ``on_close``. Between
# hands the table passes the catalogue key of the game's "next deal" words as
# ``close_key`` ("Next hand", "Next round") so the same button deals on. Then only that button (or
# Enter on it) deals: Esc and a click outside just put the pad away, as they
# do everywhere else, and the table waits with "press Space or click to deal
# the next hand", so a player who presses Esc to get back to the table never
# deals by accident. Given ``on_review`` (the table passes it between hands when
# one person plays against the computers), a "Review hands" button (or R) beside
# it turns every hand of the deal just finished face up
# (``game.ui.dialogs.hands_review``).

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import pygame

from game.rules import GameDef, get_game
from game.session.scores import ContractLine, DealScore, ScoreHistory
from game.ui import theme
from game.ui.text import direction_word, mode_word, suit_word, t, team_words
from game.ui.widgets.button import Button
from game.ui.widgets.dialog import DialogScene
from game.ui.widgets.geometry import composition_room, ui_scale
from game.ui.widgets.text import MIN_TEXT_SIZE, draw_text_fit, draw_text_wrapped, fit_size, text_size

if TYPE_CHECKING:
    from game.ui.app import App

SUIT_LETTERS = "SHDC"


@dataclass
class Cell:
    text: str
    colour: tuple[int, int, int] = theme.TEXT
    bold: bool = False


@dataclass
class Column:
    header: str
    weight: float
    group: str = ""  # a spanning header above (the player's name)
    align: str = "center"


@dataclass
class Row:
    cells: list[Cell]
    dim: bool = False
    note: str | None = None  # a whole-row message (redeal, in progress)
    extra: dict[str, list[int]] = field(default_factory=dict)


def team_name(game: GameDef, seat_names: Sequence[str], team: int) -> str:
    """A team by its players' names: "Ada & Cleo"."""
    return team_words([_name(seat_names, seat) for seat in game.team_members(team, len(seat_names))])


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def _name(seat_names: Sequence[str], seat: object) -> str:
    if isinstance(seat, int) and 0 <= seat < len(seat_names):
        return seat_names[seat]
    return "–"


def prediction_table(game: GameDef, history: ScoreHistory, seat_names: Sequence[str]) -> tuple[list[Column], list[Row]]:
    players = history.players or len(seat_names)
    columns = [Column(t("pad.round"), 0.7)]
    for seat in range(players):
        group = _name(seat_names, seat)
        columns += [
            Column(t("pad.bid"), 0.8, group),
            Column(t("pad.took"), 0.8, group),
            Column(t("pad.points"), 1.0, group),
            Column(t("pad.total"), 1.1, group),
        ]
    rows: list[Row] = []
    for deal in history.deals:
        number = deal.number
        if not deal.scored:
            rows.append(Row([Cell(str(number))], dim=True, note=t("pad.in_progress")))
            continue
        bids = deal.bids or {}
        cells = [Cell(str(number), theme.TEXT_DIM)]
        for seat in range(players):
            bid = bids.get(seat)
            took = deal.tricks_won[seat] if seat < len(deal.tricks_won) else None
            made = bid is not None and bid == took
            change = deal.score_change[seat]
            cells += [
                Cell("–" if bid is None else str(bid)),
                Cell("–" if took is None else str(took)),
                Cell(_signed(change), theme.GOOD if made else theme.BAD),
                Cell(str(deal.scores[seat]), theme.TEXT, bold=True),
            ]
        rows.append(Row(cells))
    return columns, rows


def contract_words(contract: ContractLine | None) -> str:
    if not contract:
        return "–"
    books = contract.books
    if contract.mode == "notrump":
        direction = direction_word(0 if contract.direction == "uptown" else 1)
        return t("pad.contract_nt", books=books, direction=direction)
    mode = mode_word(0 if contract.mode == "uptown" else 1)
    trump = contract.trump
    suit = suit_word(SUIT_LETTERS.index(trump)) if trump in tuple(SUIT_LETTERS) else ""
    return t("pad.contract_trump", books=books, mode=mode, suit=suit).strip()


def contract_table(game: GameDef, history: ScoreHistory, seat_names: Sequence[str]) -> tuple[list[Column], list[Row]]:
    teams = [team_name(game, seat_names, team) for team in range(game.score_sides(len(seat_names)))]
    columns = [
        Column(t("pad.hand"), 0.5),
        Column(t("pad.dealer"), 1.3),
        Column(t("pad.declarer"), 1.3),
        Column(t("pad.contract"), 2.0),
        Column(t("pad.books"), 1.4),
        Column(t("pad.change"), 1.1),
    ]
    columns += [Column(name, 1.6) for name in teams]
    rows: list[Row] = []
    for deal in history.deals:
        number = str(deal.number)
        dealer = _name(seat_names, deal.dealer)
        if not deal.scored:
            rows.append(Row([Cell(number), Cell(dealer, theme.TEXT_DIM)], dim=True, note=t("pad.in_progress")))
            continue
        if deal.redeal:
            scores = list(deal.scores)
            rows.append(
                Row([Cell(number), Cell(dealer, theme.TEXT_DIM)], note=t("pad.redeal"), extra={"totals": scores})
            )
            continue
        declarer = deal.declarer
        bidding_team = game.team_of(declarer) if isinstance(declarer, int) else -1
        books = deal.books or (0,) * len(teams)
        change = deal.score_change or (0,) * len(teams)
        moved = change[bidding_team] if bidding_team >= 0 else 0
        team_colour = theme.TEAM_COLOURS[bidding_team] if bidding_team >= 0 else theme.TEXT
        rows.append(
            Row(
                [
                    Cell(number, theme.TEXT_DIM),
                    Cell(dealer, theme.TEXT_DIM),
                    Cell(_name(seat_names, declarer), team_colour),
                    Cell(_contract_cell(deal)),
                    _declarers_books(game, books, bidding_team, deal.contract, deal.boston),
                    Cell(_signed(moved), team_colour),  # the declaring team's change, in that team's colour
                    *(Cell(str(score), theme.TEAM_COLOURS[team], bold=True) for team, score in enumerate(deal.scores)),
                ]
            )
        )
    return columns, rows


def _contract_cell(deal: DealScore) -> str:
    """The hand's contract in words, marked when the dealer took it rather than winning the bidding."""
    words = contract_words(deal.contract)
    return t("pad.contract_taken", contract=words) if deal.taken else words


def _declarers_books(
    game: GameDef, books: Sequence[int], team: int, contract: ContractLine | None, boston: bool
) -> Cell:
    """The declaring team's books against the books its contract needed, in that team's
    colour, so the count says whose it is ("10 of 9 needed"); a Boston is named."""
    if team < 0 or not contract:
        return Cell(" – ".join(str(b) for b in books))
    if boston:
        return Cell(t("pad.boston", books=books[team]), theme.TEAM_COLOURS[team], bold=True)
    need = game.adapter.contract_targets(contract.books).needed
    return Cell(t("pad.books_needed", books=books[team], need=need), theme.TEAM_COLOURS[team])


def score_table(game: GameDef, history: ScoreHistory, seat_names: Sequence[str]) -> tuple[list[Column], list[Row]]:
    """The pad's columns and rows: a row per hand of a game where one side
    declares a contract, else a row per round of everyone's predictions."""
    build = contract_table if game.adapter.declares_contract else prediction_table
    return build(game, history, seat_names)


class ScorePad(DialogScene):
    """The score pad over the table; ``on_close`` is called when it closes."""

    cancellable = True
    # Its rows must read cleanly over anything, the end screen's headline included,
    # and the table's plates behind it recede instead of peeking out at its edges.
    solid_panel = True
    dim_background = True

    def __init__(
        self,
        app: App,
        history: ScoreHistory,
        seat_names: Sequence[str],
        on_close: Callable[[], None] | None = None,
        close_key: str | None = None,
        result: tuple[str, tuple[int, int, int]] | None = None,
        on_review: Callable[[], None] | None = None,
    ) -> None:
        super().__init__(app)
        # The hand just finished, in words and its side's colour, shown at the pad's foot.
        self.result = result
        self.history = history
        self.seat_names = list(seat_names)
        self.on_close = on_close
        # The close button does more than close (deals the next hand): Esc must not.
        self.close_acts = close_key is not None
        self.close_key = close_key or "common.close"
        self.title = t("pad.title")
        self.game = get_game(history.game)
        self.columns, self.rows = score_table(self.game, history, self.seat_names)
        self.close_button = Button((0, 0, 1, 1), t(self.close_key), self.cancel, kind="primary")
        self.review_button = Button((0, 0, 1, 1), t("pad.review"), on_review, hotkey="r")
        self.review_button.visible = on_review is not None
        self.scroll = 0
        self._body: pygame.Surface | None = None
        self._stick_to_end = True
        self.relayout()
        self.focus.focus(self.close_button)

    def on_settings_changed(self) -> None:
        # The language may have changed: word the headings, cells and button again.
        self.title = t("pad.title")
        self.columns, self.rows = score_table(self.game, self.history, self.seat_names)
        self.close_button.label = t(self.close_key)
        self.review_button.label = t("pad.review")
        self._body = None
        self.relayout()

    def cancel(self) -> None:
        self.finish(self.on_close)

    def dismiss(self) -> None:
        """Esc or a click outside: close; ``on_close`` runs only when it merely follows the closing."""
        self.finish(None if self.close_acts else self.on_close)

    # ------------------------------------------------------------------ layout
    def layout(self, size: tuple[int, int]) -> None:
        width, height = size
        margin = max(6, round(min(width, height) * 0.04))
        # More than four players' column groups need the wider panel.
        wide = len({column.group for column in self.columns if column.group}) > 4
        # The rows scroll, so the UI scale grows the pad as far as it fits across the window
        # with its heading, its foot and four rows in view.
        room = composition_room((width - 2 * margin, height - 2 * margin), (1180 if wide else 980, 190 + 7 * 30))
        scale = ui_scale(size, room)
        row_h = max(18, round(30 * scale))
        # As tall as the rows need (with room for a few more), never taller than the window.
        wanted = round(190 * scale) + (max(4, len(self.rows)) + 3) * row_h
        content = self.centre_panel(size, round((1180 if wide else 980) * scale), wanted, margin, factor=scale)
        gap = max(4, round(8 * scale))
        foot_h = max(24, min(round(48 * scale), content.height // 6))
        button_w = min(content.width, max(120, round(200 * scale)))
        self.close_button.set_rect(pygame.Rect(content.right - button_w, content.bottom - foot_h, button_w, foot_h))
        foot_buttons_w = button_w
        if self.review_button.visible:
            self.review_button.set_rect(self.close_button.rect.move(-(button_w + gap), 0))
            foot_buttons_w += button_w + gap
        self.row_h = row_h
        total = sum(c.weight for c in self.columns)
        self.column_x: list[tuple[int, int]] = []
        x = float(content.left)
        for column in self.columns:
            column_w = content.width * column.weight / total
            self.column_x.append((round(x), round(column_w)))
            x += column_w
        grouped = any(c.group for c in self.columns)
        # A heading too long for its column even at the smallest size (a team
        # of two long names) wraps onto a second header line.
        self.wrapped_header = not grouped and any(
            text_size(column.header, MIN_TEXT_SIZE, True)[0] > self._cell_rect(index, 0, 1).width
            for index, column in enumerate(self.columns)
        )
        self.header_h = self.row_h * (2 if grouped or self.wrapped_header else 1) + gap // 2
        self.header_rect = pygame.Rect(content.left, content.top, content.width, self.header_h)
        self.body_rect = pygame.Rect(
            content.left,
            self.header_rect.bottom,
            content.width,
            max(self.row_h, content.bottom - foot_h - gap - self.header_rect.bottom),
        )
        self.hint_rect = pygame.Rect(
            content.left, content.bottom - foot_h, content.width - foot_buttons_w - gap, foot_h
        )
        self._body = None
        self.focus.set_widgets([self.review_button, self.close_button])
        if self._stick_to_end:
            self.scroll = self.max_scroll

    @property
    def max_scroll(self) -> int:
        return max(0, len(self.rows) * self.row_h - self.body_rect.height)

    def reason_rect(self) -> pygame.Rect:
        return self.hint_rect

    # ------------------------------------------------------------------ input
    def scroll_by(self, pixels: int) -> None:
        self.scroll = max(0, min(self.max_scroll, self.scroll + pixels))
        self._stick_to_end = self.scroll >= self.max_scroll

    def handle_extra_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.dismiss()
            return True
        if event.type == pygame.MOUSEWHEEL:
            self.scroll_by(-event.y * self.row_h * 2)
            return True
        if event.type == pygame.KEYDOWN:
            page = max(self.row_h, self.body_rect.height - self.row_h)
            moves = {
                pygame.K_UP: -self.row_h,
                pygame.K_DOWN: self.row_h,
                pygame.K_PAGEUP: -page,
                pygame.K_PAGEDOWN: page,
                pygame.K_HOME: -(10**9),
                pygame.K_END: 10**9,
            }
            if event.key in moves:
                self.scroll_by(moves[event.key])
                return True
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if not self.panel_rect.collidepoint(event.pos):
                self.dismiss()
                return True
        return False

    # ------------------------------------------------------------------ drawing
    def _cell_rect(self, index: int, top: int, height: int) -> pygame.Rect:
        x, w = self.column_x[index]
        return pygame.Rect(x + 3, top, max(1, w - 6), height)

    def _render_body(self) -> pygame.Surface:
        height = max(1, len(self.rows) * self.row_h)
        body = pygame.Surface((self.body_rect.width, height), pygame.SRCALPHA)
        size = round(self.row_h * 0.68)
        offset = self.body_rect.left
        # One size per column, the one its longest entry fits at: the names down a column
        # (dealers, declarers) come out alike, never each shrunk on its own.
        column_sizes = [
            self._shared_size(
                [row.cells[index] for row in self.rows if index < len(row.cells)],
                self._cell_rect(index, 0, self.row_h).size,
                size,
            )
            for index in range(len(self.columns))
        ]
        for index, row in enumerate(self.rows):
            top = index * self.row_h
            stripe = pygame.Rect(0, top, self.body_rect.width, self.row_h)
            if index % 2:
                body.fill(theme.ROW_ALT, stripe)
            if index == len(self.rows) - 1 and not row.dim:
                pygame.draw.rect(body, theme.ROW_HIGHLIGHT, stripe, border_radius=4)
            for column_index, cell in enumerate(row.cells):
                rect = self._cell_rect(column_index, top, self.row_h).move(-offset, 0)
                draw_text_fit(
                    body,
                    cell.text,
                    rect,
                    column_sizes[column_index],
                    theme.TEXT_DIM if row.dim else cell.colour,
                    align=self.columns[column_index].align,
                    bold=cell.bold,
                )
            if row.note:
                start, end = self._note_span(row)
                totals = row.extra.get("totals", ())
                left = self.column_x[start][0] - offset
                right = self.column_x[end - 1][0] + self.column_x[end - 1][1] - offset
                draw_text_fit(
                    body, row.note, pygame.Rect(left + 6, top, right - left - 12, self.row_h), size, theme.TEXT_DIM
                )
                for team, total in enumerate(totals):
                    rect = self._cell_rect(end + team, top, self.row_h).move(-offset, 0)
                    draw_text_fit(body, str(total), rect, size, theme.TEAM_COLOURS[team], bold=True)
        # Group separators: a faint line before each player's columns, broken where a
        # row's note ("being played", "redeal") runs across the groups, so no line
        # cuts through its words.
        for index, column in enumerate(self.columns):
            if column.group and (index == 0 or self.columns[index - 1].group != column.group):
                x = self.column_x[index][0] - offset
                for top, bottom in self._separator_runs(index, height):
                    pygame.draw.line(body, (*theme.PANEL_EDGE, 90), (x, top), (x, bottom))
        return body

    def _note_span(self, row: Row) -> tuple[int, int]:
        """The columns a row's note covers: from its last cell to the totals it keeps (end exclusive)."""
        return len(row.cells), len(self.columns) - len(row.extra.get("totals", ()))

    def _separator_runs(self, column: int, height: int) -> list[tuple[int, int]]:
        """The stretches (top, bottom) of the body where the separator before ``column`` is drawn."""
        runs: list[tuple[int, int]] = []
        top = 0
        for index, row in enumerate(self.rows):
            if row.note:
                start, end = self._note_span(row)
                if start < column < end:
                    if index * self.row_h > top:
                        runs.append((top, index * self.row_h - 1))
                    top = (index + 1) * self.row_h
        if top < height:
            runs.append((top, height))
        return runs

    def _shared_size(self, cells: Sequence[Cell], box: tuple[int, int], size: int) -> int:
        """The largest size up to ``size`` at which every one of ``cells`` (each with ``text`` and
        ``bold``) fits a box of ``box`` on one line."""
        return min((fit_size(cell.text, box[0], box[1], size, cell.bold) for cell in cells if cell.text), default=size)

    def _group_size(self, size: int) -> int:
        """The one size of the names spanning their players' columns: the largest up to ``size``
        at which each fits its span."""
        sizes = [size]
        start = 0
        while start < len(self.columns):
            group, end = self.columns[start].group, start
            while end + 1 < len(self.columns) and self.columns[end + 1].group == group:
                end += 1
            if group:
                span = self.column_x[end][0] + self.column_x[end][1] - self.column_x[start][0] - 8
                sizes.append(fit_size(group, span, self.row_h, size, True))
            start = end + 1
        return min(sizes)

    def draw_content(self, surface: pygame.Surface) -> None:
        size = round(self.row_h * 0.64)
        header = self.header_rect
        grouped = any(c.group for c in self.columns)
        if not self.wrapped_header:
            # The headings (the players' or the teams' names among them) share one size.
            size = min(
                fit_size(column.header, *self._cell_rect(index, 0, self.row_h).size, size, True)
                for index, column in enumerate(self.columns)
            )
        top_row = pygame.Rect(header.left, header.top, header.width, self.row_h)
        sub_top = header.top + (self.row_h if grouped else 0)
        if grouped:
            group_size = self._group_size(round(self.row_h * 0.64))
            start = 0
            while start < len(self.columns):
                group = self.columns[start].group
                end = start
                while end + 1 < len(self.columns) and self.columns[end + 1].group == group:
                    end += 1
                if group:
                    left = self.column_x[start][0]
                    right = self.column_x[end][0] + self.column_x[end][1]
                    draw_text_fit(
                        surface,
                        group,
                        pygame.Rect(left + 4, top_row.top, right - left - 8, self.row_h),
                        group_size,
                        theme.PANEL_TITLE,
                        bold=True,
                    )
                start = end + 1
        for index, column in enumerate(self.columns):
            if self.wrapped_header:
                draw_text_wrapped(
                    surface,
                    column.header,
                    self._cell_rect(index, header.top, 2 * self.row_h),
                    size,
                    theme.ACCENT,
                    align=column.align,
                    bold=True,
                    valign="center",
                )
                continue
            draw_text_fit(
                surface,
                column.header,
                self._cell_rect(index, sub_top, self.row_h),
                size,
                theme.ACCENT if not grouped else theme.TEXT_DIM,
                align=column.align,
                bold=True,
            )
        pygame.draw.line(surface, theme.PANEL_EDGE, (header.left, header.bottom - 2), (header.right, header.bottom - 2))
        if not self.rows:
            draw_text_fit(surface, t("pad.empty"), self.body_rect, round(size * 1.2), theme.TEXT_DIM)
            return
        if self._body is None:
            self._body = self._render_body()
        surface.blit(
            self._body, self.body_rect.topleft, pygame.Rect(0, self.scroll, self.body_rect.width, self.body_rect.height)
        )
        if self.max_scroll > 0:
            track = pygame.Rect(self.body_rect.right + 2, self.body_rect.top, 3, self.body_rect.height)
            visible = self.body_rect.height / (self.max_scroll + self.body_rect.height)
            thumb_h = max(12, round(track.height * visible))
            thumb_y = track.top + round((track.height - thumb_h) * self.scroll / self.max_scroll)
            pygame.draw.rect(surface, theme.ACCENT, (track.left, thumb_y, 3, thumb_h), border_radius=2)
        if not self.toast.active and self.result is not None:
            text, colour = self.result
            draw_text_fit(surface, text, self.hint_rect, round(size * 1.1), colour, align="left", bold=True)
        elif not self.toast.active and self.max_scroll > 0:
            draw_text_fit(
                surface, t("pad.scroll_hint"), self.hint_rect, round(size * 0.9), theme.TEXT_DIM, align="left"
            )
