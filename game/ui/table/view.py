"""Draws the card table from the presentation model and the layout.

The view never changes the game; it paints what ``TableModel`` says, at the
places ``TableLayout`` computed, plus the bits of interaction state the
table scene passes in (which cards are playable, which one is hovered or
selected, the card being dragged, the message above the hand).
"""

from __future__ import annotations

# Cards the watching seat may not see are ``UNKNOWN_CARD`` (-1) in the model
# and are always drawn as backs. Under the contract/trump panel a small panel
# says how the hand stands, in the lines the game's adapter words
# (``progress_lines``): in a contract game the books the declaring side needs
# and has and what the defenders need to set it; in a prediction game the
# round's bids against its tricks. On the trick in play the led card and the
# card winning it (the view's ``winning_seat``, passed in by the scene) are
# tagged. What differs between games (a contract and team books, or a
# turned-up card and predictions) is chosen by the game's adapter
# (``GameDef.adapter.declares_contract``) and ``partnerships``, never by its name.
#
# A frame at full HD must stay well under 4 ms, so everything that does not
# change from frame to frame is cached: the felt per window size (table_art),
# card faces per width (CardArt), rotated/faded card copies (RotationCache),
# text (the interface's one text cache), name plates and corner panels until
# their text changes, and each opponent's fan of card backs per card count.
# Every one of these caches follows the one policy of
# ``game.ui.art.render_cache``: bounded, the least recently used goes first.

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import pygame

from game.rules import BidMode, Phase
from game.rules.actions import bid as bid_action
from game.rules.adapter import HandStanding, TableFigures, Word
from game.rules.cards import card_code
from game.ui import theme
from game.ui.art.card_art import CardArt, draw_suit
from game.ui.art.render_cache import TEXT, BoundedCache, RotationCache
from game.ui.art.table_art import draw_felt
from game.ui.table.animations import contract_text, score_text
from game.ui.table.layout import (
    RAISE_HINT,
    RAISE_HOVER,
    RAISE_SELECTED,
    STACKED_ROW_EMS,
    TableLayout,
    fan_rect,
    hand_positions,
    trick_tag_rect,
)
from game.ui.table.model import PLAY_PHASES, TableModel, bid_label
from game.ui.text import say, t, team_words
from game.ui.widgets.focus import FOCUS_GAP, FOCUS_WIDTH, draw_focus_ring
from game.ui.widgets.text import wrap_text

if TYPE_CHECKING:
    from game.ui.app import App

#: One line of the scores panel: the side's name(s), its score, its books in words (teams
#: only), its dot's colour, and whether it leads.
ScoreRow = tuple[str, str, str, tuple[int, int, int], bool]

SUIT_LETTERS = "SHDC"
GOLD = theme.ACCENT
HINT_RING = (250, 250, 244)
PLATE_TOP = (24, 40, 34)
PLATE_BOTTOM = (12, 24, 20)
# The plate of the seat whose turn it is: a dark gold gradient, its second line in pale gold.
TURN_PLATE_TOP = (58, 50, 22)
TURN_PLATE_BOTTOM = (32, 26, 10)
TURN_PLATE_INFO = (240, 226, 180)

# Cache limits (the policy is in game.ui.art.render_cache): corner panels and
# pills change with the text they show, plates with each seat's line, a fan
# with its card count and seat angle, a hand card with its card, width and look.
PANEL_LIMIT = 48
PILL_LIMIT = 200
PLATE_LIMIT = 80
FAN_LIMIT = 96
HAND_CARD_LIMIT = 200
# Pictures that depend only on a size (the ring, panel backgrounds, glows,
# shadows, selection rings): a handful per window size.
SIZED_LIMIT = 64
# How fast the "thinking" dots on a computer player's plate step along.
THINKING_DOTS_PER_SECOND = 3.0


@dataclass
class HandLook:
    """Interaction state of the bottom hand for one frame."""

    cards: list[int] = field(default_factory=list)  # in display order
    face_up: bool = True
    playable: set[int] | None = None  # card ids; None = not this player's turn to play
    hover: int = -1
    selected: int = -1
    hidden: set[int] = field(default_factory=set)  # indices not drawn (dragged / returning)
    suggested: frozenset[int] = frozenset()  # card ids a hint points at: raised and framed


@dataclass
class Overlay:
    """Texts drawn over the table this frame."""

    prompt: str | None = None  # e.g. "Your turn: drag a card to the table"
    message: str | None = None  # a refusal reason or notice
    message_warning: bool = False
    thinking_seat: int = -1  # a computer seat whose decision is being computed
    # The seat whose card is winning the trick on the felt, as the view reports it
    # (-1: no trick in play, or the picture is not yet the view's).
    winning_seat: int = -1
    # The finished hand's result in words and the colour of the side it is about.
    result: tuple[str, tuple[int, int, int]] | None = None
    # A network table's news on the message line: the link is down, or a player it waits for is away.
    network: str | None = None


class TableView:
    def __init__(self, app: App) -> None:
        self.app = app
        self.text = TEXT
        self.rotations = RotationCache()
        self._plates: BoundedCache[tuple[Hashable, ...], pygame.Surface] = BoundedCache(PLATE_LIMIT)
        self._panels: BoundedCache[tuple[Hashable, ...], pygame.Surface] = BoundedCache(PANEL_LIMIT)
        self._pills: BoundedCache[tuple[Hashable, ...], pygame.Surface] = BoundedCache(PILL_LIMIT)
        self._fans: BoundedCache[tuple[Hashable, ...], pygame.Surface] = BoundedCache(FAN_LIMIT)
        self._hand_cards: BoundedCache[tuple[Hashable, ...], pygame.Surface] = BoundedCache(HAND_CARD_LIMIT)
        self._sized: BoundedCache[tuple[Hashable, ...], pygame.Surface] = BoundedCache(SIZED_LIMIT)
        self._hand_layer: tuple[tuple[Hashable, ...], pygame.Surface, tuple[int, int]] | None = None
        self.time = 0.0
        self.viewer = -1

    # ------------------------------------------------------------------ helpers
    def art(self, width: int) -> CardArt:
        return self.app.card_art(width)

    def card_image(self, card: int, width: int, face_up: bool = True) -> pygame.Surface:
        art = self.art(width)
        if card < 0 or not face_up:
            return art.back()
        return art.face(card_code(card))

    def update(self, dt: float) -> None:
        self.time += dt

    # ------------------------------------------------------------------ frame
    def draw(
        self,
        surface: pygame.Surface,
        model: TableModel,
        layout: TableLayout,
        names: list[str],
        hand: HandLook,
        overlay: Overlay,
        viewer: int = -1,
        covered: pygame.Rect | None = None,
    ) -> None:
        """Paint the table; ``viewer`` is the seat whose player is looking (their secret bid shows).

        ``covered`` is the panel of a dialog drawn over the table: a name plate,
        card fan or hand it would cut through is left out, so nothing peeks
        out half-hidden from behind the panel (the dialog shows what matters).
        """
        self.viewer = viewer
        surface.blit(draw_felt(surface.get_size()), (0, 0))
        self._draw_table_ring(surface, layout)
        # A dialog as wide as the window (the kitty) may reach over the lower part of corner
        # panels grown by the UI scale: such a corner is left out like a plate, since cut at
        # the dialog's edge it showed a sliver of a clipped line (the kitty names the contract,
        # and the scores do not change while it is open).
        for corner, draw in ((layout.indicator_rect, self._draw_indicator), (layout.score_rect, self._draw_scores)):
            if not self._under(covered, corner):
                draw(surface, model, layout, names)
        if not self._under(covered, layout.progress_rect):
            self._draw_progress(surface, model, layout, names)
        for seat in range(model.num_players):
            if layout.relative(seat) != 0 and not self._under(covered, self.fan_rect(layout, seat)):
                self._draw_fan(surface, layout, seat, len(model.hands[seat]) if seat < len(model.hands) else 0)
        for seat in range(model.num_players):
            if not self._under(covered, layout.place(seat).plate):
                self._draw_plate(surface, model, layout, names, seat)
                if seat == overlay.thinking_seat:
                    self._draw_thinking(surface, layout, seat)
        self._draw_kitty(surface, model, layout)
        self._draw_trick(surface, model, layout, overlay.winning_seat)
        if not self._under(covered, layout.hand_rect):
            self._draw_hand(surface, layout, hand)
        self._draw_flying(surface, model)
        self._draw_floaters(surface, model)
        self._draw_overlay(surface, model, layout, overlay)

    # ------------------------------------------------------------------ table
    def _draw_table_ring(self, surface: pygame.Surface, layout: TableLayout) -> None:
        """A faint oval marking the playing area (the layout sizes it to hold every trick
        card), rendered once per layout size."""
        key = ("ring", layout.trick_rect.size)
        ring = self._sized.get(key)
        if ring is None:
            ring = pygame.Surface(layout.trick_rect.size, pygame.SRCALPHA)
            pygame.draw.ellipse(ring, (0, 0, 0, 34), ring.get_rect())
            pygame.draw.ellipse(ring, (255, 255, 255, 36), ring.get_rect(), width=2)
            self._sized.put(key, ring)
        surface.blit(ring, ring.get_rect(center=layout.trick_rect.center))

    def _panel_image(self, size: tuple[int, int]) -> pygame.Surface:
        key = ("panel", size)
        image = self._sized.get(key)
        if image is None:
            w, h = size
            image = pygame.Surface((w + 8, h + 8), pygame.SRCALPHA)
            radius = max(8, min(14, h // 6))
            pygame.draw.rect(image, (0, 0, 0, 70), pygame.Rect(4, 6, w, h), border_radius=radius)
            body = pygame.Rect(0, 0, w, h)
            pygame.draw.rect(image, (14, 30, 24, 215), body, border_radius=radius)
            pygame.draw.rect(image, (*theme.PANEL_EDGE, 170), body, width=1, border_radius=radius)
            self._sized.put(key, image)
        return image

    # ------------------------------------------------------------------ corner panels
    def _draw_indicator(
        self, surface: pygame.Surface, model: TableModel, layout: TableLayout, names: list[str]
    ) -> None:
        rect = layout.indicator_rect
        contract = model.declares_contract
        if contract:
            lines, suit = self._contract_indicator(model, names)
            card = -1
        else:
            lines, suit = self._prediction_indicator(model, names)
            card = model.turn_up
        key = ("indicator", rect.size, tuple(lines), suit, card, self.app.settings.four_colour_deck)
        image = self._panels.get(key)
        if image is None:
            image = self._panels.put(key, self._render_indicator(rect, layout, lines, suit, card, contract))
        surface.blit(image, rect.topleft)

    def _contract_indicator(self, model: TableModel, names: list[str]) -> tuple[list[tuple[str, str]], int]:
        if model.contract_mode >= 0:
            no_trump = model.contract_mode == BidMode.NOTRUMP
            if no_trump and model.direction < 0:
                # The declarer is still choosing the ranking: say so, name none. The player
                # looking is told in their own words ("You chooses" read wrong).
                who = (
                    t("table.you_choose_direction")
                    if model.declarer == self.viewer
                    else t("table.choosing_direction", name=names[model.declarer])
                )
            else:
                who = t("table.declarer", name=names[model.declarer])
            lines = [("dim", t("table.contract")), ("big", contract_text(model)), ("text", who)]
            suit = model.trump if not no_trump else -2
            return lines, suit
        if model.high_bid is not None:
            seat, books, mode = model.high_bid
            high = bid_label(bid_action(books, mode))
            return [
                ("dim", t("table.bidding")),
                ("big", t("table.high_bid", bid=high)),
                ("text", t("table.by", name=names[seat])),
            ], -1
        return [("dim", t("table.bidding")), ("big", t("table.no_bids")), ("text", t("table.trump_secret"))], -1

    def _prediction_indicator(self, model: TableModel, names: list[str]) -> tuple[list[tuple[str, str]], int]:
        rounds = t("table.round_of", n=max(1, model.round_number), total=model.total_rounds or "?")
        if not model.turn_up_known:
            return [("dim", rounds), ("big", t("table.dealing")), ("text", "")], -1
        if model.trump_pending:
            # Whoever the house rules let name trump: the dealer, or the dealer's left.
            seat = model.trump_chooser if model.trump_chooser >= 0 else model.dealer
            chooser = (
                t("table.you_choose_trump") if seat == self.viewer else t("table.dealer_chooses", name=names[seat])
            )
            return [("dim", rounds), ("big", t("table.trump")), ("text", chooser)], -1
        if model.trump >= 0:
            return [("dim", rounds), ("big", t(f"suit.{model.trump}")), ("text", t("table.trump"))], model.trump
        if model.round_number == 0:
            return [("dim", rounds), ("big", ""), ("text", "")], -1
        return [("dim", rounds), ("big", t("table.no_trump")), ("text", t("table.no_trump_round"))], -2

    def _render_indicator(
        self, rect: pygame.Rect, layout: TableLayout, lines: list[tuple[str, str]], suit: int, card: int, contract: bool
    ) -> pygame.Surface:
        image = self._panel_image(rect.size).copy()
        pad = max(8, round(10 * layout.corner_unit))
        fu = layout.corner_font_unit
        left = pad
        # The picture on the left: the turn-up card (Wizard) or a big suit badge.
        badge = pygame.Rect(pad, pad, layout.small_card_w, rect.height - 2 * pad)
        if card >= 0:
            face = self.art(layout.small_card_w).face(card_code(card))
            shown = face.get_rect(center=(badge.centerx, rect.height // 2))
            image.blit(face, shown)
            left = badge.right + pad
            if suit >= 0:
                # A small trump badge so the trump reads at a glance (a Wizard turned up names
                # none), on the card's lower-left corner: the corners with the indices stay clear.
                size = round(fu * 0.9)
                radius = size // 2 + 3
                self._suit_badge(image, (shown.left + radius - 2, shown.bottom - radius), size, suit)
        elif suit >= 0 or suit == -2:
            size = min(badge.width, badge.height)
            centre = (badge.centerx, rect.height // 2)
            pygame.draw.circle(image, (246, 242, 230), centre, size // 2)
            pygame.draw.circle(image, GOLD, centre, size // 2, width=2)
            if suit >= 0:
                draw_suit(
                    image,
                    SUIT_LETTERS[suit],
                    centre,
                    size * 0.58,
                    self.art(layout.small_card_w).suit_colour(SUIT_LETTERS[suit]),
                )
            else:
                label = self.text.fit(t("table.nt_badge"), round(size * 0.42), theme.TEXT_DARK, size - 6, bold=True)
                image.blit(label, label.get_rect(center=centre))
            left = badge.right + pad
        elif contract:
            left = pad
        else:
            # Before the turn-up lands: an empty slot where it will go.
            slot = self.art(layout.small_card_w).placeholder()
            image.blit(slot, slot.get_rect(center=(badge.centerx, rect.height // 2)))
            left = badge.right + pad
        width = rect.width - left - pad
        styles = {
            "dim": (round(fu * 0.8), theme.TEXT_DIM, False),
            "big": (round(fu * 1.15), theme.PANEL_TITLE, True),
            "text": (round(fu * 0.85), theme.TEXT, False),
        }
        rendered = [
            line
            for style, text in lines
            if text
            for line in self.fitted_lines(
                text, styles[style][0], styles[style][1], width, layout.smallest_text, bold=styles[style][2]
            )
        ]
        total = sum(r.get_height() for r in rendered) + 4 * max(0, len(rendered) - 1)
        y = (rect.height - total) // 2
        for surface in rendered:
            image.blit(surface, (left, y))
            y += surface.get_height() + 4
        return image

    def fitted_lines(
        self,
        text: str,
        size: int,
        colour: tuple[int, ...],
        width: int,
        smallest: int,
        bold: bool = False,
        most: int = 2,
    ) -> list[pygame.Surface]:
        """``text`` as one line at ``size`` or smaller down to ``smallest`` within ``width``; too
        long for one line at ``smallest``, it wraps to up to ``most`` lines at that size (the
        last shortened with "..." if even they do not hold it), never smaller."""
        if self.text.size(text, smallest, bold)[0] <= width:
            return [self.text.fit(text, size, colour, width, bold, smallest=smallest)]
        lines = wrap_text(text, width, smallest, bold)
        if len(lines) > most:
            lines = lines[: most - 1] + [" ".join(lines[most - 1 :])]
        return [self.text.fit(part, smallest, colour, width, bold, smallest=smallest) for part in lines]

    def _suit_badge(self, image: pygame.Surface, centre: tuple[int, int], size: int, suit: int) -> None:
        pygame.draw.circle(image, (246, 242, 230), centre, size // 2 + 3)
        pygame.draw.circle(image, GOLD, centre, size // 2 + 3, width=2)
        draw_suit(image, SUIT_LETTERS[suit], centre, size * 0.62, self.art(40).suit_colour(SUIT_LETTERS[suit]))

    # ------------------------------------------------------------------ how the hand stands
    def progress_lines(self, model: TableModel, names: list[str]) -> list[tuple[str, tuple[int, int, int]]]:
        """The lines of the progress panel, each with its colour, as the game's adapter
        words how the hand stands: in a contract game the books the declaring side
        needs and has, and what the defenders need to set it; in a prediction game
        the round's bids against its tricks (over- or underbid)."""
        game = model.game_def
        standing = HandStanding(
            players=model.num_players,
            trump=model.trump,
            books=tuple(model.books),
            tricks_per_hand=model.tricks_per_hand,
            over=model.phase in (Phase.HAND_OVER, Phase.GAME_OVER),
            figures=TableFigures(
                declarer=model.declarer,
                contract_books=model.contract_books,
                contract_mode=model.contract_mode,
                direction=model.direction,
                predictions=tuple(model.predictions),
            ),
        )

        def side_words(word: Word) -> str:
            return team_words([names[seat] for seat in model.score_side_members(word.value)])

        return [
            (
                say(line.phrase, side_words),
                theme.TEAM_COLOURS[line.side] if line.side >= 0 else GOLD if line.highlight else theme.TEXT,
            )
            for line in game.adapter.progress_lines(game, standing)
        ]

    def _draw_progress(self, surface: pygame.Surface, model: TableModel, layout: TableLayout, names: list[str]) -> None:
        lines = self.progress_lines(model, names)
        if not lines:
            return
        rect = layout.progress_rect
        key = ("progress", rect.size, tuple(lines))
        image = self._panels.get(key)
        if image is None:
            pad = max(6, round(8 * layout.corner_unit))
            size = max(layout.smallest_text, round(layout.corner_font_unit * 0.78))
            labels = [
                self.fitted_lines(text, size, colour, rect.width - 2 * pad, layout.smallest_text, bold=index == 0)
                for index, (text, colour) in enumerate(lines)
            ]
            # The panel is as tall as its lines need (a line too long for the panel wraps to a
            # second), within the room the layout keeps for it.
            step = max(label.get_height() for line in labels for label in line)
            gap = round(step * 0.3)
            needed = 2 * pad + sum(len(line) for line in labels) * step + gap * (len(labels) - 1)
            height = min(rect.height, max(needed, round(layout.corner_font_unit * 2.2) + 2 * round(pad * 0.6)))
            image = self._panel_image((rect.width, height)).copy()
            step = min(step, (height - 2 * pad - gap * (len(labels) - 1)) // max(1, sum(map(len, labels))))
            y = (height - sum(len(line) for line in labels) * step - gap * (len(labels) - 1)) // 2
            for line in labels:
                for label in line:
                    image.blit(label, (pad, y))
                    y += step
                y += gap
            self._panels.put(key, image)
        surface.blit(image, rect.topleft)

    def _draw_scores(self, surface: pygame.Surface, model: TableModel, layout: TableLayout, names: list[str]) -> None:
        rect = layout.score_rect
        teams = model.game_def.partnerships > 0
        if teams:
            # One row per team: its players, its score and the books the rules report.
            rows = []
            for team in range(model.game_def.score_sides(model.num_players)):
                members = team_words([names[s] for s in model.score_side_members(team)])
                books = model.books[team] if team < len(model.books) else 0
                rows.append(
                    (
                        members,
                        score_text(model.scores[team]) if team < len(model.scores) else "0",
                        t("table.books", n=books),
                        theme.TEAM_COLOURS[team],
                        False,
                    )
                )
        else:
            best = max(model.scores) if model.scores else 0
            rows = [
                (names[s], score_text(model.scores[s]), "", theme.TEXT, model.scores[s] == best and best != 0)
                for s in range(model.num_players)
            ]
        key = ("scores", rect.size, tuple(rows))
        image = self._panels.get(key)
        if image is None:
            image = self._panels.put(key, self._render_scores(rect, layout, rows, teams))
        surface.blit(image, rect.topleft)

    def _render_scores(
        self, rect: pygame.Rect, layout: TableLayout, rows: Sequence[ScoreRow], teams: bool
    ) -> pygame.Surface:
        image = self._panel_image(rect.size).copy()
        fu = layout.corner_font_unit
        pad = max(8, round(10 * layout.corner_unit))
        smallest = layout.smallest_text
        title = self.text.render(t("table.scores"), max(smallest, round(fu * 0.8)), theme.TEXT_DIM)
        image.blit(title, (pad, pad - 2))
        row_h = round(fu * 1.25)
        y = pad + title.get_height() + 2
        score_w = round(fu * 2.4)
        extra_w = round(fu * 3.2) if teams else 0
        name_w = rect.width - 2 * pad - score_w - extra_w - 6
        # The names share one size, the one the longest fits its room at (each shrunk on its
        # own, the teams' names came out in uneven sizes).
        room = rect.width - 2 * pad - 14 if teams and layout.stacked_scores else name_w - (14 if teams else 0)
        name_size = round(fu * 0.9)
        while name_size > smallest and any(self.text.size(row[0], name_size)[0] > room for row in rows):
            name_size -= 1
        for name, score, extra, colour, leading in rows:
            if teams and layout.stacked_scores:
                # Two lines: the team's names across the panel, its books and score under them.
                line_h = round(fu * STACKED_ROW_EMS / 2)
                pygame.draw.circle(image, colour, (pad + 5, y + line_h // 2), 5)
                label = self.text.fit(name, name_size, theme.TEXT, rect.width - 2 * pad - 14, smallest=smallest)
                image.blit(label, (pad + 14, y + (line_h - label.get_height()) // 2))
                books = self.text.fit(
                    extra,
                    max(smallest, round(fu * 0.75)),
                    theme.TEXT_DIM,
                    rect.width - 2 * pad - 14 - score_w,
                    smallest=smallest,
                )
                image.blit(books, (pad + 14, y + line_h + (line_h - books.get_height()) // 2))
                value = self.text.render(score, round(fu * 1.0), theme.TEXT, bold=True)
                image.blit(
                    value, (rect.width - pad - value.get_width(), y + line_h + (line_h - value.get_height()) // 2)
                )
                y += 2 * line_h
                continue
            if teams:
                pygame.draw.circle(image, colour, (pad + 5, y + row_h // 2), 5)
                label = self.text.fit(name, name_size, theme.TEXT, name_w - 14, smallest=smallest)
                image.blit(label, (pad + 14, y + (row_h - label.get_height()) // 2))
                books = self.text.fit(
                    extra, max(smallest, round(fu * 0.75)), theme.TEXT_DIM, extra_w, smallest=smallest
                )
                image.blit(books, (rect.width - pad - score_w - extra_w, y + (row_h - books.get_height()) // 2))
            else:
                label_colour = GOLD if leading else theme.TEXT
                label = self.text.fit(name, name_size, label_colour, name_w, smallest=smallest)
                image.blit(label, (pad, y + (row_h - label.get_height()) // 2))
            value = self.text.render(score, round(fu * 1.0), GOLD if leading else theme.TEXT, bold=True)
            image.blit(value, (rect.width - pad - value.get_width(), y + (row_h - value.get_height()) // 2))
            y += row_h
        return image

    # ------------------------------------------------------------------ seats
    @staticmethod
    def _under(covered: pygame.Rect | None, rect: pygame.Rect) -> bool:
        return covered is not None and covered.colliderect(rect)

    @staticmethod
    def fan_rect(layout: TableLayout, seat: int) -> pygame.Rect:
        """The most a seat's fan of card backs can cover (a full hand)."""
        return fan_rect(layout, seat)

    def _draw_fan(self, surface: pygame.Surface, layout: TableLayout, seat: int, count: int) -> None:
        if count <= 0:
            return
        place = layout.place(seat)
        key = (count, layout.back_card_w, place.fan_angle)
        fan = self._fans.get_or_make(key, lambda: self._render_fan(layout.back_card_w, count, place.fan_angle))
        surface.blit(fan, fan.get_rect(center=place.fan_centre))

    def _render_fan(self, width: int, count: int, angle: float) -> pygame.Surface:
        back = self.art(width).back()
        bw, bh = back.get_size()
        step = max(3, min(bw * 0.28, (bw * 3.2) / max(1, count)))
        total_w = round(bw + step * (count - 1))
        fan = pygame.Surface((total_w, bh + 6), pygame.SRCALPHA)
        middle = (count - 1) / 2
        for index in range(count):
            lift = round(abs(index - middle) * 0.6)
            fan.blit(back, (round(index * step), lift + 3))
        if angle:
            fan = pygame.transform.rotate(fan, angle)
        return fan

    def _draw_plate(
        self, surface: pygame.Surface, model: TableModel, layout: TableLayout, names: list[str], seat: int
    ) -> None:
        place = layout.place(seat)
        rect = place.plate
        is_turn = model.turn == seat
        line2 = self._plate_line(model, seat)
        team = model.team_of(seat)
        key = (rect.size, names[seat], line2, is_turn, team, model.dealer == seat)
        plate = self._plates.get(key)
        if plate is None:
            plate = self._plates.put(
                key, self._render_plate(layout, rect, names[seat], line2, is_turn, team, model.dealer == seat)
            )
        if is_turn:
            glow = self._glow(rect.size)
            # A slow pulse draws the eye without flashing.
            glow.set_alpha(round(150 + 105 * (0.5 + 0.5 * math.sin(self.time * 4.0))))
            surface.blit(glow, glow.get_rect(center=rect.center))
        surface.blit(plate, plate.get_rect(center=rect.center))

    def _draw_thinking(self, surface: pygame.Surface, layout: TableLayout, seat: int) -> None:
        """Three dots on a small pill at the top of ``seat``'s plate, lighting up in turn:
        this computer player is thinking (the only thing that moves on an idle table)."""
        plate = layout.place(seat).plate
        dot = max(3, round(plate.height * 0.09))
        spacing = dot * 3
        pill = pygame.Rect(0, 0, spacing * 3 + dot, dot * 4)
        pill.center = (plate.centerx, plate.top)
        pygame.draw.rect(surface, (8, 18, 14), pill, border_radius=pill.height // 2)
        pygame.draw.rect(surface, GOLD, pill, width=1, border_radius=pill.height // 2)
        lit = int(self.time * THINKING_DOTS_PER_SECOND) % 3
        for index in range(3):
            centre = (pill.left + dot * 2 + index * spacing, pill.centery)
            colour = GOLD if index == lit else theme.TEXT_DIM
            pygame.draw.circle(surface, colour, centre, dot if index == lit else dot - 1)

    def _plate_line(self, model: TableModel, seat: int) -> str:
        """The line under a seat's name: its bid, then its tricks (and who declared)."""
        if model.declares_contract:
            if model.contract_mode < 0:
                return model.bid_labels.get(seat, "")
            tricks = t("table.tricks", n=model.tricks_won[seat]) if seat < len(model.tricks_won) else ""
            if seat == model.declarer:
                return t("table.declarer_short") + " · " + tricks
            return tricks
        label = model.bid_labels.get(seat)
        if label is None:
            return ""
        own = model.own_hidden_bid
        if own is not None and own[0] == seat == self.viewer:
            # The watching player's own secret bid: shown to them alone.
            label = t("table.plate_bid_secret", n=own[1])
        if model.phase in PLAY_PHASES or model.trick or any(model.tricks_won):
            return label + " · " + t("table.won", n=model.tricks_won[seat])
        return label

    def _render_plate(
        self, layout: TableLayout, rect: pygame.Rect, name: str, line2: str, is_turn: bool, team: int, dealer: bool
    ) -> pygame.Surface:
        w, h = rect.size
        margin = 8
        image = pygame.Surface((w + 2 * margin, h + 2 * margin), pygame.SRCALPHA)
        body = pygame.Rect(margin, margin, w, h)
        radius = h // 2
        pygame.draw.rect(image, (0, 0, 0, 80), body.move(2, 4), border_radius=radius)
        top = TURN_PLATE_TOP if is_turn else PLATE_TOP
        bottom = TURN_PLATE_BOTTOM if is_turn else PLATE_BOTTOM
        grad = pygame.Surface((1, 2))
        grad.set_at((0, 0), top)
        grad.set_at((0, 1), bottom)
        grad = pygame.transform.smoothscale(grad, body.size)
        mask = pygame.Surface(body.size, pygame.SRCALPHA)
        # Opaque: the seat's fan of card backs lies partly behind the plate and showed through it.
        pygame.draw.rect(mask, (255, 255, 255, 255), mask.get_rect(), border_radius=radius)
        fill = _with_alpha(grad)
        fill.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
        image.blit(fill, body)
        edge = GOLD if is_turn else (theme.TEAM_COLOURS[team] if team >= 0 else theme.PANEL_EDGE)
        pygame.draw.rect(image, edge, body, width=2 if is_turn or team >= 0 else 1, border_radius=radius)
        fu = layout.font_unit
        text_left = body.left + radius * 0.55
        text_w = w - radius * 1.1 - (h * 0.6 if dealer else 0)
        name_img = self.text.fit(name, round(fu * 0.95), GOLD if is_turn else theme.TEXT, round(text_w), bold=True)
        if line2:
            info = self.text.fit(
                line2, round(fu * 0.78), theme.TEXT_DIM if not is_turn else TURN_PLATE_INFO, round(text_w)
            )
            total = name_img.get_height() + info.get_height()
            y = body.top + (h - total) // 2
            image.blit(name_img, (round(text_left), y))
            image.blit(info, (round(text_left), y + name_img.get_height()))
        else:
            image.blit(name_img, (round(text_left), body.top + (h - name_img.get_height()) // 2))
        if dealer:
            # The dealer button: a gold disc with a D, on the plate's right end.
            r = round(h * 0.28)
            centre = (body.right - radius * 0.5 - r // 2, body.centery)
            pygame.draw.circle(image, (250, 244, 226), centre, r)
            pygame.draw.circle(image, GOLD, centre, r, width=2)
            letter = self.text.render(t("table.dealer_letter"), round(r * 1.5), theme.TEXT_DARK, bold=True)
            image.blit(letter, letter.get_rect(center=(centre[0], centre[1] + 1)))
        return image

    def _glow(self, size: tuple[int, int]) -> pygame.Surface:
        key = ("glow", size)
        glow = self._sized.get(key)
        if glow is None:
            w, h = size
            spread = 12
            glow = pygame.Surface((w + 2 * spread, h + 2 * spread), pygame.SRCALPHA)
            for i in range(spread, 0, -2):
                alpha = round(70 * (1 - i / spread) ** 1.3) + 8
                rect = pygame.Rect(spread - i, spread - i, w + 2 * i, h + 2 * i)
                pygame.draw.rect(glow, (*GOLD, alpha), rect, border_radius=(h + 2 * i) // 2)
            self._sized.put(key, glow)
        return glow

    # ------------------------------------------------------------------ centre
    def _draw_kitty(self, surface: pygame.Surface, model: TableModel, layout: TableLayout) -> None:
        if not model.kitty:
            return
        back = self.art(layout.small_card_w).back()
        cx, cy = layout.kitty_centre
        for index in range(len(model.kitty)):
            image = self.rotations.get(back, (index * 37) % 20 - 10)
            surface.blit(image, image.get_rect(center=(cx + index * 2, cy - index * 2)))

    def _draw_trick(
        self, surface: pygame.Surface, model: TableModel, layout: TableLayout, winning_seat: int = -1
    ) -> None:
        """The trick on the felt; while it is played, the led card and the card winning
        it (``winning_seat``, as the view reports it) carry small tags."""
        width = layout.trick_card_w
        in_play = model.trick_winner < 0
        for seat, card in model.trick:
            place = layout.place(seat)
            image = self.rotations.get(self.card_image(card, width), place.trick_angle)
            rect = image.get_rect(center=place.trick_centre)
            shadow = self._shadow((width, layout.trick_card_h))
            surface.blit(shadow, shadow.get_rect(center=(rect.centerx + 3, rect.centery + 5)))
            surface.blit(image, rect)
            if seat == model.trick_winner:
                glow = self.rotations.get(self.art(width).highlight_overlay(), place.trick_angle)
                surface.blit(glow, glow.get_rect(center=place.trick_centre))
        if not in_play or not model.trick:
            return
        leader = model.trick[0][0]
        self._trick_tag(surface, layout, leader, t("table.trick_led"), winning=False, stacked=False)
        if any(seat == winning_seat for seat, _ in model.trick):
            self._trick_tag(
                surface, layout, winning_seat, t("table.trick_winning"), winning=True, stacked=winning_seat == leader
            )

    def _trick_tag(
        self, surface: pygame.Surface, layout: TableLayout, seat: int, text: str, winning: bool, stacked: bool
    ) -> None:
        """A small tag beside a trick card ("Led", "Winning"), where the layout puts it clear
        of every card's corner indices; a second tag on the same card sits beyond the first."""
        image = self.trick_tag_image(layout, text, winning)
        surface.blit(image, trick_tag_rect(layout, seat, image.get_size(), second=stacked))

    def trick_tag_image(self, layout: TableLayout, text: str, winning: bool) -> pygame.Surface:
        """The picture of a trick tag: gold for the winning card, dark for the led one."""
        size = max(layout.smallest_text, round(layout.font_unit * 0.62))
        key = ("tag", text, size, winning)
        image = self._pills.get(key)
        if image is None:
            label = self.text.render(text, size, theme.TEXT_DARK if winning else theme.TEXT, bold=True)
            pad_x, pad_y = round(size * 0.5), round(size * 0.15)
            image = pygame.Surface((label.get_width() + 2 * pad_x, label.get_height() + 2 * pad_y), pygame.SRCALPHA)
            background = (*GOLD, 245) if winning else (8, 18, 14, 225)
            pygame.draw.rect(image, background, image.get_rect(), border_radius=image.get_height() // 2)
            pygame.draw.rect(image, GOLD, image.get_rect(), width=1, border_radius=image.get_height() // 2)
            image.blit(label, (pad_x, pad_y))
            self._pills.put(key, image)
        return image

    def _shadow(self, size: tuple[int, int]) -> pygame.Surface:
        key = ("shadow", size)
        shadow = self._sized.get(key)
        if shadow is None:
            w, h = size
            shadow = pygame.Surface((w + 8, h + 8), pygame.SRCALPHA)
            for i in range(4, 0, -1):
                pygame.draw.rect(
                    shadow,
                    (0, 0, 0, 22),
                    pygame.Rect(4 - i, 4 - i, w + 2 * i, h + 2 * i),
                    border_radius=max(4, w // 10),
                )
            self._sized.put(key, shadow)
        return shadow

    def _draw_hand(self, surface: pygame.Surface, layout: TableLayout, hand: HandLook) -> None:
        """The bottom hand, drawn from one cached layer while nothing about it changes."""
        if not hand.cards:
            return
        key = (
            layout.size,
            layout.hand_card_w,
            tuple(hand.cards),
            hand.face_up,
            frozenset(hand.playable) if hand.playable is not None else None,
            hand.hover,
            hand.selected,
            frozenset(hand.hidden),
            hand.suggested,
            self.app.settings.four_colour_deck,
        )
        if self._hand_layer is None or self._hand_layer[0] != key:
            self._hand_layer = (key, *self._render_hand(layout, hand))
        _, layer, origin = self._hand_layer
        surface.blit(layer, origin)

    def _render_hand(self, layout: TableLayout, hand: HandLook) -> tuple[pygame.Surface, tuple[int, int]]:
        count = len(hand.cards)
        lifted = set()
        if hand.playable is not None:
            lifted = {i for i, c in enumerate(hand.cards) if c in hand.playable}
        positions = hand_positions(layout, count, lifted)
        width = layout.hand_card_w
        art = self.art(width)
        shadow = self._shadow((width, layout.hand_card_h))
        # The layer spans the hand band plus room for raised and tilted cards.
        top = layout.hand_rect.top - round(layout.hand_card_h * 0.45)
        pad = round(width * 0.4)
        left = max(0, min(r.left for r, _ in positions) - pad)
        right = min(layout.width, max(r.right for r, _ in positions) + pad)
        area = pygame.Rect(left, top, right - left, layout.height - top)
        layer = pygame.Surface(area.size, pygame.SRCALPHA)
        for index, (rect, tilt) in enumerate(positions):
            if index in hand.hidden:
                continue
            card = hand.cards[index]
            if index == hand.selected or index == hand.hover:
                rect = rect.move(
                    0, -round(layout.hand_card_h * (RAISE_SELECTED if index == hand.selected else RAISE_HOVER))
                )
            elif hand.face_up and card in hand.suggested:
                rect = rect.move(0, -round(layout.hand_card_h * RAISE_HINT))  # the hint's card stands out
            look = "plain"
            if hand.playable is not None and hand.face_up:
                look = "glow" if card in hand.playable else "dim"
            image = self._hand_card(art, card, hand.face_up, look, tilt)
            centre = (rect.centerx - area.left, rect.centery - area.top)
            layer.blit(shadow, shadow.get_rect(center=(centre[0] + 3, centre[1] + 5)))
            layer.blit(image, image.get_rect(center=centre))
            if index == hand.selected:
                ring = self.rotations.get(self._selection_ring(art), tilt)
                layer.blit(ring, ring.get_rect(center=centre))
            elif hand.face_up and card in hand.suggested:
                ring = self.rotations.get(self._hint_ring(art), tilt)
                layer.blit(ring, ring.get_rect(center=centre))
        return layer, area.topleft

    def _hand_card(self, art: CardArt, card: int, face_up: bool, look: str, tilt: float) -> pygame.Surface:
        key = ("hand", art.width, card if face_up else -1, look)
        base = self._hand_cards.get(key)
        if base is None:
            base = (art.face(card_code(card)) if face_up else art.back()).copy()
            if look == "glow":
                base.blit(art.highlight_overlay(), (0, 0))
            elif look == "dim":
                base.blit(art.dim_overlay(), (0, 0))
            self._hand_cards.put(key, base)
        return self.rotations.get(base, tilt)

    def _selection_ring(self, art: CardArt) -> pygame.Surface:
        key = ("ring-sel", art.width)
        ring = self._sized.get(key)
        if ring is None:
            # The keyboard's focus ring, as on every other control, round the card's edge.
            margin = FOCUS_GAP + FOCUS_WIDTH + 2
            ring = pygame.Surface((art.size[0] + 2 * margin, art.size[1] + 2 * margin), pygame.SRCALPHA)
            draw_focus_ring(ring, pygame.Rect(margin, margin, *art.size), max(3, art.width // 14))
            self._sized.put(key, ring)
        return ring

    def _hint_ring(self, art: CardArt) -> pygame.Surface:
        """The frame round a card a hint suggests."""
        key = ("ring-hint", art.width)
        ring = self._sized.get(key)
        if ring is None:
            ring = pygame.Surface(art.size, pygame.SRCALPHA)
            # White, not gold: playable cards already glow gold.
            pygame.draw.rect(
                ring, HINT_RING, ring.get_rect(), width=max(3, art.width // 22), border_radius=max(3, art.width // 14)
            )
            self._sized.put(key, ring)
        return ring

    def _draw_flying(self, surface: pygame.Surface, model: TableModel) -> None:
        for sprite in sorted(model.flying, key=lambda s: s.z):
            self.draw_card_sprite(
                surface, sprite.card, sprite.width, (sprite.x, sprite.y), sprite.angle, sprite.flip, sprite.alpha
            )

    def draw_card_sprite(
        self,
        surface: pygame.Surface,
        card: int,
        width: int,
        centre: tuple[float, float],
        angle: float = 0.0,
        flip: float = 1.0,
        alpha: int = 255,
        shadow: bool = True,
    ) -> None:
        """One free card: ``flip`` 0..1 turns it from back to face through edge-on."""
        face_up = flip >= 0.5 and card >= 0
        squeeze = abs(math.cos(math.pi * flip)) if 0.0 < flip < 1.0 else 1.0
        image = self.card_image(card, width, face_up)
        cx, cy = round(centre[0]), round(centre[1])
        if shadow and alpha > 200 and squeeze > 0.9:
            sh = self._shadow((width, round(width * 1.4)))
            surface.blit(sh, sh.get_rect(center=(cx + 5, cy + 8)))
        self.rotations.blit(surface, image, (cx, cy), angle, max(0.04, squeeze), alpha)

    def _draw_floaters(self, surface: pygame.Surface, model: TableModel) -> None:
        for floater in model.floaters:
            image = self.text.render(floater.text, floater.size, floater.colour, bold=True, shadow=True)
            self.rotations.blit(surface, image, (round(floater.x), round(floater.y)), alpha=floater.alpha)

    # ------------------------------------------------------------------ messages
    def _draw_overlay(self, surface: pygame.Surface, model: TableModel, layout: TableLayout, overlay: Overlay) -> None:
        fu = layout.font_unit
        if overlay.result is not None and not model.banner:
            result, result_colour = overlay.result
            self._pill(
                surface,
                result,
                (layout.centre[0], layout.trick_rect.top - round(fu * 0.4)),
                round(fu * 1.0),
                result_colour,
                layout,
            )
        if model.banner:
            self._pill(
                surface,
                model.banner,
                (layout.centre[0], layout.trick_rect.top - round(fu * 0.4)),
                round(fu * 1.1),
                theme.PANEL_TITLE,
                layout,
            )
        # A network table's news outranks the prompt (a refusal's reason outranks both, briefly):
        # the message line stays in view below the table's dialogs.
        text = overlay.message or overlay.network or overlay.prompt
        if text:
            warning = overlay.message_warning if overlay.message else bool(overlay.network)
            colour = theme.WARNING if warning else theme.TEXT
            self._pill(surface, text, layout.message_centre, round(fu * 0.95), colour, layout, warning=warning)

    def _pill(
        self,
        surface: pygame.Surface,
        text: str,
        centre: tuple[int, int],
        size: int,
        colour: tuple[int, int, int],
        layout: TableLayout,
        warning: bool = False,
    ) -> None:
        key = ("pill", text, size, colour, warning, layout.width)
        image = self._pills.get(key)
        if image is None:
            label = self.text.fit(text, size, colour, round(layout.width * 0.7), bold=True)
            pad_x, pad_y = round(size * 0.9), round(size * 0.35)
            w, h = label.get_width() + 2 * pad_x, label.get_height() + 2 * pad_y
            image = pygame.Surface((w, h), pygame.SRCALPHA)
            background = theme.WARNING_BG if warning else (8, 18, 14, 215)
            pygame.draw.rect(image, background, image.get_rect(), border_radius=h // 2)
            pygame.draw.rect(
                image,
                theme.WARNING if warning else (*theme.PANEL_EDGE, 200),
                image.get_rect(),
                width=1,
                border_radius=h // 2,
            )
            image.blit(label, (pad_x, pad_y))
            self._pills.put(key, image)
        rect = image.get_rect(center=centre)
        rect.clamp_ip(surface.get_rect())
        surface.blit(image, rect)


def _with_alpha(surface: pygame.Surface) -> pygame.Surface:
    out = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
    out.blit(surface, (0, 0))
    return out
