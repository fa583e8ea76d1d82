"""The replay viewer: step through a finished game with every hand face up."""

from __future__ import annotations

# It shows one position of a ``game.persistence.replay_timeline.ReplayTimeline`` at a time: the
# engine's state after the deal, a bid, a trump or contract choice, a discard
# or a card. Every seat's hand is drawn face up around the table (sorted as
# the card table sorts it), with the seat's name, level, bid and tricks; the
# middle shows the trick being played (or the trick just won, its winner
# ringed), the trump or contract, the card turned up, the kitty during the
# bidding and the declarer's discards. A line above the table says what the
# last step did, in the hand log's words. The score pad alongside lists every
# deal scored so far, the current one marked.
#
# The UI scale grows the type, the plates and the buttons as far as the
# screen's own layout still holds them (``ReplayScene.room``); the cards, sized
# to what is left of the table, give up at most a quarter of their size to them.
#
# Keys: Left/Right one step, Page Up/Page Down one trick (the deal, the end
# of the bidding, each trick won), Up/Down one deal, Home/End the start and
# the end of the game, Esc closes. The buttons along the foot do the same
# with the mouse.
#
# Opened from the statistics screen ("Watch replay") or from the command line
# (``python main.py replay FILE [--game N]``, where closing it ends the program). ``from_file`` reads the game
# through ``game.persistence.replay_timeline.load_recorded_game`` and returns the problem in the
# player's language instead of a scene when the file or game cannot be
# replayed. Nothing moves by itself, so the scene sleeps between key presses
# (``wake_in`` is None except while a message fades).

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from game.persistence.replay_timeline import STEP_TRICK, ReplayError, ReplayStep, ReplayTimeline, load_recorded_game
from game.persistence.stats import HUMAN, level_of
from game.rules import Phase
from game.rules.cards import card_code
from game.ui import theme
from game.ui.art.table_art import draw_felt
from game.ui.scenes.stats_scene import level_label
from game.ui.table.hand_log import hand_log
from game.ui.table.hints import card_words
from game.ui.table.model import bid_label
from game.ui.text import error_words, suit_word, t, team_words
from game.ui.widgets.button import Button
from game.ui.widgets.charts import SERIES_COLOURS
from game.ui.widgets.dialog import DialogScene
from game.ui.widgets.geometry import measured_room, split_columns, ui_scale, window_scale
from game.ui.widgets.panels import draw_panel, panel_content
from game.ui.widgets.text import draw_text_fit, draw_text_wrapped, fit_size, fit_wrapped, text_size

if TYPE_CHECKING:
    from game.rules import PlayerView
    from game.ui.app import App
    from game.ui.art.card_art import CardArt

# Where each seat's block goes, clockwise from the bottom seat, per number of
# players: (across, row), ``across`` from 0 (left) to 1 (right), ``row`` 0 the
# top, 1 the middle (beside the trick), 2 the bottom.
SEAT_SLOTS: dict[int, list[tuple[float, int]]] = {
    3: [(0.5, 2), (0.0, 0), (1.0, 0)],
    4: [(0.5, 2), (0.0, 1), (0.5, 0), (1.0, 1)],
    5: [(0.5, 2), (0.0, 2), (0.25, 0), (0.75, 0), (1.0, 2)],
    6: [(0.5, 2), (0.0, 2), (0.0, 0), (0.5, 0), (1.0, 0), (1.0, 2)],
}
# The width of a block beside the trick, of the table's width.
SIDE_BLOCK_WIDTH = 0.36
# Of each card in a hand, the part left showing by the next one (at least).
HAND_OVERLAP = 0.3
# A card's height to its width.
CARD_RATIO = 1.4
# The larger type and controls of a grown UI scale take room from the table, so its cards
# shrink; they give up at most this share of the size they have at 100%.
CARD_SHARE_GIVEN_UP = 0.25
# The keys' help at the foot of the score pad: three lines.
KEYS_LINES = 3


class ReplayScene(DialogScene):
    """The replay viewer (see the module docstring)."""

    opaque = True
    modal = True
    cancellable = True

    def __init__(self, app: App, timeline: ReplayTimeline, number: int = 1) -> None:
        super().__init__(app)
        self.timeline = timeline
        self.number = number
        self.position = 0
        record = timeline.record
        self.names = [str(player.get("name", "")) for player in record["players"]]
        self.levels = [level_of(player.get("controller")) for player in record["players"]]
        self.game_def = timeline.game
        deal = t(self.game_def.text("deal"))
        self.title = t("replay.title", game=t(self.game_def.text("title")), number=number)
        self.buttons = [
            Button((0, 0, 1, 1), t("replay.start"), lambda: self.go(0)),
            Button((0, 0, 1, 1), t("replay.deal_back", deal=deal), lambda: self.go(self._previous(deal=True))),
            Button((0, 0, 1, 1), t("replay.trick_back"), lambda: self.go(self._previous())),
            Button((0, 0, 1, 1), t("replay.step_back"), lambda: self.go(self.position - 1)),
            Button((0, 0, 1, 1), t("replay.step_forward"), lambda: self.go(self.position + 1), kind="primary"),
            Button((0, 0, 1, 1), t("replay.trick_forward"), lambda: self.go(self.timeline.next_mark(self.position))),
            Button(
                (0, 0, 1, 1),
                t("replay.deal_forward", deal=deal),
                lambda: self.go(self.timeline.next_mark(self.position, deal=True)),
            ),
            Button((0, 0, 1, 1), t("replay.end"), lambda: self.go(self.timeline.last)),
        ]
        self.close_button = Button((0, 0, 1, 1), t("replay.close"), self.cancel)
        # The most cards any seat holds after a deal: the hands' width is laid out for it.
        self.biggest_hand = max(
            len(step.state.view(seat).hand)
            for step in timeline.steps
            if step.is_deal_mark
            for seat in range(len(self.names))
        )
        self._refresh_buttons()

    @classmethod
    def from_file(cls, app: App, path: str, number: int = 1) -> ReplayScene | str:
        """The viewer on game ``number`` of ``path``, or what went wrong in words."""
        try:
            record = load_recorded_game(path, number)
            return cls(app, ReplayTimeline(record), number)
        except ReplayError as exc:
            return t("replay.cannot_open", reason=error_words(exc))

    # ------------------------------------------------------------------ moving
    @property
    def step(self) -> ReplayStep:
        return self.timeline[self.position]

    def go(self, index: int) -> None:
        self.position = self.timeline.clamp(index)
        self._refresh_buttons()
        self.invalidate()

    def _previous(self, deal: bool = False) -> int:
        return self.timeline.previous_mark(self.position, deal=deal)

    def _refresh_buttons(self) -> None:
        at_start, at_end = self.position == 0, self.position == self.timeline.last
        for index, button in enumerate(self.buttons):
            button.enabled = not at_start if index < 4 else not at_end

    def cancel(self) -> None:
        if len(getattr(self.app, "scenes", [])) > 1:
            self.app.pop(self)
        else:  # opened on its own from the command line (replay FILE): closing it ends the program
            self.app.quit()

    def handle_extra_event(self, event: pygame.event.Event) -> bool:
        if event.type != pygame.KEYDOWN:
            return False
        moves: dict[int, Callable[[], int]] = {
            pygame.K_RIGHT: lambda: self.position + 1,
            pygame.K_LEFT: lambda: self.position - 1,
            pygame.K_PAGEDOWN: lambda: self.timeline.next_mark(self.position),
            pygame.K_PAGEUP: lambda: self._previous(),
            pygame.K_DOWN: lambda: self.timeline.next_mark(self.position, deal=True),
            pygame.K_UP: lambda: self._previous(deal=True),
            pygame.K_HOME: lambda: 0,
            pygame.K_END: lambda: self.timeline.last,
        }
        target = moves.get(event.key)
        if target is None:
            return False
        self.go(target())
        return True

    def handle_event(self, event: pygame.event.Event) -> bool:
        # The arrows step through the game; the focus group would move the focus with them.
        if event.type == pygame.KEYDOWN and self.handle_extra_event(event):
            return True
        return super().handle_event(event)

    # ------------------------------------------------------------------ layout
    def layout(self, size: tuple[int, int]) -> None:
        self.scale = ui_scale(size, self.room(size))
        self._place(size, self.scale)
        self.focus.set_widgets([*self.buttons, self.close_button])

    def room(self, size: tuple[int, int]) -> float:
        """The largest size factor (up to the player's choice) at which this screen still fits.

        The viewer fills the window, so it measures by laying itself out (``measured_room``):
        every text that is whole at the window's own factor stays whole at its grown size
        (the buttons' labels, the keys' help, the seats' names beside their levels and the
        plates' two lines), the score pad still holds the deal's notes and cards, its heading,
        a row and the keys, and the cards give up at most ``CARD_SHARE_GIVEN_UP`` of their size.
        """
        own = window_scale(size)
        if ui_scale(size, math.inf) <= own:
            return own  # at 100% there is nothing to measure
        self._place(size, own)
        usual_cards = self.card_w
        whole_at_own = self._whole_texts(own)

        def fits(scale: float) -> bool:
            self._place(size, scale)
            whole = self._whole_texts(scale)
            texts_kept = all(whole[name] for name, was_whole in whole_at_own.items() if was_whole)
            cards_kept = self.card_w >= usual_cards * (1 - CARD_SHARE_GIVEN_UP)
            return texts_kept and cards_kept and self._pad_holds(scale)

        return measured_room(size, fits)

    def _place(self, size: tuple[int, int], scale: float) -> None:
        """Lay the screen out at size factor ``scale``."""
        width, height = size
        self.scale = scale
        margin = max(6, round(14 * scale))
        gap = max(4, round(8 * scale))
        self.panel_rect = pygame.Rect(0, 0, width, height)
        top_h = max(22, round(34 * scale))
        self.title_rect = pygame.Rect(margin, margin // 2, round(width * 0.5), top_h)
        self.position_rect = pygame.Rect(
            self.title_rect.right + gap, margin // 2, width - margin - self.title_rect.right - gap, top_h
        )
        self.caption_rect = pygame.Rect(margin, self.title_rect.bottom, width - 2 * margin, max(30, round(44 * scale)))
        foot_h = max(28, round(42 * scale))
        foot = pygame.Rect(margin, height - margin // 2 - foot_h, width - 2 * margin, foot_h)
        close_w = max(80, round(120 * scale))
        self.close_button.set_rect(pygame.Rect(foot.right - close_w, foot.top, close_w, foot_h))
        nav = pygame.Rect(foot.left, foot.top, foot.width - close_w - 2 * gap, foot_h)
        for button, rect in zip(self.buttons, split_columns(nav, len(self.buttons), max(3, gap // 2))):
            button.set_rect(rect)
        body = pygame.Rect(
            margin,
            self.caption_rect.bottom + gap // 2,
            width - 2 * margin,
            max(60, foot.top - gap - self.caption_rect.bottom - gap // 2),
        )
        pad_w = round(body.width * 0.27)
        self.table_rect = pygame.Rect(body.left, body.top, body.width - pad_w - gap, body.height)
        self.pad_rect = pygame.Rect(self.table_rect.right + gap, body.top, pad_w, body.height)
        self._layout_seats(scale / window_scale(size))

    @staticmethod
    def _text_sizes(scale: float) -> tuple[int, int]:
        """The type of the screen's lines and of the seats' plates and the score pad at ``scale``."""
        size = max(15, round(22 * scale))
        return size, max(12, round(size * 0.8))

    def _whole_texts(self, scale: float) -> dict[str, bool]:
        """Which of the texts whose room the layout sets show whole at their size (neither
        shrunk nor cut) as laid out at ``scale``: each button's label, the keys' help, each
        seat's name beside its level, and the height of a plate's line."""
        small = self._text_sizes(scale)[1]
        whole: dict[str, bool] = {}
        for index, button in enumerate([*self.buttons, self.close_button]):
            inner = button.text_width(), button.rect.height - max(4, button.rect.height // 6)
            asked = max(12, round(button.rect.height * 0.5))
            whole[f"button {index}"] = fit_size(button.label, inner[0], inner[1], asked, bold=True) == asked
        keys_width = panel_content(self.pad_rect, True, scale).inflate(-6, -4).width
        whole["keys"] = fit_wrapped(t("replay.keys"), keys_width, self._keys_height(small), small)[0] == small
        line = self.plate_h // 2 - 1
        whole["plate lines"] = text_size("Ág", small, True)[1] * 0.72 <= line
        for seat, block in self.seat_blocks.items():
            name_w = text_size(self._plate_name(seat), small, True)[0]
            level_w = text_size(level_label(self.levels[seat]), small)[0]
            whole[f"seat {seat}"] = name_w + small // 2 + level_w <= block.width - 8
        title_size = round(30 * scale)
        whole["title"] = (
            fit_size(self.title or "", self.title_rect.width, self.title_rect.height, title_size, bold=True)
            == title_size
        )
        size = self._text_sizes(scale)[0]
        whole["position"] = (
            fit_size(
                self._position_words(self.timeline.last), self.position_rect.width, self.position_rect.height, size
            )
            == size
        )
        return whole

    @staticmethod
    def _keys_height(small: int) -> int:
        """The height of the keys' help at the pad's foot, at the pad's type size ``small``."""
        return round(small * 1.25) * KEYS_LINES

    def _pad_holds(self, scale: float) -> bool:
        """Whether the score pad holds, one under the other, the most its top shows (a line
        for the trump or contract, a labelled row of cards), its heading, a row of scores and
        the keys' help, so none of them is drawn over another."""
        _, small = self._text_sizes(scale)
        content = panel_content(self.pad_rect, True, scale).inflate(-6, -4)
        line_h = round(small * 1.3)
        art_w = max(14, min(round(self.card_w * 0.8), round(content.width / 3.5)))
        deal_info = 2 * line_h + round(art_w * CARD_RATIO) + 4 + 6
        row_h = max(16, line_h)
        return content.height >= deal_info + 2 * row_h + 2 + 4 + self._keys_height(small)

    def _layout_seats(self, growth: float) -> None:
        """One block per seat around the table, the first human (or seat 1) at the bottom,
        the others clockwise from it, in the slots of ``SEAT_SLOTS``. ``growth`` is how much
        the UI scale grows the type (1 at 100%): the plates grow with it to keep their lines."""
        area = self.table_rect.inflate(-8, -8)
        players = len(self.names)
        bottom = next((seat for seat, level in enumerate(self.levels) if level == HUMAN), 0)
        biggest = self.biggest_hand
        slots = SEAT_SLOTS.get(players) or SEAT_SLOTS[max(SEAT_SLOTS)]
        side_by_side = any(row == 1 for _, row in slots)
        gap = max(6, area.width // 60)
        columns = 2 if players == 3 else 3
        block_w = (
            round(area.width * SIDE_BLOCK_WIDTH) if side_by_side else (area.width - (columns - 1) * gap) // columns
        )
        plate_h = max(30, round(area.height * 0.085 * growth))
        # Cards as large as fit: the biggest hand in a block's width with 30% of each
        # card showing; a block above and below a trick two cards high; and, with
        # blocks beside the trick, three cards across the gap between them.
        card_w = min(
            round(block_w / (1 + HAND_OVERLAP * max(0, biggest - 1))),
            round((area.height - 2 * plate_h) / 4.4 / CARD_RATIO),
        )
        if side_by_side:
            card_w = min(card_w, round((area.width - 2 * block_w) / 3.4))
        self.card_w = max(18, card_w)
        self.card_h = round(self.card_w * CARD_RATIO)
        self.plate_h = plate_h
        block_h = plate_h + self.card_h + 4
        self.seat_blocks: dict[int, pygame.Rect] = {}
        self.seat_points: dict[int, tuple[float, float]] = {}
        for seat in range(players):
            across, row = slots[(seat - bottom) % players]
            block = pygame.Rect(0, 0, block_w, block_h)
            block.centerx = round(area.left + block_w / 2 + across * (area.width - block_w))
            block.top = (area.top, area.centery - block_h // 2, area.bottom - block_h)[row]
            self.seat_blocks[seat] = block
            self.seat_points[seat] = (across * 2 - 1, row - 1)

    def reason_rect(self) -> pygame.Rect:
        return self.caption_rect

    # ------------------------------------------------------------------ drawing
    def draw_static(self, surface: pygame.Surface) -> None:
        surface.blit(draw_felt(surface.get_size()), (0, 0))
        scale = self.scale
        size, _ = self._text_sizes(scale)
        step = self.step
        draw_text_fit(
            surface, self.title or "", self.title_rect, round(30 * scale), theme.PANEL_TITLE, align="left", bold=True
        )
        draw_text_fit(
            surface, self._position_words(self.position), self.position_rect, size, theme.TEXT_DIM, align="right"
        )
        if not self.toast.active:
            draw_text_wrapped(
                surface, self.caption(), self.caption_rect, size, theme.TEXT, align="left", valign="center"
            )
        self._draw_table(surface, step, size)
        self._draw_pad(surface, size)
        self.focus.draw(surface)

    def _position_words(self, position: int) -> str:
        """Where step ``position`` is in the game: its deal of all deals, its step of all steps."""
        deals = len(self.timeline.record["deals"])
        return t(
            "replay.position",
            deal=t(self.game_def.text("deal")),
            number=self.timeline[position].deal_index + 1,
            deals=deals,
            step=position + 1,
            steps=len(self.timeline),
        )

    def caption(self) -> str:
        """What the step on screen did, in the hand log's words."""
        step = self.step
        if step.kind == "play" and step.action is not None:
            return t("replay.played", name=self.names[step.seat], card=card_words(step.action.value))
        lines = [line.text for line in hand_log(step.events, self.names, self.game_def)]
        if step.kind == STEP_TRICK and step.action is not None:
            lines.insert(0, t("replay.played", name=self.names[step.seat], card=card_words(step.action.value)))
        return " · ".join(lines) if lines else t("replay.dealt")

    def _draw_table(self, surface: pygame.Surface, step: ReplayStep, size: int) -> None:
        state = step.state
        public = state.view(-1)
        art = self.app.card_art(self.card_w)
        small = max(12, round(size * 0.8))
        for seat, block in self.seat_blocks.items():
            view = state.view(seat)
            self._draw_seat(surface, seat, block, view, public, art, small)
        self._draw_middle(surface, step, public, art, small)

    def _seat_colour(self, seat: int) -> tuple[int, ...]:
        if self.game_def.partnerships:
            return theme.TEAM_COLOURS[self.game_def.team_of(seat) % len(theme.TEAM_COLOURS)]
        return SERIES_COLOURS[seat % len(SERIES_COLOURS)]

    def _draw_seat(
        self,
        surface: pygame.Surface,
        seat: int,
        block: pygame.Rect,
        view: PlayerView,
        public: PlayerView,
        art: CardArt,
        size: int,
    ) -> None:
        plate = pygame.Rect(block.left, block.top, block.width, self.plate_h)
        acting = public.current_player == seat
        pygame.draw.rect(surface, (*theme.INPUT_BG[:3],), plate, border_radius=6)
        pygame.draw.rect(
            surface,
            theme.ACCENT if acting else self._seat_colour(seat),
            plate,
            width=2 if acting else 1,
            border_radius=6,
        )
        name = self._plate_name(seat, public.dealer == seat)
        top, bottom = plate.inflate(-8, -2).copy(), plate.inflate(-8, -2).copy()
        top.height = bottom.height = plate.height // 2 - 1
        bottom.top = top.bottom
        draw_text_fit(surface, name, top, size, self._seat_colour(seat), align="left", bold=True)
        draw_text_fit(surface, level_label(self.levels[seat]), top, size, theme.TEXT_DIM, align="right")
        draw_text_fit(surface, self._seat_line(seat, view, public), bottom, size, theme.TEXT, align="left")
        direction = self.game_def.adapter.table_figures(public).direction
        hand = self.game_def.hand_order(list(view.hand), public.trump, max(0, direction), rules=public.rules)
        card_top = plate.bottom + 4
        if not hand:
            return
        spacing = min(self.card_w * 0.62, (block.width - self.card_w) / max(1, len(hand) - 1))
        total = self.card_w + spacing * (len(hand) - 1)
        left = block.centerx - total / 2
        for index, card in enumerate(hand):
            surface.blit(art.face(card_code(card)), (round(left + index * spacing), card_top))

    def _plate_name(self, seat: int, dealer: bool = True) -> str:
        """The seat's name on its plate, marked when it deals (measured with the mark, the longer)."""
        name = self.names[seat]
        return f"{name} ({t('replay.dealer')})" if dealer else name

    def _seat_line(self, seat: int, view: PlayerView, public: PlayerView) -> str:
        """Under the name: the seat's bid and tricks this deal."""
        took = public.tricks_won[seat] if seat < len(public.tricks_won) else 0
        adapter = self.game_def.adapter
        predictions = adapter.table_figures(view).predictions
        if predictions:
            bid = predictions[seat]
            return t("replay.bid_took", bid=bid, took=took) if bid >= 0 else t("replay.took", took=took)
        bids = [
            shown.action
            for shown in adapter.table_figures(public).bids
            if shown.seat == seat and shown.action is not None
        ]
        if bids:
            return f"{bid_label(bids[-1])} · {t('replay.took', took=took)}"
        return t("replay.took", took=took)

    def trick_on_table(self, step: ReplayStep, public: PlayerView) -> tuple[list[tuple[int, int, pygame.Rect]], int]:
        """The cards in the middle as (seat, card, rect), and the seat that won them (-1: not yet won)."""
        centre = self.table_rect.center
        plays = list(public.trick)
        winner = -1
        if not plays and step.kind == STEP_TRICK and public.tricks:
            last = public.tricks[-1]  # the trick just won stays on the table for this step
            plays, winner = list(last.plays), last.winner
        # Each card a little way from the middle towards the seat that played it.
        reach_x, reach_y = self.card_w * 1.1, self.card_h * 0.62
        placed = []
        for seat, card in plays:
            dx, dy = self.seat_points[seat]
            rect = pygame.Rect(0, 0, self.card_w, self.card_h)
            rect.center = (round(centre[0] + dx * reach_x), round(centre[1] + dy * reach_y))
            placed.append((seat, card, rect))
        return placed, winner

    def game_over_rect(self, trick: list[pygame.Rect], size: int) -> pygame.Rect:
        """Where "Game over" goes: beside the last trick, never over it (it once sat across
        the trick's middle), nor over a seat's plate. The game is over, so the hands are
        empty and the room above and below the trick is free up to the plates."""
        area = self.table_rect
        banner = pygame.Rect(0, 0, round(area.width * 0.3), round(size * 1.6))
        plates = [pygame.Rect(block.left, block.top, block.width, self.plate_h) for block in self.seat_blocks.values()]
        blocked = trick + plates
        spread = trick[0].unionall(trick[1:]) if trick else pygame.Rect(area.center, (0, 0))
        gap = max(4, size // 3)
        tries = []
        for y in (spread.top - gap - banner.height, spread.bottom + gap):  # just above the trick, then below
            tries.append(banner.move(spread.centerx - banner.width // 2, y))
        for x in (spread.left - gap - banner.width, spread.right + gap):  # then beside it
            tries.append(banner.move(x, spread.centery - banner.height // 2))
        for avoid in (blocked, trick):  # clear of everything; else at least of the trick
            for rect in tries:
                if area.contains(rect) and rect.collidelist(avoid) < 0:
                    return rect
        banner.center = area.center  # no trick on the table to cover
        return banner

    def _draw_middle(
        self, surface: pygame.Surface, step: ReplayStep, public: PlayerView, art: CardArt, size: int
    ) -> None:
        placed, winner = self.trick_on_table(step, public)
        for seat, card, rect in placed:
            surface.blit(art.face(card_code(card)), rect)
            if seat == winner:
                pygame.draw.rect(surface, theme.ACCENT, rect.inflate(4, 4), width=3, border_radius=6)
        if step.state.is_terminal:
            over = self.game_over_rect([rect.inflate(4, 4) for _, _, rect in placed], size)
            draw_text_fit(surface, t("replay.game_over"), over, round(size * 1.2), theme.ACCENT, bold=True)

    def _draw_deal_info(self, surface: pygame.Surface, rect: pygame.Rect, size: int) -> int:
        """The trump or contract, and the turn-up, kitty or discards, at the top of the
        side column; returns how far down it reached."""
        step = self.step
        public = step.state.view(-1)
        line_h = round(size * 1.3)
        top = rect.top
        for text in self._middle_notes(public):
            draw_text_fit(
                surface,
                text,
                pygame.Rect(rect.left, top, rect.width, line_h),
                size,
                theme.ACCENT,
                align="left",
                bold=True,
            )
            top += line_h
        extra = self._middle_cards(step, public)
        if extra:
            label, cards = extra
            draw_text_fit(
                surface, label, pygame.Rect(rect.left, top, rect.width, line_h), size, theme.TEXT_DIM, align="left"
            )
            top += line_h
            art = self.app.card_art(max(14, min(round(self.card_w * 0.8), round(rect.width / 3.5))))
            width, height = art.size
            spacing = min(width * 0.8, (rect.width - width) / max(1, len(cards) - 1))
            for index, card in enumerate(cards):
                surface.blit(art.face(card_code(card)), (round(rect.left + index * spacing), top))
            top += height + 4
        return top

    def _middle_notes(self, public: PlayerView) -> list[str]:
        """The trump or contract in words."""
        figures = self.game_def.adapter.table_figures(public)
        declarer, mode = figures.declarer, figures.contract_mode
        if declarer >= 0 and mode >= 0:
            from game.ui.table.animations import contract_words

            words = contract_words(figures.contract_books, mode, public.trump, figures.direction)
            return [f"{self.names[declarer]}: {words}"]
        if public.trump >= 0:
            return [t("replay.trump", suit=suit_word(public.trump))]
        if public.phase in (Phase.PLAY, Phase.HAND_OVER, Phase.GAME_OVER):
            return [t("replay.no_trump")]
        return []

    def _middle_cards(self, step: ReplayStep, public: PlayerView) -> tuple[str, list[int]] | None:
        """The card turned up for trump, the kitty while it is bid for, or the declarer's discards."""
        adapter = self.game_def.adapter
        figures = adapter.table_figures(public)
        if figures.turn_up >= 0:
            return t("replay.turn_up"), [figures.turn_up]
        declarer = figures.declarer
        if declarer >= 0:
            discards = list(adapter.table_figures(step.state.view(declarer)).laid_aside)
            return (t("replay.discards"), discards) if discards else None
        if public.phase == Phase.BID:
            from game.rules.cards import parse_card

            deal = self.timeline.record["deals"][step.deal_index]
            kitty = [parse_card(code) for code in deal.get("kitty", [])]
            return (t("replay.kitty"), kitty) if kitty else None
        return None

    # ------------------------------------------------------------------ score pad
    def pad_rows(self) -> list[tuple[int, list[int]]]:
        """(deal number, running scores) of every deal scored by the step on screen."""
        step = self.step
        deals = self.timeline.record["deals"]
        scored_now = step.state.phase in (Phase.HAND_OVER, Phase.GAME_OVER)
        last = step.deal_index if scored_now else step.deal_index - 1
        return [
            (int(deal.get("number", index + 1)), list(deal.get("scores") or []))
            for index, deal in enumerate(deals[: last + 1])
            if deal.get("scores")
        ]

    def _draw_pad(self, surface: pygame.Surface, size: int) -> None:
        draw_panel(surface, self.pad_rect, t("replay.pad"), factor=self.scale)
        content = panel_content(self.pad_rect, True, self.scale).inflate(-6, -4)
        players = len(self.names)
        sides = self.game_def.score_sides(players)
        small = max(12, round(size * 0.8))
        row_h = max(16, round(small * 1.3))
        below = self._draw_deal_info(surface, content, small)
        if below > content.top:
            pygame.draw.line(surface, theme.PANEL_EDGE, (content.left, below + 2), (content.right, below + 2))
            content = pygame.Rect(content.left, below + 6, content.width, max(row_h, content.bottom - below - 6))
        columns = split_columns(
            pygame.Rect(
                content.left + round(content.width * 0.14),
                content.top,
                content.width - round(content.width * 0.14),
                row_h,
            ),
            sides,
            2,
        )
        number_rect = pygame.Rect(content.left, content.top, round(content.width * 0.14), row_h)
        draw_text_fit(surface, t("replay.pad_deal"), number_rect, small, theme.ACCENT, bold=True)
        labels = [
            team_words([self.names[seat][:8] for seat in self.game_def.team_members(side, players)])
            for side in range(sides)
        ]
        # The names share one size, the one the longest fits its column at: each shrunk on its
        # own, they came out in uneven sizes.
        label_size = min(
            (fit_size(label, rect.width, rect.height, small, True) for label, rect in zip(labels, columns)),
            default=small,
        )
        for side, (label, rect) in enumerate(zip(labels, columns)):
            members = self.game_def.team_members(side, players)
            draw_text_fit(surface, label, rect, label_size, self._seat_colour(members[0]), bold=True)
        rows = self.pad_rows()
        body_top = content.top + row_h + 2
        # The keys, at the pad's foot; the rows above them.
        keys_h = self._keys_height(small)
        keys = pygame.Rect(content.left, content.bottom - keys_h, content.width, keys_h)
        draw_text_wrapped(surface, t("replay.keys"), keys, small, theme.TEXT_DIM, align="left", valign="bottom")
        fit = max(1, (keys.top - 4 - body_top) // row_h)
        shown = rows[-fit:]  # the latest deals, the current one last
        for index, (number, scores) in enumerate(shown):
            top = body_top + index * row_h
            if index == len(shown) - 1:
                mark = pygame.Surface((content.width, row_h), pygame.SRCALPHA)
                pygame.draw.rect(mark, theme.ROW_HIGHLIGHT, mark.get_rect(), border_radius=4)
                surface.blit(mark, (content.left, top))
            draw_text_fit(surface, str(number), number_rect.move(0, top - content.top), small, theme.TEXT_DIM)
            for side, rect in enumerate(columns):
                if side < len(scores):
                    draw_text_fit(
                        surface, str(scores[side]), rect.move(0, top - content.top), small, theme.TEXT, bold=True
                    )
