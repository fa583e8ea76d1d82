"""The played-cards panel: which cards of each suit are gone, and the trumps still unplayed."""

from __future__ import annotations

# A small panel on the felt, low on the left between the players' plates
# and the Undo button, the column the contract panel heads. Each suit has a
# row of its thirteen ranks, highest first; a rank already played is struck
# through and dimmed, so what is still out stands bright. The trump suit's
# row is marked, and the last lines count the trumps not yet played and the
# cards of no suit (jokers, Wizards, Jesters) played so far. Where the
# window is short the heading is left out.
#
# Everything in it comes from ``game.rules.played_cards``, which reads only
# cards everyone has seen fall; the table hands it the public view, so the
# panel never holds a card the player at the screen may not see. It is never
# drawn over a plate, a fan of cards, the trick or the hand: where the window
# leaves no room for it there (``panel_place`` is None), it is left out. The
# setting ``played_cards`` (Settings, or the P key at the table) turns it off.

from dataclasses import dataclass

import pygame

from game.rules.cards import BIG_JOKER, JESTER, LITTLE_JOKER, RANK_OF, WIZARD
from game.rules.played_cards import PlayedCards
from game.ui import theme
from game.ui.table.layout import TableLayout
from game.ui.text import t
from game.ui.widgets.suits import suit_icon
from game.ui.widgets.text import MIN_TEXT_SIZE, draw_text_fit

RANK_TEXT = {14: "A", 13: "K", 12: "Q", 11: "J"}
#: The panel's lines: its heading, a row per suit, the trump count and the cards of no suit;
#: where room is short, the heading goes.
FULL_LINES = 7
COMPACT_LINES = 6
#: A played rank: dim, and the line striking it through.
GONE = (78, 98, 86)
GONE_LINE = (110, 126, 114)
#: The smallest line the panel is drawn with (its ranks stay at least ``MIN_TEXT_SIZE``).
MIN_LINE = MIN_TEXT_SIZE + 3


@dataclass(frozen=True)
class PanelPlace:
    """Where the panel goes and how: its rectangle, its line height, and whether it is compact."""

    rect: pygame.Rect
    row_h: int
    compact: bool


def line_height(layout: TableLayout) -> int:
    """The panel's line at its full size: the ranks a little larger than the corner panels' text."""
    return max(MIN_LINE, round(layout.corner_font_unit * 1.1))


def panel_place(layout: TableLayout, fans: list[pygame.Rect]) -> PanelPlace | None:
    """Where the panel goes: the left column under the contract panels, below every plate and
    fan of cards that reaches into it and above the Undo button's row; None without room.

    ``fans`` are the rectangles the other seats' card fans may cover."""
    gap = max(4, layout.margin // 2)
    column = pygame.Rect(layout.margin, layout.progress_rect.bottom + gap, layout.indicator_rect.width, 0)
    bottom = layout.log_button.top - gap  # the Undo button mirrors the Hand log button on the left
    blockers = [place.plate for place in layout.seats if layout.relative(place.seat) != 0] + fans
    top = column.top
    for blocker in blockers:
        if blocker.right > column.left and blocker.left < column.right and blocker.top < bottom:
            top = max(top, blocker.bottom + gap)
    trick = layout.trick_rect
    right = min(column.right, trick.left - gap) if trick.top < bottom else column.right
    pad = max(4, round(6 * layout.corner_unit))
    room = bottom - top - 2 * pad
    if right - column.left < 150:
        return None
    row_h = line_height(layout)
    compact = room < FULL_LINES * row_h
    lines = COMPACT_LINES if compact else FULL_LINES
    row_h = min(row_h, room // lines)
    if row_h < MIN_LINE:
        return None
    # It sits as low as it can, next to the Undo button, away from the plates above.
    rect = pygame.Rect(column.left, 0, right - column.left, lines * row_h + 2 * pad)
    rect.bottom = bottom
    return PanelPlace(rect, row_h, compact)


def rank_text(card: int) -> str:
    rank = RANK_OF[card]
    return RANK_TEXT.get(rank, str(rank))


def special_words(tally: PlayedCards) -> str:
    """The cards of no suit played so far, in words ("Jokers played: 1 of 2")."""
    played = {card: (count, total) for card, count, total in tally.specials}
    if BIG_JOKER in played or LITTLE_JOKER in played:
        gone = sum(played.get(card, (0, 0))[0] for card in (BIG_JOKER, LITTLE_JOKER))
        total = sum(played.get(card, (0, 0))[1] for card in (BIG_JOKER, LITTLE_JOKER))
        return t("played.jokers", n=gone, total=total)
    if WIZARD in played or JESTER in played:
        wizards, jesters = played.get(WIZARD, (0, 0)), played.get(JESTER, (0, 0))
        return t(
            "played.wizards", wizards=wizards[0], wizard_total=wizards[1], jesters=jesters[0], jester_total=jesters[1]
        )
    return ""


def trump_words(tally: PlayedCards) -> str:
    if not tally.has_trump:
        return t("played.no_trump")
    return t("played.trumps", n=tally.trumps_unplayed, total=tally.trumps)


def render_played_panel(
    place: PanelPlace, layout: TableLayout, tally: PlayedCards, four_colour: bool = False
) -> pygame.Surface:
    """The panel's picture, in the look of the table's corner panels."""
    image = pygame.Surface(place.rect.size, pygame.SRCALPHA)
    body = image.get_rect()
    radius = max(8, min(14, body.height // 6))
    pygame.draw.rect(image, (14, 30, 24, 215), body, border_radius=radius)
    pygame.draw.rect(image, (*theme.PANEL_EDGE, 170), body, width=1, border_radius=radius)
    pad = max(4, round(6 * layout.corner_unit))
    row_h = place.row_h
    size_px = max(MIN_TEXT_SIZE, round(row_h * 0.8))
    inner = body.inflate(-2 * pad, -2 * pad)
    y = inner.top
    if not place.compact:
        draw_text_fit(
            image,
            t("played.title"),
            pygame.Rect(inner.left, y, inner.width, row_h),
            size_px,
            theme.TEXT_DIM,
            align="left",
            bold=True,
        )
        y += row_h
    icon_w = row_h
    slot_w = (inner.width - icon_w - 2) / 13
    for tally_row in tally.suits:
        icon = pygame.Rect(inner.left, y + 1, icon_w - 2, row_h - 2)
        if tally_row.suit == tally.trump:
            pygame.draw.rect(image, theme.ACCENT, icon.inflate(2, 2), width=2, border_radius=row_h // 3)
        suit_icon(tally_row.suit, four_colour)(image, icon.inflate(-2, -2), theme.TEXT)
        for index, card in enumerate(tally_row.cards):
            slot = pygame.Rect(round(inner.left + icon_w + 2 + index * slot_w), y, max(1, round(slot_w)), row_h)
            gone = card in tally_row.gone
            # A card that is gone is struck through and dimmed: what is still out stands bright.
            shown = draw_text_fit(image, rank_text(card), slot, size_px, GONE if gone else theme.TEXT, bold=not gone)
            if gone:
                middle = shown.centery
                pygame.draw.line(image, GONE_LINE, (shown.left - 1, middle), (shown.right, middle), 1)
        y += row_h
    facts = [
        (trump_words(tally), theme.ACCENT if tally.has_trump else theme.TEXT_DIM, tally.has_trump),
        (special_words(tally), theme.TEXT_DIM, False),
    ]
    for text, colour, bold in facts:
        draw_text_fit(
            image, text, pygame.Rect(inner.left, y, inner.width, row_h), size_px, colour, align="left", bold=bold
        )
        y += row_h
    return image
