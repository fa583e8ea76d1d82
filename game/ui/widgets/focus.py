"""The widget protocol and keyboard focus."""

from __future__ import annotations

# Widgets follow one small protocol (``Widget``): a ``rect``, ``handle_event``
# returning True when the event was used, ``draw``, ``set_rect`` and an
# ``enabled`` flag with an optional ``reason`` saying why something is disabled.
# A ``FocusGroup`` adds keyboard use to a set of widgets: Tab and Shift+Tab move
# the focus in order, the arrow keys move it to the nearest widget in that
# direction (which is what a grid of bid buttons needs), Enter or Space activate
# the focused widget, and a click or Enter on a disabled widget reports its
# reason (usually to a ``Toast``) instead of doing nothing silently. The focus
# ring shows only after the keyboard was used, as in most desktop programs.
#
# Which of the two the player is using is one fact for the whole window
# (``INPUT_MODE``, told of every key and click by the app): a dialog opened
# by a key press shows its focus ring from its first frame, so a player who
# plays by keyboard alone never has to press a key to find out where the
# focus is; a click turns the rings off again.

from collections.abc import Callable, Sequence

import pygame

from game.ui import theme
from game.ui.widgets.geometry import RectLike

ACTIVATE_KEYS = (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE)
ARROW_KEYS = {pygame.K_LEFT: (-1, 0), pygame.K_RIGHT: (1, 0), pygame.K_UP: (0, -1), pygame.K_DOWN: (0, 1)}


class InputMode:
    """Whether the player's last key or click was a key (see the module docstring)."""

    def __init__(self) -> None:
        self.keyboard = False

    def note(self, event: pygame.event.Event) -> None:
        """Follow one input event: a key press means the keyboard, a mouse button the pointer."""
        if event.type == pygame.KEYDOWN:
            self.keyboard = True
        elif event.type == pygame.MOUSEBUTTONDOWN:
            self.keyboard = False


#: The window's one input mode; the app notes every event, new focus groups start from it.
INPUT_MODE = InputMode()


class Widget:
    """The protocol every widget follows; see the module docstring."""

    focusable = True

    def __init__(self, rect: RectLike, enabled: bool = True, reason: str | None = None) -> None:
        self.rect = pygame.Rect(rect)
        self.enabled = enabled
        self.reason = reason
        self.visible = True
        self.focused = False
        #: A hotkey that makes a choice in the game (a bid, a trump suit) only chooses this widget:
        #: the focus moves here and Enter or Space then presses it, so one stray key never acts.
        self.hotkey_chooses = False
        self.show_focus_ring = True
        self.hovered = False
        #: Called with the reason when a disabled widget is clicked or activated.
        self.on_refused: Callable[[str], None] | None = None

    def set_rect(self, rect: RectLike) -> None:
        self.rect = pygame.Rect(rect)

    @property
    def hint(self) -> str | None:
        """What to show when the pointer or focus rests here: the reason it is disabled."""
        return None if self.enabled else self.reason

    def activate(self) -> None:
        """Do what a click does (Enter or Space on the focused widget)."""

    def refuse(self) -> None:
        if self.reason and self.on_refused is not None:
            self.on_refused(self.reason)

    def click(self) -> None:
        """A click from the mouse, the keyboard or a hotkey: act, or report the reason."""
        if self.enabled:
            self.activate()
        else:
            self.refuse()

    def matches_hotkey(self, event: pygame.event.Event) -> bool:
        """True when ``event`` is this widget's hotkey (only buttons have one)."""
        return False

    def pressed_here(self, event: pygame.event.Event) -> bool:
        """True for a left-button press inside the widget."""
        return event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and self.rect.collidepoint(event.pos)

    def track_hover(self, event: pygame.event.Event) -> None:
        """Follow the pointer on a mouse motion event."""
        self.hovered = self.rect.collidepoint(event.pos)

    def handle_key(self, event: pygame.event.Event) -> bool:
        """Keys the focused widget uses itself (before the focus group sees them)."""
        if event.key in ACTIVATE_KEYS:
            self.click()
            return True
        return False

    def handle_event(self, event: pygame.event.Event) -> bool:
        if not self.visible:
            return False
        if event.type == pygame.MOUSEMOTION:
            self.track_hover(event)
            return False
        if event.type == pygame.KEYDOWN and self.focused:
            return self.handle_key(event)
        return False

    def draw(self, surface: pygame.Surface) -> None:
        raise NotImplementedError

    @property
    def corner_radius(self) -> int:
        """The rounding of a control's corners (a button's face, and the rings drawn round it)."""
        return max(4, min(self.rect.height // 3, 14))

    def draw_focus(self, surface: pygame.Surface) -> None:
        if self.focused and self.show_focus_ring and self.visible:
            draw_focus_ring(surface, self.rect, self.corner_radius)


#: How far the focus ring stands off the control, and its width.
FOCUS_GAP = 3
FOCUS_WIDTH = 3


def draw_focus_ring(surface: pygame.Surface, rect: pygame.Rect, radius: int) -> None:
    """The keyboard focus ring round ``rect`` (whose corners have ``radius``).

    A bright ring with a thin dark edge on both sides, clear of the control:
    it reads on the dark felt, on a gold button and on a white card face alike.
    """
    ring = rect.inflate(2 * (FOCUS_GAP + FOCUS_WIDTH), 2 * (FOCUS_GAP + FOCUS_WIDTH))
    outer_radius = radius + FOCUS_GAP + FOCUS_WIDTH
    pygame.draw.rect(
        surface, theme.FOCUS_EDGE, ring.inflate(2, 2), width=FOCUS_WIDTH + 2, border_radius=outer_radius + 1
    )
    pygame.draw.rect(surface, theme.FOCUS_RING, ring, width=FOCUS_WIDTH, border_radius=outer_radius)


class FocusGroup:
    """Keyboard focus, hover hints and refusal reports for a set of widgets.

    Events go to the focused widget first (so a text box keeps its arrow
    keys), then to every widget (so hover looks stay right); Tab/Shift+Tab and
    the arrows move the focus when no widget used the key. ``on_refused`` is
    called with the reason when a disabled widget is clicked or activated.
    A dialog whose choice must be deliberate opens with nothing focused
    (``focus_nothing``): Enter then presses nothing, and the first Tab or
    arrow goes to ``start``. The hotkey of a widget that ``hotkey_chooses``
    focuses it (and calls ``on_chosen``) instead of pressing it.
    """

    def __init__(
        self,
        widgets: Sequence[Widget] = (),
        on_refused: Callable[[str], None] | None = None,
        on_chosen: Callable[[Widget], None] | None = None,
    ) -> None:
        self.widgets: list[Widget] = []
        self.index = -1
        #: Where Tab and the arrows go first while nothing has the focus (None: the first widget).
        #: A dialog that opens with nothing chosen names its usual choice here.
        self.start: Widget | None = None
        # Nothing has the focus on purpose (``focus_nothing``), until a key or click puts it somewhere.
        self._nothing_chosen = False
        # A dialog opened from the keyboard shows where its focus is at once.
        self.keyboard_mode = INPUT_MODE.keyboard
        self.on_refused = on_refused
        self.on_chosen = on_chosen
        self.set_widgets(widgets)

    def set_widgets(self, widgets: Sequence[Widget], keep_focus: bool = True) -> None:
        """Replace the widgets; the focus stays on the same position when it can."""
        old = self.focused
        self.widgets = list(widgets)
        for widget in self.widgets:
            if self.on_refused is not None and widget.on_refused is None:
                widget.on_refused = self.on_refused
        if keep_focus and old in self.widgets:
            self.index = self.widgets.index(old)
        elif not self._focusable() or self._nothing_chosen:
            self.index = -1
        else:
            self.index = min(max(self.index, 0), len(self.widgets) - 1)
            if not self._can_focus(self.widgets[self.index]):
                self.index = self._focusable()[0]
        self._sync()

    def _can_focus(self, widget: Widget) -> bool:
        return widget.focusable and widget.visible

    def _focusable(self) -> list[int]:
        return [i for i, w in enumerate(self.widgets) if self._can_focus(w)]

    @property
    def focused(self) -> Widget | None:
        return self.widgets[self.index] if 0 <= self.index < len(self.widgets) else None

    def focus(self, widget: Widget | None, keyboard: bool | None = None) -> None:
        self.index = self.widgets.index(widget) if widget in self.widgets else -1
        self._nothing_chosen = False
        if keyboard is not None:
            self.keyboard_mode = keyboard
        self._sync()

    def choose(self, widget: Widget) -> None:
        """A choosing hotkey (``Widget.hotkey_chooses``): focus ``widget`` and say so through
        ``on_chosen``; a disabled widget says why instead."""
        if not widget.enabled:
            widget.refuse()
            return
        self.focus(widget, keyboard=True)
        if self.on_chosen is not None:
            self.on_chosen(widget)

    def focus_nothing(self) -> None:
        """Leave every widget unfocused, also through later layouts, until Tab, an arrow or a
        click chooses one: a dialog whose focused button Enter would press opens like this, so
        a stray Enter chooses nothing (Tab and the arrows begin at ``start``)."""
        self.index = -1
        self._nothing_chosen = True
        self._sync()

    def _sync(self) -> None:
        for i, widget in enumerate(self.widgets):
            widget.focused = i == self.index
            # Text boxes always show where typing goes; others only after keyboard use.
            widget.show_focus_ring = self.keyboard_mode

    def _start_index(self) -> int | None:
        """The index of ``start``, when it is one of the widgets and can take the focus."""
        start = self.start
        if start is not None and start in self.widgets and self._can_focus(start):
            return self.widgets.index(start)
        return None

    def move(self, step: int) -> None:
        order = self._focusable()
        if not order:
            return
        if self.index not in order:
            start = self._start_index()
            self.index = start if start is not None else order[0 if step > 0 else -1]
        else:
            self.index = order[(order.index(self.index) + step) % len(order)]
        self._nothing_chosen = False
        self.keyboard_mode = True
        self._sync()

    def move_direction(self, dx: int, dy: int) -> bool:
        """Focus the nearest widget in the direction (dx, dy); False when there is none."""
        current = self.focused
        if current is None:
            self.move(1)
            return True
        origin = pygame.math.Vector2(current.rect.center)
        best, best_score = None, float("inf")
        for i in self._focusable():
            widget = self.widgets[i]
            if widget is current:
                continue
            delta = pygame.math.Vector2(widget.rect.center) - origin
            along = delta.x * dx + delta.y * dy
            if along <= 0:
                continue
            across = abs(delta.x * dy) + abs(delta.y * dx)
            # Favour widgets straight ahead: sideways offset costs more than distance.
            score = along + across * 2.5
            if score < best_score:
                best, best_score = i, score
        if best is None:
            return False
        self.index = best
        self._nothing_chosen = False
        self.keyboard_mode = True
        self._sync()
        return True

    def hint(self) -> str | None:
        """The reason of the hovered disabled widget, else of the focused one (keyboard)."""
        for widget in self.widgets:
            if widget.hovered and widget.visible and widget.hint:
                return widget.hint
        focused = self.focused
        if focused is not None and self.keyboard_mode and focused.hint:
            return focused.hint
        return None

    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.KEYDOWN:
            chosen = next((w for w in self.widgets if w.hotkey_chooses and w.visible and w.matches_hotkey(event)), None)
            if chosen is not None:
                self.choose(chosen)
                return True
            focused = self.focused
            if focused is not None and event.key != pygame.K_TAB:
                if event.key in ACTIVATE_KEYS or event.key in ARROW_KEYS:
                    self.keyboard_mode = True
                    self._sync()
                if focused.handle_event(event):
                    return True
            for widget in self.widgets:
                if widget is not focused and widget.matches_hotkey(event):
                    return widget.handle_event(event)
            if event.key == pygame.K_TAB:
                self.move(-1 if event.mod & pygame.KMOD_SHIFT else 1)
                return True
            if event.key in ARROW_KEYS:
                return self.move_direction(*ARROW_KEYS[event.key])
            return False
        if event.type == pygame.TEXTINPUT:
            focused = self.focused
            return bool(focused is not None and focused.handle_event(event))
        used = False
        for i, widget in enumerate(self.widgets):
            if widget.handle_event(event):
                used = True
                if event.type == pygame.MOUSEBUTTONDOWN and self._can_focus(widget) and widget.enabled:
                    self.index = i
                    self._nothing_chosen = False
                    self.keyboard_mode = False
                    self._sync()
        return used

    def update(self, dt: float) -> None:
        for widget in self.widgets:
            updater = getattr(widget, "update", None)
            if updater is not None:
                updater(dt)

    def draw(self, surface: pygame.Surface) -> None:
        for widget in self.widgets:
            if widget is not self.focused:
                widget.draw(surface)
        if self.focused is not None:
            self.focused.draw(surface)  # last, so its ring is never covered
