"""The bidding panel: the human player's bid in Bid Whist or Wizard."""

from __future__ import annotations

# Bid Whist shows a grid with one column per number a bid may name (the
# adapter's ``contract_bids``: ``min_bid`` to 7) and one row per mode (uptown,
# downtown, no trump), plus Pass. Under the house rule ``dealer_takes`` the
# dealer, once someone has bid, also gets a "Take it" row:
# one button per mode at the high bid's number (the TAKE actions the rules
# list as legal), between the bids and Pass. Wizard shows one button per
# possible bid, 0 to the cards dealt. In both, a button is enabled exactly
# when its action is in ``view.legal_actions``, so the panel can never offer a
# bid the rules refuse; a disabled button carries the engine's reason (worded
# through ``t``), shown on hover or focus and reported when clicked.
#
# The bids made so far are shown by seat, in bidding order, as far as this seat
# may see them: with hidden or delayed Wizard bidding only the player's own
# bid is shown, with a note saying when the bids come out.
#
# Which panel to show is decided by the game's adapter (``GameDef.adapter``:
# a game that ``declares_contract`` bids for a contract, any other predicts
# tricks), never by the game's name; both read the game's own figures (the
# high bid, the predictions, how bids are hidden) from ``table_figures``.
#
# The panel sits in the upper part of the table so the hand stays visible
# below it. Keyboard: Tab or the arrows move between buttons (the take
# buttons too), Enter or Space bid; P chooses Pass in Bid Whist; in Wizard
# the digit keys choose a bid (with more than 9 cards a first digit that could
# start a larger bid waits for a second digit), and Enter makes it.
#
# The panel opens with nothing chosen: no button has the focus, so an Enter
# meant for the screen before (a double Enter on the score pad's "Next hand")
# bids nothing; it says how to choose instead. The first arrow or Tab goes
# to the lowest allowed bid, the usual choice, and Enter then bids it; P and
# the digits only choose too. A bid is thus always two deliberate steps from
# the keyboard, a choice and Enter (or one click), so no single stray key
# (a P, a digit, a Space) ever bids, and no confirmation is asked on top.

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import pygame

from game.rules import Action, ActionKind, PlayerView, get_game
from game.rules.actions import PASS, bid, predict
from game.ui import theme
from game.ui.text import bid_words, t
from game.ui.widgets.button import Button
from game.ui.widgets.dialog import DialogScene
from game.ui.widgets.geometry import split_columns, split_rows, ui_scale
from game.ui.widgets.suits import suit_icon
from game.ui.widgets.text import MIN_TEXT_SIZE, draw_text_fit, draw_text_wrapped, text_size

if TYPE_CHECKING:
    from game.ui.app import App

#: How much larger than the panel's own factor its words may grow with the UI scale: between
#: the corner panels the panel soon runs out of width, but its bands have room for larger type.
TYPE_HEADROOM = 1.3
MODES = (0, 1, 2)  # BidMode.UPTOWN, DOWNTOWN, NOTRUMP
#: The largest type a bid row's name or help takes, as a share of its half of the row.
LABEL_SHARE = 0.85


def bidding_order(num_players: int, dealer: int) -> list[int]:
    """Seats in the order they bid: the dealer's left first, the dealer last."""
    return [(dealer + 1 + i) % num_players for i in range(num_players)]


class BiddingPanel(DialogScene):
    """The bid of the human at ``view.seat``; ``on_action`` receives the chosen Action."""

    def __init__(
        self, app: App, view: PlayerView, seat_names: Sequence[str], on_action: Callable[[Action], None]
    ) -> None:
        super().__init__(app)
        self.view = view
        self.seat_names = list(seat_names)
        self.on_action = on_action
        self.legal = set(view.legal_actions)
        self.game_def = get_game(view.game)
        # The game's own figures (the high bid, the predictions, hidden bids), from its adapter.
        self.figures = self.game_def.adapter.table_figures(view)
        self.predicting = not self.game_def.adapter.declares_contract
        self.buttons: dict[Action, Button] = {}
        self.take_label: pygame.Rect | None = None  # the "Take it" row's label, when the row is offered
        self.typed = ""
        self._build_buttons()
        # Nothing chosen: a stray Enter must not bid (see the module docstring).
        self.focus.focus_nothing()
        self.relayout()

    def on_settings_changed(self) -> None:
        # The language may have changed: build the buttons again in its words (the focus
        # stays on the same place in the grid).
        self.buttons = {}
        self._build_buttons()
        self.relayout()

    @property
    def cards_each(self) -> int:
        """Cards dealt to each player this hand: one per trick."""
        return self.view.tricks_per_hand

    # ------------------------------------------------------------------ buttons
    def _choose(self, action: Action) -> None:
        if action in self.legal:
            self.finish(self.on_action, action)

    def button_for(self, action: Action) -> Button | None:
        return self.buttons.get(action)

    def _build_buttons(self) -> None:
        figures = self.figures
        if self.predicting:
            self.title = t("bid.title_round", round=figures.round_number, rounds=figures.total_rounds)
            for number in range(self.cards_each + 1):
                action = predict(number)
                reason = None
                if action not in self.legal:
                    reason = (
                        t("error.uneven_bids", bid=number, total=self.cards_each)
                        if number == figures.forbidden_bid
                        else t("error.predict_range", max=self.cards_each)
                    )
                self.buttons[action] = Button(
                    (0, 0, 1, 1), str(number), self._chooser(action), enabled=action in self.legal, reason=reason
                )
            return
        self.title = t("bid.title")
        high = self.high_bid
        too_low = t("error.bid_too_low", high=bid_words(*high)) if high else None
        for mode in MODES:
            for books in self.contract_bids:
                action = bid(books, mode)
                self.buttons[action] = Button(
                    (0, 0, 1, 1), str(books), self._chooser(action), enabled=action in self.legal, reason=too_low
                )
        self.buttons[PASS] = Button(
            (0, 0, 1, 1),
            t("bid.pass"),
            self._chooser(PASS),
            enabled=PASS in self.legal,
            reason=t("error.dealer_must_bid"),
            kind="danger",
            hotkey=pygame.K_p,
            hotkey_chooses=True,
        )
        # The dealer's take: offered only when the rules list it (the house rule is on,
        # it is the dealer's turn and someone has bid), one button per mode.
        for action in self.take_actions:
            self.buttons[action] = Button((0, 0, 1, 1), t(f"mode.{action.mode}"), self._chooser(action), kind="primary")

    @property
    def take_actions(self) -> list[Action]:
        """The dealer's legal takes of the high bid, uptown first (none for anyone else)."""
        return sorted((a for a in self.legal if a.kind == ActionKind.TAKE), key=lambda a: a.mode)

    @property
    def take_books(self) -> int:
        """The number the dealer may take the contract at (0 when no take is offered)."""
        takes = self.take_actions
        return takes[0].value if takes else 0

    def _chooser(self, action: Action) -> Callable[[], None]:
        return lambda: self._choose(action)

    @property
    def secret_note(self) -> str | None:
        """The note shown instead of other players' bids under hidden or delayed bidding."""
        key = self.figures.secret_bids_note
        return t(key) if key is not None else None

    @property
    def contract_bids(self) -> range:
        """The numbers of books a bid may name, lowest first."""
        return self.game_def.adapter.contract_bids(self.view.rules)

    @property
    def high_bid(self) -> tuple[int, int] | None:
        """The highest bid so far as (books, mode), None before any."""
        high = self.figures.high_bid
        return (high[1], high[2]) if high is not None else None

    @property
    def forbidden_reason(self) -> str | None:
        forbidden = self.figures.forbidden_bid if self.predicting else -1
        if forbidden < 0:
            return None
        return t("error.uneven_bids", bid=forbidden, total=self.cards_each)

    # ------------------------------------------------------------------ layout
    def layout(self, size: tuple[int, int]) -> None:
        # The dealer's take adds a row of buttons: the panel grows by one row rather than squeezing the others.
        base = (720 if self.predicting else 760, 430 + (60 if self.take_actions else 0))
        # Grown by the UI scale as far as the panel fits the felt and hides no player in sight.
        width = round(base[0] * ui_scale(size, self.room_in_sight_of_plates(size, base)))
        # Between the table's corner panels the width runs out first; the panel then grows
        # downwards alone (there is felt above the hand), so its type still grows with the scale.
        self.scale = scale = ui_scale(size, self.room_in_sight_of_plates(size, base, width=width))
        # The words grow with the player's choice beyond the panel, by up to TYPE_HEADROOM: the
        # button grid gives up the height they take (a text still too long is fitted smaller).
        self.text_scale = min(ui_scale(size, math.inf), scale * TYPE_HEADROOM)
        type_size = self.type_size
        content = self.open_panel(size, width, round(base[1] * scale), factor=self.text_scale)
        gap = max(4, round(8 * scale))
        # Vertical bands: status line, bids so far, the buttons, and a foot line; each at least
        # as tall as its type.
        status_h = max(16, round(content.height * 0.09), theme.line_step(type_size, True))
        chips_h = max(
            30,
            round(content.height * 0.2),
            theme.line_step(type_size, True) + theme.line_step(round(type_size * 0.8)) + 6,
        )
        foot_h = max(16, round(content.height * 0.09), theme.line_step(round(type_size * 0.9), True))
        self.status_rect = pygame.Rect(content.left, content.top, content.width, status_h)
        self.chips_rect = pygame.Rect(content.left, self.status_rect.bottom + gap, content.width, chips_h)
        grid_top = self.chips_rect.bottom + gap * 2
        self.foot_rect = pygame.Rect(content.left, content.bottom - foot_h, content.width, foot_h)
        grid = pygame.Rect(content.left, grid_top, content.width, max(12, self.foot_rect.top - gap - grid_top))
        if self.predicting:
            self._layout_predictions(grid, gap)
        else:
            self._layout_contract_bids(grid, gap)
        order = list(self.buttons.values())
        if not self.predicting:
            order = [self.buttons[PASS]] + [b for a, b in self.buttons.items() if a != PASS]
        self.focus.set_widgets(order)
        # The keys start from the lowest allowed bid: the usual choice.
        self.focus.start = next((b for b in order if b.enabled and b is not self.buttons.get(PASS)), None)

    def enter_with_nothing_chosen(self) -> None:
        self.show_reason(t("bid.choose_first_wizard" if self.predicting else "bid.choose_first"))

    def _layout_contract_bids(self, grid: pygame.Rect, gap: int) -> None:
        takes = self.take_actions
        rows = len(MODES) + 1 + (1 if takes else 0)  # three modes, the dealer's take, then Pass
        row_h = max(10, (grid.height - gap * (rows - 1)) // rows)
        row_h = min(row_h, max(10, round(grid.width * 0.09)))
        label_w = round(grid.width * 0.25)
        numbers = list(self.contract_bids)
        cell_gap = max(3, gap // 2 + 1)
        count = max(1, len(numbers))
        cell_w = min(round(row_h * 1.9), (grid.width - label_w - cell_gap * (count - 1)) // count)
        # Centre the labels-and-buttons block in the panel.
        block_w = label_w + count * cell_w + (count - 1) * cell_gap
        grid = pygame.Rect(
            grid.left + max(0, (grid.width - block_w) // 2), grid.top, min(grid.width, block_w), grid.height
        )
        self.row_labels: list[pygame.Rect] = []
        for index, mode in enumerate(MODES):
            top = grid.top + index * (row_h + gap)
            self.row_labels.append(pygame.Rect(grid.left, top, label_w - gap, row_h))
            # Few numbers (a high min_bid) must not make huge buttons: the width is capped.
            cells = split_columns(
                pygame.Rect(grid.left + label_w, top, count * cell_w + (count - 1) * cell_gap, row_h), count, cell_gap
            )
            for books, cell in zip(numbers, cells):
                self.buttons[bid(books, mode)].set_rect(cell)
        self.take_label = None
        pass_row = len(MODES)
        if takes:
            top = grid.top + len(MODES) * (row_h + gap)
            self.take_label = pygame.Rect(grid.left, top, label_w - gap, row_h)
            cells = split_columns(
                pygame.Rect(grid.left + label_w, top, count * cell_w + (count - 1) * cell_gap, row_h),
                len(takes),
                cell_gap,
            )
            for action, cell in zip(takes, cells):
                self.buttons[action].set_rect(cell)
            pass_row += 1
        pass_top = grid.top + pass_row * (row_h + gap)
        pass_w = min(grid.width - label_w, max(80, round(row_h * 4)))
        self.buttons[PASS].set_rect(pygame.Rect(grid.left + label_w, pass_top, pass_w, row_h))

    def _layout_predictions(self, grid: pygame.Rect, gap: int) -> None:
        count = self.cards_each + 1
        cell_gap = max(3, gap // 2 + 1)
        # Square-ish buttons: as many per row as fit at a comfortable size.
        target = max(28, min(110, round(grid.height * 0.55)))
        if count * (target + cell_gap) > grid.width:
            target = max(28, min(target, round(grid.height / 2.2)))  # two or more rows: smaller
        per_row = max(1, min(count, (grid.width + cell_gap) // (target + cell_gap)))
        rows = -(-count // per_row)
        per_row = -(-count // rows)  # balance the rows
        side_w = min(round(target * 1.4), (grid.width - cell_gap * (per_row - 1)) // per_row)
        side_h = min(target, (grid.height - cell_gap * (rows - 1)) // rows)
        side_h = max(10, side_h)
        block_h = rows * side_h + (rows - 1) * cell_gap
        top = grid.top + max(0, (grid.height - block_h) // 2)
        for index, action in enumerate(self.buttons):
            row, column = divmod(index, per_row)
            in_row = min(per_row, count - row * per_row)
            row_w = in_row * side_w + (in_row - 1) * cell_gap
            left = grid.centerx - row_w // 2 + column * (side_w + cell_gap)
            self.buttons[action].set_rect(pygame.Rect(left, top + row * (side_h + cell_gap), side_w, side_h))
        self.row_labels = []

    # ------------------------------------------------------------------ keys
    def handle_extra_event(self, event: pygame.event.Event) -> bool:
        if not self.predicting or event.type != pygame.KEYDOWN:
            return False
        digit = event.unicode if event.unicode and event.unicode.isdigit() else None
        if digit is None and pygame.K_KP0 <= event.key <= pygame.K_KP9:
            digit = str(event.key - pygame.K_KP0)
        if digit is not None:
            self._type_digit(digit)
            return True
        if event.key == pygame.K_BACKSPACE and self.typed:
            self.typed = self.typed[:-1]
            if self.typed:
                self.focus.focus(self.buttons[predict(int(self.typed))], keyboard=True)
            return True
        return False

    def handle_event(self, event: pygame.event.Event) -> bool:
        used = super().handle_event(event)
        typed = self.buttons.get(predict(int(self.typed))) if self.typed else None
        if typed is not None and self.focus.focused is not typed:
            self.typed = ""  # an arrow, Tab or click chose another bid: Enter makes that one
        return used

    def _type_digit(self, digit: str) -> None:
        """A digit chooses the bid it names (Enter makes it); with more cards than 9, a digit that
        could begin a larger bid keeps listening for a second one."""
        maximum = self.cards_each
        typed = self.typed + digit
        if int(typed) > maximum or len(self.typed) >= len(str(maximum)):
            typed = digit  # start afresh rather than refusing a natural retype
        button = self.buttons.get(predict(int(typed)))
        if button is None:
            self.typed = ""
            self.show_reason(t("error.predict_range", max=maximum))
            return
        complete = int(typed) * 10 > maximum or len(typed) >= len(str(maximum))
        if not button.enabled and complete:
            self.typed = ""
            button.refuse()  # the uneven-bids rule's reason, at once
            return
        # A refused bid that may still begin another (1 of 12) waits for its second digit.
        self.typed = typed
        self.focus.focus(button, keyboard=True)

    # ------------------------------------------------------------------ drawing
    def _seat_name(self, seat: int) -> str:
        return self.seat_names[seat] if 0 <= seat < len(self.seat_names) else t("start.seat", number=seat + 1)

    @property
    def type_size(self) -> int:
        """The panel's main type: its status line, the bids and the rows' names."""
        return max(16, round(24 * self.text_scale))

    def draw_content(self, surface: pygame.Surface) -> None:
        text_size = self.type_size
        if self.predicting:
            self._draw_prediction_info(surface, text_size)
        else:
            self._draw_contract_info(surface, text_size)
        for rect, mode in zip(self.row_labels, MODES):
            top = rect.copy()
            top.height = round(rect.height * 0.58)
            # The rows keep the buttons' height, which the grown type may outgrow: the row's
            # name and help stay within their halves (letters with descenders included).
            # (Never smaller than the panel's own factor gives them: the headroom only adds.)
            usual = max(16, round(24 * self.scale))
            name_size = min(text_size, max(usual, round(top.height * LABEL_SHARE)))
            draw_text_fit(surface, t(f"mode.{mode}"), top, name_size, theme.TEXT, align="left", bold=True)
            bottom = pygame.Rect(rect.left, top.bottom, rect.width, rect.height - top.height)
            help_size = min(round(text_size * 0.75), max(round(usual * 0.75), round(bottom.height * LABEL_SHARE)))
            draw_text_fit(surface, t(f"mode.{mode}.help"), bottom, help_size, theme.TEXT_DIM, align="left")
        take_label = self.take_label
        if take_label is not None:
            top = take_label.copy()
            top.height = round(take_label.height * 0.58)
            draw_text_fit(
                surface, t("bid.take", books=self.take_books), top, text_size, theme.ACCENT, align="left", bold=True
            )
            bottom = pygame.Rect(take_label.left, top.bottom, take_label.width, take_label.height - top.height)
            draw_text_fit(surface, t("bid.take_help"), bottom, round(text_size * 0.75), theme.TEXT_DIM, align="left")

    def _draw_contract_info(self, surface: pygame.Surface, size: int) -> None:
        view = self.view
        high = self.figures.high_bid
        if PASS not in self.legal and view.legal_actions:
            status, colour = t("bid.forced"), theme.WARNING
        elif high:
            status = t("bid.high", bid=bid_words(*high[1:]), name=self._seat_name(high[0]))
            colour = theme.ACCENT
        else:
            status, colour = t("bid.no_high"), theme.TEXT
        draw_text_fit(surface, status, self.status_rect, size, colour, bold=True)
        made: dict[int, Action | None] = {shown.seat: shown.action for shown in self.figures.bids}
        labels = {}
        for seat in bidding_order(view.num_players, view.dealer):
            if seat not in made:
                labels[seat] = t("bid.you_now") if seat == view.seat else t("bid.waiting")
                continue
            action = made[seat]
            if action is None:
                labels[seat] = t("bid.hidden_bid")
            elif action.kind == ActionKind.PASS:
                labels[seat] = t("bid.passed")
            elif action.kind == ActionKind.TAKE:
                labels[seat] = t("bid.took", bid=bid_words(action.value, action.mode))
            else:
                labels[seat] = bid_words(action.value, action.mode)
        self._draw_chips(surface, labels, size)
        if self.take_actions:
            foot = t("bid.take_hint", books=self.take_books, total=self._books_needed(self.take_books))
        else:
            min_bid = self.contract_bids.start
            foot = t("bid.books_hint", books=min_bid, total=self._books_needed(min_bid))
        draw_text_fit(surface, foot, self.foot_rect, round(size * 0.8), theme.TEXT_DIM)

    def _books_needed(self, books: int) -> int:
        return self.game_def.adapter.contract_targets(books).needed

    def _draw_prediction_info(self, surface: pygame.Surface, size: int) -> None:
        view, figures = self.view, self.figures
        status = self.status_rect
        trump_w = round(status.width * 0.36)
        question = pygame.Rect(status.left, status.top, status.width - trump_w, status.height)
        draw_text_fit(
            surface, t("bid.question", cards=self.cards_each), question, size, theme.TEXT, align="left", bold=True
        )
        trump_rect = pygame.Rect(question.right, status.top, trump_w, status.height)
        if view.trump >= 0:
            icon_side = status.height
            text = t("bid.trump", suit=t(f"suit.{view.trump}"))
            drawn = draw_text_fit(
                surface,
                text,
                trump_rect.inflate(-icon_side - 6, 0).move(icon_side // 2 + 3, 0),
                size,
                theme.ACCENT,
                align="right",
                bold=True,
            )
            icon_rect = pygame.Rect(drawn.left - icon_side - 6, status.top, icon_side, icon_side)
            four = bool(getattr(getattr(self.app, "settings", None), "four_colour_deck", False))
            suit_icon(view.trump, four)(surface, icon_rect, theme.TEXT)
        else:
            key = "bid.trump_pending" if figures.trump_pending else "bid.no_trump"
            draw_text_fit(surface, t(key), trump_rect, size, theme.ACCENT, align="right", bold=True)
        predictions = figures.predictions
        bids_open = figures.secret_bids_note is None
        if bids_open:
            labels = {}
            for seat in bidding_order(view.num_players, view.dealer):
                value = predictions[seat] if seat < len(predictions) else -1
                if value >= 0:
                    labels[seat] = str(value)
                else:
                    labels[seat] = t("bid.you_now") if seat == view.seat else t("bid.waiting")
            self._draw_chips(surface, labels, size)
            reason = self.forbidden_reason
            if self.typed:
                # The foot line has room for one thing: a typed bid waits for Enter, so it says so.
                draw_text_fit(
                    surface, t("bid.typed", number=self.typed), self.foot_rect, round(size * 0.8), theme.ACCENT
                )
            elif reason:
                draw_text_fit(surface, reason, self.foot_rect, round(size * 0.9), theme.WARNING, bold=True)
            else:
                total = sum(p for p in predictions if p >= 0)
                draw_text_fit(
                    surface,
                    t("bid.total", total=total, cards=self.cards_each),
                    self.foot_rect,
                    round(size * 0.85),
                    theme.TEXT_DIM,
                )
        else:
            # Hidden or delayed bidding: this seat sees only its own information.
            draw_text_wrapped(
                surface,
                self.secret_note or "",
                self.chips_rect.inflate(-20, -4),
                size,
                theme.TEXT,
                align="center",
                valign="center",
            )
            hint = t("bid.typed", number=self.typed) if self.typed else t("bid.keys_wizard")
            draw_text_fit(surface, hint, self.foot_rect, round(size * 0.8), theme.TEXT_DIM)

    def _draw_chips(self, surface: pygame.Surface, labels: dict[int, str], size: int) -> None:
        """One small plate per seat, in bidding order: name above, bid below.

        When a name would not fit its plate whole (six long names in a narrow
        panel), the plates go in two rows, each twice as wide, with the name
        and the bid side by side.
        """
        seats = list(labels)
        gap = max(4, self.chips_rect.width // 90)
        columns = split_columns(self.chips_rect, len(seats), gap)
        two_rows = len(seats) > 2 and any(
            text_size(self._chip_name(seat, columns[0].width - 8), MIN_TEXT_SIZE)[0] > columns[0].width - 8
            for seat in seats
        )
        if two_rows:
            per_row = -(-len(seats) // 2)
            rows = split_rows(self.chips_rect, 2, max(2, gap // 2))
            columns = [rect for row in rows for rect in split_columns(row, per_row, gap)]
        for seat, rect in zip(seats, columns):
            mine = seat == self.view.seat
            colour = (60, 110, 84) if mine else (20, 36, 30)
            pygame.draw.rect(surface, colour, rect, border_radius=8)
            pygame.draw.rect(surface, theme.ACCENT if mine else theme.PANEL_EDGE, rect, width=1, border_radius=8)
            label = labels[seat]
            waiting = label in (t("bid.waiting"), t("bid.you_now"))
            inner = rect.inflate(-8, -4) if not two_rows else rect.inflate(-10, 0)
            if two_rows:
                value_w = min(inner.width // 3, text_size(label, size, True)[0] + 4)
                name_rect = pygame.Rect(inner.left, inner.top, inner.width - value_w - 4, inner.height)
                value_rect = pygame.Rect(name_rect.right + 4, inner.top, value_w, inner.height)
                align = "left"
            else:
                name_rect = pygame.Rect(inner.left, inner.top, inner.width, inner.height // 2)
                value_rect = pygame.Rect(inner.left, name_rect.bottom, inner.width, inner.height - name_rect.height)
                align = "center"
            draw_text_fit(
                surface,
                self._chip_name(seat, name_rect.width),
                name_rect,
                round(size * 0.8),
                theme.TEXT_DIM,
                align=align,
            )
            draw_text_fit(
                surface,
                label,
                value_rect,
                size,
                theme.TEXT_DIM if waiting else theme.TEXT,
                bold=True,
                align="right" if two_rows else "center",
            )

    def _chip_name(self, seat: int, width: int) -> str:
        """The seat's name on its plate; the dealer's is marked with the word when it fits
        beside the name, else with the table's dealer letter, else not at all (the
        table's dealer button still says it)."""
        name = self._seat_name(seat)
        if seat != self.view.dealer:
            return name
        for mark in (t("bid.dealer"), t("table.dealer_letter")):
            marked = f"{name} · {mark}"
            if text_size(marked, MIN_TEXT_SIZE)[0] <= width:
                return marked
        return name
