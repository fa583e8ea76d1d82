"""Small charts drawn straight into the window: lines over rounds and bars.

The statistics screen needs three kinds of picture (scores round by round,
a rate game by game, wins against each level), all simple enough to draw
with pygame's own lines and rectangles, so no chart library is involved.
"""

from __future__ import annotations

# Every chart has a title line, a plot area with a few labelled grid lines,
# and never draws outside the rectangle it is given. Each drawing function
# returns a ``ChartGeometry`` naming where everything went (the plot area,
# every point, every bar), which is what the tests check against the window.
# A chart with nothing to show says so in its box (``empty`` text).

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import pygame

from game.ui import theme
from game.ui.text import decimal_words, percent_words
from game.ui.widgets.geometry import Colour
from game.ui.widgets.text import draw_text_fit, text_size

GRID = (*theme.PANEL_EDGE[:3], 70)
#: One colour per line (a side, a seat), told apart on the green felt.
SERIES_COLOURS: tuple[Colour, ...] = (
    theme.TEAM_COLOURS[0],
    theme.TEAM_COLOURS[1],
    (150, 220, 130),
    (235, 130, 200),
    (240, 220, 100),
    (170, 150, 255),
)


@dataclass
class ChartGeometry:
    """Where a chart put things: its box, its plot area, its points and bars."""

    rect: pygame.Rect
    area: pygame.Rect
    points: list[list[tuple[int, int]]] = field(default_factory=list)
    bars: list[pygame.Rect] = field(default_factory=list)


@dataclass(frozen=True)
class Bar:
    """One bar: ``value`` of ``maximum`` (drawn as a share), its label and the words on it."""

    label: str
    value: float
    colour: Colour
    caption: str = ""


def nice_ticks(low: float, high: float, count: int = 4) -> list[float]:
    """Round grid values covering ``low`` to ``high`` (about ``count`` of them)."""
    if high <= low:
        high = low + 1
    raw = (high - low) / max(1, count)
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    first = math.floor(low / step) * step
    ticks = []
    value = first
    while value < high + step * 0.999:
        ticks.append(round(value, 6))
        value += step
    return ticks


def _frame(
    surface: pygame.Surface, rect: pygame.Rect, title: str, size: int, empty: str, has_data: bool
) -> tuple[ChartGeometry, pygame.Rect, int]:
    """The chart's title line, and ``empty`` written below it when there is nothing to show.

    Returns the chart's geometry (its plot area is the box below the title
    until the chart narrows it), that box and the size of the labels."""
    rect = pygame.Rect(rect)
    title_h = max(14, round(size * 1.25))
    draw_text_fit(
        surface,
        title,
        pygame.Rect(rect.left, rect.top, rect.width, title_h),
        size,
        theme.PANEL_TITLE,
        align="left",
        bold=True,
    )
    label_size = max(11, round(size * 0.8))
    body = pygame.Rect(rect.left, rect.top + title_h + 2, rect.width, max(1, rect.height - title_h - 2))
    if not has_data:
        _empty(surface, body, empty, label_size)
    return ChartGeometry(rect, body), body, label_size


def _share(value: float, maximum: float) -> float:
    """How much of its full length a bar of ``value`` out of ``maximum`` fills, from 0 to 1."""
    return max(0.0, min(1.0, value / maximum)) if maximum > 0 else 0.0


def _empty(surface: pygame.Surface, body: pygame.Rect, text: str, size: int) -> None:
    pygame.draw.rect(surface, GRID, body, width=1, border_radius=6)
    draw_text_fit(surface, text, body.inflate(-12, -8), size, theme.TEXT_DIM)


def draw_line_chart(
    surface: pygame.Surface,
    rect: pygame.Rect,
    title: str,
    series: Sequence[Sequence[float]],
    colours: Sequence[Colour],
    size: int,
    empty: str,
    y_format: Callable[[float], str] = decimal_words,
    y_range: tuple[float, float] | None = None,
    x_labels: tuple[str, str] = ("", ""),
) -> ChartGeometry:
    """One line per series over the same x steps (rounds, games), with dots at each value.

    ``y_range`` fixes the scale (a rate from 0 to 1); otherwise it covers the
    values and 0. ``x_labels`` are written under the first and last step.
    """
    steps = max((len(values) for values in series), default=0)
    geometry, body, label_size = _frame(surface, rect, title, size, empty, steps > 0)
    if steps == 0:
        return geometry
    values = [value for line in series for value in line]
    low, high = y_range if y_range else (min(0.0, min(values)), max(0.0, max(values)))
    ticks = nice_ticks(low, high)
    low, high = y_range if y_range else (min(ticks[0], low), max(ticks[-1], high))
    label_w = max(text_size(y_format(tick), label_size)[0] for tick in ticks) + 6
    x_label_h = round(label_size * 1.3)
    area = pygame.Rect(
        body.left + label_w,
        body.top + label_size // 2,
        max(1, body.width - label_w - 6),
        max(1, body.height - x_label_h - label_size // 2),
    )
    geometry.area = area

    def y_of(value: float) -> int:
        share = (value - low) / (high - low) if high > low else 0.5
        return round(area.bottom - share * area.height)

    for tick in ticks:
        if low <= tick <= high:
            y = y_of(tick)
            pygame.draw.line(surface, GRID, (area.left, y), (area.right, y))
            draw_text_fit(
                surface,
                y_format(tick),
                pygame.Rect(body.left, y - label_size, label_w - 4, 2 * label_size),
                label_size,
                theme.TEXT_DIM,
                align="right",
            )
    if low < 0 < high:
        pygame.draw.line(surface, theme.PANEL_EDGE, (area.left, y_of(0)), (area.right, y_of(0)))
    pygame.draw.line(surface, theme.PANEL_EDGE, area.bottomleft, area.topleft)
    for line, colour in zip(series, colours):
        if not line:
            continue
        gap = area.width / max(1, steps - 1) if steps > 1 else 0
        points = [
            (round(area.left + (index * gap if steps > 1 else area.width / 2)), y_of(value))
            for index, value in enumerate(line)
        ]
        geometry.points.append(points)
        if len(points) > 1:
            pygame.draw.lines(surface, colour, False, points, 2)
        dot = max(2, min(4, round(area.width / max(1, steps) / 4)))
        for point in points:
            pygame.draw.circle(surface, colour, point, dot)
    under = pygame.Rect(area.left, area.bottom + 2, area.width, x_label_h - 2)
    draw_text_fit(surface, x_labels[0], under, label_size, theme.TEXT_DIM, align="left")
    draw_text_fit(surface, x_labels[1], under, label_size, theme.TEXT_DIM, align="right")
    return geometry


def draw_bar_chart(
    surface: pygame.Surface, rect: pygame.Rect, title: str, bars: Sequence[Bar], maximum: float, size: int, empty: str
) -> ChartGeometry:
    """Horizontal bars, one row each: the label on the left, the bar, its caption on it."""
    geometry, body, label_size = _frame(surface, rect, title, size, empty, bool(bars))
    if not bars:
        return geometry
    label_w = min(body.width // 3, max(text_size(bar.label, label_size)[0] for bar in bars) + 8)
    area = pygame.Rect(body.left + label_w, body.top, max(1, body.width - label_w), body.height)
    geometry.area = area
    row_h = min(round(label_size * 2.2), area.height // len(bars))
    for index, bar in enumerate(bars):
        row = pygame.Rect(body.left, body.top + index * row_h, body.width, row_h)
        draw_text_fit(
            surface,
            bar.label,
            pygame.Rect(row.left, row.top, label_w - 6, row_h),
            label_size,
            theme.TEXT,
            align="right",
        )
        track = pygame.Rect(area.left, row.top + row_h // 6, area.width, max(2, row_h - row_h // 3))
        pygame.draw.rect(surface, (*theme.INPUT_BG[:3], 160), track, border_radius=3)
        share = _share(bar.value, maximum)
        filled = pygame.Rect(
            track.left, track.top, max(1 if bar.value > 0 else 0, round(track.width * share)), track.height
        )
        if filled.width:
            pygame.draw.rect(surface, bar.colour, filled, border_radius=3)
        geometry.bars.append(filled)
        if bar.caption:
            draw_text_fit(surface, bar.caption, track.inflate(-8, 0), label_size, theme.TEXT, align="right", bold=True)
    return geometry


def draw_column_chart(
    surface: pygame.Surface, rect: pygame.Rect, title: str, bars: Sequence[Bar], maximum: float, size: int, empty: str
) -> ChartGeometry:
    """Upright columns side by side, each labelled underneath (cards dealt: 1, 2, ... 20).

    ``value`` is a share of ``maximum`` (a rate: ``maximum`` 1.0), read off a
    percentage scale at the left; the share is also written over each column
    when every column is wide enough to hold the words.
    """
    geometry, body, label_size = _frame(surface, rect, title, size, empty, bool(bars))
    if not bars:
        return geometry
    label_h = round(label_size * 1.3)
    scale_w = text_size(percent_words(100), label_size)[0] + 6
    area = pygame.Rect(
        body.left + scale_w,
        body.top + label_size // 2,
        max(1, body.width - scale_w),
        max(1, body.height - label_h - label_size // 2),
    )
    geometry.area = area
    pygame.draw.line(surface, theme.PANEL_EDGE, area.bottomleft, area.bottomright)
    for share in (0.0, 0.5, 1.0):
        y = round(area.bottom - area.height * share)
        if share:
            pygame.draw.line(surface, GRID, (area.left, y), (area.right, y))
        draw_text_fit(
            surface,
            percent_words(round(share * maximum * 100)),
            pygame.Rect(body.left, y - label_size, scale_w - 4, 2 * label_size),
            label_size,
            theme.TEXT_DIM,
            align="right",
        )
    slot = area.width / len(bars)
    # The share over each column only when every one of them has room for it, in one size: the
    # labels' own, or as much smaller as a large UI scale's narrow columns need (not under 11 px).
    shares = [percent_words(round(_share(bar.value, maximum) * 100)) for bar in bars]
    words_size = _size_in_slot(shares, slot, label_size)
    worded = all(text_size(words, words_size)[0] <= slot for words in shares)
    # The numbers under the columns in one size too, with a little room between them.
    under_size = _size_in_slot([bar.label for bar in bars], slot * 0.85, label_size)
    width = max(1, round(slot * 0.7))
    for index, bar in enumerate(bars):
        left = round(area.left + index * slot + (slot - width) / 2)
        share = _share(bar.value, maximum)
        height = round(area.height * share)
        column = pygame.Rect(left, area.bottom - height, width, height)
        if height:
            pygame.draw.rect(surface, bar.colour, column, border_top_left_radius=2, border_top_right_radius=2)
        geometry.bars.append(column)
        under = pygame.Rect(round(area.left + index * slot), area.bottom + 1, max(1, round(slot)), label_h - 1)
        draw_text_fit(surface, bar.label, under, under_size, theme.TEXT_DIM)
        words = percent_words(round(share * 100))
        if worded:
            above = pygame.Rect(under.left, max(area.top, column.top - label_h), under.width, label_h)
            draw_text_fit(surface, words, above, words_size, theme.TEXT)
    return geometry


#: The smallest size ``_size_in_slot`` takes the columns' words down to.
LEAST_COLUMN_WORDS = 11


def _size_in_slot(texts: Sequence[str], slot: float, size: int) -> int:
    """The largest size up to ``size`` (not under ``LEAST_COLUMN_WORDS``) at which every text
    is at most ``slot`` wide."""
    while size > LEAST_COLUMN_WORDS and any(text_size(text, size)[0] > slot for text in texts):
        size -= 1
    return size


def draw_legend(surface: pygame.Surface, rect: pygame.Rect, entries: Sequence[tuple[str, Colour]], size: int) -> None:
    """Coloured swatches with names, side by side across ``rect``."""
    if not entries:
        return
    width = rect.width // len(entries)
    for index, (name, colour) in enumerate(entries):
        cell = pygame.Rect(rect.left + index * width, rect.top, width, rect.height)
        # The swatch grows with the row, short of taking a narrow cell's room for the name.
        swatch = max(6, min(rect.height // 2, width // 4))
        pygame.draw.rect(surface, colour, (cell.left, cell.centery - swatch // 2, swatch, swatch), border_radius=2)
        draw_text_fit(
            surface,
            name,
            pygame.Rect(cell.left + swatch + 4, cell.top, max(1, width - swatch - 8), cell.height),
            size,
            theme.TEXT,
            align="left",
        )
