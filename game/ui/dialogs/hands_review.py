"""Every hand of the deal just finished, face up: the hand's review."""

from __future__ import annotations

# Opened from the score pad at the end of a hand ("Review hands", or R), at
# a table where one person plays against the computers; hot seat never offers
# it, since it would show each person the others' cards. The cards come from
# the rules' ``FinishedHand`` (``Match.finished_hand``), which exists only
# once the hand is scored; the dialog never reads the game's hidden state.
#
# One row per seat, starting with the player at the bottom of the table and
# going round as the table does: the name, dealer and declarer marks, the
# tricks taken, and the cards as dealt, sorted as the table sorts a hand. A
# card that took a trick has a gold edge, so the rows also say who won which
# trick. A last row shows what lay apart: the Bid Whist kitty and the cards
# the declarer laid away, or the card Wizard turned up for trump.
#
# Esc, R, the Close button or a click outside the panel close it.

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

import pygame

from game.rules import GameDef
from game.rules.cards import card_code
from game.rules.finished_hand import FinishedHand
from game.ui import theme
from game.ui.text import t
from game.ui.widgets.button import Button
from game.ui.widgets.dialog import DialogScene
from game.ui.widgets.geometry import composition_room, ui_scale
from game.ui.widgets.text import draw_text_fit

if TYPE_CHECKING:
    from game.ui.app import App

CARD_RATIO = 1.4
#: The panel's size at factor 1, and the share of its width the names take.
BASE_SIZE = (1100, 640)
NAME_SHARE = 0.2
#: How much of a card the next one leaves in sight, at the least (its rank and suit corner).
MIN_SHOWN = 0.3


class HandsReviewDialog(DialogScene):
    """The finished hand ``hand`` with every card face up, rows from seat ``first_seat`` on."""

    cancellable = True
    solid_panel = True

    def __init__(
        self, app: App, hand: FinishedHand, names: Sequence[str], game: GameDef, rules: object, first_seat: int = 0
    ) -> None:
        super().__init__(app)
        self.hand = hand
        self.names = list(names)
        self.game = game
        players = len(hand.hands)
        self.seats = [(first_seat + offset) % players for offset in range(players)]
        self.sorted_hands = {
            seat: game.hand_order(list(hand.hands[seat]), hand.trump, max(0, hand.direction), rules)
            for seat in self.seats
        }
        self.title = t("handreview.title", deal=t(game.text("deal")), n=hand.deal_number)
        self.close_button = Button((0, 0, 1, 1), t("review.close"), self.close, kind="primary")
        self.rows: list[pygame.Rect] = []
        self.card_rects: dict[int, list[pygame.Rect]] = {}
        self.apart_rects: list[tuple[str, pygame.Rect, list[tuple[int, pygame.Rect]]]] = []
        self.label_h = 18
        self.legend_rect = pygame.Rect(0, 0, 1, 1)
        self.relayout()
        self.focus.focus(self.close_button)

    # ------------------------------------------------------------------ what it shows
    def took_with(self, seat: int) -> Counter[int]:
        """The cards ``seat`` took its tricks with (a Wizard deck's four Wizards are alike, so
        the count says how many of them to mark)."""
        return Counter(self.hand.winning_cards(seat))

    def seat_notes(self, seat: int) -> str:
        """Dealer and declarer marks and the tricks taken, for the row's second line."""
        notes = []
        if seat == self.hand.dealer:
            notes.append(t("pad.dealer"))
        if seat == self.hand.declarer:
            notes.append(t("table.declarer_short"))
        if not self.hand.redeal:
            notes.append(t("table.tricks", n=self.hand.tricks_won[seat]))
        return " · ".join(notes)

    def apart_groups(self) -> list[tuple[str, tuple[int, ...]]]:
        """The cards that lay apart from the hands, each group with its label."""
        hand = self.hand
        groups: list[tuple[str, tuple[int, ...]]] = []
        if hand.kitty:
            groups.append((t("handreview.kitty"), hand.kitty))
        if hand.discards and 0 <= hand.declarer < len(self.names):
            groups.append((t("handreview.discards", name=self.names[hand.declarer]), hand.discards))
        if hand.turn_up >= 0:
            groups.append((t("handreview.turn_up"), (hand.turn_up,)))
        return groups

    # ------------------------------------------------------------------ layout
    def layout(self, size: tuple[int, int]) -> None:
        width, height = size
        margin = max(6, round(min(width, height) * 0.02))
        room = composition_room((width - 2 * margin, height - 2 * margin), BASE_SIZE)
        self.scale = scale = ui_scale(size, room)
        content = self.centre_panel(size, round(BASE_SIZE[0] * scale), round(BASE_SIZE[1] * scale), margin)
        gap = max(4, round(8 * scale))
        foot_h = max(32, round(44 * scale))
        groups = self.apart_groups()
        count = len(self.seats) + (1 if groups else 0)
        row_h = (content.height - foot_h - gap - (count - 1) * gap) // max(1, count)
        self.label_h = label_h = max(16, min(round(26 * scale), row_h // 3))
        name_w = max(110, round(content.width * NAME_SHARE))
        cards_left = content.left + name_w + gap
        cards_w = content.right - cards_left
        longest = max([len(cards) for cards in self.hand.hands] + [1])
        # The cards as tall as a row allows, narrower if a full hand would not show each corner.
        card_h = max(24, row_h - 4)
        card_w = round(card_h / CARD_RATIO)
        if longest > 1 and card_w + (longest - 1) * card_w * MIN_SHOWN > cards_w:
            card_w = max(16, int(cards_w / (1 + (longest - 1) * MIN_SHOWN)))
        card_w = min(card_w, round(100 * scale))
        card_h = round(card_w * CARD_RATIO)
        step = card_w + gap // 2 if longest <= 1 else min(card_w + gap // 2, (cards_w - card_w) / (longest - 1))
        self.rows = []
        self.card_rects = {}
        top = content.top
        for seat in self.seats:
            row = pygame.Rect(content.left, top, content.width, row_h)
            self.rows.append(row)
            card_top = row.centery - card_h // 2
            self.card_rects[seat] = [
                pygame.Rect(round(cards_left + index * step), card_top, card_w, card_h)
                for index in range(len(self.sorted_hands[seat]))
            ]
            top += row_h + gap
        self.apart_rects = []
        if groups:
            row = pygame.Rect(content.left, top, content.width, row_h)
            self.rows.append(row)
            # Each group's label, then its cards; the first label takes the names' column. The
            # cards overlap more where the groups would not fit side by side.
            later_label_w = min(cards_w // 3, max(80, round(150 * scale)))
            fixed = len(groups) * card_w + (len(groups) - 1) * (later_label_w + 4 * gap)
            overlaps = sum(len(cards) - 1 for _, cards in groups)
            if overlaps:
                step = max(1.0, min(step, (cards_w - fixed) / overlaps))
            x = content.left + 6
            for label, cards in groups:
                label_w = (cards_left - gap - x) if x < cards_left else later_label_w
                label_rect = pygame.Rect(x, row.centery - label_h // 2, label_w, label_h)
                placed = [
                    (
                        card,
                        pygame.Rect(
                            round(label_rect.right + gap + index * step), row.centery - card_h // 2, card_w, card_h
                        ),
                    )
                    for index, card in enumerate(cards)
                ]
                self.apart_rects.append((label, label_rect, placed))
                x = placed[-1][1].right + 3 * gap
        button_w = min(content.width // 3, max(120, round(180 * scale)))
        self.close_button.set_rect(pygame.Rect(content.right - button_w, content.bottom - foot_h, button_w, foot_h))
        self.legend_rect = pygame.Rect(content.left, content.bottom - foot_h, content.width - button_w - gap, foot_h)
        self.focus.set_widgets([self.close_button])

    # ------------------------------------------------------------------ input
    def handle_extra_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_r:
            self.close()
            return True
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1 and not self.panel_rect.collidepoint(event.pos):
            self.close()
            return True
        return False

    # ------------------------------------------------------------------ drawing
    def _draw_card(self, surface: pygame.Surface, card: int, rect: pygame.Rect, took: bool) -> None:
        surface.blit(self.app.card_art(rect.width).face(card_code(card)), rect)
        if took:
            pygame.draw.rect(surface, theme.ACCENT, rect.inflate(4, 4), width=3, border_radius=max(3, rect.width // 10))

    def draw_content(self, surface: pygame.Surface) -> None:
        size = round(self.label_h * 0.8)
        for index, (seat, row) in enumerate(zip(self.seats, self.rows)):
            if index % 2:
                stripe = pygame.Surface(row.size, pygame.SRCALPHA)
                stripe.fill(theme.ROW_ALT)
                surface.blit(stripe, row.topleft)
            cards = self.card_rects[seat]
            name_w = (cards[0].left if cards else row.right) - row.left - 8
            name_rect = pygame.Rect(row.left + 6, row.centery - self.label_h, name_w, self.label_h)
            colour = theme.TEAM_COLOURS[self.game.team_of(seat)] if self.game.partnerships else theme.TEXT
            draw_text_fit(surface, self.names[seat], name_rect, size, colour, align="left", bold=True)
            draw_text_fit(
                surface,
                self.seat_notes(seat),
                name_rect.move(0, self.label_h),
                round(size * 0.85),
                theme.TEXT_DIM,
                align="left",
            )
            took = self.took_with(seat)
            for card, rect in zip(self.sorted_hands[seat], cards):
                self._draw_card(surface, card, rect, took[card] > 0)
                took[card] -= 1
        # The declarer may take a trick with a card the kitty brought in: it is marked there.
        kitty_took = (
            self.took_with(self.hand.declarer) - Counter(self.hand.hands[self.hand.declarer])
            if self.hand.declarer >= 0
            else Counter()
        )
        for group, (label, label_rect, placed) in enumerate(self.apart_rects):
            draw_text_fit(surface, label, label_rect, size, theme.TEXT_DIM, align="left", bold=True)
            for card, rect in placed:
                self._draw_card(surface, card, rect, group == 0 and kitty_took[card] > 0)
        note = t("handreview.redeal") if self.hand.redeal else t("handreview.legend")
        draw_text_fit(surface, note, self.legend_rect, round(size * 0.9), theme.TEXT_DIM, align="left")
