"""The input fence: a key or mouse press acts only on the screen it began on."""

from __future__ import annotations

# A press is one gesture from its down to its up: a key's KEYDOWN, the
# KEYDOWNs its key-repeat sends while it is held, and its KEYUP; a mouse
# button's MOUSEBUTTONDOWN and MOUSEBUTTONUP. When the screen changes in the
# middle of a gesture (the top scene is another one than when the press
# began: Enter on "Next hand" closed the score pad and the bidding panel
# opened, a bid's Enter brought up the hot-seat cover) the rest of that
# gesture belongs to the screen that is gone. The app passes every key and
# mouse event through ``InputFence.admit`` first, and the fence swallows the
# rest of every press that was held across a change of screen: the repeats
# and the release of a held key, the release of a held mouse button (and the
# text a swallowed key would type). A new press, begun after the change,
# goes through as usual.
#
# This is one rule for every screen, so no dialog has to guess whether the
# Enter it sees is the player's answer to it or the tail of the answer to
# the screen before. It does not stop a second, fresh press that follows
# quickly (a double Enter, a double click): a screen that must not be
# answered by one (the hot-seat cover) waits a moment before it listens, and
# the bidding panel opens with nothing chosen, so a stray Enter there only
# says how to choose.
#
# Held keys are known from the events themselves (a KEYDOWN not yet followed
# by its KEYUP), not from ``pygame.key.get_pressed``: that is the state of
# the keyboard when the queue was last read, which may already be past the
# events still waiting in it. A held key sends more KEYDOWNs only while
# pygame's key repeat is on (``pygame.key.set_repeat``; pygame drops the
# system's own repeats): then a fenced key's KEYDOWN is a repeat and is
# swallowed. With key repeat off (as the app runs) a second KEYDOWN of a
# key can only be a new press whose KEYUP never came (lost with the
# keyboard focus, say), so it ends the fenced press and goes through: a lost
# KEYUP never makes a key deaf.

import pygame


def key_repeat_on() -> bool:
    """Whether pygame sends KEYDOWNs again for a held key (``pygame.key.set_repeat``)."""
    try:
        return pygame.key.get_repeat()[0] > 0
    except pygame.error:
        return False


class InputFence:
    """The keys and mouse buttons held now, and which of them began on an earlier screen."""

    def __init__(self) -> None:
        self.held_keys: set[int] = set()
        self.held_buttons: set[int] = set()
        # Presses held across a change of screen: the rest of each is swallowed.
        self.fenced_keys: set[int] = set()
        self.fenced_buttons: set[int] = set()
        self._screen: object | None = None
        # The text of a swallowed key press (TEXTINPUT follows its KEYDOWN) is swallowed too.
        self._text_of_swallowed_key = False

    def follow(self, screen: object | None) -> None:
        """The screen (the top scene) now; a change of it fences every press still held."""
        if screen is self._screen:
            return
        self._screen = screen
        self.fenced_keys |= self.held_keys
        self.fenced_buttons |= self.held_buttons

    def admit(self, event: pygame.event.Event) -> bool:
        """Whether ``event`` may reach the scenes (False: it is the rest of a fenced press)."""
        kind = event.type
        if kind == pygame.TEXTINPUT:
            swallowed, self._text_of_swallowed_key = self._text_of_swallowed_key, False
            return not swallowed
        self._text_of_swallowed_key = False
        if kind == pygame.KEYDOWN:
            key = event.key
            if key in self.fenced_keys:
                if key_repeat_on():
                    # A key-repeat of a key held since an earlier screen.
                    self._text_of_swallowed_key = True
                    return False
                self.fenced_keys.discard(key)  # a new press: the fenced one's KEYUP was lost
            self.held_keys.add(key)
            return True
        if kind == pygame.KEYUP:
            key = event.key
            self.held_keys.discard(key)
            if key in self.fenced_keys:
                self.fenced_keys.discard(key)
                return False
            return True
        if kind == pygame.MOUSEBUTTONDOWN:
            # A mouse button does not repeat: a new down means the fenced press is over,
            # its up lost outside the window.
            self.fenced_buttons.discard(event.button)
            self.held_buttons.add(event.button)
            return True
        if kind == pygame.MOUSEBUTTONUP:
            button = event.button
            self.held_buttons.discard(button)
            if button in self.fenced_buttons:
                self.fenced_buttons.discard(button)
                return False
            return True
        return True
