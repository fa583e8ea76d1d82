"""Keyboard focus at the card table: the bottom hand and the table's own buttons."""

from __future__ import annotations

from collections.abc import Callable, Sequence

# At the table the keyboard has two kinds of place to be. One is the bottom
# hand, while it is the player's turn to play: Left and Right pick a card
# (the drag controller raises and rings it) and Enter plays the picked card;
# with none picked the first Enter picks one and the second plays it. The others
# are the table's buttons (Score pad, Hint, Menu, Last trick, Hand log,
# Undo): Tab and Shift+Tab go round them and the hand, in that order, and
# Enter or Space presses the focused button, which shows the focus ring. Left
# or Right on a button go back to the hand when there is a card to play, and
# along the buttons otherwise. Each button's own key (S, H, Esc, L, U) keeps
# working wherever the focus is.
#
# No card is picked for the player: a hand that becomes playable has none
# raised, whatever the input mode, and the prompt over the table says that
# Enter picks one and Enter again plays it. Were the first legal card picked
# at once, the Enter that answered the dialog before (a bid, the cover) or a
# double Enter there would play it.
#
# A dialog opened over the table takes the keyboard, and the table's buttons
# show no ring under it. When it closes, the focus goes back to the button
# that had it if nothing was played meanwhile (the score pad or the last
# trick looked at, say), and to the hand otherwise (a bid or a card was made
# in between: the question the focus belonged to is gone). (A card picked
# before the dialog opened is put down by the table as it comes back on top,
# so the Enter that closed the dialog, pressed twice, does not play it.)

from typing import Protocol

import pygame

from game.ui.widgets.button import Button
from game.ui.widgets.focus import FocusGroup

Position = tuple[int, int]


class KeyHost(Protocol):
    """What the table's keyboard focus needs from the table scene."""

    def hand_cards(self) -> list[int]: ...
    def playable_cards(self) -> set[int] | None: ...
    def input_enabled(self) -> bool: ...


class HandChoice(Protocol):
    """The drag controller's picked card (an index into the hand, -1 for none)."""

    selected: int


class TableKeys:
    """Tab round the hand and the table's buttons (see the module docstring)."""

    def __init__(self, host: KeyHost, hand: HandChoice, buttons: Callable[[], Sequence[Button]]) -> None:
        self.host = host
        self.hand = hand
        self.buttons = buttons
        self.group = FocusGroup()
        # The focused button; None while the focus is on the hand (or nowhere).
        self.current: Button | None = None
        # The button that had the focus when a dialog covered the table, and the position then.
        self._put_away: tuple[Button, Position] | None = None

    @property
    def focused_button(self) -> Button | None:
        return self.current

    def _refresh(self) -> None:
        buttons = list(self.buttons())
        if self.current is not None and not (self.current in buttons and self.current.visible):
            self.current = None  # its button went away (hints switched off, say)
        self.group.set_widgets(buttons)
        self.group.focus(self.current)

    def _hand_playable(self) -> bool:
        return self.host.input_enabled() and bool(self.host.hand_cards())

    def focus_button(self, button: Button | None) -> None:
        """Put the focus on ``button`` (None: on no button, so on the hand), its ring shown."""
        self.current = button
        self.group.keyboard_mode = True
        self._refresh()
        if button is not None:
            self.hand.selected = -1  # one place has the focus at a time

    def _drop(self) -> None:
        """No button has the focus (the pointer took over, or a dialog covers the table)."""
        self.current = None
        self.group.focus(None)

    def first_playable(self) -> int:
        """The index of the first card of the hand that may be played now, or -1."""
        playable = self.host.playable_cards() or set()
        return next((index for index, card in enumerate(self.host.hand_cards()) if card in playable), -1)

    # ------------------------------------------------------------------ events
    def handle_event(self, event: pygame.event.Event) -> bool:
        """Tab, Shift+Tab and the arrows on a focused button; True when used."""
        if event.type == pygame.MOUSEBUTTONDOWN:
            self._drop()  # the pointer took over: no ring left behind
            return False
        if event.type != pygame.KEYDOWN:
            return False
        if event.key == pygame.K_TAB:
            self._cycle(-1 if event.mod & pygame.KMOD_SHIFT else 1)
            return True
        if event.key in (pygame.K_LEFT, pygame.K_RIGHT) and self.focused_button is not None:
            if self._hand_playable():
                self.focus_button(None)
                if self.hand.selected < 0:
                    self.hand.selected = self.first_playable()
                return True
            self._refresh()
            self.group.move(-1 if event.key == pygame.K_LEFT else 1)
            focused = self.group.focused
            self.current = focused if isinstance(focused, Button) else None
            return True
        return False

    def _cycle(self, step: int) -> None:
        """The next place in Tab order: the hand (when playable), then the visible buttons."""
        self._refresh()
        stops: list[Button | None] = [None] if self._hand_playable() else []
        stops += [button for button in self.group.widgets if button.visible and isinstance(button, Button)]
        if not stops:
            return
        current = self.current
        if current in stops:  # a button, or the hand (None)
            target = stops[(stops.index(current) + step) % len(stops)]
        else:  # nowhere yet: the first button, or the last one backwards
            target = stops[0] if step > 0 else stops[-1]
        self.focus_button(target)
        if target is None:
            self.hand.selected = max(self.hand.selected, self.first_playable())

    # ------------------------------------------------------------------ frame
    def update(self, on_top: bool, position: Position) -> None:
        """Follow the table: put the focus away under a dialog, and bring it back after."""
        if not on_top:
            if self.current is not None:
                self._put_away = (self.current, position)
                self._drop()
            return
        if self._put_away is not None:
            button, then = self._put_away
            self._put_away = None
            if then == position and button.visible:
                self.focus_button(button)
