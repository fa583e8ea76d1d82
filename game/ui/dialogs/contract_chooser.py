"""The contract chooser: the trump suit, or the ranking of a no-trump contract."""

from __future__ import annotations

# Pushed when the human declarer of Bid Whist must name the contract after
# winning the bid (four suits for an uptown or downtown bid, uptown or
# downtown for no trump), and when a human Wizard player must name trump
# after a Wizard was turned up (the dealer, or under the house rule
# ``wizard_turn_up: first_bidder_chooses`` the player at the dealer's left);
# the view's phase (``CONTRACT`` or ``TRUMP_CHOICE``) says which. The
# downtown button's small print shows the ranking the rules play (the ace
# high, A 2 3 ... K, or low, 2 3 ... K A). Every button is one of
# ``view.legal_actions``.
# Suit buttons show the suit shapes drawn like the cards (never font glyphs)
# and how many cards of that suit the player holds, which is what the choice
# is usually based on.
#
# Keys: S, H, D, C (or 1 to 4) for the suits (H is the table's hint key when hints are on:
# hearts is then 2 only); U and D (or 1 and 2) for uptown
# and downtown; arrows and Tab to move, Enter or Space to choose. A suit's or
# ranking's key only moves the focus to it (Enter names it), so no one stray
# key names trump. Like the bidding panel it opens with nothing chosen, so an
# Enter left over from the bid names no trump; the first arrow or Tab goes to
# the first choice allowed.

from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from game.rules import Action, ActionKind, Phase, PlayerView, get_game
from game.rules.actions import DOWNTOWN, choose_direction, choose_trump
from game.rules.cards import ACE, NO_SUIT, RANK_OF, SUIT_OF, Suit
from game.ui import theme
from game.ui.text import bid_words, t
from game.ui.widgets.button import Button
from game.ui.widgets.dialog import DialogScene
from game.ui.widgets.geometry import split_columns, ui_scale
from game.ui.widgets.suits import suit_icon
from game.ui.widgets.text import MIN_TEXT_SIZE, draw_text_fit, fit_size

if TYPE_CHECKING:
    from game.ui.app import App

SUIT_KEYS = ("s", "h", "d", "c")


class ContractChooser(DialogScene):
    """Trump suit or no-trump ranking for ``view.seat``; ``on_action`` gets the Action."""

    def __init__(
        self, app: App, view: PlayerView, on_action: Callable[[Action], None], letter_h_free: bool = False
    ) -> None:
        super().__init__(app)
        self.view = view
        # The table's H key asks for a hint when hints are on: hearts then answers to 2 only.
        self.letter_h_free = letter_h_free
        self.on_action = on_action
        self.legal = set(view.legal_actions)
        # The dealer names trump for a turned-up card, rather than a declarer for a contract.
        self.dealer_names_trump = view.phase == Phase.TRUMP_CHOICE
        self.buttons: list[Button] = []
        self.choices: list[Action] = []  # the action of each button, in the same order
        self.choosing_direction = any(a.kind == ActionKind.DIRECTION for a in view.legal_actions)
        if self.choosing_direction:
            self._build_direction_buttons()
        else:
            self._build_suit_buttons()
        # Nothing chosen: a stray Enter must not name the contract.
        self.focus.focus_nothing()
        self.relayout()

    def on_settings_changed(self) -> None:
        # The language may have changed: build the buttons again in its words (the focus stays put).
        self.buttons, self.choices = [], []
        if self.choosing_direction:
            self._build_direction_buttons()
        else:
            self._build_suit_buttons()
        self.relayout()

    def _choose(self, action: Action) -> None:
        if action in self.legal:
            self.finish(self.on_action, action)

    def _chooser(self, action: Action) -> Callable[[], None]:
        return lambda: self._choose(action)

    def button_for(self, action: Action) -> Button | None:
        return next((button for choice, button in zip(self.choices, self.buttons) if choice == action), None)

    def _build_suit_buttons(self) -> None:
        self.title = t("contract.title_wizard") if self.dealer_names_trump else t("contract.title_trump")
        four = bool(getattr(getattr(self.app, "settings", None), "four_colour_deck", False))
        for suit in range(4):
            action = choose_trump(suit)
            count = sum(1 for card in self.view.hand if SUIT_OF[card] == suit)
            letter = SUIT_KEYS[suit]
            keys: tuple[int | str, ...] = (
                (pygame.K_1 + suit,) if self.letter_h_free and letter == "h" else (letter, pygame.K_1 + suit)
            )
            self.choices.append(action)
            self.buttons.append(
                Button(
                    (0, 0, 1, 1),
                    t(f"suit.{suit}"),
                    self._chooser(action),
                    enabled=action in self.legal,
                    reason=t("error.wrong_phase"),
                    hotkey=keys,
                    hotkey_chooses=True,
                    icon=suit_icon(suit, four),
                    sublabel=t("contract.in_hand", count=count),
                )
            )

    def _build_direction_buttons(self) -> None:
        self.title = t("contract.title_direction")
        for direction, name, key in ((0, "uptown", "u"), (1, "downtown", "d")):
            action = choose_direction(direction)
            help_key = f"contract.{name}_help"
            if direction == DOWNTOWN and self.ace_low_downtown():
                help_key = "contract.downtown_help_ace_low"
            self.choices.append(action)
            self.buttons.append(
                Button(
                    (0, 0, 1, 1),
                    t(f"contract.{name}"),
                    self._chooser(action),
                    enabled=action in self.legal,
                    reason=t("error.wrong_phase"),
                    hotkey=(key, pygame.K_1 + direction),
                    hotkey_chooses=True,
                    sublabel=t(help_key),
                )
            )

    def ace_low_downtown(self) -> bool:
        """Whether the rules of this game rank the ace lowest downtown: asked of the game's
        ``hand_order``, which lists one suit strongest first under the view's rules."""
        spades = [card for card in get_game(self.view.game).deck if SUIT_OF[card] == Suit.SPADES]
        ranked = get_game(self.view.game).hand_order(spades, NO_SUIT, DOWNTOWN, rules=self.view.rules)
        return bool(ranked) and RANK_OF[ranked[-1]] == ACE

    # ------------------------------------------------------------------ layout and drawing
    def layout(self, size: tuple[int, int]) -> None:
        base = (660 if not self.choosing_direction else 600, 300)
        # Grown by the UI scale as far as the panel fits the felt and hides no player in sight.
        width = round(base[0] * ui_scale(size, self.room_in_sight_of_plates(size, base)))
        # Between the table's corner panels the width runs out first; the panel then grows
        # downwards alone, so its type still grows with the scale.
        self.scale = scale = ui_scale(size, self.room_in_sight_of_plates(size, base, width=width))
        content = self.open_panel(size, width, round(base[1] * scale), factor=scale)
        gap = max(6, round(12 * scale))
        self.subtitle_rect = pygame.Rect(
            content.left, content.top, content.width, max(16, round(content.height * 0.16))
        )
        buttons_area = pygame.Rect(
            content.left,
            self.subtitle_rect.bottom + gap,
            content.width,
            max(12, content.bottom - self.subtitle_rect.bottom - gap),
        )
        button_h = min(buttons_area.height, max(30, round(150 * scale)))
        row = pygame.Rect(buttons_area.left, buttons_area.centery - button_h // 2, buttons_area.width, button_h)
        columns = split_columns(row, len(self.buttons), gap)
        for button, rect in zip(self.buttons, columns):
            button.set_rect(rect)
        # One font size for the whole row, the largest at which every label and its
        # small print (drawn at 0.7 of it) fit whole, so "Diamonds" is as big and as
        # bold as "Clubs" and "4 in your hand" is never cut.
        wanted = max(
            14,
            round(min(button_h * (0.22 if not self.choosing_direction else 0.3), min(c.width for c in columns) * 0.2)),
        )
        font_size = wanted
        for button in self.buttons:
            room = button.text_width()
            font_size = min(font_size, fit_size(button.label, room, button_h, wanted, bold=True))
            if button.sublabel:
                small = fit_size(button.sublabel, room, button_h, round(wanted * 0.7))
                font_size = min(font_size, max(MIN_TEXT_SIZE, int(small / 0.7)))
        for button in self.buttons:
            button.font_size = font_size
        self.focus.set_widgets(self.buttons)
        self.focus.start = next((b for b in self.buttons if b.enabled), None)

    def enter_with_nothing_chosen(self) -> None:
        self.show_reason(
            t("contract.choose_direction_first" if self.choosing_direction else "contract.choose_suit_first")
        )

    def subtitle(self) -> str:
        """The line under the title: why this player is the one choosing."""
        view = self.view
        if self.dealer_names_trump:
            # The dealer names trump, or (a house rule) the player at the dealer's left does.
            return t("contract.wizard_help") if view.seat == view.dealer else t("contract.wizard_help_left")
        adapter = get_game(view.game).adapter
        high = adapter.table_figures(view).high_bid
        if high is not None:
            # A dealer who took the bid (house rule dealer_takes) did not win it in the bidding.
            took = adapter.took_contract(view)
            return t("contract.took" if took else "contract.won", bid=bid_words(*high[1:]))
        return ""

    def draw_content(self, surface: pygame.Surface) -> None:
        size = max(16, round(25 * self.scale))
        draw_text_fit(surface, self.subtitle(), self.subtitle_rect, size, theme.TEXT, bold=True)
