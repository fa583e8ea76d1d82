"""The scene contract every screen and dialog of the window follows.

The app keeps a stack of scenes. Every scene is drawn, bottom to top, so a
dialog pushed over the table shows the table under it; events go to the top
scene first and travel down only while scenes decline them (return False)
and are not modal. ``update(dt)`` changes things; ``draw`` never does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

if TYPE_CHECKING:
    from game.ui.app import App


class Scene:
    #: A modal scene takes every event: scenes under it get none (they still update and draw).
    modal: bool = False
    #: An opaque scene hides the scenes under it: they are not drawn.
    opaque: bool = False

    def __init__(self, app: "App") -> None:
        self.app = app

    def handle_event(self, event: pygame.event.Event) -> bool:
        """React to one event; return True when it was used."""
        return False

    def update(self, dt: float) -> None:
        """Advance by ``dt`` seconds."""

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the scene; must not change any state."""

    def on_resize(self, size: tuple[int, int]) -> None:
        """The window changed size: recompute the layout."""

    def on_enter(self) -> None:
        """The scene became the top of the stack."""

    def on_exit(self) -> None:
        """The scene left the stack."""
