"""The scene contract every screen and dialog of the window follows.

The app keeps a stack of scenes. Every scene is drawn, bottom to top, so a
dialog pushed over the table shows the table under it; events go to the top
scene first and travel down only while scenes decline them (return False)
and are not modal. ``update(dt)`` changes things; ``draw`` never does.
"""

from __future__ import annotations

# A program waiting for a person must cost no CPU, so the app does not draw
# 60 frames a second while nothing moves. After every frame it asks each scene
# ``wake_in()``: how soon, without any input, the scene needs its next frame.
# 0 means "I am animating" (full frame rate), a positive number is a timer due
# that many seconds from now (a message that starts to fade, a caret that
# blinks), None means the scene changes only in answer to input. The app then
# sleeps until an event arrives or the earliest timer is due. A scene that
# does not answer is taken to be animating: it costs CPU but never freezes.

from typing import TYPE_CHECKING

import pygame

if TYPE_CHECKING:
    from game.ui.app import App


class Scene:
    #: A modal scene takes every event: scenes under it get none (they still update and draw).
    modal: bool = False
    #: An opaque scene hides the scenes under it: they are not drawn.
    opaque: bool = False

    def __init__(self, app: App) -> None:
        self.app = app

    def handle_event(self, event: pygame.event.Event) -> bool:
        """React to one event; return True when it was used."""
        return False

    def update(self, dt: float) -> None:
        """Advance by ``dt`` seconds."""

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the scene; must not change any state."""

    def wake_in(self) -> float | None:
        """Seconds until this scene needs a frame with no input: 0 while it animates,
        None while it changes only in answer to input (see the module docstring)."""
        return 0.0

    def on_settings_changed(self) -> None:
        """The player saved new settings (hints, card colours...): show them from now on."""

    def leave_warning(self) -> str | None:
        """What leaving now would throw away (a game in progress), in words; None: nothing.

        Closing the window or going back to the start screen asks the player
        to confirm first while any scene on the stack has something to lose.
        """
        return None

    def on_resize(self, size: tuple[int, int]) -> None:
        """The window changed size: recompute the layout."""

    def on_enter(self) -> None:
        """The scene became the top of the stack."""

    def on_exit(self) -> None:
        """The scene left the stack."""
